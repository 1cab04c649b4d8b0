"""A closer look at the tiles the reader takes for flowers and seasons.

Why: the eight bonus tiles differ only in a small number (1-4) and a name
(梅蘭菊竹 / 春夏秋冬); at the resolution the reader works at they are a few
pixels tall, and one misread bonus tile makes a whole seat wrong. The bonus
reader (``tile_bonus.onnx``) sees the same tile cut from the camera's full
resolution, larger, and weighs in on h1..h8 against "not a bonus tile". Only
the few tiles the reader gives some bonus probability pay for it.
"""
from __future__ import annotations

import numpy as np

from .contract import BONUS_CLASSES, BONUS_H, BONUS_W, READER_CLASSES, bonus_crop, reader_blob
from .models import BONUS, run_bonus, session

#: Reader classes h1..h8, in BONUS_CLASSES order.
BONUS_IDX = np.array([READER_CLASSES.index(c) for c in BONUS_CLASSES[:-1]])
NOT_BONUS = np.array([i for i in range(len(READER_CLASSES)) if i not in set(BONUS_IDX.tolist())])
LOOK_AT = 0.10    # bonus probability (summed over h1..h8) from which a tile gets the closer look
UNSURE = 0.5      # ... or from which the reader's best reading is too unsure to rule a bonus tile out
MAX_LOOKS = 16    # at most this many tiles per picture (a table shows at most 8 bonus tiles)
SAY = 0.5         # the bonus reader's probabilities count to this power (tempered), the reader's in full


def candidates(probs: np.ndarray, among: list[int] | None = None, limit: int = MAX_LOOKS) -> list[int]:
    """Rows worth a closer look, likeliest bonus tiles first: some bonus probability, or a
    reading too unsure to rule one out (the reader is least sure of bonus faces it has
    not seen); never a tile read as a back."""
    rows = range(len(probs)) if among is None else among
    back = len(READER_CLASSES) - 1
    mass = probs[:, BONUS_IDX].sum(1)
    keep = [i for i in rows if (mass[i] >= LOOK_AT or probs[i].max() < UNSURE) and probs[i].argmax() != back]
    return sorted(keep, key=lambda i: -mass[i])[:limit]


def merge(reader: np.ndarray, bonus: np.ndarray) -> np.ndarray:
    """One tile's reader probabilities with the bonus reader's tempered say, as the product of the two experts.

    The bonus reader's h1..h8 multiply the reader's h1..h8, its "none" every
    other class, and the result is normalised. Why a product and not the
    bonus reader's word alone: on real sets both are sometimes confidently
    wrong, and then whichever is surer should decide; where the reader
    cannot see the small number (its h1..h8 nearly equal), the bonus reader
    still picks the flower, and the reader's odds among the other 35
    classes keep their ratios.

    Why tempered (``SAY``): the bonus reader is as sure of the flowers of
    sets it never saw as of its own, and wrong there more often than the
    reader. Counted at the square root, held-out real photos read 90.4 and
    90.9 % of their flowers and seasons right at 3.0 and 3.5 cm, not 88.3
    and 88.5 % (2.2 cm unchanged); rendered held-out tables read every tile,
    and every seat with the calibration given, as before (docs/training.md,
    "The bonus reader's say").
    """
    out = reader.astype(np.float64) + 1e-9
    say = np.asarray(bonus, np.float64) ** SAY
    out[NOT_BONUS] *= float(say[-1])
    out[BONUS_IDX] *= say[:-1]
    return (out / out.sum()).astype(reader.dtype)


def closer_look(probs: np.ndarray, detail: np.ndarray, quads: np.ndarray, rows: list[int] | None = None,
                models_dir=None, limit: int = MAX_LOOKS) -> list[int]:
    """Merge the bonus reader's reading into ``probs`` (in place) for the candidate rows.

    ``quads``: each row's tile outline (TL, TR, BR, BL as read) in ``detail``
    pixels, ``detail`` the sharpest picture of the table at hand. ``rows``
    limits the candidates and ``limit`` their number. Returns the rows looked at.
    """
    session(BONUS, models_dir)  # a missing or corrupt model is refused on every picture, flowers or not
    look = candidates(probs, rows, limit)
    if not look:
        return look
    blob = reader_blob([bonus_crop(detail, quads[i]) for i in look], size=(BONUS_W, BONUS_H))
    q = run_bonus(blob, models_dir)
    for i, row in zip(look, q):
        probs[i] = merge(probs[i], row)
    return look
