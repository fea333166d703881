// The games the server hosts (GET /api/games, docs/openapi.yaml) and how a
// client reads an entry. Pure: the page fetches, these functions only read.

/** The game's name in `lang`, else English, else its id. */
export function gameName(entry, lang) {
  if (!entry) return "";
  const names = entry.names || {};
  return names[lang] || names.en || entry.id;
}

export function findGame(games, id) {
  return (games || []).find((g) => g.id === id) || null;
}

/** The game to preselect: the remembered one if the server still hosts it, else the first. */
export function pickGame(games, remembered) {
  if (!games || games.length === 0) return null;
  return findGame(games, remembered) || games[0];
}

/** A level's name in `lang` (else English, else its number), from the entry's `levels`. */
export function levelName(entry, level, lang) {
  const l = entry && Array.isArray(entry.levels) ? entry.levels.find((x) => x.level === level) : null;
  const names = (l && l.name) || {};
  return names[lang] || names.en || String(level);
}

/** The modes a game offers, in the server's order. */
export function modesOf(entry) {
  return entry && Array.isArray(entry.modes) ? entry.modes : [];
}

/** A catalog as the server sends it, with anything unusable left out. */
export function readCatalog(body) {
  const games = body && Array.isArray(body.games) ? body.games : [];
  return games.filter((g) => g && typeof g.id === "string" && g.id && Array.isArray(g.modes));
}
