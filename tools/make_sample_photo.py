"""Render the README's sample table photo: a real MCR win at the bottom seat.

    .venv/bin/python tools/make_sample_photo.py

Writes tests/vision/data/sample_win.jpg, .cal.json and .truth.json (the renderer's ground truth): the bottom
player won on a discard (123m 456p 789s 5s [EEE] +5s, flower h1), the other
three hands stand, discards lie in the centre. Tiles are dealt from one set, so
no tile appears more than four times. Rendered with training looks and a
fixed seed (the README's "from a photo to a score" example).
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tablemate.rules.tiles import PLAYING_TILES  # noqa: E402
from tablemate.vision.render import render_scene  # noqa: E402

OUT = ROOT / "tests/vision/data"
WINNER_CONCEALED = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5s"]
WINNER_MELD = ["E", "E", "E"]
WIN = "5s"
SEED = 7


def layout() -> dict:
    pool = [t.code for t in PLAYING_TILES for _ in range(4)]
    for code in WINNER_CONCEALED + WINNER_MELD + [WIN]:
        pool.remove(code)
    rng = random.Random(SEED)
    rng.shuffle(pool)
    seats = {"bottom": {"melds": [{"kind": "pung", "tiles": WINNER_MELD, "exposed": True, "turned": 0}],
                        "concealed": WINNER_CONCEALED, "flowers": ["h1"], "winning_tile": WIN,
                        "hand_hidden": False, "discards": [pool.pop() for _ in range(7)]}}
    for side in ("right", "top", "left"):
        seats[side] = {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": True,
                       "standing_count": 13, "discards": [pool.pop() for _ in range(7)]}
    return {"seats": seats, "wall_stacks": 10}


def main() -> None:
    image, truth, calibration = render_scene(layout(), SEED, family="train", image_size=(4608, 2592))
    cv2.imwrite(str(OUT / "sample_win.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    (OUT / "sample_win.cal.json").write_text(json.dumps(calibration) + "\n")
    (OUT / "sample_win.truth.json").write_text(json.dumps(truth) + "\n")
    print(f"wrote {OUT / 'sample_win.jpg'}")


if __name__ == "__main__":
    main()
