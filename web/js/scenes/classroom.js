// A pupil's side of the classroom (issue 46): joining a class with the code
// the teacher shows, and, in a lesson's room, the sign that the teacher
// sees their pad and the pause the teacher called.
import { gameName, levelName } from "../catalog.js";
import { modeName } from "../format.js";
import { getLang, t } from "../i18n.js";
import { identity } from "../identity.js";
import { api } from "../net.js";
import { $, textEl } from "../ui.js";

let found = null;   // {code, class, names}

function say(error, done = "") {
  $("class-join-error").textContent = error;
  $("class-join-done").textContent = done;
}

async function find() {
  const code = $("class-join-code").value.trim();
  say("");
  $("class-names").hidden = true;
  if (!code) return;
  try {
    const body = await api(`/api/class_codes/${encodeURIComponent(code)}`);
    found = { code, class: body.class, names: Array.isArray(body.names) ? body.names : [] };
  } catch (err) {
    say(err.status === 404 || err.status === 400 ? t("class.unknownCode") : t("class.failed"));
    return;
  }
  $("class-names-title").textContent = t("class.whoAreYou", { class: found.class });
  const list = $("class-names-list");
  const buttons = found.names.map((name) => {
    const b = textEl("button", "secondary", name);
    b.type = "button";
    b.addEventListener("click", () => join(name));
    return b;
  });
  const own = textEl("button", "link", t("class.notOnList", { name: identity.name }));
  own.type = "button";
  own.addEventListener("click", () => join(null));
  list.replaceChildren(...buttons, own);
  $("class-names").hidden = false;
}

async function join(rosterName) {
  const me = identity.name, token = identity.token(me);
  if (!me || !token || !found) return;
  try {
    const body = await api(`/api/players/${encodeURIComponent(me)}/classes`, {
      method: "POST", token, body: rosterName ? { code: found.code, name: rosterName } : { code: found.code },
    });
    $("class-names").hidden = true;
    $("class-join-code").value = "";
    say("", body.approved ? t("class.in", { class: body.class, name: body.name }) : t("class.waiting", { class: body.class }));
  } catch (err) {
    say(err.code === "name_taken" ? t("class.nameTaken") : t("class.failed"));
  }
}

let ctx = null;   // {play(game, mode, extra), games()}

/** A class's link (`/?class=CODE`, on the teacher's board): its code, until the menu first shows. */
let linked = new URLSearchParams(location.search).get("class");

export function bootClassroom(context) {
  ctx = context;
  $("class-join-form").addEventListener("submit", (e) => { e.preventDefault(); find(); });
}

/** The menu shows with a class's link pending: straight to joining that class. */
function followClassLink() {
  if (!linked || !ctx) return false;
  const code = linked;
  linked = null;
  history.replaceState(null, "", location.pathname);
  ctx.openRace();
  $("class-join-code").value = code;
  find();
  return true;
}

/**
 * The work teachers set for the player's classes, on the menu: each with
 * its class, game, mode, level and due day, done or not, and Play (a solo
 * run kept with the class). Nothing shows for a player in no class.
 */
export async function refreshAssignments() {
  if (followClassLink()) return;
  const me = identity.name, token = me && identity.token(me);
  const box = $("menu-work");
  refreshLessons();
  if (!token) { box.hidden = true; return; }
  let list = [];
  try { list = (await api(`/api/players/${encodeURIComponent(me)}/assignments`, { token })).assignments || []; } catch (_) { list = []; }
  box.hidden = list.length === 0;
  const games = (ctx && ctx.games()) || [];
  const lang = getLang();
  $("menu-work-list").replaceChildren(...list.map((a) => {
    const li = document.createElement("li");
    const entry = games.find((g) => g.id === a.game) || null;
    const parts = [a.class, entry ? gameName(entry, lang) : a.game, modeName(a.mode)];
    if (a.level != null) parts.push(entry ? levelName(entry, a.level, lang) : String(a.level));
    const text = document.createElement("div");
    text.className = "work-text";
    text.append(textEl("strong", "", parts.join(" · ")));
    if (a.due) {
      const due = new Date(a.due).toLocaleDateString(lang === "zh" ? "zh-CN" : "en", { weekday: "short", day: "numeric", month: "short" });
      text.append(textEl("small", "muted", t("work.due", { day: due })));
    }
    if (a.played) text.append(textEl("small", "work-done", t("work.done")));
    const play = textEl("button", a.played ? "secondary" : "primary", t(a.played ? "work.again" : "work.play"));
    play.type = "button";
    play.addEventListener("click", () => ctx.play(a.game, a.mode, { ...(a.level != null ? { level: a.level } : {}), assignment: a.id }));
    li.append(text, play);
    return li;
  }));
}

/** The lesson's sign and pause, from the room as it stands (none outside a lesson). */
export function renderLesson(state) {
  const room = state.room && state.room.room;
  const lesson = room && typeof room.lesson === "string" ? room.lesson : null;
  for (const id of ["lesson-sign", "lobby-lesson-sign"]) {
    const el = $(id);
    el.hidden = lesson === null;
    el.textContent = lesson === null ? "" : t("class.watched", { class: lesson });
  }
  $("paused-veil").hidden = !(lesson !== null && room.paused === true && room.phase === "running");
}

let lessonPoll = null;

/**
 * The lessons the player's classes are having now, on the menu: Join
 * without typing the code. While the menu shows and the player is in a
 * class, asked again every 5 s (a lesson the teacher opens, or one opened
 * anew on another server after a restart, shows by itself).
 */
async function refreshLessons() {
  clearTimeout(lessonPoll);
  const me = identity.name, token = me && identity.token(me);
  const box = $("menu-lessons");
  if (!token) { box.hidden = true; return; }
  let classes = [];
  try { classes = (await api(`/api/players/${encodeURIComponent(me)}/classes`, { token })).classes || []; } catch (_) { classes = []; }
  if (document.body.dataset.scene !== "menu") return;
  const live = classes.filter((c) => typeof c.lesson === "string" && c.lesson);
  box.hidden = live.length === 0;
  $("menu-lessons-list").replaceChildren(...live.map((c) => {
    const li = document.createElement("li");
    li.append(textEl("strong", "", t("lesson.now", { class: c.class })));
    const join = textEl("button", "primary", t("lesson.join"));
    join.type = "button";
    join.addEventListener("click", () => ctx.join(c.lesson));
    li.append(join);
    return li;
  }));
  if (classes.length) lessonPoll = setTimeout(() => { if (document.body.dataset.scene === "menu") refreshLessons(); }, 5000);
}

/** After a language switch: the lesson's sign, and the menu's lessons and work, in the new language. */
export function relabelClassroom(state, scene) {
  renderLesson(state);
  if (scene === "menu") refreshAssignments();
}
