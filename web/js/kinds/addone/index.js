// Add-One Fish: add one to every digit of a string (`2139` → `3240`, a 9
// wraps to 0). The prompt is `{"digits":"2139"}`; answers are strings of
// digits, written on the wide pad or typed on the keypad, and `graded.answer`
// and `expected` are those strings (leading zeros kept). The fish pages
// (fish*.js here) are this game's home: the menu offers them.
import { t } from "../../i18n.js";
import { registerHome } from "../../homes.js";
import { textEl } from "../../ui.js";
import { initFishPlayers, relabelFishPlayers, showFishPlayers } from "./fishplayers.js";
import { initFishSettings, relabelFishSettings, showFishSettings } from "./fishsettings.js";
import { initFishStart, showFishStart } from "./fishstart.js";
import { initFishTank, leaveTank, openTank, quitTank, relabelTank, tankActive, tankFish, tankOver, tankRefused } from "./fishtank.js";
import strings from "./strings.js";

/** The right answer to a prompt's digits: each one plus one, 9 wrapping to 0. */
export function addOne(digits) {
  return [...String(digits)].map((d) => (/[0-9]/.test(d) ? String((Number(d) + 1) % 10) : d)).join("");
}

export default {
  id: "addone",
  input: "drawn_number",
  padLabel: "kind.addone.canvas",
  /** The scene that opens this game from the menu (fishstart.js). */
  home: "fish-start",
  strings,

  /** The fish pages, which lead to one another and to the tank. */
  boot(ctx) {
    registerHome("fish-start", showFishStart);
    const own = { ...ctx, showFishStart, showFishSettings, showFishPlayers, openTank };
    for (const init of [initFishStart, initFishSettings, initFishPlayers, initFishTank]) init(own);
  },
  relabel(scene) {
    if (scene === "game") relabelTank();
    if (scene === "fish-settings") relabelFishSettings();
    if (scene === "fish-players") relabelFishPlayers();
  },
  ownsScene: (scene) => scene.startsWith("fish-"),
  /** In the tank, Quit asks whether to feed the fish first. */
  quit() {
    if (!tankActive()) return false;
    quitTank();
    return true;
  },
  /** A run in the tank ends with the tank's game-over question. */
  soloEnd(state) {
    if (!tankActive()) return false;
    tankOver(state);
    return true;
  },
  /** `fish`: how the pet feels about the run so far. */
  message(msg, state) {
    if (msg.type === "fish") tankFish(state);
  },
  refused() {
    if (!tankActive()) return false;
    tankRefused();
    return true;
  },
  leaving: () => leaveTank(),

  /** One tile per digit, so the eye can walk them left to right. */
  renderPrompt(container, prompt) {
    container.replaceChildren();
    const digits = String((prompt && prompt.digits) ?? "");
    const row = textEl("span", "addone-digits", "");
    row.setAttribute("aria-label", t("kind.addone.prompt", { digits: [...digits].join(" ") }));
    row.dataset.digits = digits;
    for (const d of digits) {
      const tile = textEl("span", "addone-digit", d);
      tile.setAttribute("aria-hidden", "true");
      row.append(tile);
    }
    container.append(row);
  },

  describePrompt(prompt) {
    return t("kind.addone.prompt", { digits: String((prompt && prompt.digits) ?? "") });
  },

  /** In an answers table the digits alone: the rows are all this game's. */
  tablePrompt(prompt) {
    return String((prompt && prompt.digits) ?? "");
  },

  describeAnswer(answer) {
    return String(answer);
  },
};
