"""The detector's training crops: a stretched crop's tile boxes still lie on its tiles; a closer crop shows
small tiles as long as a still's closer look does."""
import numpy as np
import pytest

from tablemate.vision.train.fit import CLOSER_LENGTH, STRETCH, ZOOM, detector_crop, stretched_boxes


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


def _small_tiles() -> tuple[np.ndarray, np.ndarray]:
    """A 640-pixel scene of 1.8 cm tiles on 85 cm (13 across, 18 along): 40 of them in rows."""
    img = np.full((640, 640, 3), 30, np.uint8)
    boxes = []
    for r in range(4):
        for c in range(10):
            cx, cy = 150 + 16 * c, 200 + 60 * r
            img[cy - 9:cy + 9, cx - 6:cx + 7] = 255
            boxes.append([cx, cy, 13, 18, 0, 0])
    return img, np.array(boxes, np.float32)


def test_closer_crops_show_small_tiles_as_long_as_the_closer_look_and_the_others_as_before():
    img, boxes = _small_tiles()
    rng = np.random.default_rng(3)
    closer = [detector_crop(img, boxes, rng, 320, closer=1.0) for _ in range(40)]
    lengths = [float(np.median(bx[:, 3])) for _, bx, _, _ in closer]
    assert min(lengths) >= CLOSER_LENGTH[0] - 0.5 and max(lengths) <= CLOSER_LENGTH[1] + 0.5
    held = [(im, bx[(bx[:, 0] > 30) & (bx[:, 0] < 290) & (bx[:, 1] > 30) & (bx[:, 1] < 290)]) for im, bx, _, _ in closer]
    held = [(im, bx) for im, bx in held if len(bx)]
    assert held  # the boxes still lie on their tiles, now as long as asked
    for im, bx in held[:5]:
        w, h = _white_extent(im, *bx[0, :2])
        assert w == pytest.approx(bx[0, 2], abs=2.5) and h == pytest.approx(bx[0, 3], abs=2.5)
    plain = [detector_crop(img, boxes, rng, 320)[3][0] for _ in range(200)]
    assert max(plain) <= ZOOM[1] * 1.01 < 40 / 18  # without it no 1.8 cm tile is ever shown 40 long
