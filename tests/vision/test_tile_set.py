"""The learned set's discriminant (vision/tile_set.py): whitening by the set's own spread, either way up."""
from __future__ import annotations

import numpy as np

from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.tile_set import TileSet, fit_discriminant


def _set(rng):
    """Two faces and the back told apart only along axis 0; axis 1 varies a lot within each face."""
    d = 8
    centres = {"1m": 0.0, "2m": 1.0, "back": 2.0}
    drift = {"1m": 1.5, "2m": -1.5, "back": 0.0}   # along the noisy axis: far apart, yet no evidence
    feats, labels = [], []
    for k, c in enumerate(centres.values()):
        for turned in (0, 1):
            x = rng.normal(0, [0.05, 3.0] + [0.05] * (d - 2), (40, d))
            x[:, 0] += c
            x[:, 1] += drift[list(centres)[k]]
            x[:, 2] += 5.0 + 2.0 * turned          # the turned-round crops sit elsewhere
            feats.append(x)
            labels += [k + 3 * turned] * 40
    whiten, means = fit_discriminant(np.concatenate(feats), np.array(labels))
    protos = np.eye(3, d, dtype=np.float32)
    return TileSet("t", "", tuple(centres), protos, whiten, means, temperature=1.0, weight=1.0)


def test_the_direction_that_varies_within_a_face_does_not_decide():
    ts = _set(np.random.default_rng(0))
    crop = np.zeros((1, 8), np.float32)
    crop[0, 0], crop[0, 1], crop[0, 2] = 1.0, 2.0, 5.0   # 2m, though nearer 1m's mean in plain distance
    probs, dist = ts.match(crop)
    assert READER_CLASSES[int(probs[0].argmax())] == "2m"
    assert probs[0, READER_CLASSES.index("5m")] == 0       # a face the set lacks is never read


def test_a_turned_crop_is_near_and_an_odd_one_is_far():
    ts = _set(np.random.default_rng(1))
    upright, turned, odd = np.zeros((3, 8), np.float32)
    upright[[0, 2]] = 0.0, 5.0
    turned[[0, 2]] = 0.0, 7.0
    odd[[0, 2, 5]] = 0.5, 6.0, 4.0
    probs, dist = ts.match(np.stack([upright, turned, odd]))
    assert READER_CLASSES[int(probs[0].argmax())] == "1m" and READER_CLASSES[int(probs[1].argmax())] == "1m"
    assert dist[2] > 3 * max(dist[0], dist[1])
