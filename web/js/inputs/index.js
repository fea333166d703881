// How a game's answers are given (the catalog's answer_input) → the input
// that takes them in the game scene: the ones every kind may use, and those
// a kind brings (kinds/index.js registers them).
import { createChoiceInput } from "./choice.js";
import { createChoiceOrDigitInput } from "./choicedigit.js";
import { createDigitInput } from "./digit.js";
import { createNumberInput } from "./number.js";
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
};

/** An input a game kind brings (its module's `inputs`: the path finder's moves). */
export function registerInput(answerInput, create) {
  if (answerInput in INPUTS) throw new Error(`input ${answerInput} registered twice`);
  INPUTS[answerInput] = create;
}

/** The input for answers given as `answerInput`; one this client cannot take says so. */
export function createInput(answerInput, kind, context) {
  return (INPUTS[answerInput] || createUnsupportedInput)(kind, context);
}

export function supportsInput(answerInput) {
  return answerInput in INPUTS;
}
