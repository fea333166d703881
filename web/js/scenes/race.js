// Race with friends: create a room of the chosen game, or join one by code.
import { getLang } from "../i18n.js";
import { gameName, modesOf } from "../catalog.js";
import { modeName } from "../format.js";
import { $, show, textEl } from "../ui.js";

let ctx = null;   // {send, chosenGame}

export function initRace(context) {
  ctx = context;
  $("race-create").addEventListener("click", () => {
    const game = ctx.chosenGame();
    const picked = document.querySelector("input[name=race-mode]:checked");
    if (!game || !picked) return;
    ctx.send({ type: "create_room", game: game.id, mode: picked.value });
  });
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    $("join-error").textContent = "";
    if (!code) return;
    ctx.send({ type: "join_room", code });
  });
}

/** The modes of the chosen game; Time Attack preselected where it is offered. */
export function renderRace() {
  const game = ctx.chosenGame();
  const previous = document.querySelector("input[name=race-mode]:checked");
  const modes = modesOf(game);
  const keep = previous && modes.includes(previous.value) ? previous.value : null;
  const pick = keep || (modes.includes("time_attack") ? "time_attack" : modes[0]);
  $("race-game").textContent = game ? gameName(game, getLang()) : "";
  const set = $("race-modes");
  set.replaceChildren();
  for (const mode of modes) {
    const label = document.createElement("label");
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "race-mode";
    radio.value = mode;
    radio.checked = mode === pick;
    label.append(radio, textEl("span", "", modeName(mode)));
    set.append(label);
  }
  $("race-create").disabled = !game;
}

export function showRace() {
  $("join-error").textContent = "";
  renderRace();
  show("race");
}

export function showJoinError(text) {
  $("join-error").textContent = text;
}
