// The lesson on the projector (issue 46, docs/protocol.md "Lessons"): the
// connection that conducts the class's room, its controls, and the wall of
// every pupil's pad drawn live from their strokes with what the reader
// reads, their score and their last answer.
import { t } from "../i18n.js";
import { kindFor } from "../kinds/index.js";
import { Link } from "../net.js";
import { cleanStrokes, drawingBox, paintDrawing } from "../review/thumb.js";
import { $, errorText, textEl, toast } from "../ui.js";

const NS = "http://www.w3.org/2000/svg";

export class Lesson {
  constructor({ setup, token, games, onEnded, onRefused }) {
    this.setup = setup;
    this.token = token;
    this.games = games;
    this.onEnded = onEnded;
    this.onRefused = onRefused;
    this.code = null;
    this.instance = null;
    this.locked = false;
    this.kicked = [];
    this.hideNames = false;
    this.room = null;          // the room's snapshot
    this.pads = new Map();     // player_id -> {question, prompt, strokes, read, confidence, graded, score}
    this.dirty = new Set();
    this.frame = 0;
    this.hosted = false;
    this.link = new Link({
      onMessage: (msg) => this.message(msg),
      onState: (state, info) => this.linkState(state, info),
      instance: () => this.instance,
    });
    this.wire();
    this.link.connect();
    this.render();
  }

  wire() {
    const act = (action, extra = {}) => this.link.send({ type: "lesson", action, ...extra });
    this.handlers = [
      ["l-start", () => act("start")],
      ["l-pause", () => act("pause")],
      ["l-resume", () => act("resume")],
      ["l-stop", () => act("stop")],
      ["l-next", () => act("next")],
      ["l-lock", () => act(this.locked ? "unlock" : "lock")],
      ["l-names", () => { this.hideNames = !this.hideNames; this.render(); }],
      ["l-end", () => { if (confirm(t("teacher.confirmEnd"))) act("end"); }],
    ].map(([id, fn]) => { $(id).onclick = fn; return id; });
  }

  close() {
    this.closed = true;
    this.link.stop();
    for (const id of this.handlers) $(id).onclick = null;
    cancelAnimationFrame(this.frame);
    $("wall").replaceChildren();
  }

  linkState(state, info) {
    if (state === "open") {
      const { classID, game, mode, level } = this.setup;
      this.link.send({ type: "host_lesson", token: this.token, class: classID, game, mode, ...(level ? { level } : {}) });
    } else if (state === "closed" && info === 4001 && !this.closed) {
      this.close();
      this.onEnded("replaced");
    }
  }

  message(msg) {
    switch (msg.type) {
      case "lesson":
        this.code = msg.room;
        this.instance = msg.instance || null;
        this.locked = !!msg.locked;
        this.kicked = Array.isArray(msg.kicked) ? msg.kicked : [];
        this.hosted = true;
        break;
      case "room":
      case "room_updated":
        this.room = msg.room;
        for (const id of this.pads.keys()) {
          if (!this.room.members.some((m) => m.player_id === id)) this.pads.delete(id);
        }
        if (msg.progress) this.progress(msg.progress);
        break;
      case "race_started":
        for (const pad of this.pads.values()) Object.assign(pad, { graded: null, score: 0, status: "playing" });
        break;
      case "progress":
        this.progress(msg);
        break;
      case "standings":
        this.standings = msg;
        break;
      case "pad_question": {
        const pad = this.pad(msg.player);
        Object.assign(pad, { question: msg.question, prompt: msg.prompt, strokes: [], read: null, confidence: null });
        this.touch(msg.player);
        return;
      }
      case "pad_points": {
        const pad = this.pad(msg.player);
        if (pad.question !== msg.question) Object.assign(pad, { question: msg.question, strokes: [], read: null });
        const points = cleanStrokes([msg.points])[0] || [];
        while (pad.strokes.length < msg.stroke) pad.strokes.push([]);
        if (pad.strokes.length === msg.stroke) pad.strokes.push([]);
        pad.strokes[msg.stroke].push(...points);
        this.touch(msg.player);
        return;
      }
      case "pad_clear": {
        const pad = this.pad(msg.player);
        if (pad.question !== msg.question) return;
        if (Number.isInteger(msg.stroke)) pad.strokes = pad.strokes.slice(0, msg.stroke); else pad.strokes = [];
        pad.read = null;
        this.touch(msg.player);
        return;
      }
      case "pad_guess": {
        const pad = this.pad(msg.player);
        if (pad.question !== msg.question) return;
        Object.assign(pad, { read: msg.read, confidence: msg.confidence });
        this.touch(msg.player);
        return;
      }
      case "pad_graded": {
        const pad = this.pad(msg.player);
        pad.graded = { correct: !!msg.correct, answer: msg.answer, expected: msg.expected, prompt: pad.prompt };
        pad.score = msg.score;
        this.touch(msg.player);
        return;
      }
      case "lesson_ended":
        this.close();
        this.onEnded("ended");
        return;
      case "error":
        if (msg.request === "host_lesson" && !this.hosted) { this.close(); this.onRefused(msg); return; }
        if (msg.code === "replaced") return;   // the close (4001) says it
        toast(errorText(msg));
        return;
      default:
        return;
    }
    this.render();
  }

  progress(p) {
    for (const r of p.racers || []) {
      const pad = this.pad(r.player_id);
      pad.score = r.score;
      pad.status = r.status;
      this.touch(r.player_id);
    }
  }

  pad(id) {
    let pad = this.pads.get(id);
    if (!pad) {
      pad = { question: null, prompt: null, strokes: [], read: null, confidence: null, graded: null, score: 0, status: null };
      this.pads.set(id, pad);
    }
    return pad;
  }

  /** A pad changed: its card is drawn again at the next frame (many batches, one paint). */
  touch(id) {
    this.dirty.add(id);
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        for (const dirty of this.dirty) this.paintCard(dirty);
        this.dirty.clear();
      });
    }
  }

  relabel() { this.render(); }

  racers() {
    return this.room ? this.room.members : [];
  }

  displayName(member, index) {
    return this.hideNames ? t("teacher.pupilN", { n: index + 1 }) : member.name;
  }

  render() {
    if (this.closed) return;
    const { className } = this.setup;
    $("lesson-title").textContent = className;
    $("lesson-code").textContent = this.code || "…";
    const room = this.room, phase = room ? room.phase : "lobby", paused = !!(room && room.paused);
    $("l-start").hidden = phase !== "lobby";
    $("l-pause").hidden = phase !== "running" || paused;
    $("l-resume").hidden = !(phase === "running" && paused);
    $("l-stop").hidden = phase !== "running";
    $("l-next").hidden = phase !== "finished";
    $("l-lock").setAttribute("aria-pressed", String(this.locked));
    $("l-names").setAttribute("aria-pressed", String(this.hideNames));
    const members = this.racers();
    const status = [];
    if (phase === "lobby") status.push(t("teacher.status.lobby", { n: members.length }));
    else if (phase === "countdown") status.push(t("teacher.status.countdown"));
    else if (phase === "running") status.push(paused ? t("teacher.status.paused") : t("teacher.status.running", { n: members.length }));
    else if (phase === "finished") {
      const first = this.standings && this.standings.entries && this.standings.entries[0];
      const winner = first && members.findIndex((m) => m.player_id === first.player_id);
      const name = first ? (winner >= 0 ? this.displayName(members[winner], winner) : first.name) : null;
      status.push(name ? t("teacher.status.finished", { round: room.round, winner: name }) : t("teacher.status.finishedNobody", { round: room.round }));
    }
    if (this.locked) status.push(t("teacher.locked"));
    if (this.kicked.length && !this.hideNames) status.push(t("teacher.kicked", { names: this.kicked.join(", ") }));
    $("lesson-status").textContent = status.join(" · ");
    $("wall-empty").hidden = members.length > 0;
    const wall = $("wall");
    const cards = new Map([...wall.children].map((li) => [li.dataset.player, li]));
    const ordered = members.map((m, i) => cards.get(m.player_id) || this.newCard(m.player_id));
    wall.replaceChildren(...ordered);
    members.forEach((m) => this.paintCard(m.player_id));
  }

  newCard(id) {
    const li = document.createElement("li");
    li.className = "pad-card";
    li.dataset.player = id;
    const head = document.createElement("div");
    head.className = "pad-head";
    head.append(textEl("span", "pad-name"), textEl("strong", "pad-score"));
    const kick = textEl("button", "link pad-kick", "×");
    kick.type = "button";
    kick.addEventListener("click", () => {
      const member = this.racers().find((m) => m.player_id === id);
      const name = member ? member.name : id;
      if (confirm(t("teacher.confirmKick", { name }))) this.link.send({ type: "lesson", action: "kick", player: id });
    });
    head.append(kick);
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "pad-drawing");
    svg.setAttribute("role", "img");
    const foot = document.createElement("div");
    foot.className = "pad-foot";
    foot.append(textEl("p", "pad-read"), textEl("p", "pad-graded"));
    li.append(head, textEl("p", "pad-prompt"), svg, foot);
    return li;
  }

  paintCard(id) {
    const li = [...$("wall").children].find((el) => el.dataset.player === id);
    if (!li) return;
    const members = this.racers();
    const index = members.findIndex((m) => m.player_id === id);
    const member = members[index];
    const pad = this.pad(id);
    const name = member ? this.displayName(member, index) : id;
    li.querySelector(".pad-name").textContent = name;
    li.querySelector(".pad-score").textContent = String(pad.score ?? 0);
    li.querySelector(".pad-kick").setAttribute("aria-label", t("teacher.kick", { name }));
    li.dataset.away = String(!!member && !member.connected);
    li.dataset.done = String(pad.status === "finished" || pad.status === "completed");
    const game = this.room ? this.room.game : this.setup.game;
    const kind = kindFor(game);
    li.querySelector(".pad-prompt").textContent = pad.prompt && kind.describePrompt ? kind.describePrompt(pad.prompt) : "";
    const svg = li.querySelector(".pad-drawing");
    const box = drawingBox(pad.strokes.length ? pad.strokes : [[[0, 0], [100, 120]]]);
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
    svg.setAttribute("stroke-width", String(Math.max(box.w, box.h) / 18));
    svg.setAttribute("aria-label", pad.read ? `${name}: ${t("teacher.reads", { read: pad.read })}` : name);
    paintDrawing(svg, pad.strokes);
    const read = li.querySelector(".pad-read");
    read.textContent = member && !member.connected ? t("teacher.away")
      : pad.read ? `${t("teacher.reads", { read: pad.read })} · ${t("teacher.sure", { pct: Math.round((pad.confidence || 0) * 100) })}` : "";
    const graded = li.querySelector(".pad-graded");
    const g = pad.graded;
    const describe = (answer) => (kind.describeAnswer ? kind.describeAnswer(answer, g && g.prompt) : String(answer));
    graded.textContent = !g ? "" : g.correct ? t("teacher.right", { answer: describe(g.answer) })
      : t("teacher.wrong", { answer: describe(g.answer), expected: describe(g.expected) });
    graded.dataset.correct = g ? String(g.correct) : "";
  }
}
