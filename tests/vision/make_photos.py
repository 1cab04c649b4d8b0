"""Render the committed test photos (run from the repo root; needs no torch).

    python -m tests.vision.make_photos

Seeds and families are fixed, so the output is reproducible; the seeds are
outside the ranges used for training and for the accuracy benchmark.
"""
import json

import cv2
import numpy as np

from tablemate.vision.render import random_layout, render_scene

from .conftest import DATA

SCENES = [("scoring_train_look", 500_001, "scoring", "train"),
          ("scoring_holdout_look", 500_002, "scoring", "holdout"),
          ("play_holdout_look", 500_003, "play", "holdout")]


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name, seed, phase, family in SCENES:
        layout = random_layout(np.random.default_rng(seed), phase)
        img, truth, cal = render_scene(layout, seed, family=family)
        cv2.imwrite(str(DATA / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 85])
        (DATA / f"{name}.cal.json").write_text(json.dumps(cal) + "\n")
        (DATA / f"{name}.truth.json").write_text(json.dumps(truth) + "\n")


if __name__ == "__main__":
    main()
