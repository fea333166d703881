// The on-screen number keypad beside the wide pad (answer_input
// drawn_number): 0–9 and delete, big targets, under a named display. It
// only collects digits; the one Submit sends them (the number input). The keys are in
// index.html (#keypad), wired once.
import { $ } from "../ui.js";

/** The longest answer the server reads or accepts (Recognizer.maxNumberDigits). */
export const MAX_TYPED = 8;

/** The typed text after one key: a digit appended (up to MAX_TYPED), or the last one deleted. */
export function typeKey(typed, key) {
  if (/^[0-9]$/.test(key)) return typed.length < MAX_TYPED ? typed + key : typed;
  if (key === "delete") return typed.slice(0, -1);
  return typed;
}

let wired = false;
let handlers = null;   // {onKey(key)} of the keypad in use

export function createKeypad(onKey) {
  const root = $("keypad");
  if (!wired) {
    wired = true;
    root.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-key]");
      if (b && handlers && !b.disabled) handlers.onKey(b.dataset.key);
    });
  }
  let typed = "";
  const display = $("keypad-display");

  function render(enabled) {
    display.textContent = typed;
    display.dataset.typed = typed;
    for (const b of root.querySelectorAll("button[data-key]")) {
      const k = b.dataset.key;
      b.disabled = !enabled || (k === "delete" && !typed) || (/^[0-9]$/.test(k) && typed.length >= MAX_TYPED);
    }
  }

  return {
    get typed() { return typed; },
    show() { handlers = { onKey }; root.hidden = false; },
    hide() { if (handlers && handlers.onKey === onKey) handlers = null; root.hidden = true; },
    press(key) { typed = typeKey(typed, key); },
    clear() { typed = ""; },
    render,
  };
}
