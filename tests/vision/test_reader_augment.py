"""The readers' training views: a slightly wrong outline, a small patch painted over."""
import numpy as np

from tablemate.vision.contract import READ_H, READ_W
from tablemate.vision.train.data import OFF_LOOSE, OFF_SHIFT, off_outline
from tablemate.vision.train.fit import _erase_some, _warp_some


def _faces(n: int) -> np.ndarray:
    """``n`` crops: a white face on a dark ground, as an outline cut with a margin shows a tile."""
    xs = np.full((n, READ_H, READ_W, 3), 40, np.uint8)
    xs[:, 6:READ_H - 6, 5:READ_W - 5] = 240
    return xs


def test_a_wrong_outline_moves_the_face_a_little_and_keeps_it_in_view():
    xs = _faces(40)
    reach = 0.08
    out = _warp_some(xs, np.random.default_rng(3), 1.0, reach=reach)
    assert out.shape == xs.shape and out.dtype == xs.dtype
    assert np.array_equal(xs, _faces(40)), "the crops drawn from the data are not changed in place"
    face0 = xs[0, ..., 0] > 128
    c0 = np.argwhere(face0).mean(0)
    for crop in out:
        face = crop[..., 0] > 128
        assert not np.array_equal(face, face0)
        # Every corner moves at most 2 * reach of a side, so the face's centre and size move within that.
        assert np.all(np.abs(np.argwhere(face).mean(0) - c0) <= 2 * reach * np.array([READ_H, READ_W]) + 1)
        assert (1 - 4 * reach) ** 2 < face.sum() / face0.sum() < (1 + 4 * reach) ** 2
    assert _warp_some(xs, np.random.default_rng(3), 0.0) is xs


def test_an_erased_patch_is_one_small_flat_rectangle():
    xb = np.random.default_rng(0).random((60, 3, READ_H, READ_W)).astype(np.float32)
    before = xb.copy()
    out = _erase_some(xb, np.random.default_rng(4), 1.0)
    for a, b in zip(out, before):
        changed = np.argwhere((a != b).any(0))
        assert len(changed), "every crop drawn at share 1 loses a patch"
        (y0, x0), (y1, x1) = changed.min(0), changed.max(0)
        patch = a[:, y0:y1 + 1, x0:x1 + 1]
        assert np.all(patch == patch[0, 0, 0]), "one flat colour over one rectangle"
        # 3-12 % of the face, give or take the rounding of the sides to whole pixels.
        assert 0.02 * READ_H * READ_W <= patch[0].size <= 0.15 * READ_H * READ_W
    untouched = _erase_some(before.copy(), np.random.default_rng(4), 0.0)
    assert np.array_equal(untouched, before)


def test_an_off_outline_lies_a_fifth_to_a_third_of_a_tile_off_and_holds_most_of_it():
    # A tile 30 wide and 40 long, turned 30 degrees: the shift is measured in its own width, whatever its turn.
    a = np.deg2rad(30)
    u, v = np.array([np.cos(a), np.sin(a)]) * 30, np.array([-np.sin(a), np.cos(a)]) * 40
    q = np.array([[100, 100], [100, 100] + u, [100, 100] + u + v, [100, 100] + v])
    rng = np.random.default_rng(5)
    offs, scales = [], []
    for _ in range(300):
        o = off_outline(q, rng)
        assert o.shape == q.shape
        offs.append(np.linalg.norm(o.mean(0) - q.mean(0)) / 30)
        scales.append(np.linalg.norm(o[1] - o[0]) / 30)
        # Still the same tile's outline: its sides keep their directions and its length-to-width.
        side = o[1] - o[0]
        assert np.isclose(side[0] * u[1] - side[1] * u[0], 0, atol=1e-6)
        assert np.isclose(np.linalg.norm(o[3] - o[0]) / np.linalg.norm(o[1] - o[0]), 40 / 30)
    assert OFF_SHIFT[0] <= min(offs) and max(offs) <= OFF_SHIFT[1]
    assert 1.0 <= min(scales) and max(scales) <= OFF_LOOSE
    # Off in every direction, not along one axis only.
    dirs = [np.arctan2(*(off_outline(q, rng).mean(0) - q.mean(0))[::-1]) for _ in range(200)]
    assert np.histogram(dirs, bins=4, range=(-np.pi, np.pi))[0].min() > 20
