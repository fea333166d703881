// The connection banner: reconnecting, unreachable, or replaced by another
// tab or device signed in under the same name (closed with 4001).
import { t } from "../i18n.js";
import { $, currentScene } from "../ui.js";

/** Shows what the link reports ("connecting", "open", "retrying", "down", "closed"). */
export function showConnState(state, info) {
  const banner = $("conn-banner"), text = $("conn-text"), button = $("conn-retry");
  if (state === "open") { banner.hidden = true; return; }
  if (state === "connecting") {
    if (currentScene() === "loading") banner.hidden = true;
    return;
  }
  if (state === "retrying") {
    text.textContent = t("conn.reconnecting", { s: Math.ceil(info.delay / 1000) });
    banner.dataset.state = "retrying";
  } else if (state === "down") {
    text.textContent = t("conn.down");
    banner.dataset.state = "down";
  } else if (state === "closed" && info === 4001) {
    text.textContent = t("err.replaced");
    banner.dataset.state = "replaced";
  } else {
    return;
  }
  // The same button reconnects; after a takeover it takes the name back here.
  button.dataset.i18n = banner.dataset.state === "replaced" ? "conn.playHere" : "conn.retry";
  button.textContent = t(button.dataset.i18n);
  banner.hidden = false;
}

/** Says, while the banner shows, that the player's answer waits to be sent (controller.js, `unanswered`). */
export function showAnswerWaiting(on) {
  $("conn-wait").hidden = !on;
}

export function relabelBanner() {
  if ($("conn-banner").hidden) return;
  const st = $("conn-banner").dataset.state;
  if (st === "down") $("conn-text").textContent = t("conn.down");
  if (st === "replaced") $("conn-text").textContent = t("err.replaced");
}
