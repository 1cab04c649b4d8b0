"""A play area found in the picture, drawn in to where the seats' tiles show it is.

Why: a mat whose colour is close to the table's (a dark mat on a dark wooden
table) cannot be told from it, and the area found is the table's: every
seat's rows then lie two to seven tile widths further in than a seat's zone
reaches, melds and revealed hands are counted as discards, and the tiles are
smaller in the top-down square than the detector reads best. On rendered
held-out scoring tables with the area found automatically, 2 or 3 tables in
16 were such, and a fifth of the seats went wrong with them (docs/table-setup.md).

The tiles say where the seats sit: each seat's nearest row lies about two
tile widths from its edge (a hand or standing row at the mat's edge). When
the typical seat's nearest row lies much further in, the area is drawn in
side by side to put it there. Only an area found in the picture is drawn
in (the mat's edges, or the corner markers, which lie at the mat's corners
with the seats' rows inside them): a calibration given is the player's word.
"""
from __future__ import annotations

import cv2
import numpy as np

from .calibration import Calibration
from .grouping import FRAMES, SIDES, Seen, unit_width

#: Where a seat's nearest row lies from its edge, in tile widths (rendered tables, calibration given: 0.6-2.2 at
#: a seat with its hand there; 3.5-4.4 where the nearest row is a seat's melds or a few tiles)
HAND_DEPTH_W = 2.0
#: The area is drawn in only when the seats' nearest rows lie deeper than this, in the median over the four
#: sides (calibration given: at most 2.9; the table's edge found: 4.9-7.8)
TOO_DEEP_W = 3.5
#: No side is drawn in by more than this many tile widths beyond the median side: a seat whose nearest row went
#: unseen must not lose it beyond the edge
SIDE_SPREAD_W = 1.0
ROW_TILES = 3  # a seat's nearest row: its third-nearest tile, so that one or two strays move nothing
ROW_BAND_W = 0.8  # tiles this much deeper than that are still the row
ROW_SPAN_W = 4.0  # a row this long (tile widths) gives its slant
MAX_SLANT = 0.3   # tile widths per width: a row more aslant than this is no row


def _nearest_rows(tiles: list[Seen], size: float) -> dict[str, np.ndarray] | None:
    """Per side, (u, v) in tile widths of the tiles nearest that edge (``grouping.FRAMES``: u along the edge from
    its middle, v from the edge); None if a side has too few."""
    unit = unit_width(tiles)
    d = np.float64([[t.cx, t.cy] for t in tiles]).reshape(-1, 2) - size / 2
    v = np.stack([size / 2 + d @ np.float64(FRAMES[side][0]) for side in SIDES], axis=1)
    nearest = v.argmin(1)
    rows = {}
    for k, side in enumerate(SIDES):
        mine = nearest == k
        if mine.sum() < ROW_TILES:
            return None
        rows[side] = np.stack([d[mine] @ np.float64(FRAMES[side][1]), v[mine, k]], axis=1) / unit
    return rows


def _depths(rows: dict[str, np.ndarray]) -> dict[str, float]:
    return {side: float(np.sort(uv[:, 1])[ROW_TILES - 1]) for side, uv in rows.items()}


def seat_depths(tiles: list[Seen], size: float) -> dict[str, float] | None:
    """How far each seat's nearest row lies from its edge of the square, in tile widths; None if a side has none."""
    rows = _nearest_rows(tiles, size)
    return None if rows is None else _depths(rows)


def _row_line(uv: np.ndarray, depth: float) -> tuple[float, float]:
    """The nearest row as ``v = at + slant * u`` (tile widths): a line where the row is long enough, else level.

    Why a line: where the area found was cut by the picture's edge, that
    side is the picture's and not square to the mat, and the rows run
    aslant of it; an edge drawn level left the row's ends at other depths.
    """
    row = uv[uv[:, 1] <= depth + ROW_BAND_W]
    if len(row) >= 4 and np.ptp(row[:, 0]) >= ROW_SPAN_W:
        slant = np.polyfit(row[:, 0], row[:, 1], 1)[0]
        if abs(slant) <= MAX_SLANT:
            return float(np.median(row[:, 1] - slant * row[:, 0])), float(slant)
    return depth, 0.0


def area_from_tiles(cal: Calibration, tiles: list[Seen], size: float) -> Calibration | None:
    """``cal`` drawn in to its tiles (outlines in its ``size`` square), or None when it fits them."""
    rows = _nearest_rows(tiles, size)
    if rows is None:
        return None
    depths = _depths(rows)
    if float(np.median(list(depths.values()))) <= TOO_DEEP_W:
        return None
    cap = float(np.median([max(0.0, d - HAND_DEPTH_W) for d in depths.values()])) + SIDE_SPREAD_W
    unit = unit_width(tiles)
    lines = {}
    for side, uv in rows.items():
        at, slant = _row_line(uv, depths[side])
        at = float(np.clip(at - HAND_DEPTH_W, 0.0, cap))
        f, r = (np.float64(a) for a in FRAMES[side])
        lines[side] = [size / 2 + u * unit * r + ((at + slant * u) * unit - size / 2) * f for u in (-1.0, 1.0)]
    order = ("bottom", "right", "top", "left")  # BL is where left meets bottom, then counter-clockwise
    corners = [_meet(lines[order[i - 1]], lines[order[i]]) for i in range(4)]
    square = np.float64(corners).reshape(-1, 1, 2)
    to_image = np.linalg.inv(cal.homography(int(size), 1.0))
    out = cv2.perspectiveTransform(square, to_image).reshape(4, 2)
    return Calibration(cal.image_size, tuple(map(tuple, out.tolist())))


def _meet(a: list[np.ndarray], b: list[np.ndarray]) -> np.ndarray:
    """Where the line through the two points ``a`` meets the one through ``b``."""
    da, db = a[1] - a[0], b[1] - b[0]
    t = np.linalg.solve(np.array([da, -db]).T, b[0] - a[0])
    return a[0] + t[0] * da
