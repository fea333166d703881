"""The network, mindpad-cnn-v1, in JAX (training) and NumPy (reference for the golden test).

input 28x28x1 (NHWC, values in [0, 1], 0 = background)
conv1 3x3 1->8 same, ReLU, maxpool 2      -> 14x14x8
conv2 3x3 8->16 same, ReLU, maxpool 2     -> 7x7x16
conv3 3x3 16->32 valid, ReLU              -> 5x5x32 (flattened in H, W, C order: 800)
fc1 800->64, ReLU; fc2 64->10 (logits), or 64->11 with an 11th "not a digit" output
Or the "not a digit" output by its own small layer on the 800 conv features:
nad1 800->H, ReLU; nad2 H->1: logit 10 (the digit layers untouched).
Weights: conv HWIO, dense (in, out).
"""
from __future__ import annotations

import numpy as np

ARCH = "mindpad-cnn-v1"
WIDTHS = (8, 16, 32, 64)  # conv1, conv2, conv3 channels and fc1 units of mindpad-cnn-v1


def shapes_for(widths=WIDTHS, outputs: int = 10):
    """The layers' shapes for these widths (conv1, conv2, conv3 channels, fc1 units);
    conv3's 5x5 output is flattened into fc1's input."""
    c1, c2, c3, h = widths
    return {
        "conv1.weight": (3, 3, 1, c1), "conv1.bias": (c1,),
        "conv2.weight": (3, 3, c1, c2), "conv2.bias": (c2,),
        "conv3.weight": (3, 3, c2, c3), "conv3.bias": (c3,),
        "fc1.weight": (25 * c3, h), "fc1.bias": (h,),
        "fc2.weight": (h, outputs), "fc2.bias": (outputs,),
    }


def widths_of(p):
    """The widths of a dict of weights."""
    return (p["conv1.weight"].shape[3], p["conv2.weight"].shape[3], p["conv3.weight"].shape[3],
            p["fc1.weight"].shape[1])


SHAPES = shapes_for()
# The 11-output network: lane 10 is "not a digit" (same layers, 650 -> 715 weights).
NOT_A_DIGIT = 10
SHAPES11 = dict(SHAPES, **{"fc2.weight": (64, 11), "fc2.bias": (11,)})


NAD_KEYS = ("nad1.weight", "nad1.bias", "nad2.weight", "nad2.bias")


def nad_shapes(hidden: int):
    """The "not a digit" head: its own hidden layer of `hidden` units on the conv features."""
    return {"nad1.weight": (800, hidden), "nad1.bias": (hidden,), "nad2.weight": (hidden, 1), "nad2.bias": (1,)}


def shapes_of(p):
    """SHAPES, SHAPES11, or SHAPES with the "not a digit" head, whichever `p` (a dict of weights) holds."""
    base = shapes_for(widths_of(p), p["fc2.bias"].shape[0])
    if "nad1.weight" in p:
        return dict(base, **nad_shapes(p["nad1.weight"].shape[1]))
    return base


def outputs_of(p):
    """10, or 11 with a "not a digit" output (a lane of fc2 or its own head)."""
    return 11 if "nad1.weight" in p or p["fc2.bias"].shape[0] == 11 else 10


def macs_for(widths=WIDTHS, outputs: int = 10):
    c1, c2, c3, h = widths
    return 28 * 28 * c1 * 9 + 14 * 14 * c2 * 9 * c1 + 5 * 5 * c3 * 9 * c2 + 25 * c3 * h + h * outputs


def macs_of(p):
    m = macs_for(widths_of(p), p["fc2.bias"].shape[0])
    if "nad1.weight" in p:
        h = p["nad1.weight"].shape[1]
        return m + 800 * h + h
    return m


def with_not_a_digit_head(p, hidden: int, rng: np.random.Generator):
    """A 10-output network with the "not a digit" head added (He-initialised, its
    output bias low so that until trained it wins nowhere); the digit layers unchanged."""
    q = dict(p)
    q["nad1.weight"] = (rng.normal(0, 1, (800, hidden)) * np.sqrt(2.0 / 800)).astype(np.float32)
    q["nad1.bias"] = np.zeros(hidden, np.float32)
    q["nad2.weight"] = (rng.normal(0, 1, (hidden, 1)) * np.sqrt(1.0 / hidden)).astype(np.float32)
    q["nad2.bias"] = np.array([-4.0], np.float32)
    return q


def lower_not_a_digit(p, offset: float):
    """Lowers the "not a digit" logit by `offset` (its bias, in place in a copy of the array)."""
    key, i = ("nad2.bias", 0) if "nad2.bias" in p else ("fc2.bias", NOT_A_DIGIT)
    p[key] = p[key].copy()
    p[key][i] -= np.float32(offset)


def with_not_a_digit(p):
    """A 10-output network widened with the "not a digit" lane: its weights are
    minus the mean of the digit lanes' (a drawing no digit lane likes scores
    high on it) and its bias the lowest digit bias less 2, so that until trained
    it wins only where no digit is wanted; the digit lanes are unchanged."""
    w, b = p["fc2.weight"], p["fc2.bias"]
    q = dict(p)
    q["fc2.weight"] = np.concatenate([w, -w.mean(1, keepdims=True)], 1).astype(np.float32)
    q["fc2.bias"] = np.concatenate([b, [b.min() - 2.0]]).astype(np.float32)
    return q
MACS = macs_for()
PARAMS = sum(int(np.prod(s)) for s in SHAPES.values())


def init(rng: np.random.Generator, widths=WIDTHS):
    p = {}
    for k, s in shapes_for(widths).items():
        if k.endswith("bias"):
            p[k] = np.zeros(s, np.float32)
        else:
            fan_in = int(np.prod(s[:-1]))
            p[k] = (rng.normal(0, 1, s) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    return p


def jax_forward(p, x, dropout_key=None, rate=0.2):
    import jax
    import jax.numpy as jnp
    from jax import lax
    dn = ("NHWC", "HWIO", "NHWC")
    h = x[..., None]

    def conv(h, w, b, pad):
        return lax.conv_general_dilated(h, w, (1, 1), pad, dimension_numbers=dn,
                                        precision=lax.Precision.HIGHEST) + b

    def pool(h):
        return lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    h = pool(jax.nn.relu(conv(h, p["conv1.weight"], p["conv1.bias"], "SAME")))
    h = pool(jax.nn.relu(conv(h, p["conv2.weight"], p["conv2.bias"], "SAME")))
    h = jax.nn.relu(conv(h, p["conv3.weight"], p["conv3.bias"], "VALID"))
    h = h.reshape(h.shape[0], -1)
    feat = h
    if dropout_key is not None:
        k1, k2 = jax.random.split(dropout_key)
        h = h * jax.random.bernoulli(k1, 1 - rate, h.shape) / (1 - rate)
    h = jax.nn.relu(jnp.dot(h, p["fc1.weight"], precision=lax.Precision.HIGHEST) + p["fc1.bias"])
    if dropout_key is not None:
        h = h * jax.random.bernoulli(k2, 1 - rate, h.shape) / (1 - rate)
    logits = jnp.dot(h, p["fc2.weight"], precision=lax.Precision.HIGHEST) + p["fc2.bias"]
    if "nad1.weight" in p:
        g = jax.nn.relu(jnp.dot(feat, p["nad1.weight"], precision=lax.Precision.HIGHEST) + p["nad1.bias"])
        logits = jnp.concatenate([logits, jnp.dot(g, p["nad2.weight"], precision=lax.Precision.HIGHEST)
                                  + p["nad2.bias"]], axis=1)
    return logits


def np_conv(h, w, b, pad):
    """3x3 convolution, float64, (H, W, C) -> (H', W', C'); `pad` keeps the size."""
    if pad:
        h = np.pad(h, ((1, 1), (1, 1), (0, 0)))
    oh, ow = h.shape[0] - 2, h.shape[1] - 2
    out = np.zeros((oh, ow, w.shape[3])) + b
    for ky in range(3):
        for kx in range(3):
            out += h[ky:ky + oh, kx:kx + ow, :] @ w[ky, kx]
    return out


def np_pool(h):
    """2x2 max pooling (floor), (H, W, C) -> (H // 2, W // 2, C)."""
    H, W, C = h.shape
    return h[:H // 2 * 2, :W // 2 * 2].reshape(H // 2, 2, W // 2, 2, C).max(axis=(1, 3))


def np_forward(p, x):
    """float64 reference forward for one image (28, 28) -> logits (10,) or (11,)."""
    conv, pool = np_conv, np_pool
    q = {k: v.astype(np.float64) for k, v in p.items()}
    h = x.astype(np.float64)[:, :, None]
    h = pool(np.maximum(conv(h, q["conv1.weight"], q["conv1.bias"], True), 0))
    h = pool(np.maximum(conv(h, q["conv2.weight"], q["conv2.bias"], True), 0))
    feat = np.maximum(conv(h, q["conv3.weight"], q["conv3.bias"], False), 0).reshape(-1)
    h = np.maximum(feat @ q["fc1.weight"] + q["fc1.bias"], 0)
    logits = h @ q["fc2.weight"] + q["fc2.bias"]
    if "nad1.weight" in q:
        g = np.maximum(feat @ q["nad1.weight"] + q["nad1.bias"], 0)
        logits = np.concatenate([logits, g @ q["nad2.weight"] + q["nad2.bias"]])
    return logits
