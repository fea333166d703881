// "My handwriting": the reader learns how this player writes (issue 43,
// docs/protocol.md `reading`). It shows from how many drawings it has
// learned, lets the player switch the learning off (which forgets it) or on,
// and forget what it learned. The server answers each change with `reading`.
import { t } from "../i18n.js";
import { $, currentScene, show } from "../ui.js";

let ctx = null;   // {getState, send, showMenu}

export function initHandwriting(context) {
  ctx = context;
  $("btn-handwriting").addEventListener("click", showHandwriting);
  $("handwriting-back").addEventListener("click", () => ctx.showMenu());
  $("handwriting-learns").addEventListener("change", (e) => change({ learn: e.target.checked }));
  $("handwriting-forget").addEventListener("click", () => change({ forget: true }));
}

function change(fields) {
  $("handwriting-learns").disabled = true;
  $("handwriting-forget").disabled = true;
  $("handwriting-status").textContent = t("handwriting.saving");
  ctx.send({ type: "reading", ...fields });
}

export function showHandwriting() {
  show("handwriting");
  renderHandwriting(ctx.getState());
}

/** Draws the settings as the server last said them (on `identified`, `reading` and its errors). */
export function renderHandwriting(state) {
  const reading = state.reading;
  $("btn-handwriting").hidden = !reading;
  if (currentScene() !== "handwriting" || !reading) return;
  $("handwriting-learns").checked = reading.learns;
  $("handwriting-learns").disabled = false;
  $("handwriting-forget").disabled = !reading.learns || reading.learned === 0;
  $("handwriting-status").textContent = reading.learns
    ? t(reading.learned === 1 ? "handwriting.learnedOne" : "handwriting.learned", { n: reading.learned })
    : t("handwriting.off");
  $("handwriting-error").textContent = reading.error ? t("handwriting.error") : "";
}

export function relabelHandwriting() {
  if (ctx && currentScene() === "handwriting") renderHandwriting(ctx.getState());
}
