"""The "templates" source of writers (writers_templates.py): the interface every source
keeps, and the properties its drawings must have.

    .venv/bin/python test_writers_templates.py
"""
from __future__ import annotations

import math
import unittest

import numpy as np

import writers_templates as wt


def pieces_apart(strokes, a, b):
    """The smallest distance between the points of strokes a and b (pixels)."""
    pa = np.array(strokes[a])[:, :2]
    pb = np.array(strokes[b])[:, :2]
    return float(np.sqrt(((pa[:, None, :] - pb[None, :, :]) ** 2).sum(-1)).min())


class Interface(unittest.TestCase):
    def test_names(self):
        self.assertEqual(wt.SOURCE, "templates")
        self.assertEqual(len(wt.STYLES), len(set(wt.STYLES)))
        for s in wt.STYLES:
            base, hand = s.split("/")
            self.assertIn(hand, wt.HANDS)
            self.assertIn(base, wt.SPECS)
            self.assertEqual(int(base[0]), int(base.split("-")[0]))
        for d in range(10):
            self.assertGreaterEqual(len(wt.BASE_STYLES[d]), 3, d)
        # the styles the brief names
        for s in ["1-longflag", "1-flag", "1-foot", "1-flagfoot", "1-slant", "7-crossed", "7-shortbar", "7-hook",
                  "4-closed", "4-crossed", "4-apart", "6-round", "6-bigloop", "6-apart", "9-stick", "9-g",
                  "9-apart", "0-slashed", "0-dotted", "0-apart", "2-loop", "2-z", "3-flat", "5-two", "5-apart",
                  "8-circles", "8-cross", "8-apart"]:
            self.assertIn(s, wt.SPECS)

    def test_make_set_is_deterministic(self):
        a = wt.make_set(4, 2, 11)
        b = wt.make_set(4, 2, 11)
        self.assertEqual(a, b)
        c = wt.make_set(4, 2, 12)
        self.assertNotEqual([x[3] for x in a], [x[3] for x in c])
        self.assertEqual(len(a), 4 * 2 * 10)
        self.assertEqual(sorted({x[0] for x in a}), list(range(10)))

    def test_make_set_labels_match_the_writers(self):
        items = wt.make_set(6, 3, 3)
        by_writer = {}
        for digit, style, wid, _ in items:
            by_writer.setdefault((wid, digit), set()).add(style)
        for (wid, digit), styles in by_writer.items():
            self.assertEqual(len(styles), 1, (wid, digit, styles))  # one style per digit per writer
            style = next(iter(styles))
            self.assertTrue(style.startswith(f"{digit}-"), style)
            self.assertIn(style, wt.STYLES)
            self.assertIn(style.split("/")[1], wid)  # the hand kind is in the writer's id too

    def test_a_writer_is_fixed(self):
        for seed in range(30):
            w1, w2 = wt.make_writer(seed), wt.make_writer(seed)
            self.assertEqual(w1.id, w2.id)
            for d in range(10):
                self.assertEqual(w1.style(d), w2.style(d))
                self.assertEqual(w1.style(d), w1.style(d))
            # drawing does not change the writer's choices
            rng = np.random.default_rng(seed)
            before = [w1.style(d) for d in range(10)]
            for d in range(10):
                w1.draw(d, rng)
            self.assertEqual(before, [w1.style(d) for d in range(10)])
            self.assertEqual(w1.draw(4, np.random.default_rng(7)), w2.draw(4, np.random.default_rng(7)))

    def test_every_style_is_chosen_by_some_writer(self):
        seen = set()
        for seed in range(4000):
            w = wt.make_writer(seed)
            seen.update(w.style(d) for d in range(10))
        self.assertEqual(sorted(set(wt.STYLES) - seen), [])

    def test_frequencies(self):
        for d in range(10):
            for school in wt.SCHOOLS:
                for hand in wt.HANDS:
                    p = wt.style_weights(d, school, hand)
                    self.assertAlmostEqual(float(p.sum()), 1.0)
                    self.assertTrue((p > 0).all())
        # continental writers flag their 1s long and cross their 7s; US writers mostly do not
        p1 = dict(zip(wt.BASE_STYLES[1], wt.style_weights(1, "de", "adult")))
        p7 = dict(zip(wt.BASE_STYLES[7], wt.style_weights(7, "de", "adult")))
        self.assertGreater(p1["1-longflag"], 0.4)
        self.assertGreater(p7["7-crossed"], 0.4)
        self.assertLess(dict(zip(wt.BASE_STYLES[1], wt.style_weights(1, "us", "adult")))["1-longflag"], 0.1)


class Drawings(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # every style, both hands, three writers each
        cls.items = []
        for hand in wt.HANDS:
            for d in range(10):
                for base in wt.BASE_STYLES[d]:
                    found, seed = 0, 90_000 + 1000 * d
                    while found < 3:
                        seed += 1
                        w = wt.make_writer(seed)
                        if w.hand != hand:
                            continue
                        w.with_style(d, base)
                        cls.items.append((d, w.style(d), w, w.draw(d, np.random.default_rng(seed))))
                        found += 1
        cls.items += [(d, s, None, st) for d, s, _, st in wt.make_set(20, 2, 5)]

    def test_every_style_draws(self):
        self.assertEqual({s for _, s, _, _ in self.items} >= set(wt.STYLES), True)

    def test_strokes_are_well_formed(self):
        for d, style, _, strokes in self.items:
            self.assertIsInstance(strokes, list)
            self.assertGreaterEqual(len(strokes), 1, style)
            last_t = -math.inf
            for s in strokes:
                self.assertIsInstance(s, list)
                self.assertGreaterEqual(len(s), 1, style)
                for p in s:
                    self.assertEqual(len(p), 3)
                    self.assertTrue(all(isinstance(v, float) and math.isfinite(v) for v in p), (style, p))
                ts = [p[2] for p in s]
                self.assertGreater(ts[0], last_t, style)  # strokes follow each other in time
                self.assertTrue(all(b > a for a, b in zip(ts, ts[1:])), style)  # strictly increasing
                last_t = ts[-1]

    def test_points_on_the_pad(self):
        for d, style, _, strokes in self.items:
            a = np.concatenate([np.array(s) for s in strokes])
            self.assertGreaterEqual(a[:, 0].min(), -10.0, style)
            self.assertGreaterEqual(a[:, 1].min(), -10.0, style)
            self.assertLessEqual(a[:, 0].max(), wt.PAD + 10.0, style)
            self.assertLessEqual(a[:, 1].max(), wt.PAD + 10.0, style)
            size = (a[:, :2].max(0) - a[:, :2].min(0)).max()
            self.assertGreater(size, 60.0, style)  # a digit, not a speck
            # timing like a hand: a digit takes between 0.1 s and 20 s
            self.assertGreater(a[-1, 2] - a[0, 2], 100.0, style)
            self.assertLess(a[-1, 2] - a[0, 2], 20_000.0, style)

    def test_devices(self):
        for d, style, w, strokes in self.items:
            if w is None:
                continue
            a = np.concatenate([np.array(s) for s in strokes])
            if w.device == "mouse":
                self.assertTrue(np.all(a[:, :2] == np.round(a[:, :2])), style)
            elif w.device == "finger":
                q = a[:, :2] * w.dpr
                self.assertTrue(np.allclose(q, np.round(q), atol=1e-6), style)
            if w.device == "pen":  # a pen reports a point every few pixels
                for s in strokes:
                    if len(s) > 3:
                        step = np.median(np.hypot(*np.diff(np.array(s)[:, :2], axis=0).T))
                        self.assertLess(step, 12.0, style)

    def test_young_hands_are_slow_and_dense(self):
        pts = {h: [] for h in wt.HANDS}
        dur = {h: [] for h in wt.HANDS}
        for d, style, _, strokes in self.items:
            hand = style.split("/")[1]
            pts[hand].append(sum(len(s) for s in strokes))
            dur[hand].append(strokes[-1][-1][2] - strokes[0][0][2])
        self.assertGreater(np.median(dur["young"]), 1.8 * np.median(dur["adult"]))
        self.assertGreater(np.median(pts["young"]), np.median(pts["adult"]))

    def test_digits_that_fall_apart_have_a_gap(self):
        n = gaps = 0
        for d, style, w, strokes in self.items:
            if "-apart/" not in style or w is None:
                continue
            # the two pieces of the template are its first two strokes (before a writer's
            # reordering or a young writer's fix-up stroke); find them by the writer's order
            k = len(wt.SPECS[style.split("/")[0]].fn(w.base[d]))
            self.assertEqual(k, 2, style)
            n += 1
            gaps += pieces_apart(strokes, 0, 1) > 1.0
        self.assertGreater(n, 20)
        self.assertGreaterEqual(gaps / n, 0.85)


class LegibilityRules(unittest.TestCase):
    def test_a_seven_is_no_one(self):
        # a 1 whose flag falls 30 degrees: a 1; the same with a flat "flag" and a leaning stem: a 7
        one = {"flag": (100.0, 130.0), "top": (200.0, 70.0), "foot": (200.0, 330.0), "_height": 260.0}
        self.assertTrue(wt._one_check(one))
        flat = dict(one, flag=(100.0, 80.0), foot=(140.0, 330.0))
        self.assertFalse(wt._one_check(flat))
        seven = {"left": (100.0, 72.0), "corner": (220.0, 70.0), "foot": (140.0, 330.0), "_height": 260.0}
        self.assertTrue(wt._seven_check(seven))
        upright = dict(seven, foot=(215.0, 330.0))  # a stem straight down: reads as a 1
        self.assertFalse(wt._seven_check(upright))
        hanging = dict(seven, left=(140.0, 140.0))  # a bar that falls like a 1's flag
        self.assertFalse(wt._seven_check(hanging))

    def test_drawn_ones_and_sevens_keep_their_rules(self):
        calls = []
        for name in ["1-longflag", "7-shortbar"]:
            spec = wt.SPECS[name]
            orig = spec.check

            def spy(m, orig=orig, name=name):
                ok = orig(m)
                calls.append((name, ok))
                return ok
            spec.check = spy
            try:
                for seed in range(60):
                    w = wt.make_writer(seed)
                    d = int(name[0])
                    w.with_style(d, name)
                    calls.clear()
                    w.draw(d, np.random.default_rng(seed))
                    self.assertTrue(calls and calls[-1][1], (name, seed, calls))  # the kept try passes
            finally:
                spec.check = orig


if __name__ == "__main__":
    unittest.main()
