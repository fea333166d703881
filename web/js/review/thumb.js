// A drawing as a small SVG picture: each stroke one path through its
// points ([x, y, t], the pad's CSS pixels), fitted to the drawing's box.
// `until` draws only the points made by then (the replay draws a drawing
// back as it was written); the box stays the whole drawing's, so nothing
// moves while it grows.

const NS = "http://www.w3.org/2000/svg";

/** The box around every point, with a margin; at least as wide as tall (digits are tall). */
export function drawingBox(strokes) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const s of strokes) for (const [x, y] of s) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  if (!Number.isFinite(x0)) return { x: 0, y: 0, w: 1, h: 1 };
  const h = Math.max(20, y1 - y0), w = Math.max(h * 0.8, x1 - x0);
  const m = Math.max(w, h) * 0.12;
  return { x: (x0 + x1 - w) / 2 - m, y: (y0 + y1 - h) / 2 - m, w: w + 2 * m, h: h + 2 * m };
}

/** Usable strokes only: arrays of [x, y, t] with finite numbers (a stored drawing comes from the network). */
export function cleanStrokes(strokes) {
  if (!Array.isArray(strokes)) return [];
  return strokes.filter(Array.isArray)
    .map((s) => s.filter((p) => Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1])))
    .filter((s) => s.length > 0);
}

/** The path data of one stroke (a dot for a single point). */
function pathData(points) {
  const [x, y] = points[0];
  if (points.length === 1) return `M${x} ${y}l0.01 0`;
  return `M${x} ${y}` + points.slice(1).map(([px, py]) => `L${px} ${py}`).join("");
}

/** The paths of the points drawn by time `until` (every point when null). */
export function paintDrawing(svg, strokes, until = null) {
  svg.replaceChildren();
  for (const s of strokes) {
    const shown = until === null ? s : s.filter((p) => !Number.isFinite(p[2]) || p[2] <= until);
    if (!shown.length) continue;
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", pathData(shown));
    svg.append(path);
  }
}

/** An <svg> of a drawing, named for screen readers by `label`; the line is `1/weight` of the box (thinner when larger). */
export function drawingSvg(strokes, label, until = null, weight = 14) {
  const clean = cleanStrokes(strokes);
  const svg = document.createElementNS(NS, "svg");
  const box = drawingBox(clean);
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  svg.setAttribute("class", "drawing");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("stroke-width", String(Math.max(box.w, box.h) / weight));
  paintDrawing(svg, clean, until);
  return svg;
}
