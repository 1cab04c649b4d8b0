"""From tiles found on the top-down table to seats: sides, rows, melds, hands.

Why pure geometry: these are table conventions (docs/table-setup.md), not something to
learn. Everything here works on ``Seen`` tiles in the rectified top-down
square, so it can be tested from ground-truth positions without any model.

Rules, in tile widths W (the median short side of the lying tiles):

- side: the nearest table edge; distance v from that edge, position u along
  the seat's right hand.
- tiles stand only within a seat's zone: one seen standing further in is a
  lying tile the detector got wrong, laid down to be read
  (``lay_down_centre_tiles``, before reading).
- within 6.5 W of an edge is the seat's zone; beyond it, face-up tiles are
  discards and face-down tiles are the wall.
- zone rows: tiles clustered by v. The row nearest the edge is the revealed
  hand (unless the seat's hand stands), rows further in are meld rows; a
  lone row counts as the hand row only if it lies within 3 W of the edge.
  When the hand stands, a tile seen lying in the standing row (within
  0.8 W of its v) or between it and the edge is part of that hand seen
  wrong (the standing tiles' sides and tops): ``hand``, no meld, since
  melds are laid in front of the standing tiles. For the same reason an
  outline seen standing further in than the middle of the seat's face-up
  tiles (by more than 0.8 W; three of them at least) is no standing hand:
  the near side of the wall seen at a slant, which had hidden a revealed
  hand and its melds.
- hand row: the rightmost tile (as the seat sees it) set apart by at least
  0.35 W is the winning tile.
- meld row: groups split by gaps of at least 0.25 W; bonus tiles are
  flowers (but an unsure one, or one lying across like a claimed tile,
  touching tiles that make no meld without it is read as its next choice
  when that makes them melds; one lying across, or in a run of three or
  four whose other tiles make no meld, stays with its run as one of its
  tiles, never a flower); a group
  must be a chow, pung, kong or a concealed kong (two
  backs, two equal faces), or split exactly into such melds; otherwise its
  tiles are ``unknown`` but keep a group number of their own (the turn
  tracker counts them as laid out even when they are misread).
- in a corner, a tile belongs to the seat whose row it continues, a flower
  or season to the seat that reads it upright (``_corner_tiles_join_their_row``).
- discards belong to the seat whose edge they lie in front of; within 1 W of
  a diagonal, to the seat they face (their upright direction). A face-up
  tile more than 4.5 W to the side of that seat's axis is in no row of six
  and is no discard (``unknown``); nor is one in line with the wall (two
  wall stacks, or tiles found so, within 2.2 W along it, less than 0.35 W
  off its line): the wall rings the discards, so that is a wall tile taken
  for face up.
  Discards are ordered row by row from the centre out, left to right.
  With big tiles on a small table a seat's last discard row can lie within
  its zone or reach: a row of at most six faces, each in a column of the
  discards beyond, one row (0.9-1.9 W) in front of them, is discards
  (``discard_rows_within_reach``), within the zone only if it makes no
  melds as read or goes on beyond the reach.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from tablemate.rules.tiles import Tile

from .contract import ORIENT_VECTORS

SIDES = ("bottom", "right", "top", "left")
#: Inward normal (towards the centre) and the seat's right hand, in the top-down image (y down).
FRAMES = {
    "bottom": ((0.0, -1.0), (1.0, 0.0)),
    "right": ((-1.0, 0.0), (0.0, -1.0)),
    "top": ((0.0, 1.0), (-1.0, 0.0)),
    "left": ((1.0, 0.0), (0.0, 1.0)),
}
#: Orientation class (where the face's top points: up, right, down, left) -> the side reading it upright.
ORIENT_SIDE = {0: "bottom", 3: "right", 2: "top", 1: "left"}

ZONE_W = 6.5
HAND_ROW_MAX_W = 3.0
#: A seat whose only row shows at most this many faces shows a meld, not a hand (``_shows_melds_only``).
MELD_MAX = 4
ROW_SPLIT_W = 0.8
#: Lying tiles nearer the standing row than this (tile widths, centre to centre) are standing tiles seen wrong.
#: Why not ROW_SPLIT_W: a standing tile is a thickness deep (0.6-0.75 W), so a tile lying in its row is centred
#: within about 0.35 W of it, while a meld laid touching it in front is centred a thickness and a half-length
#: (about 1 W) away; with large tiles on a small table players keep the two that close (render.layout).
STANDING_ROW_W = 0.6
#: ... and only beside standing tiles: within this many tile widths of one along the row (``_in_standing_row``).
STANDING_NEAR_U = 1.5
#: How far in front of its standing row a seat's melds reach (centre to centre, tile widths): a meld is laid up to
#: 1.7 tile lengths further in than the hand stands (render.layout), 2.3 widths, outlines stray a little, and an
#: area found too large, cut by the picture's edge, stretches the square across the edge (3.1 widths seen at 2.2 cm).
MELD_REACH_W = 3.5
ROW_SLANT_SPAN_W = 4.0  # a standing row shorter than this (tile widths) gives its distance, not its slant
ROW_SLANT_MAX = 0.25    # tile widths per tile width: rows are never more aslant of their edge than this
WIN_GAP_W = 0.35
MELD_GAP_W = 0.25
JOIN_GAP_W = 0.6  # two runs this near that make melds only together are one (a claimed tile's outline a little short)
DISCARD_ROW_HALF_W = 4.5
DIAGONAL_W = 1.0
WALL_LINE_W = 0.35
WALL_BESIDE_W = 2.2
#: A discard row's next row lies 1.06 tile lengths further out (render.layout), 1.3-1.55 W for tiles 1.25-1.45 W
#: long, outlines straying a little; and its tiles lie in the same columns, within this many widths along the row.
DISCARD_PITCH_W = (0.9, 1.9)
DISCARD_COLUMN_W = 0.35


@dataclass
class Seen:
    """One tile in the top-down square: centre, size across/along its 'up', orientation class, state."""
    cx: float
    cy: float
    w: float
    h: float
    orient: int
    state: str                 # "face_up", "face_down" or "standing"
    code: str = "back"
    confidence: float = 1.0
    side: str = ""
    role: str = "unknown"
    group: int = 0
    u: float = 0.0
    v: float = 0.0
    #: The reader's next-best readings [(code, probability), ...], best first (empty without a reader).
    alternatives: tuple = ()
    #: How far the tile lies turned in its box (radians, ``vision.straighten``), measured once per tile:
    #: the angle is the same in every picture of it and after a quarter turn, and reading asks for it often.
    tilt: float | None = None
    #: How sure the detector was that a tile lies here (its heatmap peak); ``confidence`` becomes the reading's.
    heat: float = 1.0
    #: How far (radians) the tile's outline is turned in the square: 0 but for tiles a second look found
    #: lying square in the square turned by this (``vision.turned_look``); ``w``/``h`` are then its own.
    turn: float = 0.0
    #: (orient, w, h) as the detector outlined the tile, kept when a reading turns it a quarter
    #: (``recognize._reread_sideways``): a hand tile turned so is read again its owner's way.
    detected: tuple | None = None

    def extent_u(self, side: str) -> float:
        """Extent along the seat's row direction."""
        r = np.array(FRAMES[side][1])
        up = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]][self.orient], float)
        return self.h if abs(up @ r) > 0.7 else self.w


def outline_axes(t: Seen) -> tuple[np.ndarray, np.ndarray]:
    """The outline's unit up and right in the square (its orientation, turned by ``turn``)."""
    up = ORIENT_VECTORS[t.orient % 4]
    if t.turn:
        c, s = np.cos(t.turn), np.sin(t.turn)
        up = np.array([c * up[0] - s * up[1], s * up[0] + c * up[1]])
    return up, np.array([-up[1], up[0]])


def extent_along(t: Seen, d: np.ndarray) -> float:
    """The outline's extent along the unit direction ``d``."""
    up, right = outline_axes(t)
    return float(abs(up @ d) * t.h + abs(right @ d) * t.w)


def _is_bonus(code: str) -> bool:
    return code.startswith("h")


def _meld_kind(tiles: list[Seen]) -> dict | None:
    """The meld these tiles make as they lie, or None."""
    codes = [t.code for t in tiles]
    backs = codes.count("back")
    faces = [c for c in codes if c != "back"]
    if any(_is_bonus(c) for c in faces):
        return None
    if len(tiles) == 4 and backs == 2 and len(set(faces)) == 1:
        return {"kind": "kong", "tiles": [faces[0]] * 4, "exposed": False}
    if backs:
        return None
    if len(set(codes)) == 1 and len(codes) in (3, 4):
        return {"kind": "pung" if len(codes) == 3 else "kong", "tiles": codes, "exposed": True}
    if len(codes) == 3:
        ts = sorted(Tile.from_code(c) for c in codes)
        if ts[0].is_suited and all(t.suit == ts[0].suit for t in ts) and ts[1] - ts[0] == 1 and ts[2] - ts[1] == 1:
            return {"kind": "chow", "tiles": codes, "exposed": True}
    return None


MIN_ALTERNATIVE_P = 0.02


def _meld_or_one_fix(tiles: list[Seen]) -> tuple[dict, tuple | None] | None:
    """The meld these tiles make, allowing at most one tile to take its reader's
    second choice (probability >= 2 %) when that alone makes the group a meld.

    Why: a meld row's groups are melds by convention, so one doubtful reading
    that breaks an otherwise perfect pung or chow is most likely the misread;
    the tile keeps that choice's (low) probability as its confidence.
    Returns (meld, (tile, code, p) or None) or None.
    """
    m = _meld_kind(tiles)
    if m:
        return m, None
    best = None
    for t in tiles:
        for code, p in t.alternatives[1:]:
            if p < MIN_ALTERNATIVE_P or (best and p <= best[1][2]):
                continue
            old = t.code
            t.code = code
            m = _meld_kind(tiles)
            t.code = old
            if m:
                best = (m, (t, code, p))
    return best or _kong_with_a_back_unseen(tiles)


def _kong_with_a_back_unseen(tiles: list[Seen]) -> tuple[dict, None] | None:
    """A back at the end of two like faces, as a concealed kong one of whose backs went unseen (meld, None).

    Why: only a concealed kong shows a back at the end of two like faces in
    a meld row; a dark back beside a dark wall on a dark red mat was not
    found (rendered held-out table 124 at 3.0 cm), and back-3s-3s made no
    meld. Only where no second choice makes the three a meld: a blank white
    dragon of a pung read as a back gives that face as its next choice.
    """
    codes = [t.code for t in tiles]
    faces = [c for c in codes if c != "back"]
    if (len(codes) == 3 and len(faces) == 2 and "back" in (codes[0], codes[-1]) and faces[0] == faces[1]
            and not _is_bonus(faces[0])):
        return {"kind": "kong", "tiles": [faces[0]] * 4, "exposed": False}, None
    return None


def _split_melds(tiles: list[Seen], fixes: bool = True) -> list[tuple[list[Seen], dict]] | None:
    """Split a run of touching tiles into consecutive melds of 3 or 4, if exactly possible.

    Exact readings are preferred; one second-choice reading per meld may complete it (unless not ``fixes``).
    """
    n = len(tiles)
    best: dict[int, list | None] = {n: []}
    for i in range(n - 1, -1, -1):
        best[i] = None
        for k in (3, 4):
            if i + k <= n and best[i + k] is not None:
                m = _meld_kind(tiles[i:i + k])
                if m:
                    best[i] = [(tiles[i:i + k], m, None)] + best[i + k]
                    break
        if best[i] is None and fixes:
            for k in (3, 4):
                if i + k <= n and best[i + k] is not None:
                    mf = _meld_or_one_fix(tiles[i:i + k])
                    if mf:
                        best[i] = [(tiles[i:i + k], mf[0], mf[1])] + best[i + k]
                        break
    return best[0]


DOUBTFUL = 0.75  # a reading below this may be a shadow's, and is set aside if it alone spoils a meld row
FAINT = 0.5      # ... as may a tile the detector found less surely than this, whatever its reading
DOUBLE_W = 0.8   # ... or the fainter of two outlines whose middles lie closer than this (tile widths) along the row,
DOUBLE_FAINTER = 0.2  # ... found this much less surely (of two found alike neither is the double)


def _split_melds_but_strays(tiles: list[Seen]) -> tuple[list | None, list[Seen]]:
    """Melds of all tiles but one doubtful tile (or two), if that alone splits the run: (melds, those tiles).

    Why: a shadow in the gap between two melds can be seen as a tile, face
    down or read as some face, and a lone back or a doubtful reading then
    spoils two good melds. Only a back, a reading below ``DOUBTFUL``, a tile
    found faintly (``FAINT``: in the gap between a chow and a kong of 3 cm
    tiles the detector saw a tile at 0.46, whose crop of the two melds'
    ends read 2s at 0.78) or a flower reading (a meld's tile misread,
    ``_meld_tiles_read_as_flowers``) may be set aside, flower readings
    first, then the least sure, and only
    when every other tile then makes melds exactly: a row that cannot be
    split is all ``unknown`` anyway, so setting one tile aside never loses a
    meld that was found.

    Also a double: the clearly fainter (``DOUBLE_FAINTER``) of two outlines
    whose middles lie closer than ``DOUBLE_W`` along the row (a meld's
    tiles lie a width apart, so one of them is no tile). And
    where no one tile will do, two of them (range table 54: the fainter
    outline of a 2s outlined twice, and a faint back on a pale mat before
    the seat's flower, spoiled a pung and a chow).
    """
    doubles = {id(a if a.heat < b.heat else b) for a, b in zip(tiles, tiles[1:])
               if abs(b.u - a.u) < DOUBLE_W and abs(a.heat - b.heat) >= DOUBLE_FAINTER}
    doubtful = sorted((t for t in tiles if t.code == "back" or t.confidence < DOUBTFUL or t.heat < FAINT
                       or _is_bonus(t.code) or id(t) in doubles),
                      key=lambda t: (not _is_bonus(t.code), t.confidence))
    for t in doubtful:
        parts = _split_melds([u for u in tiles if u is not t])
        if parts is not None:
            return parts, [t]
    for k, t in enumerate(doubtful):
        for t2 in doubtful[k + 1:]:
            parts = _split_melds([u for u in tiles if u is not t and u is not t2])
            if parts is not None:
                return parts, [t, t2]
    return None, []


def _rows(tiles: list[Seen], split: float) -> list[list[Seen]]:
    rows: list[list[Seen]] = []
    for t in sorted(tiles, key=lambda t: t.v):
        if rows and t.v - np.mean([s.v for s in rows[-1]]) < split:
            rows[-1].append(t)
        else:
            rows.append([t])
    return rows


def unit_width(tiles: list[Seen]) -> float:
    """W: the median short side of the lying tiles (of all tiles when none lies)."""
    lying = [t for t in tiles if t.state != "standing"] or tiles
    return max(float(np.median([t.w for t in lying])), 1e-6) if lying else 1.0


ZONE_SHARE = 0.38


def zone_width(size: float, unit: float) -> float:
    """How far from its edge a seat's zone reaches, in tile widths: ``ZONE_W``, less on a table small for its tiles.

    Why: with large tiles (4 % of the side and more) the discards' outer rows
    come within 6.5 tile widths of the edge; players keep their own rows
    closer to the edge then, so the zone ends at a share of the way to the
    centre.
    """
    return min(ZONE_W, ZONE_SHARE * size / 2 / unit)


def lay_down_centre_tiles(tiles: list[Seen], size: float) -> None:
    """Tiles the detector saw standing beyond every seat's zone become lying ones, in place.

    Why: tiles stand only in a player's hand at the table's edge (docs/table-setup.md);
    a tile taken for standing in the centre is a discard the detector got
    wrong, and a standing tile is never read, so the discard would vanish.
    Call before reading: it is made face down, and the reader, which has the
    last word on face up or down, reads it.
    """
    unit = unit_width(tiles)
    rows = standing_rows_beyond_zone(tiles, size, unit)
    for t in tiles:
        if (t.state == "standing" and min(t.cx, t.cy, size - t.cx, size - t.cy) > zone_width(size, unit) * unit
                and id(t) not in rows):
            t.state = "face_down"


#: A row of standing tiles beyond the zone is a hand, not discards seen wrong: this many tiles at least ...
HAND_ROW_MIN = 6
#: ... spread this far along the edge (tile widths), no further than this beyond the zone.
HAND_ROW_SPAN_W = 5.0
HAND_ROW_BEYOND_W = 4.0


def standing_rows_beyond_zone(tiles: list[Seen], size: float, unit: float) -> set[int]:
    """The ids of standing tiles beyond every seat's zone that stand in a row along an edge: a hand.

    Why: the zone is measured from the play area's edge as found, and an
    area found too large (a dark mat on a dark table: the table's edge found)
    puts the standing hands beyond it. Laid down as discards seen wrong, a
    whole hand was read as a row of discards and the turn was lost for the
    rest of the hand. Discards lie in rows of six at most, face up; the
    detector takes a few for standing, never a row of them.
    """
    zone = zone_width(size, unit) * unit
    by_edge: dict[int, list[tuple[float, float, Seen]]] = {}
    for t in tiles:
        if t.state != "standing":
            continue
        d = (t.cy, size - t.cx, size - t.cy, t.cx)  # top, right, bottom, left: distance and position along
        e = int(np.argmin(d))
        if zone < d[e] <= zone + HAND_ROW_BEYOND_W * unit:
            by_edge.setdefault(e, []).append((d[e], t.cx if e % 2 == 0 else t.cy, t))
    out: set[int] = set()
    for found in by_edge.values():
        found.sort(key=lambda f: f[0])
        row: list[tuple[float, float, Seen]] = []
        for f in found + [(float("inf"), 0.0, None)]:
            if row and f[0] - float(np.median([r[0] for r in row])) > STANDING_ROW_W * unit:
                along = [r[1] for r in row]
                if len(row) >= HAND_ROW_MIN and max(along) - min(along) >= HAND_ROW_SPAN_W * unit:
                    out |= {id(r[2]) for r in row}
                row = []
            row.append(f)
    return out


def empty_seat() -> dict:
    return {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": False, "discards": []}


def group_tiles(tiles: list[Seen], size: float) -> dict:
    """Assign side, role and group to every tile (in place) and build the per-seat dict.

    ``size`` is the side of the top-down square in pixels. Returns
    ``{side: seat}`` as in docs/formats.md.

    A face-up tile in a corner in line with two seats' rows joins the row
    it lies nearer (``_row_beside``). Where that leaves it in no meld, the
    table is grouped again with it in the other row, and the grouping that
    leaves fewer tiles unknown stands. Why: with big tiles on a small
    table, a winning tile set a width apart at the right end of the bottom
    hand lies next to the head of the right seat's melds, a little nearer
    them; it made their pung four tiles that are no meld, and the winner's
    hand lacked its winning tile. Which row makes melds is what decides.
    Any other face-up tile of a corner that is left in no meld is tried in
    the neighbour's seat the same way, after those (a pung's third tile
    pushed out of its row in a crowded corner went with the neighbour's
    flowers: ``_corner_tiles_join_their_row``).
    """
    first = [dict(vars(t)) for t in tiles]
    forced: dict[int, str] = {}
    seats, ambiguous = _grouped(tiles, size, forced)
    for i, other in ambiguous:
        if tiles[i].role != "unknown":
            continue
        unknown = sum(t.role == "unknown" for t in tiles)
        grouped = [dict(vars(t)) for t in tiles]
        for t, saved in zip(tiles, first):
            vars(t).update(saved)
        trial, _ = _grouped(tiles, size, {**forced, i: other})
        if sum(t.role == "unknown" for t in tiles) < unknown:
            seats, forced[i] = trial, other
        else:
            for t, saved in zip(tiles, grouped):
                vars(t).update(saved)
    return seats


def _grouped(tiles: list[Seen], size: float, forced: dict[int, str]) -> tuple[dict, list[tuple[int, str]]]:
    """``group_tiles`` with the corner tiles ``forced`` ({index: side}) into a row: (seats, the corner tiles
    to try in the other seat, as (index, that seat): those in line with two rows first)."""
    seats = {s: empty_seat() for s in SIDES}
    if not tiles:
        return seats, []
    unit = unit_width(tiles)
    zone_w = zone_width(size, unit)
    dists = [{"bottom": size - t.cy, "right": size - t.cx, "top": t.cy, "left": t.cx} for t in tiles]
    for t, d in zip(tiles, dists):
        t.side = _zone_side(t, d, zone_w * unit)
    ambiguous = _corner_tiles_join_their_row(tiles, dists, zone_w * unit, unit, forced)
    for t, d in zip(tiles, dists):
        t.v = d[t.side] / unit
        t.u = _along(t, t.side, size) / unit
    group = 0
    zone_wall: list[Seen] = []
    sure_flowers = {t.code for t in tiles if _is_bonus(t.code) and t.confidence >= DOUBTFUL}
    hands_beyond = standing_rows_beyond_zone(tiles, size, unit)
    standing_of = {side: [t for t in tiles if t.side == side and t.state == "standing"
                          and (t.v <= zone_w or id(t) in hands_beyond)] for side in SIDES}
    reach = {side: seat_reach(standing_of[side], zone_w) for side in SIDES}
    reached_discards: set[int] = set()
    in_line: dict[str, np.ndarray] = {}  # each seat's, built when a meld row first needs it

    def others_in_line(side: str) -> np.ndarray:
        if side not in in_line:
            in_line[side] = _others_in_frame(tiles, dists, side, size, unit)
        return in_line[side]

    for side in SIDES:
        mine = [t for t in tiles if t.side == side]
        standing = standing_of[side]
        for t in standing:
            t.role, t.group = "hand", -1
        faces_v = [t.v for t in mine if t.state == "face_up" and t.v <= reach[side].at(t.u)]
        if len(faces_v) >= 3:  # melds lie in front of a standing hand, never behind it
            standing = [t for t in standing if t.v <= float(np.median(faces_v)) + ROW_SPLIT_W]
        seats[side]["hand_hidden"] = len(standing) >= 1
        zone = [t for t in mine if t.state != "standing" and t.v <= reach[side].at(t.u)]
        beyond = [t for t in mine if t.state == "face_up" and t.v > reach[side].at(t.u)]
        for t in discard_rows_within_reach(zone, beyond, side, unit, zone_w):
            zone.remove(t)
            reached_discards.add(id(t))
        for t in [t for t in zone if _in_standing_row(t, standing)]:
            t.role, t.group = "hand", -1
            zone.remove(t)
        rows = _rows(zone, ROW_SPLIT_W)
        for row in [r for r in rows if _is_wall_row(r)]:  # the wall, pushed near this seat on a small table
            rows.remove(row)
            zone_wall += row
        for row in rows:  # ... or in line with the seat's melds: its stacks beside them are no meld
            for run in [r for r in _runs_units(row, side, unit, MELD_GAP_W)
                        if _is_wall_row(r) or (_lone_back(r) and len(row) > 1)]:
                zone_wall += run
                row[:] = [t for t in row if t not in run]
        rows = [r for r in rows if r]
        for row in [r for r in rows if len(r) == 1 and r[0].code == "back"]:
            rows.remove(row)  # a lone back in a row of its own: a stray outline on the mat, never the hand row
        for i, row in enumerate(rows):
            mean_v = float(np.mean([t.v for t in row]))
            is_hand = ((not seats[side]["hand_hidden"]) and i == 0 and (len(rows) > 1 or mean_v <= HAND_ROW_MAX_W)
                       and not (len(rows) == 1 and _shows_melds_only(row, side, unit)))
            if is_hand:
                group = _hand_row(row, side, unit, seats[side], group)
            else:
                group = _meld_row(row, side, unit, seats[side], group, sure_flowers, partial(others_in_line, side))
    # The centre: discards and the wall.
    centre = [t for t in tiles if t.state != "standing" and (t.v > reach[t.side].at(t.u) or id(t) in reached_discards)]
    wall = [t for t in centre if t.state == "face_down"] + zone_wall
    if wall:
        group += 1
        for t in wall:
            t.role, t.group = "wall", group
    discards = []
    for t in (t for t in centre if t.state == "face_up"):
        t.side = _discard_side(t, size, unit)
        if abs(_along(t, t.side, size)) / unit > DISCARD_ROW_HALF_W:
            continue  # in no seat's discard rows (a tile dropped in a corner of the wall)
        discards.append(t)
    at = np.array([[w.cx, w.cy] for w in wall], np.float64).reshape(-1, 2)  # the wall's centres, grown below
    while True:  # wall tiles whose backs were taken for faces, also several side by side
        more = [t for t in discards if _in_the_wall(t, at, unit)]
        if not more:
            break
        at = np.vstack([at, [[t.cx, t.cy] for t in more]])
        taken = {id(t) for t in more}  # by identity: two tiles seen alike are still two tiles
        discards = [t for t in discards if id(t) not in taken]
    _diagonal_discards_join_their_row(discards, size, unit)
    for side in SIDES:
        mine = [t for t in discards if t.side == side]
        if not mine:
            continue
        group += 1
        for t in mine:
            t.u = _along(t, side, size) / unit
            t.v = _from_edge(t, side, size) / unit
        ordered = []
        for row in reversed(_rows(mine, ROW_SPLIT_W)):  # nearest the centre first
            ordered += sorted(row, key=lambda t: t.u)
        for t in ordered:
            t.role, t.group = "discard", group
        seats[side]["discards"] = [t.code for t in ordered]
    return seats, ambiguous


def _shows_melds_only(row: list[Seen], side: str, unit: float) -> bool:
    """Whether a seat's only row is its melds, not a hand laid down.

    Why: during play the standing tiles at the table's edge may go unseen,
    and the melds in front of them were taken for a revealed hand; the turn
    tracker then lost every claim of that seat. A hand laid down shows at
    least five tiles (four melds and a pair, the melds in a row of their
    own) and always a pair or a single among its groups, so a row of at most
    ``MELD_MAX`` faces, or one whose groups are all melds, shows melds.
    """
    if sum(t.state == "face_up" for t in row) <= MELD_MAX:
        return True
    return all(len(run) >= 3 and _split_melds(run) is not None for run in _runs_units(row, side, unit, MELD_GAP_W))


@dataclass(frozen=True)
class Reach:
    """How far from its edge a seat's tiles lie, in tile widths, at each place ``u`` along the edge."""
    zone_w: float
    #: The seat's standing row as a line ``v = row_v + slant * u``; None where no row was measured.
    row_v: float | None = None
    slant: float = 0.0

    def at(self, u: float) -> float:
        if self.row_v is None:
            return self.zone_w
        return max(self.zone_w, self.row_v + self.slant * u + MELD_REACH_W)


def seat_reach(standing: list[Seen], zone_w: float) -> Reach:
    """How far from its edge a seat's tiles lie: the zone, or further where its standing row is.

    Why: the zone is measured from the play area's edge as found in the
    picture, and an area found too large (a table edge taken for the mat's)
    moves every seat's rows inwards by the difference; the melds then fell
    beyond the zone and were counted as discards, and the turn lost every
    claim. The standing tiles say where the seat sits: its melds lie at most
    ``MELD_REACH_W`` in front of them. At least three standing tiles must
    agree, so one stray outline moves nothing. The row is a line, not one
    distance: an area found too large is seldom square to the mat, its rows
    run aslant of the edge found (a tenth of a width per width), and a meld
    at the row's far end lay beyond a reach taken from the row's middle.
    ``standing``: the seat's standing tiles, within its zone or in a row
    beyond it (``standing_rows_beyond_zone``).
    """
    if len(standing) < 3:
        return Reach(zone_w)
    u = np.float64([t.u for t in standing])
    v = np.float64([t.v for t in standing])
    if u.max() - u.min() < ROW_SLANT_SPAN_W:
        return Reach(zone_w, float(np.median(v)))
    slant, row_v = np.polyfit(u, v, 1)
    keep = np.abs(v - (row_v + slant * u)) <= STANDING_ROW_W  # a stray outline off the row bends no line
    if keep.sum() >= 3 and not keep.all():
        slant, row_v = np.polyfit(u[keep], v[keep], 1)
    slant = float(np.clip(slant, -ROW_SLANT_MAX, ROW_SLANT_MAX))
    return Reach(zone_w, float(np.median(v - slant * u)), slant)


def discard_rows_within_reach(zone: list[Seen], beyond: list[Seen], side: str, unit: float,
                              zone_w: float) -> list[Seen]:
    """The tiles of a seat's rows within its reach that are rows of its discards.

    Why: with large tiles on a small table (4 cm on 85 cm) the discards'
    last row, the one nearest the seat, comes within the seat's reach: the
    zone ends at a share of the way to the centre (``zone_width``), and the
    reach lets melds lie up to ``MELD_REACH_W`` in front of a standing row.
    Such a row, 3.9-4.3 widths out, was grouped as a meld row: its tiles made
    no meld and were lost to the discards, and with a learned set two of six
    were read as their second choices to make two pungs. Discards lie in rows
    of six, one behind the other in the same columns, so a row whose every
    tile lies in a column of the discards beyond the reach, one row further
    out, is discards; a meld row lies in no such grid. Rows are looked at
    from the discards towards the edge, and the first that is no discard row
    ends the search. Within the zone a row whose tiles make melds as read
    stays melds: a seat's melds squeezed against its discards may line up
    with them by chance; so does a row whose runs are melds or flowers and
    seasons alone, which are set aside, never discarded (a chow and two
    flowers two widths in front of a 3.5 cm hand, in the discards'
    columns). Beyond the zone, or where the row goes on beyond the reach
    (discards beyond it in line with it), its columns decide alone: three
    discards in the last row made a chow by chance.
    ``zone``: the seat's tiles within its reach; ``beyond``: its face-up
    tiles beyond its reach.
    """
    grid = [t for t in beyond if abs(t.u) <= DISCARD_ROW_HALF_W]
    taken: list[Seen] = []
    for row in reversed(_rows(zone, ROW_SPLIT_W)):
        v = float(np.mean([t.v for t in row]))
        within = min(t.v for t in row) <= zone_w and not any(abs(g.v - v) < ROW_SPLIT_W / 2 for g in grid)
        if (len(row) > 6 or any(t.state != "face_up" for t in row)
                or not all(_in_a_discard_column(t, grid) for t in row)
                or (within and all(all(_is_bonus(t.code) for t in run)
                                   or (len(run) >= 3 and _split_melds(run, fixes=False) is not None)
                                   for run in _runs_units(row, side, unit, MELD_GAP_W)))):
            break
        taken += row
        grid += row
    return taken


def _in_a_discard_column(t: Seen, grid: list[Seen]) -> bool:
    return any(abs(g.u - t.u) <= DISCARD_COLUMN_W and DISCARD_PITCH_W[0] <= g.v - t.v <= DISCARD_PITCH_W[1]
               for g in grid)


def _in_standing_row(t: Seen, standing: list[Seen]) -> bool:
    """Whether a lying tile lies in or behind the standing row beside it: a standing tile seen wrong.

    Why beside it (within ``STANDING_NEAR_U`` along the row) and not the
    whole row's line: a seat's rows run a little aslant of the play area's
    edge found in the picture, so over a row's length a meld laid in front
    of the standing tiles at one end lies as near the edge as they do at the
    other; and where the detector sees only a few standing tiles, a meld
    beside none of them is no part of the hand.
    """
    near = [s.v for s in standing if abs(s.u - t.u) <= STANDING_NEAR_U]
    return bool(near) and t.v < float(np.median(near)) + STANDING_ROW_W


def _lone_back(run: list[Seen]) -> bool:
    """One face-down tile with a gap on either side in a seat's row: no meld (a concealed kong shows its backs
    beside its faces). Why: faint outlines of backs beside a seat's meld came and went from frame to frame;
    counted as meld tiles read wrong, every three made a meld the turn tracker saw come and go."""
    return len(run) == 1 and run[0].state == "face_down"


def _is_wall_row(row: list[Seen]) -> bool:
    """Two or more tiles, all face down, in a row or run of their own: wall stacks, not a meld (a concealed kong
    shows two faces). Why runs too: on a small table the wall's stacks lie in line with a seat's melds, and three
    of them counted as a meld read wrong, so the turn tracker saw a claim come and go."""
    return len(row) >= 2 and all(t.state == "face_down" for t in row)


def _neighbours(a: str, b: str) -> bool:
    """Whether two sides meet in a corner (not the same side, not opposite ones)."""
    return a != b and {a, b} not in ({"bottom", "top"}, {"left", "right"})


def _zone_side(t: Seen, dist: dict, zone: float) -> str:
    """The seat a tile near the edge belongs to: the nearest edge, or in a corner, the one its length points to.

    Why: with large tiles a long meld row reaches into the corner, where its
    end tiles lie nearer the neighbour's edge. A seat's tiles lie with their
    length across its edge (a face's 'up' points to the centre), so in a
    corner, where both edges are within the zone, the tile's axis tells the
    two seats apart. A standing tile's 'up' points to the centre as a lying
    one's does (its outline, seen from above, is wider than deep, but the
    detector is taught its orientation as its owner reads it), so it goes
    by the same rule.
    """
    near = sorted(dist, key=dist.get)
    first, second = near[0], near[1]
    if dist[second] > zone or not _neighbours(first, second):
        return first
    vertical = t.orient in (0, 2)           # the face's 'up' (its length) along the image's y axis
    along_y = {"bottom", "top"}
    return first if (first in along_y) == vertical else second


def _corner_tiles_join_their_row(tiles: list[Seen], dists: list[dict], zone: float, unit: float,
                                 forced: dict[int, str]) -> list[tuple[int, str]]:
    """A face-up tile in a corner joins the seat whose row it ends, when exactly one seat's row is beside it.

    Why: ``_zone_side`` goes by the tile's length, but a claimed tile lies
    turned a quarter, its length along its own seat's edge; at the end of a
    meld row that reaches into the corner (large tiles) it would go to the
    neighbour. A tile lying in line with another seat's tiles (as deep from
    that edge, the next tile along) belongs to that row. Except a flower or
    season: it is never claimed, so never laid turned, and the seat that
    reads it upright owns it; at the end of a long meld row it may lie in
    line with the neighbour's row (big tiles on a small table: the top
    seat's flowers at the head of the left seat's melds). A standing tile
    joins the row of standing tiles it ends: seen from above a standing tile
    is nearly square, its length no guide, and the ends of a 4 cm seat's
    standing hand went to both neighbours, whose revealed hands were then
    taken for hidden ones.

    Returns the face-up tiles that lie in line with one row and in line with,
    or set apart from the end of, the other (``_row_beside``), each with the
    row not chosen; and those in line with both rows, neither gap clearly
    the narrower, which stay in their zone's seat, each with the other row
    (a 4 cm pung's third tile ran into the corner in line with the next
    seat's chow, rendered held-out table 98: both were lost); then every
    other face-up tile of the corner but the bonus tiles placed by their
    reading, with the neighbour's seat. Why those too: in a crowded corner
    a pung's third tile pushed half a width out of its row lies in line
    with no row of its own seat but touches the head of the neighbour's
    flowers, and went with them: the pung and the flowers were lost
    together (rendered held-out table 339, 3.5 cm). ``group_tiles`` tries
    the other seat only for a tile left in no meld, and keeps it only where
    fewer tiles are then left so. Puts each tile of ``forced`` in the row
    given there.
    """
    ambiguous, last = [], []
    for i, (t, d) in enumerate(zip(tiles, dists)):
        near = sorted(d, key=d.get)[:2]  # the two nearest edges: a corner when both are within the zone
        if t.state in ("face_up", "standing") and d[near[1]] <= zone and _neighbours(*near):
            if i in forced:
                t.side = forced[i]
            elif t.state == "face_up" and _is_bonus(t.code) and ORIENT_SIDE.get(t.orient) in near:
                t.side = ORIENT_SIDE[t.orient]
            else:
                side, others = _row_beside(t, near, tiles, unit)
                t.side = side or t.side
                other = next((s for s in others if s != t.side), None)
                if other is not None and t.state == "face_up" and (side is not None or t.side in others):
                    ambiguous.append((i, other))
                elif t.state == "face_up" and t.side in near:
                    last.append((i, next(s for s in near if s != t.side)))
    return ambiguous + last


def _row_beside(t: Seen, sides, others: list[Seen], unit: float) -> tuple[str | None, tuple[str, ...]]:
    """The one of ``sides`` whose row (among ``others``) ``t`` lies in line with, or None if none or both are
    (neither gap clearly the narrower); and the other sides where ``t`` lies in line with their rows too, or as
    a tile set apart from their end: both sides where neither is chosen.

    In line: as deep from that side's edge as one of its tiles that lie as
    ``t`` does (standing, or not), and the next tile along the edge from it.
    Where both rows are, the one whose next tile leaves the narrower gap to
    ``t``: a meld's tiles touch, and a kong's claimed tile, turned at the end
    of a 4 cm row in the corner, was as near the head of the neighbour's
    melds, three quarters of a width away. A tile as deep as the other
    row, but a gap of up to a tile from its end (``ROW_SET_APART_W``), is
    not in line with it (a winning tile is set apart from its hand so), but
    that other row is named: only melds can tell (``group_tiles``).
    """
    def depth_along(u: Seen, side: str) -> tuple[float, float]:
        return (u.cy, u.cx) if side in ("bottom", "top") else (u.cx, u.cy)

    def half_along(u: Seen, side: str) -> float:  # half the tile's extent along the side's edge
        return extent_along(u, np.float64([1.0, 0.0] if side in ("bottom", "top") else [0.0, 1.0])) / 2

    gaps, set_apart = {}, set()
    for side in sides:
        d, a = depth_along(t, side)
        near = [(abs(depth_along(u, side)[1] - a) - half_along(u, side) - half_along(t, side),
                 abs(depth_along(u, side)[1] - a)) for u in others
                if u is not t and u.side == side and (u.state == "standing") == (t.state == "standing")
                and abs(depth_along(u, side)[0] - d) < ROW_DEPTH_W * unit]
        gap = [g for g, along in near if along < ROW_NEXT_W * unit]
        if gap:
            gaps[side] = min(gap)
        elif any(along < ROW_SET_APART_W * unit for _, along in near):
            set_apart.add(side)
    if not gaps:
        return None, ()
    if len(gaps) == 1:
        first = next(iter(gaps))
        return first, tuple(s for s in sides if s in set_apart)
    (first, g1), (second, g2) = sorted(gaps.items(), key=lambda kv: kv[1])
    return (first, (second,)) if g2 - g1 >= ROW_GAP_APART_W * unit else (None, (first, second))


ROW_DEPTH_W = 0.6   # a tile in line with a row lies this near its depth from the edge (tile widths) ...
ROW_NEXT_W = 1.9    # ... and this near the next tile along it (a turned tile is about 1.4 widths long)
ROW_GAP_APART_W = 0.3  # in line with two rows, a tile joins the one whose gap to it is this much narrower
ROW_SET_APART_W = 3.0  # a tile this near the next tile of a row (but not ROW_NEXT_W) may be set apart from it


def _discard_side(t: Seen, size: float, unit: float) -> str:
    """The seat a discard belongs to: the edge it lies in front of, or, near a diagonal, the seat it faces.

    Rows of six in front of a seat keep a discard well off the diagonals, so
    where it lies decides; the tile's orientation (a single reading that can
    be a quarter turn off) decides only where the position cannot.
    """
    x, y = t.cx - size / 2, t.cy - size / 2
    nearest = ("right" if x > 0 else "left") if abs(x) > abs(y) else ("bottom" if y > 0 else "top")
    if abs(abs(x) - abs(y)) > DIAGONAL_W * unit:
        return nearest
    facing = ORIENT_SIDE.get(t.orient, nearest)
    dist = {"bottom": size - t.cy, "right": size - t.cx, "top": t.cy, "left": t.cx}[facing]
    return facing if dist <= size / 2 + unit else nearest


def _diagonal_discards_join_their_row(discards: list[Seen], size: float, unit: float) -> None:
    """A discard near a diagonal joins the seat whose discard row it continues, when exactly one does.

    Why: near a diagonal ``_discard_side`` goes by the way the tile faces,
    and a tile read sideways (unsure, misread) faces the wrong seat; but
    discards lie in rows, and the next tile of a seat's row lies as far
    from the centre as that row and one tile along it.
    """
    for t in discards:
        x, y = t.cx - size / 2, t.cy - size / 2
        if abs(abs(x) - abs(y)) <= DIAGONAL_W * unit:
            t.side = _row_beside(t, ("right" if x > 0 else "left", "bottom" if y > 0 else "top"), discards, unit)[0] or t.side


def _in_the_wall(t: Seen, at: np.ndarray, unit: float) -> bool:
    """Whether ``t`` lies in line with the wall: two of its stacks beside it, on the same line.

    ``at``: the wall's tiles' centres (N x 2), ``t`` not among them. Why all at once: a table in
    play has a hundred stacks and dozens of discards, and pair by pair this
    took 40-110 ms of a still of such a real table on one core.
    """
    f, r = FRAMES[t.side]
    dx, dy = (at[:, 0] - t.cx) / unit, (at[:, 1] - t.cy) / unit
    near = (np.abs(dx * f[0] + dy * f[1]) < WALL_LINE_W) & (np.abs(dx * r[0] + dy * r[1]) < WALL_BESIDE_W)
    return int(near.sum()) >= 2


def _hand_row(row: list[Seen], side: str, unit: float, seat: dict, group: int) -> int:
    """The revealed hand, its winning tile set apart at the right end; a back in the row is none of it.

    Why backs are left out before the winning tile is looked for: on a table
    small for its tiles the wall's corner can lie in line with a hand row,
    and a stack beyond the winning tile would hide that it stands apart.
    """
    for t in row:
        if t.code == "back":
            t.role, t.group = "unknown", 0
    row = sorted((t for t in row if t.code != "back"), key=lambda t: t.u)
    if not row:
        return group
    runs = _runs_units(row, side, unit, WIN_GAP_W)
    win = None
    if len(runs) > 1 and len(runs[-1]) == 1:
        win = runs[-1][0]
    group += 1
    for t in row:
        if t is win:
            continue
        if _is_bonus(t.code):
            t.role, t.group = "flower", group
            seat["flowers"].append(t.code)
        else:
            t.role, t.group = "hand", group
            seat["concealed"].append(t.code)
    if win is not None:
        group += 1
        if _is_bonus(win.code):
            win.role, win.group = "unknown", 0
        else:
            win.role, win.group = "winning", group
            seat["winning_tile"] = win.code
    return group


def _runs_units(row: list[Seen], side: str, unit: float, gap_w: float) -> list[list[Seen]]:
    """Split a row (sorted along u) where the free space between tiles reaches ``gap_w`` widths.

    u is in tile widths, tile extents in pixels, hence the division by ``unit``."""
    row = sorted(row, key=lambda t: t.u)
    runs: list[list[Seen]] = []
    for t in row:
        if runs and _free_between(runs[-1][-1], t, side, unit) < gap_w:
            runs[-1].append(t)
            continue
        runs.append([t])
    return runs


def _free_between(p: Seen, t: Seen, side: str, unit: float) -> float:
    """The free space (tile widths) along the row between ``p`` and the next tile ``t``."""
    return (t.u - p.u) - (t.extent_u(side) + p.extent_u(side)) / 2 / unit


def _along(t: Seen, side: str, size: float) -> float:
    """Where the tile's centre lies along ``side``'s rows (pixels from the square's middle): its ``u`` before
    scaling to tile widths."""
    return float(np.array([t.cx - size / 2, t.cy - size / 2]) @ np.array(FRAMES[side][1]))


def _from_edge(t: Seen, side: str, size: float) -> float:
    """How far the tile's centre lies from ``side``'s edge of the square, inwards (pixels): its ``v`` before
    scaling to tile widths, measured in the seat's own frame."""
    return size / 2 + float(np.array([t.cx - size / 2, t.cy - size / 2]) @ np.array(FRAMES[side][0]))


def _others_in_frame(tiles: list[Seen], dists: list[dict], side: str, size: float, unit: float) -> np.ndarray:
    """(u, v, extent along the row) in ``side``'s frame, in tile widths, of every lying tile of another seat."""
    rows = [(_along(t, side, size) / unit, d[side] / unit,
             t.extent_u(side) / unit) for t, d in zip(tiles, dists) if t.side != side and t.state != "standing"]
    return np.array(rows, np.float64).reshape(-1, 3)


def _meld_row(row: list[Seen], side: str, unit: float, seat: dict, group: int,
              sure_flowers: frozenset[str] | set[str] = frozenset(),
              others: Callable[[], np.ndarray] | None = None) -> int:
    """The melds and flowers of one of a seat's rows beyond its hand (in place); ``sure_flowers``: the flower
    and season codes read surely anywhere on the table; ``others``: gives the other seats' lying tiles in this
    seat's frame (``_others_in_frame``), asked only where two runs lie too far apart to join without them.
    Returns the last group number used."""
    for run in _runs_joined_into_melds(_runs_units(row, side, unit, MELD_GAP_W), side, unit, others):
        _doubtful_flower_in_a_meld(run, side)
        _doubtful_tile_among_flowers(run, sure_flowers)
        misread = _meld_tiles_read_as_flowers(run, side)
        bonus = [t for t in run if _is_bonus(t.code) and t not in misread]
        if bonus:
            group += 1
            for t in bonus:
                t.role, t.group = "flower", group
                seat["flowers"].append(t.code)
        rest = [t for t in run if t not in bonus]
        if not rest:
            continue
        parts = _split_melds(rest)
        strays: list[Seen] = []
        if parts is None:
            parts, strays = _split_melds_but_strays(rest)
        for stray in strays:  # fits no meld: unknown, in a group of its own, never forced into one
            group += 1
            stray.role, stray.group = "unknown", group
        if parts is None:  # still a group of the row: it shows the seat has laid tiles out
            group += 1
            for t in rest:
                t.role, t.group = "unknown", group
            continue
        for meld_tiles, meld, fix in parts:
            if fix is not None:
                t, code, p = fix
                t.code, t.confidence = code, float(p)
            group += 1
            for t in meld_tiles:
                t.role, t.group = "meld", group
            seat["melds"].append(meld)
    return group


def _runs_joined_into_melds(runs: list[list[Seen]], side: str, unit: float,
                            others: Callable[[], np.ndarray] | None = None) -> list[list[Seen]]:
    """``runs`` (in order along the row) with two neighbours joined where neither makes melds alone and
    together they do, and they lie less than ``JOIN_GAP_W`` apart.

    Why: a claimed tile lies turned, and its outline's length along the row
    is the detector's guess; at 4 cm the claimed 3m of a 1m-2m-3m chow lay
    a quarter of a width from the 2m by it (rendered held-out table 111), a
    run of its own, and the chow was lost. Runs that are melds alone stay
    apart, and flowers are never joined.
    """
    out: list[list[Seen]] = []
    for run in runs:
        if out and not any(_is_bonus(t.code) for t in out[-1] + run):
            prev = out[-1]
            gap = _free_between(prev[-1], run[0], side, unit)
            if ((gap < JOIN_GAP_W or others is not None) and _split_melds(prev) is None and _split_melds(run) is None
                    and (gap < JOIN_GAP_W or gap - _taken_between(prev, run, others()) < JOIN_GAP_W)
                    and _split_melds(prev + run) is not None):
                out[-1] = prev + run
                continue
        out.append(run)
    return out


def _taken_between(prev: list[Seen], run: list[Seen], others: np.ndarray) -> float:
    """How much of the row between ``prev`` and ``run`` (tile widths) other seats' tiles lying in it take up."""
    if not len(others):
        return 0.0
    v = float(np.mean([t.v for t in prev + run]))
    between = (others[:, 0] > prev[-1].u) & (others[:, 0] < run[0].u) & (np.abs(others[:, 1] - v) < ROW_SPLIT_W / 2)
    return float(others[between, 2].sum())


def _doubtful_flower_in_a_meld(run: list[Seen], side: str) -> None:
    """A doubtful flower touching the run's other tiles is read as its next choice, when that choice alone
    makes the whole run melds and the run without it makes none (in place).

    Doubtful: read less surely than DOUBTFUL, or lying across its seat's
    rows. Why: flowers are laid apart from the melds and never turned, but a
    claimed tile lies turned at its meld's end, where an unusual set's face
    cut a little off was read as a flower (0.57 sure, in the next frame
    0.92); the two tiles left made no meld, and the claim, whose meld the
    turn tracker counts, was missed.
    """
    doubtful = [t for t in run if _is_bonus(t.code) and (t.confidence < DOUBTFUL or _lies_across(t, side))]
    rest = [t for t in run if not _is_bonus(t.code)]
    if len(doubtful) != 1 or len(rest) != len(run) - 1 or not rest or _split_melds(rest) is not None:
        return
    fix = next((f for _, _, f in _split_melds(run) or [] if f is not None and f[0] is doubtful[0]), None)
    if fix is not None:
        t, code, p = fix
        t.code, t.confidence = code, float(p)


def _doubtful_tile_among_flowers(run: list[Seen], sure_flowers: frozenset[str] | set[str]) -> None:
    """A doubtful reading that is no flower, in a run of flowers read surely, is its likeliest next choice of a
    flower no tile on the table was read as surely (in place).

    Why: a seat's flowers lie together, upright, apart from its melds; a
    run of sure flowers with one tile read otherwise, and doubtfully, holds
    a flower the reader could not make out. Rendered held-out 4.0 cm table
    108: the left seat's three flowers, the middle read 1s at 0.72 (the
    white dragon and seasons its next choices at a quarter turn), made a
    run of three that is no meld, and all three were lost. A set holds one
    of each flower, so a choice another tile was read as surely is not it
    (there the winter, the bottom seat's).
    """
    bonus = [t for t in run if _is_bonus(t.code)]
    rest = [t for t in run if not _is_bonus(t.code)]
    if len(bonus) < 2 or len(rest) != 1 or any(t.confidence < DOUBTFUL for t in bonus):
        return
    t = rest[0]
    if t.confidence >= DOUBTFUL:
        return
    taken = set(sure_flowers) | {b.code for b in bonus}
    choice = next(((c, p) for c, p in t.alternatives if _is_bonus(c) and c not in taken), None)
    if choice is not None:
        t.code, t.confidence = choice[0], float(choice[1])


def _meld_tiles_read_as_flowers(run: list[Seen], side: str) -> list[Seen]:
    """The run's flower readings that are tiles of its melds, misread.

    Why: flowers are laid upright, in a group of their own apart from the
    melds. So a flower reading lying across, touching tiles that are no
    flowers, is a claimed tile; and in a run of three or four touching tiles
    whose other tiles make no meld, the run is one meld and its flower
    readings are its tiles. Such a tile is not the seat's flower: it stays
    with its run, ``unknown`` when no reading makes the run melds
    (``_doubtful_flower_in_a_meld`` tries that first), so the turn tracker
    counts the meld as laid out (three unread tiles count as one). An
    unusual set's claimed tile in a video frame was read as a flower 0.99
    sure frame after frame, and every claim at that seat was missed. A
    flower touching a meld that stands without it stays a flower, as does
    one beside backs that no meld of that many tiles shows (only a
    concealed kong shows backs, two of its four): on a pale mat two faint
    outlines read as backs beside the bottom seat's flower made it a
    meld's tile (range table 54).
    """
    bonus = [t for t in run if _is_bonus(t.code)]
    rest = [t for t in run if not _is_bonus(t.code)]
    if not bonus or not rest:
        return []
    backs = sum(t.code == "back" for t in rest)
    if len(run) in (3, 4) and backs in ((0,) if len(run) == 3 else (0, 2)) and _split_melds(rest) is None:
        return bonus
    return [t for t in bonus if _lies_across(t, side)]


def _lies_across(t: Seen, side: str) -> bool:
    """Whether the tile is read by a neighbour of ``side``: turned a quarter in that seat's rows."""
    reader = ORIENT_SIDE.get(t.orient)
    return reader is not None and _neighbours(reader, side)


def seen_from_quad(quad, state: str, code: str = "back", confidence: float = 1.0) -> Seen:
    """A Seen tile from its outline (TL, TR, BR, BL as read) in top-down pixels."""
    q = np.asarray(quad, float)
    c = q.mean(0)
    w = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    h = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
    orient = int(np.argmax(np.array([[0, -1], [1, 0], [0, 1], [-1, 0]]) @ up))
    return Seen(float(c[0]), float(c[1]), w, h, orient, state, code, confidence)


def seats_match(got: dict, want: dict) -> bool:
    """Whether a seat's melds, hand, flowers and winning tile are exactly right (order-free)."""
    def melds(s):
        return sorted((m["kind"], tuple(sorted(m["tiles"])), bool(m.get("exposed", True))) for m in s.get("melds", []))
    return (melds(got) == melds(want) and sorted(got.get("concealed", [])) == sorted(want.get("concealed", []))
            and sorted(got.get("flowers", [])) == sorted(want.get("flowers", []))
            and got.get("winning_tile") == want.get("winning_tile"))
