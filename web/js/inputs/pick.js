// "Which did you mean?" (issue 43): a drawing the server read unsurely but
// with a few plausible digits comes back as a `choice` (docs/protocol.md)
// instead of a grade or a refusal. This panel lies over the pad: the
// digits offered, drawn large, to tap (or type: the digit key picks), and
// "Write it again" (or Escape) back to the pad. For a number, the number
// is shown with each unsure place as a picker; the pick is sent once every
// place has one. The race clock keeps running outside the panel. No state
// of its own but the picks of a number in progress.
import { t } from "../i18n.js";
import { $, textEl } from "../ui.js";

let shown = null;   // the `choice` message on screen
let picks = [];     // a number's picks so far, per place (null: not yet)
let handlers = null;  // {choose(answer), back()}

/** Whether the panel is up (keys go to it first). */
export function pickOpen() {
  return !!shown && !$("pick-panel").hidden;
}

/** The places of a `choice`: [{digit}] read surely, or [{options}] to pick; a digit's is one place. */
export function pickPlaces(choice) {
  if (!choice) return [];
  if (Array.isArray(choice.digits)) {
    return choice.digits.map((d) => (d && Array.isArray(d.options) ? { options: d.options.filter(Number.isInteger) }
      : { digit: d && Number.isInteger(d.digit) ? d.digit : null }));
  }
  return [{ options: Array.isArray(choice.options) ? choice.options.filter(Number.isInteger) : [] }];
}

/** "1 or 7", "1, 7 or 4" in the page's language. */
export function orList(digits) {
  const d = digits.map(String);
  if (d.length <= 1) return d.join("");
  return t("pick.or", { a: d.slice(0, -1).join(t("pick.listSep")), b: d[d.length - 1] });
}

function optionButton(digit, place, placeIndex) {
  const b = textEl("button", "pick-option", String(digit));
  b.type = "button";
  b.dataset.digit = String(digit);
  b.dataset.place = String(placeIndex);
  b.setAttribute("aria-label", t("pick.option", { d: digit }));
  b.setAttribute("aria-pressed", String(picks[placeIndex] === digit));
  b.addEventListener("click", () => pick(placeIndex, digit));
  return b;
}

/** Shows `choice` (or hides the panel for null); `busy`: a pick is out, the buttons wait. */
export function showPick(choice, busy, on) {
  const panel = $("pick-panel");
  handlers = on;
  if (!choice) {
    const had = pickOpen();
    shown = null;
    picks = [];
    panel.hidden = true;
    $("pad-area").classList.remove("picking");
    if (had && document.activeElement && panel.contains(document.activeElement)) $("pad").focus({ preventScroll: true });
    return;
  }
  const fresh = shown !== choice;
  if (fresh) {
    shown = choice;
    picks = pickPlaces(choice).map((p) => (p.options ? null : p.digit));
  }
  render(busy);
  panel.hidden = false;
  $("pad-area").classList.add("picking");
  if (fresh) {
    // On a small screen the panel may reach past the bottom: brought into view, the first option focused.
    if (typeof panel.scrollIntoView === "function") panel.scrollIntoView({ block: "nearest" });
    const first = panel.querySelector(".pick-option");
    if (first) first.focus({ preventScroll: true });
  }
}

function render(busy) {
  const places = pickPlaces(shown);
  const number = Array.isArray(shown.digits);
  const list = $("pick-options");
  list.replaceChildren();
  list.classList.toggle("number", number);
  $("pick-panel").dataset.question = shown.question || "";
  $("pick-panel").dataset.options = number ? places.map((p) => (p.options ? p.options.join("|") : String(p.digit))).join(",")
    : places[0].options.join(",");
  places.forEach((p, i) => {
    if (!p.options) {
      list.append(textEl("span", "pick-fixed", p.digit === null ? "?" : String(p.digit)));
      return;
    }
    const group = document.createElement("div");
    group.className = "pick-place";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", number ? t("pick.place", { n: i + 1 }) : t("pick.title"));
    for (const d of p.options) group.append(optionButton(d, p, i));
    list.append(group);
  });
  for (const b of list.querySelectorAll("button")) b.disabled = !!busy;
  $("pick-back").disabled = !!busy;
  $("pick-title").textContent = t("pick.title");
  $("pick-hint").textContent = t(number ? "pick.hintNumber" : "pick.hint");
  $("pick-back").textContent = t("pick.back");
}

/** A place picked: a digit is sent at once; a number once every place has its pick. */
function pick(place, digit) {
  if (!shown || !handlers) return;
  picks[place] = digit;
  const number = Array.isArray(shown.digits);
  if (!number) { handlers.choose(digit); return; }
  if (picks.every((d) => Number.isInteger(d))) { handlers.choose(picks.join("")); return; }
  render(false);
  // The next place still to pick takes the focus.
  const next = picks.findIndex((d) => !Number.isInteger(d));
  const b = $("pick-options").querySelector(`.pick-option[data-place="${next}"]`);
  if (b) b.focus({ preventScroll: true });
}

/** Keys while the panel is up: a digit offered picks it (a number: the first place still open that offers it), Escape goes back to the pad. True when the key was the panel's. */
export function pickKey(e) {
  if (!pickOpen()) return false;
  if (e.key === "Escape") {
    e.preventDefault();
    if (!$("pick-back").disabled) $("pick-back").click();
    return true;
  }
  if (/^[0-9]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    const d = Number(e.key);
    const places = pickPlaces(shown);
    const open = places.findIndex((p, i) => p.options && p.options.includes(d) && !Number.isInteger(picks[i]));
    const any = open >= 0 ? open : places.findIndex((p) => p.options && p.options.includes(d));
    if (any >= 0 && !$("pick-back").disabled) pick(any, d);
    return true;
  }
  // Enter and Space belong to the focused button; other keys (Ctrl+Z) do nothing while choosing.
  if (e.key !== "Enter" && e.key !== " " && e.key !== "Tab") e.preventDefault();
  return true;
}

export function initPick() {
  $("pick-back").addEventListener("click", () => { if (handlers) handlers.back(); });
}

/** A pick's record in an answer (`choice` of finished.result.answers, the replay): "tapped 7 of 1 · 7", per place. */
export function choiceNote(choice) {
  if (!Array.isArray(choice)) return "";
  return choice.filter((c) => c && Number.isInteger(c.tapped) && Array.isArray(c.options))
    .map((c) => t("review.choice", { t: c.tapped, o: c.options.join("\u00a0·\u00a0") }))
    .join(t("pick.listSep"));
}
