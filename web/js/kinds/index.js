// The games this client draws in its own way. Adding a kind is its file
// and one line here; a game without one is drawn by the generic kind.
import generic from "./generic.js";
import mindpad from "./mindpad.js";

const KINDS = new Map([
  [mindpad.id, mindpad],
]);

/** The kind module of a game (its catalog id). */
export function kindFor(gameId) {
  return KINDS.get(gameId) || generic;
}
