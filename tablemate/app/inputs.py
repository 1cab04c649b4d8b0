"""What reaches the appliance from its edges: button actions and frame-source failures.

Why these live in app/ and not beside the gpiozero buttons or the camera
drivers: the service loop, the phone page and the tests speak this
vocabulary without importing hardware libraries; device/ produces it.
"""
from __future__ import annotations

import enum


class Action(enum.Enum):
    MAHJONG = "mahjong"  # score now
    NEXT = "next"        # pass the turn by hand; confirm a result
    DRAW = "draw"        # the wall is exhausted
    UNDO = "undo"        # take the last hand back


class Gesture(enum.Enum):
    ENROLL = "enroll"    # MAHJONG held: learn the players' tile set


ENROLL = Gesture.ENROLL
#: Seconds MAHJONG is held to start enrollment on the appliance (``tablemate run``).
ENROLL_HOLD = 3.0


class CameraError(Exception):
    """The camera cannot be opened or gave no usable frame."""


class EndOfFiles(CameraError):
    """A file source without ``loop`` has given its last frame."""


class BadFrame(CameraError):
    """One frame could not be decoded (a damaged or truncated image file).

    Why apart from CameraError: the source still works and the next call reads
    the next frame, so the caller skips this one instead of declaring the
    camera lost and reopening it (which would read the same bad file again).
    """
