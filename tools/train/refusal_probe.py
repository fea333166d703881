"""Probes of the refusal rule (issue 18), measured (docs/recognition.md, "A seventh pass"; the
stroke features then shipped through refusal.py, "An eighth pass"): would more than the network's calibrated confidence refuse more
non-digits at the same share of true digits refused (0.25 % of the calibration digits)?

usage: .venv/bin/python refusal_probe.py WEIGHTS --tta       # the network on shifted, turned, scaled images
       .venv/bin/python refusal_probe.py WEIGHTS --features  # the confidence with features of the strokes
(WEIGHTS: the seventh pass probed the v5 weights, today ../../Sources/MindPadRecognition/Resources/
 mindpad-numbers.safetensors; T = the file's temperature.)
"""
import sys

import numpy as np
from scipy import ndimage
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression

import data
import export
import quick_eval
import raster
import refusal

p = quick_eval.load(sys.argv[1])
if sys.argv[1].endswith(".safetensors"):  # the file's own temperature (0.4644 for the v5 weights probed)
    from safetensors import safe_open
    with safe_open(sys.argv[1], framework="numpy") as f:
        T = float(f.metadata()["temperature"])
else:
    T = 0.4644


def option(name, default):
    return float(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


# --features: the points the stroke features are measured on (--step S: decimated
# at S px of an 18-px drawing, 0: as drawn), and the shaky pen of the stress set.
STEP = option("--step", 0.0)
NOISE = option("--noise", 0.01)
DENSER = int(option("--denser", 4))


def tta():
    xd, yd, xn = data.calibration_sets()
    xt, yt, _ = data.synthetic_test()
    xnt = data.render([r[2] for r in data.nondigit_test_drawings()])
    _, _, xh, yh = data.mnist_split()

    def augs(x):
        out = [x]
        for dx, dy in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
            out.append(ndimage.shift(x, (0, dy, dx), order=1))
        for ang in (-10, 10):
            out.append(ndimage.rotate(x, ang, axes=(1, 2), reshape=False, order=1))
        for s in (0.88, 1.12):
            c = 13.5
            m = np.array([[1 / s, 0], [0, 1 / s]])
            off = c - m @ np.array([c, c])
            out.append(np.stack([ndimage.affine_transform(i, m, offset=off, order=1) for i in x]))
        return out

    def probs(x):
        return [export.digit_probabilities(export.logits_of(p, a.astype(np.float32)), T) for a in augs(x)]

    sets = {"calib digits": probs(xd), "calib non": probs(xn), "test digits": probs(xt), "test non": probs(xnt), "mnist": probs(xh)}
    labels = {"calib digits": yd, "test digits": yt, "mnist": yh}

    def scores(ps, how, k):
        base = ps[0]
        read = base.argmax(1)
        sel = ps[:k]
        if how == "base":
            return base.max(1), read
        if how == "mean":
            m = np.mean(sel, 0); return m.max(1), m.argmax(1)
        if how == "minread":  # the base reading's probability, at its lowest over the variants
            return np.min([q[np.arange(len(read)), read] for q in sel], 0), read

    for how, k in [("base", 1), ("mean", 5), ("mean", 9), ("minread", 5), ("minread", 7), ("minread", 9)]:
        conf, _ = scores(sets["calib digits"], how, k)
        thr = np.quantile(conf, 0.0025)
        row = [f"{how}{k}: thr {thr:.4f}"]
        for name, ps in sets.items():
            c, r = scores(ps, how, k)
            ref = (c < thr).mean()
            s = f"{name} refused {100*ref:.2f}%"
            if name in labels:
                s += f" read {100*(r == labels[name]).mean():.2f}%"
            row.append(s)
        print(" | ".join(row), flush=True)


def features():

    def decimated(pts):
        """The points scaled so the drawing's longest side is raster.FIT_SIZE px, a point
        closer than STEP px to the last kept one skipped (not a stroke's last)."""
        allp = np.concatenate(pts)
        ext = max(np.ptp(allp[:, 0]), np.ptp(allp[:, 1]), 1e-6)
        out = []
        for q in pts:
            q = q * (raster.FIT_SIZE / ext)
            kept = [q[0]]
            for i in range(1, len(q)):
                if i == len(q) - 1 or np.sum((q[i] - kept[-1]) ** 2) >= STEP * STEP:
                    kept.append(q[i])
            out.append(np.array(kept))
        return out

    def feats(drawings):
        rows = []
        for strokes in drawings:
            pts = [np.asarray(s, float)[:, :2] for s in strokes]
            if STEP > 0:
                pts = decimated(pts)
            allp = np.concatenate(pts)
            w, h = np.ptp(allp[:, 0]), np.ptp(allp[:, 1])
            ext = max(w, h, 1e-6)
            length = sum(np.linalg.norm(np.diff(q, axis=0), axis=1).sum() for q in pts)
            turn = 0.0
            for q in pts:
                d = np.diff(q, axis=0)
                d = d[np.linalg.norm(d, axis=1) > 1e-9]
                if len(d) > 2:
                    a = np.arctan2(d[:, 1], d[:, 0])
                    da = np.angle(np.exp(1j * np.diff(a)))
                    turn += np.abs(da).sum()
            rows.append([len(pts), length / ext, turn / (2 * np.pi), w / ext, h / ext])
        return np.array(rows)

    def net(x):
        pr = export.digit_probabilities(export.logits_of(p, x), T)
        s = np.sort(pr, 1)
        return np.stack([s[:, -1], s[:, -2], -(pr * np.log(pr + 1e-12)).sum(1)], 1)

    cd = data.synthetic_calib_drawings(); cn = data.nondigit_calib_drawings()
    td = data.synthetic_test_drawings(); tn = data.nondigit_test_drawings()

    sets = {
        "calib digits": [r[3] for r in cd], "calib non": [r[2] for r in cn],
        "test digits": [r[3] for r in td], "test non": [r[2] for r in tn],
    }
    X = {k: np.hstack([net(data.render(v)), feats(v)]) for k, v in sets.items()}

    def design(F, which):
        conf, second, ent, n, lr, turn, wr, hr = F.T
        cols = {"conf": [np.log(conf / (1 - conf + 1e-9) + 1e-9)], "second": [second], "ent": [ent],
                "n": [n, np.minimum(n, 4)], "len": [np.log(lr)], "turn": [np.log(turn + 0.1)], "shape": [wr, hr]}
        return np.stack([c for k in which for c in cols[k]], 1)

    y = np.r_[np.zeros(len(X["calib digits"])), np.ones(len(X["calib non"]))]

    def rule(clf, which):
        """`clf` fitted on the calibration set; returns refused(F), its threshold
        refusing 0.25 % of the calibration digits."""
        clf.fit(np.vstack([design(X["calib digits"], which), design(X["calib non"], which)]), y)
        thr = np.quantile(clf.decision_function(design(X["calib digits"], which)), 1 - 0.0025)
        return lambda F: clf.decision_function(design(F, which)) > thr

    def report(name, refused):
        print(f"{name}: " + " | ".join(f"{k} refused {100 * refused(F).mean():.2f}%" for k, F in X.items()), flush=True)

    everything = ["conf", "second", "ent", "n", "len", "turn", "shape"]
    # Logistic rules: the confidence alone (today's rule), then more inputs.
    for which in (["conf"], ["conf", "second", "ent"], ["conf", "n", "len", "turn"]):
        report("+".join(which), rule(LogisticRegression(C=1.0, max_iter=5000, class_weight="balanced"), which))
    rules = {"logistic": rule(LogisticRegression(C=1.0, max_iter=5000, class_weight="balanced"), everything)}
    report("+".join(everything), rules["logistic"])
    for depth in (2, 3):
        rules[f"gbm{depth}"] = rule(HistGradientBoostingClassifier(
            max_depth=depth, max_iter=150, learning_rate=0.1, class_weight="balanced", random_state=0), everything)
        report(f"gbm {depth}", rules[f"gbm{depth}"])

    # Stress: the held-out digits drawn with a denser, shakier pen (each segment cut in
    # DENSER, every point moved by gaussian noise of NOISE of the digit's extent): true digits.
    rng = np.random.default_rng(7)

    sh = [refusal.shaky(s, rng, DENSER, NOISE) for s in sets["test digits"]]
    Xs = np.hstack([net(data.render(sh)), feats(sh)])
    conf_thr = np.quantile(X["calib digits"][:, 0], 0.0025)
    print(f"shaky test digits refused: confidence alone {100 * (Xs[:, 0] < conf_thr).mean():.2f}% | "
          + " | ".join(f"{name} {100 * refused(Xs).mean():.2f}%" for name, refused in rules.items()))

if "--tta" in sys.argv:
    tta()
if "--features" in sys.argv:
    features()
