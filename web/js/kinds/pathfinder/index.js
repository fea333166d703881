// The grid path finder (issue 16): one question in two stages. `guess`
// shows the total number of cells (`{"stage":"guess","cells":20,"tries":0}`)
// and takes rows then columns, written on the pad as two digits or typed
// (`{"rows":4,"columns":5}`); `steer` shows the grid, the robot and the goal
// (`{"stage":"steer","rows":4,"columns":5,"robot":…,"goal":…,"steps":0,
// "best_steps":5,"tries":1}`) and takes moves. The server is authoritative:
// the robot is drawn where the latest `question` puts it, never where a
// click hoped it would go. Moves are sent by input.js.
import { t } from "../../i18n.js";
import { registerHome } from "../../homes.js";
import { textEl } from "../../ui.js";
import { fmtRank } from "../../format.js";
import { initPath, relabelPath, showPathHome, showPathRounds } from "./home.js";
import { createPathInput } from "./input.js";
import strings from "./strings.js";

/** A 1-based cell, or null when `c` is not one. */
export function cellOf(c) {
  return c && Number.isInteger(c.row) && Number.isInteger(c.column) ? { row: c.row, column: c.column } : null;
}

/** The direction of a move from `from` to the adjacent `to`, or null when they are not adjacent. */
export function directionTo(from, to) {
  const dr = to.row - from.row, dc = to.column - from.column;
  if (Math.abs(dr) + Math.abs(dc) !== 1) return null;
  if (dr === -1) return "north";
  if (dr === 1) return "south";
  return dc === 1 ? "east" : "west";
}

/** A move as an arrow (the direction buttons' faces). */
const MOVE_ARROWS = { north: "↑", east: "→", south: "↓", west: "←" };

/** The keyboard's moves: arrows and WASD. */
export const MOVE_KEYS = {
  ArrowUp: "north", ArrowRight: "east", ArrowDown: "south", ArrowLeft: "west",
  w: "north", d: "east", s: "south", a: "west", W: "north", D: "east", S: "south", A: "west",
};

/** Two typed digits, rows then columns, as the guess answer; anything else is null. */
export function guessAnswer(typed) {
  return /^[1-9]{2}$/.test(typed) ? { rows: Number(typed[0]), columns: Number(typed[1]) } : null;
}

/** The sides a grid has (the seed's "between 4 and 6"). */
const SIDES = [4, 5, 6];

/**
 * What was wrong with a wrong guess of a grid of `cells` (the seed's rule stays: only the exact rows
 * and columns): a product that is not the number of cells ("4 × 6 is 24, not 30"); the right number
 * of cells the other way round (the only other grid with sides 4–6 that has them); or the right
 * number with a side no grid has ("3 × 8 is 24, right, but each side has 4 to 6 cells"). The i18n
 * key and params; `n` the tries so far.
 */
export function guessMistake(guess, cells, n) {
  const rows = guess && Number.isInteger(guess.rows) ? guess.rows : null;
  const columns = guess && Number.isInteger(guess.columns) ? guess.columns : null;
  if (rows === null || columns === null || !Number.isInteger(cells)) return { key: "path.guess.wrong", params: { n } };
  const product = rows * columns;
  if (product !== cells) return { key: "path.guess.product", params: { rows, columns, product, cells, n } };
  if (SIDES.includes(rows) && SIDES.includes(columns)) return { key: "path.guess.flipped", params: { rows, columns, cells, n } };
  return { key: "path.guess.sides", params: { rows, columns, cells, n } };
}

function cellLabel(row, column, robot, goal) {
  let label = t("path.cell", { row, column });
  if (robot && robot.row === row && robot.column === column) label += `, ${t("path.robot")}`;
  if (goal && goal.row === row && goal.column === column) label += `, ${t("path.goal")}`;
  return label;
}

function renderGuess(container, prompt) {
  container.replaceChildren();
  const box = textEl("span", "path-guess", "");
  box.dataset.stage = "guess";
  box.dataset.cells = String(prompt.cells ?? "");
  box.append(textEl("span", "path-title prompt-line", t("path.guess.title")),
    textEl("span", "path-cells", t("path.guess.cells", { n: prompt.cells ?? "?" })),
    textEl("span", "path-hint prompt-line sub", t("path.guess.hint")));
  if (prompt.tries > 0) box.append(textEl("span", "path-tries prompt-line sub", t("path.guess.tries", { n: prompt.tries })));
  container.append(box);
}

/** The robot's place on the board, in percent of it. */
function placeRobot(robotEl, robot, rows, columns) {
  robotEl.style.left = `${((robot.column - 1) / columns) * 100}%`;
  robotEl.style.top = `${((robot.row - 1) / rows) * 100}%`;
  robotEl.style.width = `${100 / columns}%`;
  robotEl.style.height = `${100 / rows}%`;
}

/**
 * The grid with the flag and the robot (the game's pictures). Playable: cells are buttons (a click
 * moves, input.js). Read-only (`label`: the replay's): an image named for screen readers.
 */
function buildBoard(rows, columns, goal, label = null) {
  const board = document.createElement(label ? "div" : "span");
  board.className = label ? "path-board replay-board" : "path-board";
  board.setAttribute("role", label ? "img" : "group");
  if (label) board.setAttribute("aria-label", label);
  board.style.setProperty("--rows", String(rows));
  board.style.setProperty("--columns", String(columns));
  if (!label) {
    board.dataset.rows = String(rows);
    board.dataset.columns = String(columns);
    board.dataset.goal = `${goal.row},${goal.column}`;
    board.dataset.bumps = "0";
  }
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= columns; c++) {
      const b = document.createElement(label ? "span" : "button");
      if (!label) b.type = "button";
      b.className = "path-cell";
      b.dataset.row = String(r);
      b.dataset.column = String(c);
      if (r === goal.row && c === goal.column) {
        b.classList.add("goal");
        const img = document.createElement("img");
        img.src = "/img/path/goal.svg";
        img.alt = "";
        img.draggable = false;
        b.append(img);
      }
      board.append(b);
    }
  }
  const robot = document.createElement("img");
  robot.className = "path-robot";
  robot.src = "/img/path/robot.svg";
  robot.alt = "";
  robot.draggable = false;
  robot.setAttribute("aria-hidden", "true");
  if (label) {
    robot.style.width = `${100 / columns}%`;
    robot.style.height = `${100 / rows}%`;
  }
  board.append(robot);
  return board;
}

/**
 * A racer's round as the replay draws it (`racers[].path`, docs/openapi.yaml): the grid, the goal
 * and the route, each step `{row, column, ms}` in order; null when there is none to draw.
 */
export function readRoute(p) {
  const int = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
  if (!p || typeof p !== "object" || !int(p.rows, 1, 12) || !int(p.columns, 1, 12)) return null;
  const goal = p.goal && int(p.goal.row, 1, p.rows) && int(p.goal.column, 1, p.columns) ? { row: p.goal.row, column: p.goal.column } : null;
  if (!goal) return null;
  const route = [];
  for (const step of Array.isArray(p.route) ? p.route : []) {
    if (!Array.isArray(step) || !int(step[0], 1, p.rows) || !int(step[1], 1, p.columns) || !Number.isFinite(step[2])) continue;
    const ms = Math.max(step[2], route.length ? route[route.length - 1].ms : 0);
    route.push({ row: step[0], column: step[1], ms });
  }
  return route.length ? { rows: p.rows, columns: p.columns, goal, best: Number.isInteger(p.best_steps) ? p.best_steps : null, route } : null;
}

/**
 * A replay lane once its grid was guessed (issue 45): the grid, the flag, and the robot on the cell
 * the route had reached at `pos`; the steps so far; at the flag, its verdict. `els`: the lane's
 * {q, pic, score, verdict}; `fresh`: the lane showed something else before.
 */
function renderRoute(route, els, pos, name, fresh) {
  const { rows, columns, goal, best } = route;
  let at = 0;
  route.route.forEach((s, j) => { if (s.ms <= pos) at = j; });
  const here = route.route[at];
  if (fresh) {
    els.q.textContent = t("path.board", { rows, columns });
    delete els.q.dataset.index;
    els.pic.replaceChildren(buildBoard(rows, columns, goal, t("replay.routeOf", { name, rows, columns })));
    els.verdict.className = "replay-verdict";
  }
  const board = els.pic.querySelector(".replay-board");
  board.dataset.robot = `${here.row},${here.column}`;
  board.dataset.step = String(at);
  const robot = board.querySelector(".path-robot");
  robot.style.left = `${((here.column - 1) / columns) * 100}%`;
  robot.style.top = `${((here.row - 1) / rows) * 100}%`;
  // The cells already walked, marked in the order they were reached.
  for (const cell of board.querySelectorAll(".path-cell")) {
    const walked = route.route.slice(0, at + 1).some((s) => s.row === Number(cell.dataset.row) && s.column === Number(cell.dataset.column));
    cell.classList.toggle("walked", walked);
  }
  els.score.textContent = t("path.status", { steps: at, best: best ?? "?", left: Math.abs(goal.row - here.row) + Math.abs(goal.column - here.column) });
  const done = here.row === goal.row && here.column === goal.column;
  els.verdict.hidden = !done;
  els.verdict.textContent = done ? `✓ ${t("path.reached")}` : "";
  els.verdict.classList.toggle("ok", done);
  els.verdict.dataset.correct = String(done);
}

function renderSteer(container, prompt) {
  const rows = prompt.rows, columns = prompt.columns;
  const robot = cellOf(prompt.robot) || { row: 1, column: 1 };
  const goal = cellOf(prompt.goal) || { row: rows, column: columns };
  // The same grid keeps its board, so the robot glides to its new cell.
  let wrap = container.querySelector(".path-steer");
  let board = wrap && wrap.querySelector(".path-board");
  if (!board || board.dataset.rows !== String(rows) || board.dataset.columns !== String(columns)
      || board.dataset.goal !== `${goal.row},${goal.column}`) {
    container.replaceChildren();
    wrap = textEl("span", "path-steer", "");
    wrap.dataset.stage = "steer";
    board = buildBoard(rows, columns, goal);
    wrap.append(textEl("span", "path-status prompt-line sub", ""), board);
    container.append(wrap);
  }
  board.setAttribute("aria-label", t("path.board", { rows, columns }));
  board.dataset.robot = `${robot.row},${robot.column}`;
  placeRobot(board.querySelector(".path-robot"), robot, rows, columns);
  for (const b of board.querySelectorAll(".path-cell")) {
    const r = Number(b.dataset.row), c = Number(b.dataset.column);
    const near = directionTo(robot, { row: r, column: c }) !== null;
    b.classList.toggle("near", near);
    b.classList.toggle("here", r === robot.row && c === robot.column);
    // Only the cells the robot can step to are in the Tab order; the others still answer a tap.
    b.tabIndex = near ? 0 : -1;
    b.setAttribute("aria-label", cellLabel(r, c, robot, goal));
  }
  const remaining = Math.abs(goal.row - robot.row) + Math.abs(goal.column - robot.column);
  const status = wrap.querySelector(".path-status");
  status.textContent = t("path.status", { steps: prompt.steps ?? 0, best: prompt.best_steps ?? "?", left: remaining });
  status.dataset.steps = String(prompt.steps ?? 0);
  status.dataset.remaining = String(remaining);
}

export default {
  id: "path_finder",
  input: "move",
  padLabel: "path.pad",
  /** The page that opens this game from the menu (home.js). */
  home: "path-home",
  strings,
  inputs: { move: createPathInput },

  /** Its home, and the player's last five rounds (a page the results link to). */
  boot(ctx) {
    registerHome("path-home", showPathHome);
    registerHome("path-rounds", showPathRounds);
    initPath(ctx);
  },
  relabel: () => relabelPath(),
  ownsScene: (scene) => scene.startsWith("path-"),
  /** One question per round: no "Question 1" above it. */
  numbered: false,
  /** The score is the round's rank value, known only at the goal: the game bar leaves it out. */
  scoreInGame: false,
  /** Guesses score nothing; the round's rank value (lower first) is no sum of points: no Points column. */
  reviewPoints: false,

  renderPrompt(container, prompt) {
    if (prompt && prompt.stage === "steer" && Number.isInteger(prompt.rows) && Number.isInteger(prompt.columns)) {
      renderSteer(container, prompt);
    } else {
      renderGuess(container, prompt || {});
    }
  },

  /** The keypad's two digits as a guess (inputs/number.js); null keeps them and says why. */
  typedAnswer: guessAnswer,
  typedRefused: "path.guess.twoDigits",

  /** A wrong guess tells no grid (the server sends no `expected`) but says what was wrong: its i18n key and params, or null. */
  gradedText(g, prompt) {
    if (g.retry) return guessMistake(g.answer, prompt && prompt.cells, ((prompt && prompt.tries) || 0) + 1);
    return g.correct ? { key: "path.reached", params: {} } : null;
  },

  /** The replay's part of a racer beside their answers: their route (`racers[].path`), or null. */
  readReplay: readRoute,
  /** When the replay draws the route rather than the answers: once the grid is shown. */
  replayFrom: (route) => route.route[0].ms,
  /** Where the replay's clock ends for this racer: the route's last step. */
  replayEnd: (route) => route.route[route.route.length - 1].ms,
  renderReplay: renderRoute,
  /** A racer's result in the replay's list: the rank value of a round that reached the flag. */
  replayResult(racer) {
    return racer.extra && racer.completed ? t("path.rankShort", { v: fmtRank(racer.score / 1000) }) : t("path.unfinished");
  },

  /** A stored score as the player reads it: the rank value (contract: score = round(rank value × 1000)). */
  scoreText(score) {
    return fmtRank(score / 1000);
  },

  /** The guess (its number of cells) or the grid steered on. */
  describePrompt(prompt) {
    if (prompt && prompt.stage === "steer") return t("path.board", { rows: prompt.rows, columns: prompt.columns });
    return `${t("path.guess.title")}: ${t("path.guess.cells", { n: (prompt && prompt.cells) ?? "?" })}`;
  },

  describeAnswer(answer) {
    if (answer && typeof answer === "object" && Number.isInteger(answer.rows)) return `${answer.rows} × ${answer.columns}`;
    // A move (the step that reached the flag), as the direction buttons show it.
    if (answer && typeof answer === "object" && MOVE_ARROWS[answer.move]) return MOVE_ARROWS[answer.move];
    const to = answer && typeof answer === "object" ? cellOf(answer.to) : null;
    if (to) return t("path.cell", to);
    return answer !== null && typeof answer === "object" ? JSON.stringify(answer) : String(answer);
  },
};
