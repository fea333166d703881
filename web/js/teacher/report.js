// A class's report on the teacher's page (issue 46, item 4): a line per
// pupil (right, and wrong by why: unclear writing, too slow, wrong
// arithmetic), one pupil's answers with what they wrote, what was read and
// a link to the race's replay, their times tables as a heatmap, and the
// CSV. Pupils' and teachers' text goes in as text only.
import { t } from "../i18n.js";
import { kindFor } from "../kinds/index.js";
import { api } from "../net.js";
import { replayPath } from "../review/review.js";
import { drawingSvg } from "../review/thumb.js";
import { $, textEl, toast } from "../ui.js";

const KINDS = ["unclear", "slow", "arithmetic"];

function cell(tag, text, className = "") {
  return textEl(tag, className, text);
}

/** The class's lines; `onPupil(name)` opens one pupil's report. */
export async function showReport(classID, token, onFail) {
  $("report-pupil").hidden = true;
  let report;
  try { report = await api(`/api/classes/${classID}/report`, { token }); } catch (err) { onFail(err); return; }
  const body = $("report-body");
  $("report-empty").hidden = report.pupils.length > 0;
  $("report-table").hidden = report.pupils.length === 0;
  body.replaceChildren(...report.pupils.map((p) => {
    const tr = document.createElement("tr");
    const open = textEl("button", "link", p.name);
    open.type = "button";
    open.addEventListener("click", () => showPupil(classID, token, p.name, onFail));
    const name = document.createElement("th");
    name.scope = "row";
    name.append(open);
    const pct = p.answers ? Math.round((100 * p.right) / p.answers) : 0;
    tr.append(name, cell("td", String(p.answers)), cell("td", `${pct}%`), ...KINDS.map((k) => cell("td", String(p[k]), p[k] ? `kind-${k}` : "")));
    return tr;
  }));
}

async function showPupil(classID, token, name, onFail) {
  let report;
  try { report = await api(`/api/classes/${classID}/pupils/${encodeURIComponent(name)}/answers`, { token }); } catch (err) { onFail(err); return; }
  $("report-pupil").hidden = false;
  $("report-pupil-title").textContent = t("report.pupilTitle", { name });
  renderHeatmap(report.answers);
  const list = $("report-answers");
  list.replaceChildren(...report.answers.slice().reverse().map((a) => {
    const li = document.createElement("li");
    li.className = `report-answer ${a.correct ? "right" : "wrong"}`;
    const kind = kindFor(a.game);
    const prompt = kind.describePrompt ? kind.describePrompt(a.prompt) : "";
    const said = (v) => (kind.describeAnswer ? kind.describeAnswer(v, a.prompt) : String(v));
    if (Array.isArray(a.strokes) && a.strokes.length) {
      li.append(drawingSvg(a.strokes, t("report.drawing", { read: said(a.answer) })));
    } else {
      li.append(textEl("span", "report-typed", t(a.input === "keypad" ? "report.typed" : "report.tapped")));
    }
    const text = document.createElement("div");
    text.className = "report-text";
    text.append(textEl("p", "report-prompt", prompt));
    const verdict = a.correct ? t("report.right", { answer: said(a.answer) })
      : t("report.wrong", { answer: said(a.answer), expected: said(a.expected) });
    text.append(textEl("p", "report-verdict", verdict));
    const details = [`${(a.time_ms / 1000).toFixed(1)} s`];
    if (a.confidence != null) details.push(t("report.sure", { pct: Math.round(a.confidence * 100) }));
    if (a.choice) details.push(t("report.choice"));
    text.append(textEl("p", "report-details muted", details.join(" · ")));
    if (a.wrong_kind) text.append(textEl("p", `report-kind kind-${a.wrong_kind}`, t(`report.kind.${a.wrong_kind}`)));
    const path = replayPath(a.race);
    if (path) {
      const link = textEl("a", "report-replay", t("report.replay"));
      link.href = path;
      text.append(link);
    }
    li.append(text);
    return li;
  }));
  $("report-pupil-title").scrollIntoView({ block: "start" });
}

/** Times tables (a × b) as a grid: each fact's share of right answers, both ways round. */
function renderHeatmap(answers) {
  const facts = new Map();
  let size = 10;
  for (const a of answers) {
    const p = a.prompt;
    if (!p || (p.operation !== "*" && p.operation !== "×") || !Number.isInteger(p.lhs) || !Number.isInteger(p.rhs)) continue;
    if (p.lhs < 1 || p.rhs < 1 || p.lhs > 12 || p.rhs > 12) continue;
    size = Math.max(size, p.lhs, p.rhs);
    const key = `${Math.min(p.lhs, p.rhs)}x${Math.max(p.lhs, p.rhs)}`;
    const f = facts.get(key) || { right: 0, all: 0 };
    f.all += 1;
    if (a.correct) f.right += 1;
    facts.set(key, f);
  }
  const table = $("report-heatmap");
  $("report-heatmap-box").hidden = facts.size === 0;
  if (!facts.size) { table.replaceChildren(); return; }
  const head = document.createElement("tr");
  head.append(cell("th", "×"), ...Array.from({ length: size }, (_, i) => cell("th", String(i + 1))));
  const rows = Array.from({ length: size }, (_, r) => {
    const tr = document.createElement("tr");
    const th = cell("th", String(r + 1));
    th.scope = "row";
    tr.append(th);
    for (let c = 1; c <= size; c += 1) {
      const f = facts.get(`${Math.min(r + 1, c)}x${Math.max(r + 1, c)}`);
      const td = cell("td", f ? `${f.right}/${f.all}` : "");
      td.dataset.level = !f ? "none" : f.right === f.all ? "good" : f.right === 0 ? "bad" : "mixed";
      td.title = f ? t("report.fact", { a: r + 1, b: c, right: f.right, all: f.all }) : "";
      tr.append(td);
    }
    return tr;
  });
  table.replaceChildren(head, ...rows);
}

/** The CSV, fetched with the teacher's token and saved as a file. */
export async function downloadCSV(classID, className, token) {
  try {
    const res = await fetch(`/api/classes/${classID}/report.csv`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(res.statusText);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = `${className.replace(/[^\p{L}\p{N} _-]/gu, "").trim() || "class"}-report.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) {
    toast(t("teacher.err.generic", { message: err.message }));
  }
}

