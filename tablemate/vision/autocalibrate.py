"""A calibration found in the picture itself, for when none is given or stored.

Printed corner markers come first: they give the corners exactly and say
which side is bottom. Without them the mat's edges give the play area, and
the image's bottom is taken as the bottom seat.
"""
from __future__ import annotations

import numpy as np

from .calibration import Calibration, find_play_area
from .markers import find_markers


def find_calibration(image: np.ndarray) -> Calibration | None:
    """The play area's corners in ``image``'s pixels, or None when no table is seen."""
    return find_markers(image) or find_play_area(image)
