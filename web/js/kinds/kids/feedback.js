// Feedback a child who cannot read yet understands (issue 45): after each
// graded answer of a kids' game, a card over the question for a moment: a
// big green tick or an orange cross, the question's picture with the right
// answer on it (the things counted, the right one ringed, the tap that was
// wrong marked too), the right answer large, and a short pop (none under
// prefers-reduced-motion). A tap or a key puts it away at once. Sound is
// optional and off until the child (or a grown-up) switches it on with the
// speaker in the game bar; it is a chime made here (Web Audio), no file.
import { t } from "../../i18n.js";
import { $, textEl } from "../../ui.js";
import { svgEl } from "./art.js";

const SOUND_KEY = "mindpad.kidsSound";
/** How long the card stays: a little longer after a wrong answer, to look at the right one. */
const SHOW_MS = { right: 1500, wrong: 2600 };

let timer = null;
let audio = null;
let after = [];   // what waits for the card to go (the end of a level after its last answer)

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (_) { return false; }
}

function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (_) { /* private mode: this page only */ }
  showSoundButton();
}

/** The speaker in the game bar: shown in kids' games only, off until switched on. */
export function showSoundButton(shown = null) {
  const b = $("kids-sound");
  if (shown !== null) b.hidden = !shown;
  const on = soundOn();
  b.setAttribute("aria-pressed", String(on));
  b.setAttribute("aria-label", t(on ? "kids.sound.on" : "kids.sound.off"));
  b.title = t(on ? "kids.sound.on" : "kids.sound.off");
  b.dataset.sound = on ? "on" : "off";
}

export function initKidsFeedback() {
  $("kids-sound").addEventListener("click", () => setSound(!soundOn()));
  const card = $("kid-feedback");
  card.addEventListener("click", hideKidsFeedback);
  // While it shows, a key puts it away (and does not answer the next question under it).
  document.addEventListener("keydown", (e) => {
    if (card.hidden) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    hideKidsFeedback();
  }, true);
}

/** A chime: up for right, one soft low note for wrong. Only when the sound is on. */
function chime(right) {
  if (!soundOn()) return false;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const notes = right ? [523.25, 659.25, 783.99] : [246.94];
    notes.forEach((f, i) => {
      const o = audio.createOscillator(), g = audio.createGain();
      const at = audio.currentTime + i * 0.12;
      o.frequency.value = f;
      o.type = "sine";
      g.gain.setValueAtTime(0.0001, at);
      g.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, at + (right ? 0.3 : 0.5));
      o.connect(g).connect(audio.destination);
      o.start(at);
      o.stop(at + 0.6);
    });
    return true;
  } catch (_) {
    return false;
  }
}

/** The big sign: a tick in a green disc, or a cross in an orange one (SVG, no words needed). */
function sign(right) {
  const svg = svgEl("svg", { viewBox: "0 0 100 100", class: "kf-sign", "aria-hidden": "true", focusable: "false" });
  svg.append(svgEl("circle", { cx: 50, cy: 50, r: 46, fill: right ? "#1e7b34" : "#c25400" }));
  svg.append(svgEl("path", right
    ? { d: "M27 52l16 16 31-35", stroke: "#fff", "stroke-width": 12, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }
    : { d: "M32 32l36 36M68 32l-36 36", stroke: "#fff", "stroke-width": 12, fill: "none", "stroke-linecap": "round" }));
  return svg;
}

/** The right answer, large: its picture (a thing), or its number. */
function answerBig(kind, expected, prompt) {
  const icon = typeof kind.answerIcon === "function" ? kind.answerIcon(expected, prompt) : null;
  if (icon) return icon;
  const p = prompt && prompt.picture;
  // A box of more or less is ringed in the picture; a number is written out.
  if (p && p.scene === "compare") return null;
  return textEl("span", "kf-number", String(expected));
}

/**
 * The card for `g` (a `graded`) of `prompt`, asked of `kind` (the kids' kind: its `reviewPicture`
 * and `answerIcon`). Replaces any card still showing.
 */
export function showKidsFeedback(kind, g, prompt) {
  const card = $("kid-feedback");
  clearTimeout(timer);
  const right = !!g.correct;
  const expected = g.expected ?? null;
  const words = expected === null ? "" : kind.describeAnswer(expected, prompt);
  const inner = textEl("div", "kf-card", "");
  card.replaceChildren(inner);
  card.dataset.correct = String(right);
  card.dataset.answer = expected === null ? "" : String(expected);
  card.dataset.question = String(g.question);
  card.setAttribute("aria-label", right ? t("kids.feedback.right", { a: words }) : t("kids.feedback.wrong", { a: words }));
  const top = textEl("div", "kf-top", "");
  top.append(sign(right));
  const big = expected === null ? null : answerBig(kind, expected, prompt);
  if (big) { big.classList.add("kf-answer"); top.append(big); }
  inner.append(top);
  const mark = { value: expected === null ? null : String(expected), tapped: right ? null : String(g.answer) };
  const pic = typeof kind.reviewPicture === "function" ? kind.reviewPicture(prompt, mark) : null;
  if (pic) { pic.classList.add("kf-picture"); inner.append(pic); }
  card.dataset.sound = chime(right) ? "played" : "off";
  card.hidden = false;
  // Restart the pop.
  card.classList.remove("pop");
  void card.offsetWidth;
  card.classList.add("pop");
  timer = setTimeout(hideKidsFeedback, right ? SHOW_MS.right : SHOW_MS.wrong);
}

export function hideKidsFeedback() {
  clearTimeout(timer);
  const card = $("kid-feedback");
  card.hidden = true;
  card.classList.remove("pop");
  const then = after;
  after = [];
  for (const fn of then) fn();
}

/** Runs `fn` once the card is gone (at once when none shows): the last answer's card is seen before the level's end. */
export function afterKidsFeedback(fn) {
  if ($("kid-feedback").hidden) fn();
  else after.push(fn);
}
