// First visit and "change name": the name form.
import { getLang, has, t } from "../i18n.js";
import { gameName } from "../catalog.js";
import { kindFor } from "../kinds/index.js";
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

let said = null;   // {allowCancel, name, entry} of the screen shown, to say it again in another language

/**
 * What the first screen says (issue 45): for a visitor sent to a game (`entry.game`: a game's id,
 * or a group's) or invited to a room of one (`entry.room`), that game, in its kind's words (`greeting`); for anyone
 * else the whole app; and for a player changing their name, what that does: the name is the
 * player, in every game, and the old name keeps its scores (`name` is the name now).
 */
export function onboardingText(allowCancel, name, entry, catalog) {
  if (allowCancel) return { title: t("onboard.rename.title"), lead: t("onboard.rename.lead", { name }), greeting: null };
  const id = entry && typeof entry.game === "string" ? entry.game : null;
  // A kind may greet its players its own way (the kids' corner: a child, pictures, a grown-up types).
  const greeting = id && kindFor(id).greeting ? kindFor(id).greeting() : null;
  const known = (catalog || []).find((g) => g.id === id);
  const game = known ? gameName(known, getLang()) : null;
  const about = greeting ? greeting.about : id && has(`onboard.about.${id}`) ? t(`onboard.about.${id}`) : null;
  const ask = greeting ? greeting.ask : t("onboard.ask");
  const lead = (text) => t("onboard.lead", { about: text, ask });
  if (entry && entry.room) {
    return { title: t("onboard.invited", { code: entry.room }), greeting,
      lead: game && about ? t("onboard.lead.game", { game, about, ask }) : about ? lead(about) : ask };
  }
  if (greeting) return { title: greeting.title, lead: lead(greeting.about), greeting };
  if (about && game) return { title: t("onboard.game.title", { game }), lead: lead(about), greeting };
  return { title: t("onboard.title"), lead: lead(t("onboard.about.all")), greeting };
}

function sayIt() {
  if (!said) return;
  const { title, lead, greeting } = onboardingText(said.allowCancel, said.name, said.entry, ctx.getState().catalog);
  $("onboard-title").textContent = title;
  $("onboard-lead").textContent = lead;
  const pics = $("onboard-pictures");
  const pictures = greeting && greeting.pictures ? greeting.pictures() : [];
  pics.hidden = !pictures.length;
  if (pictures.length && !pics.firstChild) pics.append(...pictures);
}

export function startOnboarding(allowCancel, name = "", entry = null) {
  said = { allowCancel, name, entry };
  sayIt();
  $("onboard-error").textContent = "";
  $("onboard-cancel").hidden = !allowCancel;
  $("name-input").value = allowCancel ? name : "";
  showSignInError("");
  show("onboard");
  $("name-input").focus();
}

/** The first screen in the page's new language. */
export function relabelOnboard() {
  sayIt();
}

/** The server refused `name`: say why, and leave it in the box to fix. */
export function showRejected(name, reason) {
  $("name-input").value = name;
  $("onboard-error").textContent = t("onboard.rejected", { name, reason });
}
