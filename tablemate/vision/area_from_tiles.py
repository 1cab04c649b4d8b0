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
side by side: to the mat's own edge where the picture shows it between the
edge found and the row (a faint step of colour the mat finder's tolerance
did not tell apart), else to put the row two widths from the edge. A side
found short of the mat, cutting through a seat's row, moves out to the
mat's edge where the picture shows it beyond, or where the row hides that
edge, just far enough to leave the row whole. Big tiles make a table's rim
narrow, and an area found at the table's edge then leaves the rows only a
little deep: it is drawn in only where the mat's edge shows with a rim of
another hue beyond it. Where the typical seat's row lies as in an area found
right but one seat's lies too deep, or two opposite rows run aslant alike,
the sides the picture and the rows show wrong are set right one by one
(``_sides_set_right``). Only an area found in the
picture is moved (the mat's edges, or the corner markers, which lie at the
mat's corners with the seats' rows inside them): a calibration given is
the player's word.
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
#: Rows deeper than this (the median side, tile widths) but not ``TOO_DEEP_W`` may lie inside a table's narrow rim
#: (big tiles): a side is drawn in only to a mat's edge seen. Half a width more than the draw-in leaves them, so an
#: area drawn in is not drawn in again by chance
RIM_DEPTH_W = HAND_DEPTH_W + 0.5
#: ... and only where what the edge cuts off differs from the mat this much in hue (Lab a and b): rendered, a rim
#: 11-16 from the mat; a dark mat on a dark table 5-6 from it, whose "edges" were the outer ends of the rows' tiles
RIM_HUE = 8.0
#: No side is drawn in by more than this many tile widths beyond the median side: a seat whose nearest row went
#: unseen must not lose it beyond the edge
SIDE_SPREAD_W = 1.0
ROW_TILES = 3  # a seat's nearest row: its third-nearest tile, so that one or two strays move nothing
ROW_BAND_W = 0.8  # tiles this much deeper than that are still the row
ROW_SPAN_W = 4.0  # a row this long (tile widths) gives its slant
MAX_SLANT = 0.3   # tile widths per width: a row more aslant than this is no row
ON_ROW_W = 0.4    # a tile this far (tile widths) from a row's line is not in it
ASLANT_ROW_TILES = 6  # a row found aslant beyond the band by the edge needs this many tiles (half a hand)
#: The mat's edge is looked for from this far in from the area's edge (tile widths): the area's own edge, a
#: table's or the picture's, is a step of colour too
EDGE_NEAREST_W = 0.5
EDGE_ROW_GAP_W = 0.4  # ... to this far outside the nearest row's line (its tiles may reach the edge)
EDGE_SAMPLE_PX = 6.0  # along the line
EDGE_STEP_PX = 3.0    # the colours compared lie this far outside and inside the line
EDGE_SLANT_STEP = 0.01
EDGE_MIN_SEEN = 0.5  # a line is judged only where this share of it is seen (in the square when drawing in)
#: The median colour step (Lab) along a line that makes it the mat's edge (rendered dark mats on dark tables:
#: 4-10 at the true edge, under 1 elsewhere)
MIN_EDGE_STEP = 3.0
#: The colour inside the edge is the mat's, as it lies just outside the nearest row: within this Lab distance, and
#: within this share of the step (a table's own edge, further out, has the table inside it, near the mat's colour)
MAT_LIKE = 6.0
MAT_LIKE_SHARE = 0.5
#: A side whose nearest row lies nearer its edge than this (tile widths: its third-nearest tile) cuts the row; the
#: mat's edge is then looked for up to ``GROW_W`` beyond it, and the side moved out at least ``MIN_MOVE_W``
CUT_W = 0.35
GROW_W = 3.0
MIN_MOVE_W = 0.3
#: Where no mat's edge shows beyond a row the side cuts (the row hides it: big tiles laid at the mat's very edge),
#: the side moves out so that the row lies this deep (tile widths): a lying tile's middle, its outer end at the edge
CUT_ROW_TO_W = 0.6
#: The mat's colour is taken this far (tile widths) beside the row's line, past its tiles: on the edge's side when
#: drawing in, inside the row when moving out (its tiles cover the mat by the edge)
MAT_BESIDE_ROW_W = 1.2
#: A side drawn in (to its row, or to an edge seen) stops short of any tile found this surely nearer its edge,
#: leaving it ``CUT_ROW_TO_W`` deep: a seat's last concealed tile may lie at the mat's very edge, its melds further in
KEEP_HEAT = 0.5


def _by_side(tiles: list[Seen], size: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """(the side, an index into ``SIDES``, each tile lies nearest; each tile's (u, v) in tile widths from every
    side's edge, ``grouping.FRAMES``: u along the edge from its middle, v from the edge), shaped (tiles, sides, 2)."""
    d = np.float64([[t.cx, t.cy] for t in tiles]).reshape(-1, 2) - size / 2
    v = np.stack([size / 2 + d @ np.float64(FRAMES[side][0]) for side in SIDES], axis=1)
    u = np.stack([d @ np.float64(FRAMES[side][1]) for side in SIDES], axis=1)
    return v.argmin(1), np.stack([u, v], axis=2) / unit


def _nearest_rows(tiles: list[Seen], size: float) -> dict[str, np.ndarray] | None:
    """Per side, (u, v) in tile widths of the tiles nearest that edge; None if a side has too few."""
    nearest, uv = _by_side(tiles, size, unit_width(tiles))
    rows = {}
    for k, side in enumerate(SIDES):
        mine = nearest == k
        if mine.sum() < ROW_TILES:
            return None
        rows[side] = uv[mine, k]
    return rows


def _sure_nearest(tiles: list[Seen], size: float, unit: float) -> dict[str, np.ndarray]:
    """Per side, (u, v) in tile widths of the tiles nearest that edge that the detector was sure of (``KEEP_HEAT``)."""
    sure = [t for t in tiles if t.heat >= KEEP_HEAT]
    nearest, uv = _by_side(sure, size, unit)
    return {side: uv[nearest == k, k] for k, side in enumerate(SIDES)}


def _depths(rows: dict[str, np.ndarray]) -> dict[str, float]:
    return {side: float(np.sort(uv[:, 1])[ROW_TILES - 1]) for side, uv in rows.items()}


def seat_depths(tiles: list[Seen], size: float) -> dict[str, float] | None:
    """How far each seat's nearest row lies from its edge of the square, in tile widths; None if a side has none."""
    rows = _nearest_rows(tiles, size)
    return None if rows is None else _depths(rows)


def _row_line(uv: np.ndarray, depth: float) -> tuple[float, float] | None:
    """The nearest row as ``v = at + slant * u`` (tile widths) where the row is long enough; None where it is not
    (its side is then taken level, at the row's depth).

    Why a line: where the area found was cut by the picture's edge, that
    side is the picture's and not square to the mat, and the rows run
    aslant of it; an edge drawn level left the row's ends at other depths.
    A row far aslant leaves the band by the edge after a few tiles (a hand
    of 2.2 cm tiles, 0.2 widths deeper with every width along, had three
    tiles in it), so where the band holds no row long enough, the longest
    line through one of the nearest tiles counts, over the whole side.
    """
    band = uv[uv[:, 1] <= depth + ROW_BAND_W]
    line = _fitted(_longest_line(band), band)
    if line is None:
        line = _fitted(_longest_line(uv, anchors=np.argsort(uv[:, 1])[:ROW_TILES]), band, ASLANT_ROW_TILES)
    return line


def _fitted(row: np.ndarray, band: np.ndarray, fewest: int = 4) -> tuple[float, float] | None:
    """``row`` as (at, slant) where it has ``fewest`` tiles over ``ROW_SPAN_W`` and lies within ``MAX_SLANT``."""
    if len(row) < fewest or np.ptp(row[:, 0]) < ROW_SPAN_W:
        return None
    slant = np.polyfit(row[:, 0], row[:, 1], 1)[0]
    if abs(slant) > MAX_SLANT:
        return None
    # the line through the row, or through the band's second-nearest tile where a short row lies nearer
    at = min(np.median(row[:, 1] - slant * row[:, 0]), np.sort(band[:, 1] - slant * band[:, 0])[1])
    return float(at), float(slant)


def _longest_line(uv: np.ndarray, anchors: np.ndarray | None = None) -> np.ndarray:
    """The tiles of ``uv`` that lie on one line, the most of them that do (through one of ``anchors``, indices
    into ``uv``, if given).

    Why: near a seat's edge lie two rows, its hand and its melds. Where the
    hand is down to a tile or two, both fall in the band by the edge, and a
    line fitted through all of them ran aslant of both.
    """
    best = uv if anchors is None else uv[:0]  # unanchored, no line found: all of them, as before
    most = 0
    for i in range(len(uv)) if anchors is None else anchors:
        for j in range(len(uv)):
            if j == i or (anchors is None and j < i):
                continue
            du = uv[j, 0] - uv[i, 0]
            if abs(du) < 1.0 or abs(uv[j, 1] - uv[i, 1]) > MAX_SLANT * abs(du):
                continue
            off = uv[:, 1] - uv[i, 1] - (uv[:, 0] - uv[i, 0]) * (uv[j, 1] - uv[i, 1]) / du
            on = np.abs(off) <= ON_ROW_W
            if on.sum() > most:
                best, most = uv[on], int(on.sum())
    return best


def _mat_edge(lab: np.ndarray, pad: int, side: str, lo: float, hi: float, unit: float,
              mat_at: float) -> tuple[float, float] | None:
    """The mat's edge on ``side`` between depths ``lo`` and ``hi`` (tile widths from the side's edge of the square,
    negative outside it), as (depth, slant), or None where no edge shows.

    ``lab``: the square in CIE Lab with ``pad`` pixels of the picture around
    it (NaN where the picture ends). The mat's colour is the inner side's
    along the line at depth ``mat_at`` (beside the seat's row).

    Why: the tiles only say roughly where the mat ends (a seat's nearest row
    lies 0.6 to 2.2 widths in from it, and at 3.5 cm a seat's melds were
    lost to its zone over a quarter of a width), but a mat close to the
    table's colour is still a step of colour along a straight line. Every
    line parallel-ish to the edge in the range is scored by the colour step
    across it, the median step along the line so that tiles, shadows and
    texture crossing it do not count; the strongest line is the edge when
    its step is clear and the colour inside it is the mat's.
    """
    es = np.arange(lo * unit, hi * unit, 2.0)  # every other pixel, then refined
    if len(es) == 0:
        return None
    slants = np.arange(-MAX_SLANT, MAX_SLANT + 1e-9, 3 * EDGE_SLANT_STEP)
    outward = lo < 0
    def mat(a: float) -> np.ndarray:
        return _inner_colour(lab, pad, side, mat_at * unit, a, outward)
    coarse = [(*_line_steps(lab, pad, side, es, mat(a), a, outward), a) for a in slants]
    step, e, slant = max(coarse, key=lambda c: c[0])
    near = np.arange(e - 1.0, e + 1.5, 1.0)
    fine = [(*_line_steps(lab, pad, side, near, mat(a), a, outward), a)
            for a in (slant - EDGE_SLANT_STEP, slant, slant + EDGE_SLANT_STEP)]
    step, e, slant = max(fine + [(step, e, slant)], key=lambda c: c[0])
    if step < MIN_EDGE_STEP:
        return None
    return e / unit, float(slant)


def _line_samples(lab: np.ndarray, pad: int, side: str, es: np.ndarray, slant: float, beyond: bool = False):
    """(the colours just outside, just inside, the number seen) along the lines at depths ``es`` px; only where
    both lie in the square, or with ``beyond`` anywhere in the picture around it."""
    size = lab.shape[0] - 2 * pad
    f, r = (np.float64(a) for a in FRAMES[side])
    us = np.arange(-0.45 * size, 0.45 * size, EDGE_SAMPLE_PX)
    v = es[:, None] + slant * us[None, :]
    pts = pad + size / 2 + us[None, :, None] * r + (v - size / 2)[:, :, None] * f
    full = lab.shape[0]
    po, pi = pts - EDGE_STEP_PX * f, pts + EDGE_STEP_PX * f
    lo, hi = (0, full - 1) if beyond else (pad, pad + size - 1)
    seen = np.all((po >= lo) & (po <= hi) & (pi >= lo) & (pi <= hi), axis=-1)
    po, pi = np.rint(po).astype(np.int32).clip(0, full - 1), np.rint(pi).astype(np.int32).clip(0, full - 1)
    o, i = lab[po[..., 1], po[..., 0]], lab[pi[..., 1], pi[..., 0]]
    seen &= ~(np.isnan(o).any(-1) | np.isnan(i).any(-1))  # beyond the picture's edge
    nan = np.full(3, np.nan, np.float32)
    return np.where(seen[..., None], o, nan), np.where(seen[..., None], i, nan), seen.sum(1)


def _inner_colour(lab: np.ndarray, pad: int, side: str, e: float, slant: float, beyond: bool) -> np.ndarray:
    _, inner, n = _line_samples(lab, pad, side, np.float64([e]), slant, beyond)
    return _median_along(inner, n)[0]


def _line_steps(lab: np.ndarray, pad: int, side: str, es: np.ndarray, mat: np.ndarray,
                slant: float, outward: bool = False) -> tuple[float, float]:
    """(the clearest colour step among the lines at depths ``es`` px with this slant whose inner side is the
    ``mat`` colour, its depth).

    ``outward``: the lines lie beyond a row the area cuts, whose tiles cover
    part of the inner side; there the inner side need only be far nearer
    the mat's colour than the outer side is.
    """
    outer, inner, n = _line_samples(lab, pad, side, es, slant, beyond=outward)
    enough = n >= EDGE_MIN_SEEN * outer.shape[1]
    if not enough.any() or np.isnan(mat).any():
        return 0.0, float(es[0])
    step = np.linalg.norm(_median_along(outer - inner, n), axis=1)
    # the inner side is the mat: a table's edge further out is a step too, with the table inside it
    unlike = np.linalg.norm(_median_along(inner, n) - mat, axis=1)
    if outward:
        mat_inside = unlike < MAT_LIKE_SHARE * np.linalg.norm(_median_along(outer, n) - mat, axis=1)
    else:
        mat_inside = unlike < np.minimum(MAT_LIKE, MAT_LIKE_SHARE * step)
    step[~enough | ~mat_inside] = 0.0
    k = int(np.argmax(step))
    return float(step[k]), float(es[k])


def _median_along(a: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Per row of ``a`` (rows, samples, channels), the median of its first ``n`` valid samples (NaN sorts last)."""
    a = np.sort(a, axis=1)
    rows = np.arange(len(a))
    lo, hi = np.maximum(n - 1, 0) // 2, np.maximum(n, 1) // 2
    return (a[rows, lo] + a[rows, hi]) / 2


def area_from_tiles(cal: Calibration, tiles: list[Seen], size: float, image: np.ndarray | None = None,
                    scale: float = 1.0) -> Calibration | None:
    """``cal`` drawn in (or out) to its tiles (outlines in its ``size`` square), or None when it fits them.

    ``image``: the picture the square was warped from (``scale`` = its size /
    the calibration's); where it shows the mat's own edge, the side is moved
    there: drawn in, between the edge found and a seat's nearest row, when
    the seats' rows lie too deep; moved out, beyond a row the edge found
    cuts through, when the mat's edge shows further out.
    """
    rows = _nearest_rows(tiles, size)
    if rows is None:
        return None
    depths = _depths(rows)
    unit = unit_width(tiles)
    pad = int(round(GROW_W * unit)) + 4
    median = float(np.median(list(depths.values())))
    cut = min(depths.values()) < CUT_W
    fits = {side: _row_line(uv, depths[side]) for side, uv in rows.items()}  # each seat's nearest row, or None
    lines = {side: fit or (depths[side], 0.0) for side, fit in fits.items()}
    wrong = any(d > TOO_DEEP_W for d in depths.values()) or bool(_turned_pair(lines))
    if median <= TOO_DEEP_W and (image is None or (not cut and median <= RIM_DEPTH_W and not wrong)):
        return None
    lab = None if image is None else _padded_lab(image, cal, size, scale, pad)
    if lab is not None:
        lines = _slanted_as_the_facing_row(lines, fits, rows, lab, pad, unit)
    if median <= TOO_DEEP_W:
        if cut:
            return _moved_out(cal, lines, depths, size, unit, lab, pad)
        if median > RIM_DEPTH_W:
            edges = {side: _rim_edge(lab, pad, side, line, unit) for side, line in lines.items()}
            if any(edges.values()):
                return _drawn_in(cal, lines, depths, size, unit, edges, tiles)
        return _sides_set_right(cal, lines, depths, size, unit, lab, pad, tiles)
    edges = {side: None if lab is None else _seen_edge(lab, pad, side, at, unit) for side, (at, _) in lines.items()}
    return _drawn_in(cal, lines, depths, size, unit, edges, tiles)


def _slanted_as_the_facing_row(lines: dict[str, tuple[float, float]], fits: dict[str, tuple[float, float] | None],
                               rows: dict[str, np.ndarray], lab: np.ndarray, pad: int,
                               unit: float) -> dict[str, tuple[float, float]]:
    """``lines`` with a side whose row gives no line of its own (``fits``: ``_row_line``'s) slanted as the facing
    side's row, where both sides are the picture's edges and that row runs aslant (``BORDER_TURN``).

    Why: an area found reaching past the picture at two opposite sides (a
    dark mat on a dark table, the table found for the mat) has those sides
    along the picture's edges, which say nothing of which way the mat lies;
    only the rows do. A seat whose nearest row is short (a hand of four
    tiles before its melds) gives no line, and its side was drawn in level:
    on rendered held-out table 758 (3.0 cm) the mat lay turned 8 degrees
    in the picture, the top row ran 0.13 widths per width aslant and was
    followed, the bottom side stayed level, and the bottom seat's kong and
    wall, aslant of it, were counted as nobody's. The picture's two edges
    are parallel, and so are the mat's edges between them: what one row's
    slant says of the mat holds for the other side. Its line runs through
    its third-nearest tile, as a seat's depth is measured.
    """
    out = dict(lines)
    for side, facing in OPPOSITE.items():
        if fits[side] is not None or fits[facing] is None:
            continue
        slant = fits[facing][1]
        if abs(slant) < BORDER_TURN:
            continue
        if not (_beyond_the_picture(lab, pad, side, unit) and _beyond_the_picture(lab, pad, facing, unit)):
            continue
        uv = rows[side]
        out[side] = (float(np.sort(uv[:, 1] - slant * uv[:, 0])[ROW_TILES - 1]), slant)
    return out


def _seen_edge(lab: np.ndarray, pad: int, side: str, at: float, unit: float) -> tuple[float, float] | None:
    """The mat's edge seen between ``side``'s edge and its nearest row at depth ``at`` (tile widths), or None."""
    return _mat_edge(lab, pad, side, EDGE_NEAREST_W, at - EDGE_ROW_GAP_W, unit,
                     max(EDGE_NEAREST_W, at - MAT_BESIDE_ROW_W))


def _edge_by_the_mat_inside(lab: np.ndarray, pad: int, side: str, at: float, unit: float,
                            lo: float = EDGE_NEAREST_W) -> tuple[float, float] | None:
    """As ``_seen_edge`` from depth ``lo``, the mat's colour taken inside the row: a row at the mat's very edge
    has the table or a rim beside it on the edge's side."""
    return _mat_edge(lab, pad, side, lo, at - EDGE_ROW_GAP_W, unit, at + MAT_BESIDE_ROW_W)


def _sides_set_right(cal: Calibration, lines: dict[str, tuple[float, float]], depths: dict[str, float],
                     size: float, unit: float, lab: np.ndarray, pad: int, tiles: list[Seen]) -> Calibration | None:
    """``cal`` with the sides its seats' rows show wrong set right, one by one; None when none is.

    A side whose nearest row lies deeper than ``TOO_DEEP_W`` is drawn in to
    the mat's edge where the picture shows it between the two. Why: a dark
    mat on a nearly black table, the picture's edge cutting the area found
    at two sides and the table's edge found at the other two (rendered
    held-out table 140, 3.5 cm): two seats' rows lay 4.4 and 5.0 widths in,
    the other two 2.5, and the median side passed for an area found right;
    the deep seats' hands were read as nobody's. A seat's nearest row may lie
    that deep in an area found right (its melds, its hand standing unseen),
    so such a side moves only to an edge the picture shows. The mat's colour
    is taken outside the row, as when the whole area is drawn in, or else
    inside it: a hand laid at the mat's very edge has the table beside it.
    The edge must run nearly along the side (``DEEP_EDGE_SLANT``): a table
    is laid square to its mat, and where the area found right has a seat's
    melds deep in (rendered held-out table 31 over the range), a line of
    colour seen far aslant across the seat's part of the mat is no edge.
    Nor is one with a tile found surely outside it (tiles lie on the mat):
    there the line ran along the outer ends of a seat's melds, with its one
    concealed tile nearer the edge.

    A side along the picture's edge (``_beyond_the_picture``) moves to the
    mat's edge where the picture shows one running aslant of it, from up to
    ``GROW_W`` beyond it to the row. Why: such a side is the picture's, and
    says nothing of where the mat is or which way it lies (rendered held-out
    tables 167 and 172, 4.0 cm: a mat turned 10 degrees in the picture, its
    top and bottom corners just out of view; the hands' far ends were read as
    nobody's or as another seat's melds). An edge seen square to the side
    moves nothing: there the side may be as good as the mat's (a mat
    reaching past the picture), and the outer ends of a row of tiles are
    such an edge too.

    A deep side that shows no edge, opposite one moved to an edge seen, moves
    in as far as that one did, its row left as deep. Why: during play (turn
    benchmark, 4.0 cm, sequence 11 frame 8) a dark mat on a near-black table
    had the table's edge found for the mat's at the left and right, both rows
    four widths in; the right side moved to the mat's edge, the left one saw
    none, and a discard beside the left hand was counted at the top seat. A
    mat is laid in the middle of its table, its rims alike wide.

    Two opposite sides whose rows both run aslant of them, alike
    (``_turned_pair``), are turned to run along their rows, drawn in to two
    widths beyond them where they lie deeper (``HAND_DEPTH_W``). Why: on that
    table the two other sides were the picture's, square to it and not to
    the mat, which lay turned 11 degrees in it; a hand's far end lay two
    widths deeper than its near end, and its last tiles were read as
    nobody's. Rows run along their edges in an area found right, within a
    few degrees (the players' hands are not ruled), and a turned area turns
    the opposite rows alike.

    Where a side was set right, a side with a corner out of the picture
    whose row alone runs as far aslant of it (not along the picture's edge)
    is turned along its row the same way. Why: a corner out of view was
    never seen, the mat finder's outline ran off the picture there and the
    side was fitted to the clipped outline (rendered held-out table 734,
    3.0 cm: the floor beyond a dim rim taken into the mat, the right corners
    out of view; the right side was drawn in to the mat's edge, but the
    bottom kept the floor's slope, its hand 0.24 widths deeper with every
    width along and its far end outside the area). A lone row so far aslant
    of a side whose corners were seen is a hand pushed askew, and nothing
    moves (rendered table 27, drawn typeface, 2.2 cm: a right seat's row
    0.27 aslant of a side found right).
    """
    out = {side: (0.0, 0.0) for side in SIDES}
    moved = False
    sure = _sure_nearest(tiles, size, unit)
    for side, (at, _) in lines.items():
        if depths[side] <= TOO_DEEP_W:
            continue
        # the mat's colour outside the row, else (only then looked for) inside it
        edges = (find(lab, pad, side, at, unit) for find in (_seen_edge, _edge_by_the_mat_inside))
        edge = next((e for e in edges if e is not None and abs(e[1]) <= DEEP_EDGE_SLANT
                     and not _beyond(sure[side], *e)), None)
        if edge is not None:
            out[side], moved = edge, True
    for side, (at, _) in lines.items():
        if out[side] == (0.0, 0.0) and _beyond_the_picture(lab, pad, side, unit):
            edge = _edge_by_the_mat_inside(lab, pad, side, at, unit, lo=-GROW_W)
            if edge is not None and abs(edge[1]) >= BORDER_TURN:
                out[side], moved = edge, True
    edged = dict(out)  # the sides moved to an edge the picture shows
    for side, (at, slant) in lines.items():
        facing = OPPOSITE[side]
        if out[side] == (0.0, 0.0) and depths[side] > TOO_DEEP_W and depths[facing] > TOO_DEEP_W \
                and edged[facing] != (0.0, 0.0):
            out[side], moved = (max(0.0, at - (lines[facing][0] - edged[facing][0])), slant), True
    for side in _turned_pair(lines):
        if out[side] == (0.0, 0.0):
            at, slant = lines[side]
            out[side], moved = (max(0.0, at - HAND_DEPTH_W), slant), True
    if moved:  # the area was found wrong at a side: one fitted to an outline clipped by the picture may be too
        for side, (at, slant) in lines.items():
            if out[side] == (0.0, 0.0) and abs(slant) >= TURNED_SLANT and _corner_unseen(cal, side) \
                    and not _beyond_the_picture(lab, pad, side, unit):
                out[side] = (max(0.0, at - HAND_DEPTH_W), slant)
    if not moved:
        return None
    return _area(cal, {side: _short_of(sure[side], at, slant) for side, (at, slant) in out.items()}, size, unit)


OPPOSITE = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}


def _corner_unseen(cal: Calibration, side: str) -> bool:
    """Whether either corner of ``side`` lies out of the picture ``cal`` was found in (its corners BL, BR, TR, TL
    follow ``SIDES``: side k runs from corner k to corner k + 1)."""
    w, h = cal.image_size
    k = SIDES.index(side)
    return any(not (0.0 <= x <= w and 0.0 <= y <= h) for x, y in (cal.corners[k], cal.corners[(k + 1) % 4]))


def _beyond(sure: np.ndarray, at: float, slant: float) -> bool:
    """Whether any of the ``sure`` tiles (u, v) lies with its middle outside the line ``v = at + slant * u``."""
    return bool(len(sure)) and bool(np.any(sure[:, 1] < at + slant * sure[:, 0]))


#: A side whose row lies too deep moves only to a mat's edge seen at most this aslant of it (tile widths per width)
DEEP_EDGE_SLANT = 0.1
#: A side along the picture's edge moves to a mat's edge seen at least this aslant of it (tile widths per width)
BORDER_TURN = 0.05


def _beyond_the_picture(lab: np.ndarray, pad: int, side: str, unit: float) -> bool:
    """Whether most of what lies just outside ``side`` is beyond the picture: the side is the picture's edge."""
    outer, _, n = _line_samples(lab, pad, side, np.float64([-0.5 * unit]), 0.0, beyond=True)
    return int(n[0]) < 0.5 * outer.shape[1]


#: Two opposite sides whose rows both run at least this aslant of them (tile widths per width; 0.15 is 8.5
#: degrees), the slants at most ``TURN_AGREE`` apart, lie turned against the mat
TURNED_SLANT = 0.15
TURN_AGREE = 0.07


def _turned_pair(lines: dict[str, tuple[float, float]]) -> list[str]:
    """The sides of the opposite pairs whose rows (``_row_line``'s lines) run aslant of them alike.

    A turn of the area against the mat slants every side's row the same way
    in its own frame (``grouping.FRAMES``); a camera's perspective slants
    opposite rows opposite ways, and a row pushed askew slants one.
    """
    turned = []
    for a, b in (("bottom", "top"), ("left", "right")):
        sa, sb = lines[a][1], lines[b][1]
        if min(abs(sa), abs(sb)) >= TURNED_SLANT and sa * sb > 0 and abs(sa - sb) <= TURN_AGREE:
            turned += [a, b]
    return turned


def _drawn_in(cal: Calibration, lines: dict[str, tuple[float, float]], depths: dict[str, float], size: float,
              unit: float, edges: dict[str, tuple[float, float] | None], tiles: list[Seen]) -> Calibration:
    """``cal`` with each side drawn in to its mat's edge found (``edges``), else to two widths beyond its row
    (``lines``: ``_row_line``'s) but short of the tiles found surely nearer its edge (``_sure_nearest``)."""
    sure = _sure_nearest(tiles, size, unit)
    cap = float(np.median([max(0.0, d - HAND_DEPTH_W) for d in depths.values()])) + SIDE_SPREAD_W
    out = {side: edges[side] or (float(np.clip(at - HAND_DEPTH_W, 0.0, cap)), slant)
           for side, (at, slant) in lines.items()}
    return _area(cal, {side: _short_of(sure[side], at, slant) for side, (at, slant) in out.items()}, size, unit)


def _short_of(sure: np.ndarray, at: float, slant: float) -> tuple[float, float]:
    """The line ``v = at + slant * u`` moved out, if need be, to leave the ``sure`` tiles (u, v) inside it.

    Why: the row a side is drawn in to is its third-nearest tile's (one or two
    strays must not move it), and a seat with four melds and one concealed
    tile, that tile at the mat's very edge and the melds three or four widths
    in, lost its tile beyond the edge and its melds were read as its hand
    (rendered held-out table 124, 2.2 cm, area found). An edge found between
    the area's edge and the row may be a shading of the mat, not its edge,
    and cut a tile off as well. A tile the detector is sure of stays
    ``CUT_ROW_TO_W`` inside; a faint outline on a table's rim moves nothing.
    """
    if len(sure):
        at = min(at, float(np.min(sure[:, 1] - slant * sure[:, 0])) - CUT_ROW_TO_W)
    return max(at, 0.0), slant


def _rim_edge(lab: np.ndarray, pad: int, side: str, line: tuple[float, float],
              unit: float) -> tuple[float, float] | None:
    """The mat's edge between ``side`` and its nearest row (``line``: ``_row_line``'s) with a rim of another hue
    beyond it, or None.

    Why: with big tiles (4 cm on 85 cm) a table's rim is only two or three
    tile widths wide, so an area found at the table's edge leaves the seats'
    rows less deep than ``TOO_DEEP_W`` says an area too large does (rendered:
    2.2-3.8 widths against at most 2.9 with the calibration given). Rows that
    deep are also where players may sit, so such an area is drawn in only
    where an edge shows: inside an area found right, none does. The mat's
    colour is taken inside the row, which may lie at the mat's very edge with
    the rim beside it, and what the edge cuts off must differ from it clearly
    in hue (``RIM_HUE``): a lamp's falloff moves a mat's lightness by 30 or
    more across it, and on a dark mat of nearly a dark table's hue the outer
    ends of the rows' tiles passed for its edge.
    """
    at, slant = line
    edge = _edge_by_the_mat_inside(lab, pad, side, at, unit)
    if edge is None:
        return None
    mat = _inner_colour(lab, pad, side, (at + MAT_BESIDE_ROW_W) * unit, slant, False)
    beyond = _inner_colour(lab, pad, side, edge[0] / 2 * unit, edge[1], False)
    return edge if np.linalg.norm((beyond - mat)[1:]) > RIM_HUE else None


def _moved_out(cal: Calibration, lines: dict[str, tuple[float, float]], depths: dict[str, float], size: float,
               unit: float, lab: np.ndarray, pad: int) -> Calibration | None:
    """``cal`` with each side whose nearest row (``lines``: ``_row_line``'s) it cuts through moved out to the mat's
    edge, where that shows; None when no side moves.

    Why: a mat found by its colour can come out short on one side (a lamp's
    falloff taking its far part out of the colour tolerance, the picture's
    edge), and a row of tiles that reaches past the area is cut: its outer
    tiles are not detected, or half of them. An edge seen in the picture
    moves a side out to it. Where none shows, the row itself may hide it:
    big tiles (4 cm on 85 cm) laid at the mat's very edge cover it, and the
    mat found ran along the row's inner side, through its tiles (rendered,
    a seat lost in one table of eight). The side then moves out only so far
    as to leave the row whole (``CUT_ROW_TO_W``): a row may well lie at the
    mat's very edge.
    """
    out = {side: (0.0, 0.0) for side in SIDES}
    moved = False
    for side, (at, slant) in lines.items():
        if depths[side] >= CUT_W:
            continue
        # the mat's colour just inside the row, as the light falls on it there
        edge = _mat_edge(lab, pad, side, -GROW_W, min(at - EDGE_ROW_GAP_W, 0.0), unit, at + MAT_BESIDE_ROW_W)
        if edge is not None and edge[0] < -MIN_MOVE_W:
            out[side], moved = edge, True
        elif edge is None:
            out[side], moved = (at - CUT_ROW_TO_W, slant), True
    return _area(cal, out, size, unit) if moved else None


def _padded_lab(image: np.ndarray, cal: Calibration, size: float, scale: float, pad: int) -> np.ndarray:
    """The square in CIE Lab with ``pad`` pixels of the picture around it, NaN where the picture ends."""
    shift = np.float64([[1, 0, pad], [0, 1, pad], [0, 0, 1]])
    hom = shift @ cal.homography(int(size), scale)
    full = int(size) + 2 * pad
    square = cv2.warpPerspective(image, hom, (full, full), flags=cv2.INTER_AREA)
    seen = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), hom, (full, full), flags=cv2.INTER_NEAREST)
    lab = cv2.cvtColor(cv2.GaussianBlur(square, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    # the warp blends the picture's last pixels with the black beyond it, and the blur spreads that: a false step
    lab[cv2.erode(seen, np.ones((11, 11), np.uint8)) == 0] = np.nan
    return lab


def _area(cal: Calibration, lines: dict[str, tuple[float, float]], size: float, unit: float) -> Calibration:
    """``cal`` with each side on its line ``v = at + slant * u`` (tile widths, ``grouping.FRAMES``)."""
    pts = {}
    for side, (at, slant) in lines.items():
        f, r = (np.float64(a) for a in FRAMES[side])
        pts[side] = [size / 2 + u * unit * r + ((at + slant * u) * unit - size / 2) * f for u in (-1.0, 1.0)]
    order = ("bottom", "right", "top", "left")  # BL is where left meets bottom, then counter-clockwise
    corners = [_meet(pts[order[i - 1]], pts[order[i]]) for i in range(4)]
    to_image = np.linalg.inv(cal.homography(int(size), 1.0))
    out = cv2.perspectiveTransform(np.float64(corners).reshape(-1, 1, 2), to_image).reshape(4, 2)
    return Calibration(cal.image_size, tuple(map(tuple, out.tolist())))


def _meet(a: list[np.ndarray], b: list[np.ndarray]) -> np.ndarray:
    """Where the line through the two points ``a`` meets the one through ``b``."""
    da, db = a[1] - a[0], b[1] - b[0]
    t = np.linalg.solve(np.array([da, -db]).T, b[0] - a[0])
    return a[0] + t[0] * da
