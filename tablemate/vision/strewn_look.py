"""A look of its own at each tile lying at a slant of its own.

Why: ``turned_look`` outlines again the tiles that share one slant (a rack
or a row pushed askew). Discards strewn by players' hands lie each at a
slant of its own, and the detector, which learned tiles square to the play
area, boxes each of them upright. For a thick tile at 15-30 degrees that box
can be longer across the tile than along it, and then the outline's "up" is
a quarter off: ``straighten`` turns it by the tile's slant, but the crop
shows the tile lying crosswise with a third of its face cut off (a 4p read
as 2p, a 7p as 6p, a 7m as 3m). Warped into a small window turned by its own
slant, the tile lies square there, and the detector outlines it as it
learned to: which side is long and which way is up.

Tiles that touch a neighbour lying at their slant in line with one of their
sides are a row, and are left to ``turned_look`` and ``straighten``: looked
at one by one, a tile of a tight row at a slant is outlined over its
neighbour as often as not (held-out photos of racks at a slant: 2s read as
4s; docs/training.md, "Strewn tiles looked at one by one").
"""
from __future__ import annotations

import math

import numpy as np

from .grouping import Seen
from .turned_look import MIN_TURN, SAME_TURN, fold

#: A neighbour lying within ``SAME_TURN`` of a tile's slant, centred nearer than this many of the tile's lengths ...
TOUCHING = 0.95
#: ... in a direction this near one of the tile's sides, makes the two a row.
IN_LINE = math.radians(15.0)
#: The window's side (pixels) ...
WINDOW = 128
#: ... in which the tile's box is shown this long, enlarged at most ``MAX_ZOOM`` times.
SHOWN = 48.0
MAX_ZOOM = 4.0
#: At most this many tiles of a still are looked at one by one, the most turned first (about 5 ms each).
MAX_TILES = 16
#: A window's outline whose centre lies this near the window's middle (a share of its shorter side) is the tile.
SAME_TILE = 0.5
#: A tile at a slant left out above (one of a row) but read less surely than this is outlined in its own window
#: after all, and read from that outline where it reads surer there (``recognize._read_at_a_slant_again``).
UNSURE = 0.8
#: ... where it lies in line with at most this many of its neighbours at its slant (two discards pushed together).
ROW_OF_TWO = 1


def strewn(tiles: list[Seen], angles: np.ndarray) -> list[int]:
    """Indices of the tiles lying at a slant of their own (``angles``: each one's slant in the square, folded),
    the most turned first, at most ``MAX_TILES``."""
    angles, xy = np.asarray(angles, np.float64), _centres(tiles)
    out = [i for i, a in enumerate(angles) if abs(a) >= MIN_TURN and not _in_line(tiles, xy, angles, i).any()]
    return sorted(out, key=lambda i: -abs(angles[i]))[:MAX_TILES]


def _centres(tiles: list[Seen]) -> np.ndarray:
    return np.float64([[t.cx, t.cy] for t in tiles]).reshape(-1, 2)


def _in_line(tiles: list[Seen], xy: np.ndarray, angles: np.ndarray, i: int) -> np.ndarray:
    """Which tiles (centred at ``xy``) touch tile ``i`` lying at its slant in line with one of its sides (a row
    with it)."""
    d = xy - xy[i]
    a, t = angles[i], tiles[i]
    near = ((np.abs(fold(angles - a)) <= SAME_TURN) & (np.hypot(d[:, 0], d[:, 1]) < TOUCHING * max(t.w, t.h))
            & (np.abs(fold(np.arctan2(d[:, 1], d[:, 0]) - a)) <= IN_LINE))
    near[i] = False
    return near


def unsure_at_a_slant(tiles: list[Seen], angles: np.ndarray, sure: np.ndarray) -> list[int]:
    """Indices of the ``tiles`` lying at a slant (``angles``, folded, in the square), in line with at most one
    of them, and read less surely than ``UNSURE`` (``sure``), the least sure first, at most ``MAX_TILES``.

    Why: two discards pushed together at one slant count as a row for
    ``strewn`` and are left to ``straighten``, which keeps the detector's
    upright box and its "up": where that was a quarter off, the crop is
    cut across the tile and read unsurely as another face (a red dragon as
    N at 0.63, 7m as 3m). Its own window may outline it over its
    neighbour, so its reading there is only taken where it is surer (the
    caller). A tile with a neighbour in line on both sides is one of a
    longer row (a rack), which its window outlines over a neighbour surely.
    """
    angles, sure, xy = np.asarray(angles, np.float64), np.asarray(sure, np.float64), _centres(tiles)
    out = [i for i, a in enumerate(angles)
           if abs(a) >= MIN_TURN and sure[i] < UNSURE and _in_line(tiles, xy, angles, i).sum() <= ROW_OF_TWO]
    return sorted(out, key=lambda i: sure[i])[:MAX_TILES]


def window(t: Seen, angle: float) -> np.ndarray:
    """The homography from the play square to ``t``'s window: centred on it, turned by ``-angle`` so that it
    lies square, enlarged to show its box ``SHOWN`` long."""
    k = min(MAX_ZOOM, max(1.0, SHOWN / max(t.w, t.h)))
    c, s = k * math.cos(angle), k * math.sin(angle)
    return np.array([[c, s, WINDOW / 2 - (c * t.cx + s * t.cy)],
                     [-s, c, WINDOW / 2 - (-s * t.cx + c * t.cy)],
                     [0.0, 0.0, 1.0]])


def outline_again(t: Seen, seen: list[Seen], to_window: np.ndarray, angle: float) -> bool:
    """``t`` outlined (in place) as the lying tile ``seen`` in its window (``to_window``) outlines it, turned by
    ``angle`` in the square; False, and ``t`` kept, where none lies on the window's middle."""
    if not seen:
        return False
    d = min(seen, key=lambda d: math.hypot(d.cx - WINDOW / 2, d.cy - WINDOW / 2))
    if math.hypot(d.cx - WINDOW / 2, d.cy - WINDOW / 2) > SAME_TILE * min(d.w, d.h):
        return False
    k = math.hypot(to_window[0, 0], to_window[0, 1])
    x, y = np.linalg.solve(to_window[:2, :2], np.array([d.cx, d.cy]) - to_window[:2, 2])
    t.cx, t.cy, t.w, t.h, t.orient, t.turn, t.tilt = float(x), float(y), d.w / k, d.h / k, d.orient, float(angle), None
    return True
