// The kids' levels: the ladder a game's catalog entry lists (`levels`,
// `pass_mark`), the player's progress kept on the server
// (GET /api/players/{name}/levels with the player's token), and the stars a
// number of right answers earns. The reading functions are pure.
import { api } from "../../net.js";
export { levelName } from "../../catalog.js";

/** Games with levels, in the catalog's order. */
export function levelGames(catalog) {
  return (catalog || []).filter((g) => g && Array.isArray(g.levels) && g.levels.length > 0);
}

/** Stars for right answers out of 10: 3 for all ten, 2 for a pass (8–9), 1 for 5–7, else none. */
export function starsFor(correct, passMark = 8) {
  if (!Number.isInteger(correct)) return 0;
  if (correct >= 10) return 3;
  if (correct >= passMark) return 2;
  return correct >= 5 ? 1 : 0;
}

/**
 * One game's levels as the level screen shows them: every level of the
 * ladder with open (≤ unlocked), best_correct (or null) and stars.
 */
export function levelRows(entry, progress) {
  const mine = progress || { unlocked: 1, levels: [] };
  const unlocked = Number.isInteger(mine.unlocked) ? mine.unlocked : 1;
  return (entry.levels || []).map(({ level }) => {
    const p = (mine.levels || []).find((x) => x.level === level) || null;
    const best = p && Number.isInteger(p.best_correct) ? p.best_correct : null;
    return { level, open: level <= unlocked, best, passed: !!(p && p.passed), stars: starsFor(best, entry.pass_mark || 8) };
  });
}

/** The player's progress by game id: {game → {unlocked, levels}}. */
export async function fetchProgress(player, token, game = null) {
  const q = game ? `?game=${encodeURIComponent(game)}` : "";
  const body = await api(`/api/players/${encodeURIComponent(player)}/levels${q}`, { token });
  const byGame = {};
  for (const g of (body && Array.isArray(body.games) ? body.games : [])) if (g && g.game) byGame[g.game] = g;
  return byGame;
}
