"""Fraction of non-zero inputs per layer of the shipped model (why the Swift code skips zeros).

usage: .venv/bin/python sparsity.py
"""
import numpy as np

import data
import export
import model


def fractions(p, x):
    q = {k: v.astype(np.float64) for k, v in p.items()}

    conv, pool = model.np_conv, model.np_pool

    h = x[:, :, None].astype(np.float64)
    r = [(h != 0).mean()]
    h = pool(np.maximum(conv(h, q["conv1.weight"], q["conv1.bias"], True), 0)); r.append((h != 0).mean())
    h = pool(np.maximum(conv(h, q["conv2.weight"], q["conv2.bias"], True), 0)); r.append((h != 0).mean())
    h = np.maximum(conv(h, q["conv3.weight"], q["conv3.bias"], False), 0).reshape(-1); r.append((h != 0).mean())
    h = np.maximum(h @ q["fc1.weight"] + q["fc1.bias"], 0); r.append((h != 0).mean())
    return r


if __name__ == "__main__":
    p = export.load_weights()
    xt, _, _ = data.synthetic_test()
    f = np.mean([fractions(p, x) for x in xt[:500]], axis=0)
    dense = [28 * 28 * 8 * 9, 14 * 14 * 16 * 72, 5 * 5 * 32 * 144, 800 * 64, 64 * 10]
    names = ["conv1 (input image)", "conv2 (pooled conv1)", "conv3 (pooled conv2)", "fc1 (conv3)", "fc2 (fc1)"]
    for n, v, d in zip(names, f, dense):
        print(f"{n:22s} non-zero inputs {100 * v:5.1f}%  multiply-adds {d:7d} dense, ~{v * d:7.0f} done")
    print(f"total: {sum(dense)} dense, ~{sum(v * d for v, d in zip(f, dense)):.0f} done "
          f"(500 synthetic stroke test drawings)")
