"""Geometric rules a synthetic digit must keep to be labelled as that digit.

The synthetic writers (strokes.py) jitter a style's control points and add a
slant, rotation and aspect of their own; sometimes that made a drawing that a
person reads as another digit (a "1" whose flag is as long and flat as a 7's
bar, a "3" whose lower bowl is a straight stroke, an "8" with a loop squashed
flat, a "9" whose loop is open at the top like a 4). Those drawings were label
noise in training and in the held-out sets alike. `check` looks only at the
geometry of the drawing (its placed control points and strokes, y down), never
at what a network reads; `strokes.draw` draws a rejected digit again with new
noise. The device's sampling comes after that check (the wobble, the ends'
overshoot, a mouse's sparse events cutting the corner, a finger's walk) and can
still flatten a 1's flag into a 7's bar, so `check_drawn` judges a 1's flag
again on the stroke as sampled. legibility_sheet.py draws what these rules turn
down.
"""
from __future__ import annotations

import math

import numpy as np

# 1 with a flag / 7: the flag (or bar) seen from the corner at the stem's top,
# against the stem (corner to the stroke's end). A 1's flag is short and hangs
# down along the stem; a 7's bar is long and stands out from it.
# (A 1 with a foot is a 1 whatever its flag: 7s have no foot.)
FLAG_STYLES = {(1, "shortflag"), (1, "flag"), (1, "longflag"), (1, "curved")}
# The continental 1 (issue 43): a long flag (ONE_CONTINENTAL_RATIO of the stem)
# sloping ONE_CONTINENTAL_DROP below the horizontal is a 1's when the stem stands
# upright (within ONE_CONTINENTAL_LEAN degrees); what tells it from a 7 is the
# stem, so a 7 whose bar droops more than SEVEN_UPRIGHT_MAX_DROP must lean at
# least SEVEN_UPRIGHT_LEAN. The same rules on the stroke as sampled (check_drawn).
CONTINENTAL_STYLES = {(1, "continental"), (1, "continentalflat")}
ONE_CONTINENTAL_RATIO = (0.3, 0.8)
ONE_CONTINENTAL_DROP = (18.0, 50.0)
ONE_CONTINENTAL_LEAN = 8.0
SEVEN_UPRIGHT_MAX_DROP = 12.0
SEVEN_UPRIGHT_LEAN = 10.0
# (A crossed 7 is a 7 whatever its bar: 1s are not crossed.)
BAR_STYLES = {(7, "plain"), (7, "curved"), (7, "serif")}
ONE_MAX_RATIO = 0.7         # a flag at most this long (per stem length) ...
ONE_MIN_DROP = 30.0         # ... sloping down-left by at least this (degrees below the horizontal; a 7's bar: -20..20),
                            # also with the slant taken out (a slanted 1's flag hangs along its stem)
ONE_TINY_RATIO = 0.25       # a tick shorter than this may be flatter ...
ONE_TINY_MIN_DROP = 0.0     # ... but not rise
ONE_LONG_RATIO = 0.42       # a flag longer than this ...
ONE_LONG_MIN_DROP = 40.0    # ... slopes down more steeply
SEVEN_MAX_DROP = 25.0       # a 7's bar stays near the horizontal ...
SEVEN_SHORT_RATIO = 0.45    # ... and when shorter than this (per stem) ...
SEVEN_SHORT_MAX_DROP = 15.0  # ... nearer still
SEVEN_MIN_RATIO = 0.3       # and is not a tick
BOWL_MIN_BULGE = 0.1        # a 3's lower bowl: how far right of its chord it reaches, per height
EIGHT_MIN_AREA = 0.04       # each loop of a one-stroke 8: area per height²
NINE_MIN_AREA = 0.06        # a 9's loop: area per height² ...
NINE_MAX_GAP = 0.22         # ... and the gap between where it starts and where it closes, per height

# A 1's flag once more, on the stroke as sampled (`drawn_flag_features`). The limits
# are percentiles of the training set as drawn under the control-point rules alone
# (seed 1, 150 writers: 734 7s `plain`/`curved`; `flag_droop.py --limits`;
# docs/recognition.md "A fifth pass"), never of a held-out set:
DRAWN_SEVEN_BAR_DROOP = (-12.0, 20.0)  # 90 % of the 7s' bars droop within this as drawn (5th, 95th
                              # percentile: -12.1, 19.6): a flag of ONE_TINY_RATIO or more drooping so is
                              # a 7's bar (below it the "flag" rises: a hook, or the corner not found)
# The converse (a 7's bar drooping like a 1's flag as drawn: more than 25 deg, the 5th
# percentile of the 1s' flags, and shorter than 0.65 of the stem) was tried and left
# out: the 7s it turned down are 7s to a person ("A fifth pass").


def _angle(u, v):
    nu, nv = np.linalg.norm(u), np.linalg.norm(v)
    if nu < 1e-9 or nv < 1e-9:
        return 0.0
    return math.degrees(math.acos(float(np.clip(np.dot(u, v) / (nu * nv), -1, 1))))


def flag_features(ctrls, start: int, corner: int):
    """(flag length / stem length, angle flag-stem, degrees the flag drops below the
    horizontal, the same with the writer's slant taken out: sheared so that the
    stem is upright, horizontals kept)."""
    p = ctrls[0]
    f, s = p[start] - p[corner], p[-1] - p[corner]
    ratio = float(np.linalg.norm(f) / max(np.linalg.norm(s), 1e-9))
    drop = math.degrees(math.atan2(f[1], abs(f[0]) + 1e-12))
    lean = s[0] / max(s[1], 1e-9)
    upright = math.degrees(math.atan2(f[1], abs(f[0] - lean * f[1]) + 1e-12))
    return ratio, _angle(f, s), drop, upright


def stem_lean(ctrls, corner: int):
    """Degrees the stem (corner to the stroke's end) leans from the vertical."""
    s = ctrls[0][-1] - ctrls[0][corner]
    return abs(math.degrees(math.atan2(s[0], max(s[1], 1e-9))))


def continental(ratio, drop, lean):
    """None when a continental 1's flag and stem keep to its rules, else the rule broken."""
    if not ONE_CONTINENTAL_RATIO[0] <= ratio <= ONE_CONTINENTAL_RATIO[1]:
        return "continental 1: flag not half the stem"
    if not ONE_CONTINENTAL_DROP[0] <= drop <= ONE_CONTINENTAL_DROP[1]:
        return "continental 1: flag not sloping like a 1's"
    if lean > ONE_CONTINENTAL_LEAN:
        return "continental 1: stem leans like a 7's"
    return None


def upright_seven(drop, lean):
    """None unless a 7's bar droops like a flag on an upright stem."""
    if drop > SEVEN_UPRIGHT_MAX_DROP and lean < SEVEN_UPRIGHT_LEAN:
        return "7: drooping bar on an upright stem, like a continental 1"
    return None


def drawn_flag_features(strokes):
    """flag_features of a one-stroke 1 or 7 *as sampled* ([[x, y, t], ...] canvas
    pixels, y down): start, corner (the point farthest from the start-end chord),
    end. `check` judges the control points; the sampled stroke adds the wobble,
    the end overshoot and the device (a mouse's sparse events cut the corner, a
    finger's walk bends a short flag), so a flag can droop less as drawn."""
    return flag_features(_drawn_corner(strokes), 0, 1)


def drawn_droop(digit: int, strokes):
    """(flag length per stem, droop in degrees) of a one-stroke 1 or 7 as sampled:
    for a 1 the flatter of the drawn drop and the drop with the slant taken out
    (the one that could pass for a 7's bar), for a 7 the steeper (for a 1's flag)."""
    ratio, _, drop, upright = drawn_flag_features(strokes)
    return ratio, (min(drop, upright) if digit == 1 else max(drop, upright))


def _drawn_corner(strokes):
    pts = np.array([q[:2] for q in strokes[0]], float)
    d = pts[-1] - pts[0]
    dist = np.abs(d[0] * (pts[:, 1] - pts[0, 1]) - d[1] * (pts[:, 0] - pts[0, 0])) / (np.linalg.norm(d) + 1e-9)
    return [np.array([pts[0], pts[int(np.argmax(dist))], pts[-1]])]


def check_drawn(digit: int, style: str, strokes):
    """`check` for a 1's flag on the drawing as sampled ([[x, y, t], ...], y down):
    None when it keeps its digit's shape, else the rule it breaks."""
    if (digit, style) in CONTINENTAL_STYLES:
        ratio, _, drop, upright = drawn_flag_features(strokes)
        return continental(ratio, min(drop, upright), stem_lean(_drawn_corner(strokes), 1))
    if (digit, style) in BAR_STYLES and style != "serif":
        _, _, drop, upright = drawn_flag_features(strokes)
        return upright_seven(max(drop, upright), stem_lean(_drawn_corner(strokes), 1))
    if (digit, style) in FLAG_STYLES:
        ratio, droop = drawn_droop(digit, strokes)
        lo, hi = DRAWN_SEVEN_BAR_DROOP
        if ratio >= ONE_TINY_RATIO and lo <= droop < hi:
            return "1 as drawn: flag flat like a 7's bar"
    return None


def _height(shapes):
    allp = np.vstack(shapes)
    return max(float(np.ptp(allp[:, 1])), float(np.ptp(allp[:, 0])) * 0.5, 1e-9)


def _bulge(p, a: int, b: int, h: float):
    """How far right of the chord p[a] → p[b] (drawn downwards) the points between reach, per height."""
    d = p[b] - p[a]
    n = np.linalg.norm(d)
    if n < 1e-9:
        return 0.0
    q = p[a + 1:b] - p[a]
    # right of a downward chord, y down: cross(d, q) < 0 ... use the normal (-d.y, d.x) pointing left; negate
    side = -(d[0] * q[:, 1] - d[1] * q[:, 0]) / n
    return float(side.max() / h) if len(side) else 0.0


def _area(poly):
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def features(digit: int, style: str, ctrls, shapes):
    """The measured quantities the rules look at (for check and for choosing the limits)."""
    h = _height(shapes)
    p = ctrls[0]
    if (digit, style) in FLAG_STYLES | CONTINENTAL_STYLES:
        return dict(zip(("ratio", "angle", "drop", "upright"), flag_features(ctrls, 0, 1)),
                    lean=stem_lean(ctrls, 1))
    if (digit, style) in BAR_STYLES:
        start, corner = (1, 3) if style == "serif" else (0, 1)
        return dict(zip(("ratio", "angle", "drop", "upright"), flag_features(ctrls, start, corner)),
                    lean=stem_lean(ctrls, corner))
    if digit == 3:
        # the cusp (or the middle turn of a round 3) splits the bowls
        mid = {"cusp": 5, "flattop": 5, "round": 3}[style]
        return {"lower": _bulge(p, mid, len(p) - 1, h)}
    if (digit, style) == (8, "sloop"):
        # the stroke crosses itself near control point 4 (going down) and 9 (coming up)
        lower = p[4:10]
        upper = np.vstack([p[9:], p[1:5]])
        return {"upper": _area(upper) / h ** 2, "lower": _area(lower) / h ** 2}
    if digit == 8 and style in ("twocircles", "snowman"):
        return {"upper": _area(ctrls[0]) / h ** 2, "lower": _area(ctrls[1]) / h ** 2}
    if digit == 9 and style != "openloop":
        # the loop: from the first point until the stroke comes back to close it
        end = {"stick": 5, "curvedstem": 5, "hook": 5, "round": 11, "angular": 7}.get(style)
        q = ctrls[0]
        if end is None:  # twostroke: the loop is its own stroke
            end = len(q) - 1
        loop = q[:end + 1]
        return {"area": _area(loop) / h ** 2, "gap": float(np.linalg.norm(q[0] - q[end]) / h)}
    return {}


def check(digit: int, style: str, ctrls, shapes):
    """None when the drawing keeps its digit's shape; else the rule it breaks."""
    f = features(digit, style, ctrls, shapes)
    if (digit, style) in CONTINENTAL_STYLES:
        return continental(f["ratio"], min(f["drop"], f["upright"]), f["lean"])
    if (digit, style) in FLAG_STYLES:
        tiny = f["ratio"] < ONE_TINY_RATIO
        if min(f["drop"], f["upright"]) < (ONE_TINY_MIN_DROP if tiny else ONE_MIN_DROP):
            return "1: flag flat like a 7's bar"
        if f["ratio"] > ONE_MAX_RATIO:
            return "1: flag as long as a 7's bar"
        if f["ratio"] > ONE_LONG_RATIO and min(f["drop"], f["upright"]) < ONE_LONG_MIN_DROP:
            return "1: long flag, not steep"
        return None
    if (digit, style) in BAR_STYLES:
        if max(f["drop"], f["upright"]) > SEVEN_MAX_DROP:
            return "7: bar slopes down like a 1's flag"
        if f["ratio"] < SEVEN_SHORT_RATIO and max(f["drop"], f["upright"]) > SEVEN_SHORT_MAX_DROP:
            return "7: short sloping bar like a 1's flag"
        if f["ratio"] < SEVEN_MIN_RATIO:
            return "7: bar as short as a 1's flag"
        return upright_seven(max(f["drop"], f["upright"]), f["lean"])
    if digit == 3:
        if f["lower"] < BOWL_MIN_BULGE:
            return "3: lower bowl does not bulge right"
        return None
    if (digit, style) in ((8, "sloop"), (8, "twocircles"), (8, "snowman")):
        if min(f["upper"], f["lower"]) < EIGHT_MIN_AREA:
            return "8: a loop squashed flat"
        return None
    if digit == 9 and style != "openloop":
        if f["area"] < NINE_MIN_AREA:
            return "9: loop squashed flat"
        if f["gap"] > NINE_MAX_GAP:
            return "9: loop open like a 4"
        return None
    return None
