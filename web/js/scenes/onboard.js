// First visit and "change name": the name form.
import { getLang, has, t } from "../i18n.js";
import { gameName } from "../catalog.js";
import { kindFor } from "../kinds/index.js";
import { thingIcon } from "../kids/art.js";
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
 * or "kids" for the kids' corner) or invited to a room of one (`entry.room`), that game; for anyone
 * else the whole app; and for a player changing their name, what that does: the name is the
 * player, in every game, and the old name keeps its scores (`name` is the name now).
 */
export function onboardingText(allowCancel, name, entry, catalog) {
  if (allowCancel) return { title: t("onboard.rename.title"), lead: t("onboard.rename.lead", { name }), kids: false };
  const id = entry && typeof entry.game === "string" ? entry.game : null;
  const kids = !!id && kindFor(id).greetsChildren === true;
  const known = (catalog || []).find((g) => g.id === id);
  const game = known ? gameName(known, getLang()) : null;
  const about = kids ? t("onboard.about.kids") : id && has(`onboard.about.${id}`) ? t(`onboard.about.${id}`) : null;
  const ask = t(kids ? "onboard.kids.ask" : "onboard.ask");
  const lead = (text) => t("onboard.lead", { about: text, ask });
  if (entry && entry.room) {
    return { title: t("onboard.invited", { code: entry.room }), kids,
      lead: game && about ? t("onboard.lead.game", { game, about, ask }) : about ? lead(about) : ask };
  }
  if (kids) return { title: t("onboard.kids.title"), lead: lead(t("onboard.about.kids")), kids };
  if (about && game) return { title: t("onboard.game.title", { game }), lead: lead(about), kids };
  return { title: t("onboard.title"), lead: lead(t("onboard.about.all")), kids };
}

function sayIt() {
  if (!said) return;
  const { title, lead, kids } = onboardingText(said.allowCancel, said.name, said.entry, ctx.getState().catalog);
  $("onboard-title").textContent = title;
  $("onboard-lead").textContent = lead;
  const pics = $("onboard-pictures");
  pics.hidden = !kids;
  if (kids && !pics.firstChild) for (const thing of ["apple", "duck", "star"]) pics.append(thingIcon(thing, null, "kid-icon"));
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
