"""A learned set's faces as pictures, compared with a tile at the camera's full resolution.

Why: the reader sees a tile at 36x48 pixels and describes it with features
learned on other sets. On an unusual set two faces may differ only in a
small mark (the numeral above the characters, one more pip) that is a few
pixels there and that those features do not separate; the reading is then
sure and wrong. The enrollment grid shows every face of this very set, so
recognition can compare a tile with the pictures of the faces it might be,
pixel by pixel and at a higher resolution: normalised cross-correlation of
grey levels (so light and white balance do not matter), over a few pixels
of shift (the outline is off by a few percent) and either way up (the
faces of an unknown set may be read upside down). Only the reading's
likeliest faces are compared (and every flower for a tile read as one),
which keeps it to tens of milliseconds a still; a tile the set's counts
push off a full face, which is rare, is compared with every face
(``weigh_pushed_out``).
"""
from __future__ import annotations

import base64

import cv2
import numpy as np

from .bonus_look import BONUS_IDX
from .contract import READER_CLASSES, crop_tile

SIZE = (64, 86)          # a tile's crop (width, height), nearly twice the reader's: finer numerals
SLACK = (6, 7)           # the picture is the crop less this on each side: the shift allowed either way
SCALES = (1.0, 0.92, 1.08)  # the crop is also compared this much enlarged: outlines are off in size too ...
WELL = 0.85                 # ... unless a picture fits it this well at its own size
CANDIDATES = 4           # the reading's likeliest faces compared (more changed nothing on the benchmark's sets)
SHARPNESS = 40.0         # a face 0.1 likelier in correlation is e^4 times likelier
#: A face the set tells from its nearest neighbour by at least this margin (``TileSet.margins``) is not
#: compared: on the benchmark's sets no such reading was ever changed by its picture.
CLEAR = 0.3
#: The edge of crop and picture left out of the comparison (pixels; a tenth of the picture's 52x72 each side).
EDGE = (5, 7)
#: However sure the reading, each face compared counts as at least this share of the faces compared
#: (``weigh``): a picture 0.09 likelier in correlation (e^3.5 = 1/DOUBT) outweighs it.
DOUBT = 0.03
FLAT = 4.0               # a picture whose grey levels spread less than this (std) has no say: correlation with
#                          a blank face is noise (OpenCV gives a uniform one 1.0 against anything)
CLEARLY = 0.15           # a face further down fitting under WELL still joins when it fits this much better than the likeliest
INKED = 3.0              # a tile read as a face blank inside whose inside spreads this many times more shows ink


def _grey(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(crop_tile(image, quad, margin=0.0, size=SIZE), cv2.COLOR_BGR2GRAY)


def picture(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A face's picture (uint8 grey) from the tile with outline ``quad`` (TL, TR, BR, BL upright)."""
    sx, sy = SLACK
    return _grey(image, quad)[sy:-sy, sx:-sx].copy()


def _telling(pictures: dict[str, np.ndarray]) -> set[str]:
    """The faces whose picture has a say: not blank (FLAT)."""
    return {c for c, p in pictures.items() if p.std() >= FLAT}


def _inside(a: np.ndarray) -> np.ndarray:
    """The middle half of a picture (or of a crop's picture-sized middle) each way: inside any frame."""
    h, w = a.shape
    return a[h // 4:h - h // 4, w // 4:w - w // 4]


def _blank_inside(pictures: dict[str, np.ndarray]) -> dict[str, float]:
    """The faces whose picture is blank inside its frame (a white dragon), with that inside's spread."""
    return {c: s for c, p in pictures.items() if (s := float(_inside(p).std())) < FLAT}


def _inked(grey: np.ndarray, blank_spread: float) -> bool:
    """Whether the tile's crop (grey, SIZE) shows ink inside where the blank face it was read as shows none."""
    sx, sy = SLACK
    return float(_inside(grey[sy:-sy, sx:-sx]).std()) >= max(FLAT, INKED * blank_spread)


def _telling_but_flowers(pictures: dict[str, np.ndarray]) -> list[int]:
    """READER_CLASSES indices of the telling faces that are no flower or season, in order."""
    return sorted(READER_CLASSES.index(c) for c in _telling(pictures) if c[0] != "h")


def _middle(a: np.ndarray) -> np.ndarray:
    """``a`` less its EDGE on each side.

    Why: the frame, border and light edge of a face are the same on every
    face of a set and the largest contrast on it, so over the whole face
    they outweigh the faint strokes that tell two faces apart (an abstract
    set's h2 tile correlated 0.83 with its own picture and 0.88 with h7's).
    Leaving the edge out, the abstract sets of `benchmarks/enrollment.py`
    read 4 -> 1 tiles wrong at 2.0 cm, 2 -> 1 at 2.6 cm, 3 -> 2 at 3.5 cm
    and 0 -> 1 at 3.0 cm (9 -> 5 of 7,080); held-out looks lost none.
    The shifts allowed stay the same (both lose the same edge).
    """
    ex, ey = EDGE
    return np.ascontiguousarray(a[ey:a.shape[0] - ey, ex:a.shape[1] - ex])


def _scaled(a: np.ndarray, s: float) -> np.ndarray:
    """``a`` enlarged ``s`` times about its centre, at its own size (its edge repeated where it shrinks)."""
    if s == 1.0:
        return a
    h, w = a.shape
    m = cv2.getRotationMatrix2D((w / 2 - 0.5, h / 2 - 0.5), 0.0, s)
    return cv2.warpAffine(a, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def likeness(crop: np.ndarray, pictures: list[np.ndarray]) -> np.ndarray:
    """Each picture's best correlation with ``crop`` (grey, SIZE) over the shifts and SCALES, either way up (their middles).

    Why every picture both ways: letting the likeliest face's better way
    decide the way for the others saved three comparisons in eight, but
    a tile read as P whose P picture fitted clearly better one way
    (0.85) kept P although h3's picture fitted it 0.99 the other way.

    Why scales as well as shifts: an outline is off in size as well as in
    place, and faces drawn in thin strokes stop lining up a few pixels
    from the middle when the crop is a tenth too large. A table's
    outlines grown to the grid's size (``recognize._outlined_as_the_grid``)
    are off by the error of two medians: an abstract set's h4, lying
    beside its h8, fitted its own picture 0.26 and h7's 0.60 and was read
    as h7 (then the true h7 lost its place to it); at 0.92 of the crop's
    size it fits its own best. Only a crop that fits no picture WELL at
    its own size is tried at the others: over the abstract sets of
    `benchmarks/enrollment.py` at 2.2 cm, the other sizes changed 15 of
    1,172 comparisons, each of a crop whose best fit was under 0.82, and
    trying them on every crop took 90 ms more a still.
    """
    pictures = [_middle(p) for p in pictures]
    out = np.full(len(pictures), -1.0, np.float32)
    for s in SCALES:
        if not pictures or (s != 1.0 and out.max() >= WELL):
            break
        upright = _middle(_scaled(crop, s))
        turned = upright[::-1, ::-1].copy()
        for k, p in enumerate(pictures):
            out[k] = max(out[k], cv2.matchTemplate(upright, p, cv2.TM_CCOEFF_NORMED).max(),
                         cv2.matchTemplate(turned, p, cv2.TM_CCOEFF_NORMED).max())
    return out


def weigh(probs: np.ndarray, image: np.ndarray, quads: np.ndarray, pictures: dict[str, np.ndarray],
          clear: set[str] = frozenset()) -> list[int]:
    """Reweigh each row's likeliest faces by how alike its tile and their pictures are (in place).

    ``quads``: the rows' outlines in ``image`` (the sharpest picture at
    hand). Within the CANDIDATES likeliest faces that have a picture (for
    a row read as a flower or season, every one of those as well), each
    face's probability, but no less than DOUBT of theirs together, is
    multiplied by exp(SHARPNESS * correlation) and their share of the row
    is kept, so a face outside them and the row's sum do not move. Rows
    read as a back, or whose likeliest face has no picture, are left
    alone, and a blank picture (FLAT) is no candidate. Rows whose
    likeliest face is in ``clear`` (faces the set's features tell from
    every other by at least CLEAR) are left alone too. Why: the
    comparison costs about 1 ms a tile, up to a hundred milliseconds a
    still, and it is for faces the features do not separate. Measured over
    `benchmarks/enrollment.py` at 2.0, 2.6 and 3.5 cm: on the held-out
    looks' sets it changed none of 4,237 readings, and 98 % of them had a
    clear face; on the abstract sets it changed 30 of 4,307, none of them
    of a face with a margin of 0.3 or more (4 % of the rows).

    Why the floor (DOUBT): on a set the reader never saw, the blend of
    reader and set can be sure and wrong: an abstract 6m read as 9m at
    1.0, 6m at 0.0, while 6m's picture fitted it 0.12 better. Without the
    floor no picture could move such a row; with it, in a log of every
    row compared over the abstract sets at five sizes, 8 more rows came
    out right of this step and none wrong. Why every flower: a set's
    flowers are painted as anything and the reader knows them least, so
    the true one may be outside the likeliest four (an abstract h6 read
    as h1 at 0.94, h6 not among them; without the floor, comparing every
    flower changed nothing); eight pictures more for the few tiles read
    as flowers cost a few milliseconds. Together, with every picture
    compared both ways (``likeness``), the abstract sets of
    `benchmarks/enrollment.py` read 5 -> 1 tiles wrong of 7,080 and
    every seat right; the held-out looks' sets read as before (all).

    Why faces further down: where none of the likeliest faces' pictures
    fits the tile WELL, the true face may lie further down (an abstract
    8p read as 2p, 6p, 9p and 6m, 8p at 0.0, fitted 8p's picture 0.94 and
    none of theirs more than 0.62). Then every other telling picture but the
    flowers' (a set holds one of each, and their pictures are alike) is
    compared too, and those that fit WELL join the candidates (where none
    does, the best of them joins if it fits CLEARLY better than all the
    likeliest: an abstract 9m read as 5m, h1, E and 6m fitted 9m's picture
    0.71 and none of theirs more than 0.51). Measured
    over `benchmarks/enrollment.py` (2026-11-30): abstract sets at 2.0 /
    2.2 / 2.6 cm read 99.66 / 99.83 / 99.77 -> 100 / 100 / 99.84 % of
    tiles and 86.5 / 97.3 / 94.9 -> 94.6 / 100 / 97.4 % of seats; the
    held-out looks' sets and 3.0 / 3.5 cm read as before. It costs the
    unknown sets' stills tens of milliseconds (the comparisons of such a
    row take up to 34 pictures more); sets the reader knows seldom reach
    it.

    Why a blank face that shows ink: a face the set tells clearly from
    every other is not compared, and the white dragon is such a face; but
    a flower whose art is faint looked like one to the set (a held-out
    look's h1 read as P at 0.81, which fitted h1's picture 0.87). Where a
    row's likeliest face is blank inside its frame (its picture's middle
    half spreads less than FLAT) and the tile's middle half spreads INKED
    times more (at least FLAT), the tile shows ink that face has not: it
    is compared with every flower and every face further down, and if one
    fits it WELL, that one is read (the blank face's own correlation is
    noise and counts as none). The set's white dragons on the same tables
    spread 0.5 inside, that flower 5.6. If none fits WELL the reading stays.
    Returns the rows reweighed.
    """
    back = READER_CLASSES.index("back")
    flowers = BONUS_IDX.tolist()
    telling = _telling(pictures)
    further_down = _telling_but_flowers(pictures)
    blank = _blank_inside(pictures)
    done = []
    for i in range(len(probs)):
        order = [int(k) for k in np.argsort(-probs[i])[:CANDIDATES]]
        top = READER_CLASSES[order[0]]
        if order[0] == back or top not in pictures:
            continue
        grey = _grey(image, quads[i]) if top in blank else None
        doubted = grey is not None and _inked(grey, blank[top])
        if top in clear and not doubted:
            continue
        if order[0] in flowers or doubted:
            order += [k for k in flowers if k not in order]
        cand = [k for k in order if READER_CLASSES[k] in telling and not (doubted and k == order[0])]
        if len(cand) < 2 - doubted:
            continue
        if grey is None:  # cut only for rows that are compared
            grey = _grey(image, quads[i])
        like = likeness(grey, [pictures[READER_CLASSES[k]] for k in cand])
        if like.max() < WELL or doubted:  # none of its likeliest faces fits it: a face further down may
            rest = [k for k in further_down if k not in cand and k != order[0]]
            more = likeness(grey, [pictures[READER_CLASSES[k]] for k in rest])
            fits = more >= WELL
            if not doubted and len(more) and not fits.any() and more.max() >= like.max() + CLEARLY:
                fits = more == more.max()  # none fits WELL, but one fits clearly better than all of them
            cand += [k for k, f in zip(rest, fits) if f]
            like = np.concatenate([like, more[fits]])
        if doubted:  # its own picture's likeness is noise: it shows ink the face does not, so it fits no better than
            if like.max() < WELL:  # ... nothing, and only a face that fits it well takes its place
                continue
            cand, like = [order[0]] + cand, np.concatenate([[-1.0], like])
        p = probs[i, cand].astype(np.float64)
        w = np.maximum(p, DOUBT * p.sum()) * np.exp(SHARPNESS * (like - like.max()))
        probs[i, cand] = (w / w.sum() * p.sum()).astype(probs.dtype)
        done.append(i)
    return done


def weigh_pushed_out(probs: np.ndarray, chosen: np.ndarray, image: np.ndarray, quads: np.ndarray,
                     pictures: dict[str, np.ndarray]) -> list[int]:
    """Let the pictures alone rank the other faces of a tile the set's counts pushed off its first reading (in place).

    ``chosen``: each row's code within the counts (``tile_counts``). A row
    whose likeliest face is full takes its next likeliest with room, but on
    a set the reader never saw that next choice is as unreliable as the
    first: a 7p read as 8p, one 8p too many, fell to 5p because 7p was not
    among its four likeliest faces for ``weigh`` to compare. For such a row
    every face with a telling picture but its full first choice is compared,
    and that share of the row is divided among them by likeness alone, so
    the face the tile looks most like is the one with room it takes. The
    first choice's probability (how sure the tile is, which decides who
    keeps a full code) does not move. Flowers and seasons stay out, as
    tiles and as candidates: their pictures are too alike (a pushed-out h1
    was found most like a 7p), and one of each is all a set holds, so a
    pushed-out flower is left to the counts. Returns the rows reweighed.
    """
    telling = _telling_but_flowers(pictures)
    done = []
    for i in range(len(probs)):
        first = int(probs[i].argmax())
        if chosen[i] == first or first not in telling or chosen[i] not in telling:
            continue
        cand = [k for k in telling if k != first]
        if len(cand) < 2:
            continue
        like = likeness(_grey(image, quads[i]), [pictures[READER_CLASSES[k]] for k in cand]).astype(np.float64)
        w = np.exp(SHARPNESS * (like - like.max()))
        share = float(probs[i, cand].sum())
        probs[i, cand] = (w / w.sum() * share).astype(probs.dtype)
        done.append(i)
    return done


def encode(pictures: dict[str, np.ndarray]) -> dict:
    """The pictures for a set file: their size and each face's grey levels as base64."""
    sx, sy = SLACK
    return {"width": SIZE[0] - 2 * sx, "height": SIZE[1] - 2 * sy,
            "faces": {c: base64.b64encode(np.ascontiguousarray(p, np.uint8).tobytes()).decode("ascii")
                      for c, p in pictures.items()}}


def decode(data: dict) -> dict[str, np.ndarray]:
    """``encode``'s inverse; ValueError (the set file is damaged) if the size or any face is not what this version makes."""
    sx, sy = SLACK
    w, h = SIZE[0] - 2 * sx, SIZE[1] - 2 * sy
    if not isinstance(data, dict) or data.get("width") != w or data.get("height") != h or not isinstance(data.get("faces"), dict):
        raise ValueError
    out = {}
    for c, b in data["faces"].items():
        if c not in READER_CLASSES or c == "back":
            raise ValueError
        a = np.frombuffer(base64.b64decode(b, validate=True), np.uint8)
        if a.size != w * h:
            raise ValueError
        out[c] = a.reshape(h, w)
    return out
