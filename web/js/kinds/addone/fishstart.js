// Add-One Fish's start page (the whale; Play, About) and its About page.
// Play asks, like the seed's action sheet, whether to pick a saved fish
// (the Players page) or create one (the Settings page).
import { t } from "../../i18n.js";
import { $, ask, show } from "../../ui.js";

let ctx = null;   // {showMenu, showFishPlayers, showFishSettings}

export function initFishStart(context) {
  ctx = context;
  $("fish-play").addEventListener("click", async () => {
    const choice = await ask({
      title: t("fish.play.title"),
      choices: [
        { value: "players", label: t("fish.choose"), kind: "primary" },
        { value: "new", label: t("fish.new") },
        { value: "cancel", label: t("fish.cancel") },
      ],
    });
    if (choice === "players") ctx.showFishPlayers();
    else if (choice === "new") ctx.showFishSettings();
    else $("fish-play").focus();
  });
  $("fish-about").addEventListener("click", () => show("fish-about"));
  $("fish-menu").addEventListener("click", () => ctx.showMenu());
  for (const b of document.querySelectorAll(".fish-home")) b.addEventListener("click", showFishStart);
}

export function showFishStart() {
  show("fish-start");
}
