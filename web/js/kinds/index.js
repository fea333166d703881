// The games this client draws in its own way. Adding a kind is its file
// and one line here; a game without one is drawn by the generic kind.
import addone from "./addone.js";
import generic from "./generic.js";
import kids from "./kids.js";
import mindpad from "./mindpad.js";
import pathfinder from "./pathfinder.js";

const KINDS = new Map([
  [mindpad.id, mindpad],
  [addone.id, addone],
  [pathfinder.id, pathfinder],
]);

/** The kind module of a game (its catalog id); the nine kids' games (kids_*) share one. */
export function kindFor(gameId) {
  if (typeof gameId === "string" && gameId.startsWith("kids_")) return kids;
  return KINDS.get(gameId) || generic;
}
