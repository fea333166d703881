// The review of a run on Results and Standings (issue 19): every answer of
// `finished.result.answers` (docs/protocol.md) in a table — the question,
// the drawing as this page kept it (review/attempts.js), what was read (or
// typed, or tapped), the right answer and the points — and the race's replay
// link. Everything from the server goes in as text.
import { t } from "../i18n.js";
import { kindFor } from "../kinds/index.js";
import { copyText, textEl, toast } from "../ui.js";
import { attemptsFor } from "./attempts.js";
import { choiceNote } from "../inputs/pick.js";
import { drawingSvg } from "./thumb.js";
import { answerShown } from "./answer.js";

/** A race id as the replay API takes it; anything else gets no link. */
export const RACE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function replayPath(race) {
  return typeof race === "string" && RACE_ID.test(race) ? `/replay/${race}` : null;
}

/**
 * Whether the log's last answer is the one that ended the run: the run's
 * last `graded` (state.race) said `run_over` for that very answer. Not so
 * when a move ended it (the path finder's goal), which is no answer.
 */
export function lastEndedRun(answers, race) {
  const g = race && race.runOver ? race.graded : null;
  const last = answers[answers.length - 1];
  return !!(g && last && g.question === last.question && JSON.stringify(g.answer) === JSON.stringify(last.answer));
}

/** The answers of a result that look like the contract's (§2); others are left out. */
export function answersOf(result) {
  const list = result && Array.isArray(result.answers) ? result.answers : [];
  return list.filter((a) => a && typeof a === "object" && typeof a.question === "string");
}

/**
 * The verdict line of an answer (in the game and in the review): i18n key and
 * params. `a` is what was read (or typed, or tapped), `e` the right answer;
 * `voice` recap speaks to the player ("You wrote"), replay about a racer.
 */
export function verdictOf(kind, answer, expected, correct, prompt, input, voice = "recap") {
  const how = ["drawn", "keypad", "tap"].includes(input) ? input : "drawn";
  const a = answer === null || answer === undefined ? "?" : kind.describeAnswer(answer, prompt);
  if (correct) return { key: `${voice}.${how}.ok`, params: { a } };
  if (expected === null || expected === undefined) return { key: `${voice}.${how}.retry`, params: { a } };
  return { key: `${voice}.${how}.bad`, params: { a, e: kind.describeAnswer(expected, prompt) } };
}

function cell(tag, text, className = "") {
  const el = textEl(tag, className, text);
  if (tag === "th") el.scope = "col";
  return el;
}

/** The drawing cell: the kept drawing, or how the answer went in. */
function drawingCell(answer, attempt, read) {
  const td = document.createElement("td");
  td.className = "thumb";
  if (answer.input === "keypad") td.append(textEl("span", "muted", t("review.typed")));
  else if (answer.input === "tap") td.append(textEl("span", "muted", t("review.tapped")));
  else if (attempt && attempt.strokes && attempt.strokes.length) td.append(drawingSvg(attempt.strokes, t("review.drawingOf", { a: read })));
  else td.append(textEl("span", "muted", t("review.noDrawing")));
  return td;
}

/** The table of a run's answers; `runOver` marks the last one as the one that ended the run. */
export function reviewTable(game, answers, { runOver = false, labelledBy = null } = {}) {
  const kind = kindFor(game);
  const attempts = attemptsFor(answers);
  const table = document.createElement("table");
  table.className = "table review-table";
  if (labelledBy) table.setAttribute("aria-labelledby", labelledBy);
  // A game scored otherwise than by points per answer (the path finder's rank value, lower first) has no Points column.
  const points = kind.reviewPoints !== false;
  const head = document.createElement("tr");
  head.append(cell("th", t("review.n"), "num"), cell("th", t("review.question")), cell("th", t("review.drawing")),
    cell("th", t("review.read")), cell("th", t("review.expected")));
  if (points) head.append(cell("th", t("review.points"), "num"));
  const thead = document.createElement("thead");
  thead.append(head);
  const body = document.createElement("tbody");
  answers.forEach((a, i) => {
    const tr = document.createElement("tr");
    tr.className = a.correct ? "ok" : "bad";
    tr.dataset.question = a.question;
    const prompt = a.prompt && typeof a.prompt === "object" ? a.prompt : null;
    const read = a.answer === null || a.answer === undefined ? "?" : kind.describeAnswer(a.answer, prompt);
    const q = promptCell(kind, prompt, a.question);
    if (runOver && i === answers.length - 1) q.append(textEl("span", "tag run-end", t("review.runEnd")));
    const said = cell("td", "", "read");
    said.append(textEl("span", "mark", a.correct ? "✓" : "✗"), textEl("span", "value", read),
      textEl("span", "sr-only", a.correct ? t("review.right") : t("review.wrong")));
    said.firstChild.setAttribute("aria-hidden", "true");
    // Picked among the readings offered (issue 43): what was tapped, of what.
    const note = a.input === "drawn" ? choiceNote(a.choice) : "";
    if (note) said.append(textEl("span", "choice-note", note));
    const right = a.expected === null || a.expected === undefined ? t("review.retry") : kind.describeAnswer(a.expected, prompt);
    tr.append(cell("td", String(i + 1), "num"), q, drawingCell(a, attempts[i], read), said, cell("td", right, "expected"));
    if (points) tr.append(cell("td", String(Number.isFinite(a.points) ? a.points : 0), "num points"));
    body.append(tr);
  });
  table.append(thead, body);
  return table;
}

/**
 * A run's answers as cards with pictures, for a game whose questions are pictures (the kids'
 * games, `kind.reviewPicture`; issue 45: the table said "How many?" ten times with no picture,
 * and was cut on a phone). Each card: its number, a tick or a cross, the question's picture with
 * the right answer on it, what the child gave (the picture tapped, the number, the drawing) and,
 * when wrong, the right answer. Words for screen readers; the cards wrap to the screen's width.
 */
export function reviewCards(game, answers, { runOver = false, labelledBy = null } = {}) {
  const kind = kindFor(game);
  const attempts = attemptsFor(answers);
  const list = document.createElement("ol");
  list.className = "review-cards";
  if (labelledBy) list.setAttribute("aria-labelledby", labelledBy);
  answers.forEach((a, i) => {
    const li = document.createElement("li");
    li.className = `review-card ${a.correct ? "ok" : "bad"}`;
    li.dataset.question = a.question;
    li.dataset.correct = String(!!a.correct);
    const prompt = a.prompt && typeof a.prompt === "object" ? a.prompt : null;
    const read = a.answer === null || a.answer === undefined ? "?" : kind.describeAnswer(a.answer, prompt);
    const right = a.expected === null || a.expected === undefined ? null : kind.describeAnswer(a.expected, prompt);
    const head = textEl("p", "rc-head", "");
    const mark = textEl("span", "rc-mark", a.correct ? "✓" : "✗");
    mark.setAttribute("aria-hidden", "true");
    head.append(textEl("span", "rc-n", String(i + 1)), mark,
      textEl("span", "rc-q", prompt && kind.describePrompt ? kind.describePrompt(prompt) : String(a.question)));
    if (runOver && i === answers.length - 1) head.append(textEl("span", "tag run-end", t("review.runEnd")));
    li.append(head);
    const pic = prompt ? kind.reviewPicture(prompt, { value: a.expected == null ? null : String(a.expected), tapped: a.correct ? null : String(a.answer) }) : null;
    if (pic) { pic.classList.add("rc-picture"); li.append(pic); }
    const given = textEl("div", "rc-given", "");
    const attempt = attempts[i];
    if (a.input === "drawn" && attempt && attempt.strokes && attempt.strokes.length) {
      given.append(drawingSvg(attempt.strokes, t("review.drawingOf", { a: read })));
    } else if (a.input === "tap" || a.input === "keypad") {
      given.append(answerShown(kind, a.answer, prompt, a.input, "rc-answer"));
    } else {
      given.append(textEl("span", "rc-read", read));
    }
    li.append(given);
    const said = a.correct ? t("review.card.right", { a: read }) : right === null ? t("review.card.retry", { a: read })
      : t("review.card.wrong", { a: read, e: right });
    li.append(textEl("p", a.correct ? "rc-said ok" : "rc-said bad", said));
    list.append(li);
  });
  return list;
}

/**
 * The question's cell: the kind's words for it, or, where the kind has a shorter form for a
 * table (`tablePrompt`: Add-One's digits alone, the game's name saying the rest), that form,
 * with the words kept for screen readers.
 */
function promptCell(kind, prompt, question) {
  if (!prompt || !kind.describePrompt) return cell("td", String(question), "prompt");
  const words = kind.describePrompt(prompt);
  const short = typeof kind.tablePrompt === "function" ? kind.tablePrompt(prompt) : words;
  if (short === words) return cell("td", words, "prompt");
  const td = cell("td", "", "prompt");
  const shown = textEl("span", "", short);
  shown.setAttribute("aria-hidden", "true");
  td.append(shown, textEl("span", "sr-only", words));
  return td;
}

/** A review section's parts: its heading (the section's name), the table's place, the replay link and its Copy. */
function fillSection(section) {
  const h = textEl("h2", "", t("review.title"));
  h.id = `${section.id}-h`;
  h.dataset.i18n = "review.title";
  const link = textEl("div", "replay-link", "");
  const a = textEl("a", "button secondary", t("replay.watch"));
  a.dataset.i18n = "replay.watch";
  a.target = "_blank";
  a.rel = "noopener";
  const copy = textEl("button", "replay-copy", t("replay.copy"));
  copy.type = "button";
  copy.dataset.i18n = "replay.copy";
  link.append(a, copy);
  section.append(h, textEl("div", "review-list", ""), link);
}

/**
 * Fills a review section (#results-review, #standings-review): the table of
 * `answers` (none: no table) and the replay link of `race` (none: no link).
 */
export function showReview(section, game, answers, race, opts = {}) {
  if (!section.firstChild) fillSection(section);
  const list = section.querySelector(".review-list");
  const heading = section.querySelector("h2");
  list.replaceChildren();
  const cards = typeof kindFor(game).reviewPicture === "function";
  if (answers.length) list.append((cards ? reviewCards : reviewTable)(game, answers, { ...opts, labelledBy: heading.id }));
  heading.hidden = !answers.length;
  const path = replayPath(race);
  const link = section.querySelector(".replay-link");
  link.hidden = !path;
  if (path) {
    link.querySelector("a").href = path;
    link.querySelector(".replay-copy").onclick = async () => {
      const ok = await copyText(location.origin + path);
      toast(ok ? t("replay.copied") : location.origin + path);
    };
  }
  section.hidden = !answers.length && !path;
}
