// First visit and "change name": the name form.
import { t } from "../i18n.js";
import { $, show } from "../ui.js";

let ctx = null;   // {getState, useName(name), cancelRename()}

export function initOnboard(context) {
  ctx = context;
  $("onboard-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("name-input").value.trim();
    if (!name) { showRejected(name, t("err.name_empty")); return; }
    $("onboard-error").textContent = "";
    ctx.useName(name);
  });
  $("onboard-cancel").addEventListener("click", () => ctx.cancelRename());
}

export function startOnboarding(allowCancel, name = "") {
  $("onboard-error").textContent = "";
  $("onboard-cancel").hidden = !allowCancel;
  $("name-input").value = allowCancel ? name : "";
  show("onboard");
  $("name-input").focus();
}

/** The server refused `name`: say why, and leave it in the box to fix. */
export function showRejected(name, reason) {
  $("name-input").value = name;
  $("onboard-error").textContent = t("onboard.rejected", { name, reason });
}
