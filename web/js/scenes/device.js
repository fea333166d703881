// "Use my name on another device": a one-time code and its link for the
// player's name, copyable, with the time it has left (signin.js asks the
// server). Another code can be asked for once this one has expired.
import { t } from "../i18n.js";
import { fmtTime } from "../format.js";
import { refusalText, requestCode, showCode } from "../signin.js";
import { $, copyText, currentScene, show } from "../ui.js";

let ctx = null;   // {getState, token(name), showMenu}
let offer = null;   // {code, link, expiresAt}
let timer = null;
let seq = 0;

export function initDevice(context) {
  ctx = context;
  $("btn-device").addEventListener("click", showDevice);
  $("device-new").addEventListener("click", showDevice);
  $("device-back").addEventListener("click", () => { stop(); ctx.showMenu(); });
  $("device-copy").addEventListener("click", () => copied("device-copy", offer && offer.link, "device.copyLink"));
  $("device-copy-code").addEventListener("click", () => copied("device-copy-code", offer && offer.code, "device.copyCode"));
}

async function copied(id, text, label) {
  if (!text) return;
  await copyText(text);
  $(id).textContent = t("lobby.copied");
  setTimeout(() => { $(id).textContent = t(label); }, 1500);
}

function stop() {
  clearInterval(timer);
  timer = null;
}

/** Asks for a new code and shows it. */
export async function showDevice() {
  stop();
  offer = null;
  const mine = ++seq;
  const player = ctx.getState().player;
  const name = player ? player.name : "";
  $("device-card").hidden = true;
  $("device-new").hidden = true;
  $("device-error").textContent = "";
  $("device-status").textContent = t("loading");
  if (currentScene() !== "device") show("device");
  try {
    const got = await requestCode(name, ctx.token(name));
    if (mine !== seq) return;
    offer = got;
  } catch (e) {
    if (mine !== seq) return;
    $("device-status").textContent = "";
    $("device-error").textContent = refusalText(e);
    $("device-new").hidden = false;
    return;
  }
  $("device-status").textContent = "";
  $("device-code").textContent = showCode(offer.code);
  $("device-code").dataset.code = offer.code;
  $("device-link").value = offer.link;
  $("device-card").hidden = false;
  tick();
  timer = setInterval(tick, 1000);
}

/** The time the code has left; once gone, it says so and offers another. */
function tick() {
  if (!offer) return;
  if (currentScene() !== "device") { stop(); return; }
  const left = offer.expiresAt - performance.now();
  const expired = left <= 0;
  $("device-card").classList.toggle("expired", expired);
  $("device-expiry").textContent = expired ? t("device.expired") : t("device.expiresIn", { t: fmtTime(Math.ceil(left / 1000) * 1000) });
  $("device-expiry").dataset.expired = String(expired);
  $("device-new").hidden = !expired;
  if (expired) stop();
}

export function relabelDevice() {
  if (currentScene() !== "device") return;
  tick();
  if (!offer && $("device-error").textContent) $("device-error").textContent = t("signin.unavailable");
}
