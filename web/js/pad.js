// The drawing pad: pointer events (mouse, touch, pen) with smoothed lines.
// Strokes are streamed to the server in batches (~every 60 ms) as
// {stroke, points} pieces; the pad only draws and buffers.

// A touch this soon after a pen touched or left the pad is a resting palm.
const PALM_MS = 2000;

export class Pad {
  constructor(canvas, { onBatch, onChange, onResize, onUndo }) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.onBatch = onBatch;     // (strokeIndex, points[[x,y,t]...])
    this.onChange = onChange;   // (hasInk)
    this.onResize = onResize;   // () after the pad's size changed
    this.onUndo = onUndo;       // (strokeIndex) after a stroke was taken back
    this.strokes = [];          // [[x,y,t]...] in CSS pixels of the pad as the drawing began
    this.space = null;          // {w, h}: the pad's CSS size when the drawing began
    this.pending = [];          // [{stroke, points}]
    this.active = null;         // pointerId while drawing
    this.activeType = null;     // its pointerType
    this.penAt = -Infinity;     // when a pen last touched or left the pad (performance.now())
    this.enabled = true;
    this.t0 = performance.now();
    this.flushTimer = null;

    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", (e) => this.cancel(e));
    canvas.addEventListener("lostpointercapture", (e) => this.up(e));
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  resize() {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
    if (this.canvas.width === w && this.canvas.height === h) return;
    this.canvas.width = w;
    this.canvas.height = h;
    this.redraw();
    if (this.onResize) this.onResize();
  }

  /** CSS pixels on screen per unit of the drawing's coordinates, for the
   * pad's box `r` (its getBoundingClientRect): 1 until the pad is resized
   * mid-drawing (a phone turned, a window narrowed); then the drawing is
   * shown scaled to fit and new points join it in its own coordinates, so
   * the server keeps reading one drawing at one scale. */
  scaleIn(r) {
    return this.space ? Math.min(r.width / this.space.w, r.height / this.space.h) || 1 : 1;
  }

  /** The event's point in the drawing's coordinates; `r` is the pad's box. */
  pos(e, r) {
    const s = this.scaleIn(r);
    return [Math.round((e.clientX - r.left) / s * 10) / 10, Math.round((e.clientY - r.top) / s * 10) / 10,
      Math.round(performance.now() - this.t0)];
  }

  down(e) {
    if (!this.enabled) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    // Palm rejection: a hand resting on the screen while a pen writes
    // touches it too. A touch within PALM_MS of the pen is no stroke, and a
    // pen coming down while a touch draws takes the pad: the touch was the
    // palm, and its stroke is taken back.
    const now = performance.now();
    if (e.pointerType === "pen") this.penAt = now;
    else if (e.pointerType === "touch" && now - this.penAt < PALM_MS) return;
    if (this.active !== null) {
      if (e.pointerType !== "pen" || this.activeType !== "touch") return;
      const palm = this.active;
      this.active = null;
      try { this.canvas.releasePointerCapture(palm); } catch (_) { /* already released */ }
      this.undo();
    }
    e.preventDefault();
    this.active = e.pointerId;
    this.activeType = e.pointerType;
    try { this.canvas.setPointerCapture(e.pointerId); } catch (_) { /* synthetic pointer */ }
    const r = this.canvas.getBoundingClientRect();
    if (this.strokes.length === 0) this.space = { w: Math.max(1, r.width), h: Math.max(1, r.height) };
    const p = this.pos(e, r);
    this.strokes.push([p]);
    this.queue(this.strokes.length - 1, p);
    this.redraw();
    this.onChange(true);
  }

  move(e) {
    if (this.active !== e.pointerId) return;
    e.preventDefault();
    const events = typeof e.getCoalescedEvents === "function" ? e.getCoalescedEvents() : [];
    const r = this.canvas.getBoundingClientRect();
    for (const ev of (events.length ? events : [e])) {
      const p = this.pos(ev, r);
      const s = this.strokes[this.strokes.length - 1];
      const last = s[s.length - 1];
      if (Math.abs(p[0] - last[0]) + Math.abs(p[1] - last[1]) < 1) continue;
      s.push(p);
      this.queue(this.strokes.length - 1, p);
    }
    this.redraw();
  }

  /** A touch the browser cancels (on a tablet, often its own palm
   * rejection) was no stroke: taken back. Other pointers end as on lift. */
  cancel(e) {
    if (this.active !== e.pointerId || e.pointerType !== "touch") return this.up(e);
    this.active = null;
    this.undo();
  }

  up(e) {
    if (e.pointerType === "pen") this.penAt = performance.now();
    if (this.active !== e.pointerId) return;
    this.active = null;
    this.flush();
  }

  queue(stroke, p) {
    const last = this.pending[this.pending.length - 1];
    if (last && last.stroke === stroke) last.points.push(p);
    else this.pending.push({ stroke, points: [p] });
    if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), 60);
  }

  flush() {
    clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batches = this.pending;
    this.pending = [];
    for (const b of batches) this.onBatch(b.stroke, b.points);
  }

  get pointCount() { return this.strokes.reduce((n, s) => n + s.length, 0); }
  get hasInk() { return this.strokes.length > 0; }

  /** Takes back the last stroke (not while one is being drawn): its batches
   * still waiting are sent first, so the server takes back what it has.
   * Tells `onUndo` the stroke's number; returns it, or -1 when there was
   * nothing to take back. */
  undo() {
    if (this.active !== null || this.strokes.length === 0) return -1;
    this.flush();
    this.strokes.pop();
    const stroke = this.strokes.length;
    if (stroke === 0) this.space = null;
    this.redraw();
    if (this.onUndo) this.onUndo(stroke);
    this.onChange(stroke > 0);
    return stroke;
  }

  clear() {
    this.strokes = [];
    this.space = null;
    this.pending = [];
    this.active = null;
    clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.redraw();
    this.onChange(false);
  }

  redraw() {
    const { ctx, canvas } = this;
    const r = canvas.getBoundingClientRect();
    const dpr = canvas.width / Math.max(1, r.width || 1);
    const s = this.scaleIn(r);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(dpr * s, 0, 0, dpr * s, 0, 0);
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = getComputedStyle(canvas).color || "#0b2a4a";
    ctx.lineWidth = Math.max(6, Math.min(canvas.width / dpr, canvas.height / dpr) / 22) / s;
    for (const s of this.strokes) {
      ctx.beginPath();
      ctx.moveTo(s[0][0], s[0][1]);
      if (s.length === 1) ctx.lineTo(s[0][0] + 0.01, s[0][1]);
      // Quadratic curves through the midpoints: smooth lines from sparse points.
      for (let i = 1; i < s.length - 1; i++) {
        const mx = (s[i][0] + s[i + 1][0]) / 2, my = (s[i][1] + s[i + 1][1]) / 2;
        ctx.quadraticCurveTo(s[i][0], s[i][1], mx, my);
      }
      if (s.length > 1) ctx.lineTo(s[s.length - 1][0], s[s.length - 1][1]);
      ctx.stroke();
    }
  }
}
