"""The legibility rules on the stroke as drawn (legibility.check_drawn) and how
strokes.draw applies them ("A fifth pass" in docs/recognition.md).

    .venv/bin/python test_legibility.py
"""
from __future__ import annotations

import math
import unittest

import numpy as np

import legibility
import strokes


def one(flag_len: float, droop: float, stem=((0.0, 0.0), (0.0, 200.0))):
    """A one-stroke 1 as drawn, y down: a flag of flag_len (per stem length) ending at
    the stem's top, drooping `droop` degrees below the horizontal, then the stem."""
    (x0, y0), (x1, y1) = stem
    n = flag_len * math.hypot(x1 - x0, y1 - y0)
    start = (x0 - n * math.cos(math.radians(droop)), y0 + n * math.sin(math.radians(droop)))
    pts = [start] + [(x0 + (x1 - x0) * u, y0 + (y1 - y0) * u) for u in np.linspace(0, 1, 12)]
    return [[[100 + x, 100 + y, 10.0 * i] for i, (x, y) in enumerate(pts)]]


class CheckDrawn(unittest.TestCase):
    def test_a_flat_flag_is_a_sevens_bar(self):
        for droop in (-10.0, 0.0, 10.0, 19.0):
            self.assertEqual(legibility.check_drawn(1, "flag", one(0.4, droop)), "1 as drawn: flag flat like a 7's bar",
                             droop)

    def test_a_drooping_flag_keeps_its_1(self):
        for style in ("shortflag", "flag", "longflag", "curved"):
            self.assertIsNone(legibility.check_drawn(1, style, one(0.4, 35.0)), style)
        self.assertIsNone(legibility.check_drawn(1, "flag", one(0.4, 21.0)))

    def test_a_tick_or_a_rising_hook_is_no_bar(self):
        self.assertIsNone(legibility.check_drawn(1, "shortflag", one(0.15, 0.0)))  # shorter than ONE_TINY_RATIO
        self.assertIsNone(legibility.check_drawn(1, "flag", one(0.4, -40.0)))     # rises: not a 7's bar

    def test_the_slant_is_taken_out(self):
        # 22 deg as drawn: a 1 on an upright stem; on a stem leaning back (its foot to the
        # right) the same flag, sheared with the stem upright, droops 18.6 deg: a bar
        self.assertIsNone(legibility.check_drawn(1, "flag", one(0.4, 22.0)))
        self.assertIsNotNone(legibility.check_drawn(1, "flag", one(0.4, 22.0, stem=((0.0, 0.0), (100.0, 200.0)))))

    def test_other_digits_and_styles_are_not_judged(self):
        flat = one(0.4, 0.0)
        for digit, style in ((7, "plain"), (7, "curved"), (1, "flagfoot"), (1, "foot"), (1, "stick")):
            self.assertIsNone(legibility.check_drawn(digit, style, flat), (digit, style))


class Continental(unittest.TestCase):
    """The continental 1 (a long flag, 20-40 deg below the horizontal) is told from a
    7 by its upright stem; a 7 drooping so must lean (issue 43)."""

    def test_a_long_shallow_flag_on_an_upright_stem_is_a_1(self):
        for droop in (20.0, 30.0, 40.0):
            for length in (0.35, 0.5, 0.7):
                self.assertIsNone(legibility.check_drawn(1, "continental", one(length, droop)), (length, droop))

    def test_on_a_leaning_stem_it_is_a_7(self):
        leaning = ((0.0, 0.0), (-60.0, 200.0))  # 16.7 deg
        self.assertEqual(legibility.check_drawn(1, "continental", one(0.5, 30.0, stem=leaning)),
                         "continental 1: stem leans like a 7's")

    def test_too_flat_or_too_short_a_flag_is_no_continental_1(self):
        self.assertIsNotNone(legibility.check_drawn(1, "continentalflat", one(0.5, 8.0)))
        self.assertIsNotNone(legibility.check_drawn(1, "continental", one(0.15, 30.0)))

    def test_a_seven_drooping_on_an_upright_stem_is_no_7(self):
        self.assertEqual(legibility.check_drawn(7, "plain", one(0.6, 20.0)),
                         "7: drooping bar on an upright stem, like a continental 1")
        self.assertIsNone(legibility.check_drawn(7, "plain", one(0.6, 20.0, stem=((0.0, 0.0), (-80.0, 200.0)))))
        self.assertIsNone(legibility.check_drawn(7, "plain", one(0.6, 5.0)))

    def test_drawn_continental_ones_and_sevens_keep_the_rules(self):
        rng = np.random.default_rng(17)
        pool = [(d, n, s) for (d, n, s) in strokes.styles(False)
                if (d, n) in legibility.CONTINENTAL_STYLES | {(7, "plain"), (7, "curved")}]
        for i in range(300):
            d, n, st = pool[i % len(pool)]
            drawn = strokes.draw(st, strokes.Writer.sample(rng), rng)
            self.assertIsNone(legibility.check_drawn(d, n, drawn), (d, n, i))


class Draw(unittest.TestCase):
    FLAGGED = [(n, s) for (d, n, _, s) in strokes.STYLES if (d, n) in legibility.FLAG_STYLES]

    def draw_ones(self, seed: int, count: int = 400):
        rng = np.random.default_rng(seed)
        out = []
        for i in range(count):
            w = strokes.Writer.sample(rng)
            name, st = self.FLAGGED[i % len(self.FLAGGED)]
            out.append((name, strokes.draw(st, w, rng)))
        return out

    def test_no_flagged_1_is_drawn_with_a_bar(self):
        ones = self.draw_ones(11)
        self.assertEqual([n for n, s in ones if legibility.check_drawn(1, n, s)], [])

    def test_without_the_drawn_check_some_would_be(self):
        strokes.DRAWN_CHECK = False
        try:
            ones = self.draw_ones(11)
        finally:
            strokes.DRAWN_CHECK = True
        self.assertGreater(sum(legibility.check_drawn(1, n, s) is not None for n, s in ones), 0)

    def test_redraws_are_recorded_and_deterministic(self):
        strokes.REJECTED = []
        try:
            a = self.draw_ones(11)
            rejected = strokes.REJECTED
        finally:
            strokes.REJECTED = None
        self.assertEqual(a, self.draw_ones(11))
        drawn = [r for r in rejected if r[2] == "1 as drawn: flag flat like a 7's bar"]
        self.assertGreater(len(drawn), 0)
        self.assertTrue(all(legibility.check_drawn(d, n, s) for (d, n, _, s) in drawn))


if __name__ == "__main__":
    unittest.main()
