// The kids' exercises (the catalog's group "kids": counting, comparing, colours, positions,
// odd one out and the four operations): a question in words (`ask`), an
// SVG picture drawn from the prompt's structure (picture.js), and big
// options to tap whose answer is the option's `value`; a `drawable` prompt
// may be answered by writing the digit on the pad (inputs/choicedigit.js).
import { t } from "../../i18n.js";
import { thingIcon } from "./art.js";
import { compareBox, compareLayout, many, numbersText, renderPicture, thingName } from "./picture.js";
import { registerHome } from "../../homes.js";
import { $, textEl } from "../../ui.js";
import { afterKidsFeedback, hideKidsFeedback, initKidsFeedback, showKidsFeedback, showSoundButton } from "./feedback.js";
import { initKids, isKidsGame, kidsSaved, relabelKids, showKidsEnd, showKidsHello, showKidsLevels } from "./home.js";
import strings from "./strings.js";

function optionsOf(prompt) {
  return prompt && Array.isArray(prompt.options) ? prompt.options.filter((o) => o && typeof o.value === "string") : [];
}

/** The question in words: "Which one is red?", "Which one is under the tree?" (the thing the places are said of). */
function askText(prompt) {
  const p = prompt && prompt.picture;
  const colour = p && p.colour;
  const ref = p && p.scene === "positions" && p.reference ? thingName(p.reference) : "";
  return t(`kids.ask.${prompt && prompt.ask}`, { colour: colour ? t(`kids.colour.${colour}`) : "", ref });
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

/**
 * A question's picture, whatever the scene: its own picture, or where the options are the
 * pictures (colours, odd one out, the boxes of more or less) a row of the options' pictures.
 * `mark` ({value, tapped}) puts the right answer on it (ringed, counted) and the tap that was wrong.
 */
function questionPicture(prompt, mark) {
  const p = prompt && prompt.picture;
  const own = renderPicture(p, mark);
  if (own) return own;
  const options = optionsOf(prompt);
  if (!options.length) return null;
  const row = document.createElement("span");
  row.className = "kid-options-pic";
  row.setAttribute("role", "img");
  row.setAttribute("aria-label", options.map((o) => optionWords(o, prompt)).join(", "));
  const layout = p && p.scene === "compare" ? compareLayout(p) : null;
  options.forEach((o, i) => {
    const cell = document.createElement("span");
    cell.className = "kid-option-pic";
    if (mark && o.value === mark.value) { cell.dataset.mark = "right"; cell.classList.add("mark-right"); }
    else if (mark && o.value === mark.tapped) { cell.dataset.mark = "tapped"; cell.classList.add("mark-tapped"); }
    if (o.thing) cell.append(thingIcon(o.thing, o.colour || null));
    else if (layout) cell.append(compareBox(layout.groups[i] || {}, o.value.toUpperCase(), layout.cols, layout.rows));
    else cell.append(textEl("span", "kid-option-number", o.value));
    row.append(cell);
  });
  return row;
}

export default {
  id: "kids",
  /** The kids' corner (home.js): where a link to any of the nine leads. */
  home: "kids-hello",
  /** A link to one of these greets a child: pictures, and a grown-up types the name. */
  greeting: () => ({
    title: t("onboard.kids.title"),
    about: t("onboard.about.kids"),
    ask: t("onboard.kids.ask"),
    pictures: () => ["apple", "duck", "star"].map((thing) => thingIcon(thing, null, "kid-icon")),
  }),
  input: "choice_or_digit",
  padLabel: "kids.pad",
  strings,

  boot(ctx) {
    registerHome("kids-hello", () => showKidsHello());
    initKids(ctx);
    initKidsFeedback();
  },
  relabel() {
    relabelKids();
    showSoundButton();   // the speaker's words, shown or not
  },
  /** The menu's entry to the kids' corner, while the catalog has games with levels. */
  menu(state) { $("btn-kids").hidden = !(state.catalog || []).some((g) => Array.isArray(g.levels)); },
  ownsScene: (scene) => scene.startsWith("kids-"),
  /** A level's end is a scene of its own, which a room's end leaves on screen. */
  endScenes: ["kids-end"],
  /** Quit in one of its games goes back to the game's levels. */
  quit(ctx, race) {
    if (!isKidsGame(race.game)) return false;
    ctx.leaveRoom();
    showKidsLevels(race.game);
    return true;
  },
  /** A level ends once its last answer's feedback card has been seen. */
  soloEnd(state, current) {
    afterKidsFeedback(() => { if (state.race.result) showKidsEnd(current()); });
    return true;
  },
  saved: (state) => kidsSaved(state),
  /** The speaker (sound off until switched on), for a player, not a watcher. */
  enterGame(spectator) { showSoundButton(!spectator); },
  leaveGame() { hideKidsFeedback(); showSoundButton(false); },
  /** A graded answer said in pictures too (issue 45): the words above are for grown-ups and screen readers. */
  graded(kind, g, prompt) { if (prompt) showKidsFeedback(kind, g, prompt); },

  renderPrompt(container, prompt) {
    container.replaceChildren();
    const ask = textEl("span", "kid-ask prompt-line", askText(prompt));
    ask.dataset.ask = String(prompt && prompt.ask);
    // Under what? The thing the places are said of, drawn beside the words too.
    const p = prompt && prompt.picture;
    if (p && p.scene === "positions" && p.reference) ask.append(" ", thingIcon(p.reference, null, "kid-icon kid-ref"));
    container.append(ask);
    const pic = renderPicture(p);
    if (pic) container.append(pic);
  },

  /** The question's picture for a look back (the review, the replay, the feedback), with the right answer on it when `mark`. */
  reviewPicture(prompt, mark = null) {
    return questionPicture(prompt, mark);
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
      // The box itself is the option: both the same size, whatever is in them (issue 45).
      const { cols, rows, groups } = compareLayout(prompt.picture);
      button.classList.add("pic", "box");
      button.setAttribute("aria-label", `${optionWords(o, prompt)}: ${many({ thing: "", count: 0, ...(groups[i] || {}) })}`);
      button.replaceChildren(compareBox(groups[i] || {}, o.value.toUpperCase(), cols, rows));
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

  /** A tapped picture option as its picture (the replay shows what was tapped); null for a number or a box. */
  answerIcon(answer, prompt) {
    const o = optionsOf(prompt).find((x) => x.value === String(answer));
    return o && o.thing ? thingIcon(o.thing, o.colour || null) : null;
  },

  describeAnswer(answer, prompt) {
    const o = optionsOf(prompt).find((x) => x.value === String(answer));
    return o ? optionWords(o, prompt) : String(answer);
  },
};
