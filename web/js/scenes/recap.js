// The graded answer kept in view, in its own box above the next question
// (issue 19): its question, the drawing as a small picture, what was read
// and the verdict ("You wrote 8 — the answer was 9"). The next question is
// shown and answerable at once; the box is only a look back, labelled with
// the question it belongs to so it never reads as the new one's. It is
// highlighted for a moment, then settles until the next grade.
// The box's `#feedback` line also says the answer input's own notes (the
// path finder's bump), which belong to the question on screen.
import { t } from "../i18n.js";
import { $ } from "../ui.js";
import { drawingSvg } from "../review/thumb.js";
import { verdictOf } from "../review/review.js";

/** How long a fresh grade stays highlighted. */
const FRESH_MS = 2500;

let shown = null;   // {kind, g, prompt, index, attempt} of the grade in the box, to say it again in another language
let freshTimer = null;

/** How the answer went in: the page's own record, else the kind's usual input. */
function inputOf(kind, attempt) {
  if (attempt && attempt.input) return attempt.input;
  return kind.input === "choice" || kind.input === "choice_or_digit" ? "tap" : "drawn";
}

function render() {
  const box = $("recap");
  const fb = $("feedback");
  if (!shown) return;
  const { kind, g, prompt, index, attempt } = shown;
  const label = kind.numbered === false || index === null ? t("recap.previous") : t("game.question", { n: index + 1 });
  const promptText = prompt && kind.describePrompt ? kind.describePrompt(prompt) : "";
  $("recap-q").textContent = promptText ? `${label} · ${promptText}` : label;
  const thumb = $("recap-thumb");
  thumb.replaceChildren();
  if (attempt && attempt.strokes && attempt.strokes.length) thumb.append(drawingSvg(attempt.strokes, t("review.drawing")));
  thumb.hidden = !thumb.firstChild;
  const own = kind.gradedText ? kind.gradedText(g, prompt) : null;
  const v = verdictOf(kind, g.answer, g.expected, g.correct, prompt, inputOf(kind, attempt));
  // A kind's own words (the path finder's "Not this grid") lead; what was read follows.
  fb.textContent = own ? t(own.key, own.params) : t(v.key, v.params);
  const said = own && !g.correct;
  $("recap-read").textContent = said ? t("recap.answer", { a: v.params.a }) : "";
  $("recap-read").hidden = !said;
  box.classList.remove("empty");
}

/** A `graded` message: its answer goes into the box, highlighted for a moment. */
export function showRecap(kind, g, prompt, index, attempt) {
  shown = { kind, g, prompt, index, attempt };
  const box = $("recap");
  const fb = $("feedback");
  delete fb.dataset.key;
  delete fb.dataset.params;
  render();
  fb.className = `feedback ${g.correct ? "ok" : "bad"}`;
  box.dataset.tone = g.correct ? "ok" : "bad";
  box.dataset.question = g.question;
  // Restart the highlight (and its entrance, unless motion is reduced).
  box.classList.remove("fresh");
  void box.offsetWidth;
  box.classList.add("fresh");
  clearTimeout(freshTimer);
  freshTimer = setTimeout(() => box.classList.remove("fresh"), FRESH_MS);
}

/** A note of the answer input about the question on screen (no earlier answer in the box). */
export function sayNote(key, params = {}, tone = "") {
  shown = null;
  const fb = $("feedback");
  fb.textContent = t(key, params);
  fb.className = tone ? `feedback ${tone}` : "feedback";
  fb.dataset.key = key;
  fb.dataset.params = JSON.stringify(params);
  $("recap-q").textContent = "";
  $("recap-thumb").replaceChildren();
  $("recap-thumb").hidden = true;
  $("recap-read").hidden = true;
  const box = $("recap");
  box.dataset.tone = tone;
  delete box.dataset.question;
  box.classList.remove("empty", "fresh");
}

/** Nothing to look back on (a new race, the path finder's grid after its guess). */
export function clearRecap() {
  shown = null;
  clearTimeout(freshTimer);
  const fb = $("feedback");
  fb.textContent = "";
  fb.className = "feedback";
  delete fb.dataset.key;
  delete fb.dataset.params;
  $("recap-q").textContent = "";
  $("recap-read").textContent = "";
  $("recap-thumb").replaceChildren();
  const box = $("recap");
  box.classList.add("empty");
  box.classList.remove("fresh");
  delete box.dataset.tone;
  delete box.dataset.question;
}

/** The box in the page's new language. */
export function relabelRecap() {
  const fb = $("feedback");
  if (shown) render();
  else if (fb.dataset.key && fb.textContent) fb.textContent = t(fb.dataset.key, JSON.parse(fb.dataset.params || "{}"));
}
