"""Tight rows of tiles counted by the rhythm of the gaps between them.

Why: in a rack or tray photographed at a slant, tiles stand close and show
narrow faces (7 pixels apart in the detector's square for 1.8 cm tiles),
and the detector, which learned a tile's shape, outlines them as wide as a
lying tile (12 pixels): a row of sixteen gets eleven or twelve outlines,
some on one tile, some across two, and four or five tiles are never read
(held-out photos `hand_103`, `hand_036`, 1.8 cm; docs/training.md, "Tight
rows counted by their repeat"). The gaps between such tiles are plain to
see: along the row the picture repeats once a tile, and the length of that
repeat says how many tiles the row holds, whatever the outlines say. Where
it says more than the outlines, the row is laid out again a tile a repeat
(``layouts``); the readers then decide whether the new layout reads surer
than the old (``recognize._rows_counted``). Where the detector missed a
tile or two of a rack outright, the outlines either side of the hole are
too far apart to chain, and the row takes them in by its repeat
(``grown``) before it is laid out; the layout that finds the whole rack
reads the tiles in the holes less surely than the old outlines, and
stands where it reads every old outline alike (``explains``). A row
whose picture repeats once an outline (every row outlined right) is left
alone without a reading, and in the table's own square, where rows are
mostly outlined right, so is a row whose outlines do not overlap
(``CROWDED``).

Pure: pictures in, tile outlines out.
"""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from .grouping import Seen

#: A row is at least this many lying face-up tiles ...
MIN_ROW = 4
#: ... each next one's middle at most this many of the row's typical outline widths farther along the row ...
ALONG = 1.3
#: ... and at most this share of a typical outline's length off the row's line.
LEVEL = 0.35
#: A row lying square in the table's own square is laid out again only where its outlines overlap: their middles
#: on average at most this share of their typical width apart (outlined right, tiles lie a width or more apart; a
#: rack outlined too wide, 0.6-0.9 of one).
CROWDED = 0.9
#: The row is looked at this many pixels to a pixel of the square (its gaps are a pixel wide there) ...
ZOOM = 4.0
#: ... in a band of this share of its tiles' length either side of its line (their faces, not the rack below).
BAND = 0.3
#: The repeat looked for, in shares of the row's typical outline width: only rows outlined too wide.
REPEAT = (0.45, 0.85)
#: How alike the row is to itself shifted by one repeat (normalised autocorrelation) for the repeat to count.
RHYTHM = 0.5
#: A row with a clear repeat takes in the next outline on its line up to this many repeats farther than the row's
#: outlines lie apart (``ALONG``): tiles the detector did not outline break a rack into pieces, and one piece
#: counted alone has room for no more tiles than it has outlines.
GROW = 2.5
#: ... where its outlines lie a repeat apart (the median step from one to the next within this share of it): one
#: outline a tile, so the repeat is the tiles' and not a face's own (two columns of dots on tiles outlined right).
AGREE = 0.15
#: A layout with more tiles than the row's outlines, read less surely on average than they are, still replaces them
#: where it reads every outline's face at its place (``explains``) and is read at least this surely on average.
SURE_LAYOUT = 0.9
#: A tile laid out in the row is kept where its face is at least this share as light as the row's typical one
#: (not the mat the row's last outline overhangs).
LIGHT = 0.8


def _along(t: Seen) -> tuple[float, float]:
    """(position along the tile's width, position across it) in the square."""
    return (t.cx, t.cy) if t.orient % 2 == 0 else (t.cy, t.cx)


def tight_rows(tiles: list[Seen]) -> list[list[int]]:
    """Indices into ``tiles`` of each row of at least ``MIN_ROW`` lying face-up tiles side by side, in order along
    the row. A row runs along its tiles' width (a rack of upright tiles, a hand)."""
    rows: list[list[int]] = []
    for axis in (0, 1):
        idx = [i for i, t in enumerate(tiles) if t.state == "face_up" and t.orient % 2 == axis]
        if len(idx) < MIN_ROW:
            continue
        w = float(np.median([tiles[i].w for i in idx]))
        h = float(np.median([tiles[i].h for i in idx]))
        chains: list[list[int]] = []
        for i in sorted(idx, key=lambda i: _along(tiles[i])[0]):
            a, c = _along(tiles[i])
            for chain in chains:
                pa, pc = _along(tiles[chain[-1]])
                if 0 < a - pa < ALONG * w and abs(c - pc) < LEVEL * h:
                    chain.append(i)
                    break
            else:
                chains.append([i])
        rows += [c for c in chains if len(c) >= MIN_ROW]
    return rows


def crowding(row: list[Seen]) -> float:
    """How far apart the row's outlines lie on average, in shares of their typical width (under 1: they overlap)."""
    along = sorted(_along(t)[0] for t in row)
    return (along[-1] - along[0]) / (len(row) - 1) / float(np.median([t.w for t in row]))


def row_strip(image: np.ndarray, hom: np.ndarray, row: list[Seen]) -> tuple[np.ndarray, float, float]:
    """(grey strip along the row, ``ZOOM`` pixels a square pixel, its first pixel's position along the row, the
    row's line across it) from ``image``, which ``hom`` maps into the square."""
    along = [_along(t) for t in row]
    start = min(a - t.w / 2 for (a, _), t in zip(along, row))
    end = max(a + t.w / 2 for (a, _), t in zip(along, row))
    line = float(np.median([c for _, c in along]))
    half = BAND * float(np.median([t.h for t in row]))
    z = ZOOM
    if row[0].orient % 2 == 0:
        m = np.array([[z, 0, -z * start], [0, z, -z * (line - half)], [0, 0, 1.0]])
    else:  # the row runs down the square: its strip is the square transposed
        m = np.array([[0, z, -z * start], [z, 0, -z * (line - half)], [0, 0, 1.0]])
    size = (max(int(z * (end - start)), 1), max(int(z * 2 * half), 1))
    strip = cv2.warpPerspective(image, m @ hom, size, flags=cv2.INTER_LINEAR)
    grey = strip if strip.ndim == 2 else cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY)
    return grey.astype(np.float64), start, line


def _trendless(profile: np.ndarray, k: int) -> np.ndarray:
    """``profile`` less its mean over ``k`` samples around each: light falling off along the row taken out."""
    return profile - np.convolve(profile, np.ones(k) / k, mode="same")


def repeat(profile: np.ndarray, lo: float, hi: float) -> tuple[float, float]:
    """(the lag, in profile samples, from ``lo`` to ``hi`` at which ``profile`` is most alike to itself, how alike:
    normalised autocorrelation), after the profile's slow trend (light falling off along the row) is taken out;
    (0, -1) where that lag is no peak (less alike than the lag one sample beyond the range).

    Why a peak: the profile of tiles outlined right repeats once a tile, just
    past ``hi``, and is most alike within the range at its end; that is no
    repeat of the range, and a layout a tile that short fits one tile too
    many into every fourteen (training photos ``hand_123``, ``hand_030`` at
    3.0 cm).
    """
    k = max(int(hi), 1)
    p = _trendless(profile, k)[k // 2: len(profile) - k // 2]

    def alike(n: int) -> float:
        a, b = p[:-n] - p[:-n].mean(), p[n:] - p[n:].mean()
        return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))

    best, lag = -1.0, 0
    for n in range(max(int(lo), 2), int(np.ceil(hi)) + 1):
        if n >= len(p) // 2:
            break
        r = alike(n)
        if r > best:
            best, lag = r, n
    if not lag or (lag + 1 < len(p) // 2 and alike(lag + 1) > best):
        return 0.0, -1.0
    return float(lag), best


class Rhythm(NamedTuple):
    """A row's picture and its repeat: the grey strip along it (``row_strip``), where the strip starts along the
    row, the row's line across it, and the repeat in strip samples."""
    grey: np.ndarray
    start: float
    line: float
    lag: float

    @property
    def step(self) -> float:
        """The repeat in square pixels: one tile's pitch."""
        return self.lag / ZOOM


def rhythm(image: np.ndarray, hom: np.ndarray, row: list[Seen], crowded: float | None = None) -> Rhythm | None:
    """The row's ``Rhythm`` where its picture repeats clearly (``REPEAT``, ``RHYTHM``); None where it does not, or
    where ``crowded`` is given and the row's outlines overlap less than that (``crowding``)."""
    if crowded is not None and crowding(row) > crowded:
        return None
    w = float(np.median([t.w for t in row]))
    grey, start, line = row_strip(image, hom, row)
    lag, alike = repeat(grey.mean(axis=0), REPEAT[0] * w * ZOOM, REPEAT[1] * w * ZOOM)
    return Rhythm(grey, start, line, lag) if alike >= RHYTHM and lag else None


def grown(tiles: list[Seen], row: list[int], step: float) -> list[int]:
    """``row`` (indices into ``tiles``, in order along it) with the face-up outlines on its line beyond either end
    taken in, each at most ``ALONG`` typical widths and ``GROW`` repeats ``step`` farther than the end it joins;
    as it is where its outlines do not lie a repeat apart (``AGREE``).

    Why: where the detector missed a tile or two of a rack, the outlines
    either side of the hole lie too far apart to chain (``tight_rows``),
    and each piece alone has room for just the tiles it has outlines for;
    the repeat found in one piece says how many tiles the hole holds.
    Its line is the one its outlines lie on, at their slant: two racks
    photographed at a slant, one above the other, lie level with each
    other in the square where one ends and the other goes on, and a row
    measured by its middle height took in the other rack's last tile
    (held-out `hand_135` v2 at 1.8 cm, whose 6s was lost to the layout).
    """
    members = [tiles[i] for i in row]
    steps = np.diff([_along(t)[0] for t in members])
    if abs(float(np.median(steps)) / step - 1.0) > AGREE:
        return list(row)
    axis = members[0].orient % 2
    w = float(np.median([t.w for t in members]))
    h = float(np.median([t.h for t in members]))
    slope, level = np.polyfit(*np.array([_along(t) for t in members]).T, 1)  # the row's line, at its slant
    reach = ALONG * w + GROW * step
    free = {}  # the face-up outlines of the row's axis on its line, by their place along it
    for i, t in enumerate(tiles):
        a, c = _along(t)
        if i not in row and t.state == "face_up" and t.orient % 2 == axis and abs(c - (slope * a + level)) < LEVEL * h:
            free[i] = a
    out = list(row)
    for end, sign in ((-1, 1.0), (0, -1.0)):
        while True:
            at = _along(tiles[out[end]])[0]
            near = [(sign * (a - at), i) for i, a in free.items() if 0 < sign * (a - at) <= reach]
            if not near:
                break
            _, i = min(near)
            del free[i]
            if end == -1:
                out.append(i)
            else:
                out.insert(0, i)
    return out


def layouts(image: np.ndarray, hom: np.ndarray, row: list[Seen], crowded: float | None = None,
            known: Rhythm | None = None) -> list[list[Seen]]:
    """The row laid out again a tile a repeat of its picture, where that fits more tiles than its outlines: at
    most two layouts, the gaps on the darkest lines of the repeat and half a repeat on (which of the two the
    lines between tiles are, the readers decide). Empty where the row shows no clear repeat or no more tiles.
    ``known``: the row's ``rhythm`` where the caller has it already, so its picture is not sampled twice.
    """
    found = known if known is not None else rhythm(image, hom, row, crowded)
    if found is None:
        return []
    grey, start, line, lag = found
    profile = grey.mean(axis=0)
    n = len(profile)
    trendless = _trendless(profile, int(lag))
    # where the gaps fall within a repeat: the phase whose comb of lines is darkest
    phases = np.arange(0.0, lag, 1.0)
    darkness = [np.interp(np.arange(ph, n, lag), np.arange(n), trendless).mean() for ph in phases]
    gap = float(phases[int(np.argmin(darkness))])
    base = row[0]
    orient = int(np.bincount([t.orient for t in row]).argmax())
    h = float(np.median([t.h for t in row]))
    heat = float(np.median([t.heat for t in row]))
    out = []
    for ph in (gap, (gap + lag / 2) % lag):
        edges = np.arange(ph, n + 1e-9, lag)
        spans = [(a, b) for a, b in zip(edges[:-1], edges[1:]) if b <= n]
        shades = [float(grey[:, int(a):max(int(b), int(a) + 1)].mean()) for a, b in spans]
        if not shades:
            continue
        typical = float(np.median(shades))
        kept = [(a + b) / 2 for (a, b), s in zip(spans, shades) if s >= LIGHT * typical]
        if len(kept) <= len(row):
            continue
        tiles = []
        for mid in kept:
            a = start + mid / ZOOM
            cx, cy = (a, line) if orient % 2 == 0 else (line, a)
            tiles.append(replace(base, cx=float(cx), cy=float(cy), w=lag / ZOOM, h=h, orient=orient,
                                 heat=heat, confidence=heat, tilt=None, alternatives=(), detected=None))
        out.append(tiles)
    return out


def explains(laid: list[Seen], laid_codes: list[str], row: list[Seen], row_codes: list[str]) -> bool:
    """Whether the layout ``laid`` (its tiles read ``laid_codes``) reads every outline of ``row`` (read
    ``row_codes``) alike where it lies: a laid tile within half a tile of the outline's middle, read the same.

    Why: where a rack's outlines are right but too few (the tiles between
    them never outlined), the old outlines are read surely, the tiles a
    layout adds between them less so, and the layout loses on average
    sureness though it finds more of the rack; one that agrees with every
    outline the detector found, tile for tile, only adds to them.
    """
    along = np.array([_along(t)[0] for t in laid])
    for t, code in zip(row, row_codes):
        k = int(np.argmin(np.abs(along - _along(t)[0])))
        if abs(along[k] - _along(t)[0]) > laid[k].w / 2 or laid_codes[k] != code:
            return False
    return True
