"""Where should the first reader's reading stand alone? The readers as recognition asks them, at several bars.

    python benchmarks/reader_thresholds.py [--bars 0.9,0.95,0.97,0.99] [--scenes 40] [--models DIR] [--json OUT]

Why: ``models.run_reader`` lets the first reader decide alone the crops it is
at least ``models.FIRST_SURE`` sure of, and asks the deep (and lite) reader
about the rest. A bar too low lets its sure misreads stand (a typeface it
never saw: 三萬 read as 二萬); too high, and the slower readers read most
crops. How sure a reader is depends on its training (its temperature), so a
new first reader needs its bar chosen again. For each bar this prints, on the
held-out real photo crops (``reader_photo_crops.py``) and on drawn sets in
the training typefaces and in the held-out one (``reader_drawn_sets.py``):
the share read right by ``run_reader`` with that bar, the share of crops the
first reader is unsure of (what the other readers cost), and how many crops
it is sure of and wrong. Figures to read, not a test: the exit status is 0
either way.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from tablemate.vision import models
from tablemate.vision.contract import reader_blob
from tablemate.vision.train import photos_real

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reader_drawn_sets import drawn_crops  # noqa: E402
from reader_photo_crops import alone, batched, crops_of  # noqa: E402


def first_readings(blob: np.ndarray, models_dir=None) -> np.ndarray:
    """The first reader's face probabilities alone: the same at every bar, so read once a set."""
    return batched(alone(models.READER_INT8, models_dir), blob)


def at_bar(blob: np.ndarray, ys: np.ndarray, first: np.ndarray, bar: float, models_dir=None) -> dict:
    """``run_reader`` with the first reader's bar at ``bar``: read right, unsure, sure and wrong (``first``: its
    own readings of ``blob``)."""
    saved, models.FIRST_SURE = models.FIRST_SURE, bar
    try:
        together = batched(lambda b: models.run_reader(b, models_dir)[0], blob)
    finally:
        models.FIRST_SURE = saved
    sure = first.max(1) >= bar
    return {"read_right": float(np.mean(together.argmax(1) == ys)), "unsure": float(np.mean(~sure)),
            "sure_and_wrong": int(np.sum(sure & (first.argmax(1) != ys))), "crops": int(len(ys))}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bars", default="0.9,0.95,0.97,0.99", help="the first reader's bars to try")
    ap.add_argument("--scenes", type=int, default=40, help="drawn scenes a typeface (default 40, seed 9000)")
    ap.add_argument("--models", help="a folder with the models of models/ and their .sha256 files")
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args(argv)
    bars = [float(b) for b in a.bars.split(",") if b]
    sets = {}
    _, hold = photos_real.split(photos_real.load())
    if hold:
        hx, hy, _ = crops_of(hold)
        sets["held-out real photo crops"] = (hx, hy)
    sets["drawn sets, training typefaces"] = drawn_crops(a.scenes, 9000, "drawn")
    sets["drawn sets, held-out typeface"] = drawn_crops(a.scenes, 9000, "drawn-held-out")
    res: dict = {"bar_shipped": models.FIRST_SURE, "sets": {}}
    print(f"the first reader's bar (shipped {models.FIRST_SURE}): read right / unsure / sure and wrong")
    for name, (xs, ys) in sets.items():
        blob = reader_blob(list(xs))
        first = first_readings(blob, a.models)
        rows = {str(bar): at_bar(blob, ys, first, bar, a.models) for bar in bars}
        res["sets"][name] = rows
        print(f"  {name} ({len(ys)} crops):")
        for bar, r in rows.items():
            print(f"    {bar}: {r['read_right']:.4f} / {r['unsure']:.3f} / {r['sure_and_wrong']}", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
