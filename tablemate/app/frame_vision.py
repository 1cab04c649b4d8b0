"""Camera images to recognitions, with the table's calibration found once and kept.

Why: the camera stays put over the table, so every image of a session has
the same calibration. Given one (``--calibration FILE``), every image uses
it. Without one, the play area is found automatically (printed corner
markers, else the mat's edges: ``vision.autocalibrate``), and a place found
in two frames in a row is kept for the frames after it
(:class:`~tablemate.vision.calibration_keeper.CalibrationKeeper` decides
when to look again); looking in every frame would let a single frame land
elsewhere or find nothing and read as a shifted or empty table. With
``store``, the kept calibration is written to that file (docs/table-setup.md: the
product stores the calibration it made) and read back at the next start.

The service (``tablemate run``, the demo) and ``tablemate track`` read
their frames through this, so they decide alike.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from ..vision.autocalibrate import find_calibration
from ..vision.calibration import FOUND_REACH, Calibration, check_fits, parse_calibration
from ..vision.calibration_keeper import CalibrationKeeper
from ..vision.errors import VisionError
from .memory import give_back

if TYPE_CHECKING:
    from ..vision.recognize import CloserLook

log = logging.getLogger(__name__)

MAX_SIDE = 2400  # recognise large frames at half or quarter size, as recognize_image decodes them


def shrink(image: np.ndarray) -> tuple[np.ndarray, float]:
    """(the image at a size vision reads quickly, its scale relative to the original)."""
    h, w = image.shape[:2]
    scale = 1.0
    while max(w, h) * scale > MAX_SIDE:
        scale /= 2
    if scale == 1.0:
        return image, scale
    return cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA), scale


def closer_look(scale: float) -> CloserLook | None:
    """The detector's closer look for a picture read at ``scale`` (``shrink``): the narrow one for a video frame,
    the default for a still.

    Why: a video frame, read at its full size, has 150 ms for the turn, and
    the wide look (``vision.recognize.WIDE_LOOK``) costs about 60 ms of it
    (frame to turn 89 -> 149 ms median, ``benchmarks/appliance_latency.py``),
    while the narrow one keeps every turn figure; a still (MAHJONG, larger
    than ``MAX_SIDE``, read shrunk) has a second, and the wide look finds
    more real tiles in it (docs/training.md, "Every tile shown to the
    detector as a 4.0 cm one").
    """
    from ..vision.recognize import NARROW_LOOK
    return NARROW_LOOK if scale == 1.0 else None


def shows_table(recognition: dict) -> bool:
    """Whether a recognition saw anything of a table (any tile, or standing hands)."""
    seats = recognition.get("seats") or {}
    return bool(recognition.get("tiles")) or any((s or {}).get("hand_hidden") for s in seats.values())


class FrameVision:
    """``vision(image) -> recognition`` (docs/formats.md "A recognition") for one camera's images."""

    def __init__(self, calibration: Calibration | None = None, *, store: str | Path | None = None,
                 keeper: CalibrationKeeper | None = None, models_dir=None, tile_set=None) -> None:
        self.fixed = calibration
        self.tile_set = tile_set  # a learned set (vision.tile_set), or None for the trained reader alone
        self.keeper = keeper or CalibrationKeeper()
        self.store = Path(store) if store else None
        self.models_dir = models_dir
        if calibration is None and self.store is not None and self.keeper.kept is None:
            self.keeper.kept = _load(self.store)

    def __call__(self, image: np.ndarray) -> dict:
        """The recognition of one camera image; flowers and seasons are read from it at full size.

        Freed memory is handed back after each image (``app.memory``).
        """
        try:
            return self._recognize(image)
        finally:
            give_back()

    def _recognize(self, image: np.ndarray) -> dict:
        from ..vision.recognize import empty_recognition, recognize_array

        h, w = image.shape[:2]
        small, scale = shrink(image)
        look = closer_look(scale)
        if self.fixed is not None:
            return recognize_array(small, (w, h), scale, check_fits(self.fixed, w, h), self.models_dir,
                                   detail=image, tile_set=self.tile_set, look=look)
        before = self.keeper.kept
        cal = self._automatic(small, scale, w, h)
        rec = (empty_recognition(w, h) if cal is None
               else recognize_array(small, (w, h), scale, cal, self.models_dir, detail=image, tile_set=self.tile_set,
                                    found=True, look=look))
        self.keeper.saw(shows_table(rec))
        if self.keeper.kept is not before:
            self._stored(self.keeper.kept)
        return rec

    def _automatic(self, small: np.ndarray, scale: float, w: int, h: int) -> Calibration | None:
        def search() -> Calibration | None:
            found = find_calibration(small)
            if found is None:
                return None
            return Calibration((w, h), tuple((x / scale, y / scale) for x, y in found.corners))

        cal = self.keeper.frame(search)
        if cal is None:
            return None
        try:
            return check_fits(cal, w, h, FOUND_REACH)
        except VisionError:  # an image of another shape than the kept one's: found on its own
            return search()

    def _stored(self, cal: Calibration | None) -> None:
        if self.store is None:
            return
        try:
            if cal is None:
                self.store.unlink(missing_ok=True)
                log.info("calibration: the table is no longer where it was; looking for it again")
                return
            tmp = self.store.with_name(self.store.name + ".tmp")
            tmp.write_text(json.dumps(cal.to_json()) + "\n")
            os.replace(tmp, self.store)
            log.info("calibration: found the table and stored it in %s", self.store)
        except OSError as err:  # keeping it in memory is enough to go on
            log.warning("calibration: cannot store it in %s: %s", self.store, err)


def _load(path: Path) -> Calibration | None:
    try:
        return parse_calibration(json.loads(path.read_text()), str(path))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, VisionError) as err:
        log.warning("calibration: ignoring the stored %s: %s", path, err)
        return None
