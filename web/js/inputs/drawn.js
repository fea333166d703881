// Answers written by hand (answer_input drawn_digit or drawn_number): the
// pad streams strokes as `points`, shows the server's live reading (one
// digit, or a whole number with each digit's box drawn under its ink), and
// Submit sends the drawing (docs/protocol.md). A drawing read unsurely comes
// back as a `choice`: the pick panel over the pad (inputs/pick.js) sends the
// player's `choose`. The pad is the page's one canvas, made once.
import { t } from "../i18n.js";
import { Pad } from "../pad.js";
import { mayAnswer } from "../state.js";
import { noteSubmit } from "../review/attempts.js";
import { $, textEl } from "../ui.js";
import { initPick, orList, pickKey, pickOpen, showPick } from "./pick.js";

export { pickOpen };

let pad = null;
let ctx = null;   // {send, dispatch, getState} of the input that is mounted
/**
 * A keypad beside the pad (inputs/number.js): `{has(), send()}`. Then the one Submit sends what was
 * typed when anything was, else the drawing; it is enabled by either (issue 45: the keypad's own
 * Enter key beside Submit made two buttons that did almost the same).
 */
let typed = null;

/** The keypad the Submit button also sends (null: none). */
export function useTyped(source) {
  typed = source;
  refresh();
}

function currentQuestion() {
  return ctx ? ctx.getState().race.question : null;
}

function ensurePad() {
  if (pad) return pad;
  pad = new Pad($("pad"), {
    onBatch: (stroke, points) => {
      const q = currentQuestion();
      if (q) ctx.send({ type: "points", question: q.id, stroke, points });
    },
    onChange: (hasInk) => {
      if (!ctx) return;
      if (!hasInk) ctx.dispatch({ type: "local/cleared" });
      refresh();
    },
    onResize: () => refresh(),   // the marks follow the drawing's new scale
    onUndo: (stroke) => {        // the button, Ctrl+Z, or a palm's stroke given up for the pen
      const q = currentQuestion();
      if (q) ctx.send({ type: "undo", question: q.id, stroke });
    },
  });
  $("btn-undo").addEventListener("click", undo);
  $("btn-clear").addEventListener("click", () => {
    const q = currentQuestion();
    if (q) ctx.send({ type: "clear", question: q.id });
    pad.clear();
  });
  $("btn-submit").addEventListener("click", submit);
  initPick();
  return pad;
}

/** The open `choice` of the current question, or null. */
function openChoice(state) {
  const c = state.race.choice;
  const q = state.race.question;
  return c && q && c.question === q.id ? c : null;
}

/** The player's pick among the readings offered: their answer (`choose`). */
function choose(answer) {
  const state = ctx.getState();
  const q = state.race.question;
  if (!openChoice(state) || state.race.submitting || !mayAnswer(state)) return;
  ctx.dispatch({ type: "local/choose" });
  ctx.send({ type: "choose", question: q.id, answer });
  refresh();
}

/** "Write it again": back to an empty pad; the server's offer goes with the drawing (`clear`). */
function writeAgain() {
  const q = currentQuestion();
  ctx.dispatch({ type: "local/withdraw" });
  if (q) ctx.send({ type: "clear", question: q.id });
  pad.clear();
  refresh();
  $("pad").focus({ preventScroll: true });
}

/** Takes back the last stroke, on the pad and on the server (`undo`, sent by the pad's onUndo). */
function undo() {
  if (ctx && pad) pad.undo();
}

/** Sends a typed answer (the keypad's) instead of the drawing; true when sent. */
export function submitTyped(answer) {
  if (!ctx) return false;
  const state = ctx.getState();
  const q = state.race.question;
  if (!q || state.race.submitting || !mayAnswer(state)) return false;
  ctx.dispatch({ type: "local/submit" });
  noteSubmit(q.id, "keypad");
  ctx.send({ type: "submit", question: q.id, answer });
  refresh();
  return true;
}

function submit() {
  if (typed && typed.has()) { typed.send(); return; }
  const state = ctx.getState();
  const q = state.race.question;
  if (!q || !pad.hasInk || state.race.submitting || !mayAnswer(state)) return;
  pad.flush();
  ctx.dispatch({ type: "local/submit" });
  noteSubmit(q.id, "drawn", pad.strokes);
  ctx.send({ type: "submit", question: q.id });
  refresh();
}

/** A number guess's digits, each with its box ([x0,y0,x1,y1] in the pad's CSS pixels);
 * an unsure digit (`"digit":null`) is "?", one with choices its choices ("1/7"). */
export function guessMarks(g) {
  if (!g || !Array.isArray(g.digits)) return [];
  return g.digits
    .filter((d) => d && (Number.isInteger(d.digit) || d.digit === null) && Array.isArray(d.box) && d.box.length === 4 && d.box.every(Number.isFinite))
    .map((d) => ({
      digit: d.digit === null ? "?" : Array.isArray(d.choices) && d.choices.length > 1 ? d.choices.join("/") : d.digit,
      box: d.box, confidence: d.confidence,
    }));
}

/** The digits a one-digit guess would be offered as ("1 or 7?"), or null. */
export function guessChoices(g) {
  return g && typeof g.number !== "string" && Array.isArray(g.choices) && g.choices.length > 1
    && g.choices.every(Number.isInteger) ? g.choices : null;
}

/** The recognizer could not tell a digit (`"unsure":true`, `"digit":null`): shown as "?". */
export function guessIsUnsure(g) {
  return !!g && typeof g.number !== "string" && (g.unsure === true || g.digit === null);
}

/** The read digits under their ink (over it when the ink reaches the pad's bottom),
 * kept inside the pad: ink drawn past its edge must not widen the page. */
function showMarks(g) {
  const layer = $("pad-marks");
  layer.replaceChildren();
  if (!g || !pad || !pad.hasInk) return;
  const r = $("pad").getBoundingClientRect();
  const { width, height } = r;
  const s = pad.scaleIn(r);   // the boxes are in the drawing's coordinates
  for (const { digit, box } of guessMarks(g)) {
    const [x0, y0, x1, y1] = box.map((v) => v * s);
    const mark = textEl("span", "pad-mark", String(digit));
    const below = y1 + 30 < height;
    const w = Math.min(width, Math.max(16, x1 - x0));
    mark.classList.toggle("over", !below);
    mark.style.left = `${Math.min(Math.max(0, x0), width - w)}px`;
    mark.style.width = `${w}px`;
    mark.style.top = below ? `${Math.max(0, y1 + 2)}px` : `${Math.min(Math.max(0, y0 - 28), height - 26)}px`;
    layer.append(mark);
  }
}

function showGuess(g) {
  const el = $("guess");
  // A guess of more points than the pad holds was read before an undo:
  // the guess of what is left follows.
  if (g && pad && Number.isInteger(g.points) && g.points > pad.pointCount) g = null;
  showMarks(g);
  if (!g || !pad || !pad.hasInk) {
    el.textContent = "?";
    el.dataset.digit = "";
    el.dataset.number = "";
    el.dataset.unsure = "";
    el.title = t("game.guess.none");
    return;
  }
  const unsure = guessIsUnsure(g);
  const choices = guessChoices(g);
  const numberChoices = typeof g.number === "string" && Array.isArray(g.digits)
    && g.digits.some((d) => d && Array.isArray(d.choices) && d.choices.length > 1);
  const text = typeof g.number === "string" ? g.number : unsure ? "?" : choices ? t("game.guess.choices", { a: orList(choices) }) : String(g.digit);
  el.textContent = text;
  el.dataset.digit = typeof g.number === "string" || unsure || choices ? "" : String(g.digit);
  el.dataset.number = typeof g.number === "string" ? g.number : "";
  el.dataset.choices = choices ? choices.join(",") : "";
  el.dataset.unsure = unsure || (typeof g.number === "string" && g.number.includes("?") && !numberChoices) ? "true" : "";
  el.dataset.points = String(g.points);
  el.title = unsure ? t("game.guess.unsure") : choices || numberChoices ? t("game.guess.choose") : `${Math.round(g.confidence * 100)}%`;
}

/** Buttons and pad follow the state: drawing only while a question may be answered, and no
 * choice is open (the pick panel is over the pad then). */
function refresh() {
  if (!ctx || !pad) return;
  const state = ctx.getState();
  const may = mayAnswer(state);
  const choice = may ? openChoice(state) : null;
  pad.enabled = may && !choice;
  $("btn-submit").disabled = !may || !(pad.hasInk || (typed && typed.has())) || state.race.submitting || !!choice;
  $("btn-clear").disabled = !may || !pad.hasInk || state.race.submitting || !!choice;
  $("btn-undo").disabled = $("btn-clear").disabled;
  showGuess(state.race.guess);
  showPick(choice, state.race.submitting, { choose, back: writeAgain });
}

export function createDrawnInput(kind, context) {
  return {
    mount() {
      ctx = context;
      ensurePad();
      $("pad-area").hidden = false;
      $("pad").dataset.i18nAria = kind.padLabel;
      $("pad").setAttribute("aria-label", t(kind.padLabel));
      pad.clear();
      pad.resize();
      refresh();
    },
    /** A new question clears the pad; the same one re-sent (after a reconnect) keeps the drawing and re-sends it. */
    question(q, resent) {
      if (resent && pad.hasInk) {
        ctx.send({ type: "clear", question: q.id });
        pad.strokes.forEach((s, i) => ctx.send({ type: "points", question: q.id, stroke: i, points: s }));
      } else {
        pad.clear();
      }
      refresh();
    },
    refresh,
    /** Enter submits, Escape clears, Ctrl+Z (⌘Z) takes back the last stroke; while a choice is
     * open the pick panel takes the keys (a digit picks, Escape writes again). */
    key(e) {
      if (pickKey(e)) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "z") {
        e.preventDefault();
        if (!$("btn-undo").disabled) undo();
        return;
      }
      if (e.key === "Enter" && !$("btn-submit").disabled && e.target.tagName !== "BUTTON") submit();
      if (e.key === "Escape" && !$("btn-clear").disabled) $("btn-clear").click();
    },
    unmount() {
      showPick(null, false, null);
      $("pad-area").hidden = true;
      if (ctx === context) ctx = null;
    },
  };
}
