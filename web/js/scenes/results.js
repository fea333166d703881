// After a run: Results (solo) and the final Standings (race), with Share.
// A path finder's result carries `path` (steps, best steps, rank value).
import { t } from "../i18n.js";
import { fmtRank, fmtTime, gameAndMode, gameLabel, modeName } from "../format.js";
import { isHost } from "../state.js";
import { $, copyText, show, textEl, toast } from "../ui.js";
import { answersOf, lastEndedRun, showReview } from "../review/review.js";

let ctx = null;   // {send, getState, leaveToMenu, playSolo, openHome}

export function initResults(context) {
  ctx = context;
  $("results-again").addEventListener("click", () => {
    const race = ctx.getState().race;
    ctx.playSolo(race.game, race.mode);
  });
  $("results-menu").addEventListener("click", () => ctx.leaveToMenu());
  $("results-share").addEventListener("click", share);
  $("results-rounds").addEventListener("click", () => ctx.openHome("path-rounds"));
  $("standings-share").addEventListener("click", share);
  $("standings-menu").addEventListener("click", () => ctx.leaveToMenu());
  $("standings-rematch").addEventListener("click", () => ctx.send({ type: "rematch" }));
}

export function showResults(state) {
  const { result: r, mode, game } = state.race;
  const path = r.path && typeof r.path === "object" ? r.path : null;
  $("results-mode").textContent = gameAndMode(state.catalog, game, mode);
  $("results-score").textContent = String(r.score);
  $("results-time").textContent = fmtTime(path ? pathTime(path) ?? r.duration_ms : r.duration_ms, true);
  $("results-time-row").hidden = mode === "time_attack";
  // The path finder's time runs from the grid shown to the goal reached (the seed's round time).
  const timeLabel = $("results-time-row").querySelector("dt");
  timeLabel.dataset.i18n = path ? "path.time" : "results.time";
  timeLabel.textContent = t(timeLabel.dataset.i18n);
  $("results-correct").textContent = `${r.correct} / ${r.answered}`;
  // The path finder: steps against the best possible, and the seed's rank value instead of points.
  $("results-score-row").hidden = !!path;
  $("results-correct-row").hidden = !!path;
  $("results-path-row").hidden = !path;
  $("results-rank-row").hidden = !path;
  $("results-rounds").hidden = !path;
  if (path) {
    $("results-path").textContent = t("path.steps", { steps: path.steps, best: path.best_steps });
    $("results-path").dataset.steps = String(path.steps);
    $("results-path").dataset.best = String(path.best_steps);
    $("results-rank").textContent = path.rank_value == null ? t("path.unfinished") : fmtRank(path.rank_value);
  }
  const answers = answersOf(r);
  showReview($("results-review"), game, answers, r.race, { runOver: lastEndedRun(answers, state.race) });
  showBest(state);
  show("results");
}

/** The steering time of a path round (from the grid shown to the goal reached), or null. */
function pathTime(path) {
  return Number.isFinite(path.goal_reached_ms) && Number.isFinite(path.grid_shown_ms)
    ? path.goal_reached_ms - path.grid_shown_ms : null;
}

/** The personal-best banner, once result_saved says so. */
export function showBest(state) {
  const best = !!(state.race.saved && state.race.saved.personalBest);
  $("results-best").hidden = !best;
  $("standings-best").hidden = !best;
}

export function showStandings(state) {
  const msg = state.race.standings;
  const you = state.room ? state.room.you : null;
  $("standings-mode").textContent = gameAndMode(state.catalog, state.race.game, msg.mode, state.room ? state.room.room.level : null);
  showBest(state);
  const podium = $("podium"), list = $("standings-list");
  podium.replaceChildren();
  list.replaceChildren();
  for (const e of msg.entries) {
    const mine = e.player_id === you;
    const path = e.path && typeof e.path === "object" ? e.path : null;
    // The path finder ranks by the seed's rank value (lower first), not by points.
    const pts = path ? t("path.rankShort", { v: path.rank_value == null ? "—" : fmtRank(path.rank_value) })
      : t("standings.points", { score: e.score });
    if (e.rank <= 3) {
      const li = document.createElement("li");
      li.className = `step rank-${e.rank}`;
      if (mine) li.classList.add("me");
      li.append(textEl("span", "medal", String(e.rank)), textEl("span", "name", e.name), textEl("span", "pts", pts));
      podium.append(li);
    }
    const row = document.createElement("li");
    row.className = "standing";
    if (mine) row.classList.add("me");
    let d = path ? `${pts} · ${t("path.stepsOf", { steps: path.steps, best: path.best_steps })}`
      : `${pts} · ${e.correct}/${e.answered}`;
    if (path && pathTime(path) !== null) d += ` · ${fmtTime(pathTime(path), true)}`;
    else if (msg.mode !== "time_attack" && !path) d += ` · ${fmtTime(e.duration_ms, true)}`;
    if (!e.completed) d += ` · ${t("standings.left")}`;
    row.append(textEl("span", "rank", String(e.rank)), textEl("span", "name", e.name), textEl("span", "detail", d));
    list.append(row);
  }
  // Standings entries carry no answers (size): this player's own come from `finished`.
  const own = state.race.result;
  const answers = answersOf(own);
  showReview($("standings-review"), state.race.game, answers, msg.race || (own && own.race),
    { runOver: lastEndedRun(answers, state.race) });
  const host = isHost(state);
  $("standings-rematch").hidden = !host;
  $("standings-wait").hidden = host;
  show("standings");
}

async function share() {
  const state = ctx.getState();
  const r = state.race.result || { score: state.race.score };
  const game = gameLabel(state.catalog, state.race.game);
  const text = t("results.shareText", { score: r.score, mode: modeName(state.race.mode), game });
  const url = location.origin + "/";
  if (navigator.share) {
    try { await navigator.share({ title: t("app.title"), text, url }); return; } catch (e) {
      if (e && e.name === "AbortError") return;
    }
  }
  await copyText(`${text} ${url}`);
  toast(t("results.shared"));
}
