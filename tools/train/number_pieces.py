"""Training images for the number network: what the segmenter shows it.

usage: .venv/bin/python number_pieces.py [--numbers 20000] [--out out/number_pieces.npz]

The number reader (`NumberSegmenter`) reads many candidate digits of a number:
groups whole, the sides of cuts, runs of strokes, pieces of a stroke the pen
ran on with. The network was trained on single digits only, so it may read
the wrong candidates (half a 0, a 5 with half of the pen's way to the next
digit, two digits at once) as surely as the right ones, and the wrong reading
wins. This writes synthetic numbers by training writers (their own seed,
trained styles only, none of the dev, wide or held-out sets' writers), reads
them with the segmenter (`recog-bench --numbers` with `NUMBER_PARTS`: every
candidate and the 28×28 image read, exactly as the server rasterizes it), and
labels each candidate by whose ink it holds (`make_number`'s point owners):
- one digit's ink, nearly all of it and nearly nothing else: that digit;
- a mix of digits, a small share of one, or mostly the pen's way between two:
  -1, "no digit" (pulled towards the uniform distribution in training, as the
  non-digits are);
- in between: left out (neither answer is clearly right).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess

import numpy as np

import number_reading as nr
import strokes

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out")
PIECES_SEED = 5150  # no other set uses it
# Numbers with one digit's last stroke written after the next digit's.
LATE_SHARE = 0.15
# Touching digits overlap by up to this (in heights; the test sets' 0.06).
OVERLAP = 0.3
# A candidate is its main digit when that digit is at least DIGIT_SHARE of its
# ink and it holds at least DIGIT_COVER of that digit's ink; "no digit" when
# the share is under MIX_SHARE or the cover under PART_COVER.
DIGIT_SHARE, DIGIT_COVER = 0.92, 0.9
MIX_SHARE, PART_COVER = 0.75, 0.6


def ink_by_owner(stroke_list, point_owners, part):
    """Length of ink per owner (digit index, -1 for the pen's way) inside `part`
    (a line of NUMBER_PARTS), clipped to its band as the rasterizer does."""
    lens = {}
    shear, lo, hi = part["shear"], part["lo"], part["hi"]
    for s, (pts, own) in enumerate(zip(stroke_list, point_owners)):
        if s >= 64 or not (part["strokes"] >> s) & 1:
            continue
        a, b = 0, len(pts)
        if s == part["piece"]:
            a, b = max(part["from"], 0), min(part["to"], len(pts))
        for i in range(a + 1, b):
            (x0, y0), (x1, y1) = pts[i - 1][:2], pts[i][:2]
            u0, u1 = x0 + shear * y0, x1 + shear * y1
            if u0 == u1:
                t0, t1 = (0.0, 1.0) if lo <= u0 <= hi else (1.0, 0.0)
            else:
                t0, t1 = sorted(((lo - u0) / (u1 - u0), (hi - u0) / (u1 - u0)))
                t0, t1 = max(t0, 0.0), min(t1, 1.0)
            if t1 <= t0:
                continue
            length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 * (t1 - t0)
            o = own[i] if own[i] == own[i - 1] else -1
            lens[o] = lens.get(o, 0.0) + length
    return lens


def label(lens, totals, digits):
    """The candidate's training label: a digit, -1 (no digit), or None (left out)."""
    total = sum(lens.values())
    if total <= 0:
        return None
    owner, ink = max(((o, v) for o, v in lens.items() if o >= 0), key=lambda t: t[1], default=(-1, 0.0))
    if owner < 0:
        return -1
    share, cover = ink / total, ink / max(totals[owner], 1e-9)
    if share >= DIGIT_SHARE and cover >= DIGIT_COVER:
        return int(digits[owner])
    if share < MIX_SHARE or cover < PART_COVER:
        return -1
    return None


def mnist_numbers(count):
    """[(label, kind, strokes)] and each stroke's point owners: numbers of
    MNIST's training digits traced into strokes (`number_probes.mnist_numbers`,
    a seed of its own; never the held-out digits the probe reads), so that the
    network also learns the candidates of real writers' shapes."""
    import number_probes
    numbers, parts = number_probes.mnist_numbers(count, seed=PIECES_SEED + 1, split="train")
    owners = [[[j] * len(stroke) for j, digit in enumerate(ps) for stroke in digit] for ps in parts]
    return numbers, owners


def source_numbers(names, count):
    """[(label, kind, strokes)] and point owners of `count` numbers per writer
    source (sources.numbers by hands none of loso.py's numbers use)."""
    import sources
    numbers, owners = [], []
    for k, name in enumerate(names):
        made, parts = sources.numbers(name, count, seed=PIECES_SEED + 10 + k, first_writer=200_000)
        numbers += made
        owners += [[[j] * len(stroke) for j, digit in enumerate(ps) for stroke in digit] for ps in parts]
    return numbers, owners


def make(count, bench, mnist=0, others=(), per_source=0):
    # The wide set's writers, touching digits also written far into each other.
    ranges = dataclasses.replace(nr.SETS["wide"], seed=PIECES_SEED, overlap=OVERLAP)
    # Every trained style, and digits that fall apart into two pieces (issue 43).
    trained = [(d, n, False, s) for (d, n, s) in strokes.styles(False)] + strokes.APART_STYLES
    rng = np.random.default_rng(PIECES_SEED)
    numbers, owners = [], []
    for i in range(count):
        n = 2 + i % 5
        digits = "".join(str(int(d)) for d in rng.integers(0, 10, n))
        touching = rng.random() < ranges.touch
        uneven = rng.random() < ranges.uneven
        kind = ("touching+uneven" if touching and uneven else "touching" if touching
                else "uneven" if uneven else "clean")
        po, ow = [], []
        s = nr.make_number(digits, ranges, rng, kind, styles=trained, owners=ow, point_owners=po)
        if rng.random() < LATE_SHARE:
            nr.write_late(s, ow, rng, point_owners=po)  # one digit's last stroke after the next digit
        numbers.append((digits, kind, s))
        owners.append(po)
    if mnist:
        more, more_owners = mnist_numbers(mnist)
        numbers += more
        owners += more_owners
    if others and per_source:
        more, more_owners = source_numbers(others, per_source)
        numbers += more
        owners += more_owners
    path = os.path.join(OUT, "number_pieces_src.jsonl")
    nr.write_lines(path, numbers)
    parts_path = os.path.join(OUT, "number_pieces_parts")
    subprocess.run([bench, "--numbers", path, path + ".readings", "0"], check=True, capture_output=True,
                   env={**os.environ, "NUMBER_PARTS": parts_path})
    images = np.fromfile(parts_path + ".f32", np.float32).reshape(-1, 28, 28)
    with open(parts_path + ".jsonl") as f:
        parts = [json.loads(line) for line in f]
    assert len(parts) == len(images)
    # Each digit's whole ink: the whole drawing as one candidate.
    totals = [ink_by_owner(s, po, {"strokes": (1 << min(len(s), 64)) - 1, "shear": 0.0, "lo": -1e30, "hi": 1e30,
                                   "piece": -1, "from": 0, "to": 0})
              for (_, _, s), po in zip(numbers, owners)]
    xs, ys, seen = [], [], set()
    for part, image in zip(parts, images):
        digits, _, stroke_list = numbers[part["line"]]
        y = label(ink_by_owner(stroke_list, owners[part["line"]], part), totals[part["line"]], digits)
        key = image.tobytes()
        if y is None or key in seen:  # a candidate read again (another hypothesis) counts once
            continue
        seen.add(key)
        xs.append(image)
        ys.append(y)
    return np.array(xs, np.float32), np.array(ys, np.int32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--numbers", type=int, default=20000)
    ap.add_argument("--mnist", type=int, default=0, help="also this many numbers of MNIST's training digits traced into strokes")
    ap.add_argument("--out", default=os.path.join(OUT, "number_pieces.npz"))
    ap.add_argument("--sources", default="", help="also numbers of these writer sources (sources.py; comma-separated)")
    ap.add_argument("--per-source", type=int, default=0, help="with --sources: numbers of each")
    args = ap.parse_args()
    import evaluate as ev
    pkg = os.path.join(OUT, "bench-pkg")
    ev.make_package(pkg)
    x, y = make(args.numbers, ev.build(pkg), args.mnist, [n for n in args.sources.split(",") if n], args.per_source)
    np.savez_compressed(args.out, x=x, y=y)
    counts = np.bincount(y + 1, minlength=11)
    print(f"{len(y)} candidates from {args.numbers} + {args.mnist} + {args.per_source} x [{args.sources}] numbers "
          f"-> {args.out}: no digit {counts[0]}, "
          + ", ".join(f"{d}: {counts[d + 1]}" for d in range(10)))


if __name__ == "__main__":
    main()
