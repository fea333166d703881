// A pupil's side of the classroom (issue 46): joining a class with the code
// the teacher shows, and, in a lesson's room, the sign that the teacher
// sees their pad and the pause the teacher called.
import { t } from "../i18n.js";
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

export function bootClassroom() {
  $("class-join-form").addEventListener("submit", (e) => { e.preventDefault(); find(); });
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
