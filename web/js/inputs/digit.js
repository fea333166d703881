// One hidden digit (answer_input drawn_digit, MindPad): written on the pad,
// or typed for keyboard-only play (issue 19). A digit key types it, Enter
// sends it as `{"type":"submit","question":…,"answer":"7"}` (graded as
// typed, docs/protocol.md), Backspace or Escape takes it back; with nothing
// typed, Enter sends the drawing as before.
import { t } from "../i18n.js";
import { mayAnswer } from "../state.js";
import { $ } from "../ui.js";
import { createDrawnInput, pickOpen, submitTyped } from "./drawn.js";

export function createDigitInput(kind, context) {
  const drawn = createDrawnInput(kind, context);
  let typed = "";
  let mounted = false;

  function render() {
    const el = $("typed-digit");
    el.hidden = !typed;
    el.textContent = typed ? t("game.typed", { d: typed }) : "";
    el.dataset.digit = typed;
    if (mounted) $("pad-typehint").hidden = !!typed;
  }

  function refresh() {
    drawn.refresh();
    const state = context.getState();
    if (typed && mayAnswer(state) && !state.race.submitting && !pickOpen()) $("btn-submit").disabled = false;
    render();
  }

  function sendTyped() {
    if (typed && submitTyped(typed)) typed = "";
    refresh();
  }

  function onSubmitClick(e) {
    if (!typed) return;   // the drawing: drawn.js sends it
    e.stopImmediatePropagation();
    sendTyped();
  }

  return {
    mount() {
      mounted = true;
      drawn.mount();
      typed = "";
      $("pad-typehint").hidden = false;
      $("pad").tabIndex = 0;
      $("btn-submit").addEventListener("click", onSubmitClick, true);
      // Came by keyboard from a hidden button: the pad takes the focus, so keys land somewhere visible.
      const a = document.activeElement;
      if (!a || a === document.body || a.offsetParent === null) $("pad").focus({ preventScroll: true });
      refresh();
    },
    question(q, resent) {
      drawn.question(q, resent);
      if (!resent) typed = "";
      refresh();
    },
    refresh,
    /** A digit types it, Backspace/Escape takes it back, Enter sends it (or the drawing). */
    key(e) {
      if (!mounted) return;
      if (pickOpen()) { drawn.key(e); return; }   // a choice is open: its digit keys pick
      const state = context.getState();
      if (/^[0-9]$/.test(e.key) && mayAnswer(state)) { e.preventDefault(); typed = e.key; refresh(); return; }
      if (typed && (e.key === "Backspace" || e.key === "Escape")) { e.preventDefault(); typed = ""; refresh(); return; }
      if (typed && e.key === "Enter" && e.target.tagName !== "BUTTON") { e.preventDefault(); sendTyped(); return; }
      drawn.key(e);
    },
    unmount() {
      mounted = false;
      typed = "";
      render();
      $("pad-typehint").hidden = true;
      $("pad").removeAttribute("tabindex");
      $("btn-submit").removeEventListener("click", onSubmitClick, true);
      drawn.unmount();
    },
  };
}
