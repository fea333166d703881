// A kids' prompt's `picture` (docs/protocol.md, "question") drawn as one
// SVG from the things in art.js, with words for screen readers. Scenes
// whose pictures are the options themselves (colours, odd one out) draw
// nothing here: the option buttons carry them.
import { has, t } from "../i18n.js";
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
function many(item) {
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
  count(g, p) {
    const item = (p.items || [])[0] || {};
    const n = clampN(count(item));
    const box = grid(g, item, n, 0, 0, 100, colsFor(n));
    return { w: box.w, h: box.h, label: many(item) };
  },
  compare(g, p) {
    const [a = {}, b = {}] = p.groups || [];
    let x = 0, h = 0;
    const labels = [];
    [a, b].forEach((item, i) => {
      const n = clampN(count(item));
      const cols = Math.min(5, Math.max(2, colsFor(n)));
      const inner = svgEl("g", { transform: `translate(${x + 20} 70)` });
      const box = grid(inner, item, n, 0, 0, 80, cols);
      const w = Math.max(box.w, 160) + 40;
      g.append(svgEl("rect", { x, y: 0, width: w, height: box.h + 90, rx: 18, fill: "#ffffff", stroke: "currentColor", "stroke-width": 5 }));
      sign(g, i === 0 ? "A" : "B", x + w / 2, 36, 48);
      g.append(inner);
      labels.push(t("kids.box", { box: i === 0 ? "A" : "B", what: many(item) }));
      x += w + 40;
      h = Math.max(h, box.h + 90);
    });
    return { w: x - 40, h, label: labels.join("; ") };
  },
  positions(g, p) {
    const spots = { top: [100, 0, 100], under: [100, 200, 100], left: [0, 100, 100], right: [200, 100, 100], front: [125, 150, 90], behind: [70, 55, 80] };
    const items = (p.items || []).filter((i) => i && spots[i.place]);
    const back = items.filter((i) => i.place === "behind");
    const rest = items.filter((i) => i.place !== "behind");
    const put = (i) => { const [x, y, s] = spots[i.place]; g.append(thingGroup(i.thing, { x, y, size: s, colour: i.colour })); };
    back.forEach(put);
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

/**
 * The picture of a prompt as an <svg role="img"> labelled in words, or null
 * when the scene draws nothing of its own (its options are the pictures).
 */
export function renderPicture(picture) {
  const draw = picture && SCENES[picture.scene];
  if (!draw) return null;
  const g = svgEl("g");
  const { w, h, label } = draw(g, picture);
  const pad = 10;
  const svg = svgEl("svg", {
    viewBox: `${-pad} ${-pad} ${Math.max(1, w) + 2 * pad} ${Math.max(1, h) + 2 * pad}`,
    class: `kid-picture scene-${picture.scene}`, role: "img", "aria-label": label,
  });
  svg.dataset.scene = picture.scene;
  svg.append(g);
  return svg;
}
