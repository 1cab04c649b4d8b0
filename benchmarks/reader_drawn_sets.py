"""The readers on sets drawn from the faces' meaning: do they read numerals and count pips, or know art?

    python benchmarks/reader_drawn_sets.py [--scenes 40] [--seed 9000] [--models DIR] [--json OUT.json]

Why: every face the readers learn comes from two art sets, a few hundred
tile photos and the training photos' sets, so a reader may read 五 over 萬 by
one art's strokes rather than as the numeral. ``render/drawn_faces.py``
draws whole sets whose class lies only in the meaning (N pips or sticks in
their places, the numeral in a Kai, Ming, Sans or Serif face), everything
else random per set. This renders ``--scenes`` reader scenes of such sets
(``train.data._reader_scene``; the seeds are ``--seed`` + ``DRAWN_SEEDS`` on,
as ``train.data --drawn-scenes`` numbers them, so keep ``--seed`` away from any
training run's), cuts the crops as training does and reads them with each
reader alone and together as recognition asks them, per suit.

A reader trained with ``--drawn-scenes`` has seen other sets of the same
fonts and shapes, so for it the first figures measure sets of a known kind.
The same sets are then drawn again in a typeface no training prints with
(``drawn_faces.HELD_OUT_FONT_FILES``, Droid Sans Fallback: family
``drawn-held-out``) and read again: only the characters and the winds and
dragons change, so the gap between the two is what the readers owe to
having seen the typefaces. Figures to read, not a test: the exit status is
0 either way.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.train import data

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reader_photo_crops import readings  # noqa: E402

GROUPS = {"characters": "m", "circles": "p", "bamboo": "s"}


def group_of(code: str) -> str:
    if code[0].isdigit():
        return next(g for g, s in GROUPS.items() if code[1] == s)
    return {"h": "flowers and seasons", "b": "backs"}.get(code[0], "honours")


FAMILIES = {"typefaces training prints with": "drawn", "a typeface training never prints with": "drawn-held-out"}


def drawn_crops(scenes: int, seed: int, family: str = "drawn") -> tuple[np.ndarray, np.ndarray]:
    """Upright crops and their codes' indices from ``scenes`` drawn scenes (``family``: drawn, drawn-held-out)."""
    xs, ys = [], []
    for s in range(seed + data.DRAWN_SEEDS, seed + data.DRAWN_SEEDS + scenes):
        x, y, flip = data._reader_scene(s, family=family)
        xs += [c[::-1, ::-1] if f else c for c, f in zip(x, flip)]  # the half turn training adds, undone
        ys.append(y)
    return np.stack(xs), np.concatenate(ys).astype(int)


def figures(xs: np.ndarray, ys: np.ndarray, models_dir=None) -> dict:
    """Each reader's share read right (``reader_photo_crops.readings``), overall and per group of faces."""
    groups = np.array([group_of(READER_CLASSES[y]) for y in ys])
    out: dict = {"tiles": int(len(ys))}
    for key, probs in readings(xs, models_dir).items():
        right = probs.argmax(1) == ys
        out[key] = {"all": float(right.mean()),
                    **{g: float(right[groups == g].mean()) for g in sorted(set(groups))}}
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=40, help="drawn scenes to render (default 40)")
    ap.add_argument("--seed", type=int, default=9000, help="first scene's seed, less train.data.DRAWN_SEEDS (default 9000)")
    ap.add_argument("--models", help="a folder with the models of models/ and their .sha256 files")
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args(argv)
    out = {}
    for name, family in FAMILIES.items():
        xs, ys = drawn_crops(a.scenes, a.seed, family)
        res = out[family] = figures(xs, ys, a.models)
        print(f"readers on {res['tiles']} crops of {a.scenes} drawn sets (seed {a.seed}), {name}, read right:")
        for key in ("first", "deep", "lite", "together"):
            r = res[key]
            parts = ", ".join(f"{g} {v:.3f}" for g, v in r.items() if g != "all")
            print(f"  {key:9s} {r['all']:.4f}  ({parts})", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
