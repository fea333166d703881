"""Source "templates": hand-designed templates of the common ways people write each
digit, and writers who use them (issue 43). Independent of strokes.py: its own shapes,
its own writer habits, its own motor (timing) and device (pen / finger / mouse) model.

The shapes come from how digits are taught and written: US (Zaner-Bloser, D'Nealian),
UK, German Schulausgangsschrift (a 1 with a long up-stroke flag, a 7 with a bar),
French school digits, Chinese and Japanese school digits (a slanted stick 1, an open
two-stroke 4, a 9 with a straight tail, a 7 with a hook), and adults' quick hands.
Each template is a function of a few named shape parameters (a flag's length and
angle, a loop's size, how far a loop closes, ...); a writer fixes them once (their
habit) and each drawing jitters them a little (same hand).

Two hand kinds, recorded in every style name ("1-longflag/young"):
  adult  neat to hurried: a haste in [0, 1] makes corners round, the pen fast, the
         slant larger and the shapes looser; a faint tremor.
  young  an unsteady young finger on a tablet: slow, so a tremor (5-10 Hz) and a slow
         wobble (0.6-2.5 Hz), both functions of time, put many wiggles on every
         line; many noisy touch points (a finger at 60-120 Hz, contact-centroid
         noise, a settling blob where the finger lands and a drift where it lifts);
         overshoot at corners, hesitations (speed dips), disproportionate parts
         (a huge loop, a tiny top), loops that don't close or close too far, strokes
         retraced (in the same stroke or as a fix-up stroke), strokes drawn in the
         other direction and in another order, sometimes a very big digit.

Styles whose suffix before "/" ends in "-apart" fall apart into two pieces with a
small gap (a pen lift mid-digit): a number reader may read them as two digits.

Legibility: every style was looked at on sheets (strokes and the reader's 28 x 28
rasters). The shapes a slant, a width or a wobble can turn into another digit carry
landmarks and a rule checked as drawn (a 1's flag falls 15-75 degrees below the
horizontal on a stem within 13 degrees of upright, a long flag 18-50 on one within 8;
a 7's stem leans at least 11 degrees and its bar is at least 0.22 of the height and
rises at most 22 degrees; a 6's top lies up and to the right of its loop's left side,
20 degrees from upright for a curved top, 14 for a straight one and 18 for an angular
6, so it is no 0 and no b); a drawing that breaks it is drawn again, the writer's
slant, width and tilt eased on later tries.

Interface (docs: /work/brief/sources.md): SOURCE, STYLES, make_writer(seed) -> Writer
(id, style(digit), draw(digit, rng)), make_set(n_writers, per_digit, seed).
Strokes are [[x, y, t_ms], ...] in pixels of a 400 x 400 pad, y down.

    .venv/bin/python writers_templates.py --sheet       # out/templates_sheet*.png
    .venv/bin/python writers_templates.py --time        # make_set(200, 5) timing
"""
from __future__ import annotations

import math

import numpy as np

SOURCE = "templates"
VERSION = 2  # bump when the drawings change: sources.py caches sets by it
PAD = 400.0
STEP = 0.008  # template paths are sampled every STEP digit-heights
HANDS = ("adult", "young")

# --------------------------------------------------------------------------------------
# Path builder. Template coordinates: the digit is about 1 unit tall (y = 0 top, 1 bottom,
# y down like the screen), x from about 0 to its width. Angles are screen angles in
# degrees (0 = right, 90 = down), so an increasing angle runs clockwise on the screen.


class _Path:
    __slots__ = ("parts", "corners", "n", "last")

    def __init__(self, x: float, y: float):
        self.parts = [np.array([[x, y]], dtype=np.float64)]
        self.corners: list[int] = []  # indices of points where the pen turns sharply
        self.n = 1
        self.last = (float(x), float(y))

    def _push(self, pts: np.ndarray, corner: bool) -> "_Path":
        if corner:
            self.corners.append(self.n - 1)
        self.parts.append(pts)
        self.n += len(pts)
        self.last = (float(pts[-1, 0]), float(pts[-1, 1]))
        return self

    def line(self, x, y, corner=False):
        x0, y0 = self.last
        n = max(1, int(math.hypot(x - x0, y - y0) / STEP))
        t = np.arange(1, n + 1, dtype=np.float64) / n
        return self._push(np.column_stack([x0 + (x - x0) * t, y0 + (y - y0) * t]), corner)

    def bez(self, c1, c2, end, corner=False):
        p0 = np.array(self.last)
        p1, p2, p3 = np.asarray(c1, float), np.asarray(c2, float), np.asarray(end, float)
        length = np.linalg.norm(p1 - p0) + np.linalg.norm(p2 - p1) + np.linalg.norm(p3 - p2)
        n = max(2, int(length / STEP))
        t = (np.arange(1, n + 1, dtype=np.float64) / n)[:, None]
        u = 1.0 - t
        pts = u ** 3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t ** 3 * p3
        return self._push(pts, corner)

    def arc(self, cx, cy, rx, ry, a0, a1, corner=False, shrink=0.0, tilt=0.0):
        """Elliptic arc from angle a0 to a1 (a1 > a0: clockwise on screen); shrink:
        the radius falls by that fraction towards the end (a spiral, for overlaps);
        tilt: the ellipse turned by that many degrees about its centre."""
        span = abs(a1 - a0)
        n = max(2, int(math.radians(span) * max(rx, ry) / STEP))
        a = np.radians(np.linspace(a0, a1, n + 1))
        k = 1.0 - shrink * np.linspace(0.0, 1.0, n + 1)
        ex, ey = rx * k * np.cos(a), ry * k * np.sin(a)
        if tilt:
            c, s = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))
            ex, ey = c * ex - s * ey, s * ex + c * ey
        pts = np.column_stack([cx + ex, cy + ey])
        if math.hypot(pts[0, 0] - self.last[0], pts[0, 1] - self.last[1]) > 1e-6:
            self.line(pts[0, 0], pts[0, 1], corner=corner)
            corner = False
        return self._push(pts[1:], corner)

    def array(self) -> np.ndarray:
        return np.concatenate(self.parts)


def _pt(cx, cy, rx, ry, a):
    a = math.radians(a)
    return cx + rx * math.cos(a), cy + ry * math.sin(a)


def _arc_start(cx, cy, rx, ry, a, tilt=0.0):
    ex, ey = rx * math.cos(math.radians(a)), ry * math.sin(math.radians(a))
    if tilt:
        c, s = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))
        ex, ey = c * ex - s * ey, s * ex + c * ey
    return _Path(cx + ex, cy + ey)


def _cos(d):
    return math.cos(math.radians(d))


def _sin(d):
    return math.sin(math.radians(d))


# --------------------------------------------------------------------------------------
# Templates: one function per style, p = the shape parameters (see SPECS).

# ---- 1
def _one_stick(p):
    tx, bow = p["top_dx"], p["bow"]
    return [_Path(tx, 0.0).bez((tx + bow, 0.33), (bow, 0.66), (0.0, 1.0))]


def _flag(p, x0=0.0):
    fl, fa = p["fl"], p["fa"]
    fx, fy = x0 - fl * _cos(fa), fl * _sin(fa)
    return fx, fy


def _one_flag(p):
    fx, fy = _flag(p)
    return [_Path(fx, fy).line(0.0, 0.0).line(p["bow"], 0.5, corner=True).line(0.0, 1.0)]


def _one_longflag(p):
    fx, fy = _flag(p)
    c = p["fc"]  # the flag bows below its chord (a concave up-stroke) when c > 0
    nx, ny = _sin(p["fa"]), _cos(p["fa"])  # unit normal of the chord, pointing down-right
    m1 = (fx + (0 - fx) / 3 + c * nx, fy + (0 - fy) / 3 + c * ny)
    m2 = (fx + 2 * (0 - fx) / 3 + c * nx, fy + 2 * (0 - fy) / 3 + c * ny)
    return [_Path(fx, fy).bez(m1, m2, (0.0, 0.0)).line(p["bow"], 0.5, corner=True).line(0.0, 1.0)]


def _foot(p):
    fw, fo, ft = p["fw"], p["fo"], p["ft"]
    return _Path(-fw / 2 + fo, 1.0 + ft).line(fw / 2 + fo, 1.0 - ft)


def _one_foot(p):
    return _one_stick(p) + [_foot(p)]


def _one_flagfoot(p):
    fx, fy = _flag(p)
    return [_Path(fx, fy).line(0.0, 0.0).line(0.0, 1.0, corner=True), _foot(p)]


def _one_slant(p):
    lean, bow = p["lean"], p["bow"]
    return [_Path(lean, 0.0).bez((lean * 0.67 + bow, 0.33), (lean * 0.33 + bow, 0.66), (0.0, 1.0))]


# ---- 7
def _seven_stem(path, p, w):
    bx, bow = w - p["d"], p["bow"]  # d: how far left the stem's foot lies below the corner
    dx, dy = bx - w, 1.0
    n = math.hypot(dx, dy)
    nx, ny = dy / n, -dx / n  # normal to the stem, pointing right/down
    return path.bez((w + dx / 3 + bow * nx, dy / 3 + bow * ny),
                    (w + 2 * dx / 3 + bow * nx, 2 * dy / 3 + bow * ny), (bx, 1.0), corner=True)


def _seven_plain(p):
    w = p["w"]
    return [_seven_stem(_Path(0.0, p["lift"]).line(w, 0.0), p, w)]


def _seven_crossed(p):
    w = p["w"]
    stem = _seven_stem(_Path(0.0, p["lift"]).line(w, 0.0), p, w)
    cy = p["cy"]
    xs = w - p["d"] * cy
    half = p["cw"] / 2
    bar = _Path(xs - half + p["coff"], cy + p["ctilt"]).line(xs + half + p["coff"], cy - p["ctilt"])
    return [stem, bar]


def _seven_curved(p):
    w, bx, cv = p["w"], p["w"] - p["d"], p["curv"]
    path = _Path(0.0, p["lift"]).line(w, 0.0)
    # the stem leaves the bar steeply down-left, then straightens to fall nearly vertically
    return [path.bez((w - 0.5 * (w - bx) - cv, 0.38), (bx + 0.01, 0.62), (bx, 1.0), corner=True)]


def _seven_hook(p):
    w, hk = p["w"], p["hk"]
    path = _Path(0.02, hk).line(0.0, 0.0).line(w, 0.0, corner=True)
    return [_seven_stem(path, p, w)]


def _seven_shortbar(p):
    w = p["w"]
    lift = w * math.tan(math.radians(p["ba"]))
    return [_seven_stem(_Path(0.0, lift).line(w, 0.0), p, w)]


# ---- 4
def _four_open(p):
    by, sx, st, sb = p["by"], p["sx"], p["st"], p["sb"]
    bw = sx + p["be"]
    return [_Path(p["lx0"], 0.02).line(0.0, by).line(bw, by - 0.01, corner=True),
            _Path(sx, st).line(sx + sb, 1.0)]


def _four_closed(p):
    by, sx, sb = p["by"], p["sx"], p["sb"]
    bw = sx + p["be"]
    return [_Path(sx, 0.0).line(0.0, by).line(bw, by - 0.01, corner=True),
            _Path(sx + p["jx"], p["jy"]).line(sx + sb, 1.0)]


def _four_onestroke(p):
    by, sx, sb = p["by"], p["sx"], p["sb"]
    bw = sx + p["be"]
    return [_Path(sx + sb, 1.0).line(sx, 0.0).line(0.0, by, corner=True).line(bw, by - 0.01, corner=True)]


def _four_crossed(p):
    by, sx, sb = p["by"], p["sx"], p["sb"]
    bw = sx + p["be"]
    return [_Path(p["lx0"], 0.04).line(0.0, by).line(bw, by - 0.015, corner=True),
            _Path(sx, p["st"]).line(sx + sb, 1.0)]


def _four_apart(p):
    by, sx, sb = p["by"], p["sx"], p["sb"]
    return [_Path(p["lx0"], 0.02).line(0.0, by).line(sx - p["gap"], by - 0.01, corner=True),
            _Path(sx, p["st"]).line(sx + sb, 1.0)]


# ---- 6
def _six_geometry(p):
    lr = p["lr"]
    rx = lr * p["la"]
    lcx, lcy = 0.03 + rx, 1.0 - lr
    return rx, lr, lcx, lcy


def _six_top(path_start, p, lcx, lcy, rx, straight=False):
    sx0 = p["sx0"]
    px, py = lcx - rx, lcy
    path = _Path(sx0, 0.0)
    if straight:
        return path.line(px, py - 0.02)
    tb = p["tb"]
    return path.bez((sx0 - 0.35 * (sx0 - px) - tb, -0.01), (px - 0.2 * tb, py - 0.45 * py), (px, py))


def _six_round(p):
    rx, ry, lcx, lcy = _six_geometry(p)
    path = _six_top(None, p, lcx, lcy, rx)
    return [path.arc(lcx, lcy, rx, ry, 180.0, -180.0 - p["close"])]


def _six_straighttop(p):
    rx, ry, lcx, lcy = _six_geometry(p)
    path = _six_top(None, p, lcx, lcy, rx, straight=True)
    return [path.arc(lcx, lcy, rx, ry, 180.0, -180.0 - p["close"], corner=False)]


def _six_angular(p):
    """A straight slanted down-stroke, a sharp turn into a straight bottom, a sharp turn
    up the right side, and the loop's top rounds back to the down-stroke from the right
    (close > 0: stops short of it; never across it, or it reads as a 4)."""
    sx0, lt = p["sx0"], p["lt"]
    xs = sx0 * (1.0 - lt)  # the down-stroke's x at the loop's top
    lw = xs + p["lwx"]  # the loop's right side: well right of the down-stroke (a box, no triangle)
    path = _Path(sx0, 0.0).line(0.0, 1.0).line(lw, 0.96, corner=True)
    return [path.bez((lw + 0.03, lt + 0.06), (0.6 * lw + 0.4 * xs, lt - 0.03), (xs + p["close"], lt + 0.02), corner=True)]


def _six_apart(p):
    rx, ry, lcx, lcy = _six_geometry(p)
    g = p["gap"]
    top = _six_top(None, p, lcx, lcy, rx)
    cx = lcx + g
    loop = _arc_start(cx, lcy, rx, ry, 180.0).arc(cx, lcy, rx, ry, 180.0, -180.0 - p["close"])
    return [top, loop]


# ---- 9
def _nine_geometry(p):
    lr = p["lr"]
    rx = lr * p["la"]
    return rx, lr, rx, lr + 0.01


def _nine_tail(path, p, lcx, lcy, rx, kind):
    x0, y0 = path.last
    if kind == "curved":
        tc = p["tcurl"]
        return path.bez((x0 + 0.01, y0 + 0.35 * (1 - y0)), (x0 + 0.01, 0.9), (x0 - tc, 1.0))
    if kind == "stick":
        return path.line(x0 + p["tdx"], 1.0)
    # "g": the tail hooks left at the bottom like a g's descender
    hk = p["hk"]
    return path.bez((x0 + 0.02, y0 + 0.45 * (1 - y0)), (x0 + 0.02, 1.04), (lcx - hk, 0.94))


def _nine_loop_ccw(p):
    rx, ry, lcx, lcy = _nine_geometry(p)
    a0 = p["a0"]
    path = _arc_start(lcx, lcy, rx, ry, a0).arc(lcx, lcy, rx, ry, a0, a0 - 360.0 - p["close"])
    return path, rx, lcx, lcy


def _nine_round(p):
    path, rx, lcx, lcy = _nine_loop_ccw(p)
    return [_nine_tail(path, p, lcx, lcy, rx, "curved")]


def _nine_stick(p):
    path, rx, lcx, lcy = _nine_loop_ccw(p)
    return [_nine_tail(path, p, lcx, lcy, rx, "stick")]


def _nine_cw(p):
    rx, ry, lcx, lcy = _nine_geometry(p)
    a0 = p["a0cw"]
    path = _arc_start(lcx, lcy, rx, ry, a0).arc(lcx, lcy, rx, ry, a0, 360.0 + p["close"])
    return [_nine_tail(path, p, lcx, lcy, rx, "curved" if p["tcurl"] > 0.08 else "stick")]


def _nine_g(p):
    path, rx, lcx, lcy = _nine_loop_ccw(p)
    return [_nine_tail(path, p, lcx, lcy, rx, "g")]


def _nine_apart(p):
    rx, ry, lcx, lcy = _nine_geometry(p)
    a0 = p["a0"]
    loop = _arc_start(lcx, lcy, rx, ry, a0).arc(lcx, lcy, rx, ry, a0, a0 - 360.0 - abs(p["close"]))
    g = p["gap"]
    tail = _Path(lcx + rx + g, lcy + 0.02)
    tail.bez((lcx + rx + g + 0.01, lcy + 0.3), (lcx + rx + g + p["tdx"] * 0.5, 0.8), (lcx + rx + g + p["tdx"], 1.0))
    return [loop, tail]


# ---- 0
def _oval(p, direction, close, shrink=0.0):
    rx = p["rx"]
    cx, cy = rx, 0.5
    a0 = -90.0 + p["a0"]
    a1 = a0 + direction * (360.0 + close)
    path = _arc_start(cx, cy, rx, 0.5, a0, p["tilt"])
    return path.arc(cx, cy, rx, 0.5, a0, a1, shrink=shrink, tilt=p["tilt"]), cx, cy, rx


def _zero_ccw(p):
    return [_oval(p, -1, p["close"])[0]]


def _zero_cw(p):
    return [_oval(p, +1, p["close"])[0]]


def _zero_overlap(p):
    return [_oval(p, p["dir"], p["close"], shrink=p["shrink"])[0]]


def _zero_slashed(p):
    path, cx, cy, rx = _oval(p, -1, p["close"])
    e = p["ext"]
    return [path, _Path(cx + rx * (0.75 + e), 0.1 - e).line(cx - rx * (0.75 + e), 0.9 + e)]


def _zero_dotted(p):
    path, cx, cy, rx = _oval(p, -1, p["close"])
    d = p["dot"]
    return [path, _Path(cx - d, cy - d * 0.3).line(cx + d, cy + d * 0.3)]


def _zero_apart(p):
    """Two arcs, the left one down from the top, then the right one: they miss each other
    a little at the top (tgap degrees) and more at the bottom (gap)."""
    rx = p["rx"]
    cx, cy = rx, 0.5
    g, tg = p["gap"] / 2, p["tgap"] / 2
    left = _arc_start(cx, cy, rx, 0.5, -90.0 - tg).arc(cx, cy, rx, 0.5, -90.0 - tg, -270.0 + g)
    cx, cy = cx + p["dx"], cy + p["dy"]
    right = _arc_start(cx, cy, rx, 0.5, -90.0 + tg).arc(cx, cy, rx, 0.5, -90.0 + tg, 90.0 - g)
    return [left, right]


# ---- 2
def _two_top(p):
    br, rx = p["br"], p["brx"]
    cx, cy = 0.03 + rx, br
    a0, a1 = p["a0"], p["a1"]
    path = _arc_start(cx, cy, rx, br, a0).arc(cx, cy, rx, br, a0, a1)
    return path, cx, cy, rx, br


def _two_plain(p):
    path, cx, cy, rx, br = _two_top(p)
    x0, y0 = path.last
    a1 = math.radians(p["a1"])
    tx, ty = -math.sin(a1), math.cos(a1)  # the arc's direction at its end
    path.bez((x0 + tx * 0.15, y0 + ty * 0.15), (0.12, 0.85), (0.0, 1.0))
    return [path.line(p["bw"], 1.0 - p["bt"], corner=True)]


def _two_loop(p):
    path, cx, cy, rx, br = _two_top(p)
    x0, y0 = path.last
    a1 = math.radians(p["a1"])
    tx, ty = -math.sin(a1), math.cos(a1)
    lr = p["lr"]
    lx, ly = 0.02 + lr, 1.0 - lr
    ex, ey = _pt(lx, ly, lr, lr, 45.0)
    path.bez((x0 + tx * 0.15, y0 + ty * 0.15), (ex + 0.12, ey - 0.2), (ex, ey))
    path.arc(lx, ly, lr, lr, 45.0, 45.0 + 340.0)
    x1, y1 = path.last
    return [path.bez((x1 + 0.03, y1 + 0.06), (x1 + 0.1, 1.0), (p["bw"], 1.0 - p["bt"]))]


def _two_z(p):
    h = p["hump"]
    w = p["zw"]
    path = _Path(0.02, 0.14).bez((0.12, 0.02 - h), (0.3 * w / 0.55, -h), (w, 0.03))
    path.line(0.02, 0.98, corner=True)
    return [path.line(p["bw"], 1.0 - p["bt"], corner=True)]


# ---- 3
def _three_bowls(p):
    mid = p["mid"]
    ury = mid / 2
    urx = p["urx"]
    ucx, ucy = 0.3, ury
    lry = (1.0 - mid) / 2
    lrx = p["lrx"]
    lcx, lcy = 0.3 + p["loff"], mid + lry
    return ucx, ucy, urx, ury, lcx, lcy, lrx, lry


def _three_round(p):
    ucx, ucy, urx, ury, lcx, lcy, lrx, lry = _three_bowls(p)
    path = _arc_start(ucx, ucy, urx, ury, p["a0"]).arc(ucx, ucy, urx, ury, p["a0"], 445.0)
    path.arc(lcx, lcy, lrx, lry, -100.0, p["a1"], corner=True)
    return [path]


def _three_flat(p):
    ucx, ucy, urx, ury, lcx, lcy, lrx, lry = _three_bowls(p)
    sx, sy = _pt(lcx, lcy, lrx, lry, -115.0)
    path = _Path(0.04, 0.0).line(p["tw"], 0.0).line(sx, sy, corner=True)
    return [path.arc(lcx, lcy, lrx, lry, -115.0, p["a1"], corner=True)]


def _three_twopiece(p):
    ucx, ucy, urx, ury, lcx, lcy, lrx, lry = _three_bowls(p)
    up = _arc_start(ucx, ucy, urx, ury, p["a0"]).arc(ucx, ucy, urx, ury, p["a0"], 450.0)
    dx, dy = p["dx"], p["dy"]
    low = _arc_start(lcx + dx, lcy + dy, lrx, lry, -105.0).arc(lcx + dx, lcy + dy, lrx, lry, -105.0, p["a1"])
    return [up, low]


# ---- 5
def _five_bowl(p):
    ry, rx = p["ry"], p["rx"]
    a0 = -150.0
    sx = 0.03
    cx = sx - rx * _cos(a0)
    cy = 1.0 - ry
    sy = cy + ry * _sin(a0)
    return cx, cy, rx, ry, a0, sx, sy


def _five_one(p):
    cx, cy, rx, ry, a0, sx, sy = _five_bowl(p)
    path = _Path(p["bw"], -p["bt"]).line(0.06, 0.0).line(sx, sy, corner=True)
    return [path.arc(cx, cy, rx, ry, a0, p["a1"], corner=True)]


def _five_two(p):
    cx, cy, rx, ry, a0, sx, sy = _five_bowl(p)
    body = _Path(0.06, 0.0).line(sx, sy).arc(cx, cy, rx, ry, a0, p["a1"], corner=True)
    return [body, _Path(0.06, 0.0).line(p["bw"], -p["bt"])]


def _five_apart(p):
    cx, cy, rx, ry, a0, sx, sy = _five_bowl(p)
    body = _Path(0.06, 0.0).line(sx, sy).arc(cx, cy, rx, ry, a0, p["a1"], corner=True)
    gx, gy = p["gx"], p["gy"]
    return [body, _Path(0.06 + gx, -gy).line(p["bw"] + gx, -gy - p["bt"])]


# ---- 8
def _eight_geometry(p):
    mid = p["mid"]
    ury, lry = mid / 2, (1.0 - mid) / 2
    return 0.3, ury, p["urx"], ury, 0.3, mid + lry, p["lrx"], lry


def _eight_s_part(p):
    ucx, ucy, urx, ury, lcx, lcy, lrx, lry = _eight_geometry(p)
    a0 = p["a0"]
    path = _arc_start(ucx, ucy, urx, ury, a0).arc(ucx, ucy, urx, ury, a0, -180.0)
    path.bez((ucx - urx, ucy + 0.6 * ury), (lcx + lrx, lcy - 0.7 * lry), (lcx + lrx, lcy))
    path.arc(lcx, lcy, lrx, lry, 0.0, 180.0)
    return path, ucx, ucy, urx, ury, lcx, lcy, lrx, lry


def _eight_s(p):
    path, ucx, ucy, urx, ury, lcx, lcy, lrx, lry = _eight_s_part(p)
    path.bez((lcx - lrx, lcy - 0.7 * lry), (ucx + urx, ucy + 0.6 * ury), (ucx + urx, ucy))
    path.arc(ucx, ucy, urx, ury, 0.0, p["a0"] - p["close"])
    return [path]


def _eight_circles(p, gap=0.0):
    ucx, ucy, urx, ury, lcx, lcy, lrx, lry = _eight_geometry(p)
    lcy += gap
    top = _arc_start(ucx, ucy, urx, ury, -90.0).arc(ucx, ucy, urx, ury, -90.0, -450.0 - p["close"])
    dx = p["dx"]
    low = _arc_start(lcx + dx, lcy, lrx, lry, -90.0).arc(lcx + dx, lcy, lrx, lry, -90.0, 270.0 + p["close"])
    return [top, low]


def _eight_cross(p):
    path, ucx, ucy, urx, ury, lcx, lcy, lrx, lry = _eight_s_part(p)
    x0, y0 = path.last
    back = _Path(x0 + 0.02, y0 - 0.02)
    back.bez((x0 + 0.15, lcy - 0.6 * lry), (ucx + urx - 0.05, ucy + 0.5 * ury), (ucx + urx * 0.9, ucy - 0.3 * ury))
    return [path, back]


def _eight_apart(p):
    return _eight_circles(p, gap=p["gap"])


# --------------------------------------------------------------------------------------
# Style specs: template, adult ranges of its parameters, the young hand's ranges where
# they differ (wider: a huge loop, a tiny top, loops that don't close or close too far),
# and what a writer's slant may be for it (degrees; a 1 with a flag must not lean like a
# 7's stem, a short-barred 7's stem must lean).


_ANY_SLANT = (-16.0, 30.0)


class Spec:
    __slots__ = ("name", "fn", "adult", "young", "slant", "fixed_dir", "marks", "check")

    def __init__(self, name, fn, adult, young=None, slant=_ANY_SLANT, fixed_dir=False, marks=None, check=None):
        self.name, self.fn, self.adult = name, fn, adult
        self.young = dict(adult, **(young or {}))
        self.slant, self.fixed_dir = slant, fixed_dir
        self.marks, self.check = marks, check  # landmarks (template units) and a rule on them as drawn


# Legibility rules on landmarks as drawn (pad pixels, y down), for the shapes a slant, a
# width or a wobble can turn into another digit: a 1's flag against a 7's bar, a 6 against
# a b. A drawing that breaks its rule is drawn again (the writer's next try).

def _deg(dx, dy):
    return math.degrees(math.atan2(dy, dx))


def _one_marks(p):
    fx, fy = _flag(p)
    return {"flag": (fx, fy), "top": (0.0, 0.0), "foot": (0.0, 1.0)}


def _one_check(m):
    f, t, b = m["flag"], m["top"], m["foot"]
    lean = _deg(b[1] - t[1], t[0] - b[0])  # the stem's lean from upright, top to the right > 0
    flag = _deg(t[0] - f[0], f[1] - t[1])  # how far the flag falls below the horizontal
    return abs(lean) <= 13.0 and 15.0 <= flag <= 75.0 and flag - lean >= 12.0


def _longflag_check(m):
    """A long shallow flag reads as a 1 only on an upright stem and falling clearly."""
    f, t, b = m["flag"], m["top"], m["foot"]
    lean = _deg(b[1] - t[1], t[0] - b[0])
    flag = _deg(t[0] - f[0], f[1] - t[1])
    return abs(lean) <= 8.0 and 18.0 <= flag <= 50.0 and flag - lean >= 15.0


def _seven_marks(p):
    w = p["w"]
    lift = w * math.tan(math.radians(p["ba"])) if "ba" in p else p.get("lift", 0.0)
    return {"left": (0.0, lift), "corner": (w, 0.0), "foot": (w - p["d"], 1.0)}


def _seven_check(m):
    l, c, f = m["left"], m["corner"], m["foot"]
    lean = _deg(f[1] - c[1], c[0] - f[0])  # the stem leans down-left from the bar's end
    rise = _deg(c[0] - l[0], l[1] - c[1])  # how far the bar's left end hangs below its right
    bar = math.hypot(c[0] - l[0], c[1] - l[1])
    return lean >= 11.0 and rise <= 22.0 and bar >= 0.22 * m["_height"]


def _six_marks(p):
    if "lwx" in p:  # angular: the down-stroke from its top to the bottom corner
        return {"top": (p["sx0"], 0.0), "low": (0.0, 1.0)}
    rx, ry, lcx, lcy = _six_geometry(p)
    return {"top": (p["sx0"], 0.0), "low": (lcx - rx, lcy)}


def _six_check(m):
    t, l = m["top"], m["low"]
    return _deg(l[1] - t[1], t[0] - l[0]) >= 14.0  # the down-stroke leans: a 6, not a b


def _six_curved_check(m):
    t, l = m["top"], m["low"]
    return _deg(l[1] - t[1], t[0] - l[0]) >= 20.0  # the top reaches up and right, clear of the loop


def _six_angular_check(m):
    t, l = m["top"], m["low"]
    return _deg(l[1] - t[1], t[0] - l[0]) >= 18.0  # an angular loop needs a clearly leaning stroke


_FLAGGED_SLANT = (-8.0, 12.0)  # a 1 with a flag stays near upright (its stem never leans like a 7's)
_SEVEN_SLANT = (-4.0, 28.0)  # a backhand writer's 7 keeps a leaning stem

SPECS: dict[str, Spec] = {s.name: s for s in [
    # 1
    Spec("1-stick", _one_stick, dict(top_dx=(0.0, 0.05), bow=(-0.025, 0.025)),
         dict(top_dx=(-0.04, 0.08), bow=(-0.05, 0.05))),
    Spec("1-flag", _one_flag, dict(fl=(0.12, 0.24), fa=(35.0, 60.0), bow=(-0.01, 0.01)),
         dict(fl=(0.1, 0.3), fa=(30.0, 65.0), bow=(-0.03, 0.03)), slant=_FLAGGED_SLANT, marks=_one_marks, check=_one_check),
    Spec("1-longflag", _one_longflag, dict(fl=(0.4, 0.58), fa=(22.0, 40.0), fc=(0.0, 0.04), bow=(-0.01, 0.01)),
         dict(fl=(0.36, 0.62), fa=(20.0, 42.0), fc=(-0.01, 0.06), bow=(-0.025, 0.025)), slant=(-6.0, 8.0),
         marks=_one_marks, check=_longflag_check),
    Spec("1-foot", _one_foot, dict(top_dx=(0.0, 0.04), bow=(-0.015, 0.015), fw=(0.24, 0.4), fo=(-0.03, 0.03), ft=(-0.02, 0.02)),
         dict(top_dx=(-0.03, 0.06), bow=(-0.04, 0.04), fw=(0.22, 0.5), fo=(-0.06, 0.06), ft=(-0.04, 0.04))),
    Spec("1-flagfoot", _one_flagfoot, dict(fl=(0.14, 0.28), fa=(30.0, 55.0), fw=(0.3, 0.5), fo=(-0.03, 0.03), ft=(-0.02, 0.02)),
         dict(fl=(0.12, 0.34), fa=(25.0, 60.0), fw=(0.25, 0.6), fo=(-0.06, 0.06), ft=(-0.04, 0.04)), slant=_FLAGGED_SLANT, marks=_one_marks, check=_one_check),
    Spec("1-slant", _one_slant, dict(lean=(0.1, 0.2), bow=(-0.02, 0.02)),
         dict(lean=(0.08, 0.24), bow=(-0.04, 0.04)), slant=(-5.0, 16.0)),
    # 7: d = how far left the stem's foot lies below the bar's right end (the stem must lean)
    Spec("7-plain", _seven_plain, dict(w=(0.45, 0.65), lift=(-0.03, 0.05), d=(0.3, 0.5), bow=(-0.03, 0.04)),
         dict(w=(0.38, 0.75), lift=(-0.05, 0.08), d=(0.26, 0.55), bow=(-0.05, 0.06)), slant=_SEVEN_SLANT, marks=_seven_marks, check=_seven_check),
    Spec("7-crossed", _seven_crossed, dict(w=(0.45, 0.65), lift=(-0.03, 0.05), d=(0.3, 0.5), bow=(-0.03, 0.04),
                                           cy=(0.45, 0.6), cw=(0.24, 0.4), ctilt=(-0.02, 0.03), coff=(-0.04, 0.04)),
         dict(w=(0.38, 0.75), lift=(-0.05, 0.08), d=(0.26, 0.55), bow=(-0.05, 0.06), cy=(0.4, 0.62), cw=(0.22, 0.5),
              ctilt=(-0.04, 0.05), coff=(-0.07, 0.07)), slant=_SEVEN_SLANT, marks=_seven_marks, check=_seven_check),
    Spec("7-curved", _seven_curved, dict(w=(0.45, 0.62), lift=(-0.02, 0.05), d=(0.35, 0.52), curv=(0.04, 0.14)),
         dict(w=(0.4, 0.7), lift=(-0.04, 0.08), d=(0.3, 0.6), curv=(0.02, 0.18)), slant=_SEVEN_SLANT, marks=_seven_marks, check=_seven_check),
    Spec("7-hook", _seven_hook, dict(w=(0.45, 0.62), lift=(0.0, 0.0), hk=(0.1, 0.2), d=(0.3, 0.5), bow=(-0.03, 0.04)),
         dict(w=(0.4, 0.7), hk=(0.08, 0.26), d=(0.26, 0.55), bow=(-0.05, 0.06)), slant=_SEVEN_SLANT, marks=_seven_marks, check=_seven_check),
    Spec("7-shortbar", _seven_shortbar, dict(w=(0.28, 0.4), ba=(3.0, 16.0), d=(0.3, 0.42), bow=(-0.02, 0.04)),
         dict(w=(0.27, 0.42), ba=(2.0, 18.0), d=(0.3, 0.45), bow=(-0.04, 0.05)), slant=(2.0, 25.0), marks=_seven_marks, check=_seven_check),
    # 4
    Spec("4-open", _four_open, dict(lx0=(0.0, 0.14), by=(0.55, 0.7), be=(0.12, 0.26), sx=(0.42, 0.55), st=(0.0, 0.1), sb=(-0.04, 0.03)),
         dict(lx0=(-0.03, 0.18), by=(0.45, 0.76), be=(0.1, 0.32), sx=(0.4, 0.6), st=(-0.05, 0.15), sb=(-0.06, 0.05))),
    Spec("4-closed", _four_closed, dict(by=(0.58, 0.72), be=(0.12, 0.26), sx=(0.42, 0.55), sb=(-0.04, 0.03), jx=(-0.01, 0.01), jy=(-0.02, 0.01)),
         dict(by=(0.5, 0.78), be=(0.1, 0.32), sx=(0.4, 0.6), sb=(-0.06, 0.05), jx=(-0.03, 0.03), jy=(-0.05, 0.02))),
    Spec("4-onestroke", _four_onestroke, dict(by=(0.58, 0.72), be=(0.12, 0.26), sx=(0.42, 0.55), sb=(-0.04, 0.03)),
         dict(by=(0.5, 0.78), be=(0.1, 0.32), sx=(0.4, 0.6), sb=(-0.06, 0.05))),
    Spec("4-crossed", _four_crossed, dict(lx0=(0.04, 0.22), by=(0.5, 0.65), be=(0.28, 0.42), sx=(0.45, 0.58), st=(-0.06, 0.0), sb=(-0.04, 0.03)),
         dict(lx0=(0.0, 0.25), by=(0.45, 0.7), be=(0.26, 0.45), sx=(0.42, 0.6), st=(-0.08, 0.02), sb=(-0.06, 0.05))),
    Spec("4-apart", _four_apart, dict(lx0=(0.0, 0.14), by=(0.55, 0.7), sx=(0.45, 0.55), st=(0.0, 0.1), sb=(-0.04, 0.03), gap=(0.05, 0.1)),
         dict(lx0=(-0.03, 0.18), by=(0.45, 0.76), sx=(0.42, 0.6), st=(-0.05, 0.1), sb=(-0.06, 0.05), gap=(0.05, 0.1))),
    # 6
    Spec("6-round", _six_round, dict(lr=(0.24, 0.3), la=(0.9, 1.15), sx0=(0.35, 0.55), tb=(0.04, 0.14), close=(-5.0, 30.0)),
         dict(lr=(0.2, 0.34), la=(0.85, 1.15), sx0=(0.32, 0.6), tb=(0.03, 0.18), close=(-25.0, 60.0)), marks=_six_marks, check=_six_curved_check),
    Spec("6-bigloop", _six_round, dict(lr=(0.32, 0.38), la=(0.85, 1.1), sx0=(0.42, 0.62), tb=(0.04, 0.12), close=(-5.0, 30.0)),
         dict(lr=(0.32, 0.38), la=(0.85, 1.1), sx0=(0.42, 0.66), tb=(0.04, 0.16), close=(-25.0, 50.0)), marks=_six_marks, check=_six_curved_check),
    Spec("6-angular", _six_angular, dict(sx0=(0.38, 0.55), lwx=(0.24, 0.34), lt=(0.45, 0.55), close=(0.0, 0.03)),
         dict(sx0=(0.36, 0.6), lwx=(0.22, 0.38), lt=(0.44, 0.58), close=(0.0, 0.06)), slant=(-5.0, 30.0), marks=_six_marks, check=_six_angular_check),
    Spec("6-openloop", _six_round, dict(lr=(0.24, 0.3), la=(0.9, 1.15), sx0=(0.35, 0.55), tb=(0.04, 0.14), close=(-70.0, -35.0)),
         dict(lr=(0.2, 0.38), la=(0.85, 1.15), sx0=(0.3, 0.6), tb=(0.02, 0.18), close=(-80.0, -30.0)), marks=_six_marks, check=_six_curved_check),
    Spec("6-straighttop", _six_straighttop, dict(lr=(0.24, 0.3), la=(0.95, 1.15), sx0=(0.2, 0.36), close=(-5.0, 30.0)),
         dict(lr=(0.2, 0.36), la=(0.85, 1.15), sx0=(0.18, 0.42), close=(-25.0, 60.0)), slant=(-5.0, 30.0), marks=_six_marks, check=_six_check),
    Spec("6-apart", _six_apart, dict(lr=(0.24, 0.32), la=(0.9, 1.15), sx0=(0.35, 0.55), tb=(0.04, 0.14), close=(0.0, 20.0), gap=(0.04, 0.08)),
         dict(lr=(0.22, 0.34), la=(0.85, 1.1), sx0=(0.36, 0.6), tb=(0.03, 0.18), close=(-10.0, 40.0), gap=(0.05, 0.1)), marks=_six_marks, check=_six_curved_check),
    # 9
    Spec("9-round", _nine_round, dict(lr=(0.2, 0.27), la=(0.95, 1.2), a0=(-25.0, 5.0), close=(-8.0, 20.0), tcurl=(0.05, 0.2)),
         dict(lr=(0.17, 0.34), la=(0.85, 1.2), a0=(-35.0, 10.0), close=(-30.0, 50.0), tcurl=(0.03, 0.25)), fixed_dir=True),
    Spec("9-stick", _nine_stick, dict(lr=(0.17, 0.24), la=(0.95, 1.25), a0=(-25.0, 5.0), close=(-8.0, 20.0), tdx=(-0.1, 0.02)),
         dict(lr=(0.15, 0.3), la=(0.85, 1.25), a0=(-35.0, 10.0), close=(-30.0, 50.0), tdx=(-0.14, 0.05)), fixed_dir=True),
    Spec("9-cw", _nine_cw, dict(lr=(0.2, 0.27), la=(0.95, 1.2), a0cw=(-150.0, -80.0), close=(0.0, 15.0), tcurl=(0.0, 0.18), tdx=(-0.08, 0.02)),
         dict(lr=(0.17, 0.34), la=(0.85, 1.2), a0cw=(-170.0, -60.0), close=(-10.0, 35.0), tcurl=(0.0, 0.22), tdx=(-0.12, 0.04)), fixed_dir=True),
    Spec("9-g", _nine_g, dict(lr=(0.2, 0.27), la=(0.95, 1.2), a0=(-25.0, 5.0), close=(-5.0, 20.0), hk=(0.0, 0.15)),
         dict(lr=(0.18, 0.32), la=(0.85, 1.2), a0=(-35.0, 10.0), close=(-15.0, 40.0), hk=(-0.05, 0.2)), fixed_dir=True),
    Spec("9-apart", _nine_apart, dict(lr=(0.19, 0.26), la=(0.95, 1.2), a0=(-25.0, 5.0), close=(0.0, 20.0), gap=(0.04, 0.08), tdx=(-0.1, 0.02)),
         dict(lr=(0.17, 0.32), la=(0.85, 1.2), a0=(-35.0, 10.0), close=(0.0, 40.0), gap=(0.05, 0.1), tdx=(-0.14, 0.04))),
    # 0
    Spec("0-ccw", _zero_ccw, dict(rx=(0.26, 0.38), a0=(-15.0, 15.0), close=(-6.0, 15.0), tilt=(-6.0, 12.0)),
         dict(rx=(0.22, 0.45), a0=(-30.0, 30.0), close=(-20.0, 35.0), tilt=(-12.0, 18.0)), fixed_dir=True),
    Spec("0-cw", _zero_cw, dict(rx=(0.26, 0.38), a0=(-15.0, 15.0), close=(-6.0, 15.0), tilt=(-6.0, 12.0)),
         dict(rx=(0.22, 0.45), a0=(-30.0, 30.0), close=(-20.0, 35.0), tilt=(-12.0, 18.0)), fixed_dir=True),
    Spec("0-overlap", _zero_overlap, dict(rx=(0.26, 0.38), a0=(-20.0, 20.0), close=(30.0, 70.0), tilt=(-6.0, 12.0), shrink=(0.03, 0.1), dir=(-1.0, -1.0)),
         dict(rx=(0.22, 0.45), a0=(-30.0, 30.0), close=(30.0, 110.0), tilt=(-12.0, 18.0), shrink=(0.03, 0.14))),
    Spec("0-slashed", _zero_slashed, dict(rx=(0.26, 0.36), a0=(-15.0, 15.0), close=(-4.0, 12.0), tilt=(-6.0, 10.0), ext=(0.0, 0.1)),
         dict(rx=(0.24, 0.42), a0=(-30.0, 30.0), close=(-15.0, 30.0), tilt=(-12.0, 15.0), ext=(0.0, 0.12))),
    Spec("0-dotted", _zero_dotted, dict(rx=(0.26, 0.36), a0=(-15.0, 15.0), close=(-4.0, 12.0), tilt=(-6.0, 10.0), dot=(0.01, 0.025)),
         dict(rx=(0.24, 0.42), a0=(-30.0, 30.0), close=(-15.0, 30.0), tilt=(-12.0, 15.0), dot=(0.01, 0.04))),
    Spec("0-apart", _zero_apart, dict(rx=(0.26, 0.36), gap=(14.0, 30.0), tgap=(6.0, 16.0), dx=(0.0, 0.03), dy=(-0.01, 0.02)),
         dict(rx=(0.24, 0.42), gap=(14.0, 40.0), tgap=(6.0, 20.0), dx=(0.0, 0.05), dy=(-0.02, 0.03))),
    # 2
    Spec("2-plain", _two_plain, dict(br=(0.22, 0.3), brx=(0.24, 0.32), a0=(170.0, 200.0), a1=(375.0, 400.0), bw=(0.5, 0.7), bt=(-0.02, 0.03)),
         dict(br=(0.15, 0.38), brx=(0.2, 0.38), a0=(160.0, 210.0), a1=(370.0, 410.0), bw=(0.45, 0.8), bt=(-0.04, 0.06))),
    Spec("2-loop", _two_loop, dict(br=(0.22, 0.3), brx=(0.24, 0.32), a0=(170.0, 200.0), a1=(375.0, 400.0), bw=(0.55, 0.72), bt=(-0.02, 0.03), lr=(0.05, 0.09)),
         dict(br=(0.15, 0.36), brx=(0.2, 0.38), a0=(160.0, 210.0), a1=(370.0, 410.0), bw=(0.5, 0.8), bt=(-0.04, 0.06), lr=(0.05, 0.12))),
    Spec("2-z", _two_z, dict(hump=(0.03, 0.08), zw=(0.48, 0.6), bw=(0.5, 0.68), bt=(-0.02, 0.03)),
         dict(hump=(0.02, 0.1), zw=(0.42, 0.66), bw=(0.45, 0.75), bt=(-0.04, 0.06))),
    # 3
    Spec("3-round", _three_round, dict(mid=(0.44, 0.52), urx=(0.22, 0.28), lrx=(0.26, 0.33), loff=(-0.02, 0.03), a0=(190.0, 215.0), a1=(140.0, 165.0)),
         dict(mid=(0.32, 0.6), urx=(0.18, 0.32), lrx=(0.22, 0.38), loff=(-0.04, 0.05), a0=(180.0, 225.0), a1=(130.0, 170.0))),
    Spec("3-flat", _three_flat, dict(mid=(0.4, 0.5), tw=(0.45, 0.58), lrx=(0.26, 0.33), loff=(-0.02, 0.03), urx=(0.25, 0.25), a1=(140.0, 165.0)),
         dict(mid=(0.32, 0.56), tw=(0.4, 0.64), lrx=(0.22, 0.38), loff=(-0.04, 0.05), a1=(130.0, 170.0))),
    Spec("3-twopiece", _three_twopiece, dict(mid=(0.44, 0.52), urx=(0.22, 0.28), lrx=(0.26, 0.33), loff=(-0.02, 0.03), a0=(190.0, 215.0), a1=(140.0, 165.0),
                                             dx=(-0.02, 0.02), dy=(-0.01, 0.02)),
         dict(mid=(0.32, 0.6), urx=(0.18, 0.32), lrx=(0.22, 0.38), loff=(-0.04, 0.05), a0=(180.0, 225.0), a1=(130.0, 170.0),
              dx=(-0.04, 0.04), dy=(-0.02, 0.04))),
    # 5
    Spec("5-one", _five_one, dict(ry=(0.27, 0.33), rx=(0.25, 0.32), bw=(0.42, 0.6), bt=(-0.02, 0.03), a1=(138.0, 158.0)),
         dict(ry=(0.22, 0.38), rx=(0.22, 0.38), bw=(0.36, 0.68), bt=(-0.04, 0.05), a1=(130.0, 158.0))),
    Spec("5-two", _five_two, dict(ry=(0.27, 0.33), rx=(0.25, 0.32), bw=(0.42, 0.6), bt=(-0.02, 0.03), a1=(138.0, 158.0)),
         dict(ry=(0.22, 0.38), rx=(0.22, 0.38), bw=(0.36, 0.68), bt=(-0.04, 0.05), a1=(130.0, 158.0))),
    Spec("5-apart", _five_apart, dict(ry=(0.27, 0.33), rx=(0.25, 0.32), bw=(0.42, 0.6), bt=(-0.02, 0.03), a1=(138.0, 158.0), gx=(0.04, 0.09), gy=(0.0, 0.05)),
         dict(ry=(0.22, 0.38), rx=(0.22, 0.38), bw=(0.36, 0.68), bt=(-0.04, 0.05), a1=(130.0, 158.0), gx=(0.05, 0.12), gy=(0.0, 0.07))),
    # 8
    Spec("8-s", _eight_s, dict(mid=(0.42, 0.5), urx=(0.18, 0.25), lrx=(0.22, 0.3), a0=(-35.0, -10.0), close=(-10.0, 25.0)),
         dict(mid=(0.3, 0.56), urx=(0.14, 0.3), lrx=(0.2, 0.36), a0=(-45.0, -5.0), close=(-25.0, 45.0))),
    Spec("8-circles", _eight_circles, dict(mid=(0.42, 0.5), urx=(0.18, 0.25), lrx=(0.22, 0.3), close=(-5.0, 20.0), dx=(-0.03, 0.03)),
         dict(mid=(0.3, 0.56), urx=(0.14, 0.3), lrx=(0.2, 0.36), close=(-15.0, 40.0), dx=(-0.06, 0.06))),
    Spec("8-cross", _eight_cross, dict(mid=(0.42, 0.5), urx=(0.18, 0.25), lrx=(0.22, 0.3), a0=(-35.0, -10.0)),
         dict(mid=(0.36, 0.54), urx=(0.15, 0.27), lrx=(0.2, 0.32), a0=(-45.0, -5.0))),
    Spec("8-apart", _eight_apart, dict(mid=(0.42, 0.5), urx=(0.18, 0.25), lrx=(0.22, 0.3), close=(-5.0, 15.0), dx=(-0.03, 0.03), gap=(0.03, 0.07)),
         dict(mid=(0.32, 0.56), urx=(0.15, 0.3), lrx=(0.2, 0.36), close=(-10.0, 25.0), dx=(-0.05, 0.05), gap=(0.04, 0.09))),
]}
SPECS["0-overlap"].young["dir"] = (-1.0, 1.0)  # a young writer's overlap may run either way

BASE_STYLES: dict[int, list[str]] = {d: [s for s in SPECS if s.startswith(f"{d}-")] for d in range(10)}
STYLES: list[str] = [f"{s}/{h}" for d in range(10) for s in BASE_STYLES[d] for h in HANDS]

# --------------------------------------------------------------------------------------
# Who writes what. A writer learnt digits at one kind of school; the weights are the
# share of that school's writers who use each style (estimates from the models taught
# and from looking at how people write, not measurements), then tilted for young hands.

SCHOOLS = {"us": 0.22, "uk": 0.13, "de": 0.15, "fr": 0.12, "cn": 0.28, "jp": 0.10}

_W = {  # digit -> school -> weights in BASE_STYLES[digit] order
    0: {"us": [45, 20, 18, 3, 3, 11], "uk": [45, 20, 18, 3, 3, 11], "de": [45, 20, 18, 4, 2, 11],
        "fr": [45, 20, 18, 3, 3, 11], "cn": [50, 18, 18, 2, 2, 10], "jp": [50, 18, 16, 4, 2, 10]},
    1: {"us": [50, 18, 4, 4, 14, 10], "uk": [38, 28, 12, 3, 9, 10], "de": [10, 20, 58, 2, 5, 5],
        "fr": [10, 26, 50, 2, 7, 5], "cn": [48, 10, 10, 2, 5, 25], "jp": [48, 14, 8, 2, 8, 20]},
    2: {"us": [65, 25, 10], "uk": [60, 30, 10], "de": [55, 35, 10], "fr": [45, 45, 10], "cn": [75, 15, 10], "jp": [70, 20, 10]},
    3: {"us": [70, 15, 15], "uk": [65, 20, 15], "de": [55, 30, 15], "fr": [60, 25, 15], "cn": [70, 15, 15], "jp": [65, 20, 15]},
    4: {"us": [50, 25, 12, 5, 8], "uk": [35, 35, 15, 8, 7], "de": [28, 20, 10, 36, 6], "fr": [30, 22, 10, 32, 6],
        "cn": [55, 20, 8, 5, 12], "jp": [45, 30, 10, 5, 10]},
    5: {"us": [25, 60, 15], "uk": [30, 55, 15], "de": [35, 50, 15], "fr": [30, 55, 15], "cn": [15, 70, 15], "jp": [20, 65, 15]},
    6: {"us": [40, 14, 8, 12, 14, 12], "uk": [40, 14, 8, 12, 14, 12], "de": [38, 14, 10, 12, 14, 12],
        "fr": [40, 16, 6, 12, 14, 12], "cn": [38, 12, 8, 12, 18, 12], "jp": [38, 12, 10, 12, 16, 12]},
    7: {"us": [60, 5, 15, 5, 15], "uk": [45, 20, 15, 5, 15], "de": [14, 66, 8, 7, 5], "fr": [14, 62, 10, 9, 5],
        "cn": [55, 5, 10, 15, 15], "jp": [40, 5, 10, 35, 10]},
    8: {"us": [55, 25, 12, 8], "uk": [55, 25, 12, 8], "de": [55, 25, 12, 8], "fr": [55, 25, 12, 8],
        "cn": [60, 20, 12, 8], "jp": [58, 22, 12, 8]},
    9: {"us": [40, 30, 8, 12, 10], "uk": [40, 30, 8, 12, 10], "de": [30, 45, 8, 10, 7], "fr": [35, 35, 8, 15, 7],
        "cn": [30, 50, 7, 5, 8], "jp": [32, 48, 7, 5, 8]},
}
# a young hand falls apart more, reverses more, makes snowman 8s and big loops
_YOUNG_TILT = {"0-cw": 1.5, "0-overlap": 1.3, "4-onestroke": 0.4, "5-one": 0.6, "6-bigloop": 2.0, "6-angular": 0.6,
               "2-z": 0.6, "2-loop": 0.7, "3-twopiece": 1.5, "3-flat": 0.7, "8-s": 0.8, "8-circles": 1.5, "9-cw": 1.8,
               "7-curved": 0.6}
for _d in range(10):
    for _sch in SCHOOLS:
        assert len(_W[_d][_sch]) == len(BASE_STYLES[_d]), (_d, _sch)


def style_weights(digit: int, school: str, hand: str) -> np.ndarray:
    w = np.array(_W[digit][school], dtype=np.float64)
    if hand == "young":
        for i, s in enumerate(BASE_STYLES[digit]):
            w[i] *= _YOUNG_TILT.get(s, 1.0) * (1.6 if s.endswith("-apart") else 1.0)
    return w / w.sum()


# --------------------------------------------------------------------------------------
# Geometry helpers on dense (N, 2) paths


def _unit(v):
    n = math.hypot(v[0], v[1])
    return (v[0] / n, v[1] / n) if n > 1e-12 else (0.0, 0.0)


def _line_pts(a, b, step=STEP):
    n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
    t = (np.arange(1, n + 1, dtype=np.float64) / n)[:, None]
    return np.asarray(a) + (np.asarray(b) - np.asarray(a)) * t


def _overshoot(P, i, d, rng):
    """The pen runs d past the corner P[i] along its way in, then cuts back onto the way out."""
    if i < 2 or i > len(P) - 3:
        return P
    u = _unit(P[i] - P[max(0, i - 4)])
    tip = P[i] + np.array(u) * d + rng.normal(0.0, 0.15 * d, 2)
    dist = np.hypot(*(P[i + 1:] - P[i]).T)
    k = np.nonzero(dist >= 0.45 * d)[0]
    j = i + 1 + (int(k[0]) if len(k) else len(dist) - 1)
    return np.concatenate([P[:i + 1], _line_pts(P[i], tip), _line_pts(tip, P[j]), P[j + 1:]])


def _round_corner(P, i, r):
    """A hurried pen cuts the corner P[i]: a quadratic curve from r before it to r after it."""
    if i < 1 or i > len(P) - 2:
        return P
    before = np.hypot(*(P[:i] - P[i]).T)
    after = np.hypot(*(P[i + 1:] - P[i]).T)
    kb = np.nonzero(before < r)[0]
    ka = np.nonzero(after >= r)[0]
    a = int(kb[0]) if len(kb) else i
    a = max(a - 1, 0)
    b = i + 1 + (int(ka[0]) if len(ka) else len(after) - 1)
    if a >= i or b <= i:
        return P
    n = max(3, int((before[a] + after[b - i - 1]) / STEP))
    t = (np.arange(1, n, dtype=np.float64) / n)[:, None]
    q = (1 - t) ** 2 * P[a] + 2 * (1 - t) * t * P[i] + t * t * P[b]
    return np.concatenate([P[:a + 1], q, P[b:]])


def _field(rng, amp, n=3):
    """A smooth random displacement field (a few long sine waves) of about amp digit-heights."""
    if amp <= 0:
        return None
    f = rng.uniform(0.4, 1.4, (n, 2, 2)) * rng.choice([-1.0, 1.0], (n, 2, 2))
    ph = rng.uniform(0, 2 * math.pi, (n, 2))
    a = amp * rng.uniform(0.4, 1.0, (n, 2)) / math.sqrt(n)
    return f, ph, a


def _apply_field(P, fld):
    if fld is None:
        return P
    f, ph, a = fld
    out = P.copy()
    for k in range(f.shape[0]):
        for c in range(2):
            out[:, c] += a[k, c] * np.sin(2 * math.pi * (f[k, c, 0] * P[:, 0] + f[k, c, 1] * P[:, 1]) + ph[k, c])
    return out


def _smooth_noise(x, rng, scale, n=3):
    """A smooth random function of x (a sum of n sines of wavelength ~scale), values ~N(0, 1)."""
    out = np.zeros_like(x)
    for _ in range(n):
        out += math.sqrt(2.0 / n) * np.sin(2 * math.pi * x / (scale * rng.uniform(0.6, 1.6)) + rng.uniform(0, 2 * math.pi))
    return out


# --------------------------------------------------------------------------------------
# Writers


def _r(rng, lo, hi):
    return float(rng.uniform(lo, hi))


class Writer:
    """One consistent hand: a school, a hand kind, a device, a style and its shape
    parameters per digit, and fixed habits (slant, width, size, speed, tremor, ...)."""

    def __init__(self, seed: int):
        rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, 0x7E4D])
        self.seed = int(seed)
        schools = list(SCHOOLS)
        self.school = schools[int(rng.choice(len(schools), p=np.array(list(SCHOOLS.values())) / sum(SCHOOLS.values())))]
        self.hand = "young" if rng.random() < 0.45 else "adult"
        young = self.hand == "young"
        if young:
            self.device = str(rng.choice(["finger", "pen", "mouse"], p=[0.85, 0.12, 0.03]))
        else:
            self.device = str(rng.choice(["finger", "pen", "mouse"], p=[0.5, 0.3, 0.2]))
        self.id = f"tpl{self.seed}-{self.school}-{self.hand}-{self.device}"

        self.styles = {}
        for d in range(10):
            names = BASE_STYLES[d]
            self.styles[d] = names[int(rng.choice(len(names), p=style_weights(d, self.school, self.hand)))]
        # shape habits: each parameter of the chosen style fixed for this writer
        self.base = {}
        for d in range(10):
            self._fix_shape(d, rng)

        self.haste = 0.0 if young else _r(rng, 0.0, 1.0)
        h = self.haste
        school_slant = {"cn": 10.0, "jp": 6.0, "de": 8.0, "fr": 6.0, "uk": 5.0, "us": 4.0}[self.school]
        if young:
            self.slant = float(np.clip(rng.normal(school_slant * 0.4, 9.0), -16.0, 24.0))
            self.aspect = _r(rng, 0.72, 1.35)
            self.height = _r(rng, 170.0, 320.0)
            self.speed = _r(rng, 130.0, 340.0)  # px/s on straight parts
            self.tremor = (_r(rng, 0.4, 1.3), _r(rng, 5.0, 10.0))  # px, Hz
            self.wobble = (_r(rng, 1.2, 4.5), _r(rng, 0.6, 2.5))
            self.hesitate = _r(rng, 0.15, 0.5)
            self.jitter = _r(rng, 0.1, 0.2)  # per-drawing parameter jitter, fraction of the range
            self.overshoot = (_r(rng, 0.3, 0.9), _r(rng, 0.03, 0.1))  # chance per corner, length
            self.retrace = _r(rng, 0.04, 0.3)
            self.big = _r(rng, 0.02, 0.15)
            self.deform = (_r(rng, 0.012, 0.035), _r(rng, 0.008, 0.02))  # writer's, per drawing
            self.rot_sd = _r(rng, 2.0, 6.0)
            self.tilt = float(rng.normal(0.0, 3.0))
            lo = _r(rng, 150.0, 450.0)
            self.gap_ms = (lo, lo + _r(rng, 200.0, 800.0))
            self.round_r = 0.0
        else:
            self.slant = float(np.clip(rng.normal(school_slant + 6.0 * h, 7.0), -12.0, 26.0))
            self.aspect = _r(rng, 0.8, 1.2)
            self.height = _r(rng, 110.0, 260.0)
            self.speed = _r(rng, 350.0, 600.0) * (1.0 + 1.2 * h)
            self.tremor = (_r(rng, 0.05, 0.3), _r(rng, 7.0, 11.0))
            self.wobble = (_r(rng, 0.2, 1.0) * (1.0 + h), _r(rng, 1.0, 3.0))
            self.hesitate = _r(rng, 0.0, 0.15)
            self.jitter = 0.05 + 0.08 * h
            self.overshoot = (0.15 * (1.0 - h), _r(rng, 0.01, 0.03))
            self.retrace = 0.0
            self.big = 0.0
            self.deform = (0.006 + 0.018 * h * _r(rng, 0.5, 1.0), 0.004 + 0.01 * h)
            self.rot_sd = 1.0 + 2.0 * h
            self.tilt = float(rng.normal(0.0, 1.5))
            lo = _r(rng, 60.0, 150.0)
            self.gap_ms = (lo, lo + _r(rng, 60.0, 300.0) * (1.2 - 0.6 * h))
            self.round_r = 0.015 + 0.06 * h if h > 0.3 else 0.0
        if young and self.device == "mouse":
            self.speed *= 1.5
        # the writer's own slow deformation of every shape (fixed), and stroke habits
        self.field = _field(rng, self.deform[0])
        self.reverse = {}
        self.order = {}
        for d in range(10):
            self._fix_strokes(d, rng)
        # device
        if self.device == "finger":
            self.rate = _r(rng, 60.0, 120.0)
            self.noise = _r(rng, 0.3, 0.8) if young else _r(rng, 0.2, 0.5)
            self.dpr = float(rng.choice([1.0, 2.0, 3.0, 2.625]))
            ang = rng.uniform(0, 2 * math.pi)
            mag = _r(rng, 1.5, 5.0) if young else _r(rng, 0.5, 2.0)
            self.liftoff = (mag * math.cos(ang), mag * math.sin(ang))
        elif self.device == "pen":
            self.rate = _r(rng, 120.0, 240.0)
            self.noise = _r(rng, 0.05, 0.2)
            self.dpr = 0.0
            self.liftoff = (0.0, 0.0)
        else:
            self.rate = _r(rng, 60.0, 125.0)
            self.noise = 0.0
            self.dpr = 1.0
            self.liftoff = (0.0, 0.0)
            self.wobble = (self.wobble[0] * 1.5 + 0.5, self.wobble[1])

    def _fix_shape(self, d, rng):
        spec = SPECS[self.styles[d]]
        ranges = spec.young if self.hand == "young" else spec.adult
        self.base[d] = {k: _r(rng, lo, hi) for k, (lo, hi) in ranges.items()}
        if "dir" in self.base[d]:
            self.base[d]["dir"] = -1.0 if self.base[d]["dir"] < 0 else 1.0

    def _fix_strokes(self, d, rng):
        """Which strokes of digit d this writer draws the other way round, and in which order."""
        young = self.hand == "young"
        spec = SPECS[self.styles[d]]
        n = len(spec.fn(self.base[d]))
        self.reverse[d] = [bool(rng.random() < (0.14 if young else 0.03)) and not spec.fixed_dir for _ in range(n)]
        order = list(range(n))
        if n > 1 and rng.random() < (0.2 if young else 0.06):
            rng.shuffle(order)
        self.order[d] = order

    def with_style(self, digit: int, base_style: str) -> "Writer":
        """This writer, but writing digit with base_style (for sheets of every style)."""
        assert base_style in BASE_STYLES[digit]
        rng = np.random.default_rng([self.seed & 0xFFFFFFFF, 0x57E, digit])
        self.styles[digit] = base_style
        self._fix_shape(digit, rng)
        self._fix_strokes(digit, rng)
        return self

    # ---------------------------------------------------------------------------------
    def style(self, digit: int) -> str:
        return f"{self.styles[digit]}/{self.hand}"

    def _params(self, digit, rng):
        spec = SPECS[self.styles[digit]]
        ranges = spec.young if self.hand == "young" else spec.adult
        p = {}
        for k, v in self.base[digit].items():
            lo, hi = ranges[k]
            if k == "dir":
                p[k] = v
                continue
            p[k] = float(np.clip(v + rng.normal(0.0, self.jitter * (hi - lo)), lo, hi))
        return p

    def draw(self, digit: int, rng: np.random.Generator) -> list[list[list[float]]]:
        spec = SPECS[self.styles[digit]]
        for attempt in range(8):
            p = self._params(digit, rng)
            out = self._shape(digit, spec, p, rng)
            marks = spec.marks(p) if spec.marks else None
            placed, marks_px = self._place(out, marks, spec, rng, relax=min(attempt // 3, 2) / 2)
            if marks_px is None or spec.check(marks_px) or attempt == 7:
                break
        strokes = []
        t = float(rng.uniform(0.0, 30.0))
        for k, P in enumerate(placed):
            if k:
                t += float(rng.uniform(*self.gap_ms))
            s, t = self._sample(P, t, rng)
            strokes.append(s)
        return strokes

    def _shape(self, digit, spec, p, rng):
        """The template's strokes in digit-height units, with this hand's stroke habits."""
        paths = spec.fn(p)
        strokes = [(q.array(), list(q.corners)) for q in paths]
        # habits of order and direction
        strokes = [strokes[i] for i in self.order[digit] if i < len(strokes)]
        rev = [self.reverse[digit][i] for i in self.order[digit]]
        out = []
        for (P, corners), r in zip(strokes, rev):
            if r:
                P = P[::-1].copy()
                corners = [len(P) - 1 - c for c in corners]
            # corners: a young hand overshoots, a hurried one cuts them
            for c in sorted(corners, reverse=True):
                if rng.random() < self.overshoot[0]:
                    P = _overshoot(P, c, self.overshoot[1] * rng.uniform(0.5, 1.3), rng)
                elif self.round_r > 0:
                    P = _round_corner(P, c, self.round_r * rng.uniform(0.6, 1.2))
            out.append(P)
        # retracing (young): back over the end of a stroke, or a fix-up stroke over a part
        if self.retrace > 0 and rng.random() < self.retrace:
            k = int(rng.integers(len(out)))
            P = out[k]
            if len(P) > 12:
                off = rng.normal(0.0, 0.012, 2)
                if rng.random() < 0.6:
                    m = int(len(P) * rng.uniform(0.25, 0.6))
                    back = P[-m:][::-1] + off
                    P = np.concatenate([P, back])
                    if rng.random() < 0.5:
                        P = np.concatenate([P, P[-m:][::-1][1:] + off * 0.5])
                    out[k] = P
                else:
                    a = int(rng.integers(0, len(P) // 2))
                    b = int(min(len(P), a + max(8, len(P) * rng.uniform(0.3, 0.7))))
                    out.append(P[a:b] + off)
        return out

    def _place(self, out, marks, spec, rng, relax=0.0):
        """The hand's slow deformation, its slant, width, tilt and size, and a place on the
        pad: (strokes in pad pixels, the landmarks moved the same way or None)."""
        young = self.hand == "young"
        fld = _field(rng, self.deform[1])
        names = list(marks) if marks else []
        if names:
            out = out + [np.array([marks[k] for k in names], dtype=np.float64)]
        out = [_apply_field(_apply_field(P, self.field), fld) for P in out]
        allp = np.concatenate(out[:-1] if names else out)
        mn, mx = allp.min(0), allp.max(0)
        c = (mn + mx) / 2
        slant = float(np.clip(self.slant + rng.normal(0.0, 2.5 if young else 1.2), *spec.slant))
        rot = self.tilt + rng.normal(0.0, self.rot_sd)
        if spec.slant != _ANY_SLANT:  # keep a flagged 1 upright and a 7's stem leaning
            rot = float(np.clip(rot, -3.0, 3.0))
        aspect = self.aspect * math.exp(rng.normal(0.0, 0.06 if young else 0.03))
        if relax:  # later tries: the writer's width, slant and tilt habits eased (relax 1: set aside)
            aspect = aspect ** (1.0 - relax)
            slant = (1.0 - relax) * slant + relax * float(np.clip(6.0, *spec.slant))
            rot *= 1.0 - relax
        sh = math.tan(math.radians(slant))
        cr, sr = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        height = self.height * math.exp(rng.normal(0.0, 0.1 if young else 0.05))
        if young and rng.random() < self.big:
            height *= rng.uniform(1.25, 1.6)
        placed = []
        for P in out:
            x = (P[:, 0] - c[0]) * aspect
            y = P[:, 1] - c[1]
            x = x - sh * y  # top (y < 0) moves right for a positive slant
            X = cr * x - sr * y
            Y = sr * x + cr * y
            placed.append(np.column_stack([X, Y]) * height)
        mk = placed.pop() if names else None
        allp = np.concatenate(placed)
        mn, mx = allp.min(0), allp.max(0)
        ext = float((mx - mn).max())
        if ext > PAD - 16:
            f = (PAD - 16) / ext
            placed = [P * f for P in placed]
            mn, mx = mn * f, mx * f
            mk = mk * f if mk is not None else None
        size = mx - mn
        ox = rng.uniform(8 - mn[0], PAD - 8 - mx[0]) if size[0] < PAD - 16 else 8 - mn[0]
        oy = rng.uniform(8 - mn[1], PAD - 8 - mx[1]) if size[1] < PAD - 16 else 8 - mn[1]
        # pull towards the centre (people write in the middle of the pad)
        ox = 0.5 * ox + 0.5 * (PAD / 2 - (mn[0] + mx[0]) / 2)
        oy = 0.5 * oy + 0.5 * (PAD / 2 - (mn[1] + mx[1]) / 2)
        off = np.array([ox, oy])
        placed = [P + off for P in placed]
        marks_px = None
        if names:
            marks_px = {k: mk[i] + off for i, k in enumerate(names)}
            marks_px["_height"] = float(size[1])
        return placed, marks_px

    # ---------------------------------------------------------------------------------
    def _sample(self, P, t0, rng):
        """Motor timing along the path, then the device's points and noise."""
        young = self.hand == "young"
        d = np.diff(P, axis=0)
        ds = np.hypot(d[:, 0], d[:, 1])
        keep = np.concatenate([[True], ds > 1e-9])
        P = P[keep]
        if len(P) < 2:
            P = np.vstack([P, P + 0.3])
        d = np.diff(P, axis=0)
        ds = np.hypot(d[:, 0], d[:, 1])
        s = np.concatenate([[0.0], np.cumsum(ds)])
        L = float(s[-1])
        # speed: slower on tight curves (the two-thirds power law), starts and ends, with hesitations
        ang = np.arctan2(d[:, 1], d[:, 0])
        turn = np.abs((np.diff(ang) + np.pi) % (2 * np.pi) - np.pi)
        kappa = np.concatenate([[0.0], turn / np.maximum(0.5 * (ds[1:] + ds[:-1]), 1e-6), [0.0]])
        if len(kappa) > 5:
            kappa = np.convolve(kappa, np.ones(5) / 5, mode="same")
        R0 = 40.0
        v = self.speed * np.clip((1.0 / np.maximum(kappa, 1e-6) / R0) ** (1.0 / 3.0), 0.22, 1.25)
        ramp = max(0.12 * L, 8.0)
        v *= np.clip(np.minimum(s, L - s) / ramp, 0.0, 1.0) * 0.8 + 0.2
        if self.hesitate > 0:
            v *= np.exp(self.hesitate * _smooth_noise(s, rng, 90.0) - 0.5 * self.hesitate ** 2)
        vm = 0.5 * (v[1:] + v[:-1])
        tt = t0 + np.concatenate([[0.0], np.cumsum(ds / vm) * 1000.0])  # ms
        T = float(tt[-1])
        dt = 1000.0 / self.rate
        n = max(1, int((T - t0) / dt))
        ts = t0 + (np.arange(n + 1) * dt)
        ts += np.concatenate([[0.0], rng.uniform(-0.15, 0.15, n) * dt])
        if self.device == "finger" and n > 4:  # a dropped touch frame now and then
            drop = rng.random(n + 1) < 0.04
            drop[0] = drop[-1] = False
            ts = ts[~drop]
        ts = np.clip(ts, t0, T)
        ts[-1] = T
        ts = np.maximum.accumulate(ts)
        x = np.interp(ts, tt, P[:, 0])
        y = np.interp(ts, tt, P[:, 1])
        # the hand: tremor and slow wobble as functions of time (a slow line wiggles more)
        sec = ts / 1000.0
        for amp, f in (self.tremor, self.wobble):
            for c in range(2):
                a = amp * rng.uniform(0.6, 1.0)
                f1 = f * rng.uniform(0.8, 1.25)
                ph = rng.uniform(0, 2 * math.pi)
                (x if c == 0 else y)[:] += a * np.sin(2 * math.pi * f1 * sec + ph)
        if self.device == "finger":
            m = len(x)
            if young and rng.random() < 0.7:  # the finger settles where it lands: a noisy blob
                k = int(rng.integers(1, 4))
                x = np.concatenate([np.full(k, x[0]), x])
                y = np.concatenate([np.full(k, y[0]), y])
                ts = np.concatenate([ts[0] - dt * np.arange(k, 0, -1), ts]) + dt * k
                m = len(x)
            x += rng.normal(0.0, self.noise, m)
            y += rng.normal(0.0, self.noise, m)
            k = min(m - 1, int(rng.integers(1, 4)))
            if k > 0:  # the contact's centre drifts as the finger lifts
                w = np.linspace(0.0, 1.0, k + 1)[1:]
                x[-k:] += self.liftoff[0] * w * rng.uniform(0.5, 1.2)
                y[-k:] += self.liftoff[1] * w * rng.uniform(0.5, 1.2)
            q = 1.0 / self.dpr
            x = np.round(x / q) * q
            y = np.round(y / q) * q
        elif self.device == "pen":
            x = x + rng.normal(0.0, self.noise, len(x))
            y = y + rng.normal(0.0, self.noise, len(y))
            x, y = np.round(x, 2), np.round(y, 2)
        else:  # mouse: integer points, none reported while it does not move
            x, y = np.round(x), np.round(y)
            moved = np.concatenate([[True], (np.diff(x) != 0) | (np.diff(y) != 0)])
            moved[-1] = True
            x, y, ts = x[moved], y[moved], ts[moved]
        # strictly increasing times
        ts = np.round(ts, 3)
        for i in range(1, len(ts)):
            if ts[i] <= ts[i - 1]:
                ts[i] = ts[i - 1] + 0.5
        stroke = [[float(a), float(b), float(c)] for a, b, c in zip(x, y, ts)]
        return stroke, float(ts[-1])


def make_writer(seed: int) -> Writer:
    return Writer(seed)


def make_set(n_writers: int, per_digit: int, seed: int) -> list[tuple[int, str, str, list]]:
    """(digit, style, writer_id, strokes) for per_digit drawings of each digit by each of
    n_writers writers; deterministic for a seed."""
    out = []
    for i in range(n_writers):
        w = make_writer(int(seed) * 1_000_003 + i)
        rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, i, 0x5E7])
        for d in range(10):
            for _ in range(per_digit):
                out.append((d, w.style(d), w.id, w.draw(d, rng)))
    return out


# --------------------------------------------------------------------------------------
# Looking at them


def _sheet(path, items, cols=12, title=None, raster_too=False, cell=1.3):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = (len(items) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(cols * cell, rows * cell * 1.12))
    axes = np.atleast_2d(axes)
    for ax in axes.flat:
        ax.axis("off")
    for ax, (label, strokes) in zip(axes.flat, items):
        if raster_too:
            import raster
            ax.imshow(raster.rasterize(strokes), cmap="gray_r", vmin=0, vmax=1)
        else:
            for s in strokes:
                a = np.array(s)
                ax.plot(a[:, 0], a[:, 1], "-", lw=1.2, color="k")
                ax.plot(a[:, 0], a[:, 1], ".", ms=1.5, color="tab:red")
            allp = np.concatenate([np.array(s)[:, :2] for s in strokes])
            mn, mx = allp.min(0), allp.max(0)
            c, e = (mn + mx) / 2, max((mx - mn).max() / 2, 10) * 1.1
            ax.set_xlim(c[0] - e, c[0] + e)
            ax.set_ylim(c[1] + e, c[1] - e)
            ax.set_aspect("equal")
        ax.set_title(label, fontsize=6)
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _main():
    import argparse
    import os
    import time
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheet", action="store_true", help="out/templates_sheet_<hand>.png: every style, 6 writers each")
    ap.add_argument("--raster", action="store_true", help="the sheets as the reader's 28 x 28 rasters")
    ap.add_argument("--digit", type=int, default=None)
    ap.add_argument("--n", type=int, default=6, help="writers per style on the sheet")
    ap.add_argument("--time", action="store_true", help="time make_set(200, 5, 0)")
    ap.add_argument("--freq", action="store_true", help="style shares over 20,000 writers")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(os.path.join(here, "out"), exist_ok=True)
    if a.time:
        t0 = time.process_time()
        s = make_set(200, 5, 0)
        dt = time.process_time() - t0
        pts = sum(len(st) for _, _, _, ss in s for st in ss)
        print(f"make_set(200, 5, 0): {len(s)} drawings in {dt:.1f} s CPU, {pts / len(s):.0f} points a drawing")
    if a.freq:
        from collections import Counter
        n = 20000
        ws = [make_writer(10_000_000 + i) for i in range(n)]
        for hand in HANDS:
            cnt = Counter(w.styles[d] for w in ws if w.hand == hand for d in range(10))
            nh = sum(1 for w in ws if w.hand == hand)
            print(hand, nh, "writers")
            for d in range(10):
                print(f"  {d}: " + ", ".join(f"{s[2:]} {100 * cnt[s] / nh:.0f}%" for s in BASE_STYLES[d]))
        print("devices", Counter((w.hand, w.device) for w in ws))
    if a.sheet:
        for hand in HANDS:
            items = []
            for d in (range(10) if a.digit is None else [a.digit]):
                for st in BASE_STYLES[d]:
                    found, seed = 0, 5_000_000 + 1000 * d
                    while found < a.n:
                        seed += 1
                        w = make_writer(seed)
                        if w.hand != hand:
                            continue
                        w.with_style(d, st)
                        rng = np.random.default_rng(seed)
                        items.append((f"{st}/{hand[0]} {w.device[0]}", w.draw(d, rng)))
                        found += 1
            suffix = ("_r" if a.raster else "") + (f"_{a.digit}" if a.digit is not None else "")
            out = os.path.join(here, "out", f"templates_sheet_{hand}{suffix}.png")
            _sheet(out, items, cols=12, title=f"templates, {hand} hands", raster_too=a.raster)
            print(out)


if __name__ == "__main__":
    _main()
