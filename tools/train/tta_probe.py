"""Tried, not kept (docs/recognition.md): reading each single digit of a
held-out source several times, its strokes slightly turned, sheared or
stretched, and averaging the network's logits (test-time augmentation),
on the leave-one-source-out weights (loso.py --train). Usage:
.venv/bin/python tta_probe.py fonts,mnist,real,templates,synth"""
import sys, numpy as np
sys.path.insert(0, ".")
import loso, sources, data, export, quick_eval, raster
def transform(strokes, a, sh, sx):
    c, s = np.cos(a), np.sin(a)
    out = []
    for st in strokes:
        p = np.asarray(st, np.float64)
        if p.ndim != 2 or len(p) == 0: out.append(st); continue
        x, y = p[:, 0], p[:, 1]
        x2 = sx * (c * x - s * y) + sh * y
        y2 = s * x + c * y
        q = p.copy(); q[:, 0] = x2; q[:, 1] = y2
        out.append(q)
    return out
VARS = [(0,0,1), (0.12,0,1), (-0.12,0,1), (0,0.15,1), (0,-0.15,1), (0,0,0.85), (0,0,1.15)]
for fold in sys.argv[1].split(","):
    p = quick_eval.load(loso.weights_path(fold))
    rows = sources.drawings(fold, "test")
    y = np.array([r[0] for r in rows])
    strokes = loso._as_read(rows)
    L = []
    for v in VARS:
        x = data.render([transform(s, *v) for s in strokes])
        L.append(export.logits_of(p, x)[:, :10])
    L = np.array(L)
    base = (L[0].argmax(1) == y).mean()
    mean_logit = (L.mean(0).argmax(1) == y).mean()
    def sm(z): e = np.exp(z - z.max(1, keepdims=True)); return e / e.sum(1, keepdims=True)
    mean_prob = (np.mean([sm(l) for l in L], 0).argmax(1) == y).mean()
    sub = (L[[0,1,2,3,4]].mean(0).argmax(1) == y).mean()
    print(f"{fold}: base {100*base:.2f}  tta7 logit {100*mean_logit:.2f}  prob {100*mean_prob:.2f}  tta5 {100*sub:.2f}", flush=True)
