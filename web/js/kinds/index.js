// The games this client draws in its own way: each kind is a folder
// (kinds/<kind>/: index.js, its strings, its scenes and inputs) and one line
// here; a game without one is drawn by the generic kind. A module serves a
// game by the game's id, or by the catalog's `group` (one module for a
// family of games: the kids' nine): nothing reads an id's shape.
//
// What a kind's module may add to the defaults (kinds/generic.js), each optional:
//   strings         {en: {...}, zh: {...}}, added to i18n.js's
//   inputs          {answer_input: create}, the inputs its games are answered with
//   boot(ctx)       once at start: wires its scenes and registers its homes (homes.js)
//   relabel(scene)  after a language switch, with the scene shown
//   menu(state)     the menu is drawn: what the kind adds to it
//   greeting()      the first screen of a visitor sent to its games: {title, about, ask, pictures()}
//   ownsScene(id)   whether a scene is its own (a home, an end), which a room's end leaves alone
//   quit(ctx, race) the game scene's Quit (asked of every kind: the tank has no race before Start); true when it took it
//   soloEnd(state)  a solo run ended: true when it shows the end itself
//   saved(state)    result_saved arrived
//   message(msg, state) a server message only its games get (Add-One's `fish`)
//   refused(msg)    a create_room was refused: true when its own scene takes it
//   leaving()       the player leaves to the menu
//   enterGame(spectator) / leaveGame() / graded(kind, graded, prompt): the game scene's moments
//                   (leaveGame is asked of every kind, to clear what it drew, before any game)
import { addStrings } from "../i18n.js";
import { registerInput } from "../inputs/index.js";
import addone from "./addone/index.js";
import generic from "./generic.js";
import kids from "./kids/index.js";
import mindpad from "./mindpad/index.js";
import pathfinder from "./pathfinder/index.js";

const ALL = [mindpad, addone, pathfinder, kids];
const KINDS = new Map(ALL.map((kind) => [kind.id, kind]));

for (const kind of ALL) {
  if (kind.strings) addStrings(kind.strings);
  for (const [input, create] of Object.entries(kind.inputs || {})) registerInput(input, create);
}

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

/** Every kind this client draws in its own way, for what is asked of each (`boot`, `relabel`, …). */
export function allKinds() {
  return ALL;
}

/** Asks every kind that has `hook`; true as soon as one says it took the moment. */
export function anyKind(hook, ...args) {
  return ALL.some((kind) => typeof kind[hook] === "function" && kind[hook](...args) === true);
}
