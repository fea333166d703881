"""Train mindpad-cnn-v1 on MNIST 5k (4,000 train) + synthetic stroke digits; CPU, deterministic.

usage: nice -n 10 .venv/bin/python train.py [--epochs 60] [--seed 0] [--out out/weights.npz]
then:  .venv/bin/python export.py   (safetensors, onnx, Swift test fixtures)
"""
from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import jax
import jax.numpy as jnp
import numpy as np

import data
import model

OUT = os.path.join(data.HERE, "out")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--synth-per-epoch", type=int, default=6000)
    ap.add_argument("--mnist-repeats", type=int, default=2)
    ap.add_argument("--skeleton-per-epoch", type=int, default=4000)
    ap.add_argument("--nondigits-per-epoch", type=int, default=2000)
    ap.add_argument("--nondigit-weight", type=float, default=0.5)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--out", default=os.path.join(OUT, "weights.npz"))
    ap.add_argument("--widths", default=",".join(map(str, model.WIDTHS)),
                    help="conv1,conv2,conv3 channels and fc1 units of a network started from random weights")
    ap.add_argument("--init", help="start from these weights (.npz or .safetensors) instead of random ones")
    ap.add_argument("--not-a-digit", action="store_true",
                    help="11 outputs: non-digits are class 10 (a 10-output --init is widened by model.with_not_a_digit)")
    ap.add_argument("--only-not-a-digit", action="store_true",
                    help="with --not-a-digit, train only the \"not a digit\" lane (fc2's column 10 and its bias): "
                         "every digit output stays exactly as in --init")
    ap.add_argument("--not-a-digit-hidden", type=int, default=0,
                    help="with --not-a-digit, the output is its own head: a hidden layer of this many units "
                         "(ReLU) on the 800 conv features, then one logit (model.with_not_a_digit_head); "
                         "with --only-not-a-digit only the head is trained")
    ap.add_argument("--nondigit-width", action="store_true",
                    help="augment the non-digits' stroke width too (dilation / thinning, as MNIST's), so that a bold "
                         "stroke does not by itself mean \"not a digit\"")
    ap.add_argument("--not-a-digit-share", type=float, default=1.0,
                    help="with --not-a-digit, a non-digit's target on class 10; the rest is spread evenly over the "
                         "digits, so that given a digit they stay uniform (the 10-output outlier exposure) too")
    ap.add_argument("--hard-writers", type=int, default=0,
                    help="add data.hard_pairs_train(N): flagged 1s and barred 7s by N writers of their own, all each epoch")
    ap.add_argument("--hard-rotation", type=float, default=0.12,
                    help="the hard pairs' augmentation: rotation (radians) and shear up to this (the synthetic set's: 0.12/0.15); "
                         "a flag's droop is what tells a 1 from a 7, and a rotation changes it")
    ap.add_argument("--touching-pairs", type=int, default=0,
                    help="touching two-digit pairs added to the non-digits (data.touching_pairs_train)")
    ap.add_argument("--synth-writers", type=int, default=data.TRAIN_WRITERS,
                    help="writers of the synthetic training set (10 drawings per digit each; cached per size)")
    ap.add_argument("--nondigit-writers", type=int, default=data.ND_TRAIN[0],
                    help="writers of the non-digit training set (3 per kind each; cached per size)")
    ap.add_argument("--pieces", help="candidate digits of numbers as the segmenter reads them (number_pieces.py's .npz): "
                                     "digits by their label, the rest pulled to uniform with --pieces-weight")
    ap.add_argument("--pieces-per-epoch", type=int, default=12000)
    ap.add_argument("--pieces-weight", type=float, default=1.0, help="weight of a candidate that is no digit")
    ap.add_argument("--sources", help="train on these writer sources (sources.py; comma-separated, or \"all\"): "
                                      "their stroke drawings take the synthetic set's place (--synth-per-epoch of "
                                      "them each epoch), MNIST's images and skeletons come only with \"mnist\", "
                                      "the non-digits only from the sources that draw them")
    ap.add_argument("--leave-out", help="with --sources, leave this source out (leave-one-source-out, loso.py)")
    ap.add_argument("--strong-augment", action="store_true",
                    help="the stroke drawings warped as MNIST's images are (rotation, scale, shear, elastic, width)")
    args = ap.parse_args()
    # The first N writers of a seed are the same whatever N: a larger set extends a smaller one.
    data.TRAIN_WRITERS = args.synth_writers
    data.ND_TRAIN = (args.nondigit_writers,) + data.ND_TRAIN[1:]
    os.makedirs(OUT, exist_ok=True)
    t0 = time.time()
    if args.sources:
        import sources
        names = sources.available() if args.sources == "all" else args.sources.split(",")
        names = [n for n in names if n != args.leave_out]
        assert not args.hard_writers or "synth" in names, "--hard-writers draws synth's writers"
        (xs, ys), (xm, ym), (xk, yk), xn = sources.training_images(names)
        # What the periodic line prints: the calibration splits of the sources
        # trained on (never a left-out source's, never a test split).
        cal = [r for n in names for r in sources.drawings(n, "calib")]
        xh, yh = data.render([r[3] for r in cal]), np.array([r[0] for r in cal], np.int32)
        xt, yt = xh[:0], yh[:0]
        args.skeleton_per_epoch = min(args.skeleton_per_epoch, len(yk))
        print(f"sources: {', '.join(names)}", flush=True)
    else:
        xm, ym, xh, yh = data.mnist_split()
        xs, ys = data.synthetic_train()
        xk, yk = data.mnist_strokes_train()
        xt, yt, _ = data.synthetic_test()
        xn = data.nondigits_train()
    if args.touching_pairs:
        xn = np.concatenate([xn, data.touching_pairs_train(args.touching_pairs)])
    xq, yq = data.hard_pairs_train(args.hard_writers) if args.hard_writers else \
        (np.zeros((0, 28, 28), np.float32), np.zeros(0, np.int32))
    if args.pieces:
        with np.load(args.pieces) as d:
            xp, yp = d["x"], d["y"]
        yp = np.where(yp < 0, -2, yp).astype(np.int32)  # -2: a candidate that is no digit (its own weight)
    else:
        xp, yp = np.zeros((0, 28, 28), np.float32), np.zeros(0, np.int32)
    pieces_per_epoch = min(args.pieces_per_epoch, len(yp))
    print(f"data: mnist train {len(ym)} held-out {len(yh)}, synth train {len(ys)}, mnist-as-strokes train {len(yk)}, "
          f"synth test {len(yt)}, non-digits train {len(xn)} "
          f"({time.time() - t0:.0f}s)", flush=True)

    rng = np.random.default_rng(args.seed)
    start = model.init(rng, tuple(int(v) for v in args.widths.split(",")))
    if args.init:
        if args.init.endswith(".safetensors"):
            from safetensors.numpy import load_file
            start = load_file(args.init)
        else:
            start = dict(np.load(args.init))
        start = {k: start[k].astype(np.float32) for k in model.shapes_of(start)}
    if args.not_a_digit and args.not_a_digit_hidden and "nad1.weight" not in start:
        start = model.with_not_a_digit_head(start, args.not_a_digit_hidden, rng)
    elif args.not_a_digit and model.outputs_of(start) == 10:
        start = model.with_not_a_digit(start)
    outputs = model.outputs_of(start)
    params = {k: jnp.asarray(v) for k, v in start.items()}
    m = {k: jnp.zeros_like(v) for k, v in params.items()}
    v = {k: jnp.zeros_like(v) for k, v in params.items()}
    steps_per_epoch = (len(ym) * args.mnist_repeats + args.synth_per_epoch + args.skeleton_per_epoch
                       + min(args.nondigits_per_epoch, len(xn)) + len(yq) + pieces_per_epoch) // args.batch
    total = steps_per_epoch * args.epochs
    wd = 5e-4

    # Non-digits (label -1): with 10 outputs they are pulled towards the uniform
    # distribution (outlier exposure), so their top probability stays low and the
    # refusal threshold can tell them from digits; with 11 they are class 10,
    # "not a digit". Digits have label smoothing 0.05 either way.
    def loss_fn(p, x, y, key):
        logits = model.jax_forward(p, x, key)
        logp = jax.nn.log_softmax(logits)
        digit = y >= 0
        if outputs == 11:
            nd = jnp.full(11, (1 - args.not_a_digit_share) / 10).at[model.NOT_A_DIGIT].set(args.not_a_digit_share)
            target = jnp.where(digit[:, None], jax.nn.one_hot(y, 11) * 0.95 + 0.05 / 11,
                               nd * 0.95 + 0.05 / 11)
        else:
            target = jnp.where(digit[:, None], jax.nn.one_hot(y, 10) * 0.95 + 0.005, 0.1)
        weight = jnp.where(digit, 1.0, jnp.where(y == -2, args.pieces_weight, args.nondigit_weight))
        return -jnp.sum(weight * jnp.sum(target * logp, axis=1)) / x.shape[0]

    @jax.jit
    def step(p, m, v, x, y, key, i):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y, key)
        if args.only_not_a_digit:
            g = {k: g[k] if k in model.NAD_KEYS else
                 jnp.zeros_like(g[k]).at[..., model.NOT_A_DIGIT].set(g[k][..., model.NOT_A_DIGIT])
                 if k.startswith("fc2.") and g[k].shape[-1] == 11 else jnp.zeros_like(g[k]) for k in g}
        warm = jnp.minimum(1.0, (i + 1) / steps_per_epoch)
        lr = args.lr * warm * 0.5 * (1 + jnp.cos(jnp.pi * i / total))
        b1, b2 = 0.9, 0.999
        t = i + 1
        newp, newm, newv = {}, {}, {}
        for k in p:
            newm[k] = b1 * m[k] + (1 - b1) * g[k]
            newv[k] = b2 * v[k] + (1 - b2) * g[k] ** 2
            mh = newm[k] / (1 - b1 ** t); vh = newv[k] / (1 - b2 ** t)
            decay = wd * p[k] if k.endswith("weight") else 0.0
            delta = lr * (mh / (jnp.sqrt(vh) + 1e-8) + decay)
            if args.only_not_a_digit and k not in model.NAD_KEYS:  # the frozen weights do not decay either
                delta = jnp.zeros_like(delta).at[..., model.NOT_A_DIGIT].set(delta[..., model.NOT_A_DIGIT]) \
                    if k.startswith("fc2.") and delta.shape[-1] == 11 else jnp.zeros_like(delta)
            newp[k] = p[k] - delta
        return newp, newm, newv, loss

    predict = jax.jit(lambda p, x: jnp.argmax(model.jax_forward(p, x)[:, :10], axis=1))  # the digit read

    def acc(p, x, y):
        pred = np.concatenate([np.asarray(predict(p, x[i:i + 1000])) for i in range(0, len(x), 1000)])
        return float((pred == y).mean())

    key = jax.random.PRNGKey(args.seed)
    i = 0
    for ep in range(args.epochs):
        te = time.time()
        a = np.concatenate([data.augment(xm, rng) for _ in range(args.mnist_repeats)])
        pick = rng.choice(len(ys), args.synth_per_epoch, replace=False)
        b = data.augment(xs[pick], rng, rot=0.12, scale=0.08, shear=0.15, shift=1.5, alpha=15.0, width=False) \
            if not args.strong_augment else \
            data.augment(xs[pick], rng, rot=0.2, scale=0.12, shear=0.25, shift=2.0, alpha=25.0, width=True)
        pk = rng.choice(len(yk), args.skeleton_per_epoch, replace=False)
        c = data.augment(xk[pk], rng, rot=0.05, scale=0.05, shear=0.05, shift=1.0, alpha=0.0, width=False)
        pn = rng.choice(len(xn), min(args.nondigits_per_epoch, len(xn)), replace=False)  # as steps_per_epoch
        n = data.augment(xn[pn], rng, rot=0.12, scale=0.08, shear=0.15, shift=1.5, alpha=15.0,
                         width=args.nondigit_width)
        q = data.augment(xq, rng, rot=args.hard_rotation, scale=0.08, shear=args.hard_rotation * 1.25, shift=1.5,
                         alpha=15.0 if args.hard_rotation else 5.0, width=False) \
            if len(yq) else xq
        # The segmenter's own images: only a light warp (they are what the server
        # reads). Without --pieces nothing is drawn from `rng`, so earlier
        # recipes train exactly as before.
        pp = rng.choice(len(yp), pieces_per_epoch, replace=False) if len(yp) else np.zeros(0, np.int64)
        r = data.augment(xp[pp], rng, rot=0.03, scale=0.03, shear=0.03, shift=1.0, alpha=0.0, width=False) \
            if len(yp) else xp
        x = np.concatenate([a, b, c, n, q, r])
        y = np.concatenate([np.tile(ym, args.mnist_repeats), ys[pick], yk[pk], np.full(len(pn), -1, np.int32), yq,
                            yp[pp]])
        perm = rng.permutation(len(y))
        x, y = x[perm], y[perm]
        losses = []
        for s in range(steps_per_epoch):
            key, sub = jax.random.split(key)
            sl = slice(s * args.batch, (s + 1) * args.batch)
            params, m, v, loss = step(params, m, v, jnp.asarray(x[sl]), jnp.asarray(y[sl]), sub, i)
            losses.append(loss)
            i += 1
        msg = f"epoch {ep + 1}/{args.epochs} loss {float(np.mean(losses)):.4f} ({time.time() - te:.1f}s)"
        if (ep + 1) % 5 == 0 or ep + 1 == args.epochs:
            msg += (f" calibration {acc(params, xh, yh):.4f}" if args.sources else
                    f" mnist-heldout {acc(params, xh, yh):.4f} synth-test {acc(params, xt, yt):.4f}")
        print(msg, flush=True)
    np.savez(args.out, **{k: np.asarray(v, np.float32) for k, v in params.items()})
    print(f"trained in {time.time() - t0:.0f}s -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
