"""Stroke shapes for the digits 0-9, as polylines in a unit box (x right, y down).

The server's recognizer normalises a drawing by its bounding box, MNIST style,
so each digit is drawn about 0.6 wide and 1.0 tall, the way a person writes it.
"""
import math


def _arc(cx, cy, rx, ry, a0, a1, n):
    """Points on an ellipse from angle a0 to a1 (degrees, 0 = right, 90 = down)."""
    out = []
    for i in range(n + 1):
        a = math.radians(a0 + (a1 - a0) * i / n)
        out.append((cx + rx * math.cos(a), cy + ry * math.sin(a)))
    return out


def _line(p, q, n=8):
    return [(p[0] + (q[0] - p[0]) * i / n, p[1] + (q[1] - p[1]) * i / n) for i in range(n + 1)]


DIGITS = {
    0: [_arc(0.5, 0.5, 0.3, 0.5, -90, 270, 32)],
    1: [_line((0.45, 0.15), (0.58, 0.0), 3) + _line((0.58, 0.0), (0.55, 1.0), 12)[1:]],
    2: [_arc(0.5, 0.28, 0.3, 0.26, 190, 360, 12) + _line((0.8, 0.3), (0.2, 1.0), 10)[1:]
        + _line((0.2, 1.0), (0.85, 1.0), 8)[1:]],
    3: [_arc(0.48, 0.25, 0.28, 0.25, 200, 450, 14) + _arc(0.48, 0.74, 0.32, 0.26, -90, 160, 14)[1:]],
    4: [_line((0.6, 0.0), (0.1, 0.65), 8) + _line((0.1, 0.65), (0.9, 0.65), 8)[1:],
        _line((0.65, 0.3), (0.65, 1.0), 8)],
    5: [_line((0.85, 0.0), (0.25, 0.0), 6) + _line((0.25, 0.0), (0.2, 0.45), 5)[1:]
        + _arc(0.5, 0.68, 0.33, 0.3, -140, 150, 16)[1:]],
    6: [_arc(0.9, 0.55, 0.7, 0.55, 240, 180, 8) + _arc(0.5, 0.72, 0.3, 0.28, 180, 540, 20)[1:]],
    7: [_line((0.1, 0.0), (0.9, 0.0), 8) + _line((0.9, 0.0), (0.4, 1.0), 10)[1:]],
    8: [_arc(0.5, 0.25, 0.25, 0.24, 90, -270, 20) + _arc(0.5, 0.74, 0.3, 0.25, -90, 270, 20)[1:]],
    9: [_arc(0.45, 0.27, 0.3, 0.26, 0, 360, 20) + _line((0.75, 0.27), (0.72, 1.0), 10)[1:]],
}


# Not a digit: a scratch-out, the pen going back and forth across the pad.
SCRIBBLE = [[pt for i in range(9) for pt in
             (((0.0, i / 9), (0.5, i / 9 + 0.03), (1.0, i / 9 + 0.05)) if i % 2 == 0
              else ((1.0, i / 9), (0.5, i / 9 + 0.03), (0.0, i / 9 + 0.05)))]]


def scaled(shape, width, height, left=0.0, top=0.0):
    """A shape's strokes (unit box) scaled into a box of width x height at (left, top)."""
    return [[(left + x * width, top + y * height) for (x, y) in s] for s in shape]


def strokes(digit, width, height, left=0.0, top=0.0):
    """The strokes of `digit` scaled into a box of width x height at (left, top)."""
    return scaled(DIGITS[digit], width, height, left, top)


if __name__ == "__main__":
    import json
    for d in range(10):
        st = strokes(d, 120, 200, 40, 20)
        print(json.dumps({"width": 200, "height": 240,
                          "strokes": [[[round(x), round(y), i * 10] for i, (x, y) in enumerate(s)] for s in st]}))
