// What was typed or tapped, shown as it was given (issue 45): the replay's
// answer box and the kids' review show it, where a drawing would be. A
// kind may draw it (`answerIcon`: the kids' picture options); otherwise it
// is the kind's words for the answer, large, as a keypad's display shows
// them. Everything from the server goes in as text.
import { t } from "../i18n.js";
import { textEl } from "../ui.js";

/**
 * An element showing `answer` (to `prompt`, given by `input`: "keypad" or "tap"), named for
 * screen readers ("Typed 3240", "Tapped: red ball"); `className` is added to it.
 */
export function answerShown(kind, answer, prompt, input, className = "") {
  const box = document.createElement("div");
  box.className = `given ${className}`.trim();
  box.dataset.input = input;
  const words = answer === null || answer === undefined ? "?" : kind.describeAnswer(answer, prompt);
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", t(input === "tap" ? "given.tapped" : "given.typed", { a: words }));
  const how = textEl("span", "given-how", t(input === "tap" ? "given.tapIcon" : "given.keyIcon"));
  how.setAttribute("aria-hidden", "true");
  const icon = typeof kind.answerIcon === "function" ? kind.answerIcon(answer, prompt) : null;
  const value = textEl("span", "given-value", icon ? "" : words);
  if (icon) value.append(icon);
  value.setAttribute("aria-hidden", "true");
  box.append(how, value);
  return box;
}
