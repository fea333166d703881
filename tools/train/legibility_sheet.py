"""Draws what the synthetic writers' legibility rules change (legibility.py,
strokes.py), for a person to check that the drawings turned down are really
ambiguous and not just unusual:

- out/legibility_rejected.png: drawings the rules turned down (strokes as drawn
  and the 28x28 image), each with its label, style and the rule it broke;
- out/legibility_printed.png: printed (straight-segment) 3 cusp, 8 sloop,
  9 angular, 5 one-stroke, 6 angular drawn with the old rule (every third
  control point of a stroke of more than 9) and the new one (every point; only
  ellipses are thinned), same writer and noise.

- with --drawn: only the drawings the rules on the stroke as sampled
  (`legibility.check_drawn`) turned down, all of them up to --shown, with the
  flag's length and droop as drawn, into out/legibility_drawn.png.

    .venv/bin/python legibility_sheet.py [--writers 60] [--seed 1] [--drawn]
"""
from __future__ import annotations

import argparse
import os
import random

import numpy as np

import legibility
import raster
import strokes
from evaluate import mistake_sheet

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--writers", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1, help="the training set's writer seed by default")
    ap.add_argument("--shown", type=int, default=48)
    ap.add_argument("--drawn", action="store_true", help="only what the rules on the sampled stroke turn down")
    args = ap.parse_args()
    out = os.path.join(HERE, "out")
    strokes.REJECTED = []
    ds = strokes.make_set(args.writers, 5, args.seed, test=True)
    rejected = strokes.REJECTED
    strokes.REJECTED = None
    from collections import Counter
    by_rule = Counter(r[2] for r in rejected)
    print(f"{len(ds)} drawings accepted, {len(rejected)} drawings turned down on the way:")
    for rule, n in by_rule.most_common():
        print(f"  {n:5d}  {rule}")
    if args.drawn:
        shown = [r for r in rejected if "as drawn" in r[2]]
        items = []
        for (d, name, rule, st) in shown:
            ratio, droop = legibility.drawn_droop(d, st)
            items.append((st, raster.rasterize(st), f"{d} {name}: flag {ratio:.2f} droop {droop:.0f}"))
        mistake_sheet(os.path.join(out, "legibility_drawn.png"),
                      f"synthetic digits turned down as drawn (seed {args.seed}, {args.writers} writers)", items,
                      limit=args.shown)
        return
    # a fair sample: every rule, at random within it
    random.seed(0)
    per_rule = max(1, args.shown // max(len(by_rule), 1))
    shown = []
    for rule in by_rule:
        rows = [r for r in rejected if r[2] == rule]
        shown += random.sample(rows, min(per_rule, len(rows)))
    items = [(st, raster.rasterize(st), f"{d} {name}: {rule}") for (d, name, rule, st) in shown]
    mistake_sheet(os.path.join(out, "legibility_rejected.png"), "synthetic digits the legibility rules turn down", items,
                  limit=args.shown)

    # printed shapes, old thinning vs new
    rng = np.random.default_rng(args.seed)
    items = []
    picks = [(3, "cusp"), (8, "sloop"), (9, "angular"), (5, "onestroke"), (6, "angular"), (3, "cusp")]
    for k in range(12):
        w = strokes.Writer.sample(rng)
        d, name = picks[k % len(picks)]
        st = next(s for (dd, n, _, s) in strokes.STYLES if (dd, n) == (d, name))
        state = rng.bit_generator.state
        for label, round_only in (("old", False), ("new", True)):
            rng.bit_generator.state = state
            shapes, _, size = strokes._shape(st, w, rng, True, round_only=round_only)
            drawing = strokes._sample(shapes, w, rng, (400.0, 400.0), size)
            items.append((drawing, raster.rasterize(drawing), f"{d} {name} printed, {label}"))
    mistake_sheet(os.path.join(out, "legibility_printed.png"), "printed digits, old (every third point) and new thinning",
                  items, limit=len(items))


if __name__ == "__main__":
    main()
