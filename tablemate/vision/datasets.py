"""Where the training data sets are found: none of them ships with the package.

Why one place: the renderer (real tile crops), the trainers and the
benchmark (real phone photos) and the art rasteriser each look for a data
set, and they must agree on where (docs/training.md, "Where the training commands expect the data").
"""
from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def data_dir(name: str) -> Path:
    """The folder of data set ``name`` (``tiles-real``, ``photos-real``, ``tile-art``).

    ``$TABLEMATE_DATA/NAME`` if that variable is set; else ``data/NAME`` in
    the repository; else ``shared/data/NAME`` beside the repository, where
    the project's own machines keep them; a missing folder is returned as
    ``data/NAME`` so a message can say where it was expected.
    """
    env = os.environ.get("TABLEMATE_DATA")
    if env:
        return Path(env) / name
    for base in (REPO / "data", REPO.parent / "shared" / "data"):
        if (base / name).exists():
            return base / name
    return REPO / "data" / name
