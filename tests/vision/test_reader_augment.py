"""The readers' training views: a slightly wrong outline, a small patch painted over."""
import numpy as np

from tablemate.vision.contract import READ_H, READ_W
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
