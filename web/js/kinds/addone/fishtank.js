// Add-One Fish's Game page: the aquarium around the game scene. The chosen
// fish swims in a tank whose sky follows GET /api/weather (the clock's look
// until it answers; never waited on). Start fades away and starts a solo
// Time Attack with the fish (`create_room` with "fish"); the fish swims and
// jumps when the server says so (`fish`: at 3 and 6 right answers); a tap or a swipe turns it around; Quit
// asks first; the end offers Play again and Back. The race itself is the
// game scene's (game.js) with the addone kind and the number input.
import { t } from "../../i18n.js";
import { clockLook, pictureOf, weatherLook } from "./fish.js";
import { $, ask, dismissAsk, show } from "../../ui.js";
import { clearGame } from "../../scenes/game.js";
import { answersOf, lastEndedRun, showReview } from "../../review/review.js";

let ctx = null;    // {getState, playSolo, leaveRoom, showFishStart}
let tank = null;   // {fish}: the fish in the tank, while the Game page is open
let lookSeq = 0;
let swipe = null;  // {id, x, y} of a pointer down on the fish
let swiped = false;


export function initFishTank(context) {
  ctx = context;
  $("fish-go").addEventListener("click", start);
  const fish = $("fish-swimmer");
  fish.addEventListener("pointerdown", (e) => { swipe = { id: e.pointerId, x: e.clientX, y: e.clientY }; });
  fish.addEventListener("pointerup", (e) => {
    if (!swipe || swipe.id !== e.pointerId) return;
    const dx = e.clientX - swipe.x, dy = e.clientY - swipe.y;
    swipe = null;
    if (Math.abs(dx) > 24 && Math.abs(dx) > Math.abs(dy)) { swiped = true; flip(); }
  });
  fish.addEventListener("pointercancel", () => { swipe = null; });
  // A swipe ends in a click too: that click is the swipe's, not a second turn.
  fish.addEventListener("click", () => { if (swiped) { swiped = false; return; } flip(); });
}

export const tankActive = () => !!tank;

/** Opens the Game page with `fish` ({id, name, kind, best_score}), ready to Start. */
export function openTank(fish) {
  tank = { fish: { ...fish } };
  $("scene-game").classList.add("tank");
  $("aquarium").hidden = false;
  const img = $("fish-img");
  img.src = pictureOf(fish.kind);
  img.dataset.kind = fish.kind;
  $("aq-name").textContent = fish.name;
  resetTank();
  show("game");
  $("fish-go").focus();
  applyLook(clockLook(), "clock");
  const mine = ++lookSeq;
  weatherLook().then((look) => {
    if (mine === lookSeq && tank && look) applyLook(look, "weather");
  }).catch(() => { /* the clock's look stays */ });
}

function applyLook(look, source) {
  const aq = $("aquarium");
  aq.dataset.look = look;
  aq.dataset.lookSource = source;
}

/** The fish back where it started, unturned, still; the game scene empty; Start shown. */
function resetTank() {
  clearGame("time_attack");
  const fish = $("fish-swimmer");
  fish.dataset.react = "";
  fish.dataset.flipped = "false";
  const go = $("fish-go");
  go.hidden = false;
  go.disabled = false;
  go.classList.remove("fading");
  showHint();
}

/** Under Start: what it does, and the fish's best so far. */
function showHint() {
  const hint = $("fish-hint");
  hint.hidden = false;
  hint.textContent = t("fish.startHint", { name: tank.fish.name, best: tank.fish.best_score || 0 });
}

/** Texts that depend on the language. */
export function relabelTank() {
  if (tank && !$("fish-hint").hidden) showHint();
}

/** The server refused to open the race: Start again. */
export function tankRefused() {
  if (tank) resetTank();
}

function start() {
  if (!tank) return;
  const go = $("fish-go");
  go.disabled = true;
  $("fish-hint").hidden = true;
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (reduced) go.hidden = true;
  else {
    go.classList.add("fading");
    go.addEventListener("animationend", () => { if (go.classList.contains("fading")) go.hidden = true; }, { once: true });
  }
  ctx.playSolo("addone", "time_attack", { fish: tank.fish.id });
}

function flip() {
  const fish = $("fish-swimmer");
  fish.dataset.flipped = String(fish.dataset.flipped !== "true");
}

/**
 * The server said the fish reacts (`fish`: it swims from the 3rd right answer and jumps from the
 * 6th, docs/protocol.md): the tank shows it. Nothing is worked out here from the score.
 */
export function tankFish(state) {
  if (!tank) return;
  const react = state.race.fish || "";
  const fish = $("fish-swimmer");
  if (fish.dataset.react !== react) fish.dataset.react = react;
}

/** The run is over: the score, the fish's best, and Play again or Back. */
export async function tankOver(state) {
  if (!tank || !state.race.result || tank.over === state.race.result) return;
  tank.over = state.race.result;
  const score = state.race.result.score;
  tank.fish.best_score = Math.max(tank.fish.best_score || 0, score);
  const fish = tank.fish;
  const choice = await ask({
    title: t("fish.over.title"),
    body: t("fish.over.body", { name: fish.name, score, best: fish.best_score }),
    extra: runReview(state),
    choices: [
      { value: "again", label: t("results.again"), kind: "primary" },
      { value: "back", label: t("fish.back") },
    ],
  });
  if (tank && tank.fish === fish) {
    if (choice === "again") again();
    else if (choice !== "dismissed") leaveTank(true);
  }
}

/** The run's review (review/review.js, as on Results) for the game-over dialog; null when there is nothing to show. */
function runReview(state) {
  const section = document.createElement("section");
  section.className = "review";
  section.id = "fish-over-review";
  section.setAttribute("aria-labelledby", "fish-over-review-h");
  const answers = answersOf(state.race.result);
  showReview(section, state.race.game, answers, state.race.result.race, { runOver: lastEndedRun(answers, state.race) });
  return section.hidden ? null : section;
}

function again() {
  resetTank();
  start();
}

/** Quit: asks first; leaving goes back to the fish's start page. */
export async function quitTank() {
  const choice = await ask({
    title: t("fish.quit.title"),
    body: t("fish.quit.body"),
    choices: [
      { value: "stay", label: t("fish.quit.no"), kind: "primary" },
      { value: "quit", label: t("fish.quit.yes"), kind: "danger" },
    ],
  });
  if (choice === "quit" && tank) leaveTank(true);
}

/** Closes the tank; `toStart` leaves the room too and shows the fish's start page. */
export function leaveTank(toStart = false) {
  if (!tank) return;
  tank = null;
  lookSeq++;
  dismissAsk();
  $("aquarium").hidden = true;
  $("fish-go").hidden = true;
  $("fish-hint").hidden = true;
  $("scene-game").classList.remove("tank");
  if (toStart) {
    ctx.leaveRoom();
    ctx.showFishStart();
  }
}
