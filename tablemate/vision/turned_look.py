"""A second look at the tiles of a table that lie turned together.

Why: the detector learned tiles whose sides follow the play area's edges.
Tiles lying at one slant together (a row pushed askew, a phone photo of a
set taken at an angle) it outlines with boxes around them, which hold slices
of their neighbours; it misses more of them, and ``straighten`` can only
guess each tile's size from its box, a guess that breaks down towards 45
degrees. Where many tiles share one slant, the play area is warped once more,
turned by that slant, so that those tiles lie square, and detected again:
there the detector outlines them as it learned to. Their outlines are turned
back into the table's square, and they replace the first look's outlines of
the same tiles. Tiles lying square keep the first look's outlines, so a table
laid out square is read exactly as before and costs nothing more.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .contract import quad_from_box
from .grouping import Seen
from .straighten import straighten

#: A shared slant below this (radians) is left to ``straighten``: within it tiles read as well as square ones.
MIN_TURN = math.radians(12.0)
#: Tiles whose slant is within this of the shared one lie turned with it.
SAME_TURN = math.radians(8.0)
#: At least this many lying tiles, and this share of them, must share the slant to be worth a second look.
MIN_TILES = 3
MIN_SHARE = 0.1
#: ... and at least this share of the turned tiles: tiles strewn at every angle (discards pushed about) share none.
MIN_ALIKE = 0.5

#: A second-look outline whose centre is this near a first-look one (a share of its shorter side) is that tile ...
SAME_TILE = 0.5
#: ... and one this near another tile's lies on that tile as well: where the two looks disagree, the first stands.
OVERLAPS = 0.8
#: A first-look outline that a second-look tile found this much more surely (``Seen.heat``) lies on, and that
#: holds at most ``PIECE`` of that tile's area, is a piece of it, not a tile outlined right; so is a run's
#: first-look outlines where its second-look tiles are found this much more surely on average, ``PIECE`` as large;
#: but not of a tile over ``WHOLE`` times the second look's median tile's area (two tiles outlined as one).
SURER_TURNED = 0.2
PIECE = 0.7
WHOLE = 1.25


def fold(a: np.ndarray | float) -> np.ndarray | float:
    """Angles folded into [-45, 45) degrees: a tile's sides repeat every quarter turn."""
    q = math.pi / 2
    return np.asarray(a) - q * np.floor(np.asarray(a) / q + 0.5)


def rotation(angle: float, size: int) -> np.ndarray:
    """The homography turning the ``size`` square by ``angle`` (radians) about its centre."""
    c, s, m = math.cos(angle), math.sin(angle), size / 2.0
    return np.array([[c, -s, m - c * m + s * m], [s, c, m - s * m - c * m], [0.0, 0.0, 1.0]])


def outline(t: Seen) -> np.ndarray:
    """The tile's corners in the square (TL, TR, BR, BL as read), turned by ``t.turn`` about its centre."""
    q = quad_from_box(t.cx, t.cy, t.w, t.h, t.orient)
    if not t.turn:
        return q
    c, s = math.cos(t.turn), math.sin(t.turn)
    centre = np.array([t.cx, t.cy])
    return (q - centre) @ np.array([[c, s], [-s, c]]) + centre


def square_angles(image_quads: np.ndarray, tilts: list[float], hom: np.ndarray) -> np.ndarray:
    """Each tile's slant in the square (radians, folded), from its outline and tilt in the image.

    Measured through the homography so that a mirrored or turned camera
    gives the slant's sign as the square sees it.
    """
    if len(image_quads) == 0:
        return np.zeros(0)
    turned = np.stack([straighten(q, a) for q, a in zip(image_quads, tilts)]).astype(np.float64)
    sq = cv2.perspectiveTransform(turned.reshape(-1, 1, 2), hom).reshape(-1, 4, 2)
    u = sq[:, 1] - sq[:, 0]
    return fold(np.arctan2(u[:, 1], u[:, 0]))


def shared_turn(angles: np.ndarray) -> float | None:
    """The slant many tiles share (radians), or None when too few lie turned alike.

    The mode is the mean direction of the turned tiles' angles taken four
    times over (a quarter turn apart is the same slant).
    """
    angles = np.asarray(angles, np.float64)
    turned = angles[np.abs(angles) >= MIN_TURN - SAME_TURN / 2]
    if len(turned) < MIN_TILES:
        return None
    mode = math.atan2(np.sin(4 * turned).sum(), np.cos(4 * turned).sum()) / 4
    alike = np.abs(fold(angles - mode)) <= SAME_TURN
    if (abs(mode) < MIN_TURN or alike.sum() < max(MIN_TILES, MIN_SHARE * len(angles))
            or np.sum(np.abs(fold(turned - mode)) <= SAME_TURN) < MIN_ALIKE * len(turned)):
        return None
    # the mean of the tiles that share it, which the fourfold mean of all turned ones only approximates
    mode = float(mode + np.mean(fold(angles[alike] - mode)))
    return mode if abs(mode) >= MIN_TURN else None


def in_play_area(points: np.ndarray, rot: np.ndarray, size: int) -> np.ndarray:
    """Which ``points`` (x, y) of the square turned by ``rot`` show the play area, the table's own ``size`` square.

    Why: turned, the play area no longer fills its square; the square's
    corners show what lies beyond it (the table's rim, the floor, past the
    picture's edge the warp's black), where the detector sees some
    evidence of tiles. The table's own square never shows them.
    """
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if not len(points):
        return np.zeros(0, bool)
    back = cv2.perspectiveTransform(points.reshape(-1, 1, 2), np.linalg.inv(rot)).reshape(-1, 2)
    return np.all((back >= 0) & (back <= size), axis=1)


def evidence_in_play_area(evidence: np.ndarray, rot: np.ndarray, size: int, stride: int) -> np.ndarray:
    """The turned square's map of evidence of tiles (cell j about ``stride * j``) with every cell that does not
    show the play area (``in_play_area``) set to none.

    Why: the closer look detects a window around every cell with some
    evidence (``recognize._closer_window``), and evidence in the turned
    square's corners stretched it to the whole square: a few tiles lying
    turned at 1.8 cm cost a detection 1,200-1,400 pixels square, 150-250 ms
    of a still, where a window around them holds a tenth to a fifth of its
    pixels (docs/training.md, "The turned look kept to the play area").
    """
    ys, xs = np.mgrid[0:evidence.shape[0], 0:evidence.shape[1]]
    cells = stride * np.stack([xs.ravel(), ys.ravel()], axis=1)
    return np.where(in_play_area(cells, rot, size).reshape(evidence.shape), evidence, 0.0).astype(evidence.dtype)


def back_to_square(second: list[Seen], rot: np.ndarray, turn: float) -> list[Seen]:
    """Second-look tiles (found in the square turned by ``rot``) as tiles of the table's own square."""
    if not second:
        return []
    inv = np.linalg.inv(rot)
    c = cv2.perspectiveTransform(np.float64([[t.cx, t.cy] for t in second]).reshape(-1, 1, 2), inv).reshape(-1, 2)
    for t, (x, y) in zip(second, c):
        t.cx, t.cy, t.turn = float(x), float(y), turn
    return second


def merge(first: list[Seen], first_angles: np.ndarray, second: list[Seen], turn: float) -> list[Seen]:
    """The first look's tiles with those lying at ``turn`` replaced by the second look's outlines of them.

    ``first_angles``: the first look's lying tiles' slants in the square (in
    their order among ``first``). A second-look tile that lies on a square or
    standing tile of the first look is dropped (that tile was outlined
    right); one the first look missed is added. The others are taken in
    runs (``_runs``): second-look tiles and the turned first-look tiles they
    lie on, linked wherever one lies on another. A run in which the second
    look sees more tiles than the first replaces the first look's outlines
    of it whole. Why: in a row or a tray lying close at a slant, the first
    look's upright boxes each take in slices of two tiles, so every tile the
    second look outlines square lies on two of them, and a tile by tile rule
    kept the first look's boxes there and lost tiles (held-out photos of
    racks and trays turned 15-30 degrees, ``hand_103``, ``IMG_20231102_205344``:
    12 of 12 and 28 of 36 second-look tiles dropped; docs/training.md, "Rows
    at a slant outlined again"). In a run where the second look sees no
    more tiles than the first, the looks disagree on where tiles lie and the
    first stands, except where a second-look tile is centred on exactly one
    turned tile, which it replaces.

    Pieces give way (``_pieces``): a first-look outline that a second-look
    tile found ``SURER_TURNED`` more surely lies on, and that holds no more
    than ``PIECE`` of its area, joins that tile's run even where it lies
    square, and a run whose first-look outlines are such pieces on average
    is the second look's however many each look sees. Why: big tiles near 45
    degrees the first look outlines in pieces, faint and small, and a piece
    has no slant to measure, so it lies square; a second-look tile on one
    was dropped and where it lay on turned pieces the pieces' number stood
    (a held-out photo of eight flowers laid in two diamonds, 4.0 cm: 18
    outlines, 2-7 of 8 read on six mats; docs/training.md, "Pieces of tiles
    near 45 degrees give way"). Not to a second-look tile much larger than
    the look's others: tiles stacked overlapping, outlined as one by the
    second look, are tiles and not its pieces; and a standing tile, whose
    outline is its top, small beside a lying tile's, is no piece of one.
    """
    lying = [t for t in first if t.state != "standing"]
    turned_ids = {id(t) for t, a in zip(lying, first_angles) if abs(fold(a - turn)) <= SAME_TURN}
    xy = np.float64([[t.cx, t.cy] for t in first]).reshape(-1, 2)
    near = [np.nonzero(np.hypot(*(xy - (b.cx, b.cy)).T) < OVERLAPS * min(b.w, b.h))[0] for b in second]
    replaced: set[int] = set()
    added: list[int] = []
    typical = float(np.median([b.w * b.h for b in second])) if second else 0.0
    piece_of = lambda i, j: first[i].state != "standing" and _pieces([first[i]], [second[j]], typical)
    for firsts, seconds in _runs(near, [id(t) in turned_ids for t in first], piece_of):
        if (not firsts or len(seconds) > len(firsts)
                or _pieces([first[i] for i in firsts], [second[j] for j in seconds], typical)):
            replaced |= set(firsts)
            added += seconds
            continue
        for j in seconds:
            b, i = second[j], int(near[j][0])
            if (len(near[j]) == 1 and np.hypot(*(xy[i] - (b.cx, b.cy))) < SAME_TILE * min(b.w, b.h)
                    and i not in replaced):
                replaced.add(i)
                added.append(j)
    return [t for i, t in enumerate(first) if i not in replaced] + [second[j] for j in sorted(added)]


def _pieces(firsts: list[Seen], seconds: list[Seen], typical: float) -> bool:
    """Whether the first look's outlines are pieces of the second look's tiles: found ``SURER_TURNED`` less surely
    and no more than ``PIECE`` as large, on average, where those tiles are no larger than ``WHOLE`` of the second
    look's ``typical`` tile (a larger one may be two tiles outlined as one, and pieces of it the tiles)."""
    heat = np.mean([t.heat for t in seconds]) - np.mean([t.heat for t in firsts])
    seconds_area = np.mean([t.w * t.h for t in seconds])
    area = np.mean([t.w * t.h for t in firsts]) / seconds_area
    return bool(heat >= SURER_TURNED and area <= PIECE and seconds_area <= WHOLE * typical)


def _runs(near: list[np.ndarray], turned: list[bool], piece_of=lambda i, j: False) -> list[tuple[list[int], list[int]]]:
    """(first-look indices, second-look indices) of each run of tiles lying on one another.

    ``near[j]``: the first-look tiles second-look tile ``j`` lies on;
    ``turned[i]``: whether first-look tile ``i`` lies at the shared slant;
    ``piece_of(i, j)``: whether it is a piece of second-look tile ``j``. A
    second-look tile on any other first-look tile is in no run (that tile was
    outlined right); one on none is a run of its own.
    """
    n = len(turned)
    parent = list(range(n + len(near)))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    taken = [j for j, nb in enumerate(near) if all(turned[i] or piece_of(i, j) for i in nb)]
    for j in taken:
        for i in near[j]:
            parent[root(n + j)] = root(int(i))
    runs: dict[int, tuple[list[int], list[int]]] = {}
    for j in taken:
        runs.setdefault(root(n + j), ([], []))[1].append(j)
    for i in range(n):
        if root(i) in runs:
            runs[root(i)][0].append(i)
    return list(runs.values())
