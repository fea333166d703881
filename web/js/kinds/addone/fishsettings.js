// Create a fish (the seed's Settings page): a name under the player-name
// rules and a kind, whose picture follows the choice. The server keeps the
// fish (POST /api/players/{name}/fish); a refused name is said next to the
// box and stays there to be fixed.
import { t } from "../../i18n.js";
import { createFish, fishKinds, pictureOf, FISH_KINDS } from "./fish.js";
import { $, errorText, show } from "../../ui.js";

let ctx = null;   // {getState, token(name), openTank(fish)}
let kinds = FISH_KINDS;
let busy = false;

export function initFishSettings(context) {
  ctx = context;
  $("fish-kind").addEventListener("change", preview);
  $("fish-form").addEventListener("submit", (e) => { e.preventDefault(); create(); });
  fillKinds();
}

/** The kind's name in the page's language. */
export function kindName(kind) {
  const key = `fish.kind.${kind}`;
  const name = t(key);
  return name === key ? kind : name;
}

function fillKinds() {
  const select = $("fish-kind");
  const keep = select.value || kinds[0];
  select.replaceChildren();
  for (const k of kinds) {
    const o = document.createElement("option");
    o.value = k;
    o.textContent = kindName(k);
    select.append(o);
  }
  select.value = kinds.includes(keep) ? keep : kinds[0];
  preview();
}

function preview() {
  const kind = $("fish-kind").value;
  const img = $("fish-preview");
  img.src = pictureOf(kind);
  img.alt = t("fish.picture", { kind: kindName(kind) });
  img.dataset.kind = kind;
}

export function showFishSettings() {
  $("fish-form-error").textContent = "";
  $("fish-name").value = "";
  $("fish-name").removeAttribute("aria-invalid");
  show("fish-settings");
  $("fish-name").focus();
  fishKinds().then((k) => { kinds = k; fillKinds(); });
}

export function relabelFishSettings() { fillKinds(); }

async function create() {
  if (busy) return;
  const name = $("fish-name").value.trim();
  const kind = $("fish-kind").value;
  const error = $("fish-form-error");
  error.textContent = "";
  if (!name) { refuse(name, t("err.name_empty")); return; }
  const player = ctx.getState().player;
  if (!player) { error.textContent = t("error.unavailable"); return; }
  busy = true;
  $("fish-create").disabled = true;
  try {
    const fish = await createFish(player.name, ctx.token(player.name), name, kind);
    ctx.openTank(fish);
  } catch (e) {
    // Names follow the server's rules (PlayerName): its reason, ours when we have one for its code.
    if (e.status === 400) refuse(name, errorText({ code: e.code, message: e.message }));
    else if (e.status === 409) error.textContent = t("fish.tooMany");
    else error.textContent = t("fish.unavailable");
  } finally {
    busy = false;
    $("fish-create").disabled = false;
  }
}

function refuse(name, reason) {
  $("fish-name").setAttribute("aria-invalid", "true");
  $("fish-form-error").textContent = t("fish.rejected", { name, reason });
  $("fish-name").focus();
}
