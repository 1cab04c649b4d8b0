"""Keeping a play area found automatically, instead of looking for it in every frame.

Why: the camera is fixed over the table (docs/table-setup.md: the product makes a
calibration by itself and stores it). Looking for the mat in every frame
means every frame can land a little differently, or fail outright when an
arm lies across the mat's edge, and one such frame reads as an empty or
shifted table. So a found area is kept once ``confirm`` frames in a row
found it in the same place, and later frames use the kept one.

The camera can still be bumped or moved, so the kept area is dropped after
``lost_after`` frames in a row that showed no table with it, and every
``recheck_every`` frames the mat is looked for again: if it now lies
elsewhere, it is looked for in every frame until ``confirm`` frames in a
row agree on the new place (then it is kept instead) or one frame finds it
where it was (a false alarm).

Pure: the caller passes the search as a function and says what each frame
showed; no images, no files. Agreement is measured in shares of the image
size, so stills and video frames of one camera compare.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .calibration import Calibration

Search = Callable[[], Calibration | None]


def same_place(a: Calibration, b: Calibration, tolerance: float) -> bool:
    """Whether every corner of ``a`` lies within ``tolerance`` (a share of the image size) of ``b``'s."""
    na = np.float64(a.corners) / np.float64(a.image_size)
    nb = np.float64(b.corners) / np.float64(b.image_size)
    return bool(np.abs(na - nb).max() <= tolerance)


@dataclass
class CalibrationKeeper:
    """Decides per frame whether to search for the play area, and which calibration to use."""

    confirm: int = 2
    tolerance: float = 0.005
    lost_after: int = 10
    recheck_every: int = 60
    #: The kept calibration (or one loaded from where a previous run stored it).
    kept: Calibration | None = None
    _candidate: Calibration | None = field(default=None, repr=False)
    _agreeing: int = field(default=0, repr=False)
    _doubting: bool = field(default=False, repr=False)
    _empty: int = field(default=0, repr=False)
    _since_check: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        if self.confirm < 1 or self.lost_after < 1:
            raise ValueError("confirm and lost_after must be at least 1 frame")

    def frame(self, search: Search) -> Calibration | None:
        """The calibration for this frame; calls ``search`` only when a search is due.

        Until one is kept, each frame uses what its own search found (None:
        the frame shows no table). Callers that store the kept calibration
        compare :attr:`kept` before and after.
        """
        if self.kept is None:
            found = search()
            self._propose(found)
            return found
        self._since_check += 1
        if self._doubting or (self.recheck_every and self._since_check >= self.recheck_every):
            self._since_check = 0
            found = search()
            if found is None or same_place(found, self.kept, self.tolerance):
                self._doubting, self._candidate, self._agreeing = False, None, 0
            else:
                self._doubting = True
                self._propose(found)
        return self.kept

    def saw(self, table: bool) -> None:
        """What the frame read with :meth:`frame`'s calibration showed: a table or nothing at all."""
        if self.kept is None or table:
            self._empty = 0
            return
        self._empty += 1
        if self._empty >= self.lost_after:  # the camera looks elsewhere now: search again
            self.kept, self._candidate, self._agreeing, self._doubting, self._empty = None, None, 0, False, 0

    def _propose(self, found: Calibration | None) -> None:
        if found is None:
            self._candidate, self._agreeing = None, 0
            return
        if self._candidate is not None and same_place(found, self._candidate, self.tolerance):
            self._agreeing += 1
        else:
            self._candidate, self._agreeing = found, 1
        if self._agreeing >= self.confirm:
            self.kept, self._candidate, self._agreeing = found, None, 0
            self._doubting, self._empty, self._since_check = False, 0, 0
