// The room before a race: code, invite link, members, ready and start.
import { t } from "../i18n.js";
import { isHost, me, roomGame } from "../state.js";
import { gameAndMode } from "../format.js";
import { $, copyText, currentScene, show, textEl } from "../ui.js";

let ctx = null;   // {send, getState, leaveToMenu}

/** The room's link; it names the room's game too, so the first screen of someone new says what they are invited to. */
export function inviteLink(code, game = null) {
  const g = typeof game === "string" && game ? `&game=${encodeURIComponent(game)}` : "";
  return `${location.origin}/?room=${encodeURIComponent(code)}${g}`;
}

export function initLobby(context) {
  ctx = context;
  $("lobby-copy").addEventListener("click", async () => {
    await copyText(inviteLink(ctx.getState().room.code, roomGame(ctx.getState().room.room)));
    $("lobby-copy").textContent = t("lobby.copied");
    setTimeout(() => { $("lobby-copy").textContent = t("lobby.copy"); }, 1500);
  });
  $("lobby-start").addEventListener("click", () => { $("lobby-error").textContent = ""; ctx.send({ type: "start" }); });
  $("lobby-ready").addEventListener("click", () => {
    const m = me(ctx.getState());
    ctx.send({ type: "ready", ready: !(m && m.ready) });
  });
  $("lobby-leave").addEventListener("click", () => ctx.leaveToMenu());
}

export function showLobby(state) {
  $("lobby-error").textContent = "";
  renderLobby(state);
  if (currentScene() !== "lobby") show("lobby");
}

export function renderLobby(state) {
  const { code, you, room } = state.room;
  $("lobby-title").textContent = t("lobby.title", { code });
  $("lobby-mode").textContent = gameAndMode(state.catalog, roomGame(room), room.mode, room.level);
  $("lobby-code").textContent = code;
  $("lobby-link").value = inviteLink(code, roomGame(room));
  const list = $("lobby-members");
  list.replaceChildren();
  for (const m of room.members) {
    const li = document.createElement("li");
    li.className = "member";
    if (m.player_id === you) li.classList.add("me");
    li.append(textEl("span", "name", m.name));
    const tags = [];
    if (m.host) tags.push(t("lobby.host"));
    if (m.player_id === you) tags.push(t("lobby.you"));
    if (m.role === "spectator") tags.push(t("lobby.spectator"));
    else if (!m.host) tags.push(m.ready ? t("lobby.ready") : t("lobby.notready"));
    if (!m.connected) tags.push(t("lobby.offline"));
    for (const tag of tags) li.append(textEl("span", "tag", tag));
    list.append(li);
  }
  const host = isHost(state);
  const mine = me(state);
  // The server starts a race only once every other racer is ready and
  // connected: say who the host is waiting for, and wait with them.
  const waiting = room.members.filter((m) => m.role === "racer" && !m.host && !(m.ready && m.connected));
  $("lobby-start").hidden = !host;
  $("lobby-start").disabled = host && waiting.length > 0;
  $("lobby-waiting").hidden = !host || waiting.length === 0;
  $("lobby-waiting").textContent = waiting.length
    ? t("lobby.waitingFor", { names: waiting.map((m) => m.name).join(", ") }) : "";
  $("lobby-ready").hidden = host || !mine || mine.role !== "racer";
  $("lobby-ready").textContent = mine && mine.ready ? t("lobby.unreadyBtn") : t("lobby.readyBtn");
  $("lobby-ready").setAttribute("aria-pressed", mine && mine.ready ? "true" : "false");
  $("lobby-wait").hidden = host;
}

export function showLobbyError(text) {
  $("lobby-error").textContent = text;
}
