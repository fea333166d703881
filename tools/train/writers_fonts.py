"""Source "fonts": digits of handwriting-like fonts, drawn as a pen would draw them.

A writer is one font face plus fixed habits of a hand. The faces come from Debian's
font packages (scripts/deps.sh installs them with the test set):

- Hershey's vector fonts (hershey-fonts-data, /usr/share/hershey-fonts/*.jhf): already
  pen strokes. The single-line sans (simplex), and the double- and triple-line roman and
  italic faces (duplex, complex, triplex): the "double-line" hands.
- TrueType/OpenType faces of handwriting, literacy, comic, script and serif fonts: each
  glyph is rendered large with Pillow, thinned to a one-pixel skeleton (our own
  Zhang-Suen pass plus a simple-point clean-up, NumPy only), and the skeleton graph is
  traced into pen strokes: short spurs (corners and flat ends of thick strokes) are
  pruned, strokes continue straight on through junctions, and each stroke gets the order
  and direction a person would use (top-left first, a closed loop drawn counter-clockwise
  from the top, short bars last). `outline-*` faces trace the glyph's contour instead of
  its skeleton: digits drawn as outlines (double lines).

Nothing here comes from strokes.py: the distortion is this module's own. A writer has a
fixed slant, rotation, aspect, size, device (pen, finger or mouse: sampling rate, noise,
integer points), speed (slower on curves and at the ends), a smooth low-frequency warp of
the plane, a tremor, ends that overshoot or stop short, loops that do not always close,
separate strokes that do not land exactly where the font put them, and pen lifts at sharp
cusps or not. Each drawing varies a little around those habits.

Traced glyphs are cached in memory and on disk (tools/train/cache/, git-ignored).

    .venv/bin/python writers_fonts.py --sheet            # out/fonts_sheet.png, out/fonts_raster.png
    .venv/bin/python writers_fonts.py --nondigits        # out/fonts_nondigits.png
"""
from __future__ import annotations

import json
import math
import os
import sys
import zlib

import numpy as np

SOURCE = "fonts"
VERSION = 1  # bump when the drawings change (sources.py keys its caches by it)
HERE = os.path.dirname(os.path.abspath(__file__))
CACHE_DIR = os.path.join(HERE, "cache")
HERSHEY_DIR = "/usr/share/hershey-fonts"
FONT_DIR = "/usr/share/fonts"
CACHE_VERSION = 1
CANVAS = 400.0

# style -> (kind, file, Debian package, flags). kind "jhf": a Hershey font; "ttf": a
# TrueType/OpenType face traced along its skeleton; "outline": the same, along its contour.
# flags: "italic" (the face slants already: writers add less slant).
FACES: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "hershey-simplex": ("jhf", "rowmans.jhf", "hershey-fonts-data", ()),
    "hershey-duplex": ("jhf", "rowmand.jhf", "hershey-fonts-data", ()),
    "hershey-complex": ("jhf", "timesr.jhf", "hershey-fonts-data", ()),
    "hershey-triplex": ("jhf", "rowmant.jhf", "hershey-fonts-data", ()),
    "hershey-italic": ("jhf", "scripts.jhf", "hershey-fonts-data", ("italic",)),
    "hershey-italic-bold": ("jhf", "timesib.jhf", "hershey-fonts-data", ("italic",)),
    "ecolier": ("ttf", "truetype/ecolier-court/Ecolier-court.ttf", "fonts-ecolier-court", ()),
    "andika": ("ttf", "truetype/andika/Andika-Regular.ttf", "fonts-sil-andika", ()),
    "andika-italic": ("ttf", "truetype/andika/Andika-Italic.ttf", "fonts-sil-andika", ("italic",)),
    "dkg": ("ttf", "truetype/fifthhorseman/dkg.ttf", "fonts-dkg-handwriting", ()),
    "dkg-italic": ("ttf", "truetype/fifthhorseman/dkgIt.ttf", "fonts-dkg-handwriting", ("italic",)),
    "breip": ("ttf", "truetype/breip/breipfont.ttf", "fonts-breip", ()),
    "humor-sans": ("ttf", "truetype/humor-sans/Humor-Sans.ttf", "fonts-humor-sans", ()),
    "comic-neue": ("ttf", "opentype/comic-neue/ComicNeue-Regular.otf", "fonts-comic-neue", ()),
    "comic-neue-italic": ("ttf", "opentype/comic-neue/ComicNeue-Italic.otf", "fonts-comic-neue", ("italic",)),
    "kristi": ("ttf", "truetype/kristi/Kristi.ttf", "fonts-kristi", ("italic",)),
    "dancing-script": ("ttf", "opentype/dancingscript/DancingScript-Regular.otf", "fonts-dancingscript", ("italic",)),
    "rufscript": ("ttf", "truetype/rufscript/Rufscript010.ttf", "fonts-rufscript", ()),
    "bwht-build": ("ttf", "opentype/bwht/BecauseWeBuild-Regular.otf", "fonts-bwht", ()),
    "bwht-connect": ("ttf", "opentype/bwht/BecauseWeConnect-Regular.otf", "fonts-bwht", ()),
    "bwht-create": ("ttf", "opentype/bwht/BecauseWeCreate-Regular.otf", "fonts-bwht", ()),
    "bwht-learn": ("ttf", "opentype/bwht/BecauseWeLearn-Regular.otf", "fonts-bwht", ()),
    "bwht-mentor": ("ttf", "opentype/bwht/BecauseWeMentor-Regular.otf", "fonts-bwht", ()),
    "bwht-organize": ("ttf", "opentype/bwht/BecauseWeOrganize-Regular.otf", "fonts-bwht", ()),
    "delphine": ("ttf", "truetype/sjfonts/Delphine.ttf", "fonts-sjfonts", ()),
    "stevehand": ("ttf", "truetype/sjfonts/SteveHand.ttf", "fonts-sjfonts", ()),
    "tomsontalks": ("ttf", "truetype/tomsontalks/TomsonTalks.ttf", "fonts-tomsontalks", ()),
    "yozfont": ("ttf", "truetype/yozvox-yozfont/YOzRN_.ttf", "fonts-yozvox-yozfont", ()),
    "kiloji": ("ttf", "truetype/kiloji/kiloji.ttf", "fonts-kiloji", ()),
    "quicksand": ("ttf", "truetype/quicksand/Quicksand-Regular.ttf", "fonts-quicksand", ()),
    "isabella": ("ttf", "truetype/isabella/Isabella.ttf", "fonts-isabella", ("italic",)),
    "staypuft": ("ttf", "truetype/staypuft/StayPuft.ttf", "fonts-staypuft", ()),
    "averia-italic": ("ttf", "truetype/averia-gwf/AveriaGWF-Italic.ttf", "fonts-averia-gwf", ("italic",)),
    "urw-roman": ("ttf", "opentype/urw-base35/NimbusRoman-Regular.otf", "fonts-urw-base35", ()),
    "urw-bookman-italic": ("ttf", "opentype/urw-base35/URWBookman-LightItalic.otf", "fonts-urw-base35", ("italic",)),
    "urw-chancery": ("ttf", "opentype/urw-base35/Z003-MediumItalic.otf", "fonts-urw-base35", ("italic",)),
    "outline-sans": ("outline", "opentype/urw-base35/NimbusSans-Bold.otf", "fonts-urw-base35", ()),
    "outline-serif": ("outline", "opentype/urw-base35/NimbusRoman-Bold.otf", "fonts-urw-base35", ()),
    "outline-bookman": ("outline", "opentype/urw-base35/URWBookman-Demi.otf", "fonts-urw-base35", ()),
}
STYLES: list[str] = list(FACES)
# A face's glyph that does not read as its digit is drawn from a sister face instead.
FALLBACK: dict[tuple[str, str], str] = {("bwht-learn", "6"): "bwht-mentor"}
DEBIAN_PACKAGES: list[str] = sorted({v[2] for v in FACES.values()})

# Non-digits for calibrating the refusal: letters and signs that do not read as a digit.
NONDIGIT_LETTERS = "AEFHKMNPRUVWXYaehkmnrwx"
NONDIGIT_SIGNS = "#+*?&="
NONDIGIT_KINDS = ("letter", "sign")


# ---------------------------------------------------------------------------
# Fonts -> strokes (glyph units: the face's median digit height is 1, y down)

def _font_path(style: str) -> str:
    kind, rel, pkg, _ = FACES[style]
    path = os.path.join(HERSHEY_DIR if kind == "jhf" else FONT_DIR, rel)
    if not os.path.exists(path):
        raise FileNotFoundError(f"writers_fonts: {path} is missing: install the Debian package {pkg} "
                                f"(scripts/deps.sh test installs every font this source uses)")
    return path


def parse_jhf(path: str) -> list[list[list[tuple[int, int]]]]:
    """The glyphs of a Hershey .jhf file in file order (the n-th is ASCII 32+n): each a
    list of strokes of (x, y) font units, y down. A record is a 5-character id, a
    3-character count of coordinate pairs (the first pair is the left and right bound),
    then the pairs as characters offset from 'R'; " R" lifts the pen. Long records wrap
    onto following lines."""
    with open(path, encoding="latin-1") as f:
        lines = [ln.rstrip("\n\r") for ln in f]
    glyphs, buf = [], ""
    for ln in lines:
        if not buf and not ln.strip():
            continue
        buf += ln
        n = int(buf[5:8])
        if len(buf) - 8 < 2 * n:
            continue
        data = buf[8:8 + 2 * n]
        buf = ""
        strokes: list[list[tuple[int, int]]] = [[]]
        for i in range(2, len(data) - 1, 2):
            a, b = data[i], data[i + 1]
            if a == " " and b == "R":
                strokes.append([])
            else:
                strokes[-1].append((ord(a) - 82, ord(b) - 82))
        glyphs.append([s for s in strokes if s])
    return glyphs


def _chaikin_keep_corners(p: np.ndarray, corner_deg: float = 55.0, rounds: int = 2) -> np.ndarray:
    """Hershey curves are coarse polygons: round them (Chaikin) but keep the ends and the
    real corners (a turn above corner_deg)."""
    if len(p) < 3:
        return p
    d1 = p[1:-1] - p[:-2]; d2 = p[2:] - p[1:-1]
    cosang = (d1 * d2).sum(1) / np.maximum(np.linalg.norm(d1, axis=1) * np.linalg.norm(d2, axis=1), 1e-9)
    corners = [0] + [i + 1 for i in np.nonzero(cosang < math.cos(math.radians(corner_deg)))[0]] + [len(p) - 1]
    out = []
    for a, b in zip(corners[:-1], corners[1:]):
        q = p[a:b + 1]
        for _ in range(rounds):
            if len(q) < 3:
                break
            mids = [q[0]]
            for i in range(len(q) - 1):
                mids.append(0.75 * q[i] + 0.25 * q[i + 1]); mids.append(0.25 * q[i] + 0.75 * q[i + 1])
            mids.append(q[-1])
            q = np.array(mids)
        out.append(q if not out else q[1:])
    return np.vstack(out)


def _hershey_glyph(style: str, ch: str):
    glyphs = _hershey_file(_font_path(style))
    i = ord(ch) - 32
    if not 0 <= i < len(glyphs) or not glyphs[i]:
        return None
    return [_chaikin_keep_corners(np.array(s, float)) for s in glyphs[i] if len(s) >= 1]


_JHF: dict[str, list] = {}


def _hershey_file(path):
    if path not in _JHF:
        _JHF[path] = parse_jhf(path)
    return _JHF[path]


# --- thinning -------------------------------------------------------------------

_NB = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]  # N NE E SE S SW W NW


def _simple_lut() -> np.ndarray:
    """For each of the 256 neighbourhoods (bit k = neighbour _NB[k]): can the centre go
    without changing the topology (one 8-connected foreground component around it, one
    4-connected background component touching it)?"""
    lut = np.zeros(256, bool)
    for code in range(256):
        fg = {_NB[k] for k in range(8) if code >> k & 1}
        bg = {_NB[k] for k in range(8) if not code >> k & 1}

        def comps(cells, adj8):
            cells = set(cells); n = 0; seen = set()
            for c in cells:
                if c in seen:
                    continue
                n += 1; stack = [c]; seen.add(c)
                while stack:
                    r, q = stack.pop()
                    for dr in (-1, 0, 1):
                        for dq in (-1, 0, 1):
                            if (dr or dq) and (adj8 or not (dr and dq)):
                                m = (r + dr, q + dq)
                                if m in cells and m not in seen:
                                    seen.add(m); stack.append(m)
            return n, seen
        nf, _ = comps(fg, True)
        # background components that touch the centre through a 4-neighbour
        touching = {c for c in bg if abs(c[0]) + abs(c[1]) == 1}
        nb = 0; seen: set = set()
        for c in touching:
            if c in seen:
                continue
            nb += 1
            stack = [c]; seen.add(c)
            while stack:
                r, q = stack.pop()
                for dr, dq in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    m = (r + dr, q + dq)
                    if m in bg and m not in seen:
                        seen.add(m); stack.append(m)
        lut[code] = nf == 1 and nb == 1
    return lut


_SIMPLE = _simple_lut()


def _zhang_suen(img: np.ndarray) -> np.ndarray:
    a = np.pad(img.astype(np.uint8), 1)
    while True:
        changed = False
        for step in (0, 1):
            c = a[1:-1, 1:-1]
            p2, p3, p4, p5 = a[:-2, 1:-1], a[:-2, 2:], a[1:-1, 2:], a[2:, 2:]
            p6, p7, p8, p9 = a[2:, 1:-1], a[2:, :-2], a[1:-1, :-2], a[:-2, :-2]
            ring = [p2, p3, p4, p5, p6, p7, p8, p9, p2]
            b = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9
            t = sum(((ring[i] == 0) & (ring[i + 1] == 1)).astype(np.uint8) for i in range(8))
            if step == 0:
                m = ((p2 * p4 * p6) == 0) & ((p4 * p6 * p8) == 0)
            else:
                m = ((p2 * p4 * p8) == 0) & ((p2 * p6 * p8) == 0)
            rm = (c == 1) & (b >= 2) & (b <= 6) & (t == 1) & m
            if rm.any():
                c[rm] = 0; changed = True
        if not changed:
            break
    sk = a[1:-1, 1:-1].astype(bool)
    # clean-up: drop the staircase and corner pixels thinning leaves (simple points that
    # are not line ends), one at a time so that the line stays connected
    for _ in range(4):
        removed = False
        pad = np.pad(sk, 1)
        for r, q in np.argwhere(sk):
            code = 0; n = 0
            for k, (dr, dq) in enumerate(_NB):
                if pad[r + 1 + dr, q + 1 + dq]:
                    code |= 1 << k; n += 1
            if n >= 2 and _SIMPLE[code]:
                pad[r + 1, q + 1] = False; removed = True
        sk = pad[1:-1, 1:-1]
        if not removed:
            break
    return sk


# --- skeleton graph -------------------------------------------------------------------

def _graph(sk: np.ndarray):
    """(nodes, edges): nodes {id: (centre (x, y), pixels)}, edges [(u, v, [(r, c), ...])].
    A node is a line end or a cluster of junction pixels; a ring with no node becomes an
    edge from a node made on it to itself."""
    pix = {(int(r), int(c)) for r, c in np.argwhere(sk)}
    nb = {p: [(p[0] + dr, p[1] + dq) for dr, dq in _NB if (p[0] + dr, p[1] + dq) in pix] for p in pix}
    node_of: dict = {}
    nodes: dict = {}
    for p in sorted(pix):
        if p in node_of or len(nb[p]) == 2:
            continue
        nid = len(nodes)
        if len(nb[p]) >= 3:
            cl = [p]; node_of[p] = nid; stack = [p]
            while stack:
                x = stack.pop()
                for y in nb[x]:
                    if y not in node_of and len(nb[y]) >= 3:
                        node_of[y] = nid; cl.append(y); stack.append(y)
        else:
            cl = [p]; node_of[p] = nid
        nodes[nid] = cl
    edges = []
    used: set = set()
    on_edge: set = set()
    for p in sorted(node_of):
        for q in nb[p]:
            if node_of.get(q) == node_of[p] or (p, q) in used:
                continue
            path = [p, q]; prev, cur = p, q; guard = 0
            while cur not in node_of and guard < 100000:
                on_edge.add(cur)
                nxt = [r for r in nb[cur] if r != prev]
                if not nxt:
                    break
                prev, cur = cur, nxt[0]; path.append(cur); guard += 1
            used.add((p, q)); used.add((path[-1], path[-2]))
            if cur in node_of:
                edges.append((node_of[p], node_of[cur], path))
    for p in sorted(pix):  # rings without a node
        if p in node_of or p in on_edge:
            continue
        nid = len(nodes); nodes[nid] = [p]; node_of[p] = nid
        path = [p]; prev, cur = p, nb[p][0]
        while cur != p:
            on_edge.add(cur); path.append(cur)
            nxt = [r for r in nb[cur] if r != prev]
            if not nxt:
                break
            prev, cur = cur, nxt[0]
        path.append(p)
        edges.append((nid, nid, path))
    centres = {k: (float(np.mean([c[1] for c in v])), float(np.mean([c[0] for c in v]))) for k, v in nodes.items()}
    return {k: (centres[k], v) for k, v in nodes.items()}, edges


def _prune(sk: np.ndarray, thr: float) -> np.ndarray:
    """Remove spurs (an edge from a line end to a junction) shorter than thr pixels,
    until none is left."""
    sk = sk.copy()
    for _ in range(12):
        nodes, edges = _graph(sk)
        degree: dict = {}
        for u, v, _p in edges:
            degree[u] = degree.get(u, 0) + 1; degree[v] = degree.get(v, 0) + 1
        cut = False
        for u, v, path in edges:
            if u == v:
                continue
            for end, other, pts in ((u, v, path), (v, u, path[::-1])):
                if len(nodes[end][1]) == 1 and degree.get(end, 0) == 1 and degree.get(other, 0) >= 3 \
                        and _plen(pts) < thr:
                    junction = set(nodes[other][1])
                    for r, c in pts:
                        if (r, c) not in junction:
                            sk[r, c] = False
                    cut = True
                    break
        if not cut:
            break
    return sk


def _plen(path) -> float:
    a = np.array(path, float)
    return float(np.linalg.norm(np.diff(a, axis=0), axis=1).sum()) if len(a) > 1 else 0.0


def _trails(nodes, edges, reach: float) -> list[np.ndarray]:
    """Chain the edges into pen strokes: at a junction each arriving edge continues into
    the edge that goes on straightest (within 60 degrees); a node with two edges always
    joins them. Returns polylines of (x, y) pixel coordinates."""
    ends: dict = {}
    for i, (u, v, path) in enumerate(edges):
        ends.setdefault(u, []).append((i, 0)); ends.setdefault(v, []).append((i, 1))

    def direction(nid, i, e):
        path = edges[i][2] if e == 0 else edges[i][2][::-1]
        a = np.array([(c, r) for r, c in path], float)
        seg = np.linalg.norm(np.diff(a, axis=0), axis=1)
        s = np.concatenate([[0], np.cumsum(seg)])
        k = int(np.searchsorted(s, min(reach, s[-1] * 0.5)))
        k = min(max(k, 1), len(a) - 1)
        d = a[k] - np.array(nodes[nid][0])
        n = np.linalg.norm(d)
        return d / n if n > 1e-9 else np.zeros(2)

    pair: dict = {}
    for nid, es in ends.items():
        if len(es) == 2:
            pair[es[0]] = es[1]; pair[es[1]] = es[0]
            continue
        if len(es) < 3:
            continue
        dirs = {e: direction(nid, *e) for e in es}
        cands = []
        for a in range(len(es)):
            for b in range(a + 1, len(es)):
                dev = math.degrees(math.acos(max(-1.0, min(1.0, float(-(dirs[es[a]] @ dirs[es[b]]))))))
                cands.append((dev, a, b))
        for dev, a, b in sorted(cands):
            if dev > 60:
                break
            if es[a] not in pair and es[b] not in pair:
                pair[es[a]] = es[b]; pair[es[b]] = es[a]

    done = [False] * len(edges)

    def walk(i, e):
        pts = []
        while True:
            done[i] = True
            path = edges[i][2] if e == 0 else edges[i][2][::-1]
            pts.extend(path if not pts else path[1:])
            arrive = (i, 1 - e)
            nxt = pair.get(arrive)
            if nxt is None or done[nxt[0]]:
                return pts
            i, e = nxt

    out = []
    for nid in sorted(ends):  # open trails start at an end that is not paired
        for (i, e) in ends[nid]:
            if not done[i] and (i, e) not in pair:
                out.append(walk(i, e))
    for i in range(len(edges)):  # what is left are closed trails
        if not done[i]:
            out.append(walk(i, 0))
    for nid, (_, pix) in nodes.items():  # a dot: a node without an edge
        if nid not in ends:
            out.append(pix)
    return [np.array([(c, r) for r, c in t], float) for t in out]


def _smooth(p: np.ndarray, w: int = 2) -> np.ndarray:
    if len(p) < 2 * w + 2:
        return p
    closed = np.allclose(p[0], p[-1])
    k = np.ones(2 * w + 1) / (2 * w + 1)
    if closed:
        q = np.vstack([p[-1 - w:-1], p[:-1], p[:w]])
        s = np.stack([np.convolve(q[:, j], k, "valid") for j in (0, 1)], 1)
        return np.vstack([s, s[:1]])
    q = np.vstack([np.repeat(p[:1], w, 0), p, np.repeat(p[-1:], w, 0)])
    s = np.stack([np.convolve(q[:, j], k, "valid") for j in (0, 1)], 1)
    s[0], s[-1] = p[0], p[-1]
    return s


def _rdp(p: np.ndarray, eps: float) -> np.ndarray:
    if len(p) < 3:
        return p
    keep = np.zeros(len(p), bool); keep[0] = keep[-1] = True
    stack = [(0, len(p) - 1)]
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        d = p[b] - p[a]; n = np.linalg.norm(d)
        seg = p[a + 1:b] - p[a]
        dist = np.abs(seg[:, 0] * d[1] - seg[:, 1] * d[0]) / n if n > 1e-9 else np.linalg.norm(seg, axis=1)
        k = int(np.argmax(dist))
        if dist[k] > eps:
            keep[a + 1 + k] = True; stack.append((a, a + 1 + k)); stack.append((a + 1 + k, b))
    return p[keep]


_TTF_SIZE: dict[str, float] = {}


def _font(style: str, size: float):
    from PIL import ImageFont
    return ImageFont.truetype(_font_path(style), size=int(round(size)))


def _render(style: str, ch: str, size: float):
    """(binary image, x0, y0): the glyph drawn at `size`, the pixel (r, c) at glyph point
    (x0 + c, y0 + r) relative to the left end of the baseline."""
    from PIL import Image, ImageDraw
    font = _font(style, size)
    l, t, r, b = font.getbbox(ch, anchor="ls")
    pad = 6
    img = Image.new("L", (r - l + 2 * pad, b - t + 2 * pad), 0)
    ImageDraw.Draw(img).text((pad - l, pad - t), ch, fill=255, font=font, anchor="ls")
    return np.asarray(img) >= 80, l - pad, t - pad


def _missing(style: str, ch: str) -> bool:
    """A character the face has no glyph for draws as the face's .notdef (a box, or nothing)."""
    font = _font(style, 64)
    try:
        got = font.getmask(ch)
    except Exception:
        return True
    if got.size[0] * got.size[1] == 0:
        return True
    ref = font.getmask("\U000F0000")
    return got.size == ref.size and bytes(got) == bytes(ref)


def _cap_px(kind: str) -> float:
    return 240.0 if kind == "outline" else 130.0


def _ttf_size(style: str) -> float:
    """The font size at which the face's digits are about _cap_px tall."""
    if style not in _TTF_SIZE:
        img, _, _ = _render(style, "0", 200)
        rows = np.nonzero(img.any(1))[0]
        h = rows[-1] - rows[0] + 1
        _TTF_SIZE[style] = 200.0 * _cap_px(FACES[style][0]) / max(h, 1)
    return _TTF_SIZE[style]


def _outline(mask: np.ndarray) -> np.ndarray:
    """The glyph's contour: ink pixels with a background pixel among their 4 neighbours."""
    p = np.pad(mask, 1)
    inner = p[1:-1, 1:-1] & p[:-2, 1:-1] & p[2:, 1:-1] & p[1:-1, :-2] & p[1:-1, 2:]
    return mask & ~inner


def _fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill the holes of the ink smaller than max_area pixels (a brush font's texture),
    keeping the counters of 0, 6, 8, 9."""
    free = np.pad(~mask, 1, constant_values=True)
    outside = np.zeros_like(free); outside[0, :] = outside[-1, :] = outside[:, 0] = outside[:, -1] = True
    while True:  # the background 4-connected to the border
        grown = outside.copy()
        grown[1:, :] |= outside[:-1, :]; grown[:-1, :] |= outside[1:, :]
        grown[:, 1:] |= outside[:, :-1]; grown[:, :-1] |= outside[:, 1:]
        grown &= free
        if (grown == outside).all():
            break
        outside = grown
    holes = (free & ~outside)[1:-1, 1:-1]
    out = mask.copy()
    seen = np.zeros_like(holes)
    h, w = holes.shape
    for r0, c0 in np.argwhere(holes):
        if seen[r0, c0]:
            continue
        comp = [(r0, c0)]; seen[r0, c0] = True; stack = [(r0, c0)]
        while stack:
            r, c = stack.pop()
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < h and 0 <= cc < w and holes[rr, cc] and not seen[rr, cc]:
                    seen[rr, cc] = True; comp.append((rr, cc)); stack.append((rr, cc))
        if len(comp) <= max_area:
            rr, cc = zip(*comp)
            out[list(rr), list(cc)] = True
    return out


def _label(mask: np.ndarray) -> np.ndarray:
    """8-connected components of mask (labels from 1, 0 outside): runs of each row are
    joined to the runs they touch in the row above (union-find over the runs)."""
    runs = []  # (row, start, end inclusive)
    for r in range(mask.shape[0]):
        d = np.diff(np.concatenate([[0], mask[r].astype(np.int8), [0]]))
        for a_, b_ in zip(np.nonzero(d == 1)[0], np.nonzero(d == -1)[0] - 1):
            runs.append((r, int(a_), int(b_)))
    parent = list(range(len(runs)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]; i = parent[i]
        return i
    prev: list = []
    i = 0
    while i < len(runs):
        r = runs[i][0]
        cur = []
        while i < len(runs) and runs[i][0] == r:
            cur.append(i); i += 1
        for k in cur:
            for j in prev:
                if runs[j][0] == r - 1 and runs[j][1] <= runs[k][2] + 1 and runs[k][1] <= runs[j][2] + 1:
                    parent[find(j)] = find(k)
        prev = cur
    lab = np.zeros(mask.shape, np.int32)
    for k, (r, a_, b_) in enumerate(runs):
        lab[r, a_:b_ + 1] = find(k) + 1
    return lab


def _lost_dots(mask: np.ndarray, sk: np.ndarray) -> np.ndarray:
    """Thinning can erase a small round blob (the dot of a ?) whole: give each ink
    component that has no skeleton pixel left its centre pixel back."""
    lab = _label(mask)
    out = sk.copy()
    kept = set(np.unique(lab[sk]).tolist())
    for comp in np.unique(lab[mask]):
        if int(comp) not in kept:
            rr, cc = np.nonzero(lab == comp)
            i = int(np.argmin((rr - rr.mean()) ** 2 + (cc - cc.mean()) ** 2))
            out[rr[i], cc[i]] = True
    return out


def trace_ttf(style: str, ch: str, keep_dots: bool = False):
    """Pen strokes of one glyph of a TrueType face, in pixels of the render (x right,
    y down, relative to the baseline's left end)."""
    if _missing(style, ch):
        return None
    kind = FACES[style][0]
    size = _ttf_size(style)
    mask, x0, y0 = _render(style, ch, size)
    if not mask.any():
        return None
    cap = _cap_px(kind)
    mask = _fill_small_holes(mask, 0.006 * cap * cap)
    area = mask.sum()
    if kind == "outline":
        mask = _outline(mask)
    sk = _zhang_suen(mask)
    if keep_dots:
        sk = _lost_dots(mask, sk)
    width = area / max(sk.sum(), 1) if kind != "outline" else 2.0
    sk = _prune(sk, max(0.9 * width, 0.06 * cap))
    nodes, edges = _graph(sk)
    trails = _trails(nodes, edges, reach=max(width, 0.07 * cap))
    out = []
    for t in trails:
        ext = np.ptp(t, 0).max() if len(t) > 1 else 0.0
        if ext < 0.04 * cap and not keep_dots:
            continue
        if ext < 0.02 * cap:
            c = t.mean(0); t = np.array([c - (0.01 * cap, 0), c + (0.01 * cap, 0)])
        t = _rdp(_smooth(t), 0.35)
        out.append(t + (x0, y0))
    return out or None


_RAW: dict = {}


def _raw_glyph(style: str, ch: str):
    if (style, ch) not in _RAW:
        if FACES[style][0] == "jhf":
            _RAW[style, ch] = _hershey_glyph(style, ch)
        else:
            _RAW[style, ch] = trace_ttf(style, ch, keep_dots=not ch.isdigit())
    return _RAW[style, ch]


_MEM: dict[str, list | None] = {}
_DISK: dict | None = None
_DISK_DIRTY = False


def _cache_file() -> str:
    try:
        import PIL
        pv = PIL.__version__
    except ImportError:
        pv = "none"
    return os.path.join(CACHE_DIR, f"fonts_glyphs_v{CACHE_VERSION}_pil{pv}.json")


def _disk() -> dict:
    global _DISK
    if _DISK is None:
        _DISK = {}
        try:
            with open(_cache_file()) as f:
                _DISK = json.load(f)
        except (OSError, ValueError):
            _DISK = {}
    return _DISK


def _save_disk():
    global _DISK_DIRTY
    if not _DISK_DIRTY:
        return
    try:
        os.makedirs(CACHE_DIR, exist_ok=True)
        tmp = _cache_file() + f".{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump(_DISK, f)
        os.replace(tmp, _cache_file())
        _DISK_DIRTY = False
    except OSError:
        pass


def _code_key() -> str:
    """A checksum of the tracing code above (a change to it re-traces every glyph)."""
    global _CODE_KEY
    if _CODE_KEY is None:
        with open(os.path.abspath(__file__), encoding="utf-8") as f:
            text = f.read()
        _CODE_KEY = "%08x" % zlib.crc32(text.split("# --- end of " + "tracing ---")[0].encode())
    return _CODE_KEY


_CODE_KEY: str | None = None


def _file_key(style: str) -> str:
    path = _font_path(style)
    return f"{style}|{os.path.getsize(path)}|{_code_key()}"


def glyph_units(style: str, ch: str):
    """The strokes of `ch` in `style` as [(n, 2) arrays] in glyph units (the face's median
    digit height is 1, y down), or None when the face has no such glyph. Cached."""
    global _DISK_DIRTY
    key = f"{_file_key(style)}|{ch}"
    if key in _MEM:
        return _MEM[key]
    disk = _disk()
    if key in disk:
        v = disk[key]
        res = None if v is None else [np.array(s, float) for s in v]
    else:
        raw = _raw_glyph(style, ch)
        scale = _face_height(style)
        res = None if raw is None else [np.round(s / scale, 4) for s in raw]
        disk[key] = None if res is None else [s.tolist() for s in res]
        _DISK_DIRTY = True
    _MEM[key] = res
    return res


_HEIGHT: dict[str, float] = {}


def _face_height(style: str) -> float:
    if style not in _HEIGHT:
        hs = []
        for d in "0123456789":
            raw = _raw_glyph(style, d)
            if raw:
                ys = np.concatenate([s[:, 1] for s in raw])
                hs.append(float(ys.max() - ys.min()))
        _HEIGHT[style] = float(np.median(hs)) if hs else 1.0
    return _HEIGHT[style]


_SLANT: dict[str, float] = {}


def face_slant(style: str) -> float:
    """How far the face's digits lean right (0 upright, 0.2 a usual italic): the shear
    x ~ -slant * y that fits the points of its 0 and 8 (the shapes with no design lean)."""
    if style not in _SLANT:
        est = []
        for d in "08":
            g = glyph_units(style, d)
            if g:
                p = np.vstack([_densify(s, 0.01) for s in g])
                c = np.cov(p.T)
                est.append(-c[0, 1] / max(c[1, 1], 1e-9))
        _SLANT[style] = float(np.mean(est)) if est else 0.0
    return _SLANT[style]


def warm(styles=None, chars: str = "0123456789"):
    """Trace (or load) every glyph of `chars` in `styles` and write the disk cache."""
    for s in styles or STYLES:
        for ch in chars:
            glyph_units(s, ch)
    _save_disk()


# --- end of tracing ---
# ---------------------------------------------------------------------------
# How a person orders and directs the strokes

def _is_closed(p: np.ndarray) -> bool:
    if len(p) < 4:
        return False
    length = float(np.linalg.norm(np.diff(p, axis=0), axis=1).sum())
    return float(np.linalg.norm(p[0] - p[-1])) < max(0.06, 0.08 * length) and length > 0.3


def _arc(p: np.ndarray) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))])


def _split_cusps(strokes, max_turn_deg: float):
    """Lift the pen at cusps sharper than max_turn_deg (the apex of a closed 4)."""
    if max_turn_deg >= 180:
        return strokes
    out = []
    cmax = math.cos(math.radians(max_turn_deg))
    for p in strokes:
        if len(p) < 3 or _is_closed(p):
            out.append(p); continue
        s = _arc(p)
        d1 = p[1:-1] - p[:-2]; d2 = p[2:] - p[1:-1]
        cos = (d1 * d2).sum(1) / np.maximum(np.linalg.norm(d1, axis=1) * np.linalg.norm(d2, axis=1), 1e-9)
        cuts = [i + 1 for i in np.nonzero(cos < cmax)[0] if s[i + 1] > 0.12 and s[-1] - s[i + 1] > 0.12]
        a = 0
        for c in cuts:
            out.append(p[a:c + 1]); a = c
        out.append(p[a:])
    return out


def person_order(strokes):
    """Order and direct the strokes as a person writes: a closed loop from its top,
    leftwards first (counter-clockwise); an open stroke from its upper (then left) end;
    strokes top-left first, a short bar (the 5's flag, the 7's cross-bar) last."""
    directed = []
    for p in strokes:
        if len(p) >= 2 and (_is_closed(p) or (float(np.linalg.norm(p[0] - p[-1])) < 0.08 and _arc(p)[-1] > 1.0)):
            q = p[:-1] if np.allclose(p[0], p[-1]) else p
            i = int(np.argmin(q[:, 1] - 0.05 * q[:, 0]))
            q = np.vstack([q[i:], q[:i], q[i:i + 1]])
            s = _arc(q)
            k = min(int(np.searchsorted(s, 0.1 * s[-1])), len(q) - 1)
            if q[k, 0] > q[0, 0]:
                q = q[::-1]
            directed.append(q)
        else:
            if p[-1, 1] + 0.5 * p[-1, 0] < p[0, 1] + 0.5 * p[0, 0]:
                p = p[::-1]
            directed.append(p)

    def key(p):
        ext = np.ptp(p, 0)
        bar = len(directed) > 1 and ext[1] < 0.15 and _arc(p)[-1] < 0.6 and ext[0] > 2 * ext[1]
        return (bar, float(p[0, 1] + 0.3 * p[0, 0]))
    return sorted(directed, key=key)


# ---------------------------------------------------------------------------
# The hand

DEVICES = ("pen", "finger", "mouse")


def _u(rng, a, b):
    return float(rng.uniform(a, b))


class Writer:
    """One hand: a font face and fixed habits (see make_writer)."""

    def __init__(self, seed: int):
        self.seed = int(seed)
        self.face = STYLES[self.seed % len(STYLES)]
        self.id = f"fonts:{self.face}:{self.seed}"
        rng = np.random.default_rng([self.seed, 0x464F4E54])
        # the lean of the writing (the face's own lean is taken into account when drawing)
        self.lean = float(np.clip(rng.normal(0.08, 0.13), -0.2, 0.4))
        self.keep_face_lean = _u(rng, 0.3, 1.0)
        self.rot = float(np.clip(rng.normal(0, 3.0), -7, 7))
        self.aspect = float(np.clip(math.exp(rng.normal(0, 0.12)), 0.75, 1.3))
        self.height = _u(rng, 130, 290)
        self.device = DEVICES[int(rng.choice(3, p=[0.35, 0.4, 0.25]))]
        lo, hi = {"pen": (0.25, 0.7), "finger": (0.3, 0.8), "mouse": (0.35, 1.2)}[self.device]
        self.speed = _u(rng, lo, hi)  # px per ms on straight runs
        self.dt = {"pen": _u(rng, 3.0, 6.0), "finger": _u(rng, 6.0, 12.0), "mouse": _u(rng, 8.0, 16.0)}[self.device]
        self.noise = {"pen": _u(rng, 0.05, 0.2), "finger": _u(rng, 0.4, 1.1), "mouse": 0.0}[self.device]
        self.warp_amp = _u(rng, 0.0, 0.04)
        self.warp = self._waves(rng)
        self.tremor = _u(rng, 0.0, 0.006) if rng.random() < 0.8 else _u(rng, 0.006, 0.012)
        self.tremor_hz = _u(rng, 4.0, 10.0)
        self.end_ext = _u(rng, -0.03, 0.05)  # overshoot (+) or stop short (-) at a stroke's end
        self.start_ext = _u(rng, -0.02, 0.03)
        self.open_loops = _u(rng, 0.0, 0.5)  # how often a closed loop is left open
        self.loop_gap = _u(rng, 0.03, 0.09)
        self.loop_overlap = _u(rng, 0.0, 0.06)
        self.lift_cusp = float(rng.choice([140.0, 155.0, 181.0]))
        self.place = _u(rng, 0.0, 0.025)  # how far a separate stroke lands from where it belongs
        self.vary = _u(rng, 0.5, 1.5)  # how much one drawing differs from the next

    @staticmethod
    def _waves(rng, n: int = 3):
        f = rng.uniform(0.35, 1.2, n) * 2 * math.pi
        ang = rng.uniform(0, 2 * math.pi, (n, 2))
        phase = rng.uniform(0, 2 * math.pi, (n, 2))
        amp = rng.uniform(0.5, 1.0, n); amp /= amp.sum()
        return f, ang, phase, amp

    @staticmethod
    def _apply_waves(p, waves, amp):
        f, ang, phase, a = waves
        out = p.copy()
        for k in range(len(f)):
            for j in (0, 1):
                proj = p[:, 0] * math.cos(ang[k, j]) + p[:, 1] * math.sin(ang[k, j])
                out[:, j] += amp * a[k] * np.sin(f[k] * proj + phase[k, j])
        return out

    def style(self, digit: int) -> str:
        return FALLBACK.get((self.face, str(int(digit))), self.face)

    def draw(self, digit: int, rng: np.random.Generator):
        return self.draw_char(str(int(digit)), rng)

    def has(self, ch: str) -> bool:
        return glyph_units(FALLBACK.get((self.face, ch), self.face), ch) is not None

    # -- geometry in glyph units (height 1) --------------------------------------------
    def _shape(self, ch: str, rng):
        face = FALLBACK.get((self.face, ch), self.face)
        g = glyph_units(face, ch)
        if g is None:
            raise KeyError(f"{face} has no glyph {ch!r}")
        strokes = person_order(_split_cusps([s for s in g if len(s) >= 1], self.lift_cusp))
        allp = np.vstack(strokes)
        lo, hi = allp.min(0), allp.max(0)
        centre = (lo + hi) / 2
        v = self.vary
        out = []
        for p in strokes:
            p = _densify(p - centre, 0.01)
            p = self._ends(p, rng)
            if len(strokes) > 1:
                p = p + rng.normal(0, self.place * v, 2)
            out.append(p)
        fs = face_slant(face)
        want = float(np.clip(fs * self.keep_face_lean + self.lean * (1 - self.keep_face_lean), -0.2, 0.45))
        slant = want - fs + rng.normal(0, 0.035 * v)
        rot = math.radians(self.rot + rng.normal(0, 1.5 * v))
        aspect = self.aspect * math.exp(rng.normal(0, 0.04 * v))
        c, s = math.cos(rot), math.sin(rot)
        drawing_waves = self._waves(rng)
        damp = _u(rng, 0.0, 0.015) * v
        res = []
        for p in out:
            q = self._apply_waves(p, self.warp, self.warp_amp)
            q = self._apply_waves(q, drawing_waves, damp)
            x = q[:, 0] * aspect - slant * q[:, 1]
            y = q[:, 1]
            res.append(np.stack([c * x - s * y, s * x + c * y], 1))
        return res

    def _ends(self, p, rng):
        """Overshoot or stop short at the ends; leave a loop open or cross over its start."""
        if len(p) < 3:
            return p
        v = self.vary
        length = _arc(p)[-1]
        if _is_closed(p):
            if rng.random() < self.open_loops:
                cut = min(self.loop_gap * (1 + rng.normal(0, 0.3 * v)), 0.25 * length)
                return _trim(p, 0.0, max(cut, 0.0))
            return _extend(p, 0.0, max(self.loop_overlap + rng.normal(0, 0.01 * v), 0.0))
        a = self.start_ext + rng.normal(0, 0.01 * v)
        b = self.end_ext + rng.normal(0, 0.015 * v)
        cap = 0.2 * length
        a, b = float(np.clip(a, -cap, cap)), float(np.clip(b, -cap, cap))
        p = _trim(p, max(-a, 0.0), max(-b, 0.0))
        return _extend(p, max(a, 0.0), max(b, 0.0))

    # -- the pen moving -------------------------------------------------------------------
    def draw_char(self, ch: str, rng: np.random.Generator):
        shape = self._shape(ch, rng)
        allp = np.vstack(shape)
        lo, hi = allp.min(0), allp.max(0)
        h = self.height * math.exp(rng.normal(0, 0.06 * self.vary))
        scale = h / max(hi[1] - lo[1], 0.3)
        ext = (hi - lo) * scale
        fit = min(1.0, (CANVAS - 24) / max(ext.max(), 1e-9))
        scale *= fit; ext *= fit
        room = np.maximum((CANVAS - 16 - ext) / 2, 0)
        centre = CANVAS / 2 + np.clip(rng.normal(0, 25, 2), -room, room)
        mid = (lo + hi) / 2
        out = []
        t = 0.0
        prev_end = None
        for p in shape:
            q = (p - mid) * scale + centre
            if prev_end is not None:
                t += _u(rng, 70, 260) + float(np.linalg.norm(q[0] - prev_end)) / (2.5 * self.speed)
            pts, t = self._sample(q, h, t, rng)
            pts[:, :2] = np.clip(pts[:, :2], 0.0, CANVAS)
            out.append(pts.tolist())
            prev_end = q[-1]
        return out

    def _sample(self, q, h, t0, rng):
        q = _densify(q, 0.5)
        n = len(q)
        if n == 1:
            return np.array([[round(q[0, 0], 2), round(q[0, 1], 2), round(t0, 1)]]), t0 + 1.0
        seg = np.linalg.norm(np.diff(q, axis=0), axis=1)
        s = np.concatenate([[0.0], np.cumsum(seg)])
        # speed: slower on tight curves (the two-thirds power law) and at both ends
        d = np.gradient(q, axis=0)
        dd = np.gradient(d, axis=0)
        curv = np.abs(d[:, 0] * dd[:, 1] - d[:, 1] * dd[:, 0]) / np.maximum(np.linalg.norm(d, axis=1) ** 3, 1e-9)
        k = min(9, n - (1 - n % 2))
        curv = np.convolve(curv, np.ones(k) / k, "same")
        kref = 1.0 / (0.25 * h)
        v = self.speed * np.minimum(1.0, (kref / np.maximum(curv, 1e-9)) ** (1 / 3))
        ramp = 0.08 * h
        v *= (0.3 + 0.7 * np.clip(s / ramp, 0, 1)) * (0.45 + 0.55 * np.clip((s[-1] - s) / ramp, 0, 1))
        vm = (v[1:] + v[:-1]) / 2
        tt = t0 + np.concatenate([[0.0], np.cumsum(seg / vm)])
        # the device reports a point every dt (with jitter), and the last one
        times = [t0]
        while True:
            nxt = times[-1] + self.dt * _u(rng, 0.8, 1.2)
            if nxt >= tt[-1]:
                break
            times.append(nxt)
        times.append(tt[-1])
        times = np.array(times)
        x = np.interp(times, tt, q[:, 0]); y = np.interp(times, tt, q[:, 1])
        # tremor: a small wobble in time, a little random in its frequency
        if self.tremor > 0:
            ph = rng.uniform(0, 2 * math.pi, 4)
            w1 = 2 * math.pi * self.tremor_hz / 1000.0 * _u(rng, 0.85, 1.15)
            w2 = w1 * _u(rng, 1.6, 2.4)
            amp = self.tremor * h
            x = x + amp * (np.sin(w1 * times + ph[0]) + 0.5 * np.sin(w2 * times + ph[1])) / 1.5
            y = y + amp * (np.sin(w1 * times + ph[2]) + 0.5 * np.sin(w2 * times + ph[3])) / 1.5
        if self.device == "mouse":
            x = np.round(x); y = np.round(y)
            keep = np.ones(len(x), bool)
            keep[1:] = (np.diff(x) != 0) | (np.diff(y) != 0)
            keep[-1] = True
            x, y, times = x[keep], y[keep], times[keep]
        else:
            x = x + rng.normal(0, self.noise, len(x)); y = y + rng.normal(0, self.noise, len(y))
            x = np.round(x, 2); y = np.round(y, 2)
        times = np.round(times, 1)
        for i in range(1, len(times)):  # strictly increasing times
            if times[i] <= times[i - 1]:
                times[i] = times[i - 1] + 0.1
        return np.stack([x, y, times], 1), float(times[-1])


def _densify(p: np.ndarray, step: float) -> np.ndarray:
    if len(p) < 2:
        return p
    s = _arc(p)
    if s[-1] <= 0:
        return p[:1]
    n = max(int(math.ceil(s[-1] / step)), 1)
    u = np.linspace(0, s[-1], n + 1)
    return np.stack([np.interp(u, s, p[:, 0]), np.interp(u, s, p[:, 1])], 1)


def _trim(p, a: float, b: float):
    s = _arc(p)
    if s[-1] - a - b < 0.05 * s[-1] or (a <= 0 and b <= 0):
        return p
    keep = (s >= a) & (s <= s[-1] - b)
    return p[keep] if keep.sum() >= 2 else p


def _extend(p, a: float, b: float):
    """Go on along the tangent at the start (by a) and the end (by b)."""
    def tangent(q):
        s = _arc(q)
        k = min(int(np.searchsorted(s, 0.05)), len(q) - 1)
        d = q[0] - q[k]
        n = np.linalg.norm(d)
        return d / n if n > 1e-9 else None
    out = p
    if a > 0:
        t = tangent(p)
        if t is not None:
            out = np.vstack([p[0] + t * a, out])
    if b > 0:
        t = tangent(p[::-1])
        if t is not None:
            out = np.vstack([out, p[-1] + t * b])
    return out


def make_writer(seed: int) -> Writer:
    """One hand. Its face is STYLES[seed % len(STYLES)], so consecutive seeds cover every face."""
    return Writer(seed)


def _writer_seed(seed: int, i: int) -> int:
    return (zlib.crc32(f"fonts/{seed}".encode()) % 100_000) * 1_000_000 + i


def make_set(n_writers: int, per_digit: int, seed: int):
    """[(digit, style, writer_id, strokes)]: n_writers hands (consecutive faces), each
    drawing every digit per_digit times. Deterministic for a seed."""
    out = []
    for i in range(n_writers):
        w = make_writer(_writer_seed(seed, i))
        rng = np.random.default_rng([seed, i, 1])
        for d in range(10):
            for _ in range(per_digit):
                out.append((d, w.style(d), w.id, w.draw(d, rng)))
    _save_disk()
    return out


def make_nondigits(n_writers: int, per_kind: int, seed: int):
    """[(kind, name, writer_id, strokes)]: letters and signs that do not read as a digit
    (kind "letter" or "sign", name the character), drawn by font hands of this source
    (writer seeds apart from make_set's), per_kind of each kind per writer."""
    out = []
    for i in range(n_writers):
        w = make_writer(_writer_seed(seed, i) + 500_000)
        rng = np.random.default_rng([seed, i, 2])
        for kind, chars in (("letter", NONDIGIT_LETTERS), ("sign", NONDIGIT_SIGNS)):
            have = [c for c in chars if w.has(c)]
            if not have:
                continue
            for _ in range(per_kind):
                ch = have[int(rng.integers(len(have)))]
                out.append((kind, ch, w.id, w.draw_char(ch, rng)))
    _save_disk()
    return out


# ---------------------------------------------------------------------------
# Sheets for a person to look at

def _sheet(rows, path, title_of, ncols: int, raster_view: bool):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    nrows = math.ceil(len(rows) / ncols)
    fig, axs = plt.subplots(nrows, ncols, figsize=(ncols * 1.0, nrows * 1.12))
    axs = np.atleast_2d(axs)
    for ax in axs.flat:
        ax.axis("off")
    for k, row in enumerate(rows):
        ax = axs.flat[k]
        strokes = row[-1]
        if raster_view:
            import raster
            ax.imshow(raster.rasterize(strokes), cmap="gray_r", vmin=0, vmax=1)
        else:
            for s in strokes:
                a = np.array(s)
                ax.plot(a[:, 0], a[:, 1], "-", lw=0.8, color="k")
                ax.plot(a[:1, 0], a[:1, 1], ".", ms=2, color="r")
            ax.set_xlim(0, CANVAS); ax.set_ylim(CANVAS, 0); ax.set_aspect("equal")
        ax.set_title(title_of(row), fontsize=5)
    plt.tight_layout(pad=0.1)
    plt.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheet", action="store_true")
    ap.add_argument("--nondigits", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--faces", default="", help="comma-separated styles (default: all)")
    ap.add_argument("--name", default="fonts", help="the sheets' file name prefix in out/")
    args = ap.parse_args(argv)
    os.makedirs(os.path.join(HERE, "out"), exist_ok=True)
    if args.sheet:
        faces = args.faces.split(",") if args.faces else STYLES
        rows = []
        for f in faces:
            w = make_writer(STYLES.index(f) + len(STYLES) * args.seed)
            rng = np.random.default_rng(args.seed)
            for d in range(10):
                rows.append((d, f, w.id, w.draw(d, rng)))
        _sheet(rows, os.path.join(HERE, "out", f"{args.name}_sheet.png"), lambda r: f"{r[1]} {r[0]}", 10, False)
        _sheet(rows, os.path.join(HERE, "out", f"{args.name}_raster.png"), lambda r: f"{r[1]} {r[0]}", 10, True)
    if args.nondigits:
        rows = make_nondigits(len(STYLES), 2, args.seed)
        _sheet(rows, os.path.join(HERE, "out", f"{args.name}_nondigits.png"), lambda r: f"{r[2].split(':')[1]} {r[1]}", 12, False)
    _save_disk()


if __name__ == "__main__":
    sys.exit(main())
