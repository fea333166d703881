// The player's saved fish (the seed's Players page): each with its picture
// and best score; a tap plays with it again, Delete asks first (the page's
// own dialog) and then removes it on the server.
import { t } from "../../i18n.js";
import { deleteFish, listFish, pictureOf } from "./fish.js";
import { $, ask, currentScene, show, textEl } from "../../ui.js";
import { kindName } from "./fishsettings.js";

let ctx = null;   // {getState, token(name), openTank(fish), showFishSettings}
let fishes = [];
let seq = 0;

export function initFishPlayers(context) {
  ctx = context;
  $("fish-players-new").addEventListener("click", () => ctx.showFishSettings());
}

function player() {
  const p = ctx.getState().player;
  return p ? p.name : null;
}

export async function showFishPlayers() {
  show("fish-players");
  $("fish-players-status").textContent = t("loading");
  await reload();
}

async function reload() {
  const name = player();
  const mine = ++seq;
  try {
    const list = name ? await listFish(name, ctx.token(name)) : [];
    if (mine !== seq) return;
    fishes = list;
    $("fish-players-status").textContent = fishes.length ? "" : t("fish.players.empty");
  } catch (_) {
    if (mine !== seq) return;
    fishes = [];
    $("fish-players-status").textContent = t("fish.unavailable");
  }
  render();
}

function render() {
  const list = $("fish-list");
  list.replaceChildren();
  for (const f of fishes) {
    const li = document.createElement("li");
    li.className = "fish-row";
    li.dataset.id = f.id;
    const pick = document.createElement("button");
    pick.type = "button";
    pick.className = "fish-pick";
    pick.setAttribute("aria-label", t("fish.playWith", { name: f.name, kind: kindName(f.kind), n: f.best_score }));
    const img = document.createElement("img");
    img.src = pictureOf(f.kind);
    img.alt = "";
    img.width = 80;
    img.height = 52;
    pick.append(img, textEl("span", "fish-name", f.name), textEl("span", "fish-best", t("fish.best", { n: f.best_score })));
    pick.addEventListener("click", () => ctx.openTank(f));
    const del = textEl("button", "danger fish-delete", t("fish.delete"));
    del.type = "button";
    del.setAttribute("aria-label", t("fish.deleteNamed", { name: f.name }));
    del.addEventListener("click", () => confirmDelete(f));
    li.append(pick, del);
    list.append(li);
  }
}

async function confirmDelete(f) {
  const choice = await ask({
    title: t("fish.delete.title", { name: f.name }),
    body: t("fish.delete.body"),
    choices: [
      { value: "cancel", label: t("fish.cancel") },
      { value: "yes", label: t("fish.delete"), kind: "danger" },
    ],
  });
  if (choice !== "yes") return;
  const name = player();
  try {
    await deleteFish(name, ctx.token(name), f.id);
  } catch (e) {
    if (e.status !== 404) { $("fish-players-status").textContent = t("fish.unavailable"); return; }
  }
  await reload();
  if (currentScene() === "fish-players") $("fish-players-status").textContent = t("fish.deleted", { name: f.name });
}

/** Texts that depend on the language. */
export function relabelFishPlayers() {
  render();
  if (!fishes.length && currentScene() === "fish-players") $("fish-players-status").textContent = t("fish.players.empty");
}
