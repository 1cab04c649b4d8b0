"""The held-out split and the group numbers do not move between runs.

Why it matters: a held-out photo that slipped into training would flatter
every photo figure, and a validation crop in the training batches would
make validation measure memory.
"""
import os
import subprocess
import sys

import numpy as np

from tablemate.vision.train import fit, photos_real
from tablemate.vision.train.stable_numbers import name_number

NAMES = [f"photo_{i:03d}_jpg" for i in range(60)]
SCRIPT = ("from tablemate.vision.train import photos_real as p; "
          f"print([(p.is_held_out(n), p.photo_group(n)) for n in {NAMES!r}])")


def test_the_split_is_the_same_in_another_process_with_another_string_hash_salt():
    here = [(photos_real.is_held_out(n), photos_real.photo_group(n)) for n in NAMES]
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        assert out.strip() == repr(here)


def test_the_photos_the_docs_name_as_held_out_stay_held_out():
    # docs/training.md counts the errors of these held-out photos
    for name in ("hand_103_jpg", "discards_002_jpg", "IMG_20231102_205225_jpg", "character_family_003_jpg"):
        assert photos_real.is_held_out(name)


def test_a_name_gives_one_number_as_text_or_bytes_and_its_slices_differ():
    assert name_number("hand_103_jpg", 0, 4) == name_number(b"hand_103_jpg", 0, 4)
    assert name_number("a", 0, 4) != name_number("b", 0, 4)
    assert name_number("a", 0, 4) < 2 ** 32 and name_number("a", 4, 9) < 2 ** 40
    held = np.mean([photos_real.is_held_out(f"x{i}") for i in range(2000)])
    assert abs(held - photos_real.HOLDOUT_SHARE) < 0.03


def test_validation_takes_whole_groups_and_about_its_share_of_them():
    groups = np.repeat(np.arange(600) + photos_real.PHOTO_GROUPS, 3)
    val, _ = fit.validation_split(groups, np.random.default_rng(0))
    held = set(groups[val].tolist())
    assert all(np.isin(np.flatnonzero(groups == g), val).all() for g in held)  # every crop of a held group
    assert len(val) == 3 * len(held)
    assert 0.05 < len(held) / 600 < 0.12
