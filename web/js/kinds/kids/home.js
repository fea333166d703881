// The kids' corner (issue 17): a greeting with the child's name and Get
// Started, the nine games each with a small animation, a game's levels
// (Ant…Fox: open or locked, stars from the best run, read from the server
// with the player's token), and the end of a level (stars, and whether the
// next level opened, read again once the result is saved). The questions
// themselves are the game scene with the kids' kind (index.js).
import { getLang, t } from "../../i18n.js";
import { gameName, findGame } from "../../catalog.js";
import { fetchProgress, levelGames, levelName, levelRows, starsFor } from "./levels.js";
import { thingIcon } from "./art.js";
import { $, ask, copyText, currentScene, errorText, show, textEl, toast } from "../../ui.js";
import { answersOf, lastEndedRun, showReview } from "../../review/review.js";
import { kindFor } from "../index.js";
import kidsKind from "./index.js";

let ctx = null;   // {getState, playSolo, send, showMenu, startRename, leaveRoom, token(name)}
const view = {
  game: null,        // the game whose levels are shown or played
  progress: {},      // game → {unlocked, levels} as last read
  loadFailed: false,
  played: null,      // {game, level, unlockedBefore} of the level being played solo
};

/** Each game's picture and its little dance (CSS, still under prefers-reduced-motion). */
const LOOKS = {
  kids_counting: ["apple", "bounce"], kids_comparing: ["star", "pulse"], kids_colours: ["ball", "spin"],
  kids_positions: ["cat", "peek"], kids_classifying: ["duck", "waddle"], kids_addition: ["flower", "bounce"],
  kids_subtraction: ["fish", "swim"], kids_multiplication: ["rabbit", "hop"], kids_division: ["strawberry", "pulse"],
};

/** Whether `id` is one of the nine (its module is the kids' one, by the catalog's group). */
export const isKidsGame = (id) => typeof id === "string" && id !== kidsKind.id && kindFor(id) === kidsKind;

function playerName() {
  const s = ctx.getState();
  return s.player ? s.player.name : "";
}

export function initKids(context) {
  ctx = context;
  $("btn-kids").addEventListener("click", showKidsHello);
  $("kids-start").addEventListener("click", showKidsGames);
  $("kids-hello-menu").addEventListener("click", () => ctx.showMenu());
  $("kids-link").addEventListener("click", async () => {
    const link = `${location.origin}/?game=kids`;
    toast((await copyText(link)) ? t("kids.linkCopied") : link);
  });
  $("kids-rename").addEventListener("click", () => ctx.startRename(showKidsGames));
  $("kids-games-back").addEventListener("click", showKidsHello);
  $("kids-levels-back").addEventListener("click", showKidsGames);
  $("kids-levels-retry").addEventListener("click", () => loadLevels(view.game));
  $("kids-race").addEventListener("click", raceALevel);
  $("kids-end-levels").addEventListener("click", () => { ctx.leaveRoom(); showKidsLevels(view.game); });
  $("kids-end-again").addEventListener("click", () => playLevel(view.game, Number($("kids-end-again").dataset.level)));
  $("kids-end-next").addEventListener("click", () => playLevel(view.game, Number($("kids-end-next").dataset.level)));
}

export function showKidsHello() {
  const parade = document.querySelectorAll(".kids-parade span");
  [["apple", "bounce"], ["duck", "waddle"], ["star", "pulse"]].forEach(([thing, dance], i) => {
    if (parade[i] && !parade[i].firstChild) parade[i].append(thingIcon(thing, null, `kid-icon dance-${dance}`));
  });
  $("kids-hello-title").textContent = t("kids.hello", { name: playerName() });
  show("kids-hello");
}

function gameCard(entry) {
  const [thing, dance] = LOOKS[entry.id] || ["star", "pulse"];
  const b = document.createElement("button");
  b.type = "button";
  b.className = "kid-game";
  b.dataset.game = entry.id;
  const icon = thingIcon(thing, null, `kid-icon dance-${dance}`);
  b.append(icon, textEl("span", "kid-game-name", gameName(entry, getLang())));
  b.addEventListener("click", () => showKidsLevels(entry.id));
  return b;
}

export function showKidsGames() {
  const s = ctx.getState();
  $("kids-games-name").textContent = t("kids.playingAs", { name: playerName() });
  const list = $("kids-games-list");
  list.replaceChildren(...levelGames(s.catalog).map((g) => {
    const li = document.createElement("li");
    li.append(gameCard(g));
    return li;
  }));
  show("kids-games");
}

async function loadLevels(game) {
  const name = playerName();
  const status = $("kids-levels-status");
  $("kids-levels-retry").hidden = true;
  status.textContent = t("loading");
  try {
    const got = await fetchProgress(name, ctx.token(name), game);
    view.progress = { ...view.progress, ...got };
    view.loadFailed = false;
    status.textContent = "";
  } catch (e) {
    view.loadFailed = true;
    status.textContent = t("kids.levelsFailed", { reason: errorText({ code: e.code, message: e.message }) });
    $("kids-levels-retry").hidden = false;
  }
  if (currentScene() === "kids-levels" && view.game === game) renderLevels();
}

function starsEl(n, className = "stars") {
  const el = textEl("span", className, "★".repeat(n) + "☆".repeat(3 - n));
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", t("kids.stars", { n }));
  return el;
}

function renderLevels() {
  const entry = findGame(ctx.getState().catalog, view.game);
  if (!entry) return;
  $("kids-levels-title").textContent = gameName(entry, getLang());
  const list = $("kids-levels-list");
  const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.level : null;
  list.replaceChildren();
  // Level 1 is always open; the others only as the server last said.
  const known = !view.loadFailed || !!view.progress[view.game];
  for (const row of levelRows(entry, view.progress[view.game])) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = `kid-level ${row.open ? "open" : "locked"}`;
    b.dataset.level = String(row.level);
    b.dataset.open = String(row.open);
    const name = levelName(entry, row.level, getLang());
    const thing = ["", "ant", "bee", "cat", "dog", "elephant", "fox"][row.level];
    b.append(textEl("span", "kid-level-name", t("game.levelN", { n: row.level, name })),
      row.open ? starsEl(row.stars) : textEl("span", "lock", t("kids.locked")));
    b.dataset.animal = thing || "";
    const said = row.open
      ? t("kids.levelOpen", { n: row.level, name, stars: row.stars, best: row.best ?? 0 })
      : t("kids.levelLocked", { n: row.level, name });
    b.setAttribute("aria-label", said);
    // A locked level cannot be started: not a disabled button (it would
    // drop out of the tab order), but one that says why.
    const startable = row.open && (known || row.level === 1);
    b.setAttribute("aria-disabled", String(!startable));
    b.addEventListener("click", () => {
      if (startable) playLevel(view.game, row.level);
      else $("kids-levels-status").textContent = t("kids.lockedHint", { name });
    });
    li.append(b);
    list.append(li);
  }
  if (focused) { const again = list.querySelector(`[data-level="${focused}"]`); if (again) again.focus(); }
}

export function showKidsLevels(game) {
  view.game = game;
  $("kids-levels-status").textContent = "";
  renderLevels();
  show("kids-levels");
  loadLevels(game);
}

function unlockedOf(game) {
  const p = view.progress[game];
  return p && Number.isInteger(p.unlocked) ? p.unlocked : 1;
}

function playLevel(game, level) {
  if (!Number.isInteger(level) || level < 1) return;
  view.game = game;
  view.played = { game, level, unlockedBefore: unlockedOf(game) };
  ctx.playSolo(game, "normal", { level });
}

/** A room racing one open level of this game, shared with friends by the lobby's code and link. */
async function raceALevel() {
  const entry = findGame(ctx.getState().catalog, view.game);
  if (!entry) return;
  const open = levelRows(entry, view.progress[view.game]).filter((r) => r.open);
  const choice = await ask({
    title: t("kids.race.title"),
    body: t("kids.race.body"),
    choices: [...open.map((r) => ({ value: String(r.level), label: t("game.levelN", { n: r.level, name: levelName(entry, r.level, getLang()) }), kind: "primary" })),
      { value: "cancel", label: t("fish.cancel") }],
  });
  const level = Number(choice);
  if (!Number.isInteger(level) || level < 1) { $("kids-race").focus(); return; }
  view.played = null;
  ctx.send({ type: "create_room", game: view.game, mode: "normal", level });
}

/** The end of a solo level: right answers, stars, and (once saved) whether the next level opened. */
export function showKidsEnd(state) {
  const r = state.race.result;
  const game = state.race.game;
  const level = (state.room && state.room.room.level) || (view.played && view.played.level) || 1;
  const entry = findGame(state.catalog, game);
  view.game = game;
  if (!view.played || view.played.game !== game || view.played.level !== level) view.played = { game, level, unlockedBefore: unlockedOf(game) };
  const stars = starsFor(r.correct, (entry && entry.pass_mark) || 8);
  const passed = r.correct >= ((entry && entry.pass_mark) || 8);
  $("kids-end-title").textContent = passed ? t("kids.end.great") : t("kids.end.tryAgain");
  $("kids-end-level").textContent = `${gameName(entry, getLang())} · ${t("game.levelN", { n: level, name: levelName(entry, level, getLang()) })}`;
  $("kids-end-score").textContent = t("kids.end.score", { n: r.correct, of: r.answered });
  $("kids-end-score").dataset.correct = String(r.correct);
  $("kids-end-stars").replaceChildren(starsEl(stars, "stars big"));
  $("kids-end-unlock").textContent = t("kids.end.saving");
  $("kids-end-unlock").dataset.state = "saving";
  $("kids-end-again").dataset.level = String(level);
  $("kids-end-next").hidden = true;
  const answers = answersOf(r);
  showReview($("kids-end-review"), game, answers, r.race, { runOver: lastEndedRun(answers, state.race) });
  show("kids-end");
  if (state.race.saved) kidsSaved(state);
}

/** result_saved: the result is stored (or journalled), so the levels are read again. */
export async function kidsSaved(state) {
  if (!isKidsGame(state.race.game) || currentScene() !== "kids-end" || !view.played) return;
  const { game, level, unlockedBefore } = view.played;
  const entry = findGame(state.catalog, game);
  const el = $("kids-end-unlock");
  const name = playerName();
  try {
    const got = await fetchProgress(name, ctx.token(name), game);
    view.progress = { ...view.progress, ...got };
  } catch (_) {
    el.textContent = t("kids.end.unknown");
    el.dataset.state = "unknown";
    return;
  }
  const now = unlockedOf(game);
  const next = level + 1;
  const hasNext = !!entry && entry.levels.some((l) => l.level === next);
  if (hasNext && now >= next) {
    const nextName = levelName(entry, next, getLang());
    el.textContent = unlockedBefore < next ? t("kids.end.opened", { name: nextName }) : t("kids.end.nextOpen", { name: nextName });
    el.dataset.state = unlockedBefore < next ? "opened" : "open";
    $("kids-end-next").hidden = false;
    $("kids-end-next").dataset.level = String(next);
    $("kids-end-next").textContent = t("kids.end.next", { name: nextName });
  } else if (!hasNext && now >= level && state.race.result.correct >= ((entry && entry.pass_mark) || 8)) {
    el.textContent = t("kids.end.top");
    el.dataset.state = "top";
  } else {
    el.textContent = state.race.saved && state.race.saved.stored === "journal" ? t("kids.end.later") : t("kids.end.need", { n: (entry && entry.pass_mark) || 8 });
    el.dataset.state = "closed";
  }
}

/** Texts that depend on the language, on the kids' scene shown. */
export function relabelKids() {
  const scene = currentScene();
  if (scene === "kids-hello") $("kids-hello-title").textContent = t("kids.hello", { name: playerName() });
  if (scene === "kids-games") showKidsGames();
  if (scene === "kids-levels") renderLevels();
  if (scene === "kids-end" && ctx.getState().race.result) showKidsEnd(ctx.getState());
}
