"""Leave-one-source-out: train without a source, calibrate without it, measure on it (issue 43).

usage: nice -n 10 .venv/bin/python loso.py --train [--folds synth,fonts] [--all] [-- train.py args]
       .venv/bin/python loso.py --eval [--sweep] [--sheets] [--json out/loso.json]

--train runs train.py once per fold (`--sources all --leave-out S` -> out/loso_S.npz)
and, with --all, once on every source (out/loso_all.npz, the network to ship).
--eval measures each fold's network on its left-out source's test split, after
fitting its temperature and refusal rule on the calibration splits of the
sources it was trained on (never the left-out one), and prints per source,
style and digit:

  right      the digit read outright is the digit meant
  misread    read outright as another digit (the worst outcome: graded wrong)
  tap        a choice was offered (the reading unsure, a few digits plausible)
  tap ok     of those, the digit meant was among the digits offered
  refused    "write it again": judged no digit at all (the refusal rule, or no
             few digits hold enough of the probability)
  final      right outright, or right after a tap (the player taps what they meant)

The choice rule (the Swift `ChoiceRule`): a reading under `choice_below` offers
the fewest likeliest digits (at least 2) whose probabilities sum to
`choice_mass`, when `choice_max` or fewer do; otherwise it is no digit.
--sweep prints the folds' figures for a grid of the rule's constants: they are
chosen by these leave-one-source-out figures, never on a source trained on.
--sheets draws each source's mistakes (out/mistakes_loso_S.png).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict

import numpy as np

import data
import export
import raster
import refusal
import sources

OUT = os.path.join(data.HERE, "out")
# The choice rule's constants and the refusal rule's share of calibration digits
# and features, chosen by --sweep on the folds (docs/recognition.md, "Reading any
# hand"); export.py writes them into the shipped weights.
CHOICE_BELOW, CHOICE_MASS, CHOICE_MAX = 0.9, 0.95, 3
REFUSAL_SHARE = 0.0005


PREFIX = "loso"  # --prefix: another family of fold weights (an experiment beside the shipped one)


def weights_path(fold):
    return os.path.join(OUT, f"{PREFIX}_{fold}.npz")


def _as_read(rows):
    return [raster.without_specks(r[3] if isinstance(r, tuple) else r) for r in rows]


def _version(name):
    if name == "synth":
        return data._GEN
    return getattr(sources.module(name), "VERSION", 1) if name != "mnist" else 1


def stroke_features(name, split, nondigits=False):
    """The five stroke features of a source's split as read (they do not depend on
    the network), cached."""
    key = f"loso_strokefeat_{name}_{split}_{'nd' if nondigits else 'd'}_v{_version(name)}"
    rows = sources.nondigit_drawings(name, split) if nondigits else sources.drawings(name, split)
    return data._cached(key + f"_{len(rows)}", lambda: np.array([refusal.stroke_features(s) for s in _as_read(rows)])
                        .reshape(-1, 5))


def images(name, split, nondigits=False):
    rows = sources.nondigit_drawings(name, split) if nondigits else sources.drawings(name, split)
    key = f"loso_images_{name}_{split}_{'nd' if nondigits else 'd'}_{len(rows)}_v{_version(name)}"
    return data._cached(key, lambda: data.render(_as_read(rows)) if rows else np.zeros((0, 28, 28), np.float32))


def probabilities(p, x, temperature):
    return export.digit_probabilities(export.logits_of(p, x), temperature).astype(np.float64) if len(x) else \
        np.zeros((0, 10))


def feature_rows(probs, strokefeat):
    return np.hstack([refusal.network_features(probs), strokefeat]) if len(probs) else np.zeros((0, 8))


class Reader:
    """A network with the calibration fitted on the calibration splits of `names`."""

    def __init__(self, p, names, refuse_digits=None, ignore=None):
        refuse_digits = REFUSAL_SHARE if refuse_digits is None else refuse_digits
        ignore = REFUSAL_VARIANTS[REFUSAL_FEATURES] if ignore is None else ignore
        self.p = p
        # Features the rule may not use (held constant, so no tree splits on them).
        self.ignore = [refusal.FEATURES.index(f) for f in ignore]
        xd = np.concatenate([images(n, "calib") for n in names])
        yd = np.concatenate([np.array([r[0] for r in sources.drawings(n, "calib")], np.int32) for n in names])
        logits = export.logits_of(p, xd)
        self.temperature = export.fit_temperature(logits[:, :10], yd)
        fd = feature_rows(export.digit_probabilities(logits, self.temperature).astype(np.float64),
                          np.concatenate([stroke_features(n, "calib") for n in names]))
        fn = np.concatenate([feature_rows(probabilities(p, images(n, "calib", True), self.temperature),
                                          stroke_features(n, "calib", True)) for n in names])
        self.rule = refusal.fit(self.masked(fd), self.masked(fn), refuse_digits=refuse_digits)

    def masked(self, f):
        f = f.copy()
        f[:, self.ignore] = 0.0
        return f

    def read(self, name, split, nondigits=False):
        """(probabilities, refused by the rule) of a source's split."""
        probs = probabilities(self.p, images(name, split, nondigits), self.temperature)
        f = self.masked(feature_rows(probs, stroke_features(name, split, nondigits)))
        return probs, refusal.refused(self.rule, f) if len(f) else np.zeros(0, bool)


def outcomes(probs, refused, y, below=None, mass=None, kmax=None):
    """Per drawing: 'right', 'misread', 'tap ok', 'tap bad' or 'refused', and the
    digits offered (empty unless a tap)."""
    below = CHOICE_BELOW if below is None else below
    mass = CHOICE_MASS if mass is None else mass
    kmax = CHOICE_MAX if kmax is None else kmax
    order = np.argsort(-probs, 1)
    top = probs[np.arange(len(probs)), order[:, 0]]
    cum = np.cumsum(np.take_along_axis(probs, order, 1), 1)
    k = np.maximum((cum < mass).sum(1) + 1, 2)
    out = np.empty(len(probs), object)
    sure = top >= below
    out[sure] = np.where(order[sure, 0] == y[sure], "right", "misread")
    unsure = ~sure
    offered = np.zeros(len(probs), bool)
    kk = np.minimum(k, kmax)
    for i in np.flatnonzero(unsure):
        offered[i] = y[i] in order[i, :kk[i]]
    out[unsure] = np.where(offered[unsure], "tap ok", "tap bad")
    out[unsure & (k > kmax)] = "refused"
    out[refused] = "refused"
    return out


def choice_verdict(p, below=None, mass=None, kmax=None):
    """What Swift's ChoiceRule says of ten probabilities: ("sure", []),
    ("choices", [digits, likeliest first]) or ("no digit", []); ties go to the
    smaller digit."""
    below = CHOICE_BELOW if below is None else below
    mass = CHOICE_MASS if mass is None else mass
    kmax = CHOICE_MAX if kmax is None else kmax
    order = sorted(range(10), key=lambda d: (-p[d], d))
    if p[order[0]] >= below:
        return "sure", []
    total = 0.0
    for k in range(kmax):
        total += p[order[k]]
        if total >= mass:
            return ("sure", []) if k == 0 else ("choices", [int(d) for d in order[:k + 1]])
    return "no digit", []


KINDS = ("right", "misread", "tap ok", "tap bad", "refused")


def summary(o):
    n = max(len(o), 1)
    c = {k: int((o == k).sum()) for k in KINDS}
    taps = c["tap ok"] + c["tap bad"]
    return {"n": len(o), "right": c["right"] / n, "misread": c["misread"] / n, "tap": taps / n,
            "tap_ok": c["tap ok"] / max(taps, 1), "refused": c["refused"] / n,
            "final": (c["right"] + c["tap ok"]) / n}


def fmt(s):
    return (f"{100 * s['final']:6.2f} {100 * s['right']:6.2f} {100 * s['misread']:5.2f} {100 * s['tap']:5.2f} "
            f"{100 * s['tap_ok']:6.2f} {100 * s['refused']:5.2f} {s['n']:6d}")


HEAD = " final  right  miss   tap  tap ok  refus      n"


def evaluate(folds, below=None, mass=None, kmax=None, verbose=True, sheets=False):
    results = {}
    for fold in folds:
        if not os.path.exists(weights_path(fold)):
            print(f"{fold}: no {weights_path(fold)}")
            continue
        import quick_eval
        p = quick_eval.load(weights_path(fold))
        names = [n for n in sources.available() if n != fold]
        reader = Reader(p, names)
        rows = sources.drawings(fold, "test")
        y = np.array([r[0] for r in rows])
        probs, ref = reader.read(fold, "test")
        o = outcomes(probs, ref, y, below, mass, kmax)
        styles = np.array([f"{r[0]} {r[1]}" for r in rows])
        by_style = {s: summary(o[styles == s]) for s in sorted(set(styles))}
        by_digit = {d: summary(o[y == d]) for d in range(10)}
        nd = sources.nondigit_drawings(fold, "test")
        nd_refused = None
        if nd:
            pn, rn = reader.read(fold, "test", nondigits=True)
            on = outcomes(pn, rn, np.full(len(pn), -1), below, mass, kmax)
            nd_refused = float((on == "refused").mean())
        res = {"all": summary(o), "styles": by_style, "digits": by_digit, "temperature": reader.temperature,
               "nondigits_refused": nd_refused,
               "confusions": sorted(((int(a), int(b), int(((y == a) & (probs.argmax(1) == b) & (o == "misread")).sum()))
                                     for a in range(10) for b in range(10) if a != b), key=lambda t: -t[2])[:8]}
        results[fold] = res
        if verbose:
            weakest = sorted(by_style.items(), key=lambda kv: kv[1]["final"])[:5]
            print(f"\n== {fold}: trained on {', '.join(names)}; T {reader.temperature:.4f}; "
                  f"non-digits refused {'-' if nd_refused is None else f'{100 * nd_refused:.2f}%'}")
            print(f"{'':24s}{HEAD}")
            print(f"{'all':24s}{fmt(res['all'])}")
            for d in range(10):
                print(f"{'digit ' + str(d):24s}{fmt(by_digit[d])}")
            for s, v in weakest:
                print(f"{'weakest ' + s:24s}{fmt(v)}")
            print("misread most: " + ", ".join(f"{a}->{b} {n}" for a, b, n in res["confusions"] if n))
        if sheets:
            bad = [(rows[i], o[i], probs[i]) for i in range(len(rows)) if o[i] not in ("right", "tap ok")]
            mistake_sheet(os.path.join(OUT, f"mistakes_loso_{fold}.png"), fold, bad)
    return results


def combined_sheet(folds, path, per=14):
    """One sheet of every fold's mistakes on its left-out source: a row each, its first
    `per` drawings misread, refused or not offered the digit meant (test split order)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import quick_eval
    fig, axes = plt.subplots(len(folds), per, figsize=(per * 0.95, len(folds) * 1.25))
    for row, fold in enumerate(folds):
        p = quick_eval.load(weights_path(fold))
        reader = Reader(p, [n for n in sources.available() if n != fold])
        rows = sources.drawings(fold, "test")
        probs, ref = reader.read(fold, "test")
        o = outcomes(probs, ref, np.array([r[0] for r in rows]))
        bad = [i for i in range(len(rows)) if o[i] not in ("right", "tap ok")][:per]
        for col in range(per):
            ax = axes[row, col]
            ax.axis("off")
            if col >= len(bad):
                continue
            i = bad[col]
            ax.imshow(raster.rasterize(raster.without_specks(rows[i][3])), cmap="gray_r")
            what = {"misread": f"read {int(np.argmax(probs[i]))}", "refused": "refused", "tap bad": "not offered"}[o[i]]
            ax.set_title(f"{rows[i][0]}: {what}", fontsize=6)
        axes[row, 0].text(-0.3, 0.5, fold, transform=axes[row, 0].transAxes, ha="right", va="center", fontsize=8)
    fig.suptitle("Each source's first mistakes, read by the network trained and calibrated without it", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    print("wrote", path)


def mistake_sheet(path, fold, bad, limit=80):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bad = bad[:limit]
    cols = 10
    rows = max(1, (len(bad) + cols - 1) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(cols * 1.3, rows * 1.5))
    for ax in np.ravel(axes):
        ax.axis("off")
    for ax, ((d, style, _, st), what, pr) in zip(np.ravel(axes), bad):
        ax.imshow(raster.rasterize(raster.without_specks(st)), cmap="gray_r")
        top = np.argsort(-pr)[:2]
        ax.set_title(f"{d}→{top[0]} {what}\n{style[:16]}", fontsize=6)
    fig.suptitle(f"{fold}: misread, refused or the meant digit not offered ({len(bad)} shown)", fontsize=9)
    fig.tight_layout()
    os.makedirs(OUT, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print("wrote", path)


def sweep(folds, shares=(0.0005, 0.001, 0.0025), ignore=None):
    """The folds' figures over a grid of the refusal rule's share of calibration
    digits and the choice rule's constants (each fold read once per share)."""
    import quick_eval
    read = {}
    for fold in folds:
        if not os.path.exists(weights_path(fold)):
            continue
        p = quick_eval.load(weights_path(fold))
        names = [n for n in sources.available() if n != fold]
        rows = sources.drawings(fold, "test")
        y = np.array([r[0] for r in rows])
        for share in shares:
            reader = Reader(p, names, refuse_digits=share, ignore=ignore)
            probs, ref = reader.read(fold, "test")
            nd = [reader.read(n, "test", nondigits=True) for n in names + [fold] if sources.nondigit_drawings(n, "test")]
            read[fold, share] = (probs, ref, y, nd)
    print(f"{'share':>6s} {'below':>5s} {'mass':>6s} {'k':>2s} | per fold: final / misread / tap / tap ok / refused"
          " | non-digits refused (every source's test split)")
    for share in shares:
        for below in (0.6, 0.7, 0.8, 0.9, 0.95):
            for mass in (0.95, 0.98, 0.99, 0.995):
                for kmax in (2, 3):
                    line, nd_ref = [], []
                    for (fold, sh), (probs, ref, y, nd) in read.items():
                        if sh != share:
                            continue
                        r = summary(outcomes(probs, ref, y, below, mass, kmax))
                        line.append(f"{fold} {100 * r['final']:.2f}/{100 * r['misread']:.2f}/{100 * r['tap']:.2f}/"
                                    f"{100 * r['tap_ok']:.2f}/{100 * r['refused']:.2f}")
                        for pn, rn in nd:
                            nd_ref.append((outcomes(pn, rn, np.full(len(pn), -1), below, mass, kmax) == "refused").mean())
                    print(f"{share:6.4f} {below:5.2f} {mass:6.3f} {kmax:2d} | " + " | ".join(line)
                          + f" | {100 * np.mean(nd_ref):.1f}", flush=True)


# Which features the refusal rule judges a whole drawing by (REFUSAL_VARIANTS).
REFUSAL_FEATURES = "network only"
REFUSAL_VARIANTS = {
    "all eight": (),
    "no ink, turning": ("ink", "turning"),
    "network and strokes": ("ink", "turning", "width", "height"),
    "network only": ("strokes", "ink", "turning", "width", "height"),
}


def refusal_variants(folds, share=REFUSAL_SHARE):
    """Which features the refusal rule judges by: each fold's digits refused (by the rule
    alone) and every source's non-digits refused, per variant."""
    import quick_eval
    for variant, ignore in REFUSAL_VARIANTS.items():
        line, nd = [], []
        for fold in folds:
            if not os.path.exists(weights_path(fold)):
                continue
            p = quick_eval.load(weights_path(fold))
            names = [n for n in sources.available() if n != fold]
            reader = Reader(p, names, refuse_digits=share, ignore=ignore)
            _, ref = reader.read(fold, "test")
            line.append(f"{fold} {100 * ref.mean():.2f}")
            for n in names + [fold]:
                if sources.nondigit_drawings(n, "test"):
                    nd.append(reader.read(n, "test", nondigits=True)[1].mean())
        print(f"{variant:22s} digits refused: " + ", ".join(line) + f" | non-digits refused {100 * np.mean(nd):.1f}%",
              flush=True)


def fold_safetensors(fold):
    """out/loso_FOLD.safetensors: the fold's network calibrated as export.py calibrates the
    shipped one, on the sources it was trained on (for reading numbers through Swift)."""
    path = os.path.join(OUT, f"loso_{fold}.safetensors")
    if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(weights_path(fold)):
        export.export_sources(weights_path(fold), names=[n for n in sources.available() if n != fold], path=path)
    return path


def number_outcome(label, reading):
    """A number reading's outcome, as `outcomes` names them: refused when nothing is
    read or a place is no digit; a tap when a place offers choices (ok when the number
    meant is among the readings offered); else right or misread."""
    digits = reading.get("digits") or []
    if not digits or any(d.get("unsure") for d in digits):
        return "refused"
    if any(d.get("choices") for d in digits):
        ok = len(digits) == len(label) and all(
            int(ch) in (d.get("choices") or [d["digit"]]) for ch, d in zip(label, digits))
        return "tap ok" if ok else "tap bad"
    return "right" if reading.get("number") == label else "misread"


def evaluate_numbers(folds, count, package):
    import evaluate as ev
    ev.make_package(package)
    bench = ev.build(package)
    results = {}
    for fold in folds:
        if not os.path.exists(weights_path(fold)):
            continue
        weights = fold_safetensors(fold) if fold != "shipped" else None
        numbers, _ = sources.numbers(fold, count)
        path = os.path.join(OUT, f"loso_numbers_{fold}.jsonl")
        with open(path, "w") as f:
            for label, _, st in numbers:
                f.write(json.dumps({"width": 1200, "height": 400, "strokes": st}, separators=(",", ":")) + "\n")
        env = dict(os.environ, **({"DIGITS_WEIGHTS": weights} if weights else {}))
        subprocess.run([bench, "--numbers", path, path + ".readings", "0"], check=True, capture_output=True, env=env)
        with open(path + ".readings") as f:
            replies = [json.loads(line) for line in f]
        o = np.array([number_outcome(label, r) for (label, _, _), r in zip(numbers, replies)], object)
        results[fold] = summary(o)
        lengths = {n: summary(o[np.array([len(x[0]) == n for x in numbers])]) for n in range(2, 7)}
        print(f"numbers {fold:10s} {fmt(results[fold])}   by length: "
              + " ".join(f"{n}:{100 * v['final']:.1f}" for n, v in lengths.items()), flush=True)
    return results


def train(folds, extra, everything):
    runs = [(f, ["--sources", "all", "--leave-out", f]) for f in folds]
    if everything:
        runs.append(("all", ["--sources", "all"]))
    for fold, args in runs:
        cmd = [sys.executable, os.path.join(data.HERE, "train.py"), *args, "--out", weights_path(fold), *extra]
        print("$", " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True)


def main():
    global PREFIX
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", action="store_true")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--eval", action="store_true")
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--refusal", action="store_true", help="the refusal rule's feature variants over the folds")
    ap.add_argument("--variants", default="all eight", help="with --sweep: REFUSAL_VARIANTS to sweep, comma-separated")
    ap.add_argument("--sheets", action="store_true")
    ap.add_argument("--sheet", help="with --eval: one sheet of every fold's first mistakes into this PNG")
    ap.add_argument("--folds", default=",".join(sources.available()))
    ap.add_argument("--json", default=os.path.join(OUT, "loso.json"))
    ap.add_argument("--numbers", type=int, default=0, help="also read this many numbers per fold through Swift")
    ap.add_argument("--package", default=os.path.join(OUT, "bench-pkg"))
    ap.add_argument("--prefix", default=PREFIX, help="fold weights out/<prefix>_<fold>.npz (train writes, eval reads)")
    args = ap.parse_args(argv)
    PREFIX = args.prefix
    folds = args.folds.split(",")
    if args.train:
        train(folds, extra, args.all)
    if args.eval:
        res = evaluate(folds, sheets=args.sheets)
        if args.sheet:
            combined_sheet(folds, args.sheet)
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1, default=str)
    if args.sweep:
        for variant in args.variants.split(","):
            print(f"\n== the refusal rule on {variant}", flush=True)
            sweep(folds, ignore=REFUSAL_VARIANTS[variant])
    if args.refusal:
        refusal_variants(folds)
    if args.numbers:
        print(f"{'':18s}{HEAD}")
        evaluate_numbers(folds, args.numbers, args.package)


if __name__ == "__main__":
    main()
