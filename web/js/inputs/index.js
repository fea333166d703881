// How a game's answers are given (the catalog's answer_input) → the input
// that takes them in the game scene.
import { createChoiceInput } from "./choice.js";
import { createChoiceOrDigitInput } from "./choicedigit.js";
import { createDigitInput } from "./digit.js";
import { createNumberInput } from "./number.js";
import { createPathInput } from "./path.js";
import { $ } from "../ui.js";

function createUnsupportedInput() {
  return {
    mount() { $("answer-unsupported").hidden = false; },
    question() {},
    refresh() {},
    key() {},
    unmount() { $("answer-unsupported").hidden = true; },
  };
}

const INPUTS = {
  drawn_digit: createDigitInput,
  drawn_number: createNumberInput,
  choice: createChoiceInput,
  choice_or_digit: createChoiceOrDigitInput,
  move: createPathInput,
};

/** The input for answers given as `answerInput`; one this client cannot take says so. */
export function createInput(answerInput, kind, context) {
  return (INPUTS[answerInput] || createUnsupportedInput)(kind, context);
}

export function supportsInput(answerInput) {
  return answerInput in INPUTS;
}
