"""The renderer's tables are physical: no two tiles lie in one place, at any tile size."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

render = pytest.importorskip("tablemate.vision.render")
from tablemate.vision.render.layout import _push, part_touching, place_tiles  # noqa: E402
from tablemate.vision.render.scene import random_spec  # noqa: E402


def _overlaps(blocks) -> list[tuple[str, str, float]]:
    """(role, role, overlap as a share of a tile) for every pair of tiles off the wall that overlap > 1 %."""
    bl = [b for b in blocks if b.role != "wall"]
    out = []
    for i in range(len(bl)):
        for j in range(i + 1, len(bl)):
            if np.hypot(bl[i].x - bl[j].x, bl[i].y - bl[j].y) > bl[i].h + bl[j].h:
                continue
            area, _ = cv2.intersectConvexConvex(np.float32(bl[i].corners()), np.float32(bl[j].corners()))
            share = area / min(bl[i].w * bl[i].h, bl[j].w * bl[j].h)
            if share > 0.01:
                out.append((bl[i].role, bl[j].role, round(float(share), 3)))
    return out


@pytest.mark.parametrize("tile_cm, area_cm", [(2.2, 85.0), (3.0, 85.0), (3.5, 85.0), (3.15, 70.0), (1.9, 100.0)])
def test_no_two_tiles_overlap_at_any_size(tile_cm, area_cm):
    """Big tiles on a small table brought two seats' discard rows corner to corner (one tile drawn
    over most of another); the placement jitter pushed neighbours into each other at every size."""
    for seed in range(12):
        rng = np.random.default_rng(seed)
        layout = render.random_layout(rng, "scoring" if seed % 2 else "play")
        spec = random_spec(rng, layout, tile_cm=tile_cm, area_cm=area_cm)
        assert _overlaps(place_tiles(spec, rng, plan_seed=seed)) == []


def test_two_overlapping_tiles_are_moved_apart_and_only_just():
    from tablemate.vision.render.layout import Block
    a = Block("1m", "1m", 0.0, 0.0, (0.0, -1.0), 2.0, 3.0, role="discard")
    b = Block("2m", "2m", 1.5, 0.2, (0.0, -1.0), 2.0, 3.0, role="discard")   # half a tile into a
    push = _push(a.corners(), b.corners())
    assert np.allclose(push, [0.5, 0.0])                 # along the axis where they overlap least
    part_touching([a, b])
    assert _push(a.corners(), b.corners()) is None
    assert 2.0 < b.x - a.x < 2.1 and np.isclose(a.y, 0.0) and np.isclose(b.y, 0.2)
    assert _push(a.corners(), Block("3m", "3m", 5.0, 0.0, (0.0, -1.0), 2.0, 3.0).corners()) is None
