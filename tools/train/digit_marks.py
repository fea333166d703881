"""Single digits with a stray mark: what a tap or a tick of the pen costs the
digit pad, with taps and ticks left out (`Recognizer.speckSize`, as shipped)
and read as ink (0).

usage: .venv/bin/python digit_marks.py [--package DIR]

The held-out synthetic digits (4,000, evaluate.py's) and non-digits (960)
through `recog-bench` (`Recognizer.recognize`, the server's path, refusal rule
included), each once as drawn and once with one stray mark of each kind of
number_reading.py's `--marks` (a tap anywhere in the ink's box, a tick 3 % by
2 % of its height there, a tap 0.1-0.5 heights right of the ink). Prints, per
kind of mark, the digits read right (and not refused), the digits refused and
the non-digits refused, left out / read as ink.
"""
import argparse
import json
import os
import subprocess

import numpy as np

import data
import evaluate as ev
from number_reading import with_mark

HERE = os.path.dirname(os.path.abspath(__file__))


def read(bench, drawings, speck_size):
    """(digit, unsure) per drawing through `recog-bench`."""
    out = os.path.join(HERE, "out")
    lines = os.path.join(out, "digit_marks.jsonl")
    with open(lines, "w") as f:
        for s in drawings:
            f.write(json.dumps({"width": 400, "height": 400, "strokes": s}) + "\n")
    env = dict(os.environ, DIGIT_SPECK_SIZE=str(speck_size))
    subprocess.run([bench, lines, os.path.join(out, "digit_marks.f32"), os.path.join(out, "digit_marks_pred.txt"), "1"],
                   check=True, capture_output=True, env=env)
    return ev.read_predictions(os.path.join(out, "digit_marks_pred.txt")), \
        ev.read_unsure(os.path.join(out, "digit_marks_pred.txt"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", default=os.path.join(HERE, "out", "bench-pkg"))
    args = ap.parse_args()
    ev.make_package(args.package)
    bench = ev.build(args.package)
    digits = data.synthetic_test_drawings()
    labels = np.array([r[0] for r in digits])
    nondigits = data.nondigit_test_drawings()
    print(f"{len(digits)} held-out synthetic digits and {len(nondigits)} non-digits, one stray mark each; "
          "taps and ticks left out / read as ink")
    print("| mark | digits read right | digits refused | non-digits refused |")
    print("|---|---|---|---|")
    for mode in ("none", "tap", "tick", "after"):
        rng = np.random.default_rng(9)
        d = [r[3] if mode == "none" else with_mark(r[3], mode, rng) for r in digits]
        n = [r[2] if mode == "none" else with_mark(r[2], mode, rng) for r in nondigits]
        cells = [[], [], []]
        for size in (None, 0):
            pred, unsure = read(bench, d, "" if size is None else size)
            _, n_unsure = read(bench, n, "" if size is None else size)
            cells[0].append(str(int(((pred == labels) & ~unsure).sum())))
            cells[1].append(str(int(unsure.sum())))
            cells[2].append(str(int(n_unsure.sum())))
        print(f"| {mode} | " + " | ".join(" / ".join(c) for c in cells) + " |")


if __name__ == "__main__":
    main()
