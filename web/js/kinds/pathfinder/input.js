// The path finder's answers (answer_input `move`). While guessing, the
// number input (pad + keypad) takes rows then columns; the pad gets a faint
// line between its two halves. While steering: the N/E/S/W buttons (#path-
// controls), arrow keys and WASD, a tap on an adjacent cell of the board and
// a swipe on it, each sent as `{"move":…}` or `{"to":{row,column}}`. The
// robot moves only when the server's updated `question` says so; a refused
// move (`illegal_move`) bumps it in place.
import { MOVE_KEYS, cellOf } from "./index.js";
import { mayAnswer } from "../../state.js";
import { $ } from "../../ui.js";
import { clearRecap, sayNote } from "../../scenes/recap.js";
import { createNumberInput } from "../../inputs/number.js";

/** The shortest swipe that counts as a move, in CSS pixels. */
const SWIPE_MIN = 24;

/** A swipe's direction from its start and end, or null when it is too short to be one. */
export function swipeDirection(dx, dy) {
  if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_MIN) return null;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? "east" : "west";
  return dy > 0 ? "south" : "north";
}

let active = null;   // the mounted path input's handlers
let wired = false;

/** A tap on a cell: the server checks it is next to the robot. */
function tapCell(cell) {
  if (active) active.send({ to: { row: Number(cell.dataset.row), column: Number(cell.dataset.column) } });
}

/** The board's clicks and swipes and the direction buttons, wired once for whichever input is mounted. */
function wireOnce() {
  if (wired) return;
  wired = true;
  $("path-controls").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-move]");
    if (b && active) active.send({ move: b.dataset.move });
  });
  const question = $("question");
  let swipe = null;   // {id, x, y} of a pointer pressed on the board
  question.addEventListener("pointerdown", (e) => {
    if (!e.target.closest(".path-board")) return;
    swipe = { id: e.pointerId, x: e.clientX, y: e.clientY };
    if (active) active.handled = false;   // a swipe with no click after it (touch) leaves no mark
  });
  question.addEventListener("pointerup", (e) => {
    if (!swipe || swipe.id !== e.pointerId || !active) { swipe = null; return; }
    const dir = swipeDirection(e.clientX - swipe.x, e.clientY - swipe.y);
    swipe = null;
    if (dir) { active.handled = true; active.send({ move: dir }); return; }
    // A finger's tap is taken here: a touch screen may send no click after it.
    const cell = e.pointerType !== "mouse" && e.target.closest(".path-cell");
    if (cell) { active.handled = true; tapCell(cell); }
  });
  question.addEventListener("pointercancel", () => { swipe = null; });
  question.addEventListener("click", (e) => {
    const cell = e.target.closest(".path-cell");
    if (!cell || !active) return;
    // A swipe or a finger's tap, already sent at pointerup, is not also a click.
    if (active.handled) { active.handled = false; return; }
    tapCell(cell);
  });
}

export function createPathInput(kind, context) {
  const number = createNumberInput(kind, context);
  let guessing = false;    // the number input is mounted
  let lastPrompt = null;

  function stageOf(q) { return q && q.prompt && q.prompt.stage === "steer" ? "steer" : "guess"; }

  function enterGuess() {
    if (guessing) return;
    guessing = true;
    $("path-controls").hidden = true;
    number.mount();
    $("pad-area").classList.add("path");
  }

  function enterSteer() {
    if (guessing) {
      guessing = false;
      $("pad-area").classList.remove("path");
      number.unmount();
    }
    $("path-controls").hidden = false;
  }

  const handlers = {
    handled: false,   // the pointer's last gesture was sent at pointerup: skip its click
    /** One move to the server, unless one is still out or there is nothing to steer. */
    send(answer) {
      const state = context.getState();
      const q = state.race.question;
      if (!q || stageOf(q) !== "steer" || state.race.submitting || !mayAnswer(state)) return;
      context.dispatch({ type: "local/submit" });
      context.send({ type: "submit", question: q.id, answer });
    },
  };

  function refresh() {
    if (guessing) { number.refresh(); return; }
    const may = mayAnswer(context.getState());
    // Not disabled while a move is out: a focused button keeps the focus for the next press.
    for (const b of $("path-controls").querySelectorAll("button")) b.disabled = !may;
  }

  return {
    mount() {
      wireOnce();
      active = handlers;
      lastPrompt = null;
      const q = context.getState().race.question;
      if (q && stageOf(q) === "steer") enterSteer(); else enterGuess();
      refresh();
    },
    /** The same question again is an update: the robot moved, a guess was wrong or right. */
    question(q, resent) {
      const prompt = q.prompt || {};
      if (stageOf(q) === "steer") {
        const wasGuess = !lastPrompt || lastPrompt.stage !== "steer";
        enterSteer();
        if (wasGuess) clearRecap();
        const here = cellOf(prompt.robot);
        $("path-controls").dataset.robot = here ? `${here.row},${here.column}` : "";
      } else {
        enterGuess();
        // A wrong guess comes back with more tries: a clean pad and keypad for the next one.
        const retried = resent && lastPrompt && lastPrompt.tries !== prompt.tries;
        if (retried) context.send({ type: "clear", question: q.id });
        number.question(q, resent && !retried);
      }
      lastPrompt = prompt;
      refresh();
    },
    refresh,
    /** Arrow keys and WASD steer; while guessing, the keys belong to the keypad and the pad. */
    key(e) {
      if (guessing) { number.key(e); return; }
      const dir = MOVE_KEYS[e.key];
      if (!dir || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      handlers.send({ move: dir });
    },
    /** `illegal_move`: the robot did not move; it bumps where it stands. */
    refused(msg) {
      if (msg.code !== "illegal_move") return false;
      const board = $("question").querySelector(".path-board");
      if (!board) return true;
      board.dataset.bumps = String(Number(board.dataset.bumps || 0) + 1);
      const robot = board.querySelector(".path-robot");
      robot.classList.remove("bump");
      void robot.offsetWidth;   // restart the animation
      robot.classList.add("bump");
      sayNote("path.bump", {}, "bad");
      return true;
    },
    unmount() {
      if (guessing) { $("pad-area").classList.remove("path"); number.unmount(); guessing = false; }
      $("path-controls").hidden = true;
      if (active === handlers) active = null;
    },
  };
}
