"""Probes of the number reader beyond the synthetic writers: how it stands up to
shapes and proportions its tuning never saw. Figures only, nothing tuned here.

usage: .venv/bin/python number_probes.py --mnist [--count 2000] [--show N] [--draw PREFIX]
       .venv/bin/python number_probes.py --stretch [--set dev] [--factors 1,1.15,1.3,0.85]
       .venv/bin/python number_probes.py --thin [--set dev] [--every 1,2,3,5]

--mnist: held-out MNIST digits (real writers, never trained on) traced into pen
strokes and set side by side as numbers of 2-6 digits (gaps 0.1-0.5 heights,
a quarter of the numbers with touching neighbours), read through
`recog-bench --numbers` (the server's code), beside what a perfect split gives
(each digit read alone from its own strokes). The tracer walks each connected
piece of the digit's skeleton depth first from its top-most end and goes back
over its own line at every branch (a depth-first tour, the return to the start
left out), so a digit with a loop or a branch is one stroke that retraces
part of itself; a digit whose skeleton is broken is two strokes or more. The
tracer's habits are in the figure: it measures the splitting of real shapes
drawn this way, not of real pens (docs/recognition.md).

--stretch: a set's numbers (number_reading.SETS) with every x coordinate
multiplied by each factor (writing wider or narrower than the synthetic
writers, gaps included), read as numbers and each digit alone.

--thin: a set's numbers with only every k-th point of each stroke kept (and
its last), as a pen or a browser that reports fewer points would send them
(the synthetic writers give a median of 39 points per stroke; the web client
sends every coalesced pointer event, more), read as numbers and each digit
alone: what is lost with the points, and whether the loss is in the split
or in the digits' shapes.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np

import data
import evaluate as ev
import number_reading as nr

HERE = os.path.dirname(os.path.abspath(__file__))


def trace(img):
    """An MNIST image as strokes (x, y in 28-px units): one per connected piece of
    the skeleton of the 4x upsampled digit (pieces under 6 skeleton pixels left
    out), a depth-first tour from the piece's top-most end, every third pixel."""
    from scipy import ndimage
    from skimage.morphology import skeletonize
    up = ndimage.zoom(img.astype(np.float64), 4, order=1)
    on = set(zip(*[a.tolist() for a in np.nonzero(skeletonize(up > 0.35))]))

    def around(p):
        return [(p[0] + dy, p[1] + dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                if (dy or dx) and (p[0] + dy, p[1] + dx) in on]

    seen, out = set(), []
    for first in sorted(on, key=lambda q: (q[1], q[0])):
        if first in seen:
            continue
        piece, todo = [], [first]
        seen.add(first)
        while todo:
            q = todo.pop()
            piece.append(q)
            for r in around(q):
                if r not in seen:
                    seen.add(r)
                    todo.append(r)
        if len(piece) < 6:
            continue
        ends = [q for q in piece if len(around(q)) == 1]
        start = min(ends or piece, key=lambda q: q[0] + 0.3 * q[1])
        path, visited, stack = [start], {start}, [(start, iter(sorted(around(start))))]
        while stack:  # the tour, iteratively: down each new branch, back along it
            q, rest = stack[-1]
            nxt = next((r for r in rest if r not in visited), None)
            if nxt is None:
                stack.pop()
                if stack:
                    path.append(stack[-1][0])
                continue
            visited.add(nxt)
            path.append(nxt)
            stack.append((nxt, iter(sorted(around(nxt)))))
        # The way back to the start after the last branch is no ink of its own.
        last = max(i for i, q in enumerate(path) if path.index(q) == i)
        path = path[:last + 1]
        out.append([(x / 4.0, y / 4.0) for y, x in path[::3] + [path[-1]]])
    return out


def mnist_numbers(count, seed=31337, split="heldout"):
    """[(label, kind, strokes)] and each number's digits' own strokes, of the
    held-out MNIST digits (or, `split="train"`, of the training ones)."""
    train_images, train_labels, images, labels = data.mnist_split()
    if split == "train":
        images, labels = train_images, train_labels
    of = {d: np.flatnonzero(labels == d) for d in range(10)}
    traced = {}
    rng = np.random.default_rng(seed)
    numbers, parts = [], []
    for i in range(count):
        label = "".join(str(int(d)) for d in rng.integers(0, 10, 2 + i % 5))
        height = float(np.exp(rng.uniform(np.log(60), np.log(200))))
        scale = height / 20.0  # an MNIST digit is about 20 px tall in its 28
        gap = float(rng.uniform(0.1, 0.5))
        touching = rng.random() < 0.25
        out, own, right, t = [], [], 40.0, 0.0
        for j, ch in enumerate(label):
            k = int(of[int(ch)][int(rng.integers(len(of[int(ch)])))])
            if k not in traced:
                traced[k] = trace(images[k])
            pts = [[(x * scale, y * scale) for x, y in s] for s in traced[k]]
            xs = [p[0] for s in pts for p in s]
            ys = [p[1] for s in pts for p in s]
            g = (-float(rng.uniform(0, 0.06)) if touching and rng.random() < 0.5
                 else max(gap + float(rng.normal(0, 0.05)), 0.06))
            dx = right + g * height - min(xs) if j else 40 - min(xs)
            dy = 300 - max(ys) + float(rng.normal(0, 0.03)) * height
            digit = []
            for s in pts:
                t += float(rng.uniform(150, 400))
                stroke = []
                for x, y in s:
                    stroke.append([round(x + dx, 1), round(y + dy, 1), round(t, 1)])
                    t += 12.0
                digit.append(stroke)
            right = max(xs) + dx
            out.extend(digit)
            own.append(digit)
        numbers.append((label, "touching" if touching else "clean", out))
        parts.append(own)
    return numbers, parts


def read(bench, numbers, name):
    path = os.path.join(HERE, "out", f"probe_{name}.jsonl")
    nr.write_lines(path, numbers)
    subprocess.run([bench, "--numbers", path, path + ".readings", "0"], check=True, capture_output=True)
    with open(path + ".readings") as f:
        return [json.loads(line) for line in f]


def read_alone(bench, numbers, parts, name):
    """Each digit read alone from its own strokes: (numbers right, digits right, digits, misreads)."""
    singles = [(ch, "digit", p) for (label, _, _), ps in zip(numbers, parts) for ch, p in zip(label, ps)]
    path = os.path.join(HERE, "out", f"probe_{name}_alone.jsonl")
    nr.write_lines(path, singles)
    subprocess.run([bench, path, path + ".f32", path + ".txt", "1"], check=True, capture_output=True)
    with open(path + ".txt") as f:
        alone = [int(line.split()[0]) for line in f]
    k, right, reads = 0, 0, []
    for label, _, _ in numbers:
        reads.append("".join(str(alone[k + j]) for j in range(len(label))))
        right += reads[-1] == label
        k += len(label)
    wrong = Counter((c, a) for a, (c, _, _) in zip(alone, singles) if a != int(c))
    return reads, right, sum(a == int(c) for a, (c, _, _) in zip(alone, singles)), len(singles), wrong


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mnist", action="store_true")
    ap.add_argument("--stretch", action="store_true")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--set", default="dev", choices=[s for s in nr.SETS if s != "heldout"])
    ap.add_argument("--factors", default="1,1.15,1.3,0.85")
    ap.add_argument("--thin", action="store_true")
    ap.add_argument("--every", default="1,2,3,5")
    ap.add_argument("--show", type=int, default=0, help="print this many numbers a perfect split reads right and the reader does not")
    ap.add_argument("--draw", help="draw those numbers to DRAW_0.png, ...")
    ap.add_argument("--package", default=os.path.join(HERE, "out", "bench-pkg"))
    args = ap.parse_args()
    os.makedirs(os.path.join(HERE, "out"), exist_ok=True)
    ev.make_package(args.package)
    bench = ev.build(args.package)
    if args.mnist:
        numbers, parts = mnist_numbers(args.count)
        replies = read(bench, numbers, "mnist")
        print(f"Numbers: {len(numbers)} of held-out MNIST digits traced into strokes, through `recog-bench --numbers`")
        rows = nr.evaluate(numbers, replies)
        alone, right, ok, total, _ = read_alone(bench, numbers, parts, "mnist")
        print(f"\neach digit read alone (a perfect split): {100 * right / len(numbers):.2f}% ({right}) of the numbers, "
              f"{100 * ok / total:.2f}% of the digits")
        split = [i for i, (l, _, r) in enumerate(rows) if l != r and alone[i] == l]
        few = sum(len(rows[i][2] or "") < len(rows[i][0]) for i in split)
        many = sum(len(rows[i][2] or "") > len(rows[i][0]) for i in split)
        cut = sum(len(rows[i][2] or "") > len(rows[i][0]) and len(numbers[i][2]) < len(rows[i][2]) for i in split)
        print(f"misread only by the split (a perfect split reads them): {len(split)}: too few {few}, too many {many} "
              f"({cut} of them with fewer strokes than digits read: a stroke cut), "
              f"right count {len(split) - few - many}")
        for i in split[:args.show]:
            print(f"  line {i + 1}: wrote {rows[i][0]} read {rows[i][2]} ({rows[i][1]})")
        if args.draw:
            nr.draw_misread([numbers[i] for i in split], [replies[i] for i in split], args.draw)
    if args.stretch:
        base, parts = made(args.set, args.count)
        print(f"{args.set} set, {len(base)} numbers, x multiplied by each factor: numbers read exactly (too few / too many) | "
              "a perfect split: numbers, digits, the most common misreads")
        for f in (float(x) for x in args.factors.split(",")):
            def stretched(strokes):
                return [[[p[0] * f, p[1], p[2]] for p in s] for s in strokes]

            print(f"  ×{f:<5} {read_changed(bench, base, parts, stretched, f'stretch_{args.set}')}")
    if args.thin:
        base, parts = made(args.set, args.count)
        points = sorted(len(s) for _, _, st in base for s in st)
        print(f"{args.set} set, {len(base)} numbers (median {points[len(points) // 2]} points per stroke), every k-th point "
              "kept: numbers read exactly (too few / too many) | a perfect split: numbers, digits, the most common misreads")
        for k in (int(x) for x in args.every.split(",")):
            def thinned(strokes):
                return [s[::k] + ([s[-1]] if (len(s) - 1) % k else []) for s in strokes]

            print(f"  every {k:<3} {read_changed(bench, base, parts, thinned, f'thin_{args.set}')}")


def made(name, count):
    """A synthetic set's numbers and each number's digits' own strokes."""
    parts = []
    return nr.make_set(name, count, parts=parts), parts


def read_changed(bench, base, parts, change, tag):
    """The numbers with `change` applied to their strokes (and to each digit's
    own, for the perfect split), read both ways: one line of figures."""
    numbers = [(l, kind, change(st)) for l, kind, st in base]
    own = [[change(digit) for digit in ps] for ps in parts]
    got = [r.get("number") or "" for r in read(bench, numbers, tag)]
    exact = sum(g == l for g, (l, _, _) in zip(got, numbers))
    few = sum(len(g) < len(l) for g, (l, _, _) in zip(got, numbers))
    many = sum(len(g) > len(l) for g, (l, _, _) in zip(got, numbers))
    _, right, ok, total, wrong = read_alone(bench, numbers, own, tag)
    common = ", ".join(f"{c}→{a} {n}" for (c, a), n in wrong.most_common(3))
    return f"{exact} ({few} / {many}) | {right}, {ok} of {total}: {common}"


if __name__ == "__main__":
    sys.exit(main())
