// The game scene: the bar (quit, mode, score), the race lanes, the prompt
// and the answer input of the room's game, the clock. What a prompt looks
// like and how it is answered belong to the game's kind (kinds/) and its
// input (inputs/); this scene only places them.
import { getLang, t } from "../i18n.js";
import { levelName } from "../catalog.js";
import { createInput } from "../inputs/index.js";
import { allKinds, kindFor } from "../kinds/index.js";
import { fmtTime, modeName } from "../format.js";
import { gameInfo, isSolo, lanes, lanesMeaning, myRole, watched } from "../state.js";
import { $, currentScene, show, textEl } from "../ui.js";
import { takeGraded } from "../review/attempts.js";
import { hideCountdown } from "./countdown.js";
import { clearRecap, relabelRecap, showRecap } from "./recap.js";

let ctx = null;     // {send, dispatch, getState, quitGame}
let kind = null;
let input = null;
let clockTimer = null;

export function initGame(context) {
  ctx = context;
  $("game-quit").addEventListener("click", () => ctx.quitGame());
  document.addEventListener("keydown", (e) => {
    if (currentScene() !== "game" || !input || e.target.tagName === "INPUT") return;
    if (document.querySelector("dialog[open]")) return;   // keys belong to the open question
    input.key(e);
  });
}

/** Shows the game scene for the state's race, from a clean slate. */
export function enterGame(state) {
  hideCountdown();
  const race = state.race;
  kind = kindFor(race.game);
  const info = gameInfo(state, race.game);
  if (input) input.unmount();
  // A spectator answers nothing: no pad, no keypad, no score of their own.
  const spectator = myRole(state) === "spectator";
  input = spectator ? watchOnly() : createInput(info ? info.answer_input : kind.input, kind, ctx);
  $("game-score").textContent = String(race.score);
  // A score that means nothing until the run ends (the path finder's rank value) is not shown meanwhile.
  $("game-score").parentElement.hidden = kind.scoreInGame === false || spectator;
  // Nothing a kind drew for a game before (a feedback card, a speaker), then what this one's kind adds.
  for (const k of allKinds()) if (k.leaveGame) k.leaveGame();
  if (kind.enterGame) kind.enterGame(spectator);
  $("watching").hidden = true;
  showMode(race.mode, state.room ? state.room.room.level : null);
  const q = $("question");
  q.replaceChildren();
  delete q.dataset.id;
  $("question-num").textContent = "";
  clearRecap();
  $("game-wait").hidden = true;
  $("lanes").hidden = isSolo(state);
  const label = race.mode === "time_attack" ? "game.timeLeft" : "game.time";
  $("clock-label").dataset.i18n = label;
  $("clock-label").textContent = t(label);
  show("game");
  document.querySelector("#scene-game .clock").hidden = false;
  input.mount();
  startClock();
  renderLanes(state);
  if (race.question && !spectator) showQuestion(state, false);
  if (spectator) { showWait("game.spectating"); showWatched(state); }
}

/** The input of a spectator: nothing to answer with. */
function watchOnly() {
  return { mount() {}, question() {}, refresh() {}, key() {}, unmount() {} };
}

/** The mode in the bar, remembered so a language switch names it again. */
function showMode(mode, level = null) {
  const el = $("game-mode");
  el.dataset.mode = mode || "";
  if (level !== undefined) el.dataset.level = Number.isInteger(level) ? String(level) : "";
  // A race at a level (the kids' games) names its level: "Level 2: Bee".
  const at = el.dataset.level ? Number(el.dataset.level) : null;
  const entry = at ? gameInfo(ctx.getState(), ctx.getState().race.game) : null;
  el.textContent = at ? t("game.levelN", { n: at, name: levelName(entry, at, getLang()) }) : (mode ? modeName(mode) : "");
}

/** The game scene with no race in it (the fish tank before Start): no input, no question, score 0. */
export function clearGame(mode = null) {
  stopClock();
  for (const k of allKinds()) if (k.leaveGame) k.leaveGame();
  if (input) { input.unmount(); input = null; }
  $("question").replaceChildren();
  delete $("question").dataset.id;
  $("question-num").textContent = "";
  clearRecap();
  $("game-score").textContent = "0";
  showMode(mode);
  $("game-wait").hidden = true;
  $("lanes").hidden = true;
  $("clock").textContent = "";
  document.querySelector("#scene-game .clock").hidden = true;
}

export function showQuestion(state, resent) {
  if (!input) { enterGame(state); return; }
  const question = state.race.question;
  const q = $("question");
  kind.renderPrompt(q, question.prompt);
  q.dataset.id = question.id;
  // A game of one question (the path finder) does not number it.
  $("question-num").textContent = kind.numbered === false ? "" : t("game.question", { n: question.index + 1 });
  input.question(question, resent);
}

/** Something changed that the answer input shows (a guess, a submit, the end of the run). */
export function refreshInput() {
  if (input) input.refresh();
}

/** A grade: the answer goes into the look-back box above the question (scenes/recap.js). */
export function showGraded(state) {
  const g = state.race.graded;
  const question = state.race.question;
  const prompt = question && question.id === g.question ? question.prompt : null;
  $("game-score").textContent = String(g.score);
  const at = Number(String(g.question).split("q").pop());
  showRecap(kind, g, prompt, Number.isInteger(at) ? at : null, takeGraded(g.question));
  if (kind.graded) kind.graded(kind, g, prompt);
  const fb = $("feedback");
  fb.dataset.correct = String(g.correct);
  fb.dataset.answer = g.answer !== null && typeof g.answer === "object" ? JSON.stringify(g.answer) : String(g.answer);
  fb.dataset.question = g.question;
  refreshInput();
}

/** A refused request the answer input shows itself (the path finder's `illegal_move`); false when it does not. */
export function refuseInput(msg) {
  return !!(input && input.refused && input.refused(msg));
}

export function showScore(state) {
  $("game-score").textContent = String(state.race.score);
}

/** The line under the game (an i18n key, kept so a language switch says the same thing again). */
export function showWait(key) {
  $("game-wait").dataset.i18n = key;
  $("game-wait").textContent = t(key);
  $("game-wait").hidden = false;
}

export function renderLanes(state) {
  const list = $("lanes-list");
  list.replaceChildren();
  const meaning = lanesMeaning(state);
  const caption = $("lanes-meaning");
  caption.textContent = meaning ? t(meaning.key, { n: meaning.n }) : "";
  caption.dataset.meaning = meaning ? meaning.key : "";
  for (const lane of lanes(state)) {
    const li = document.createElement("li");
    li.className = `lane ${lane.status}`;
    li.dataset.share = String(lane.share);
    if (lane.me) li.classList.add("me");
    const bar = document.createElement("span");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = `${Math.round(lane.share * 100)}%`;
    bar.append(fill);
    // The path finder: each racer's distance to the goal, live, never a score (its rank value,
    // where less is better, means nothing before the standings): at the flag once there.
    const last = lane.path ? textEl("span", "lane-score lane-left", pathLaneText(lane))
      : textEl("span", "lane-score", String(lane.score));
    if (lane.remaining !== null) last.dataset.remaining = String(lane.remaining);
    if (lane.path) last.dataset.path = lane.atGoal ? "goal" : lane.remaining !== null ? "steering" : "guessing";
    if (lane.atGoal) {
      const flag = document.createElement("img");
      flag.src = "/img/path/goal.svg";
      flag.alt = "";
      flag.className = "lane-flag";
      last.prepend(flag);
    }
    const who = textEl("span", "name", "");
    who.append(textEl("span", "who", lane.name));
    // A racer who left: marked in words, not only by the dimmed bar.
    if (lane.left) who.append(textEl("span", "lane-tag", t("lanes.left")));
    li.append(who, bar, last);
    list.append(li);
  }
}

/** A path-finder lane's words: at the flag, steps to go, or still guessing the grid (or left). */
function pathLaneText(lane) {
  if (lane.atGoal) return t("lanes.atGoal");
  if (lane.remaining !== null) return t("lanes.remaining", { n: lane.remaining });
  return lane.left ? "" : t("lanes.guessing");
}

/**
 * A spectator's view: the question the leading racer is on (`spectating`),
 * read-only, with whose it is. Drawn again only when it changed (the
 * question is a live region) or `force`d (a language switch).
 */
export function showWatched(state, force = false) {
  const w = watched(state);
  const note = $("watching");
  note.hidden = !w;
  if (!w) return;
  const said = w.racerName ? t("game.watching", { name: w.racerName }) : t("game.watchingAny");
  const q = $("question");
  const id = `watch-${w.round}-${w.index}-${w.racer}`;
  if (!force && q.dataset.id === id && note.textContent === said) return;
  note.textContent = said;
  kindFor(state.race.game).renderPrompt(q, w.prompt);
  q.dataset.id = id;
  $("question-num").textContent = kind && kind.numbered === false ? "" : t("game.question", { n: w.index + 1 });
}

function startClock() {
  clearInterval(clockTimer);
  const tick = () => {
    const race = ctx.getState().race;
    const now = performance.now();
    const countdown = race.mode === "time_attack";
    // A teacher's pause stops the clock where it stood (state.js, `pausedAt`).
    const at = race.pausedAt != null ? race.pausedAt : now;
    const ms = countdown ? Math.max(0, (race.endsAt ?? at) - at) : at - race.startedAt;
    $("clock").textContent = countdown ? fmtTime(Math.ceil(ms / 1000) * 1000) : fmtTime(ms);
    $("clock").classList.toggle("low", countdown && ms < 10000);
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

export function stopClock() {
  clearInterval(clockTimer);
}

/** Texts that depend on the language. */
export function relabelGame(state) {
  showMode($("game-mode").dataset.mode, undefined);
  relabelRecap();
  renderLanes(state);
  refreshInput();   // an input's own words (the typed digit's line)
  if (myRole(state) === "spectator") { showWatched(state, true); return; }
  // Only a question on screen is drawn again (the tank before Start shows none).
  const shown = !!state.race.question && $("question").dataset.id === state.race.question.id;
  if (shown && kind) kind.renderPrompt($("question"), state.race.question.prompt);
  if (shown && kind.numbered !== false) $("question-num").textContent = t("game.question", { n: state.race.question.index + 1 });
}
