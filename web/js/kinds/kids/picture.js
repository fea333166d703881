// A kids' prompt's `picture` (docs/protocol.md, "question") drawn as one
// SVG from the things in art.js, with words for screen readers. Scenes
// whose pictures are the options themselves (colours, odd one out, and the
// boxes of more or less, equal in size so that no box's width tells its
// count) draw nothing here: the option buttons carry them (`optionPicture`).
// A picture can carry the right answer on it (`mark`), for the feedback a
// child who cannot read yet understands (feedback.js) and the review.
import { has, t } from "../../i18n.js";
import { svgEl, thingGroup } from "./art.js";

const SIGNS = { add: "+", subtract: "−", multiply: "×", divide: "÷" };

/** A `numbers` picture as it is written: `9 + 1 = ?`. */
export function numbersText(p) {
  return `${p.left} ${SIGNS[p.op] || "?"} ${p.right} = ?`;
}

/** A thing's name in the page's language; with a colour, "red ball". */
export function thingName(thing, colour = null) {
  const name = t(`kids.thing.${thing}`);
  return colour ? t("kids.coloured", { colour: t(`kids.colour.${colour}`), thing: name }) : name;
}

/** `n` things, e.g. "5 apples" / "5 个苹果". */
export function many(item) {
  const plural = item.count !== 1 && has(`kids.thing.${item.thing}.many`);
  const name = plural ? t(`kids.thing.${item.thing}.many`) : t(`kids.thing.${item.thing}`);
  const thing = item.colour ? t("kids.coloured", { colour: t(`kids.colour.${item.colour}`), thing: name }) : name;
  return t("kids.many", { n: item.count, thing });
}

const count = (o) => (typeof o === "number" ? o : (o && Number.isInteger(o.count) ? o.count : 0));
const clampN = (n) => Math.max(0, Math.min(40, n));

/** `n` copies of a thing in rows of `cols`, at (x, y), each `size` wide; returns the box's width and height. */
function grid(parent, item, n, x, y, size, cols) {
  const c = Math.max(1, Math.min(cols, n));
  for (let i = 0; i < n; i += 1) {
    parent.append(thingGroup(item.thing, { x: x + (i % c) * size, y: y + Math.floor(i / c) * size, size: size * 0.9, colour: item.colour }));
  }
  return { w: c * size, h: Math.max(1, Math.ceil(n / c)) * size };
}

const colsFor = (n) => (n <= 5 ? n : Math.ceil(Math.sqrt(n * 1.6)));

function sign(parent, text, x, y, size = 60) {
  const el = svgEl("text", { x, y, "font-size": size, "font-weight": 800, "text-anchor": "middle", "dominant-baseline": "central", fill: "currentColor" });
  el.textContent = text;
  parent.append(el);
}

/** Draws a group at the right of `x`, returns its right edge. */
function groupAt(g, item, n, x, size = 100) {
  const cols = colsFor(n);
  const box = grid(g, item, n, x, 0, size, cols);
  return { right: x + box.w, h: box.h };
}

const SCENES = {
  count(g, p, mark) {
    const item = (p.items || [])[0] || {};
    const n = clampN(count(item));
    const cols = colsFor(n);
    const box = grid(g, item, n, 0, 0, 100, cols);
    // The answer on the picture: each thing counted, 1, 2, 3…
    if (mark) for (let i = 0; i < n; i += 1) badge(g, (i % cols) * 100 + 80, Math.floor(i / cols) * 100 + 14, String(i + 1));
    return { w: box.w, h: box.h, label: many(item) };
  },
  positions(g, p, mark) {
    const spots = { top: [100, 0, 100], under: [100, 200, 100], left: [0, 100, 100], right: [200, 100, 100], front: [125, 150, 90], behind: [70, 55, 80] };
    const items = (p.items || []).filter((i) => i && spots[i.place]);
    const back = items.filter((i) => i.place === "behind");
    const rest = items.filter((i) => i.place !== "behind");
    const put = (i) => {
      const [x, y, s] = spots[i.place];
      if (mark && mark.value === i.thing) ring(g, x + s / 2, y + s / 2, s * 0.58, "right");
      else if (mark && mark.tapped === i.thing) ring(g, x + s / 2, y + s / 2, s * 0.58, "tapped");
      g.append(thingGroup(i.thing, { x, y, size: s, colour: i.colour }));
    };
    back.forEach(put);
    // The thing every place is said of: lit from behind, so "under" is "under the tree" (issue 45).
    const halo = svgEl("circle", { cx: 150, cy: 150, r: 62, fill: "#fff3c4", stroke: "#e0b400", "stroke-width": 4, "stroke-dasharray": "8 6" });
    halo.dataset.reference = String(p.reference);
    g.append(halo);
    g.append(thingGroup(p.reference, { x: 100, y: 100, size: 100 }));
    rest.forEach(put);
    const words = items.map((i) => t("kids.placed", { thing: thingName(i.thing, i.colour), place: t(`kids.place.${i.place}`), ref: thingName(p.reference) }));
    return { w: 300, h: 300, label: words.join("; ") };
  },
  sum(g, p) {
    const l = clampN(count(p.left)), r = clampN(count(p.right));
    const a = groupAt(g, p.left, l, 0);
    sign(g, "+", a.right + 40, 50);
    const b = groupAt(g, p.right, r, a.right + 80);
    return { w: b.right, h: Math.max(a.h, b.h), label: t("kids.pic.sum", { a: many({ ...p.left, count: l }), b: many({ ...p.right, count: r }) }) };
  },
  take_away(g, p) {
    const l = clampN(count(p.left)), r = Math.min(l, clampN(count(p.right)));
    const cols = colsFor(l);
    const box = grid(g, p.left, l, 0, 0, 100, cols);
    for (let i = l - r; i < l; i += 1) {
      const x = (i % cols) * 100, y = Math.floor(i / cols) * 100;
      g.append(svgEl("path", { d: `M${x + 8} ${y + 8}L${x + 84} ${y + 84}M${x + 84} ${y + 8}L${x + 8} ${y + 84}`, stroke: "#d7263d", "stroke-width": 9, "stroke-linecap": "round" }));
    }
    return { w: box.w, h: box.h, label: t("kids.pic.takeAway", { a: many({ ...p.left, count: l }), n: r }) };
  },
  groups(g, p) {
    const per = clampN(count(p.left)), n = Math.max(1, Math.min(6, count(p.right)));
    let x = 0, h = 0;
    for (let i = 0; i < n; i += 1) {
      const inner = svgEl("g", { transform: `translate(${x + 10} 10)` });
      const box = grid(inner, p.left, per, 0, 0, 80, 3);
      g.append(svgEl("rect", { x, y: 0, width: box.w + 20, height: box.h + 20, rx: 16, fill: "none", stroke: "currentColor", "stroke-width": 4, "stroke-dasharray": "10 8" }), inner);
      x += box.w + 40;
      h = Math.max(h, box.h + 20);
    }
    return { w: x - 20, h, label: t("kids.pic.groups", { n, what: many({ ...p.left, count: per }) }) };
  },
  share(g, p) {
    const l = clampN(count(p.left)), r = Math.max(1, Math.min(6, count(p.right)));
    const a = groupAt(g, p.left, l, 0, 80);
    sign(g, "→", a.right + 45, 40);
    const who = typeof p.right === "object" && p.right ? p.right : { thing: "rabbit" };
    const b = grid(g, who, r, a.right + 90, 0, 100, 3);
    return { w: a.right + 90 + b.w, h: Math.max(a.h, b.h), label: t("kids.pic.share", { a: many({ ...p.left, count: l }), b: many({ ...who, count: r }) }) };
  },
  numbers(g, p) {
    const text = numbersText(p);
    sign(g, text, text.length * 24, 50, 80);
    return { w: text.length * 48, h: 100, label: t(`kids.pic.numbers.${p.op}`, { a: p.left, b: p.right }) };
  },
};

/** A ring around (cx, cy): "right" (the answer) or "tapped" (a wrong tap). */
function ring(parent, cx, cy, r, kind) {
  const c = svgEl("circle", { cx, cy, r, fill: kind === "right" ? "#e3f6e8" : "#fde3e3",
    stroke: kind === "right" ? "#1e7b34" : "#b3261e", "stroke-width": 7, class: `mark mark-${kind}` });
  c.dataset.mark = kind;
  parent.append(c);
}

/** A small numbered disc (a thing counted). */
function badge(parent, cx, cy, text) {
  const b = svgEl("g", { class: "mark mark-count" });
  b.dataset.mark = "count";
  b.append(svgEl("circle", { cx, cy, r: 17, fill: "#1e7b34", stroke: "#ffffff", "stroke-width": 3 }));
  const n = svgEl("text", { x: cx, y: cy + 1, "font-size": 22, "font-weight": 800, "text-anchor": "middle", "dominant-baseline": "central", fill: "#ffffff" });
  n.textContent = text;
  b.append(n);
  parent.append(b);
}

/**
 * One box of "more or less" (`groups[i]`, its letter above): `cols` columns
 * for both boxes, and the same rows, so that both are the same size and only
 * what is in them differs (issue 45: a box as wide as its count gave the
 * answer away). An <svg> for an option button, hidden from screen readers
 * (the button says "Box A").
 */
export function compareBox(item, letter, cols, rows) {
  const size = 80;
  const w = cols * size + 40, h = rows * size + 90;
  const svg = svgEl("svg", { viewBox: `-6 -6 ${w + 12} ${h + 12}`, class: "kid-box", "aria-hidden": "true", focusable: "false" });
  svg.append(svgEl("rect", { x: 0, y: 0, width: w, height: h, rx: 18, fill: "#ffffff", stroke: "currentColor", "stroke-width": 5 }));
  sign(svg, letter, w / 2, 36, 48);
  const inner = svgEl("g", { transform: `translate(20 70)` });
  grid(inner, item, clampN(count(item)), 0, 0, size, cols);
  svg.append(inner);
  return svg;
}

/** The columns and rows both boxes of a compare picture share. */
export function compareLayout(picture) {
  const [a = {}, b = {}] = (picture && picture.groups) || [];
  const most = Math.max(clampN(count(a)), clampN(count(b)), 1);
  const cols = Math.min(5, Math.max(2, colsFor(most)));
  return { cols, rows: Math.max(1, Math.ceil(most / cols)), groups: [a, b] };
}

/**
 * The picture of a prompt as an <svg role="img"> labelled in words, or null
 * when the scene draws nothing of its own (its options are the pictures).
 * `mark` ({value, tapped}): the right answer shown on it (the things
 * counted, the thing at the place asked ringed), for the feedback.
 */
export function renderPicture(picture, mark = null) {
  const draw = picture && SCENES[picture.scene];
  if (!draw) return null;
  const g = svgEl("g");
  const { w, h, label } = draw(g, picture, mark);
  const pad = 10;
  const svg = svgEl("svg", {
    viewBox: `${-pad} ${-pad} ${Math.max(1, w) + 2 * pad} ${Math.max(1, h) + 2 * pad}`,
    class: `kid-picture scene-${picture.scene}`, role: "img", "aria-label": label,
  });
  svg.dataset.scene = picture.scene;
  svg.append(g);
  return svg;
}
