// Taking a name to another device (issue 19, docs/openapi.yaml): a one-time
// code asked for on the first device (POST /api/players/{name}/sign_in_codes
// with the player's token), redeemed on the second (POST /api/sign_in), which
// gets a token of its own. No DOM: the scenes show what these return.
import { t } from "./i18n.js";
import { api } from "./net.js";

/** The letters a code is made of (no 0/O, 1/I/L): 8 of them. */
const ALPHABET = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;
/** How long a code lives, for a clock that disagrees with the server's. */
const LIFETIME_MS = 10 * 60 * 1000;

/** A code as typed ("k7qf-3mzd", "K7QF 3MZD") in the server's form, or null when it cannot be one. */
export function normalizeCode(text) {
  const code = String(text || "").toUpperCase().replace(/[\s-]+/g, "");
  return ALPHABET.test(code) ? code : null;
}

/** "K7QF3MZD" → "K7QF-3MZD", easier to read aloud and to type. */
export function showCode(code) {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

/** A new code for `name`: {code, link, expiresAt} (expiresAt on this page's clock, performance.now()). */
export async function requestCode(name, token) {
  const body = await api(`/api/players/${encodeURIComponent(name)}/sign_in_codes`, { method: "POST", token });
  let left = Date.parse(body.expires_at) - Date.now();
  if (!(left > 0 && left <= LIFETIME_MS + 5000)) left = LIFETIME_MS;   // a clock that is off: trust the rule
  return { code: body.code, link: new URL(body.link || `/?sign_in=${body.code}`, location.origin).href, expiresAt: performance.now() + left };
}

/** Signs in with a code: {name, token}; throws an Error with `code` (the server's) and `status`. */
export async function redeemCode(code) {
  const body = await api("/api/sign_in", { method: "POST", body: { code } });
  if (!body || typeof body.name !== "string" || typeof body.token !== "string") {
    const err = new Error("bad answer");
    err.status = 502;
    throw err;
  }
  return body;
}

/** Why a code was refused (or could not be asked for), in the page's language. */
export function refusalText(err) {
  if (err && err.status === 429) return t("signin.tooMany");
  const known = ["sign_in_code_used", "sign_in_code_expired", "unknown_sign_in_code", "bad_sign_in_code", "wrong_token", "unknown_player"];
  if (err && known.includes(err.code)) return t(`signin.${err.code}`);
  if (err && err.status === 401) return t("signin.wrong_token");
  return t("signin.unavailable");
}
