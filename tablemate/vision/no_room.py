"""Outlines with no room for a tile: squeezed between two surer outlines in a line.

Why: with a learned set of dark faces on a dark mat, the detector outlines
the dark gap between a meld and the flowers beside it (two abstract sets
at 2.0 cm, docs/enrollment.md). The set then reads the gap surely as a
face, it joins the meld's run, and the seat's meld is lost. Heat alone
cannot tell such a gap from a real tile: dropping dim outlines that look
like none of the set's faces also dropped real discards on video frames.
Geometry can: tiles are solid, so a tile between two others in a line
needs its own width between their edges, and the gap's outline lies where
no tile fits (there was room for nine tenths of one, or less).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .grouping import Seen, extent_along, outline_axes

NO_ROOM = 0.9     # a tile needs at least this share of its own extent between its neighbours' edges
IN_LINE = 0.94    # cosine: the two neighbours lie on opposite sides, about in a line along one of the outline's axes
NEAR = 1.6        # neighbours are looked for within this many of the outline's long sides


def _no_room_between(t: Seen, a: Seen, b: Seen) -> bool:
    """Whether ``a`` and ``b``, on either side of ``t`` along one of its axes, leave it no room for a tile."""
    apart = np.array([b.cx - a.cx, b.cy - a.cy])
    ax = max(outline_axes(t), key=lambda axis: abs(axis @ apart))
    if abs(ax @ apart) < IN_LINE * np.hypot(*apart):
        return False  # diagonal neighbours of a packed block leave no room along the diagonal either
    # measured along the outline's own axis: outlines are boxes square to the picture, and along a row
    # lying a few degrees off that, their extents would take in the turn
    sides = (extent_along(a, ax) + extent_along(b, ax)) / 2
    room = abs(float(ax @ apart)) - sides
    # a tile needs its own width there, or its neighbours' where its outline is longer: a chow's claimed
    # tile lies turned between two upright ones, its length along the row
    return room < NO_ROOM * min(extent_along(t, ax), sides)


def squeezed(tiles: list[Seen]) -> set[int]:
    """Indices of outlines that lie between two surer outlines in a line with no room for a tile."""
    if len(tiles) < 3:
        return set()
    xy = np.float64([[t.cx, t.cy] for t in tiles])
    heat = np.float64([t.heat for t in tiles])
    out = set()
    for i, t in enumerate(tiles):
        v = xy - xy[i]
        dist = np.hypot(v[:, 0], v[:, 1])
        near = np.nonzero((dist > 0) & (dist < NEAR * max(t.w, t.h)) & (heat > heat[i]))[0].tolist()
        if any(v[ja] @ v[jb] <= -IN_LINE * dist[ja] * dist[jb] and _no_room_between(t, tiles[ja], tiles[jb])
               for ja, jb in combinations(near, 2)):
            out.add(i)
    return out
