"""Synthetic on-line handwriting: digits as pen strokes, in many styles and writers.

A *style* is a list of strokes, each a list of control points in a unit box
(x right, y down, height 1). A control point given twice makes a sharp corner.
A *writer* is a random set of habits (slant, rotation, width, wobble, size and
position on the canvas, device: pen / mouse / finger / fast flick) drawn from a
seed. Each drawing = style + writer + per-drawing noise, sampled like a browser
would send it: [[x, y, t_ms], ...] per stroke, in canvas pixels.

Styles marked test_only are never used in training; the stroke test set uses
them and writers from a separate seed range.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def ell(cx, cy, rx, ry, a0, a1, n=10):
    a = np.radians(np.linspace(a0, a1, n))
    return [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in a]


# (digit, name, test_only, strokes)
STYLES = [
    (0, "oval", False, [ell(0.35, 0.5, 0.32, 0.5, -95, 275, 14)]),
    (0, "narrow", False, [ell(0.3, 0.5, 0.2, 0.5, -80, 290, 14)]),
    (0, "round", False, [ell(0.5, 0.5, 0.5, 0.5, -90, 275, 16)]),
    (0, "tail", True, [ell(0.35, 0.52, 0.3, 0.48, -60, 330, 16)]),
    (1, "stick", False, [[(0.3, 0.0), (0.3, 1.0)]]),
    (1, "flag", False, [[(0.08, 0.22), (0.35, 0.0), (0.35, 0.0), (0.35, 1.0)]]),
    (1, "flagbase", False, [[(0.1, 0.2), (0.35, 0.0), (0.35, 0.0), (0.35, 1.0)], [(0.1, 1.0), (0.6, 1.0)]]),
    (1, "base", False, [[(0.35, 0.0), (0.35, 1.0)], [(0.12, 1.0), (0.58, 1.0)]]),
    (1, "curved", True, [[(0.2, 0.12), (0.36, 0.0), (0.36, 0.0), (0.3, 0.5), (0.26, 1.0)]]),
    (2, "swan", False, [[(0.05, 0.25), (0.3, 0.0), (0.6, 0.18), (0.55, 0.45), (0.05, 1.0), (0.05, 1.0), (0.7, 1.0)]]),
    (2, "loop", False, [[(0.05, 0.22), (0.32, 0.0), (0.6, 0.2), (0.5, 0.5), (0.1, 0.92), (0.22, 0.8), (0.26, 0.98), (0.72, 1.0)]]),
    (2, "zed", True, [[(0.05, 0.15), (0.35, 0.0), (0.62, 0.15), (0.6, 0.32), (0.05, 1.0), (0.05, 1.0), (0.7, 1.0)]]),
    (3, "cusp", False, [[(0.05, 0.15), (0.35, 0.0), (0.6, 0.2), (0.5, 0.42), (0.25, 0.48), (0.25, 0.48),
                         (0.55, 0.6), (0.6, 0.85), (0.3, 1.0), (0.0, 0.85)]]),
    (3, "flattop", False, [[(0.05, 0.0), (0.6, 0.0), (0.6, 0.0), (0.25, 0.4), (0.25, 0.4), (0.55, 0.55),
                            (0.6, 0.8), (0.35, 1.0), (0.02, 0.88)]]),
    (3, "round", True, [[(0.1, 0.12), (0.4, 0.0), (0.6, 0.2), (0.35, 0.46), (0.6, 0.66), (0.45, 0.95), (0.05, 0.9)]]),
    (4, "open", False, [[(0.35, 0.0), (0.0, 0.65), (0.0, 0.65), (0.7, 0.65)], [(0.55, 0.3), (0.55, 1.0)]]),
    (4, "closed", False, [[(0.5, 0.0), (0.0, 0.65), (0.0, 0.65), (0.7, 0.65)], [(0.5, 0.0), (0.5, 1.0)]]),
    (4, "square", False, [[(0.05, 0.0), (0.05, 0.55), (0.05, 0.55), (0.65, 0.55)], [(0.5, 0.05), (0.5, 1.0)]]),
    (4, "bent", True, [[(0.4, 0.0), (0.05, 0.6), (0.05, 0.6), (0.75, 0.6)], [(0.5, 0.25), (0.5, 0.6), (0.46, 1.0)]]),
    (5, "twostroke", False, [[(0.1, 0.0), (0.1, 0.42), (0.1, 0.42), (0.45, 0.38), (0.62, 0.65), (0.45, 0.95),
                              (0.1, 0.95), (0.0, 0.85)], [(0.1, 0.0), (0.6, 0.0)]]),
    (5, "onestroke", False, [[(0.6, 0.0), (0.1, 0.0), (0.1, 0.0), (0.08, 0.45), (0.08, 0.45), (0.45, 0.38),
                              (0.62, 0.65), (0.45, 0.95), (0.1, 0.95), (0.0, 0.85)]]),
    (5, "bigbowl", True, [[(0.12, 0.02), (0.08, 0.38), (0.08, 0.38), (0.4, 0.33), (0.68, 0.6), (0.5, 0.97),
                           (0.15, 0.97), (0.0, 0.8)], [(0.12, 0.02), (0.65, -0.03)]]),
    (6, "round", False, [[(0.55, 0.0), (0.25, 0.2), (0.05, 0.6), (0.15, 0.95), (0.45, 0.95), (0.55, 0.7),
                          (0.35, 0.5), (0.1, 0.6)]]),
    (6, "straight", False, [[(0.5, 0.0), (0.15, 0.45), (0.1, 0.75), (0.3, 1.0), (0.55, 0.8), (0.45, 0.55),
                             (0.15, 0.65)]]),
    (6, "smallloop", True, [[(0.6, 0.05), (0.2, 0.35), (0.1, 0.8), (0.3, 1.0), (0.5, 0.85), (0.4, 0.68),
                             (0.15, 0.78)]]),
    (7, "plain", False, [[(0.0, 0.05), (0.65, 0.05), (0.65, 0.05), (0.25, 1.0)]]),
    (7, "crossed", False, [[(0.0, 0.05), (0.65, 0.05), (0.65, 0.05), (0.25, 1.0)], [(0.15, 0.5), (0.6, 0.5)]]),
    (7, "curved", False, [[(0.0, 0.0), (0.65, 0.0), (0.65, 0.0), (0.4, 0.45), (0.3, 1.0)]]),
    (7, "european", False, [[(0.0, 0.0), (0.65, 0.0), (0.65, 0.0), (0.35, 0.5), (0.28, 1.0)],
                             [(0.2, 0.5), (0.6, 0.48)]]),
    (7, "serif", True, [[(0.02, 0.18), (0.02, 0.03), (0.02, 0.03), (0.65, 0.03), (0.65, 0.03), (0.3, 1.0)]]),
    (8, "sloop", False, [[(0.55, 0.1), (0.3, 0.0), (0.1, 0.15), (0.2, 0.35), (0.45, 0.52), (0.6, 0.75),
                          (0.4, 1.0), (0.12, 0.9), (0.12, 0.7), (0.35, 0.5), (0.55, 0.3), (0.55, 0.1)]]),
    (8, "twocircles", False, [ell(0.35, 0.25, 0.22, 0.25, -90, 270, 12), ell(0.35, 0.74, 0.28, 0.26, -90, 270, 12)]),
    (8, "snowman", True, [ell(0.35, 0.22, 0.17, 0.22, 90, 450, 12), ell(0.35, 0.71, 0.3, 0.29, -90, 270, 12)]),
    (9, "stick", False, [[(0.6, 0.1), (0.35, 0.0), (0.08, 0.2), (0.2, 0.45), (0.55, 0.35), (0.6, 0.1),
                          (0.6, 0.1), (0.55, 1.0)]]),
    (9, "curvedstem", False, [[(0.6, 0.12), (0.35, 0.0), (0.08, 0.2), (0.2, 0.45), (0.55, 0.35), (0.6, 0.15),
                               (0.55, 0.6), (0.35, 1.0)]]),
    (9, "hook", False, [[(0.6, 0.12), (0.35, 0.0), (0.08, 0.2), (0.2, 0.45), (0.55, 0.35), (0.6, 0.15),
                         (0.58, 0.7), (0.45, 0.98), (0.2, 0.9)]]),
    (9, "twostroke", True, [ell(0.35, 0.25, 0.27, 0.25, 0, 360, 12), [(0.62, 0.2), (0.6, 1.0)]]),
]


def catmull_rom(pts, per_seg=12):
    p = np.asarray(pts, np.float64)
    if len(p) == 1:
        return p
    ext = np.vstack([2 * p[0] - p[1], p, 2 * p[-1] - p[-2]])
    out = []
    t = np.linspace(0, 1, per_seg, endpoint=False)[:, None]
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                          + (-p0 + 3 * p1 - 3 * p2 + p3) * t ** 3))
    out.append(p[-1:])
    return np.vstack(out)


@dataclass
class Writer:
    slant: float
    rotation: float
    aspect: float
    jitter: float
    wobble: float
    size: float
    device: str
    spacing: float
    end_noise: float

    @staticmethod
    def sample(rng: np.random.Generator) -> "Writer":
        device = rng.choice(["pen", "mouse", "finger", "fast"], p=[0.3, 0.3, 0.25, 0.15])
        return Writer(
            slant=float(rng.uniform(-0.3, 0.6)),
            rotation=float(rng.uniform(-0.25, 0.25)),
            aspect=float(np.exp(rng.uniform(-0.5, 0.3))),
            jitter=float(rng.uniform(0.005, 0.05)),
            wobble=float(rng.uniform(0.0, 0.035)),
            size=float(np.exp(rng.uniform(np.log(25), np.log(320)))),
            device=str(device),
            spacing=float(rng.uniform(0.01, 0.06)),
            end_noise=float(rng.uniform(0.0, 0.08)),
        )


def draw(style_strokes, w: Writer, rng: np.random.Generator, canvas=(400.0, 400.0)):
    """Returns strokes [[[x, y, t_ms], ...], ...] in canvas pixels."""
    slant = w.slant + rng.normal(0, 0.05)
    rot = w.rotation + rng.normal(0, 0.04)
    aspect = w.aspect * np.exp(rng.normal(0, 0.06))
    size = w.size * np.exp(rng.normal(0, 0.1))
    c, s = math.cos(rot), math.sin(rot)
    shapes = []
    for stroke in style_strokes:
        ctrl = np.asarray(stroke, np.float64) + rng.normal(0, w.jitter, (len(stroke), 2))
        dense = catmull_rom(ctrl)
        if len(dense) > 2:
            # overshoot / undershoot the ends a little
            for end in (0, 1):
                k = rng.uniform(-w.end_noise, w.end_noise)
                a, b = (dense[0], dense[1]) if end == 0 else (dense[-1], dense[-2])
                d = a - b
                n = np.linalg.norm(d)
                if n > 1e-9 and k > 0:
                    newp = a + d / n * k * 0.5
                    dense = np.vstack([newp, dense]) if end == 0 else np.vstack([dense, newp])
        # low-frequency wobble along the path
        if w.wobble > 0 and len(dense) > 3:
            m = len(dense)
            f = rng.normal(0, w.wobble, (max(m // 8, 2), 2))
            idx = np.linspace(0, len(f) - 1, m)
            dense = dense + np.stack([np.interp(idx, np.arange(len(f)), f[:, 0]),
                                      np.interp(idx, np.arange(len(f)), f[:, 1])], 1)
        x = dense[:, 0] * aspect - slant * (dense[:, 1] - 0.5)
        y = dense[:, 1]
        shapes.append(np.stack([c * x - s * y, s * x + c * y], 1) * size)
    allp = np.vstack(shapes)
    lo, hi = allp.min(0), allp.max(0)
    # place anywhere on the canvas, sometimes partly outside
    room = [max(-0.1 * canvas[k], canvas[k] * 1.1 - (hi - lo)[k]) for k in (0, 1)]
    off = np.array([rng.uniform(-0.1 * canvas[0], room[0]),
                    rng.uniform(-0.1 * canvas[1], room[1])]) - lo
    out, t = [], float(rng.uniform(0, 1000))
    for shp in shapes:
        shp = shp + off
        seglen = np.linalg.norm(np.diff(shp, axis=0), axis=1) if len(shp) > 1 else np.zeros(0)
        cum = np.concatenate([[0.0], np.cumsum(seglen)])
        total = cum[-1]
        if w.device == "fast":
            n = int(min(max(total / (rng.uniform(0.1, 0.2) * size), 4), 400))
        else:
            step = max(w.spacing * size * np.exp(rng.normal(0, 0.2)), 1.0)
            if w.device == "finger":
                step *= 2.0
            n = int(min(max(total / step, 2), 400))
        if total <= 1e-9:
            pos = np.zeros(1)
        else:
            # uneven speed: slow at the ends, fast in the middle
            u = np.sort(np.clip(np.linspace(0, 1, n) + rng.normal(0, 0.3 / n, n), 0, 1))
            u = 0.6 * (0.5 - 0.5 * np.cos(np.pi * u)) + 0.4 * u if w.device != "fast" else u
            pos = u * total
        px = np.interp(pos, cum, shp[:, 0]); py = np.interp(pos, cum, shp[:, 1])
        if w.device == "mouse":
            px = np.round(px); py = np.round(py)
        elif w.device == "finger":
            px = px + rng.normal(0, 0.6, len(px)); py = py + rng.normal(0, 0.6, len(py))
        elif w.device == "pen":
            px = px + rng.normal(0, 0.15, len(px)); py = py + rng.normal(0, 0.15, len(py))
        pts = []
        for i in range(len(px)):
            t += float(rng.uniform(8, 20))
            pts.append([float(px[i]), float(py[i]), round(t, 1)])
            if w.device == "mouse" and rng.random() < 0.05:  # duplicated events
                pts.append([float(px[i]), float(py[i]), round(t, 1)])
        out.append(pts)
        t += float(rng.uniform(80, 400))
    return out


def styles(test_only: bool | None):
    return [(d, n, s) for (d, n, t, s) in STYLES if test_only is None or t == test_only]


def make_set(n_writers: int, per_digit: int, seed: int, test: bool):
    """Drawings [(digit, style, writer_id, strokes)]. Train: train styles only.
    Test: all styles (the test-only ones included) with writers from another seed."""
    rng = np.random.default_rng(seed)
    pool = styles(None) if test else styles(False)
    by_digit = {d: [(n, s) for (d2, n, s) in pool if d2 == d] for d in range(10)}
    out = []
    for wid in range(n_writers):
        w = Writer.sample(rng)
        for d in range(10):
            for _ in range(per_digit):
                opts = by_digit[d]
                name, st = opts[int(rng.integers(len(opts)))]
                out.append((d, name, wid, draw(st, w, rng)))
    return out
