// /replay/<race> (issue 19): a race's answers drawn back in real time from
// GET /api/races/{race} (docs/openapi.yaml), one racer or two side by side,
// with play/pause, speed and a position slider. Each answer's strokes keep
// the client's timestamps; they are placed on the race's clock so that the
// drawing ends when the answer was graded (`answered_ms`), never before the
// question was asked (`asked_ms`). Player names and prompts go in as text.
import { t } from "../i18n.js";
import { fmtTime, gameAndMode } from "../format.js";
import { kindFor } from "../kinds/index.js";
import { api } from "../net.js";
import { $, show, textEl } from "../ui.js";
import { RACE_ID, verdictOf } from "../review/review.js";
import { choiceNote } from "../inputs/pick.js";
import { cleanStrokes, drawingSvg, paintDrawing } from "../review/thumb.js";
import { answerShown } from "../review/answer.js";

/** How long the last verdict stays before the next answer's question takes its place (race time). */
const HOLD_MS = 800;
const SPEEDS = [0.5, 1, 2, 4];

let ctx = null;       // {getState}
let race = null;      // the API's race, checked
let lanes = [];       // per racer: its answers on the race clock
let pos = 0;          // the replay's position on the race clock, ms
let end = 0;
let speed = 1;
let playing = false;
let lastFrame = 0;
let frame = 0;
let status = null;    // {key, params} of the message shown instead of a replay

/** The race a path names (`/replay/k3v9q2m7x1cd`), "" for a malformed one, null for other pages. */
export function replayRace(pathname) {
  const m = /^\/replay\/([^/]*)\/?$/.exec(pathname);
  if (!m) return null;
  let id = "";
  try { id = decodeURIComponent(m[1]); } catch (_) { id = ""; }
  return RACE_ID.test(id) ? id : "";
}

/** One racer's answers on the race clock: when each is shown, its strokes' times, when it was graded. */
export function timeline(answers) {
  const out = [];
  let prevEnd = 0;
  for (const a of answers) {
    const asked = Number.isFinite(a.asked_ms) ? a.asked_ms : prevEnd;
    const answered = Number.isFinite(a.answered_ms) ? Math.max(asked, a.answered_ms) : asked;
    const raw = cleanStrokes(a.strokes);
    const times = raw.flat().map((p) => p[2]).filter(Number.isFinite);
    const last = times.length ? Math.max(...times) : 0;
    const strokes = raw.map((s) => s.map(([x, y, tt]) => [x, y, Number.isFinite(tt) ? Math.max(asked, answered - (last - tt)) : answered]));
    const first = strokes.length ? Math.min(...strokes.flat().map((p) => p[2])) : answered;
    const begin = Math.min(first, Math.max(asked, prevEnd + HOLD_MS));
    out.push({ answer: a, begin, answered, strokes, kept: Array.isArray(a.strokes) });
    prevEnd = answered;
  }
  return out;
}

/** The API's answer checked: a race with racers (names as given, answers as listed). */
function readRace(data) {
  if (!data || typeof data !== "object" || !Array.isArray(data.racers)) throw new Error("bad race");
  const game = String(data.game ?? "mindpad");
  const kind = kindFor(game);
  const racers = data.racers.filter((r) => r && typeof r === "object").map((r) => ({
    name: String(r.name ?? "?"),
    score: Number.isFinite(r.score) ? r.score : 0,
    completed: r.completed !== false,
    answers: Array.isArray(r.answers) ? r.answers.filter((a) => a && typeof a === "object") : [],
    // What the game's kind replays beside the answers (the path finder: the route), or null.
    extra: kind.readReplay ? kind.readReplay(r.path) : null,
  }));
  return { race: String(data.race ?? ""), game, mode: String(data.mode ?? ""), racers };
}

export function initReplay(context) {
  ctx = context;
  $("replay-play").addEventListener("click", () => (playing ? pause() : play()));
  for (const b of document.querySelectorAll(".replay-speeds button")) {
    b.addEventListener("click", () => { speed = Number(b.dataset.speed); showSpeed(); });
  }
  $("replay-seek").addEventListener("input", (e) => {
    pos = (Number(e.target.value) / 1000) * end;
    render();
  });
  $("replay-a").addEventListener("change", pick);
  $("replay-b").addEventListener("change", pick);
}

/** Opens the replay scene and loads the race. */
export async function openReplay(id) {
  show("replay");
  race = null;
  $("replay-racers").hidden = true;
  $("replay-body").hidden = true;
  $("replay-mode").hidden = true;
  if (!id) { say("replay.unknown"); return; }
  say("replay.loading");
  try {
    race = readRace(await api(`/api/races/${encodeURIComponent(id)}`));
  } catch (e) {
    say(e.status === 404 || e.status === 400 ? "replay.unknown" : "replay.failed");
    return;
  }
  $("replay-mode").hidden = false;
  $("replay-mode").textContent = gameAndMode(ctx.getState().catalog, race.game, race.mode);
  if (!race.racers.some((r) => r.answers.length || r.extra)) { say("replay.gone"); listRacers(); return; }
  say(null);
  fillPickers();
  $("replay-body").hidden = false;
  showSpeed();
  pick();
}

function say(key, params = {}) {
  status = key ? { key, params } : null;
  $("replay-status").textContent = key ? t(key, params) : "";
}

/** A race whose drawings are gone still says who raced and how it ended. */
function listRacers() {
  const list = $("replay-racers");
  list.replaceChildren();
  list.hidden = !race || !$("replay-body").hidden || !race.racers.length || !status || status.key !== "replay.gone";
  if (list.hidden) return;
  for (const r of race.racers) list.append(textEl("li", "", racerLabel(r)));
}

/** A racer and their result: points, or as the kind says it (the path finder: the rank value, never called points). */
function racerLabel(r) {
  const kind = race ? kindFor(race.game) : null;
  return `${r.name} · ${kind && kind.replayResult ? kind.replayResult(r) : t("replay.points", { n: r.score })}`;
}

function fillPickers() {
  const a = $("replay-a"), b = $("replay-b");
  const keepA = a.value, keepB = b.value;
  a.replaceChildren();
  b.replaceChildren();
  const none = textEl("option", "", t("replay.nobody"));
  none.value = "";
  b.append(none);
  race.racers.forEach((r, i) => {
    const o = textEl("option", "", racerLabel(r));
    o.value = String(i);
    a.append(o);
    b.append(o.cloneNode(true));
  });
  a.value = keepA !== "" && keepA < race.racers.length ? keepA : "0";
  b.value = keepB !== "" ? keepB : (race.racers.length > 1 ? "1" : "");
}

/** The racers picked: one, or two side by side (the same one twice is one). */
function pick() {
  if (!race) return;
  const ids = [$("replay-a").value, $("replay-b").value].filter((v, i, all) => v !== "" && all.indexOf(v) === i);
  const box = $("replay-lanes");
  box.replaceChildren();
  lanes = ids.map((i) => {
    const racer = race.racers[Number(i)];
    const lane = document.createElement("section");
    lane.className = "replay-lane";
    lane.dataset.racer = String(i);
    const h = textEl("h2", "replay-name", racer.name);
    const score = textEl("p", "replay-score", "");
    const q = textEl("p", "replay-q", "");
    const pic = textEl("div", "replay-pic", "");
    const verdict = textEl("p", "replay-verdict", "");
    lane.append(h, score, q, pic, verdict);
    box.append(lane);
    return { racer, steps: timeline(racer.answers), extra: racer.extra, els: { score, q, pic, verdict }, shown: null };
  });
  box.classList.toggle("two", lanes.length === 2);
  end = Math.max(1000, ...lanes.flatMap((l) => l.steps.map((s) => s.answered + HOLD_MS)),
    ...lanes.filter((l) => l.extra).map((l) => kindFor(race.game).replayEnd(l.extra) + HOLD_MS));
  pos = Math.min(pos, end);
  render();
}

function play() {
  if (pos >= end) pos = 0;
  playing = true;
  lastFrame = performance.now();
  $("replay-play").textContent = t("replay.pause");
  $("replay-play").dataset.playing = "true";
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(tick);
}

function pause() {
  playing = false;
  cancelAnimationFrame(frame);
  $("replay-play").textContent = t("replay.play");
  $("replay-play").dataset.playing = "false";
}

function tick(now) {
  if (!playing) return;
  pos = Math.min(end, pos + (now - lastFrame) * speed);
  lastFrame = now;
  render();
  if (pos >= end) pause();
  else frame = requestAnimationFrame(tick);
}

function showSpeed() {
  for (const b of document.querySelectorAll(".replay-speeds button")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === speed));
  }
  $("replay-lanes").dataset.speed = String(speed);
}

/** Each lane at the replay's position: the answer being written (or just graded), the score so far. */
function render() {
  $("replay-seek").value = String(Math.round((pos / end) * 1000));
  $("replay-clock").textContent = `${fmtTime(pos, true)} / ${fmtTime(end, true)}`;
  $("replay-lanes").dataset.pos = String(Math.round(pos));
  $("replay-lanes").dataset.end = String(Math.round(end));
  const kind = kindFor(race.game);
  for (const lane of lanes) {
    // What the kind replays beside the answers, from when it says (the path finder's route).
    if (lane.extra && pos >= kind.replayFrom(lane.extra)) {
      kind.renderReplay(lane.extra, lane.els, pos, lane.racer.name, lane.shown !== "extra");
      lane.shown = "extra";
      continue;
    }
    let i = -1;
    lane.steps.forEach((s, j) => { if (s.begin <= pos) i = j; });
    const points = lane.steps.filter((s) => s.answered <= pos).reduce((n, s) => n + (Number.isFinite(s.answer.points) ? s.answer.points : 0), 0);
    lane.els.score.textContent = t("replay.points", { n: points });
    if (i !== lane.shown) showStep(lane, i, kind);
    const step = lane.steps[i];
    if (!step) continue;
    const svg = lane.els.pic.querySelector("svg.drawing");
    if (svg) paintDrawing(svg, step.strokes, pos);
    const done = pos >= step.answered;
    // A typed or tapped answer appears when it was given (a drawing grows; these arrive whole).
    const given = lane.els.pic.querySelector(".replay-given");
    if (given) given.dataset.shown = String(done);
    lane.els.verdict.hidden = !done;
    lane.els.verdict.dataset.correct = String(!!step.answer.correct);
  }
}

/** A lane's question, drawing frame and verdict for its answer `i` (-1: none yet). */
function showStep(lane, i, kind) {
  lane.shown = i;
  const { q, pic, verdict } = lane.els;
  pic.replaceChildren();
  const step = lane.steps[i];
  if (!step) { q.textContent = t("replay.waiting"); verdict.textContent = ""; verdict.hidden = true; return; }
  const a = step.answer;
  const prompt = a.prompt && typeof a.prompt === "object" ? a.prompt : null;
  const text = prompt && kind.describePrompt ? kind.describePrompt(prompt) : "";
  q.textContent = `${t("replay.answerN", { n: i + 1 })}${text ? ` · ${text}` : ""}`;
  q.dataset.index = String(i);
  if (step.strokes.length) {
    pic.append(drawingSvg(step.strokes, t("replay.drawingOf", { name: lane.racer.name, n: i + 1 }), pos, 22));
  } else if (a.input === "keypad" || a.input === "tap") {
    // What was typed or tapped, as it was given (issue 45), not an empty box.
    const given = answerShown(kind, a.answer, prompt, a.input, "replay-given");
    given.dataset.shown = String(pos >= step.answered);
    pic.append(given);
  } else {
    pic.append(textEl("p", "muted", t("replay.noStrokes")));
  }
  const v = verdictOf(kind, a.answer, a.expected, !!a.correct, prompt, a.input, "replay");
  // Picked among the readings offered (issue 43): what was tapped, of what.
  const note = a.input === "drawn" ? choiceNote(a.choice) : "";
  verdict.textContent = `${a.correct ? "✓" : "✗"} ${t(v.key, v.params)}${note ? ` · ${note}` : ""}`;
  verdict.dataset.choice = note;
  verdict.className = `replay-verdict ${a.correct ? "ok" : "bad"}`;
}

/** Texts in the page's new language. */
export function relabelReplay() {
  if (status) say(status.key, status.params);
  if (!race) return;
  $("replay-mode").textContent = gameAndMode(ctx.getState().catalog, race.game, race.mode);
  listRacers();
  if ($("replay-body").hidden) return;
  fillPickers();
  $("replay-play").textContent = t(playing ? "replay.pause" : "replay.play");
  for (const lane of lanes) lane.shown = null;
  render();
}
