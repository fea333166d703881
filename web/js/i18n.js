// English and Simplified Chinese strings. Static text in index.html carries
// data-i18n (textContent), data-i18n-placeholder, data-i18n-aria or
// data-i18n-title; dynamic text goes through t().
import en from "./lang/en.js";
import zh from "./lang/zh.js";

const STRINGS = { en, zh };

const KEY = "mindpad.lang";
let lang = pickInitial();

function pickInitial() {
  const saved = localStorage.getItem(KEY);
  if (saved && STRINGS[saved]) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

export function getLang() { return lang; }

/**
 * Adds a module's strings (`{en: {...}, zh: {...}}`: a game kind's own,
 * kinds/<kind>/strings.js) to the page's. A key already there is a
 * programming error: two modules would say different things under it.
 */
export function addStrings(byLang) {
  for (const [code, strings] of Object.entries(byLang)) {
    const into = STRINGS[code];
    if (!into) continue;
    for (const key of Object.keys(strings)) if (key in into) throw new Error(`i18n: ${key} is defined twice`);
    Object.assign(into, strings);
  }
}

export function has(key) { return key in STRINGS[lang]; }

/**
 * A string in the page's language with `{param}`s filled in. A string with
 * plural forms is an object `{count: "n", one: "…", other: "…"}`: the form
 * is picked by the param it names (English: "1 point", "2 points"; Chinese
 * has one form).
 */
export function t(key, params = {}) {
  let s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  if (typeof s === "object") s = Number(params[s.count]) === 1 && s.one ? s.one : s.other;
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

export function setLang(next) {
  if (!STRINGS[next]) return;
  lang = next;
  localStorage.setItem(KEY, next);
  apply(document);
}

export function apply(root) {
  document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
  document.title = t("app.title");
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}
