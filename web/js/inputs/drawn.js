// Answers written by hand (answer_input drawn_digit or drawn_number): the
// pad streams strokes as `points`, shows the server's live reading, and
// Submit sends the drawing (docs/protocol.md). The pad is the page's one
// canvas, made once.
import { t } from "../i18n.js";
import { Pad } from "../pad.js";
import { mayAnswer } from "../state.js";
import { $ } from "../ui.js";

let pad = null;
let ctx = null;   // {send, dispatch, getState} of the input that is mounted

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
  });
  $("btn-clear").addEventListener("click", () => {
    const q = currentQuestion();
    if (q) ctx.send({ type: "clear", question: q.id });
    pad.clear();
  });
  $("btn-submit").addEventListener("click", submit);
  return pad;
}

function submit() {
  const state = ctx.getState();
  const q = state.race.question;
  if (!q || !pad.hasInk || state.race.submitting || !mayAnswer(state)) return;
  pad.flush();
  ctx.dispatch({ type: "local/submit" });
  ctx.send({ type: "submit", question: q.id });
}

function showGuess(g) {
  const el = $("guess");
  if (!g || !pad || !pad.hasInk) {
    el.textContent = "?";
    el.dataset.digit = "";
    el.title = t("game.guess.none");
    return;
  }
  el.textContent = String(g.digit);
  el.dataset.digit = String(g.digit);
  el.dataset.points = String(g.points);
  el.title = `${Math.round(g.confidence * 100)}%`;
}

/** Buttons and pad follow the state: drawing only while a question may be answered. */
function refresh() {
  if (!ctx || !pad) return;
  const state = ctx.getState();
  const may = mayAnswer(state);
  pad.enabled = may;
  $("btn-submit").disabled = !may || !pad.hasInk || state.race.submitting;
  $("btn-clear").disabled = !may || !pad.hasInk || state.race.submitting;
  showGuess(state.race.guess);
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
    /** Enter submits, Escape clears. */
    key(e) {
      if (e.key === "Enter" && !$("btn-submit").disabled && e.target.tagName !== "BUTTON") submit();
      if (e.key === "Escape" && !$("btn-clear").disabled) $("btn-clear").click();
    },
    unmount() {
      $("pad-area").hidden = true;
      if (ctx === context) ctx = null;
    },
  };
}
