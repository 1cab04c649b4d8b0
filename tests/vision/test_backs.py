"""Back colours: training sets vary widely but never come near a held-out back."""
import numpy as np

from tablemate.vision.render.faces import HOLDOUT_BACKS, TRAIN_BACKS, random_back


def test_training_backs_avoid_held_out_colours_and_vary():
    rng = np.random.default_rng(0)
    listed = {tuple(map(float, c)) for c in TRAIN_BACKS}
    drawn = [np.array(b) for b in (random_back(rng, "train") for _ in range(400)) if b not in listed]
    assert len(drawn) > 100  # not only the listed colours
    far = [min(np.linalg.norm(b - np.array(h, float)) for h in HOLDOUT_BACKS) for b in drawn]
    assert min(far) > 70


def test_held_out_backs_come_from_their_list():
    rng = np.random.default_rng(1)
    assert {random_back(rng, "holdout") for _ in range(50)} <= {tuple(map(float, c)) for c in HOLDOUT_BACKS}
