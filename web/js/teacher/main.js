// The teacher's pages (teacher.html, issue 46): sign up or in, classes and
// their lists, and the lesson on the projector. Everything a pupil or a
// teacher typed is put in with textContent only (ui.js), never as markup.
import { gameName, levelName, modesOf, readCatalog } from "../catalog.js";
import { modeName } from "../format.js";
import { addStrings, apply, getLang, setLang, t } from "../i18n.js";
import { learnCatalog } from "../kinds/index.js";
import { api } from "../net.js";
import { $, errorText, textEl, toast } from "../ui.js";
import strings from "./strings.js";
import { Lesson } from "./lesson.js";
import { downloadCSV, showReport } from "./report.js";

addStrings(strings);

const KEY = "mindpad.teacher";
const LESSON_KEY = "mindpad.teacher.lesson";
let teacher = readTeacher();
let games = [];
let current = null;   // the class shown: {id, name, join_code}
let lesson = null;

function readTeacher() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    return saved && typeof saved.token === "string" ? saved : null;
  } catch (_) { return null; }
}

function saveTeacher(value) {
  teacher = value;
  if (value) localStorage.setItem(KEY, JSON.stringify(value)); else localStorage.removeItem(KEY);
  $("teacher-name").textContent = value ? value.name : "";
  $("sign-out").hidden = !value;
}

function showView(view) {
  for (const el of document.querySelectorAll(".view")) el.hidden = el.dataset.view !== view;
  document.body.dataset.view = view;
  const h = document.querySelector(`.view[data-view="${view}"] h1`);
  if (h) { h.tabIndex = -1; h.focus({ preventScroll: true }); }
}

/** An API failure as the teacher reads it; a lost token sends them to sign in. */
function failure(err) {
  if (err.status === 401 && teacher) { saveTeacher(null); showSignIn(); return t("teacher.err.signed_out"); }
  return t("teacher.err.generic", { message: err.message || String(err.status || "") });
}

const call = (path, options = {}) => api(path, { ...options, token: teacher && teacher.token });

// Sign up and in.

function showSignIn() {
  location.hash = "";
  showView("signin");
}

async function signIn(create) {
  const name = $("t-name").value.trim(), password = $("t-password").value;
  $("signin-error").textContent = "";
  if (password.length < 8) { $("signin-error").textContent = t("teacher.err.weak_password"); return; }
  try {
    const body = await api(create ? "/api/teachers" : "/api/teachers/sign_in", { method: "POST", body: { name, password } });
    saveTeacher({ name: body.name || name, token: body.token });
    $("t-password").value = "";
    showClasses();
  } catch (err) {
    const key = err.status === 401 ? "teacher.err.wrong_password" : err.code === "name_taken" ? "teacher.err.name_taken"
      : err.code === "invalid_password" ? "teacher.err.weak_password" : null;
    $("signin-error").textContent = key ? t(key) : t("teacher.err.generic", { message: err.message });
  }
}

// Classes.

async function showClasses() {
  location.hash = "";
  showView("classes");
  let list = [];
  try { list = (await call("/api/classes")).classes || []; } catch (err) { toast(failure(err)); return; }
  const ul = $("class-list");
  ul.replaceChildren(...list.map((c) => {
    const li = document.createElement("li");
    const open = textEl("button", "class-open", c.name);
    open.type = "button";
    open.addEventListener("click", () => showClass(c));
    li.append(open, textEl("span", "class-code", c.join_code));
    return li;
  }));
  $("no-classes").hidden = list.length > 0;
}

async function createClass() {
  const name = $("class-name").value.trim();
  $("class-error").textContent = "";
  try {
    const made = await call("/api/classes", { method: "POST", body: { name } });
    $("class-name").value = "";
    showClass(made);
  } catch (err) { $("class-error").textContent = failure(err); }
}

async function showClass(c) {
  current = c;
  location.hash = `class=${c.id}`;
  $("class-title").textContent = c.name;
  $("class-code").textContent = c.join_code;
  const link = `${location.origin}/?class=${encodeURIComponent(c.join_code)}`;
  $("class-link").href = link;
  $("class-link").textContent = link;
  showView("class");
  fillLessonForm();
  $("report-table").hidden = true;
  $("report-pupil").hidden = true;
  $("report-empty").hidden = true;
  $("privacy-boards").checked = !!c.public_boards;
  $("privacy-days").value = c.stroke_days == null ? "" : String(c.stroke_days);
  if ($("privacy-days").value !== (c.stroke_days == null ? "" : String(c.stroke_days))) {
    const o = document.createElement("option");
    o.value = String(c.stroke_days);
    o.textContent = t("privacy.dayN", { n: c.stroke_days });
    $("privacy-days").append(o);
    $("privacy-days").value = o.value;
  }
  $("privacy-done").textContent = "";
  await loadPupils();
  await loadWork();
}

async function loadPupils() {
  let pupils = [];
  try { pupils = (await call(`/api/classes/${current.id}/pupils`)).pupils || []; } catch (err) { toast(failure(err)); return; }
  const ul = $("pupil-list");
  if (!pupils.length) { ul.replaceChildren(textEl("li", "muted", t("teacher.noPupils"))); return; }
  ul.replaceChildren(...pupils.map((p) => {
    const li = document.createElement("li");
    li.append(textEl("span", "pupil-name", p.name));
    const state = !p.joined ? "teacher.pupilFree" : p.approved ? "teacher.pupilJoined" : "teacher.pupilWaiting";
    li.append(textEl("span", `pupil-state ${p.joined && !p.approved ? "waiting" : ""}`, t(state)));
    if (p.joined && !p.approved) {
      const letIn = textEl("button", "secondary", t("teacher.letIn"));
      letIn.type = "button";
      letIn.addEventListener("click", () => pupilAction(`/api/classes/${current.id}/pupils/${encodeURIComponent(p.name)}/approve`, "POST"));
      li.append(letIn);
    }
    if (p.joined) {
      const wipe = textEl("button", "link wipe", t("privacy.deleteData"));
      wipe.type = "button";
      wipe.setAttribute("aria-label", t("privacy.deleteDataOf", { name: p.name }));
      wipe.addEventListener("click", () => {
        if (confirm(t("privacy.confirmDelete", { name: p.name }))) {
          pupilAction(`/api/classes/${current.id}/pupils/${encodeURIComponent(p.name)}/data`, "DELETE");
        }
      });
      li.append(wipe);
    }
    const remove = textEl("button", "link remove", "×");
    remove.type = "button";
    remove.setAttribute("aria-label", t("teacher.remove", { name: p.name }));
    remove.addEventListener("click", () => pupilAction(`/api/classes/${current.id}/pupils/${encodeURIComponent(p.name)}`, "DELETE"));
    li.append(remove);
    return li;
  }));
}

async function pupilAction(path, method) {
  try { await call(path, { method }); } catch (err) { toast(failure(err)); }
  loadPupils();
}

async function addNames() {
  const names = $("roster-names").value.split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean);
  $("roster-error").textContent = "";
  if (!names.length) return;
  try {
    await call(`/api/classes/${current.id}/pupils`, { method: "POST", body: { names } });
    $("roster-names").value = "";
    loadPupils();
  } catch (err) { $("roster-error").textContent = failure(err); }
}

async function deleteClass() {
  if (!confirm(t("teacher.confirmDelete", { name: current.name }))) return;
  try { await call(`/api/classes/${current.id}`, { method: "DELETE" }); } catch (err) { toast(failure(err)); return; }
  showClasses();
}

// Starting a lesson.

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

/** The game, mode and level pickers of a form (`prefix`: lesson, work). */
function fillLessonForm() {
  for (const prefix of ["lesson", "work"]) {
    const sel = $(`${prefix}-game`), lang = getLang();
    const before = sel.value;
    sel.replaceChildren(...games.map((g) => option(g.id, gameName(g, lang))));
    if (before && games.some((g) => g.id === before)) sel.value = before;
    fillModes(prefix);
  }
}

function fillModes(prefix = "lesson") {
  const game = games.find((g) => g.id === $(`${prefix}-game`).value);
  const modeSel = $(`${prefix}-mode`), before = modeSel.value;
  modeSel.replaceChildren(...modesOf(game).map((m) => option(m, modeName(m))));
  if (before && modesOf(game).includes(before)) modeSel.value = before;
  const levels = game && Array.isArray(game.levels) ? game.levels : [];
  $(`${prefix}-level-field`).hidden = levels.length === 0;
  $(`${prefix}-level`).replaceChildren(...levels.map((l) => option(String(l.level), `${l.level} · ${levelName(game, l.level, getLang())}`)));
}

// Work set to play at home.

async function loadWork() {
  let list = [], pupils = 0;
  try {
    list = (await call(`/api/classes/${current.id}/assignments`)).assignments || [];
    pupils = ((await call(`/api/classes/${current.id}/pupils`)).pupils || []).filter((p) => p.joined && p.approved).length;
  } catch (err) { toast(failure(err)); return; }
  const lang = getLang();
  $("set-work").replaceChildren(...list.map((a) => {
    const li = document.createElement("li");
    const entry = games.find((g) => g.id === a.game);
    const parts = [entry ? gameName(entry, lang) : a.game, modeName(a.mode)];
    if (a.level != null) parts.push(entry ? levelName(entry, a.level, lang) : String(a.level));
    if (a.due) parts.push(t("work.due", { day: new Date(a.due).toLocaleDateString(lang === "zh" ? "zh-CN" : "en") }));
    li.append(textEl("span", "work-what", parts.join(" · ")), textEl("span", "work-count", t("work.playedBy", { n: a.played_by, of: pupils })));
    const drop = textEl("button", "link remove", "×");
    drop.type = "button";
    drop.setAttribute("aria-label", t("work.takeBack", { what: parts.join(" · ") }));
    drop.addEventListener("click", async () => {
      try { await call(`/api/classes/${current.id}/assignments/${a.id}`, { method: "DELETE" }); } catch (err) { toast(failure(err)); }
      loadWork();
    });
    li.append(drop);
    return li;
  }));
}

async function setWork() {
  $("work-error").textContent = "";
  const due = $("work-due").value;
  const body = { game: $("work-game").value, mode: $("work-mode").value };
  if (!$("work-level-field").hidden) body.level = Number($("work-level").value);
  // The end of the chosen day, where the teacher is.
  if (due) body.due = new Date(`${due}T23:59:59`).toISOString();
  try {
    await call(`/api/classes/${current.id}/assignments`, { method: "POST", body });
    $("work-due").value = "";
    loadWork();
  } catch (err) { $("work-error").textContent = failure(err); }
}

function openLesson(setup) {
  sessionStorage.setItem(LESSON_KEY, JSON.stringify(setup));
  location.hash = `lesson=${setup.classID}`;
  showView("lesson");
  if (lesson) lesson.close();
  lesson = new Lesson({
    setup, token: teacher.token, games,
    onEnded: (why) => {
      sessionStorage.removeItem(LESSON_KEY);
      lesson = null;
      toast(why === "replaced" ? t("teacher.elsewhere") : t("teacher.ended"));
      if (why !== "replaced" && current) showClass(current); else showClasses();
    },
    onRefused: (msg) => {
      sessionStorage.removeItem(LESSON_KEY);
      lesson = null;
      toast(errorText(msg));
      if (current) showClass(current); else showClasses();
    },
  });
}

// Boot.

async function boot() {
  apply(document);
  saveTeacher(teacher);
  $("lang-switch").addEventListener("click", () => {
    setLang(getLang() === "zh" ? "en" : "zh");
    if (document.body.dataset.view === "class") fillLessonForm();
    if (lesson) lesson.relabel();
  });
  $("sign-out").addEventListener("click", () => { if (lesson) lesson.close(); lesson = null; saveTeacher(null); showSignIn(); });
  $("signin-form").addEventListener("submit", (e) => { e.preventDefault(); signIn(false); });
  $("signup-go").addEventListener("click", () => signIn(true));
  $("class-form").addEventListener("submit", (e) => { e.preventDefault(); createClass(); });
  $("back-to-classes").addEventListener("click", showClasses);
  $("roster-form").addEventListener("submit", (e) => { e.preventDefault(); addNames(); });
  $("delete-class").addEventListener("click", deleteClass);
  $("report-refresh").addEventListener("click", () => showReport(current.id, teacher.token, (err) => toast(failure(err))));
  $("privacy-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const days = $("privacy-days").value;
    try {
      current = await call(`/api/classes/${current.id}`, { method: "PATCH",
        body: { public_boards: $("privacy-boards").checked, stroke_days: days === "" ? null : Number(days) } });
      $("privacy-done").textContent = t("privacy.saved");
    } catch (err) { toast(failure(err)); }
  });
  $("report-csv").addEventListener("click", () => downloadCSV(current.id, current.name, teacher.token));
  $("lesson-game").addEventListener("change", () => fillModes("lesson"));
  $("work-game").addEventListener("change", () => fillModes("work"));
  $("work-form").addEventListener("submit", (e) => { e.preventDefault(); setWork(); });
  $("lesson-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const game = $("lesson-game").value;
    const levelled = !$("lesson-level-field").hidden;
    openLesson({ classID: current.id, className: current.name, game, mode: $("lesson-mode").value,
      level: levelled ? Number($("lesson-level").value) : null });
  });
  try {
    games = readCatalog(await api("/api/games"));
    learnCatalog(games);
  } catch (_) { games = []; }
  if (!teacher) { showSignIn(); return; }
  // A reload comes back where it was: the lesson (the projector), or the class.
  const [what, id] = location.hash.replace(/^#/, "").split("=");
  let setup = null;
  try { setup = JSON.parse(sessionStorage.getItem(LESSON_KEY) || "null"); } catch (_) { setup = null; }
  let classes = [];
  try { classes = (await call("/api/classes")).classes || []; } catch (err) { toast(failure(err)); if (!teacher) return; }
  current = classes.find((c) => c.id === id) || null;
  if (what === "lesson" && setup && setup.classID === id) { openLesson(setup); return; }
  if (current) { showClass(current); return; }
  showClasses();
}

boot();
