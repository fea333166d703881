// First visit and "change name": the name form.
import { t } from "../i18n.js";
import { normalizeCode } from "../signin.js";
import { $, show } from "../ui.js";

let ctx = null;   // {getState, useName(name), cancelRename(), signIn(code)}

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
  // A code from another device signs in with the name it was made for.
  $("signin-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = normalizeCode($("signin-code").value);
    if (!code) { showSignInError(t("signin.bad_sign_in_code")); return; }
    showSignInError("");
    $("signin-go").disabled = true;
    ctx.signIn(code).finally(() => { $("signin-go").disabled = false; });
  });
}

/** Why a code was refused, under its box (empty: nothing to say). */
export function showSignInError(text) {
  $("signin-error").textContent = text;
}

export function startOnboarding(allowCancel, name = "") {
  $("onboard-error").textContent = "";
  $("onboard-cancel").hidden = !allowCancel;
  $("name-input").value = allowCancel ? name : "";
  showSignInError("");
  show("onboard");
  $("name-input").focus();
}

/** The server refused `name`: say why, and leave it in the box to fix. */
export function showRejected(name, reason) {
  $("name-input").value = name;
  $("onboard-error").textContent = t("onboard.rejected", { name, reason });
}
