// The main menu: the games the server hosts (GET /api/games), then the
// modes the chosen game offers, then races, boards and the name.
import { getLang, has, t } from "../i18n.js";
import { gameName, modesOf } from "../catalog.js";
import { modeName } from "../format.js";
import { supportsInput } from "../inputs/index.js";
import { allKinds, kindFor } from "../kinds/index.js";
import { $, currentScene, textEl } from "../ui.js";

let ctx = null;   // {getState, chosenGame, chooseGame, menuGames, playSolo, retryCatalog, openHome(scene)}
let pointerPick = null;   // the game whose card a pointer is picking: it opens the game's home

export function initMenu(context) {
  ctx = context;
  $("menu-games-retry").addEventListener("click", () => ctx.retryCatalog());
}

/** What a mode is, for this game: "10 questions, no time limit". */
function modeBlurb(entry, mode) {
  const key = `menu.${mode}.sub`;
  return has(key) ? t(key, { n: entry.normal_length }) : "";
}

function inputBlurb(entry) {
  const key = `input.${entry.answer_input}`;
  return supportsInput(entry.answer_input) && has(key) ? t(key) : t("input.unsupported");
}

/** One radio card per game; drawn again only when the games or their texts change, so the focus stays. */
function renderGames(games, chosen) {
  const list = $("menu-games-list");
  const cards = games.map((g) => ({ entry: g, name: gameName(g, getLang()), blurb: inputBlurb(g) }));
  const sig = JSON.stringify(cards.map((c) => [c.entry.id, c.name, c.blurb]));
  if (list.dataset.games !== sig) {
    list.dataset.games = sig;
    list.replaceChildren();
    for (const { entry, name, blurb } of cards) {
      const label = document.createElement("label");
      label.className = supportsInput(entry.answer_input) ? "game-card" : "game-card unplayable";
      const radio = document.createElement("input");
      radio.type = "radio";
      radio.name = "game";
      radio.value = entry.id;
      // A game with pages of its own (kind.home) opens them when picked by
      // pointer; by keyboard the arrows only move the choice, and its
      // button (below) opens them.
      label.addEventListener("pointerdown", () => { pointerPick = entry.id; });
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        ctx.chooseGame(entry.id);
        const home = kindFor(entry.id).home;
        if (home && pointerPick === entry.id) ctx.openHome(home);
        pointerPick = null;
      });
      label.append(radio, textEl("span", "game-name", name), textEl("small", "", blurb));
      list.append(label);
    }
  }
  for (const radio of list.querySelectorAll("input[name=game]")) radio.checked = !!chosen && radio.value === chosen.id;
}

export function renderMenu(state) {
  const games = ctx.menuGames(state.catalog);
  // What the kinds add to the menu (the kids' corner's entry).
  for (const kind of allKinds()) if (kind.menu) kind.menu(state);
  $("menu-hello").textContent = t("menu.hello", { name: state.player ? state.player.name : "" });
  const status = $("menu-games-status");
  $("menu-games-retry").hidden = games !== null || !ctx.catalogFailed();
  status.textContent = games === null ? (ctx.catalogFailed() ? t("menu.gamesFailed") : t("loading")) : "";
  status.hidden = games !== null;

  const chosen = ctx.chosenGame();
  $("menu-games").hidden = !games || games.length === 0;
  renderGames(games || [], chosen);

  const modes = $("menu-modes");
  const hadFocus = modes.contains(document.activeElement);
  modes.replaceChildren();
  if (chosen) {
    $("menu-solo-h").textContent = t("menu.soloIn", { game: gameName(chosen, getLang()) });
    const playable = supportsInput(chosen.answer_input);
    const home = kindFor(chosen.id).home;
    if (home) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mode-btn home-btn";
      b.id = "btn-home";
      b.disabled = !playable;
      b.append(textEl("span", "", t(`home.${home}`)), textEl("small", "", t(`home.${home}.sub`)));
      b.addEventListener("click", () => ctx.openHome(home));
      modes.append(b);
    }
    for (const mode of modesOf(chosen)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mode-btn";
      b.id = `btn-${mode}`;
      b.dataset.mode = mode;
      b.disabled = !playable;
      b.append(textEl("span", "", modeName(mode)), textEl("small", "", modeBlurb(chosen, mode)));
      b.addEventListener("click", () => ctx.playSolo(chosen.id, mode));
      modes.append(b);
    }
  }
  if (hadFocus && currentScene() === "menu" && modes.firstElementChild) modes.firstElementChild.focus();
}
