"""A still is decoded once: a working picture for the table, its full size for closer looks."""
import cv2
import numpy as np
import pytest

from tablemate.vision.recognize import VisionError, _decode, load_image, load_still

from .conftest import PHOTOS


def test_a_large_still_gives_a_half_size_working_picture_and_the_full_one():
    photo = PHOTOS[0][0]
    small, sharp, (w, h), scale = load_still(photo)
    assert (w, h) == (4608, 2592)
    assert sharp.shape == (2592, 4608, 3) and small.shape == (1296, 2304, 3) and scale == 0.5
    # the working picture is the same scene as the reduced decode the rest of vision reads
    reduced, size, s2 = load_image(photo)
    assert size == (w, h) and s2 == scale and reduced.shape == small.shape
    assert np.abs(reduced.astype(np.int16) - small).mean() < 3
    # it is the full one halved exactly, so both show the same table
    assert np.array_equal(cv2.resize(sharp, (2304, 1296), interpolation=cv2.INTER_AREA), small)


def test_a_small_picture_is_its_own_sharp_picture(tmp_path):
    img = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), img)
    small, sharp, size, scale = load_still(path)
    assert sharp is small and size == (640, 480) and scale == 1.0
    assert np.array_equal(small, img)


def test_a_jpeg_decodes_to_the_same_pixels_as_opencv_gives_at_every_reduction(tmp_path):
    """The fast decoder must not change what the models see, nor turn the picture."""
    rng = np.random.default_rng(1)
    img = cv2.GaussianBlur(rng.integers(0, 256, (600, 1000, 3), dtype=np.uint8), (5, 5), 0)
    path = tmp_path / "still.jpg"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    buf = np.fromfile(path, np.uint8)
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}
    for k, flag in flags.items():
        ours = _decode(path, buf, k)
        theirs = cv2.imdecode(buf, flag | cv2.IMREAD_IGNORE_ORIENTATION)
        assert ours.shape == theirs.shape == (-(-600 // k), -(-1000 // k), 3)
        assert np.array_equal(ours, theirs)


def test_a_damaged_jpeg_is_refused_in_words_a_player_reads(tmp_path):
    ok, enc = cv2.imencode(".jpg", np.full((400, 600, 3), 128, np.uint8))
    path = tmp_path / "cut.jpg"
    path.write_bytes(enc.tobytes()[:200])
    with pytest.raises(VisionError, match="not an image tablemate can read"):
        load_image(path)
