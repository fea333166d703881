// The kids' things and colours as SVG, drawn here (no image files, no
// network): one small picture per thing of the rules' fixed list
// (docs/rules.md, "Kids' exercises"), in a 100×100 box. A thing's main part
// takes the colour a prompt gives it ("$" below); the rest keeps its own,
// except where a prompt paints the thing: then every other coloured part
// (an accent, `data-accent`) is a darker ("D") or lighter ("L") shade of the
// painted colour, so the thing shows one colour only. (Issue 45: every house
// had a red roof, so "Which one is red?" had three answers; a yellow
// flower's centre, a green apple's leaf, a tree's brown trunk the same.)

const NS = "http://www.w3.org/2000/svg";

/** The ten colours of the rules, chosen to read apart on white and on the cards. */
export const COLOURS = {
  red: "#d7263d", orange: "#f77f00", yellow: "#fcbf1e", green: "#2a9d3f", blue: "#1f6fd1",
  purple: "#7b3fb5", pink: "#f06eaa", brown: "#8a5a2b", black: "#1b1b1b", white: "#ffffff",
};

const INK = "#2b2b2b";

/** Each thing: its usual colour and its shapes ([tag, attributes]); "$" is the main colour. */
const THINGS = {
  apple: ["red", [
    ["path", { d: "M50 30c-14-10-36-4-36 22 0 22 16 40 28 40 4 0 6-2 8-2s4 2 8 2c12 0 28-18 28-40 0-26-22-32-36-22z", fill: "$" }],
    ["path", { d: "M50 30c0-8 2-14 6-20", stroke: "#5b3a1a", "stroke-width": 4, fill: "none", "stroke-linecap": "round", "data-accent": "D" }],
    ["path", { d: "M54 18c8-8 20-6 22-2-6 6-16 6-22 2z", fill: "#2a9d3f", "data-accent": "D" }],
  ]],
  banana: ["yellow", [
    ["path", { d: "M18 30c4 34 34 52 66 40 4-2 4-8-2-8-26 4-46-10-54-34-2-6-10-6-10 2z", fill: "$", stroke: "#a07800", "stroke-width": 2 }],
    ["path", { d: "M16 28l-4-8 8-2z", fill: "#5b3a1a", "data-accent": "D" }],
  ]],
  pear: ["green", [
    ["path", { d: "M50 18c-10 0-12 12-14 24-2 10-16 16-16 30 0 14 14 22 30 22s30-8 30-22c0-14-14-20-16-30-2-12-4-24-14-24z", fill: "$" }],
    ["path", { d: "M50 18v-10", stroke: "#5b3a1a", "stroke-width": 4, "stroke-linecap": "round", "data-accent": "D" }],
    ["path", { d: "M52 12c6-6 16-4 18 0-6 4-14 4-18 0z", fill: "#2a9d3f", "data-accent": "D" }],
  ]],
  strawberry: ["red", [
    ["path", { d: "M50 92c-18-10-34-34-32-52 2-12 14-14 32-14s30 2 32 14c2 18-14 42-32 52z", fill: "$" }],
    ["path", { d: "M30 24l10 8 10-12 10 12 10-8-4 12H34z", fill: "#2a9d3f", "data-accent": "D" }],
    ["g", { fill: "#fcf3c0", "data-accent": "L" }, [["circle", { cx: 36, cy: 46, r: 2 }], ["circle", { cx: 50, cy: 44, r: 2 }], ["circle", { cx: 64, cy: 46, r: 2 }],
      ["circle", { cx: 42, cy: 60, r: 2 }], ["circle", { cx: 58, cy: 60, r: 2 }], ["circle", { cx: 50, cy: 74, r: 2 }]]],
  ]],
  carrot: ["orange", [
    ["path", { d: "M38 30c8-4 20 0 22 8L54 92c-2 4-6 4-8 0L30 40c-2-4 2-8 8-10z", fill: "$" }],
    ["path", { d: "M46 30c-6-12-4-20 0-24M50 30c0-10 4-18 10-20M44 32c-10-6-16-8-22-6", stroke: "#2a9d3f", "stroke-width": 5, fill: "none", "stroke-linecap": "round", "data-accent": "D" }],
  ]],
  cat: ["orange", [
    ["path", { d: "M22 40l4-28 18 16h12l18-16 4 28c4 8 4 16 0 24-6 16-18 24-28 24s-22-8-28-24c-4-8-4-16 0-24z", fill: "$", stroke: INK, "stroke-width": 2 }],
    ["circle", { cx: 38, cy: 50, r: 5, fill: INK }], ["circle", { cx: 62, cy: 50, r: 5, fill: INK }],
    ["path", { d: "M46 62h8l-4 5z", fill: "#f06eaa", "data-accent": "D" }],
    ["path", { d: "M20 60h18M20 68l18-4M80 60H62M80 68l-18-4", stroke: INK, "stroke-width": 2 }],
  ]],
  dog: ["brown", [
    ["ellipse", { cx: 50, cy: 54, rx: 28, ry: 30, fill: "$", stroke: INK, "stroke-width": 2 }],
    ["ellipse", { cx: 20, cy: 46, rx: 10, ry: 22, fill: "#5b3a1a", transform: "rotate(15 20 46)", "data-accent": "D" }],
    ["ellipse", { cx: 80, cy: 46, rx: 10, ry: 22, fill: "#5b3a1a", transform: "rotate(-15 80 46)", "data-accent": "D" }],
    ["circle", { cx: 40, cy: 48, r: 5, fill: INK }], ["circle", { cx: 60, cy: 48, r: 5, fill: INK }],
    ["ellipse", { cx: 50, cy: 66, rx: 8, ry: 6, fill: INK }],
  ]],
  duck: ["yellow", [
    ["ellipse", { cx: 52, cy: 66, rx: 34, ry: 20, fill: "$", stroke: "#a07800", "stroke-width": 2 }],
    ["circle", { cx: 34, cy: 36, r: 16, fill: "$", stroke: "#a07800", "stroke-width": 2 }],
    ["path", { d: "M18 38l-14 4 14 4z", fill: "#f77f00", "data-accent": "D" }],
    ["circle", { cx: 30, cy: 32, r: 3, fill: INK }],
  ]],
  fish: ["blue", [
    ["path", { d: "M14 50c14-20 44-24 62 0-18 24-48 20-62 0z", fill: "$", stroke: INK, "stroke-width": 2 }],
    ["path", { d: "M74 50l18-16v32z", fill: "$", stroke: INK, "stroke-width": 2 }],
    ["circle", { cx: 30, cy: 46, r: 4, fill: INK }],
  ]],
  rabbit: ["white", [
    ["ellipse", { cx: 38, cy: 24, rx: 8, ry: 20, fill: "$", stroke: INK, "stroke-width": 2 }],
    ["ellipse", { cx: 62, cy: 24, rx: 8, ry: 20, fill: "$", stroke: INK, "stroke-width": 2 }],
    ["circle", { cx: 50, cy: 62, r: 28, fill: "$", stroke: INK, "stroke-width": 2 }],
    ["circle", { cx: 40, cy: 56, r: 4, fill: INK }], ["circle", { cx: 60, cy: 56, r: 4, fill: INK }],
    ["circle", { cx: 50, cy: 68, r: 4, fill: "#f06eaa", "data-accent": "D" }],
  ]],
  bird: ["red", [
    ["ellipse", { cx: 50, cy: 56, rx: 30, ry: 24, fill: "$", stroke: INK, "stroke-width": 2 }],
    ["path", { d: "M40 56c10 2 20 10 22 20-14 0-24-8-22-20z", fill: "#00000033" }],
    ["path", { d: "M78 50l16 6-16 6z", fill: "#f77f00", "data-accent": "D" }],
    ["circle", { cx: 66, cy: 48, r: 4, fill: INK }],
    ["path", { d: "M40 80l-4 12M56 80l4 12", stroke: INK, "stroke-width": 3 }],
  ]],
  ball: ["blue", [
    ["circle", { cx: 50, cy: 50, r: 38, fill: "$", stroke: INK, "stroke-width": 2 }],
    ["path", { d: "M12 50h76M50 12c-16 16-16 60 0 76M50 12c16 16 16 60 0 76", stroke: "#ffffffcc", "stroke-width": 4, fill: "none", "data-accent": "L" }],
  ]],
  car: ["red", [
    ["path", { d: "M8 64V52l14-4 10-16h36l12 16 12 4v12z", fill: "$", stroke: INK, "stroke-width": 2 }],
    ["path", { d: "M36 36h12v12H28zM54 36h12l8 12H54z", fill: "#cde8ff", "data-accent": "L" }],
    ["circle", { cx: 28, cy: 66, r: 10, fill: INK }], ["circle", { cx: 72, cy: 66, r: 10, fill: INK }],
  ]],
  star: ["yellow", [
    ["path", { d: "M50 8l12 28 30 2-23 20 8 30-27-17-27 17 8-30L8 38l30-2z", fill: "$", stroke: "#a07800", "stroke-width": 2, "stroke-linejoin": "round" }],
  ]],
  house: ["blue", [
    ["path", { d: "M20 48h60v44H20z", fill: "$", stroke: INK, "stroke-width": 2 }],
    ["path", { d: "M10 50L50 14l40 36z", fill: "#d7263d", stroke: INK, "stroke-width": 2, "data-accent": "D" }],
    ["path", { d: "M42 66h16v26H42z", fill: "#8a5a2b", "data-accent": "D" }],
    ["path", { d: "M26 56h12v10H26zM62 56h12v10H62z", fill: "#fcf3c0", "data-accent": "L" }],
  ]],
  tree: ["green", [
    ["path", { d: "M44 60h12v32H44z", fill: "#8a5a2b", "data-accent": "D" }],
    ["circle", { cx: 50, cy: 40, r: 30, fill: "$", stroke: INK, "stroke-width": 2 }],
  ]],
  flower: ["pink", [
    ["path", { d: "M50 56v38", stroke: "#2a9d3f", "stroke-width": 5, "data-accent": "D" }],
    ["path", { d: "M50 80c8-10 18-10 22-8-4 8-14 10-22 8z", fill: "#2a9d3f", "data-accent": "D" }],
    ["g", { fill: "$", stroke: INK, "stroke-width": 2 }, [
      ["circle", { cx: 50, cy: 18, r: 12 }], ["circle", { cx: 68, cy: 32, r: 12 }], ["circle", { cx: 62, cy: 52, r: 12 }],
      ["circle", { cx: 38, cy: 52, r: 12 }], ["circle", { cx: 32, cy: 32, r: 12 }]]],
    ["circle", { cx: 50, cy: 36, r: 9, fill: "#fcbf1e", "data-accent": "D" }],
  ]],
};

export const THING_NAMES = Object.keys(THINGS);

export function svgEl(tag, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** `hex` (#rrggbb) mixed with `to` (#rrggbb) by `t` (0…1). */
function mix(hex, to, t) {
  const p = (h, i) => parseInt(h.slice(1 + 2 * i, 3 + 2 * i), 16);
  const c = [0, 1, 2].map((i) => Math.round(p(hex, i) * (1 - t) + p(to, i) * t));
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** The shades of a painted colour its accents take: darker (lighter for a very dark colour), and lighter. */
export function shadesOf(main) {
  const p = (i) => parseInt(main.slice(1 + 2 * i, 3 + 2 * i), 16);
  const light = (0.299 * p(0) + 0.587 * p(1) + 0.114 * p(2)) / 255;
  return {
    D: light < 0.25 ? mix(main, "#ffffff", 0.38) : light > 0.9 ? mix(main, "#000000", 0.3) : mix(main, "#000000", 0.32),
    L: light > 0.9 ? mix(main, "#000000", 0.12) : mix(main, "#ffffff", 0.55),
  };
}

function build(shapes, main, painted) {
  const shades = painted ? shadesOf(main) : null;
  return shapes.map(([tag, attrs, children]) => {
    const a = { ...attrs };
    // A painted thing's main part: its outline too, in its own darker shade (a red star's edge is not yellow).
    if (shades && a.fill === "$" && a.stroke && a.stroke !== "$" && a.stroke !== INK) a.stroke = shades.D;
    for (const k of ["fill", "stroke"]) if (a[k] === "$") a[k] = main;
    // A painted thing's accents in shades of its colour (children inherit the group's fill).
    if (shades && a["data-accent"]) for (const k of ["fill", "stroke"]) if (a[k] && a[k] !== "none" && a[k] !== INK) a[k] = shades[a["data-accent"]];
    const el = svgEl(tag, a);
    if (children) el.append(...build(children, main, painted));
    return el;
  });
}

/**
 * A <g> drawing `thing` in the box (x, y, size, size), in `colour` when
 * given. A thing the list does not know is a grey circle, so a newer server
 * still shows something.
 */
export function thingGroup(thing, { x = 0, y = 0, size = 100, colour = null } = {}) {
  const [usual, shapes] = THINGS[thing] || ["white", [["circle", { cx: 50, cy: 50, r: 36, fill: "#9a9a9a" }]]];
  const main = COLOURS[colour] || COLOURS[usual];
  const g = svgEl("g", { transform: `translate(${x} ${y}) scale(${size / 100})`, "data-thing": thing });
  if (colour) g.setAttribute("data-colour", colour);
  g.append(...build(shapes, main, !!COLOURS[colour]));
  return g;
}

/** An <svg> of one thing, hidden from screen readers (its button or picture carries the words). */
export function thingIcon(thing, colour = null, className = "kid-icon") {
  const svg = svgEl("svg", { viewBox: "0 0 100 100", class: className, "aria-hidden": "true", focusable: "false" });
  svg.append(thingGroup(thing, { colour }));
  return svg;
}
