// Small DOM helpers shared by the scenes. Text another player (or the
// server) supplied goes in with textContent only, never as markup.
import { t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

/** An element with a class and text, the text inserted as text. */
export function textEl(tag, className, text = "") {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}

export function currentScene() { return document.body.dataset.scene || "loading"; }

/** Shows one scene and moves the focus to its heading or first button. */
export function show(scene) {
  for (const el of document.querySelectorAll(".scene")) el.hidden = el.dataset.scene !== scene;
  document.body.dataset.scene = scene;
  if (scene === "game") return;
  const root = $(`scene-${scene}`);
  const target = root && (root.querySelector("h1")
    || [...root.querySelectorAll("button")].find((b) => !b.disabled && b.offsetParent !== null));
  if (target) {
    if (target.tagName === "H1") target.tabIndex = -1;
    target.focus({ preventScroll: true });
  }
}

export function toast(text, ms = 3500) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, ms);
}

/** A protocol or API error as the player reads it: ours if we have one, else the server's. */
export function errorText(msg) {
  const key = `err.${msg.code}`;
  const translated = t(key);
  return translated === key ? (msg.message || msg.code) : translated;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    const ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.className = "offscreen";
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
    ta.remove();
    return ok;
  }
}

/**
 * Fills a role=tablist with one tab per item ({value, label}). The selected
 * tab (selectTab) is reachable by Tab, the others by the arrow keys, Home
 * and End; picking one calls onPick(value). The same tabs are not drawn
 * again, so the focused one keeps the focus.
 */
export function renderTabs(container, items, onPick) {
  const sig = JSON.stringify(items.map((i) => [i.value, i.label]));
  if (container.dataset.tabs === sig) return;
  container.dataset.tabs = sig;
  container.replaceChildren();
  for (const item of items) {
    const b = textEl("button", "", item.label);
    b.type = "button";
    b.setAttribute("role", "tab");
    b.dataset.value = item.value;
    b.addEventListener("click", () => onPick(item.value));
    container.append(b);
  }
  container.onkeydown = (e) => {
    const tabs = [...container.children];
    const i = tabs.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (e.key === "ArrowRight") j = (i + 1) % tabs.length;
    if (e.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
    if (e.key === "Home") j = 0;
    if (e.key === "End") j = tabs.length - 1;
    if (j === null) return;
    e.preventDefault();
    tabs[j].focus();
    onPick(tabs[j].dataset.value);
  };
}

export function selectTab(container, value) {
  for (const b of container.children) {
    const on = b.dataset.value === value;
    b.setAttribute("aria-selected", String(on));
    b.tabIndex = on ? 0 : -1;
  }
}

/**
 * Asks a question in the page's one modal dialog (#ask) and resolves with the
 * chosen choice's value, `cancel` (Escape), or `dismissed` when a newer
 * question or dismissAsk took its place.
 * Choices: [{value, label, kind}] with kind "primary", "danger" or none; the
 * first choice has the focus. Texts go in as text.
 */
export function ask({ title, body = "", extra = null, choices }) {
  const dialog = $("ask");
  if (dialog.open) dialog.close("dismissed");
  $("ask-title").textContent = title;
  $("ask-body").textContent = body;
  $("ask-body").hidden = !body;
  // More to show than a sentence (the fish's game over: the run's review).
  $("ask-extra").replaceChildren(...(extra ? [extra] : []));
  $("ask-extra").hidden = !extra;
  dialog.classList.toggle("wide", !!extra);
  const box = $("ask-choices");
  box.replaceChildren();
  for (const c of choices) {
    const b = textEl("button", c.kind || "", c.label);
    b.value = c.value;
    b.dataset.value = c.value;
    box.append(b);
  }
  dialog.returnValue = "cancel";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue || "cancel"), { once: true });
    dialog.showModal();
    if (box.firstElementChild) box.firstElementChild.focus();
  });
}

/** Closes the dialog of `ask` if it is open (the question no longer stands). */
export function dismissAsk() {
  const dialog = $("ask");
  if (dialog.open) dialog.close("dismissed");
}
