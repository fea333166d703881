// Numbers (answer_input drawn_number): the wide pad of the drawn input,
// whose live guess shows the whole number, and the keypad beside it. One
// Submit (the pad's button, or Enter) sends what was typed as
// `{"type":"submit","question":…,"answer":"3240"}` (graded as typed,
// docs/protocol.md; a kind's `typedAnswer` may shape it), or the drawing
// when nothing was typed.
import { t } from "../i18n.js";
import { mayAnswer } from "../state.js";
import { $, toast } from "../ui.js";
import { createDrawnInput, pickOpen, submitTyped, useTyped } from "./drawn.js";
import { createKeypad } from "./keypad.js";

export function createNumberInput(kind, context) {
  const drawn = createDrawnInput(kind, context);
  const keypad = createKeypad(onKey);

  /** What was typed, sent (Submit or Enter with digits typed). */
  function sendTyped() {
    // What was typed stays until the next question: a refused submit loses nothing.
    // A kind may read the digits as its own answer (the path finder: rows then columns).
    const answer = kind.typedAnswer ? kind.typedAnswer(keypad.typed) : keypad.typed;
    if (answer === null) toast(t(kind.typedRefused));
    else submitTyped(answer);
    refresh();
  }

  function onKey(key) {
    if (key === "enter") {
      if (!$("btn-submit").disabled) $("btn-submit").click();
    } else {
      keypad.press(key);
    }
    refresh();
  }

  function refresh() {
    drawn.refresh();
    const state = context.getState();
    // While a choice is open the keypad waits: the pick panel answers.
    keypad.render(mayAnswer(state) && !state.race.submitting && !pickOpen());
  }

  return {
    mount() {
      $("pad-area").classList.add("number");
      drawn.mount();
      keypad.clear();
      keypad.show();
      useTyped({ has: () => !!keypad.typed, send: sendTyped });
      refresh();
    },
    question(q, resent) {
      drawn.question(q, resent);
      if (!resent) keypad.clear();
      refresh();
    },
    refresh,
    /** Digits and Backspace type, Enter sends, Escape clears the pad, Ctrl+Z takes back a stroke. */
    key(e) {
      if (pickOpen()) { drawn.key(e); return; }   // a choice is open: its digit keys pick
      if (e.target.tagName === "BUTTON" && e.key === "Enter") return;
      if (/^[0-9]$/.test(e.key)) { e.preventDefault(); onKey(e.key); return; }
      if (e.key === "Backspace") { e.preventDefault(); onKey("delete"); return; }
      if (e.key === "Enter") { e.preventDefault(); onKey("enter"); return; }
      drawn.key(e);
    },
    unmount() {
      useTyped(null);
      keypad.hide();
      drawn.unmount();
      $("pad-area").classList.remove("number");
    },
  };
}
