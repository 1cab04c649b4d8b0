"""The models' input arrays (vision/contract.py), made in one pass.

Why tests: they were rewritten for speed on the promise that every value
stays what the plain numpy definition gives; a model fed its channels in the
wrong order reads worse without any error.
"""
from __future__ import annotations

import numpy as np

from tablemate.vision.contract import detector_blob, reader_blob


def _plain(bgr: np.ndarray) -> np.ndarray:
    """The definition: RGB, float32 in 0..1, channels first."""
    return (bgr[..., ::-1].astype(np.float32) / np.float32(255.0)).transpose(0, 3, 1, 2)


def test_the_detectors_input_is_the_squares_rgb_in_0_to_1_channels_first_and_contiguous():
    rng = np.random.default_rng(3)
    square = rng.integers(0, 256, (64, 64, 3), dtype=np.uint8)
    square[0, 0] = (10, 20, 250)  # a red pixel: blue 10, green 20, red 250
    blob = detector_blob(square)
    assert blob.dtype == np.float32 and blob.shape == (1, 3, 64, 64) and blob.flags.c_contiguous
    assert np.array_equal(blob, _plain(square[None]))
    assert blob[0, 0, 0, 0] == np.float32(250) / np.float32(255)  # the red channel comes first
    assert blob.max() <= 1.0 and blob.min() >= 0.0


def test_the_readers_input_is_every_crops_rgb_in_0_to_1_even_for_crops_that_are_views():
    rng = np.random.default_rng(4)
    big = rng.integers(0, 256, (100, 80, 3), dtype=np.uint8)
    crops = [big[i:i + 48, i:i + 36] for i in range(5)]  # views with the big picture's strides
    blob = reader_blob(crops)
    assert blob.dtype == np.float32 and blob.shape == (5, 3, 48, 36) and blob.flags.c_contiguous
    assert np.array_equal(blob, _plain(np.stack(crops)))
    assert reader_blob([]).shape == (0, 3, 48, 36)

