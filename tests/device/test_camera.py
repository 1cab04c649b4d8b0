from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablemate.device.camera import (
    CameraError, EndOfFiles, FileCamera, OpenCVCamera, open_camera, settled)
from tablemate.app.config import CameraConfig


def image(value: int) -> np.ndarray:
    img = np.zeros((48, 64, 3), np.uint8)
    img[:, :, 0] = value          # blue channel: checks BGR order survives
    img[10:20, 10:20] = (0, 0, 255)
    return img


@pytest.fixture
def folder(tmp_path) -> Path:
    for i, value in enumerate((10, 20, 30)):
        cv2.imwrite(str(tmp_path / f"frame{i:03d}.png"), image(value))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_folder_gives_images_in_name_order_then_ends(folder):
    with FileCamera(folder) as cam:
        firsts = [cam.frame()[0, 0, 0], cam.still()[0, 0, 0], cam.frame()[0, 0, 0]]
        assert firsts == [10, 20, 30]
        with pytest.raises(EndOfFiles, match="all 3 images were read"):
            cam.frame()


def test_folder_loops_when_asked(folder):
    cam = open_camera(CameraConfig(source="files", path=str(folder), loop=True))
    values = [int(cam.frame()[0, 0, 0]) for _ in range(5)]
    cam.close()
    assert values == [10, 20, 30, 10, 20]


def test_red_square_is_red_in_bgr(folder):
    with FileCamera(folder) as cam:
        assert list(cam.frame()[15, 15]) == [0, 0, 255]


def test_unreadable_image_is_a_camera_error_and_the_next_one_still_works(folder):
    (folder / "frame001.png").write_bytes(b"\x89PNG broken")
    with FileCamera(folder) as cam:
        cam.frame()
        with pytest.raises(CameraError, match="frame001.png: cannot read this image"):
            cam.frame()
        assert cam.frame()[0, 0, 0] == 30



def test_a_folder_that_goes_away_is_a_lost_source_not_a_damaged_frame(folder):
    # The service counts 30 damaged frames before it calls the camera lost; a source that is gone is lost at once.
    from tablemate.app.inputs import BadFrame

    with FileCamera(folder, loop=True) as cam:
        cam.frame()
        assert cam.last_path.name == "frame000.png"
        folder.rename(folder.with_name("unplugged"))
        with pytest.raises(CameraError, match="no such folder") as err:
            cam.frame()
        assert not isinstance(err.value, BadFrame)

def test_video_file(tmp_path):
    path = tmp_path / "session.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    assert writer.isOpened()
    for value in (40, 120, 200):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    with FileCamera(path) as cam:
        values = [int(cam.frame()[24, 32].mean()) for _ in range(3)]
        with pytest.raises(EndOfFiles):
            cam.frame()
    assert values == pytest.approx([40, 120, 200], abs=6)
    with FileCamera(path, loop=True) as cam:
        assert len([cam.frame() for _ in range(7)]) == 7


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing", "no such folder or video file"),
    (lambda p: p, "no images"),
    (lambda p: (p / "x.mp4").write_bytes(b"nonsense") and p / "x.mp4", "not a video file"),
])
def test_bad_file_sources(tmp_path, make, message):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CameraError, match=message):
        FileCamera(make(empty))


def test_closed_camera_says_so(folder):
    cam = FileCamera(folder)
    cam.close()
    cam.close()
    with pytest.raises(CameraError, match="closed"):
        cam.frame()


def test_missing_webcam_is_a_clear_error():
    with pytest.raises(CameraError, match="cannot open it with OpenCV"):
        OpenCVCamera("/dev/video-does-not-exist")


def test_missing_picamera2_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail as on x86
    with pytest.raises(CameraError, match="picamera2 is not installed.*--system-site-packages"):
        open_camera(CameraConfig(source="picamera2"))


def test_settled_needs_three_close_samples():
    keys = ["ExposureTime", "ColourGains"]
    moving = [{"ExposureTime": t, "ColourGains": (1.8, 1.5)} for t in (10000, 20000, 30000)]
    steady = [{"ExposureTime": t, "ColourGains": (1.8, 1.5)} for t in (30000, 30100, 29900)]
    drifting_wb = [{"ExposureTime": 30000, "ColourGains": g} for g in ((1.2, 1.5), (1.5, 1.5), (1.8, 1.5))]
    assert not settled(steady[:2], keys)
    assert not settled(moving, keys)
    assert settled(steady, keys)
    assert not settled(drifting_wb, keys)
    assert settled([{}, {}, {}], keys)  # a camera without those controls has nothing to wait for


def test_opencv_source_reads_frames_and_reports_loss(tmp_path):
    # A video file is a device OpenCV's VideoCapture opens like a webcam;
    # its end is what an unplugged webcam looks like to the reader.
    path = tmp_path / "webcam.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for value in range(10, 250, 20):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    cam = open_camera(CameraConfig(source="opencv", device=str(path)))
    assert int(cam.frame()[0, 0].mean()) == pytest.approx(10, abs=6)
    assert int(cam.still()[0, 0].mean()) == pytest.approx(70, abs=6)  # two stale frames dropped
    with pytest.raises(CameraError, match="lost"):
        for _ in range(20):
            cam.frame()
    cam.close()
    cam.close()
