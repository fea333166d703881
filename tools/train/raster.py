"""NumPy twin of the server's stroke rasterizer (Sources/MindPadRecognition/Rasterizer.swift).

Both implementations follow the same steps with the same constants, in float64,
and `Tests/MindPadRecognitionTests/RasterizerParityTests.swift` checks that the
Swift version reproduces `fixtures/raster_parity.json`, made by this file.

Steps (grid pixel (row r, column c) has its centre at (x=c, y=r)):
1. bounding box of all points; scale = FIT_SIZE / longest side (aspect kept);
   a drawing with no extent (one point, or all points equal) is a dot; within a
   stroke, points closer than MIN_STEP px (after scaling) to the last kept point
   are skipped, except the stroke's last point.
2. map points so the box centre lands on (CENTRE, CENTRE) and draw every
   segment between consecutive points of a stroke as a capsule of width
   PEN_WIDTH: pixel value = clamp(PEN_WIDTH/2 + 0.5 - distance, 0, 1),
   combined with max (a one-point stroke is a zero-length capsule: a dot).
3. compute the intensity centre of mass, shift the points by (CENTRE - com)
   and draw again, so the centre of mass lands on pixel (14, 14) like MNIST.
"""
from __future__ import annotations

import numpy as np

GRID = 28
FIT_SIZE = 18.0  # longest side of the points' bounding box, in pixels
PEN_WIDTH = 2.4  # stroke width in pixels (ink mass ~100 px per digit, like MNIST)
CENTRE = 14.0  # MNIST puts the centre of mass on pixel index 14
MAX_POINTS = 10_000
MAX_STROKES = 64
MAX_MAGNITUDE = 1e6
MIN_STEP = 0.75  # px: closer points of a stroke are skipped (not its last point)
DEGENERATE = 1e-9  # extent below DEGENERATE * max(|coord|, 1) is a dot

_cols = np.arange(GRID, dtype=np.float64)[None, None, :]
_rows = np.arange(GRID, dtype=np.float64)[None, :, None]


class RasterError(ValueError):
    pass


def frame(strokes, fit_size: float = FIT_SIZE):
    """(midx, midy, scale): (p - mid) * scale puts the points' box centre at 0 and its
    longer side at fit_size (scale 0: a box without extent, a dot)."""
    xs = [float(p[0]) for s in strokes for p in s]; ys = [float(p[1]) for s in strokes for p in s]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    extent = max(maxx - minx, maxy - miny)
    mag = max(abs(minx), abs(maxx), abs(miny), abs(maxy), 1.0)
    scale = 0.0 if extent <= DEGENERATE * mag else fit_size / extent
    return (minx + maxx) / 2.0, (miny + maxy) / 2.0, scale


def kept_points(strokes, midx, midy, scale, min_step: float = MIN_STEP):
    """Each non-empty stroke's kept points [(x, y), ...], in scaled (not yet centred)
    pixels. A point closer than min_step px to the last kept point of its stroke is
    skipped, unless it ends the stroke: dense input (a pen at 240 Hz) costs no more than
    sparse input, and the line moves by at most min_step^2 / (8 r) px on a curve of radius r."""
    out = []
    step2 = min_step * min_step
    for s in strokes:
        if len(s) == 0:
            continue
        kx = (float(s[0][0]) - midx) * scale; ky = (float(s[0][1]) - midy) * scale
        kept = [(kx, ky)]
        last = len(s) - 1
        for i in range(1, len(s)):
            px = (float(s[i][0]) - midx) * scale; py = (float(s[i][1]) - midy) * scale
            if i != last:
                dx = px - kx; dy = py - ky
                if dx * dx + dy * dy < step2:
                    continue
            kept.append((px, py))
            kx, ky = px, py
        out.append(kept)
    return out


def _decimated_segments(strokes, midx, midy, scale, min_step):
    """Segments between consecutive kept points (a one-point stroke: a zero-length one)."""
    ax, ay, bx, by = [], [], [], []
    for kept in kept_points(strokes, midx, midy, scale, min_step):
        pairs = zip(kept, kept[1:]) if len(kept) > 1 else [(kept[0], kept[0])]
        for (kx, ky), (px, py) in pairs:
            ax.append(kx); ay.append(ky); bx.append(px); by.append(py)
    return (np.array(ax, np.float64), np.array(ay, np.float64),
            np.array(bx, np.float64), np.array(by, np.float64))


def _render(ax, ay, bx, by, pen):
    r = pen / 2.0
    img = np.zeros((GRID, GRID), np.float32)
    for i in range(0, len(ax), 512):
        sax = ax[i:i + 512, None, None]; say = ay[i:i + 512, None, None]
        ex = bx[i:i + 512, None, None] - sax; ey = by[i:i + 512, None, None] - say
        len2 = ex * ex + ey * ey
        inverse = np.where(len2 > 1e-12, 1.0 / np.where(len2 > 1e-12, len2, 1.0), 0.0)
        t = np.clip(((_cols - sax) * ex + (_rows - say) * ey) * inverse, 0.0, 1.0)
        qx = sax + t * ex - _cols
        qy = say + t * ey - _rows
        d = np.sqrt(qx * qx + qy * qy)
        v = np.clip(r + 0.5 - d, 0.0, 1.0).astype(np.float32)
        img = np.maximum(img, v.max(axis=0))
    return img


def validate(strokes):
    if len(strokes) > MAX_STROKES:
        raise RasterError("tooManyStrokes")
    n = sum(len(s) for s in strokes)
    if n > MAX_POINTS:
        raise RasterError("tooManyPoints")
    if n == 0:
        raise RasterError("emptyDrawing")
    for s in strokes:
        for p in s:
            if not all(np.isfinite(v) for v in p[:3]):
                raise RasterError("nonFiniteValue")
            if abs(p[0]) > MAX_MAGNITUDE or abs(p[1]) > MAX_MAGNITUDE:
                raise RasterError("coordinateOutOfRange")


SPECK_SIZE = 0.06  # Recognizer.speckSize: a stroke under this share of the tallest stroke's height is no ink


def without_specks(strokes, size: float = SPECK_SIZE):
    """The strokes without taps and ticks, as `Recognizer.withoutSpecks` leaves
    them out before reading a whole drawing: a stroke whose box's larger side is
    under `size` of the tallest stroke's height. (Swift empties such a stroke
    to keep stroke numbers; dropping it draws and measures the same.)"""
    def box(s):
        if len(s) == 0:
            return 0.0, 0.0
        xs, ys = [p[0] for p in s], [p[1] for p in s]
        return max(xs) - min(xs), max(ys) - min(ys)
    if size <= 0 or len(strokes) < 2:
        return strokes
    boxes = [box(s) for s in strokes]
    least = max(h for _, h in boxes) * size
    if least <= 0:
        return strokes
    return [s for s, (w, h) in zip(strokes, boxes) if len(s) == 0 or max(w, h) >= least]


def rasterize(strokes, pen_width: float = PEN_WIDTH, fit_size: float = FIT_SIZE,
              min_step: float = MIN_STEP) -> np.ndarray:
    """strokes: list of strokes, each a sequence of (x, y[, t]). Returns float32 (28, 28) in [0, 1]."""
    validate(strokes)
    midx, midy, scale = frame(strokes, fit_size)
    return _centred(*_decimated_segments(strokes, midx, midy, scale, min_step), pen_width)


def rasterize_segments(ax, ay, bx, by, pen_width: float = PEN_WIDTH, fit_size: float = FIT_SIZE) -> np.ndarray:
    """Steps 1-3 on raw segments (a -> b, float64 arrays), without limits or decimation
    (used to re-draw MNIST skeletons)."""
    xs = np.concatenate([ax, bx]); ys = np.concatenate([ay, by])
    minx, maxx, miny, maxy = xs.min(), xs.max(), ys.min(), ys.max()
    extent = max(maxx - minx, maxy - miny)
    mag = max(abs(minx), abs(maxx), abs(miny), abs(maxy), 1.0)
    scale = 0.0 if extent <= DEGENERATE * mag else fit_size / extent
    midx = (minx + maxx) / 2.0; midy = (miny + maxy) / 2.0
    return _centred((ax - midx) * scale, (ay - midy) * scale, (bx - midx) * scale, (by - midy) * scale, pen_width)


def _centred(ax, ay, bx, by, pen_width):
    """Draw with the box centre on CENTRE, then again shifted so the centre of mass is there."""
    img = _render(ax + CENTRE, ay + CENTRE, bx + CENTRE, by + CENTRE, pen_width)
    img64 = img.astype(np.float64)
    mass = img64.sum()
    if mass > 0:
        comx = (img64.sum(axis=0) * np.arange(GRID)).sum() / mass
        comy = (img64.sum(axis=1) * np.arange(GRID)).sum() / mass
        ox = CENTRE + (CENTRE - comx); oy = CENTRE + (CENTRE - comy)
        img = _render(ax + ox, ay + oy, bx + ox, by + oy, pen_width)
    return img
