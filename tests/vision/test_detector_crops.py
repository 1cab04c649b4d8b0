"""The detector's training crops: a stretched crop's tile boxes still lie on its tiles."""
import numpy as np
import pytest

from tablemate.vision.train.fit import STRETCH, detector_crop, stretched_boxes


def _scene() -> tuple[np.ndarray, np.ndarray]:
    """A 640-pixel scene with two white tiles: one upright (orient 0), one lying a quarter turned (orient 1)."""
    img = np.full((640, 640, 3), 30, np.uint8)
    img[280:340, 300:344] = 255   # upright: 44 across (x), 60 along (y)
    img[300:344, 360:420] = 255   # turned: its across side (44) on y, along (60) on x
    boxes = np.array([[322, 310, 44, 60, 0, 0], [390, 322, 44, 60, 1, 0]], np.float32)
    return img, boxes


def _white_extent(im: np.ndarray, cx: float, cy: float) -> tuple[float, float]:
    """Width and height of the white block around (cx, cy)."""
    row = im[int(round(cy)), :, 0] > 128
    col = im[:, int(round(cx)), 0] > 128
    x, y = int(round(cx)), int(round(cy))
    left = x - np.argmin(row[x::-1]) + 1
    right = x + np.argmin(row[x:])
    top = y - np.argmin(col[y::-1]) + 1
    bottom = y + np.argmin(col[y:])
    return float(right - left), float(bottom - top)


def test_an_upright_and_a_turned_tile_grow_along_the_right_sides():
    bx = stretched_boxes(np.array([[10, 20, 44, 60, 0, 0], [10, 20, 44, 60, 3, 0]], np.float32), 1.5, 1.0)
    assert bx[0].tolist() == [15, 20, 66, 60, 0, 0]      # across lies on x: it grows
    assert bx[1].tolist() == [15, 20, 44, 90, 3, 0]      # turned: along lies on x


@pytest.mark.parametrize("seed", range(12))
def test_a_stretched_crop_keeps_its_boxes_on_its_tiles(seed):
    img, boxes = _scene()
    rng = np.random.default_rng(seed)
    # Seek a draw that holds both tiles and is stretched (the crop is 320 of the scene's 640).
    for _ in range(500):
        im, bx, _, (zx, zy) = detector_crop(img, boxes, rng, 320, stretch=1.0)
        inside = ((bx[:, 0] - bx[:, 3] > 2) & (bx[:, 0] + bx[:, 3] < 318)
                  & (bx[:, 1] - bx[:, 3] > 2) & (bx[:, 1] + bx[:, 3] < 318)).all()
        if inside and max(zx, zy) / min(zx, zy) > 1.15:
            break
    else:
        pytest.fail("no stretched crop held both tiles")
    assert im.shape == (320, 320, 3)
    assert max(zx, zy) / min(zx, zy) <= STRETCH * 1.01
    (w0, h0), (w1, h1) = (_white_extent(im, x, y) for x, y in bx[:, :2])
    assert w0 == pytest.approx(bx[0, 2], abs=2.5) and h0 == pytest.approx(bx[0, 3], abs=2.5)
    assert w1 == pytest.approx(bx[1, 3], abs=2.5) and h1 == pytest.approx(bx[1, 2], abs=2.5)


def test_without_stretch_a_crop_is_zoomed_alike_both_ways():
    img, boxes = _scene()
    rng = np.random.default_rng(0)
    for _ in range(50):
        _, _, _, (zx, zy) = detector_crop(img, boxes, rng, 320)
        assert zx == pytest.approx(zy, rel=0.01)
