// Between the server and the scenes: every message goes through the state
// module (state.js), then this file decides what the player sees next and
// carries the flows that span messages (identify, solo start, invite links,
// resuming after a reconnect).
import { t } from "./i18n.js";
import { pickGame, readCatalog } from "./catalog.js";
import { identity } from "./identity.js";
import { Link, api } from "./net.js";
import { normalizeCode, redeemCode, refusalText } from "./signin.js";
import { apply, gameInfo, initialState, isSolo, mayAnswer, myRole } from "./state.js";
import { $, currentScene, errorText, show, toast } from "./ui.js";
import { refreshAssignments, renderLesson } from "./scenes/classroom.js";
import { showAnswerWaiting, showConnState } from "./scenes/banner.js";
import { hideCountdown, startCountdown } from "./scenes/countdown.js";
import { enterGame, refreshInput, refuseInput, renderLanes, showGraded, showQuestion, showScore, showWait, showWatched, stopClock } from "./scenes/game.js";
import { renderLobby, showLobby, showLobbyError } from "./scenes/lobby.js";
import { renderMenu } from "./scenes/menu.js";
import { showRejected, showSignInError, startOnboarding } from "./scenes/onboard.js";
import { showJoinError, showRace } from "./scenes/race.js";
import { showBest, showResults, showStandings } from "./scenes/results.js";
import { openHome } from "./homes.js";
import { allKinds, anyKind, kindFor, learnCatalog } from "./kinds/index.js";
import { forgetRun } from "./review/attempts.js";
import { renderHandwriting } from "./scenes/handwriting.js";

let state = initialState();
const flow = {
  wantedName: identity.name,  // the name to identify with
  identifying: null,          // the name sent in `identify`, not answered yet
  prevName: null,             // the name to go back to when a rename is cancelled
  pendingSolo: null,          // {game, mode, extra}: create a solo room (extra fields: a fish), then start it
  pendingJoin: new URLSearchParams(location.search).get("room"),
  // What the visitor came for (issue 45): `?game=kids` (the kids' corner) or a game's id, and an
  // invite link's room: the first screen says it, and naming oneself leads there.
  entry: {
    game: new URLSearchParams(location.search).get("game"),
    room: new URLSearchParams(location.search).get("room"),
  },
  resumeTimer: null,
  catalogFailed: false,
  afterRename: null,          // what to show once a rename is done or cancelled (the kids' list), else the menu
  signInError: null,          // why the link's code (?sign_in=) was refused, said on the first screen
  // Several instances behind HAProxy (identified.instance; absent on a single server):
  instance: null,             // the instance this connection reached
  roomInstance: null,         // the instance that owns our room: reconnects ask for it
  roomRequest: null,          // the create_room/join_room not answered yet (repeated after `moved`)
  repeat: null,               // …to send again once identified on the instance `moved` named
  hops: 0,                    // `moved` hops for this request (bounded)
  // The last `submit`, until it is answered (`graded`, an error, a `question`): sent again if the
  // connection dropped before it was, and the server gives the same question again on resuming.
  unanswered: null,
  resuming: false,            // reconnected into our room: the next `question` is the one we were on
};

/** Hops after `moved` before giving up on a request: one to the owner, one spare for a race with a drain. */
const MAX_HOPS = 3;

export const getState = () => state;
export const link = new Link({
  onMessage: handle,
  onState: onConnState,
  instance: () => (state.room ? flow.roomInstance : null),
});

export function dispatch(event) {
  state = apply(state, event, performance.now());
}

export function send(msg) {
  if (msg.type === "create_room" || msg.type === "join_room") { flow.roomRequest = msg; flow.hops = 0; }
  if (msg.type === "submit") flow.unanswered = msg;
  const sent = link.send(msg);
  if (msg.type === "submit") sayAnswerWaits();
  return sent;
}

/** While the link is down, the banner says an answer waits when one will be sent again (`submitAgain`). */
function sayAnswerWaits() {
  showAnswerWaiting(!link.open && !!flow.unanswered && answeredOnce());
}

/**
 * Whether the race's game answers each question once: a question the server gives again after a
 * reconnect was then not answered. Not the path finder: a move the server took comes back as the
 * same question too.
 */
function answeredOnce() {
  const info = gameInfo(state, state.race.game);
  return !!info && info.answer_input !== "move";
}

// ---------- the catalog of games ----------

export async function loadCatalog() {
  try {
    const games = readCatalog(await api("/api/games"));
    learnCatalog(games);
    flow.catalogFailed = false;
    dispatch({ type: "local/catalog", games });
  } catch (_) {
    flow.catalogFailed = true;
  }
  if (currentScene() === "menu") renderMenu(state);
}

export const catalogFailed = () => flow.catalogFailed;
/** The menu's game: the kids' games (with levels) live in the kids' corner, not in the menu's list. */
export const chosenGame = () => pickGame(menuGames(state.catalog), identity.game);
export const menuGames = (games) => (games === null ? null : games.filter((g) => !Array.isArray(g.levels)));

export function chooseGame(id) {
  identity.game = id;
  renderMenu(state);
}

// ---------- what the player does ----------

export function showMenu() {
  renderMenu(state);
  show("menu");
  refreshAssignments();
}

export function setPlayerHeader() {
  $("player-name").textContent = state.identified && state.player ? state.player.name : "";
}

function identify(name) {
  flow.identifying = name;
  const msg = { type: "identify", name };
  const token = identity.token(name);
  if (token) msg.token = token;
  send(msg);
}

/** A connection identifies once: a new name means a new connection. */
export function useName(name) {
  if (state.identified && state.player && name === state.player.name) { afterName(); return; }
  if (state.identified && state.player) flow.prevName = state.player.name;
  flow.wantedName = name;
  link.stop();
  link.connect();
}

/**
 * Signs in with a code made on another device: the name and this device's
 * own token are kept as identify keeps them, then the link identifies anew.
 * A refusal is said on the first screen; nothing is lost.
 */
export async function signIn(code) {
  let got;
  try {
    got = await redeemCode(code);
  } catch (e) {
    showSignInError(refusalText(e));
    return false;
  }
  identity.setToken(got.name, got.token);
  identity.name = got.name;
  useName(got.name);
  return true;
}

/** `/?sign_in=CODE`: redeemed before the first connection; the code leaves the address bar either way. */
export async function signInFromLink() {
  const raw = new URLSearchParams(location.search).get("sign_in");
  if (raw === null) return;
  const params = new URLSearchParams(location.search);
  params.delete("sign_in");
  history.replaceState(null, "", location.pathname + (params.toString() ? `?${params}` : ""));
  const code = normalizeCode(raw);
  if (!code) { flow.signInError = t("signin.bad_sign_in_code"); return; }
  try {
    const got = await redeemCode(code);
    identity.setToken(got.name, got.token);
    identity.name = got.name;
    flow.wantedName = got.name;
  } catch (e) {
    flow.signInError = refusalText(e);
  }
}

/** The link's refused code, said once on the first screen (a known name may cancel back to itself). */
function sayLinkRefusal() {
  if (!flow.signInError) return false;
  const text = flow.signInError;
  flow.signInError = null;
  if (state.identified && state.player) startRename();
  else startOnboarding(false, "", flow.entry);
  showSignInError(text);
  return true;
}

/** Back to where the rename started: the kids' list, or where the link led, or the menu. */
function afterName() {
  const then = flow.afterRename;
  flow.afterRename = null;
  if (then) then(); else openEntry();
}

/**
 * Where a link with `?game=` leads once the player is known: the kids' corner, Add-One's fish, the
 * path finder's page, or the menu with that game chosen. Once: the parameter leaves the address.
 */
function openEntry() {
  const game = flow.entry.game;
  flow.entry = { game: null, room: null };
  if (game && !flow.pendingJoin) {
    const params = new URLSearchParams(location.search);
    params.delete("game");
    history.replaceState(null, "", location.pathname + (params.toString() ? `?${params}` : ""));
    // A game with a home of its own (its kind's `home`: the kids' corner for
    // the group or any of its games, Add-One's fish, the path finder's page).
    if (openHome(kindFor(game).home)) return;
    if (menuGames(state.catalog || []).some((g) => g.id === game)) identity.game = game;
  }
  showMenu();
}

export function cancelRename() {
  if (state.identified) { afterName(); return; }
  if (flow.prevName) {
    flow.wantedName = flow.prevName;
    flow.prevName = null;
    link.stop();
    link.connect();
  }
}

export function startRename(then = null) {
  flow.afterRename = typeof then === "function" ? then : null;
  flow.prevName = state.player ? state.player.name : flow.wantedName;
  startOnboarding(true, flow.prevName);
}

/** Leaves the room (if any) without showing anything: the caller shows what comes next. */
export function leaveRoom() {
  if (state.room) send({ type: "leave_room" });
  dispatch({ type: "local/leave" });
  flow.pendingSolo = null;
  flow.unanswered = null;
  sayAnswerWaits();
  stopClock();
}

export function leaveToMenu() {
  for (const kind of allKinds()) if (kind.leaving) kind.leaving();
  leaveRoom();
  showMenu();
}

/** A solo race: a room for one, started as soon as it exists. `extra` goes into create_room (`fish`). */
export function playSolo(game, mode, extra = {}) {
  flow.pendingSolo = { game, mode, extra };
  if (state.room) send({ type: "leave_room" });
  else send({ type: "create_room", game, mode, max_players: 1, ...extra });
}

function clearRoomParam() {
  if (location.search) history.replaceState(null, "", location.pathname);
}

// ---------- what the server says ----------

function onConnState(linkState, info) {
  if (!["open", "connecting"].includes(linkState)) dispatch({ type: "local/disconnected" });
  if (linkState === "restarting") roomGone(null);   // 1012: the instance closed its rooms
  if (linkState === "open" && state.catalog === null) loadCatalog();
  showConnState(linkState, info);
  sayAnswerWaits();
}

function handle(msg) {
  const prev = state;
  dispatch(msg);
  switch (msg.type) {
    case "welcome":
      if (flow.wantedName) identify(flow.wantedName);
      else if (!sayLinkRefusal()) startOnboarding(false, "", flow.entry);
      break;
    case "identified": onIdentified(prev, msg); renderHandwriting(state); break;
    case "error": onError(msg); if (msg.request === "reading") renderHandwriting(state); break;
    case "room": onRoom(prev, msg); renderLesson(state); break;
    case "room_updated": onRoomUpdated(prev, msg); renderLesson(state); break;
    case "left_room": onLeftRoom(); renderLesson(state); break;
    case "countdown": startCountdown(state.countdown.endsAt); break;
    case "race_started": flow.unanswered = null; flow.resuming = false; forgetRun(); enterGame(state); break;
    case "question": {
      const resent = !!prev.race.question && prev.race.question.id === msg.question;
      const resumed = flow.resuming;
      flow.resuming = false;
      if (currentScene() !== "game") enterGame(state);
      else showQuestion(state, resent);
      submitAgain(resumed && resent ? msg.question : null);
      break;
    }
    case "guess": refreshInput(); break;
    // The submit was read unsurely: the pick panel asks which digit was meant. The submit stays
    // unanswered until graded (a reconnect sends it again, and the server offers the choice again).
    case "choice": refreshInput(); break;
    case "graded": flow.unanswered = null; showGraded(state); break;
    case "progress": renderLanes(state); if (currentScene() === "game") showWatched(state); break;
    case "spectating": if (currentScene() === "game") { showWatched(state); renderLanes(state); } break;
    // An old run's last words (a room we left: issue 45) leave the state as it was: nothing to show.
    case "finished": if (state !== prev) { flow.unanswered = null; onFinished(); } break;
    case "standings": if (state !== prev) onStandings(); break;
    case "result_saved": if (state !== prev) { showBest(state); const k = kindFor(state.race.game); if (k.saved) k.saved(state); } break;
    case "moved": onMoved(msg); break;
    case "reading": renderHandwriting(state); break;
    // A message only a kind's games get (Add-One's `fish`): its kind's.
    default: if (state !== prev) { const k = kindFor(state.race.game); if (k.message) k.message(msg, state); } break;
  }
}

/**
 * The question we were on, given again on resuming after a reconnect (`question` = its id), while
 * our submit of it was never answered: the submit was sent while the link was down, or was lost
 * with the old connection. The input has just sent its drawing again; the submit follows it, so a
 * press of Submit during a drop is not lost. Only in a game answered once per question
 * (`answeredOnce`): a path finder's move sent again could move the robot twice. Any other
 * `question` answers the submit.
 */
function submitAgain(question) {
  const pending = flow.unanswered;
  flow.unanswered = null;
  if (!pending || pending.question !== question || !mayAnswer(state) || !answeredOnce()) return;
  dispatch({ type: "local/submit" });
  send(pending);
  refreshInput();
}

function onIdentified(prev, msg) {
  flow.identifying = null;
  flow.instance = typeof msg.instance === "string" ? msg.instance : null;
  flow.wantedName = msg.name;
  identity.name = msg.name;
  if (msg.token) identity.setToken(msg.name, msg.token);
  flow.prevName = null;
  setPlayerHeader();
  if (prev.room) {
    // Reconnected: the server resumes us with `room` if we still belong to it.
    // Sent elsewhere than the room's owner (HAProxy could not reach it): asking
    // for the room answers `moved` (to the owner) or `room_lost`.
    flow.repeat = null;
    flow.resuming = true;
    if (flow.instance && flow.roomInstance && flow.instance !== flow.roomInstance) {
      send({ type: "join_room", code: prev.room.code });
    }
    clearTimeout(flow.resumeTimer);
    flow.resumeTimer = setTimeout(() => {
      const had = !!state.room;
      dispatch({ type: "local/resume_timeout" });
      if (!had || state.room) return;
      stopClock();
      // A finished run stays on screen until the player leaves it (the room is gone: no rematch).
      if (!keepFinishedRun()) showMenu();
    }, 2500);
    return;
  }
  if (flow.repeat) { repeatRequest(); return; }
  if (flow.pendingJoin) { send({ type: "join_room", code: flow.pendingJoin }); return; }
  if (currentScene() === "onboard") afterName();
  else if (currentScene() === "loading" && !sayLinkRefusal()) openEntry();
}

function onError(msg) {
  if (flow.roomRequest && msg.request === flow.roomRequest.type) flow.roomRequest = null;
  if (msg.code === "draining") { roomGone(errorText(msg)); return; }
  if (msg.code === "room_lost" && state.room) { roomGone(errorText(msg)); return; }
  switch (msg.request) {
    case "identify": {
      const name = flow.identifying || flow.wantedName;
      flow.identifying = null;
      if (msg.code === "wrong_token") identity.dropToken(name);
      if (msg.code === "unavailable") { toast(t("error.unavailable")); return; }
      if (currentScene() !== "onboard") startOnboarding(!!flow.prevName, flow.prevName || "", flow.entry);
      showRejected(name, errorText(msg));
      return;
    }
    case "join_room":
      flow.pendingJoin = null;
      clearRoomParam();
      if (msg.code === "already_in_room") return;
      if (currentScene() !== "race") showRace();
      showJoinError(errorText(msg));
      return;
    case "start":
    case "ready":
    case "rematch":
      if (currentScene() === "lobby") showLobbyError(errorText(msg));
      else toast(errorText(msg));
      return;
    case "create_room":
      flow.pendingSolo = null;
      toast(errorText(msg));
      if (!anyKind("refused", msg)) showMenu();
      return;
    case "points":
    case "clear":
      return;   // late batches, nothing to tell the player
    case "choose":
      refreshInput();
      if (msg.code === "race_over" || msg.code === "stale_question") return;
      toast(errorText(msg));
      return;
    case "submit":
      flow.unanswered = null;
      refreshInput();
      if (msg.code === "race_over" || msg.code === "stale_question") return;
      if (refuseInput(msg)) return;   // the path finder's robot bumps instead
      toast(errorText(msg));
      return;
    default:
      if (msg.code === "replaced") return;   // the close handler tells
      toast(errorText(msg));
  }
}

function onRoom(prev, msg) {
  const resumed = !!prev.room && prev.room.code === msg.code;
  clearTimeout(flow.resumeTimer);
  flow.roomRequest = null;
  flow.roomInstance = flow.instance;
  flow.pendingJoin = null;
  const phase = msg.room.phase;
  if (phase === "lobby") {
    if (flow.pendingSolo && isSolo(state)) { flow.pendingSolo = null; send({ type: "start" }); return; }
    clearRoomParam();
    showLobby(state);
  } else if (phase === "countdown") {
    startCountdown(state.countdown.endsAt);
  } else if (phase === "running") {
    if (!resumed || currentScene() !== "game" || !prev.race.running) enterGame(state);
    showScore(state);
    renderLanes(state);
    if (myRole(state) === "spectator") showWait("game.spectating");
    refreshInput();
  } else if (phase === "finished" && msg.standings) {
    onStandings();
  }
}

/**
 * `moved`: the room is another instance's (or this one is draining and opens
 * none): reconnect there, identify with the token, ask again. A bounded
 * number of hops, then the request fails like any refused one.
 */
function onMoved(msg) {
  const request = flow.roomRequest;
  if (!request) return;
  if (flow.hops >= MAX_HOPS) {
    flow.repeat = null;
    onError({ type: "error", request: request.type, code: "room_unreachable" });
    return;
  }
  flow.hops += 1;
  flow.repeat = request;
  link.hop(typeof msg.instance === "string" ? msg.instance : null);
}

/** The request `moved` sent elsewhere, asked again on the new connection (the hop count goes on). */
function repeatRequest() {
  const request = flow.repeat;
  flow.repeat = null;
  const hops = flow.hops;
  send(request);
  flow.hops = hops;
}

/**
 * The room is gone but a finished run is on screen: it stays (results
 * intact), without the rematch or the wait for one. False elsewhere.
 */
function keepFinishedRun() {
  if (!endScenes().includes(currentScene())) return false;
  $("standings-rematch").hidden = true;
  $("standings-wait").hidden = true;
  return true;
}

/**
 * Our room ended on the server's side (draining, 1012, or its instance went
 * away): a finished run stays on screen (results intact, no rematch); from
 * anywhere else the player goes back to the menu. `text` is said if given.
 */
function roomGone(text) {
  clearTimeout(flow.resumeTimer);
  flow.repeat = null;
  if (state.room) {
    dispatch({ type: "local/leave" });
    stopClock();
    hideCountdown();
    if (!keepFinishedRun() && currentScene() !== "menu") showMenu();
  }
  if (text) toast(text);
}

function onRoomUpdated(prev, msg) {
  if (!state.room || state.room.code !== msg.code) return;
  const prevPhase = prev.room ? prev.room.room.phase : null;
  if (msg.room.phase === "lobby") {
    if (currentScene() === "lobby" || prevPhase !== "lobby") showLobby(state);
  } else if (currentScene() === "lobby") {
    renderLobby(state);
  }
}

function onLeftRoom() {
  stopClock();
  if (flow.pendingSolo) {
    const { game, mode, extra } = flow.pendingSolo;
    send({ type: "create_room", game, mode, max_players: 1, ...extra });
  } else if (!["menu", "highscores", "leaderboards", "race", "onboard"].includes(currentScene())
             && !anyKind("ownsScene", currentScene())) {
    showMenu();
  }
}

function onFinished() {
  refreshInput();
  if (isSolo(state)) {
    stopClock();
    showSoloEnd();
  } else {
    showWait("game.waitOthers");
  }
}

/** A solo run's end: as the game's kind shows it (the fish tank's game-over question, a kids' level's end), or the Results scene. */
function showSoloEnd() {
  const kind = kindFor(state.race.game);
  if (!(kind.soloEnd && kind.soloEnd(state, getState))) showResults(state);
}

/** The scenes a finished run is shown on: Results, Standings and the kinds' own (a kids' level's end). */
function endScenes() {
  return ["results", "standings", ...allKinds().flatMap((kind) => kind.endScenes || [])];
}

function onStandings() {
  stopClock();
  hideCountdown();
  if (isSolo(state)) {
    if (state.race.result && !endScenes().filter((s) => s !== "standings").includes(currentScene())) showSoloEnd();
    return;
  }
  showStandings(state);
}
