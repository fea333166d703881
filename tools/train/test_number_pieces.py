"""How number_pieces.py labels a candidate digit by whose ink it holds, and the
point owners make_number records for it.

    .venv/bin/python test_number_pieces.py
"""
from __future__ import annotations

import unittest

import numpy as np

import number_pieces as npc
import number_reading as nr

WHOLE = {"shear": 0.0, "lo": -1e30, "hi": 1e30, "piece": -1, "from": 0, "to": 0}


def part(strokes, **kw):
    return {**WHOLE, "strokes": strokes, **kw}


def line(x0, x1, y=0.0, n=11):
    return [[x0 + (x1 - x0) * k / (n - 1), y, 10.0 * k] for k in range(n)]


class InkByOwner(unittest.TestCase):
    # Two digits side by side (x 0..10 and 20..30), and a stroke that runs on
    # from a third digit (x 40..50) over the pen's way (50..60) into a fourth (60..70).
    strokes = [line(0, 10), line(20, 30), line(40, 50, n=6) + line(52, 58, n=3) + line(60, 70, n=6)]
    owners = [[0] * 11, [1] * 11, [2] * 6 + [-1] * 3 + [3] * 6]

    def ink(self, p):
        return {o: round(v, 6) for o, v in npc.ink_by_owner(self.strokes, self.owners, p).items()}

    def test_whole_strokes(self):
        self.assertEqual(self.ink(part(0b01)), {0: 10.0})
        self.assertEqual(self.ink(part(0b11)), {0: 10.0, 1: 10.0})

    def test_a_band_clips_segments_where_it_crosses_them(self):
        self.assertEqual(self.ink(part(0b11, lo=2.5, hi=25.0)), {0: 7.5, 1: 5.0})
        # Slanted: u = x + shear * y; the strokes lie at y = 0, so nothing moves.
        self.assertEqual(self.ink(part(0b01, shear=0.4, lo=-1e30, hi=5.0)), {0: 5.0})

    def test_segments_between_two_owners_are_the_pens_way(self):
        ink = self.ink(part(0b100))
        self.assertEqual(ink[2], 10.0)
        self.assertEqual(ink[3], 10.0)
        # 50 -> 52, 52 .. 58 and 58 -> 60: the link's own points and the jumps to them.
        self.assertEqual(ink[-1], 10.0)

    def test_a_piece_reads_only_its_points(self):
        self.assertEqual(self.ink(part(0b100, piece=2, **{"from": 0, "to": 6})), {2: 10.0})
        self.assertEqual(self.ink(part(0b100, piece=2, **{"from": 9, "to": 15})), {3: 10.0})


class Label(unittest.TestCase):
    totals = {0: 10.0, 1: 10.0}
    digits = "47"

    def test_one_whole_digit_is_that_digit(self):
        self.assertEqual(npc.label({0: 10.0}, self.totals, self.digits), 4)
        self.assertEqual(npc.label({1: 9.5, 0: 0.3}, self.totals, self.digits), 7)

    def test_two_digits_half_a_digit_or_the_pens_way_are_no_digit(self):
        self.assertEqual(npc.label({0: 10.0, 1: 10.0}, self.totals, self.digits), -1)
        self.assertEqual(npc.label({0: 5.0}, self.totals, self.digits), -1)
        self.assertEqual(npc.label({-1: 4.0}, self.totals, self.digits), -1)
        self.assertEqual(npc.label({0: 10.0, -1: 5.0}, self.totals, self.digits), -1)

    def test_in_between_is_left_out(self):
        # 80 % of the ink is the digit's, all of it: neither clearly right nor wrong.
        self.assertIsNone(npc.label({0: 10.0, 1: 2.5}, self.totals, self.digits))
        self.assertIsNone(npc.label({}, self.totals, self.digits))


class PointOwners(unittest.TestCase):
    def test_every_point_has_the_digit_of_its_stroke_and_links_are_minus_one(self):
        rng = np.random.default_rng(7)
        joined = 0
        for k in range(60):
            owners, points = [], []
            label = "".join(str(int(d)) for d in rng.integers(0, 10, 2 + k % 5))
            s = nr.make_number(label, nr.SETS["dev"], rng, "touching", owners=owners, point_owners=points)
            self.assertEqual([len(x) for x in s], [len(x) for x in points])
            for own, po in zip(owners, points):
                self.assertEqual(sorted(set(po) - {-1}), sorted(own))
                if len(own) > 1:
                    joined += 1
                    self.assertIn(-1, po)
                    # The digits follow each other along the stroke: first one, then the next.
                    first = [p for p in po if p >= 0]
                    self.assertEqual(first, sorted(first))
                else:
                    self.assertNotIn(-1, po)
        self.assertGreater(joined, 0)

    def test_the_numbers_drawn_are_the_same_with_or_without_owners(self):
        a = nr.make_number("4096", nr.SETS["dev"], np.random.default_rng(3), "touching")
        b = nr.make_number("4096", nr.SETS["dev"], np.random.default_rng(3), "touching", point_owners=[])
        self.assertEqual(a, b)


if __name__ == "__main__":
    unittest.main()
