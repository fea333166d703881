"""Unit tests of the "fonts" writer source (writers_fonts.py): the Hershey parser, the
skeleton tracer on drawn shapes, the person's stroke order, and the source interface
(determinism, every digit and style, well-formed strokes in the canvas, fixed hands)."""
from __future__ import annotations

import math
import os
import unittest

import numpy as np

import writers_fonts as wf

HERE = os.path.dirname(os.path.abspath(__file__))


def disc(shape, centre, radius):
    r, c = np.mgrid[:shape[0], :shape[1]]
    return (r - centre[0]) ** 2 + (c - centre[1]) ** 2 <= radius ** 2


def trace(mask):
    sk = wf._zhang_suen(mask)
    sk = wf._prune(sk, 8)
    nodes, edges = wf._graph(sk)
    return wf._trails(nodes, edges, reach=6)


class Tracing(unittest.TestCase):
    def test_ring_is_one_closed_stroke(self):
        m = disc((80, 80), (40, 40), 30) & ~disc((80, 80), (40, 40), 22)
        t = trace(m)
        self.assertEqual(len(t), 1)
        self.assertLess(np.linalg.norm(t[0][0] - t[0][-1]), 2.5)
        radii = np.linalg.norm(t[0] - 40, axis=1)
        self.assertTrue(np.all(np.abs(radii - 26) < 2.5), radii)

    def test_cross_continues_straight_through_the_junction(self):
        m = np.zeros((90, 90), bool)
        m[40:50, 5:85] = True
        m[5:85, 40:50] = True
        t = trace(m)
        self.assertEqual(len(t), 2)
        for s in t:
            ext = np.ptp(s, 0)
            self.assertGreater(ext.max(), 65)  # each arm pair is one long stroke
            self.assertLess(ext.min(), 4)  # straight

    def test_short_spurs_of_a_thick_corner_are_pruned(self):
        m = np.zeros((90, 90), bool)
        m[10:22, 10:80] = True  # a thick L: its corner leaves a short spur
        m[10:80, 10:22] = True
        t = trace(m)
        self.assertEqual(len(t), 1)

    def test_a_lost_dot_comes_back(self):
        m = disc((60, 60), (30, 30), 4)
        m[2:12, 5:55] = True
        sk = wf._lost_dots(m, wf._zhang_suen(m))
        self.assertTrue(sk[24:37, 24:37].any())

    def test_small_holes_are_filled_and_counters_kept(self):
        m = disc((80, 80), (40, 40), 30) & ~disc((80, 80), (40, 40), 15)
        m[16, 40] = False  # a speck of texture in the ink
        f = wf._fill_small_holes(m, 20)
        self.assertTrue(f[16, 40])
        self.assertFalse(f[40, 40])


class PersonOrder(unittest.TestCase):
    def test_closed_loop_starts_on_top_and_goes_left(self):
        a = np.linspace(0, 2 * math.pi, 60)
        loop = np.stack([0.3 * np.cos(a), 0.5 + 0.5 * np.sin(a)], 1)  # clockwise on screen, from the right
        (s,) = wf.person_order([loop])
        self.assertAlmostEqual(float(s[0, 1]), float(loop[:, 1].min()), places=2)
        self.assertLess(s[3, 0], s[0, 0])

    def test_open_stroke_from_its_top_and_short_bar_last(self):
        body = np.array([[0.1, 1.0], [0.5, 0.5], [0.0, 0.0]])  # bottom to top
        bar = np.array([[0.5, 0.0], [0.1, 0.02]])  # right to left
        out = wf.person_order([bar, body])
        self.assertEqual(len(out[0]), 3)
        self.assertAlmostEqual(float(out[0][0, 1]), 0.0)
        self.assertLess(out[1][0, 0], out[1][-1, 0])

    def test_cusp_lift(self):
        v = np.array([[0.0, 1.0], [0.1, 0.0], [0.2, 1.0]])  # a sharp turn
        self.assertEqual(len(wf._split_cusps([v], 140)), 2)
        self.assertEqual(len(wf._split_cusps([v], 181)), 1)


class Hershey(unittest.TestCase):
    def test_parse_simplex(self):
        g = wf.parse_jhf(os.path.join(wf.HERSHEY_DIR, "rowmans.jhf"))
        self.assertEqual(len(g), 96)  # ASCII 32..127
        self.assertEqual(len(g[ord("1") - 32]), 1)
        self.assertEqual(len(g[ord("4") - 32]), 2)
        self.assertEqual(g[0], [])  # the space


class Source(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.n = len(wf.STYLES)
        cls.set_a = wf.make_set(cls.n, 1, 11)

    def test_interface(self):
        self.assertEqual(wf.SOURCE, "fonts")
        self.assertEqual(len(set(wf.STYLES)), len(wf.STYLES))
        self.assertGreaterEqual(len(wf.STYLES), 30)

    def test_deterministic_for_a_seed(self):
        self.assertEqual(self.set_a, wf.make_set(self.n, 1, 11))
        other = wf.make_set(3, 1, 12)
        self.assertNotEqual([r[3] for r in self.set_a[:30]], [r[3] for r in other])

    def test_every_digit_and_style(self):
        self.assertEqual(len(self.set_a), 10 * self.n)
        self.assertEqual({r[0] for r in self.set_a}, set(range(10)))
        self.assertEqual({r[1] for r in self.set_a}, set(wf.STYLES))
        for d in range(10):
            styles = {r[1] for r in self.set_a if r[0] == d}
            self.assertGreaterEqual(len(styles), self.n - len(wf.FALLBACK))

    def test_strokes_well_formed_and_in_the_canvas(self):
        for d, style, wid, strokes in self.set_a:
            self.assertIsInstance(strokes, list)
            self.assertGreaterEqual(len(strokes), 1)
            last_t = -1.0
            allp = []
            for s in strokes:
                self.assertGreaterEqual(len(s), 1)
                for p in s:
                    self.assertEqual(len(p), 3)
                    self.assertTrue(all(isinstance(v, float) and math.isfinite(v) for v in p))
                    self.assertGreater(p[2], last_t, (style, d))  # time runs on, across strokes too
                    last_t = p[2]
                    allp.append(p)
            a = np.array(allp)
            self.assertTrue(np.all((a[:, :2] >= 0) & (a[:, :2] <= wf.CANVAS)), (style, d))
            h = np.ptp(a[:, 1])
            self.assertGreater(h, 60, (style, d))  # a digit, not a speck
            self.assertLess(len(a), 10_000)

    def test_a_writers_hand_is_fixed(self):
        by_writer: dict = {}
        for d, style, wid, _ in self.set_a:
            by_writer.setdefault(wid, set()).add(style)
        self.assertEqual(len(by_writer), self.n)
        for wid, styles in by_writer.items():
            self.assertLessEqual(len(styles), 2)  # one face (a fallback glyph at most)
        w = wf.make_writer(123)
        rng = np.random.default_rng(0)
        for d in range(10):
            s0 = w.style(d)
            w.draw(d, rng)
            self.assertEqual(w.style(d), s0)
            self.assertEqual(wf.make_writer(123).style(d), s0)
        self.assertEqual(w.id, wf.make_writer(123).id)
        self.assertEqual(wf.make_writer(5).face, wf.STYLES[5 % len(wf.STYLES)])

    def test_same_hand_varies_little_other_hands_more(self):
        def aspect(strokes):
            a = np.vstack([np.array(s)[:, :2] for s in strokes])
            return np.ptp(a[:, 0]) / max(np.ptp(a[:, 1]), 1e-9)
        n = len(wf.STYLES)
        rng = np.random.default_rng(3)
        own = wf.make_writer(7 * n)
        within = np.std([aspect(own.draw(0, rng)) for _ in range(8)])
        between = np.std([aspect(wf.make_writer(7 * n + k * n).draw(0, rng)) for k in range(8)])
        self.assertLess(within, 0.12)
        self.assertLess(within, between)

    def test_devices_sample_like_their_pointer(self):
        seen = set()
        for seed in range(200, 260):
            w = wf.make_writer(seed)
            strokes = w.draw(3, np.random.default_rng(seed))
            pts = np.vstack([np.array(s) for s in strokes if len(s) > 1])
            steps = np.concatenate([np.linalg.norm(np.diff(np.array(s)[:, :2], axis=0), axis=1)
                                    for s in strokes if len(s) > 1])
            seen.add(w.device)
            if w.device == "mouse":
                self.assertTrue(np.all(pts[:, :2] == np.round(pts[:, :2])))
                self.assertGreater(np.median(steps), 2.0)
            elif w.device == "pen":
                self.assertLess(np.median(steps), 4.5)
            else:
                self.assertLess(np.median(steps), 12.0)
        self.assertEqual(seen, set(wf.DEVICES))

    def test_raster_accepts_them(self):
        import raster
        for _, style, _, strokes in self.set_a[:40]:
            img = raster.rasterize(strokes)
            self.assertEqual(img.shape, (28, 28))
            self.assertGreater(img.sum(), 40, style)


class NonDigits(unittest.TestCase):
    def test_letters_and_signs(self):
        rows = wf.make_nondigits(6, 2, 5)
        self.assertEqual(rows, wf.make_nondigits(6, 2, 5))
        self.assertEqual({r[0] for r in rows}, set(wf.NONDIGIT_KINDS))
        allowed = set(wf.NONDIGIT_LETTERS + wf.NONDIGIT_SIGNS)
        for kind, name, wid, strokes in rows:
            self.assertIn(name, allowed)
            self.assertIn(name, wf.NONDIGIT_LETTERS if kind == "letter" else wf.NONDIGIT_SIGNS)
            self.assertTrue(wid.startswith("fonts:"))
            self.assertGreaterEqual(len(strokes), 1)
        for ch in "OIlSZBGbgqJTCDL0123456789":
            self.assertNotIn(ch, allowed)


class Packaging(unittest.TestCase):
    def test_deps_script_installs_every_font_package(self):
        with open(os.path.join(HERE, "..", "..", "scripts", "deps.sh")) as f:
            text = f.read()
        for pkg in wf.DEBIAN_PACKAGES:
            self.assertIn(pkg, text)


if __name__ == "__main__":
    unittest.main()
