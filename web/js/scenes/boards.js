// Highscores (the player's bests) and Leaderboards, each for one game of
// the catalog (`?game=`), its modes as tabs.
import { getLang, t } from "../i18n.js";
import { findGame, gameName, modesOf } from "../catalog.js";
import { fmtDuration, fmtRank, fmtTime, modeName } from "../format.js";
import { kindFor } from "../kinds/index.js";
import { api } from "../net.js";
import { $, currentScene, renderTabs, selectTab, show, textEl } from "../ui.js";

let ctx = null;   // {getState, chosenGame, token(name)}
const lb = { game: null, mode: null, period: "all", nextReset: null, seq: 0 };
const hs = { game: null };
const PERIODS = ["all", "day", "week"];

export function initBoards(context) {
  ctx = context;
  $("hs-reset").addEventListener("click", () => {
    $("confirm-body").textContent = t("hs.confirm.body", { game: gameName(findGame(catalog(), hs.game), getLang()) });
    $("confirm-reset").showModal();
  });
  $("confirm-reset").addEventListener("close", () => {
    if ($("confirm-reset").returnValue === "yes") resetHighscores();
  });
  setInterval(() => { if (currentScene() === "leaderboards") renderResetClock(); }, 1000);
}

function catalog() { return ctx.getState().catalog || []; }
function playerName() { const p = ctx.getState().player; return p ? p.name : ""; }
function unavailable(e) { return e.status === 503 || !e.status ? t("error.unavailable") : t("error.generic", { msg: e.message }); }

function gameTabs(container, selected, onPick) {
  renderTabs(container, catalog().map((g) => ({ value: g.id, label: gameName(g, getLang()) })), onPick);
  selectTab(container, selected);
}

// ---------- highscores ----------

export async function showHighscores(game = hs.game || (ctx.chosenGame() || {}).id) {
  hs.game = game;
  if (currentScene() !== "highscores") show("highscores");
  gameTabs($("hs-games"), game, (g) => showHighscores(g));
  const name = playerName();
  $("hs-status").textContent = t("loading");
  let profile = null;
  try {
    profile = await api(`/api/players/${encodeURIComponent(name)}?${new URLSearchParams({ game })}`);
    $("hs-status").textContent = "";
  } catch (e) {
    $("hs-status").textContent = e.status === 404 ? "" : unavailable(e);
  }
  if (hs.game !== game) return;
  const body = $("hs-body");
  body.replaceChildren();
  // Where less is better (the path finder) the best is a rank value, and says so: no "highest score".
  const lowerFirst = (findGame(catalog(), game) || {}).board_order === "lower_first";
  $("hs-best-h").dataset.i18n = lowerFirst ? "hs.bestRank" : "hs.best";
  $("hs-best-h").textContent = t($("hs-best-h").dataset.i18n);
  for (const mode of modesOf(findGame(catalog(), game))) {
    const best = profile && profile.highscores && profile.highscores[mode];
    const tr = document.createElement("tr");
    tr.dataset.mode = mode;
    const c1 = textEl("th", "", modeName(mode));
    c1.scope = "row";
    // A kind may show its score its own way (the path finder: the rank value; none yet is no value, not 0).
    const own = kindFor(game).scoreText;
    const c2 = textEl("td", "num", own ? (best ? own(best.score) : t("hs.none")) : String(best ? best.score : 0));
    const timed = best && best.time_ms != null && best.score > 0 && mode !== "time_attack";
    const c3 = textEl("td", "num", timed ? fmtTime(best.time_ms, true) : t("hs.none"));
    tr.append(c1, c2, c3);
    body.append(tr);
  }
}

async function resetHighscores() {
  const name = playerName();
  try {
    const q = new URLSearchParams({ game: hs.game });
    await api(`/api/players/${encodeURIComponent(name)}/highscores/reset?${q}`, { method: "POST", token: ctx.token(name) });
    await showHighscores();
    $("hs-status").textContent = t("hs.done");
  } catch (e) {
    $("hs-status").textContent = unavailable(e);
  }
}

// ---------- leaderboards ----------

export async function showLeaderboards(game = lb.game || (ctx.chosenGame() || {}).id, mode = lb.mode, period = lb.period) {
  const entry = findGame(catalog(), game);
  const modes = modesOf(entry);
  lb.game = game;
  lb.mode = modes.includes(mode) ? mode : modes[0];
  lb.period = period;
  if (currentScene() !== "leaderboards") show("leaderboards");
  gameTabs($("lb-games"), lb.game, (g) => showLeaderboards(g, lb.mode, lb.period));
  renderTabs($("lb-modes"), modes.map((m) => ({ value: m, label: modeName(m) })),
    (m) => showLeaderboards(lb.game, m, lb.period));
  selectTab($("lb-modes"), lb.mode);
  renderTabs($("lb-periods"), PERIODS.map((p) => ({ value: p, label: t(`lb.${p}`) })),
    (p) => showLeaderboards(lb.game, lb.mode, p));
  selectTab($("lb-periods"), lb.period);
  if (!lb.mode) return;
  await loadBoard();
}

async function loadBoard() {
  const { game, mode, period } = lb;
  const name = playerName();
  $("lb-status").textContent = t("loading");
  // The line on screen, in the page's language, until the new board arrives.
  if ($("lb-reset").textContent) renderResetClock(false);
  const seq = ++lb.seq;
  const query = (around) => {
    const q = new URLSearchParams({ game, mode, period, limit: "50" });
    if (around) q.set("around", around);
    return `/api/leaderboard?${q}`;
  };
  let board = null;
  try {
    board = await api(query(name));
  } catch (e) {
    if (e.status === 404 && name) {
      try { board = await api(query(null)); } catch (_) { board = null; }
    }
  }
  if (seq !== lb.seq) return;
  if (!board) {
    $("lb-status").textContent = t("error.unavailable");
    $("lb-body").replaceChildren();
    $("lb-table").hidden = true;
    return;
  }
  $("lb-status").textContent = board.entries.length ? "" : t("lb.empty");
  // An empty board says so, with no table header over nothing.
  $("lb-table").hidden = board.entries.length === 0 && !board.me;
  lb.nextReset = board.next_reset ? Date.parse(board.next_reset) : null;
  renderResetClock();
  renderBoard(board, mode, name.toLowerCase());
}

function renderBoard(board, mode, me) {
  const body = $("lb-body");
  body.replaceChildren();
  // A path-finder board ranks by the seed's rank value (lower first) and shows it instead of points.
  const ranked = [...board.entries, ...(board.around || [])].some((e) => typeof e.rank_value === "number");
  const head = $("lb-score-h");
  head.dataset.i18n = ranked ? "lb.rankValue" : "lb.score";
  head.textContent = t(head.dataset.i18n);
  const addRow = (e, extraClass) => {
    const tr = document.createElement("tr");
    if (extraClass) tr.className = extraClass;
    if (e.name.toLowerCase() === me) { tr.classList.add("me"); tr.setAttribute("aria-current", "true"); }
    const time = mode === "time_attack" ? t("hs.none") : fmtTime(e.time_ms, true);
    const score = ranked ? fmtRank(e.rank_value) : String(e.score);
    tr.append(textEl("td", "num", String(e.rank)), textEl("td", "name", e.name),
      textEl("td", "num", score), textEl("td", "num", time));
    body.append(tr);
  };
  board.entries.forEach((e) => addRow(e));
  const shown = board.entries.some((e) => e.name.toLowerCase() === me);
  if (board.me && !shown) {
    const gap = document.createElement("tr");
    gap.className = "gap";
    const td = textEl("td", "", "⋯");
    td.colSpan = 4;
    gap.append(td);
    body.append(gap);
    (board.around || [board.me]).filter((e) => e.rank > board.entries.length).forEach((e) => addRow(e, "around"));
  }
  $("lb-me").textContent = board.me ? t("lb.you", { rank: board.me.rank }) : "";
}

function renderResetClock(reloadWhenDue = true) {
  const el = $("lb-reset");
  if (lb.nextReset == null) { el.textContent = t("lb.never"); return; }
  el.textContent = t("lb.reset", { t: fmtDuration(lb.nextReset - Date.now()) });
  if (reloadWhenDue && lb.nextReset - Date.now() <= 0 && currentScene() === "leaderboards") showLeaderboards();
}

/** Draws the open board again in the page's language. */
export function relabelBoards() {
  if (currentScene() === "highscores") showHighscores();
  if (currentScene() === "leaderboards") showLeaderboards();
}
