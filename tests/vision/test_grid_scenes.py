"""The detector's grid scenes: a set's enrollment grid from above, every tile outlined and the gaps left as mat."""
import numpy as np
import pytest

from tablemate.vision.enroll import expected_places
from tablemate.vision.train.data import _grid_scene


@pytest.mark.parametrize("seed", [3, 8])
def test_a_grid_scene_outlines_every_tile_of_the_grid_apart_from_its_neighbours(seed):
    img, boxes, ignore = _grid_scene(seed)
    assert img.shape == (640, 640, 3) and (ignore == -1).all()
    assert len(boxes) in (len(expected_places(True)), len(expected_places(False)))
    assert set(boxes[:, 5].tolist()) == {0.0, 1.0}            # faces up, and the two backs
    half = np.maximum(boxes[:, 2], boxes[:, 3]) / 2           # a generous half extent for a turned tile
    d = np.hypot(*(boxes[:, None, :2] - boxes[None, :, :2]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert (d > 1.05 * np.minimum(boxes[:, 2], boxes[:, 3]).max()).all()   # laid apart: no two outlines share a tile
    grey = img.astype(np.float32).mean(2)
    faces = boxes[boxes[:, 5] == 0]
    nearest = d[boxes[:, 5] == 0][:, boxes[:, 5] == 0].argmin(1)
    inside = [grey[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3].mean() for x, y in faces[:, :2]]
    gaps = []
    for (x, y), j in zip(faces[:, :2], nearest):       # the midpoint between a face and its nearest face
        mx, my = (x + faces[j, 0]) / 2, (y + faces[j, 1]) / 2
        gaps.append(grey[int(my) - 1:int(my) + 2, int(mx) - 1:int(mx) + 2].mean())
    assert np.median(inside) > np.median(gaps) + 25, (np.median(inside), np.median(gaps))
    assert half.max() < 60
