// Options to tap, or a digit written on the pad (answer_input
// choice_or_digit, the kids' games): the choice input always, the drawn
// input's pad only while the prompt is `drawable` (the server refuses
// strokes otherwise). A tap sends the option's value; Submit sends the
// drawing, read on the server as one digit.
import { $ } from "../ui.js";
import { createChoiceInput } from "./choice.js";
import { createDrawnInput, pickOpen } from "./drawn.js";

export function createChoiceOrDigitInput(kind, context) {
  const choice = createChoiceInput(kind, context);
  const drawn = createDrawnInput(kind, context);
  let drawable = false;

  function setDrawable(on) {
    drawable = on;
    $("pad-area").hidden = !on;
    $("scene-game").classList.toggle("with-pad", on);
  }

  return {
    mount() {
      choice.mount();
      drawn.mount();
      $("scene-game").classList.add("choice-digit");
      setDrawable(false);
    },
    question(q, resent) {
      setDrawable(!!(q.prompt && q.prompt.drawable));
      choice.question(q, resent);
      drawn.question(q, resent);
    },
    refresh() {
      choice.refresh();
      drawn.refresh();
    },
    key(e) {
      if (drawable && pickOpen()) { drawn.key(e); return; }   // the pick panel over the pad first
      choice.key(e);
      if (drawable && !e.defaultPrevented) drawn.key(e);
    },
    unmount() {
      choice.unmount();
      drawn.unmount();
      $("scene-game").classList.remove("choice-digit", "with-pad");
    },
  };
}
