"""Back colours: training sets vary widely but never come near a held-out back."""
import numpy as np

from tablemate.vision.render.faces import HOLDOUT_BACKS, TRAIN_BACKS, random_back


def test_training_backs_avoid_held_out_colours_and_vary():
    rng = np.random.default_rng(0)
    backs = [np.array(random_back(rng, "train")) for _ in range(400)]
    far = [min(np.linalg.norm(b - np.array(h, float)) for h in HOLDOUT_BACKS) for b in backs]
    assert min(far) > 70
    listed = {tuple(map(float, c)) for c in TRAIN_BACKS}
    assert sum(tuple(b) not in listed for b in backs) > 100  # not only the listed colours


def test_held_out_backs_come_from_their_list():
    rng = np.random.default_rng(1)
    assert {random_back(rng, "holdout") for _ in range(50)} <= {tuple(map(float, c)) for c in HOLDOUT_BACKS}
