// MindPad browser client: scenes, the realtime protocol (docs/protocol.md)
// and the HTTP API (docs/openapi.yaml). Names other players typed are only
// ever inserted with textContent / createTextNode.
import { t, setLang, getLang, apply as applyI18n } from "./i18n.js";
import { Link, api } from "./net.js";
import { Pad } from "./pad.js";

const $ = (id) => document.getElementById(id);

/** An element with a class and text. Text goes in as text, never as HTML:
 *  names and everything else another player typed pass through here. */
function textEl(tag, className, text = "") {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}
const MODES = ["normal", "survival", "time_attack"];

// ---------- persisted identity ----------
const store = {
  get name() { return localStorage.getItem("mindpad.name") || ""; },
  set name(v) { localStorage.setItem("mindpad.name", v); },
  tokens() { try { return JSON.parse(localStorage.getItem("mindpad.tokens") || "{}"); } catch (_) { return {}; } },
  token(name) { return this.tokens()[name.toLowerCase()] || null; },
  setToken(name, token) {
    const all = this.tokens(); all[name.toLowerCase()] = token;
    localStorage.setItem("mindpad.tokens", JSON.stringify(all));
  },
  dropToken(name) {
    const all = this.tokens(); delete all[name.toLowerCase()];
    localStorage.setItem("mindpad.tokens", JSON.stringify(all));
  },
};

// ---------- state ----------
const S = {
  scene: "loading",
  identifying: null,       // name sent in identify, awaiting the answer
  identified: false,
  playerId: null,
  name: store.name,
  prevName: null,          // name to fall back to when "change name" is cancelled
  room: null,              // {code, you, room}
  pendingSolo: null,       // mode to create a solo room for
  pendingJoin: new URLSearchParams(location.search).get("room"),
  mode: null,
  question: null,          // {id, prompt}
  score: 0,
  startedAt: 0,
  endsAt: 0,
  running: false,
  myResult: null,
  personalBest: false,
  standings: null,
  progress: null,
  submitting: false,
  resumeTimer: null,
  lb: { mode: "normal", period: "all", nextReset: null },
};

// ---------- scenes ----------
function show(scene) {
  S.scene = scene;
  for (const el of document.querySelectorAll(".scene")) el.hidden = el.dataset.scene !== scene;
  document.body.dataset.scene = scene;
  const target = document.querySelector(`#scene-${scene} h1, #scene-${scene} .menu button, #scene-${scene} button`);
  if (target && scene !== "game") {
    if (target.tagName === "H1") target.tabIndex = -1;
    target.focus({ preventScroll: true });
  }
}

function toast(text, ms = 3500) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, ms);
}

function errorText(msg) {
  const key = `err.${msg.code}`;
  const translated = t(key);
  return translated === key ? (msg.message || msg.code) : translated;
}

function fmtTime(ms, tenths = false) {
  ms = Math.max(0, ms);
  const totalS = tenths ? ms / 1000 : Math.floor(ms / 1000);
  const m = Math.floor(totalS / 60);
  const s = totalS - m * 60;
  const sText = tenths ? s.toFixed(1).padStart(4, "0") : String(Math.floor(s)).padStart(2, "0");
  return `${m}:${sText}`;
}

function fmtDuration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400), h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60), s = total % 60;
  if (d > 0) return t("dur.d", { d, h });
  if (h > 0) return t("dur.h", { h, m });
  return t("dur.m", { m, s });
}

function modeName(mode) { return t(`mode.${mode}`); }

function setPlayerHeader() {
  const el = $("player-name");
  el.textContent = S.identified ? S.name : "";
  $("menu-hello").textContent = t("menu.hello", { name: S.name });
}

// ---------- connection ----------
const link = new Link({ onMessage: handle, onState: connState });

function connState(state, info) {
  const banner = $("conn-banner"), text = $("conn-text");
  if (state === "open") { banner.hidden = true; return; }
  if (state === "connecting") {
    if (S.scene === "loading") { banner.hidden = true; return; }
    return;
  }
  S.identified = false;
  if (state === "retrying") {
    text.textContent = t("conn.reconnecting", { s: Math.ceil(info.delay / 1000) });
    banner.dataset.state = "retrying";
  } else if (state === "down") {
    text.textContent = t("conn.down");
    banner.dataset.state = "down";
  } else if (state === "closed" && info === 4001) {
    text.textContent = t("err.replaced");
    banner.dataset.state = "replaced";
  } else {
    return;
  }
  banner.hidden = false;
}

function send(obj) { return link.send(obj); }

function identify(name) {
  S.identifying = name;
  const msg = { type: "identify", name };
  const token = store.token(name);
  if (token) msg.token = token;
  send(msg);
}

function startOnboarding(allowCancel) {
  $("onboard-error").textContent = "";
  $("onboard-cancel").hidden = !allowCancel;
  $("name-input").value = allowCancel ? S.name : "";
  show("onboard");
  $("name-input").focus();
}

function leaveToMenu() {
  if (S.room) send({ type: "leave_room" });
  S.room = null;
  S.pendingSolo = null;
  stopClock();
  show("menu");
}

// ---------- messages ----------
function handle(msg) {
  switch (msg.type) {
    case "welcome":
      if (S.name) identify(S.name);
      else startOnboarding(false);
      break;
    case "identified": onIdentified(msg); break;
    case "error": onError(msg); break;
    case "room": onRoom(msg); break;
    case "room_updated": onRoomUpdated(msg); break;
    case "left_room": onLeftRoom(); break;
    case "countdown": startCountdown(msg.starts_in_ms); break;
    case "race_started": onRaceStarted(msg); break;
    case "question": onQuestion(msg); break;
    case "guess": onGuess(msg); break;
    case "graded": onGraded(msg); break;
    case "progress": onProgress(msg); break;
    case "finished": onFinished(msg.result); break;
    case "standings": onStandings(msg); break;
    case "result_saved": onResultSaved(msg); break;
    default: break;
  }
}

function onIdentified(msg) {
  S.identified = true;
  S.identifying = null;
  S.playerId = msg.player_id;
  S.name = msg.name;
  store.name = msg.name;
  if (msg.token) store.setToken(msg.name, msg.token);
  S.prevName = null;
  setPlayerHeader();
  const hadRoom = !!S.room;
  if (hadRoom) {
    // Reconnected: the server resumes us with `room` if we still belong to it.
    clearTimeout(S.resumeTimer);
    S.resumeTimer = setTimeout(() => {
      if (S.room && !S.room.resumed) { S.room = null; stopClock(); show("menu"); }
    }, 2500);
    S.room.resumed = false;
    return;
  }
  if (S.pendingJoin) {
    send({ type: "join_room", code: S.pendingJoin });
    return;
  }
  if (["loading", "onboard"].includes(S.scene)) show("menu");
}

function onError(msg) {
  switch (msg.request) {
    case "identify": {
      const name = S.identifying || S.name;
      S.identifying = null;
      if (msg.code === "wrong_token") store.dropToken(name);
      if (msg.code === "unavailable") { toast(t("error.unavailable")); return; }
      if (S.scene !== "onboard") startOnboarding(!!S.prevName);
      $("name-input").value = name;
      $("onboard-error").textContent = t("onboard.rejected", { name, reason: errorText(msg) });
      return;
    }
    case "join_room":
      S.pendingJoin = null;
      clearRoomParam();
      if (msg.code === "already_in_room") return;
      if (S.scene !== "race") showRace();
      $("join-error").textContent = errorText(msg);
      return;
    case "start":
    case "ready":
    case "rematch":
      if (S.scene === "lobby") $("lobby-error").textContent = errorText(msg);
      else toast(errorText(msg));
      return;
    case "create_room":
      S.pendingSolo = null;
      toast(errorText(msg));
      show("menu");
      return;
    case "points":
    case "clear":
      return;   // late batches, nothing to tell the player
    case "submit":
      S.submitting = false;
      updatePadButtons();
      if (msg.code === "race_over" || msg.code === "stale_question") return;
      toast(errorText(msg));
      return;
    default:
      if (msg.code === "replaced") return;   // the close handler tells
      toast(errorText(msg));
  }
}

function isSolo() { return !!S.room && S.room.room.max_players === 1; }

function myRole() {
  const me = S.room && S.room.room.members.find((m) => m.player_id === S.room.you);
  return me ? me.role : "racer";
}

function onRoom(msg) {
  const resumed = !!S.room && S.room.code === msg.code;
  S.room = { code: msg.code, you: msg.you, room: msg.room, resumed: true };
  clearTimeout(S.resumeTimer);
  S.mode = msg.room.mode;
  S.pendingJoin = null;
  if (msg.progress) onProgress(msg.progress);
  const phase = msg.room.phase;
  if (phase === "lobby") {
    if (S.pendingSolo && isSolo()) { S.pendingSolo = null; send({ type: "start" }); return; }
    clearRoomParam();
    showLobby();
  } else if (phase === "countdown") {
    startCountdown(msg.room.starts_in_ms || 0);
  } else if (phase === "running") {
    if (!resumed || S.scene !== "game") enterGame(msg.room.ends_in_ms);
    else if (msg.room.ends_in_ms != null) S.endsAt = performance.now() + msg.room.ends_in_ms;
    if (msg.progress) {
      const me = msg.progress.racers.find((r) => r.player_id === msg.you);
      if (me) { S.score = me.score; $("game-score").textContent = String(me.score); }
    }
    if (myRole() === "spectator") {
      $("game-wait").textContent = t("game.spectating");
      $("game-wait").hidden = false;
      S.pad.enabled = false;
    }
  } else if (phase === "finished" && msg.standings) {
    onStandings(msg.standings);
  }
}

function onRoomUpdated(msg) {
  if (!S.room || S.room.code !== msg.code) return;
  const prevPhase = S.room.room.phase;
  S.room.room = msg.room;
  if (msg.room.phase === "lobby") {
    if (S.scene === "lobby" || prevPhase !== "lobby") showLobby();
  } else if (S.scene === "lobby") {
    renderLobby();
  }
}

function onLeftRoom() {
  S.room = null;
  stopClock();
  if (S.pendingSolo) {
    send({ type: "create_room", mode: S.pendingSolo, max_players: 1 });
  } else if (!["menu", "highscores", "leaderboards", "race", "onboard"].includes(S.scene)) {
    show("menu");
  }
}

function clearRoomParam() {
  if (location.search) history.replaceState(null, "", location.pathname);
}

// ---------- solo / race entry ----------
function playSolo(mode) {
  S.mode = mode;
  if (S.room) {
    S.pendingSolo = mode;
    send({ type: "leave_room" });
  } else {
    S.pendingSolo = mode;
    send({ type: "create_room", mode, max_players: 1 });
  }
}

function showRace() {
  $("join-error").textContent = "";
  show("race");
}

// ---------- lobby ----------
function inviteLink() { return `${location.origin}/?room=${encodeURIComponent(S.room.code)}`; }

function showLobby() {
  $("lobby-error").textContent = "";
  renderLobby();
  if (S.scene !== "lobby") show("lobby");
}

function renderLobby() {
  const { code, you, room } = S.room;
  $("lobby-title").textContent = t("lobby.title", { code });
  $("lobby-mode").textContent = modeName(room.mode);
  $("lobby-code").textContent = code;
  $("lobby-link").value = inviteLink();
  const list = $("lobby-members");
  list.replaceChildren();
  for (const m of room.members) {
    const li = document.createElement("li");
    li.className = "member";
    if (m.player_id === you) li.classList.add("me");
    const name = textEl("span", "name", m.name);
    li.append(name);
    const tags = [];
    if (m.host) tags.push(t("lobby.host"));
    if (m.player_id === you) tags.push(t("lobby.you"));
    if (m.role === "spectator") tags.push(t("lobby.spectator"));
    else if (!m.host) tags.push(m.ready ? t("lobby.ready") : t("lobby.notready"));
    if (!m.connected) tags.push(t("lobby.offline"));
    for (const tag of tags) {
      const b = textEl("span", "tag", tag);
      li.append(b);
    }
    list.append(li);
  }
  const isHost = room.host === you;
  const me = room.members.find((m) => m.player_id === you);
  $("lobby-start").hidden = !isHost;
  $("lobby-ready").hidden = isHost || !me || me.role !== "racer";
  $("lobby-ready").textContent = me && me.ready ? t("lobby.unreadyBtn") : t("lobby.readyBtn");
  $("lobby-ready").setAttribute("aria-pressed", me && me.ready ? "true" : "false");
  $("lobby-wait").hidden = isHost;
}

// ---------- countdown ----------
function startCountdown(ms) {
  const overlay = $("countdown");
  const end = performance.now() + ms;
  overlay.hidden = false;
  clearInterval(startCountdown.timer);
  const tick = () => {
    const left = end - performance.now();
    $("countdown-num").textContent = String(Math.max(1, Math.ceil(left / 1000)));
    if (left <= -1500) { clearInterval(startCountdown.timer); overlay.hidden = true; }
  };
  tick();
  startCountdown.timer = setInterval(tick, 100);
}

function hideCountdown() {
  clearInterval(startCountdown.timer);
  $("countdown").hidden = true;
}

// ---------- game ----------
function enterGame(endsInMs) {
  hideCountdown();
  S.running = true;
  S.myResult = null;
  S.personalBest = false;
  S.standings = null;
  S.score = 0;
  S.question = null;
  S.startedAt = performance.now();
  S.endsAt = endsInMs != null ? performance.now() + endsInMs : 0;
  S.mode = S.room ? S.room.room.mode : S.mode;
  $("game-score").textContent = "0";
  $("game-mode").textContent = modeName(S.mode);
  $("question").replaceChildren();
  $("question-num").textContent = "";
  $("feedback").textContent = "";
  $("feedback").className = "feedback";
  $("game-wait").hidden = true;
  $("lanes").hidden = isSolo();
  $("clock-label").textContent = S.mode === "time_attack" ? t("game.timeLeft") : t("game.time");
  $("clock-label").dataset.i18n = S.mode === "time_attack" ? "game.timeLeft" : "game.time";
  S.pad.enabled = true;
  S.pad.clear();
  setGuess(null);
  show("game");
  startClock();
}

function onRaceStarted(msg) {
  S.mode = msg.mode;
  enterGame(msg.ends_in_ms);
}

function startClock() {
  clearInterval(S.clockTimer);
  const tick = () => {
    const now = performance.now();
    const ms = S.mode === "time_attack" ? Math.max(0, S.endsAt - now) : now - S.startedAt;
    const text = S.mode === "time_attack" ? fmtTime(Math.ceil(ms / 1000) * 1000) : fmtTime(ms);
    $("clock").textContent = text;
    $("clock").classList.toggle("low", S.mode === "time_attack" && ms < 10000);
  };
  tick();
  S.clockTimer = setInterval(tick, 250);
}

function stopClock() {
  clearInterval(S.clockTimer);
  S.running = false;
}

const SIGNS = { "+": "+", "-": "−", "*": "×", "/": "÷" };

function onQuestion(msg) {
  const same = S.question && S.question.id === msg.question;
  if (S.scene !== "game") enterGame(S.room && S.room.room.ends_in_ms);
  S.question = { id: msg.question, prompt: msg.prompt };
  S.submitting = false;
  const p = msg.prompt;
  const q = $("question");
  q.replaceChildren();
  q.dataset.id = msg.question;
  q.append(document.createTextNode(`${p.lhs} ${SIGNS[p.operation] || p.operation} ${p.rhs} = `));
  const res = document.createElement("span");
  res.className = "result";
  [...p.masked_result].forEach((ch, i) => {
    if (i === p.hidden_position && ch === "?") {
      const mark = textEl("span", "hidden-digit", "?");
      mark.title = t("game.hidden");
      res.append(mark);
    } else {
      res.append(document.createTextNode(ch));
    }
  });
  q.append(res);
  $("question-num").textContent = t("game.question", { n: Number(msg.question.split("q").pop()) + 1 });
  if (same && S.pad.hasInk) {
    // Re-sent after a reconnect: make the server's drawing match ours.
    send({ type: "clear", question: msg.question });
    S.pad.strokes.forEach((s, i) => send({ type: "points", question: msg.question, stroke: i, points: s }));
  } else {
    S.pad.clear();
    setGuess(null);
  }
  S.pad.enabled = true;
  updatePadButtons();
}

function setGuess(g) {
  const el = $("guess");
  if (!g) {
    el.textContent = "?";
    el.dataset.digit = "";
    el.title = t("game.guess.none");
    return;
  }
  el.textContent = String(g.digit);
  el.dataset.digit = String(g.digit);
  el.dataset.points = String(g.points);
  el.title = `${Math.round(g.confidence * 100)}%`;
}

function onGuess(msg) {
  if (!S.question || msg.question !== S.question.id || !S.pad.hasInk) return;
  setGuess(msg);
}

function onGraded(msg) {
  S.score = msg.score;
  $("game-score").textContent = String(msg.score);
  const fb = $("feedback");
  fb.textContent = msg.correct ? t("game.correct") : t("game.wrong", { d: msg.expected });
  fb.className = `feedback ${msg.correct ? "ok" : "bad"}`;
  fb.dataset.correct = String(msg.correct);
  fb.dataset.answer = String(msg.answer);
  fb.dataset.question = msg.question;
  S.submitting = false;
  if (msg.run_over) S.pad.enabled = false;
  updatePadButtons();
}

function updatePadButtons() {
  const canDraw = S.pad.enabled && !!S.question && !S.myResult;
  $("btn-submit").disabled = !canDraw || !S.pad.hasInk || S.submitting;
  $("btn-clear").disabled = !canDraw || !S.pad.hasInk || S.submitting;
}

function onProgress(msg) {
  S.progress = msg;
  const list = $("lanes-list");
  list.replaceChildren();
  const maxQ = Math.max(msg.mode === "normal" ? 10 : 1, ...msg.racers.map((r) => r.question_index + 1));
  for (const r of msg.racers) {
    const li = document.createElement("li");
    li.className = `lane ${r.status}`;
    if (S.room && r.player_id === S.room.you) li.classList.add("me");
    const name = textEl("span", "name", r.name);
    const bar = document.createElement("span");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = `${Math.min(100, Math.round(((r.status === "playing" ? r.question_index : maxQ) / maxQ) * 100))}%`;
    bar.append(fill);
    const score = textEl("span", "lane-score", String(r.score));
    li.append(name, bar, score);
    list.append(li);
  }
}

function onFinished(result) {
  S.myResult = result;
  S.pad.enabled = false;
  updatePadButtons();
  if (isSolo()) {
    stopClock();
    showResults();
  } else {
    $("game-wait").textContent = t("game.waitOthers");
    $("game-wait").hidden = false;
  }
}

function onResultSaved(msg) {
  S.personalBest = !!msg.personal_best;
  $("results-best").hidden = !S.personalBest;
  $("standings-best").hidden = !S.personalBest;
}

function showResults() {
  const r = S.myResult;
  $("results-mode").textContent = modeName(S.mode);
  $("results-score").textContent = String(r.score);
  $("results-time").textContent = fmtTime(r.duration_ms, true);
  $("results-time-row").hidden = S.mode === "time_attack";
  $("results-correct").textContent = `${r.correct} / ${r.answered}`;
  $("results-best").hidden = !S.personalBest;
  show("results");
}

function onStandings(msg) {
  stopClock();
  hideCountdown();
  S.standings = msg;
  if (isSolo()) { if (S.myResult && S.scene !== "results") showResults(); return; }
  $("standings-mode").textContent = modeName(msg.mode);
  $("standings-best").hidden = !S.personalBest;
  const podium = $("podium"), list = $("standings-list");
  podium.replaceChildren();
  list.replaceChildren();
  msg.entries.forEach((e) => {
    const mine = S.room && e.player_id === S.room.you;
    if (e.rank <= 3) {
      const li = document.createElement("li");
      li.className = `step rank-${e.rank}`;
      if (mine) li.classList.add("me");
      const medal = textEl("span", "medal", String(e.rank));
      const name = textEl("span", "name", e.name);
      const pts = textEl("span", "pts", t("standings.points", { score: e.score }));
      li.append(medal, name, pts);
      podium.append(li);
    }
    const row = document.createElement("li");
    row.className = "standing";
    if (mine) row.classList.add("me");
    const rank = textEl("span", "rank", String(e.rank));
    const name = textEl("span", "name", e.name);
    const detail = document.createElement("span");
    detail.className = "detail";
    let d = `${t("standings.points", { score: e.score })} · ${e.correct}/${e.answered}`;
    if (msg.mode !== "time_attack") d += ` · ${fmtTime(e.duration_ms, true)}`;
    if (!e.completed) d += ` · ${t("standings.left")}`;
    detail.textContent = d;
    row.append(rank, name, detail);
    list.append(row);
  });
  const isHost = S.room && S.room.room.host === S.room.you;
  $("standings-rematch").hidden = !isHost;
  $("standings-wait").hidden = !!isHost;
  show("standings");
}

// ---------- share ----------
async function share() {
  const r = S.myResult || { score: S.score };
  const text = t("results.shareText", { score: r.score, mode: modeName(S.mode) });
  const url = location.origin + "/";
  if (navigator.share) {
    try { await navigator.share({ title: t("app.title"), text, url }); return; } catch (e) {
      if (e && e.name === "AbortError") return;
    }
  }
  await copyText(`${text} ${url}`);
  toast(t("results.shared"));
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    const ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.className = "offscreen";
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
    ta.remove();
    return ok;
  }
}

// ---------- highscores ----------
async function showHighscores() {
  show("highscores");
  const body = $("hs-body");
  $("hs-status").textContent = t("loading");
  let profile = null;
  try {
    profile = await api(`/api/players/${encodeURIComponent(S.name)}`);
    $("hs-status").textContent = "";
  } catch (e) {
    $("hs-status").textContent = e.status === 404 ? "" : (e.status === 503 || !e.status ? t("error.unavailable") : t("error.generic", { msg: e.message }));
  }
  body.replaceChildren();
  for (const mode of MODES) {
    const best = profile && profile.highscores && profile.highscores[mode];
    const tr = document.createElement("tr");
    tr.dataset.mode = mode;
    const c1 = document.createElement("th"); c1.scope = "row"; c1.textContent = modeName(mode);
    const c2 = document.createElement("td"); c2.className = "num"; c2.textContent = String(best ? best.score : 0);
    const c3 = document.createElement("td"); c3.className = "num";
    c3.textContent = best && best.time_ms != null && best.score > 0 && mode !== "time_attack" ? fmtTime(best.time_ms, true) : t("hs.none");
    tr.append(c1, c2, c3);
    body.append(tr);
  }
}

async function resetHighscores() {
  const token = store.token(S.name);
  try {
    await api(`/api/players/${encodeURIComponent(S.name)}/highscores/reset`, { method: "POST", token });
    await showHighscores();
    $("hs-status").textContent = t("hs.done");
  } catch (e) {
    $("hs-status").textContent = e.status === 503 || !e.status ? t("error.unavailable") : t("error.generic", { msg: e.message });
  }
}

// ---------- leaderboards ----------
async function showLeaderboards(mode = S.lb.mode, period = S.lb.period) {
  S.lb.mode = mode;
  S.lb.period = period;
  if (S.scene !== "leaderboards") show("leaderboards");
  for (const b of $("lb-modes").children) b.setAttribute("aria-selected", String(b.dataset.mode === mode));
  for (const b of $("lb-periods").children) b.setAttribute("aria-selected", String(b.dataset.period === period));
  for (const b of [...$("lb-modes").children, ...$("lb-periods").children]) {
    b.tabIndex = b.getAttribute("aria-selected") === "true" ? 0 : -1;
  }
  $("lb-status").textContent = t("loading");
  // The line on screen, in the current language, until the new board arrives.
  if ($("lb-reset").textContent) renderResetClock(false);
  const seq = (showLeaderboards.seq = (showLeaderboards.seq || 0) + 1);
  let board;
  try {
    const q = new URLSearchParams({ mode, period, limit: "50" });
    if (S.name) q.set("around", S.name);
    board = await api(`/api/leaderboard?${q}`);
  } catch (e) {
    if (e.status === 404 && S.name) {
      try { board = await api(`/api/leaderboard?${new URLSearchParams({ mode, period, limit: "50" })}`); } catch (_) { board = null; }
    }
    if (!board) {
      $("lb-status").textContent = t("error.unavailable");
      $("lb-body").replaceChildren();
      return;
    }
  }
  if (seq !== showLeaderboards.seq) return;
  $("lb-status").textContent = board.entries.length ? "" : t("lb.empty");
  S.lb.nextReset = board.next_reset ? Date.parse(board.next_reset) : null;
  renderResetClock();
  const body = $("lb-body");
  body.replaceChildren();
  const me = S.name.toLowerCase();
  const addRow = (e, extraClass) => {
    const tr = document.createElement("tr");
    if (extraClass) tr.className = extraClass;
    if (e.name.toLowerCase() === me) { tr.classList.add("me"); tr.setAttribute("aria-current", "true"); }
    const cells = [String(e.rank), e.name, String(e.score), mode === "time_attack" ? t("hs.none") : fmtTime(e.time_ms, true)];
    cells.forEach((v, i) => {
      const td = document.createElement("td");
      td.textContent = v;
      if (i !== 1) td.className = "num";
      else td.className = "name";
      tr.append(td);
    });
    body.append(tr);
  };
  board.entries.forEach((e) => addRow(e));
  const shown = board.entries.some((e) => e.name.toLowerCase() === me);
  if (board.me && !shown) {
    const gap = document.createElement("tr");
    gap.className = "gap";
    const td = document.createElement("td"); td.colSpan = 4; td.textContent = "⋯";
    gap.append(td); body.append(gap);
    (board.around || [board.me]).filter((e) => e.rank > board.entries.length).forEach((e) => addRow(e, "around"));
  }
  $("lb-me").textContent = board.me ? t("lb.you", { rank: board.me.rank }) : "";
}

function renderResetClock(reloadWhenDue = true) {
  const el = $("lb-reset");
  if (S.lb.nextReset == null) { el.textContent = t("lb.never"); return; }
  el.textContent = t("lb.reset", { t: fmtDuration(S.lb.nextReset - Date.now()) });
  if (reloadWhenDue && S.lb.nextReset - Date.now() <= 0 && S.scene === "leaderboards") showLeaderboards();
}
setInterval(() => { if (S.scene === "leaderboards") renderResetClock(); }, 1000);

function tabKeys(container, onPick) {
  container.addEventListener("keydown", (e) => {
    const tabs = [...container.children];
    const i = tabs.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (e.key === "ArrowRight") j = (i + 1) % tabs.length;
    if (e.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
    if (e.key === "Home") j = 0;
    if (e.key === "End") j = tabs.length - 1;
    if (j === null) return;
    e.preventDefault();
    tabs[j].focus();
    onPick(tabs[j]);
  });
}

// ---------- wiring ----------
function wire() {
  S.pad = new Pad($("pad"), {
    onBatch: (stroke, points) => {
      if (S.question) send({ type: "points", question: S.question.id, stroke, points });
    },
    onChange: (hasInk) => { if (!hasInk) setGuess(null); updatePadButtons(); },
  });

  $("lang-switch").addEventListener("click", () => {
    setLang(getLang() === "en" ? "zh" : "en");
    rerenderDynamic();
  });
  $("brand").addEventListener("click", () => { if (S.identified && !S.running) leaveToMenu(); });
  $("conn-retry").addEventListener("click", () => link.retryNow());

  $("onboard-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("name-input").value.trim();
    if (!name) { $("onboard-error").textContent = t("onboard.rejected", { name, reason: t("err.name_empty") }); return; }
    $("onboard-error").textContent = "";
    if (S.identified && name === S.name) { show("menu"); return; }
    if (S.identified) S.prevName = S.name;
    S.name = name;
    // A connection identifies once: reconnect to identify under this name.
    link.stop();
    link.connect();
  });
  $("onboard-cancel").addEventListener("click", () => {
    if (S.identified) { show("menu"); return; }
    if (S.prevName) { S.name = S.prevName; S.prevName = null; link.stop(); link.connect(); }
  });

  for (const b of document.querySelectorAll(".mode-btn")) b.addEventListener("click", () => playSolo(b.dataset.mode));
  $("btn-race").addEventListener("click", showRace);
  $("btn-highscores").addEventListener("click", showHighscores);
  $("btn-leaderboards").addEventListener("click", () => showLeaderboards());
  $("btn-change-name").addEventListener("click", () => { S.prevName = S.name; startOnboarding(true); });
  for (const b of document.querySelectorAll(".back")) b.addEventListener("click", () => show("menu"));

  $("race-create").addEventListener("click", () => {
    const mode = document.querySelector("input[name=race-mode]:checked").value;
    S.mode = mode;
    send({ type: "create_room", mode });
  });
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    $("join-error").textContent = "";
    if (!code) return;
    send({ type: "join_room", code });
  });

  $("lobby-copy").addEventListener("click", async () => {
    await copyText(inviteLink());
    $("lobby-copy").textContent = t("lobby.copied");
    setTimeout(() => { $("lobby-copy").textContent = t("lobby.copy"); }, 1500);
  });
  $("lobby-start").addEventListener("click", () => { $("lobby-error").textContent = ""; send({ type: "start" }); });
  $("lobby-ready").addEventListener("click", () => {
    const me = S.room.room.members.find((m) => m.player_id === S.room.you);
    send({ type: "ready", ready: !(me && me.ready) });
  });
  $("lobby-leave").addEventListener("click", leaveToMenu);

  $("btn-clear").addEventListener("click", () => {
    if (S.question) send({ type: "clear", question: S.question.id });
    S.pad.clear();
  });
  $("btn-submit").addEventListener("click", () => {
    if (!S.question || !S.pad.hasInk || S.submitting) return;
    S.pad.flush();
    S.submitting = true;
    updatePadButtons();
    send({ type: "submit", question: S.question.id });
  });
  $("game-quit").addEventListener("click", leaveToMenu);

  $("results-again").addEventListener("click", () => playSolo(S.mode));
  $("results-menu").addEventListener("click", leaveToMenu);
  $("results-share").addEventListener("click", share);
  $("standings-share").addEventListener("click", share);
  $("standings-menu").addEventListener("click", leaveToMenu);
  $("standings-rematch").addEventListener("click", () => send({ type: "rematch" }));

  $("hs-reset").addEventListener("click", () => $("confirm-reset").showModal());
  $("confirm-reset").addEventListener("close", () => {
    if ($("confirm-reset").returnValue === "yes") resetHighscores();
  });

  for (const b of $("lb-modes").children) b.addEventListener("click", () => showLeaderboards(b.dataset.mode, S.lb.period));
  for (const b of $("lb-periods").children) b.addEventListener("click", () => showLeaderboards(S.lb.mode, b.dataset.period));
  tabKeys($("lb-modes"), (b) => showLeaderboards(b.dataset.mode, S.lb.period));
  tabKeys($("lb-periods"), (b) => showLeaderboards(S.lb.mode, b.dataset.period));

  // Keyboard: Enter submits and Escape clears in the game scene.
  document.addEventListener("keydown", (e) => {
    if (S.scene !== "game" || e.target.tagName === "INPUT") return;
    if (e.key === "Enter" && !$("btn-submit").disabled && e.target.tagName !== "BUTTON") $("btn-submit").click();
    if (e.key === "Escape" && !$("btn-clear").disabled) $("btn-clear").click();
  });
}

function rerenderDynamic() {
  setPlayerHeader();
  if (S.room && S.scene === "lobby") renderLobby();
  if (S.scene === "game") {
    $("game-mode").textContent = modeName(S.mode);
    if (S.progress) onProgress(S.progress);
  }
  if (S.scene === "results" && S.myResult) showResults();
  if (S.scene === "standings" && S.standings) onStandings(S.standings);
  if (S.scene === "highscores") showHighscores();
  if (S.scene === "leaderboards") showLeaderboards();
  if (!$("conn-banner").hidden) {
    const st = $("conn-banner").dataset.state;
    if (st === "down") $("conn-text").textContent = t("conn.down");
    if (st === "replaced") $("conn-text").textContent = t("err.replaced");
  }
}

applyI18n(document);
wire();
setPlayerHeader();
show("loading");
link.connect();
