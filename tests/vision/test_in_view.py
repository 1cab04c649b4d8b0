"""A tile the camera did not see is not reported, whatever the warp filled in there."""
import numpy as np

from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import _in_view


def test_tiles_outside_the_picture_are_dropped():
    # top-down square 0..640 maps to the image shifted 100 px up: its top strip is outside the picture
    to_image = np.array([[1.0, 0, 0], [0, 1.0, -100.0], [0, 0, 1.0]])
    tiles = [Seen(320, 50, 20, 28, 0, "face_up"), Seen(320, 150, 20, 28, 0, "face_up"),
             Seen(700, 300, 20, 28, 0, "face_down"), Seen(10, 639, 20, 28, 0, "face_up")]
    kept = _in_view(tiles, to_image, 640, 640)
    assert [(t.cx, t.cy) for t in kept] == [(320, 150), (10, 639)]
    assert _in_view([], to_image, 640, 640) == []
