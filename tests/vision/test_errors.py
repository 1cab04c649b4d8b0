"""Every bad input gives a clear VisionError (a TablemateError), never a traceback."""
import json
import shutil

import cv2
import numpy as np
import pytest

from tablemate.rules.errors import TablemateError
from tablemate.vision.errors import VisionError
from tablemate.vision.contract import READ_H, READ_W
from tablemate.vision.models import CLASSES, DETECTOR, MODELS_DIR, READER, run_reader_embedding
from tablemate.vision.recognize import recognize_image

from .conftest import PHOTOS


def test_vision_error_is_a_tablemate_error():
    assert issubclass(VisionError, TablemateError)


def test_a_missing_image(tmp_path):
    with pytest.raises(VisionError, match="cannot read the image"):
        recognize_image(str(tmp_path / "nope.jpg"))


def test_an_empty_image(tmp_path):
    p = tmp_path / "empty.jpg"
    p.write_bytes(b"")
    with pytest.raises(VisionError, match="empty"):
        recognize_image(str(p))


def test_a_file_that_is_no_image(tmp_path):
    p = tmp_path / "notes.jpg"
    p.write_text("this is not a picture")
    with pytest.raises(VisionError, match="not an image"):
        recognize_image(str(p))


def test_a_folder_is_no_image(tmp_path):
    with pytest.raises(VisionError, match="folder"):
        recognize_image(str(tmp_path))


def test_a_tiny_image(tmp_path):
    p = tmp_path / "tiny.png"
    cv2.imwrite(str(p), np.zeros((10, 10, 3), np.uint8))
    with pytest.raises(VisionError, match="too small"):
        recognize_image(str(p))


def test_a_calibration_that_does_not_fit_the_image(tmp_path):
    photo, cal, _ = PHOTOS[0]
    bad = tmp_path / "cal.json"
    bad.write_text(json.dumps({"image_size": [1000, 1000], "corners": [[0, 999], [999, 999], [999, 0], [0, 0]]}))
    with pytest.raises(VisionError, match="calibration is for a 1000x1000 image"):
        recognize_image(str(photo), str(bad))


def _models_copy(tmp_path):
    d = tmp_path / "models"
    d.mkdir()
    for name in CLASSES:  # every model recognition loads
        shutil.copy(MODELS_DIR / name, d / name)
        shutil.copy(MODELS_DIR / (name + ".sha256"), d / (name + ".sha256"))
    return d


def _use(name, d):
    """Run what needs model ``name``: a recognition, or for the float reader (which only a learned set
    and enrollment read with) its features."""
    if name == READER:
        run_reader_embedding(np.zeros((1, 3, READ_H, READ_W), np.float32), models_dir=d)
    else:
        photo, cal, _ = PHOTOS[0]
        recognize_image(str(photo), str(cal), models_dir=d)


@pytest.mark.parametrize("name", list(CLASSES))
def test_a_missing_model_file(tmp_path, name):
    d = _models_copy(tmp_path)
    (d / name).unlink()
    with pytest.raises(VisionError, match="missing"):
        _use(name, d)


@pytest.mark.parametrize("name", list(CLASSES))
def test_a_corrupt_model_file(tmp_path, name):
    d = _models_copy(tmp_path)
    data = bytearray((d / name).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (d / name).write_bytes(bytes(data))
    with pytest.raises(VisionError, match="corrupt"):
        _use(name, d)


def test_a_truncated_model_file(tmp_path):
    d = _models_copy(tmp_path)
    (d / DETECTOR).write_bytes((d / DETECTOR).read_bytes()[:1000])
    photo, cal, _ = PHOTOS[0]
    with pytest.raises(VisionError, match="corrupt"):
        recognize_image(str(photo), str(cal), models_dir=d)


@pytest.mark.parametrize("kind", ["noise", "black", "gradient"])
def test_a_photo_without_a_table_gives_an_empty_recognition(tmp_path, kind):
    rng = np.random.default_rng(1)
    img = {"noise": rng.integers(0, 256, (600, 800, 3), dtype=np.uint8),
           "black": np.zeros((600, 800, 3), np.uint8),
           "gradient": np.tile(np.linspace(0, 255, 800, dtype=np.uint8)[None, :, None], (600, 1, 3))}[kind]
    p = tmp_path / "x.png"
    cv2.imwrite(str(p), img)
    rec = recognize_image(str(p))
    assert rec["image"] == {"width": 800, "height": 600}
    assert rec["tiles"] == []
    assert all(s["melds"] == [] and s["concealed"] == [] and s["discards"] == [] for s in rec["seats"].values())
