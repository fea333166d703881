// MindPad: mental arithmetic with one digit of the result hidden
// (`47 + 38 = 8?`). Everything arithmetic in the client lives here: the
// operation signs, the masked result, the hidden digit. Answers are drawn
// digits on the pad; `graded.answer` and `expected` are integers.
import { t } from "../../i18n.js";
import { textEl as text } from "../../ui.js";

const SIGNS = { "+": "+", "-": "−", "*": "×", "/": "÷" };

export default {
  id: "mindpad",
  input: "drawn_digit",
  /** The drawing pad's label (i18n key). */
  padLabel: "kind.mindpad.canvas",

  /** `lhs op rhs = masked_result`, the hidden digit marked. */
  renderPrompt(container, prompt) {
    container.replaceChildren();
    const sign = SIGNS[prompt.operation] || String(prompt.operation ?? "");
    container.append(document.createTextNode(`${prompt.lhs} ${sign} ${prompt.rhs} = `));
    const result = text("span", "result", "");
    [...String(prompt.masked_result ?? "")].forEach((ch, i) => {
      if (i === prompt.hidden_position && ch === "?") {
        const mark = text("span", "hidden-digit", "?");
        mark.title = t("kind.mindpad.hidden");
        result.append(mark);
      } else {
        result.append(document.createTextNode(ch));
      }
    });
    container.append(result);
  },

  /** The prompt as one line of text, for the review and the replay: `4 × 2 = ?`. */
  describePrompt(prompt) {
    const sign = SIGNS[prompt && prompt.operation] || String((prompt && prompt.operation) ?? "");
    return prompt ? `${prompt.lhs} ${sign} ${prompt.rhs} = ${prompt.masked_result ?? "?"}` : "";
  },

  describeAnswer(answer) {
    return String(answer);
  },
};
