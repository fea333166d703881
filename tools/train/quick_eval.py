"""Quick look at candidate weights in Python (JAX float32, as export.py fits them),
before exporting: the calibration set's figures (what candidates are chosen on)
and, with --test, the held-out figures evaluate.py measures through Swift.

usage: .venv/bin/python quick_eval.py out/weights-a.npz [--test] [--lane-only]
(--lane-only: the "not a digit" output alone spends the refusal share, export.LANE_ONLY;
 --threshold X: keep the refusal threshold at X (the shipped file's unsure_below) rather
 than re-fitting it; --temperature T likewise: with both, the shipped file's constants as evaluate.py uses them)
"""
from __future__ import annotations

import sys

import numpy as np

import data
import export
import model


def load(path):
    if path.endswith(".safetensors"):
        from safetensors.numpy import load_file
        w = load_file(path)
    else:
        w = dict(np.load(path))
    return {k: w[k].astype(np.float32) for k in model.shapes_of(w)}


def main():
    p = load(sys.argv[1])
    export.LANE_ONLY = "--lane-only" in sys.argv
    xd, yd, xn = data.calibration_sets()
    ld, ln = export.logits_of(p, xd), export.logits_of(p, xn)
    t = export.fit_temperature(ld[:, :10], yd)
    offset, thr = export.fit_not_a_digit_offset(ld, ln, t)
    if "--temperature" in sys.argv:
        t = float(sys.argv[sys.argv.index("--temperature") + 1])
    if "--threshold" in sys.argv:
        thr = float(sys.argv[sys.argv.index("--threshold") + 1])
    if offset > 0:  # as export.calibrate: the "not a digit" lane's bias lowered
        model.lower_not_a_digit(p, offset)
        ld, ln = export.logits_of(p, xd), export.logits_of(p, xn)
        thr = export.fit_threshold(ld, t)
        print(f"not-a-digit bias lowered by {offset:.4f}")

    def refused(logits):
        return export.unsure(logits, t, thr)

    names = [f"{r[0]} {r[1]}" for r in data.synthetic_calib_drawings()]
    pred = ld[:, :10].argmax(1)
    worst = sorted((float((pred[m] == yd[m]).mean()), k) for k in set(names)
                   for m in [np.array([n == k for n in names])])[:4]
    print(f"calibration: T {t:.4f} threshold {thr:.4f} accuracy {100 * (pred == yd).mean():.2f}% "
          f"digits refused {100 * refused(ld).mean():.2f}% (by lane 10 {100 * export.not_a_digit(ld).mean():.2f}%) "
          f"non-digits refused {100 * refused(ln).mean():.2f}% (by lane 10 {100 * export.not_a_digit(ln).mean():.2f}%) "
          f"worst styles {[(k, round(100 * a, 1)) for a, k in worst]}")
    if "--test" not in sys.argv:
        return
    _, _, xh, yh = data.mnist_split()
    lh = export.logits_of(p, xh)
    xt, yt, st = data.synthetic_test()
    lt = export.logits_of(p, xt)
    nd = data.nondigit_test_drawings()
    lnt = export.logits_of(p, data.render([r[2] for r in nd]))
    rn = refused(lnt)
    xs, ys = data.mnist_strokes_heldout()
    ls = export.logits_of(p, xs)
    print(f"test: mnist {100 * (lh[:, :10].argmax(1) == yh).mean():.2f}% refused {100 * refused(lh).mean():.2f}% | "
          f"mnist-strokes {100 * (ls[:, :10].argmax(1) == ys).mean():.2f}% refused {100 * refused(ls).mean():.2f}% | "
          f"synth {100 * (lt[:, :10].argmax(1) == yt).mean():.2f}% refused {100 * refused(lt).mean():.2f}% | "
          f"non-digits refused {100 * rn.mean():.2f}%")
    kinds = [r[0] for r in nd]
    print("  non-digits refused per kind:", {k: round(100 * float(rn[np.array(kinds) == k].mean()), 1)
                                              for k in sorted(set(kinds))})
    pt = lt[:, :10].argmax(1)
    keys = [f"{d} {n}" for d, n in zip(yt, st)]
    rows = sorted((float((pt[m] == yt[m]).mean()), k) for k in set(keys) for m in [np.array([q == k for q in keys])])
    print("  worst styles:", [(k, round(100 * a, 1)) for a, k in rows[:6]])
    print("  per digit:", [round(100 * float((pt[yt == d] == d).mean()), 2) for d in range(10)])
    from evaluate import ece
    for name, lg, yy in (("synthetic test", lt, yt), ("MNIST as strokes", ls, ys)):
        pr = export.digit_probabilities(lg, t)
        print(f"  ECE {name}: {100 * ece(pr.max(1), pr.argmax(1) == yy):.2f}%")


if __name__ == "__main__":
    main()
