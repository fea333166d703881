// The kids' exercises (kids_*: counting, comparing, colours, positions,
// odd one out and the four operations): a question in words (`ask`), an
// SVG picture drawn from the prompt's structure (kids/picture.js), and big
// options to tap whose answer is the option's `value`; a `drawable` prompt
// may be answered by writing the digit on the pad (inputs/choicedigit.js).
import { t } from "../i18n.js";
import { thingIcon } from "../kids/art.js";
import { numbersText, renderPicture, thingName } from "../kids/picture.js";
import { textEl } from "../ui.js";

function optionsOf(prompt) {
  return prompt && Array.isArray(prompt.options) ? prompt.options.filter((o) => o && typeof o.value === "string") : [];
}

/** The question in words: "Which one is red?". */
function askText(prompt) {
  const colour = prompt && prompt.picture && prompt.picture.colour;
  return t(`kids.ask.${prompt && prompt.ask}`, { colour: colour ? t(`kids.colour.${colour}`) : "" });
}

/** A sum in numbers as written (`9 + 1 = ?`), or "" for a question with a picture. */
function sumText(prompt) {
  const p = prompt && prompt.picture;
  return p && p.scene === "numbers" ? numbersText(p) : "";
}

/** An option in words: its thing (coloured), its box, or its number. */
function optionWords(option, prompt) {
  if (option.thing) return thingName(option.thing, prompt && prompt.ask === "colour" ? option.colour : (option.colour || null));
  if (prompt && prompt.picture && prompt.picture.scene === "compare") return t("kids.boxName", { box: option.value.toUpperCase() });
  return option.value;
}

export default {
  id: "kids",
  input: "choice_or_digit",
  padLabel: "kids.pad",

  renderPrompt(container, prompt) {
    container.replaceChildren();
    const ask = textEl("span", "kid-ask prompt-line", askText(prompt));
    ask.dataset.ask = String(prompt && prompt.ask);
    container.append(ask);
    const pic = renderPicture(prompt && prompt.picture);
    if (pic) container.append(pic);
  },

  choices(prompt) {
    return optionsOf(prompt).map((o) => optionWords(o, prompt));
  },

  /** The tapped option's `value` is the answer (docs/protocol.md, submit). */
  choiceAnswer(i, prompt) {
    return optionsOf(prompt)[i].value;
  },

  /** A picture option shows its thing; its words stay for screen readers. */
  renderChoice(button, i, prompt) {
    const o = optionsOf(prompt)[i];
    button.dataset.value = o.value;
    if (o.thing) {
      button.classList.add("pic");
      button.setAttribute("aria-label", optionWords(o, prompt));
      button.replaceChildren(thingIcon(o.thing, o.colour || null));
    } else if (prompt.picture && prompt.picture.scene === "compare") {
      button.setAttribute("aria-label", optionWords(o, prompt));
      button.textContent = o.value.toUpperCase();
    }
  },

  /** The question in words, with a sum in numbers as written (a picture is left out of the review). */
  describePrompt(prompt) {
    const sum = sumText(prompt);
    return sum ? `${askText(prompt)} ${sum}` : askText(prompt);
  },

  /** In an answers table a sum in numbers alone (`9 + 1 = ?`); a picture's question, in words. */
  tablePrompt(prompt) {
    return sumText(prompt) || askText(prompt);
  },

  describeAnswer(answer, prompt) {
    const o = optionsOf(prompt).find((x) => x.value === String(answer));
    return o ? optionWords(o, prompt) : String(answer);
  },
};
