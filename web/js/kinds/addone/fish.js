// The player's fish (GET/POST/DELETE /api/players/{name}/fish, with the
// player's token), the kinds the client can draw, and the aquarium's look
// (GET /api/weather). The page fetches through these; the pure helpers
// (clockLook, readWeather, pictureOf) decide nothing from the DOM.
import { api } from "../../net.js";

/** The kinds this client has a picture for (web/img/fish/<kind>.svg). */
export const FISH_KINDS = ["goldfish", "clownfish", "angelfish", "pufferfish", "betta"];
export const LOOKS = ["sunny", "cloudy", "rain", "snow", "night"];

/** A kind's picture; a kind this client does not know is drawn as a goldfish. */
export function pictureOf(kind) {
  return `/img/fish/${FISH_KINDS.includes(kind) ? kind : "goldfish"}.svg`;
}

/** The look the server would choose without a provider: night 19:00–06:00, else sunny. */
export function clockLook(date = new Date()) {
  const h = date.getHours();
  return h >= 19 || h < 6 ? "night" : "sunny";
}

/** A weather answer's look, or null when it is not one this client draws. */
export function readWeather(body) {
  return body && LOOKS.includes(body.look) ? body.look : null;
}

function fishPath(player, id) {
  const base = `/api/players/${encodeURIComponent(player)}/fish`;
  return id ? `${base}/${encodeURIComponent(id)}` : base;
}

export async function listFish(player, token) {
  const body = await api(fishPath(player), { token });
  return body && Array.isArray(body.fish) ? body.fish : [];
}

export function createFish(player, token, name, kind) {
  return api(fishPath(player), { method: "POST", token, body: { name, kind } });
}

export function deleteFish(player, token, id) {
  return api(fishPath(player, id), { method: "DELETE", token });
}

/** The kinds the server accepts that this client can draw (all of ours when the server does not say). */
export async function fishKinds() {
  try {
    const body = await api("/api/fish/kinds");
    const kinds = body && Array.isArray(body.kinds) ? body.kinds.filter((k) => FISH_KINDS.includes(k)) : [];
    return kinds.length ? kinds : FISH_KINDS;
  } catch (_) {
    return FISH_KINDS;
  }
}

export async function weatherLook() {
  return readWeather(await api("/api/weather"));
}
