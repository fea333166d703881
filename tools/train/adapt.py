"""A reader that learns each player's hand (issue 43): the Python twin of `PlayerHand`.

The network's last hidden layer h (fc1 after its ReLU, 64 values for
mindpad-cnn-v1) is where a digit's shape has become "which digit". A
player's hand keeps, for each digit c, how many of their own drawings of it
were learned (n_c) and their mean hidden vector m_c: the player's prototype
of the digit. Reading a drawing of theirs, digit c's calibrated logit gains

    lambda * n_c / (n_c + shrink) * exp(-|h - m_c|^2 / (2 * kernel * sigma2))

(sigma2: the mean squared distance of a drawing's h to its digit's mean over
the calibration drawings): a pull towards c as strong as the drawing is near
the player's own c, nothing far from it, nothing for a digit never taught,
and only for digits the network gives at least GATE without the hand (so a
wrong label learned cannot turn a sure reading).
The alternative measured beside it (KERNEL = 0) is linear: everyone's mean
mu_c (`population`) and the prototype p_c = (n_c m_c + shrink mu_c) /
(n_c + shrink) shift c by lambda * [(p_c - mu_c) . h - (|p_c|^2 - |mu_c|^2) / 2]
/ sigma2, how much nearer h lies to p_c than to mu_c; it helped the templates
fold as much but let some writers' other digits drift on the others (so it
is not shipped).

What a hand learns from, and only that (never the question's expected answer
used to read): a digit the player tapped in a choice, or a drawing read
outright with confidence at least `learn_above` and graded right. n_c stops
at `n_max`, so a hand keeps following its player (an exponential mean).

usage: .venv/bin/python adapt.py --simulate [--folds templates,fonts] [--writers 60] [--noise 0.02] [--plot PNG]
       .venv/bin/python adapt.py --grid [--kernels 0.25,0.35] [--lambdas 32,64,128]
       .venv/bin/python adapt.py --fixture
  Writers of each fold's left-out source (seeds no split draws, a consistent
  hand each) answer 80 questions in turn, read by that fold's network (trained
  and calibrated without their source) with their hand learning as the server
  lets it; at 0, 5, 10, 20, 40 and 80 answers the hand is frozen and 200 more
  of their drawings are read. --noise: that share of the learned labels is
  wrong. --grid: the hand's constants over the folds.
"""
from __future__ import annotations

import argparse
import json
import os

import numpy as np

import data
import export
import loso
import sources

# The hand's constants (chosen by --grid on the folds' writers; exported into the
# weights' `hand` metadata with mu and sigma2).
LAMBDA, SHRINK, N_MAX, LEARN_ABOVE = 128.0, 1.0, 64, 0.98
# The pull's width (Hand.shift, PlayerHand in Swift); 0: the linear shift of the
# module's docstring, measured beside it and not shipped (docs/recognition.md).
KERNEL = 0.25
# A digit gains only when the network's own (unadapted, calibrated) probability
# of it is at least this: the hand settles among the digits a drawing could be,
# and a wrong label (a tap gone astray) cannot turn a sure reading.
GATE = 0.01


def hidden(p, x):
    """fc1's output after its ReLU for a batch of images (float32, as the server computes)."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    dn = ("NHWC", "HWIO", "NHWC")
    q = {k: jnp.asarray(v) for k, v in p.items()}

    def conv(h, w, b, pad):
        return lax.conv_general_dilated(h, w, (1, 1), pad, dimension_numbers=dn, precision=lax.Precision.HIGHEST) + b

    def pool(h):
        return lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    out = []
    for i in range(0, len(x), 1000):
        h = jnp.asarray(x[i:i + 1000])[..., None]
        h = pool(jax.nn.relu(conv(h, q["conv1.weight"], q["conv1.bias"], "SAME")))
        h = pool(jax.nn.relu(conv(h, q["conv2.weight"], q["conv2.bias"], "SAME")))
        h = jax.nn.relu(conv(h, q["conv3.weight"], q["conv3.bias"], "VALID")).reshape(h.shape[0], -1)
        out.append(np.asarray(jax.nn.relu(jnp.dot(h, q["fc1.weight"], precision=lax.Precision.HIGHEST)
                                          + q["fc1.bias"])))
    return np.concatenate(out) if out else np.zeros((0, p["fc1.bias"].shape[0]), np.float32)


def population(p, x, y):
    """(mu: each digit's mean hidden vector, sigma2: the mean squared distance of a
    drawing's h to its digit's mean) of labelled images."""
    h = hidden(p, x).astype(np.float64)
    mu = np.stack([h[y == d].mean(0) for d in range(10)])
    sigma2 = float(((h - mu[y]) ** 2).sum(1).mean())
    return mu, sigma2


class Hand:
    def __init__(self, mu, sigma2, lam=LAMBDA, shrink=SHRINK, n_max=N_MAX):
        self.mu, self.sigma2, self.lam, self.shrink, self.n_max = mu, sigma2, lam, shrink, n_max
        self.n = np.zeros(10)
        self.m = np.zeros(mu.shape, np.float16)  # as PlayerHand keeps (and stores) it

    def learn(self, h, digit):
        self.n[digit] = min(self.n[digit] + 1, self.n_max)
        m = self.m[digit].astype(np.float32)
        self.m[digit] = (m + (h.astype(np.float32) - m) * np.float32(1 / self.n[digit])).astype(np.float16)

    def shift(self, h):
        """What each digit's calibrated logit gains for this player (10,)."""
        if KERNEL:
            # Local: only a drawing near the player's own prototype of a digit
            # gains for it, as much as it is near (a Gaussian of the squared
            # distance in units of sigma2 * KERNEL), the prototype weighed by
            # how many drawings it holds.
            m = self.m.astype(np.float64)
            d2 = ((h[None, :] - m) ** 2).sum(1) / (self.sigma2 * KERNEL)
            return np.where(self.n > 0, self.lam * self.n / (self.n + self.shrink) * np.exp(-0.5 * d2), 0.0)
        p = (self.n[:, None] * self.m.astype(np.float64) + self.shrink * self.mu) / (self.n[:, None] + self.shrink)
        return self.lam * ((p - self.mu) @ h - 0.5 * ((p * p).sum(1) - (self.mu * self.mu).sum(1))) / self.sigma2


def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


CHECKPOINTS = (0, 5, 10, 20, 40, 80)


def prepare(fold, n_writers, evaluation=200, seed=0):
    path = os.path.join(loso.OUT, f"adapt_prepared_{fold}_{n_writers}_{evaluation}_{seed}.pkl")
    if os.path.exists(path) and os.path.getmtime(path) > os.path.getmtime(loso.weights_path(fold)):
        import pickle
        with open(path, "rb") as f:
            return pickle.load(f)
    out = _prepare(fold, n_writers, evaluation, seed)
    import pickle
    with open(path, "wb") as f:
        pickle.dump(out, f)
    return out


def _prepare(fold, n_writers, evaluation, seed):
    """What the simulation reads, once per fold: its network's calibrated logits,
    hidden vectors and stroke features of each writer's drawings (max(CHECKPOINTS)
    to learn from, then `evaluation` more), the digits meant, the fold's reader
    and the population (mu, sigma2) of the sources it was trained on."""
    import quick_eval
    p = quick_eval.load(loso.weights_path(fold))
    names = [n for n in sources.available() if n != fold]
    reader = loso.Reader(p, names)
    xc = np.concatenate([loso.images(n, "calib") for n in names])
    yc = np.concatenate([np.array([r[0] for r in sources.drawings(n, "calib")]) for n in names])
    mu, sigma2 = population(p, xc, yc)
    rng = np.random.default_rng(seed)
    learn = max(CHECKPOINTS)
    writers = []
    for w in range(n_writers):
        writer = sources.writer(fold, w)
        digits = rng.integers(0, 10, learn + evaluation)
        drawn = loso._as_read([writer.draw(int(d), rng) for d in digits])
        x = data.render(drawn)
        z = export.logits_of(p, x)[:, :10].astype(np.float64) / reader.temperature
        writers.append((z, hidden(p, x).astype(np.float64),
                        np.array([loso.refusal.stroke_features(s) for s in drawn]), digits))
    return reader, mu, sigma2, writers


def simulate(prepared, noise=0.0, lam=LAMBDA, shrink=SHRINK, learn_above=LEARN_ABOVE, seed=0):
    """Each writer's hand learns from their first max(CHECKPOINTS) answers in turn,
    as the server would (a tap: the digit meant, or with probability `noise` another
    one; a reading outright at `learn_above` or more and right: that digit); at
    each checkpoint its outcomes on the writer's later drawings (the hand frozen
    there) are recorded. Returns {checkpoint: (writers, evaluation) outcomes}."""
    reader, mu, sigma2, writers = prepared
    rng = np.random.default_rng(seed)
    learn = max(CHECKPOINTS)
    out = {k: [] for k in CHECKPOINTS}

    def outcomes(z, h, sf, y, hand):
        if hand is not None:
            # Only digits the network itself finds plausible (GATE) may gain.
            p0 = np.exp(z - z.max(1, keepdims=True))
            p0 /= p0.sum(1, keepdims=True)
            zz = z + np.stack([hand.shift(v) for v in h]) * (p0 >= GATE)
        else:
            zz = z
        pr = np.exp(zz - zz.max(1, keepdims=True))
        pr /= pr.sum(1, keepdims=True)
        ref = loso.refusal.refused(reader.rule, loso.feature_rows(pr, sf))
        return loso.outcomes(pr, ref, y), pr

    for z, h, sf, digits in writers:
        hand = Hand(mu, sigma2, lam, shrink)
        ev = slice(learn, None)
        for i in range(learn + 1):
            if i in out:
                out[i].append(outcomes(z[ev], h[ev], sf[ev], digits[ev], hand if i else None)[0])
            if i == learn:
                break
            o, pr = outcomes(z[i:i + 1], h[i:i + 1], sf[i:i + 1], digits[i:i + 1], hand)
            label = int(digits[i]) if o[0] == "tap ok" or (o[0] == "right" and pr[0].max() >= learn_above) else None
            if label is not None and rng.random() < noise:
                label = int(rng.choice([c for c in range(10) if c != label]))
            if label is not None:
                hand.learn(h[i], label)
    return {k: np.array(v) for k, v in out.items()}


def report(fold, res):
    base = (res[0] != "right").mean(1)
    line = [f"{fold}: not read right outright, mean over writers (answers learned: %)"]
    line.append("  " + "  ".join(f"{k}: {100 * (res[k] != 'right').mean():.2f}" for k in CHECKPOINTS))
    after = (res[20] != "right").mean(1)
    line.append(f"  after 20: {100 * after.mean():.2f}% vs {100 * base.mean():.2f}% unadapted "
                f"(ratio {after.mean() / max(base.mean(), 1e-9):.2f}); worst writer {100 * (after - base).max():+.2f} points; "
                f"writers worse by > 0.5 points: {int(((after - base) > 0.005).sum())} of {len(base)}")
    print("\n".join(line), flush=True)


def model_json(sigma2, lam=LAMBDA, shrink=SHRINK, kernel=KERNEL, gate=GATE, n_max=N_MAX, learn_above=LEARN_ABOVE):
    """The weights' `hand` metadata (HandModel in Swift)."""
    return json.dumps({"sigma2": round(float(sigma2), 6), "lambda": lam, "shrink": shrink, "kernel": kernel,
                       "gate": gate, "n_max": n_max, "learn_above": learn_above}, separators=(",", ":"))


def write_fixture():
    """PlayerHandFixture.swift: a model, hidden vectors learned in turn (n_max small,
    so the exponential mean is reached) and what the Python hand then holds and
    shifts, for the Swift twin to reproduce."""
    rng = np.random.default_rng(43)
    width = 64
    mu = np.maximum(rng.normal(0.5, 0.6, (10, width)), 0).round(6)
    sigma2 = 37.5
    model = json.loads(model_json(sigma2, lam=6.0, shrink=2.0, kernel=0.25, n_max=4))
    hand = Hand(mu, model["sigma2"], model["lambda"], model["shrink"], model["n_max"])
    learned = []
    for i in range(14):
        d = [1, 7, 1, 1, 6, 1, 1, 9, 1, 7, 0, 1, 6, 1][i]
        h = np.maximum(mu[d] + rng.normal(0, 0.4, width), 0).astype(np.float32)
        hand.learn(h, d)
        learned.append({"digit": d, "hidden": [float(v) for v in h]})
    probes = [np.maximum(mu[d] + rng.normal(0, 0.5, width), 0).astype(np.float32) for d in (1, 7, 3)]
    payload = {"model": json.dumps(model, separators=(",", ":")), "width": width, "learned": learned,
               "counts": [int(v) for v in hand.n],
               "means": [int(v) for v in hand.m.reshape(-1).view(np.uint16)],
               "probes": [{"hidden": [float(v) for v in h],
                           "shift": [float(v) for v in hand.shift(h.astype(np.float64))]} for h in probes]}
    export.swift_fixture("PlayerHandFixture", payload,
                         "A hand model, hidden vectors learned in turn, the hand adapt.py's twin then holds and its shifts.",
                         by="tools/train/adapt.py --fixture")


def main():
    global KERNEL, GATE
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixture", action="store_true")
    ap.add_argument("--simulate", action="store_true")
    ap.add_argument("--folds", default="templates,fonts,synth")
    ap.add_argument("--writers", type=int, default=100)
    ap.add_argument("--noise", type=float, default=0.0)
    ap.add_argument("--plot", help="with --simulate: the curves into this PNG")
    ap.add_argument("--shrinks", type=lambda t: [float(v) for v in t.split(",")], default=[1.0, 2.0, 4.0])
    ap.add_argument("--gates", type=lambda t: [float(v) for v in t.split(",")], default=[GATE])
    ap.add_argument("--grid", action="store_true")
    ap.add_argument("--kernels", type=lambda t: [float(v) for v in t.split(",")], default=[KERNEL])
    ap.add_argument("--lambdas", type=lambda t: [float(v) for v in t.split(",")], default=[32.0, 64.0, 128.0])
    args = ap.parse_args()
    folds = args.folds.split(",")
    if args.fixture:
        write_fixture()
        return
    if args.grid:
        for fold in folds:
            prepared = prepare(fold, args.writers)
            for KERNEL, lam, shrink, GATE in [(k, l, s, g) for k in args.kernels for l in args.lambdas
                                              for s in args.shrinks for g in args.gates]:
                if True:
                    res = simulate(prepared, args.noise, lam, shrink)
                    base, after = (res[0] != "right").mean(1), (res[20] != "right").mean(1)
                    print(f"{fold} kernel {KERNEL} lambda {lam} shrink {shrink} gate {GATE}: {100 * base.mean():.2f}% -> {100 * after.mean():.2f}% "
                          f"(ratio {after.mean() / max(base.mean(), 1e-9):.2f}), worst writer {100 * (after - base).max():+.1f}, "
                          f"writers worse by > 0.5 points {int(((after - base) > 0.005).sum())}", flush=True)
        return
    if args.simulate:
        curves = {}
        for fold in folds:
            res = simulate(prepare(fold, args.writers), args.noise)
            report(fold, res)
            curves[fold] = [100 * (res[k] == "right").mean() for k in CHECKPOINTS]
        if args.plot:
            plot(curves, args.noise, args.plot)


def plot(curves, noise, path):
    """Read right outright, per fold's writers, against the answers the hand learned from."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for fold, ys in curves.items():
        ax.plot(CHECKPOINTS, ys, marker="o", label=f"{fold} (writers of a source left out)")
    ax.set_xscale("symlog", linthresh=5)
    ax.set_xticks(CHECKPOINTS)
    ax.set_xticklabels([str(k) for k in CHECKPOINTS])
    ax.set_xlabel("answers the player's hand learned from")
    ax.set_ylabel("read right outright (%)")
    ax.set_title(f"A reader that learns each hand ({100 * noise:.0f} % of learned labels wrong)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print("wrote", path)


if __name__ == "__main__":
    main()
