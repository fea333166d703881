// MindPad's browser client: boot. Wires the scenes to the controller, loads
// the catalog of games, then connects (docs/protocol.md, docs/openapi.yaml).
import { apply as applyI18n, getLang, setLang } from "./i18n.js";
import * as app from "./controller.js";
import { identity } from "./identity.js";
import { $, currentScene, show } from "./ui.js";
import { relabelBanner } from "./scenes/banner.js";
import { initBoards, relabelBoards, showHighscores, showLeaderboards } from "./scenes/boards.js";
import { initGame, relabelGame } from "./scenes/game.js";
import { initLobby, renderLobby } from "./scenes/lobby.js";
import { initMenu, renderMenu } from "./scenes/menu.js";
import { initOnboard, relabelOnboard } from "./scenes/onboard.js";
import { initDevice, relabelDevice } from "./scenes/device.js";
import { initHandwriting, relabelHandwriting } from "./scenes/handwriting.js";
import { initRace, renderRace, showRace } from "./scenes/race.js";
import { initResults, showResults, showStandings } from "./scenes/results.js";
import { openHome } from "./homes.js";
import { allKinds, anyKind } from "./kinds/index.js";
import { initReplay, openReplay, relabelReplay, replayRace } from "./scenes/replay.js";
import { bootClassroom, relabelClassroom } from "./scenes/classroom.js";

/** A replay's page (`/replay/<race>`, served as this page) watches a race and joins none. */
const replay = replayRace(location.pathname);

const ctx = {
  getState: app.getState,
  send: app.send,
  dispatch: app.dispatch,
  leaveToMenu: app.leaveToMenu,
  leaveRoom: app.leaveRoom,
  showMenu: app.showMenu,
  /** The game's Quit: as a kind takes it (the tank's question, even before a race; the kids' levels), else back to the menu. */
  quitGame: () => {
    if (!anyKind("quit", ctx, app.getState().race)) app.leaveToMenu();
  },
  openHome,
  playSolo: app.playSolo,
  chosenGame: app.chosenGame,
  chooseGame: app.chooseGame,
  menuGames: app.menuGames,
  startRename: app.startRename,
  catalogFailed: app.catalogFailed,
  retryCatalog: app.loadCatalog,
  useName: app.useName,
  cancelRename: app.cancelRename,
  token: (name) => identity.token(name),
  signIn: app.signIn,
};

/** Everything drawn from data is drawn again in the new language. */
function relabel() {
  const state = app.getState();
  app.setPlayerHeader();
  const scene = currentScene();
  if (scene === "menu") renderMenu(state);
  if (scene === "onboard") relabelOnboard();
  if (scene === "race") renderRace();
  if (scene === "lobby" && state.room) renderLobby(state);
  if (scene === "game") relabelGame(state);
  if (scene === "results" && state.race.result) showResults(state);
  if (scene === "standings" && state.race.standings) showStandings(state);
  if (scene === "replay") relabelReplay();
  for (const kind of allKinds()) if (kind.relabel) kind.relabel(scene);
  relabelBoards();
  relabelBanner();
  relabelDevice();
  relabelHandwriting();
  relabelClassroom(state, scene);
}

function wire() {
  for (const init of [initOnboard, initMenu, initRace, initLobby, initGame, initResults, initBoards, initReplay, initDevice,
    initHandwriting]) init(ctx);
  // Each kind's own scenes and homes (kinds/<kind>/).
  for (const kind of allKinds()) if (kind.boot) kind.boot(ctx);
  bootClassroom({ play: app.playSolo, games: () => app.getState().catalog, join: (code) => app.send({ type: "join_room", code }),
    openRace: showRace });
  $("lang-switch").addEventListener("click", () => {
    setLang(getLang() === "en" ? "zh" : "en");
    relabel();
  });
  $("brand").addEventListener("click", () => {
    if (replay !== null) { location.assign("/"); return; }
    const state = app.getState();
    if (state.identified && !state.race.running) app.leaveToMenu();
  });
  $("conn-retry").addEventListener("click", () => app.link.retryNow());
  $("btn-race").addEventListener("click", showRace);
  $("btn-highscores").addEventListener("click", () => showHighscores(app.chosenGame() && app.chosenGame().id));
  $("btn-leaderboards").addEventListener("click", () => showLeaderboards(app.chosenGame() && app.chosenGame().id));
  $("btn-change-name").addEventListener("click", () => app.startRename());
  for (const b of document.querySelectorAll(".back")) b.addEventListener("click", app.showMenu);
}

applyI18n(document);
wire();
app.setPlayerHeader();
show("loading");
await Promise.all([app.loadCatalog(), app.signInFromLink()]);
if (replay !== null) openReplay(replay);
else app.link.connect();
