// The path finder's own pages, as in the seed: the start page (Generate
// grid, which starts a solo round whose first stage is the guess) and the
// leaderboard of the player's last five rounds
// (GET /api/players/{name}/path_rounds, ranked by the server with the
// seed's formula, best first).
import { t } from "../../i18n.js";
import { fmtRank, fmtTime } from "../../format.js";
import { api } from "../../net.js";
import { $, currentScene, show, textEl } from "../../ui.js";

const GAME = "path_finder";
let ctx = null;   // {getState, playSolo, showMenu, leaveRoom}
let seq = 0;

export function initPath(context) {
  ctx = context;
  $("path-generate").addEventListener("click", () => ctx.playSolo(GAME, "normal"));
  $("path-home-rounds").addEventListener("click", () => showPathRounds());
  $("path-home-menu").addEventListener("click", () => ctx.showMenu());
  $("path-rounds-again").addEventListener("click", () => ctx.playSolo(GAME, "normal"));
  $("path-rounds-back").addEventListener("click", () => { ctx.leaveRoom(); showPathHome(); });
}

export function showPathHome() {
  show("path-home");
}

/** One round of the last five as a table row: rank, steps (best), grid, time, rank value. */
function roundRow(r) {
  const tr = document.createElement("tr");
  const done = r.ended_at != null && typeof r.seconds === "number";
  tr.dataset.rank = String(r.rank);
  tr.dataset.finished = String(done);
  tr.append(
    textEl("td", "num", String(r.rank)),
    textEl("td", "num", t("path.stepsOf", { steps: r.steps, best: r.best_steps })),
    textEl("td", "num", t("path.grid", { rows: r.rows, columns: r.columns, size: r.grid_size })),
    textEl("td", "num", done ? fmtTime(r.seconds * 1000, true) : t("path.unfinished")),
    textEl("td", "num", done ? fmtRank(r.rank_value) : "—"),
  );
  return tr;
}

export async function showPathRounds() {
  if (currentScene() !== "path-rounds") show("path-rounds");
  const player = ctx.getState().player;
  const body = $("path-rounds-body");
  const status = $("path-rounds-status");
  status.textContent = t("loading");
  status.hidden = false;
  const mine = ++seq;
  let data = null;
  try {
    data = await api(`/api/players/${encodeURIComponent(player ? player.name : "")}/path_rounds`);
  } catch (e) {
    if (mine !== seq) return;
    body.replaceChildren();
    status.textContent = e.status === 404 ? t("path.rounds.empty") : t("error.unavailable");
    $("path-rounds-table").hidden = true;
    return;
  }
  if (mine !== seq) return;
  const rounds = data && Array.isArray(data.rounds) ? data.rounds : [];
  body.replaceChildren(...rounds.map(roundRow));
  status.textContent = rounds.length ? "" : t("path.rounds.empty");
  $("path-rounds-table").hidden = rounds.length === 0;
  status.hidden = rounds.length > 0;
}

/** The open page drawn again in the page's language. */
export function relabelPath() {
  if (currentScene() === "path-rounds") showPathRounds();
}
