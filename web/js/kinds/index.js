// The games this client draws in its own way. Adding a kind is its file
// and one line here; a game without one is drawn by the generic kind. A
// module serves a game by the game's id, or by the catalog's `group` (one
// module for a family of games: the kids' nine): nothing reads an id's shape.
import addone from "./addone.js";
import generic from "./generic.js";
import kids from "./kids.js";
import mindpad from "./mindpad.js";
import pathfinder from "./pathfinder.js";

const KINDS = new Map([mindpad, addone, pathfinder, kids].map((kind) => [kind.id, kind]));

/** Each game's group (GET /api/games), by game id. */
let groups = new Map();

/** Learns the games' groups from the catalog (`readCatalog`'s games). */
export function learnCatalog(games) {
  groups = new Map((games || []).filter((g) => typeof g.group === "string" && g.group).map((g) => [g.id, g.group]));
}

/** The kind module of a game (its catalog id, or a group's name), else the generic one. */
export function kindFor(gameId) {
  return KINDS.get(gameId) || KINDS.get(groups.get(gameId)) || generic;
}
