"""How far the flag of a 1 (and the bar of a 7) droops *as drawn*, and what a
network reads for each: the check behind "A fourth pass" in docs/recognition.md.

usage: .venv/bin/python flag_droop.py WEIGHTS [--sheet out/overlap-1-7.png]
       .venv/bin/python flag_droop.py --limits

--limits: where `legibility.check_drawn`'s limits come from ("A fifth pass"):
the training set (seed 1) drawn with the control-point rules alone, its flags
and bars as drawn, percentiles, and what the drawn rules would turn down of it.

For the one-stroke flagged 1s (shortflag, flag, longflag) and barred 7s (plain,
curved) of the calibration and held-out synthetic sets, `legibility.drawn_flag_features`
(the sampled stroke, not the control points the rules judge): the share of 1s
whose flag droops like a 7's bar and of 7s whose bar droops like a 1's flag, and
on the held-out set which 1s the network reads as 7, by droop.
"""
from __future__ import annotations

import sys

import numpy as np

import data
import export
import legibility
import quick_eval

ONES = {(1, "shortflag"), (1, "flag"), (1, "longflag")}
SEVENS = {(7, "plain"), (7, "curved")}


def droops(drawings, keys):
    """[(index, drawing, droop as drawn (legibility.drawn_droop), flag length per stem)]"""
    out = []
    for i, r in enumerate(drawings):
        if (r[0], r[1]) in keys:
            ratio, droop = legibility.drawn_droop(r[0], r[3])
            out.append((i, r, droop, ratio))
    return out


def limits():
    import strokes
    strokes.DRAWN_CHECK = False
    train = strokes.make_set(data.TRAIN_WRITERS, data.TRAIN_PER_DIGIT, data.TRAIN_SEED, test=False)
    strokes.DRAWN_CHECK = True
    ones, sevens = droops(train, ONES), droops(train, SEVENS)
    flags = [x for x in ones if x[3] >= legibility.ONE_TINY_RATIO]
    pct = lambda v, q: float(np.percentile(v, q))
    print(f"training set (seed {data.TRAIN_SEED}) drawn with the control-point rules alone: {len(ones)} flagged 1s, "
          f"{len(flags)} of them with a flag >= {legibility.ONE_TINY_RATIO} of the stem; {len(sevens)} 7s")
    print(f"  7s' bars droop as drawn, 5th / 95th percentile: {pct([x[2] for x in sevens], 5):.1f} / "
          f"{pct([x[2] for x in sevens], 95):.1f} deg "
          f"(DRAWN_SEVEN_BAR_DROOP {legibility.DRAWN_SEVEN_BAR_DROOP})")
    print(f"  (the converse rule tried and left out: 1s' flags droop as drawn, 5th percentile "
          f"{pct([x[2] for x in flags], 5):.1f} deg; their length, 95th percentile {pct([x[3] for x in flags], 95):.2f}; "
          f"7s drooping more and shorter: {sum(x[2] > 25 and x[3] < 0.65 for x in sevens)})")
    bad = [r for (_, r, _, _) in ones + sevens if legibility.check_drawn(r[0], r[1], r[3])]
    print(f"  turned down as drawn: {len(bad)} of the {len(ones)} flagged 1s")


def main():
    if "--limits" in sys.argv:
        return limits()
    cal = data.synthetic_calib_drawings()
    c1, c7 = droops(cal, ONES), droops(cal, SEVENS)
    q = lambda v: np.percentile([x[2] for x in v], [10, 50, 90]).round(1)
    print(f"calibration set as drawn: {len(c1)} flagged 1s droop (10/50/90 %) {q(c1)}, < 22 deg: "
          f"{100 * np.mean([x[2] < 22 for x in c1]):.1f} %; {len(c7)} 7s {q(c7)}, >= 22 deg: "
          f"{100 * np.mean([x[2] >= 22 for x in c7]):.1f} %")
    p = quick_eval.load(sys.argv[1])
    test = data.synthetic_test_drawings()
    xt, _, _ = data.synthetic_test()
    pr = export.softmax_rows(export.logits_of(p, xt)[:, :10], 0.4644)
    t1, t7 = droops(test, ONES), droops(test, SEVENS)
    for lo, hi in ((-90, 22), (22, 30), (30, 91)):
        s = [x for x in t1 if lo <= x[2] < hi]
        bad = [x for x in s if pr[x[0]].argmax() == 7]
        print(f"held-out flagged 1s drooping [{lo}, {hi}) deg as drawn: {len(s)}, read as 7: {len(bad)} "
              + " ".join(f"({x[1][1]} {x[1][4][1]} droop {x[2]:.0f} flag {x[3]:.2f} p7 {pr[x[0]][7]:.2f})" for x in bad))
    print(f"held-out 7s: {len(t7)}, bar drooping >= 13 deg as drawn: {sum(x[2] >= 13 for x in t7)}, read as 1: "
          f"{sum(pr[x[0]].argmax() == 1 for x in t7)}")
    if "--sheet" in sys.argv:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        rows = ([x for x in c1 if x[2] < 22][:12], sorted([x for x in c7 if x[2] >= 13], key=lambda x: -x[2])[:12])
        fig, axs = plt.subplots(2, 12, figsize=(18, 3.8))
        for row, items in enumerate(rows):
            for j in range(12):
                ax = axs[row, j]
                ax.axis("off")
                if j < len(items):
                    _, r, droop, ratio = items[j]
                    for s in r[3]:
                        pts = np.array([pt[:2] for pt in s])
                        ax.plot(pts[:, 0], -pts[:, 1], "k-", lw=1)
                    ax.set_aspect("equal")
                    ax.set_title(f"{r[0]} {r[1]} {r[4][1]}\nflag {ratio:.2f} droop {droop:.0f}°", fontsize=7)
        fig.suptitle("calibration set as drawn: top, flagged 1s drooping < 22°; bottom, 7s drooping most", fontsize=9)
        fig.savefig(sys.argv[sys.argv.index("--sheet") + 1], dpi=80, bbox_inches="tight")


if __name__ == "__main__":
    main()
