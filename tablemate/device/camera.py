"""Camera sources: the Pi camera, a USB webcam through OpenCV, or files.

All three give BGR ``numpy`` images (OpenCV's order) through the same two
calls: ``frame()`` for following play and ``still()`` for the picture that
gets scored. Files (a folder of images or a video) replay a recorded session
and are the test double for the real cameras.

Every failure (no camera, camera unplugged, unreadable file) raises
:class:`CameraError` with a message for the journal; the service loop shows
"camera lost" and keeps running.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from tablemate.app.config import CameraConfig
from tablemate.app.inputs import BadFrame, CameraError, EndOfFiles

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class Camera(Protocol):
    """What the service loop needs from any source."""

    def frame(self) -> np.ndarray:
        """The next frame for following play (may be smaller than a still)."""

    def still(self) -> np.ndarray:
        """A full-resolution picture of the table to recognise."""

    def close(self) -> None:
        """Release the device; idempotent."""

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> None: ...


class _Closing:
    """Context-manager and idempotent-close plumbing shared by the sources."""

    closed = False

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._release()

    def _release(self) -> None:
        pass

    def _check_open(self) -> None:
        if self.closed:
            raise CameraError("the camera is closed")


class FileCamera(_Closing):
    """Frames from a folder of images (in name order) or from a video file.

    ``still()`` and ``frame()`` both take the next item: a recording made for
    replay holds whatever the camera would have given at that point.
    """

    def __init__(self, path: str | Path, loop: bool = False) -> None:
        self.path = Path(path)
        self.loop = loop
        self.position = 0
        self._video: cv2.VideoCapture | None = None
        self._images: list[Path] = []
        if self.path.is_dir():
            self._images = sorted(p for p in self.path.iterdir()
                                  if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
            if not self._images:
                raise CameraError(f"{self.path}: no images ({', '.join(IMAGE_SUFFIXES)}) in this folder")
        elif self.path.is_file():
            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                raise CameraError(f"{self.path}: not a video file OpenCV can read")
        else:
            raise CameraError(f"{self.path}: no such folder or video file")

    def frame(self) -> np.ndarray:
        self._check_open()
        return self._next_video() if self._video is not None else self._next_image()

    still = frame

    @property
    def last_path(self) -> Path | None:
        """The image file the last frame or still came from (a replay's ground truth is looked up by it)."""
        return self._images[self.position - 1] if self._images and self.position else None

    def _next_image(self) -> np.ndarray:
        if self.position >= len(self._images):
            if not self.loop:
                raise EndOfFiles(f"{self.path}: all {len(self._images)} images were read")
            self.position = 0
        path = self._images[self.position]
        self.position += 1
        if not self.path.is_dir():  # the whole source went away (a drive unplugged): lost, not a damaged frame
            raise CameraError(f"{self.path}: no such folder or video file")
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise BadFrame(f"{path}: cannot read this image (damaged or not an image)")
        return image

    def _next_video(self) -> np.ndarray:
        assert self._video is not None
        ok, image = self._video.read()
        if not ok and self.loop and self.position > 0:
            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._video.read()
        if not ok:
            raise EndOfFiles(f"{self.path}: end of video after {self.position} frames")
        self.position += 1
        return image

    def _release(self) -> None:
        if self._video is not None:
            self._video.release()


class OpenCVCamera(_Closing):
    """A USB webcam (or any V4L2 device) through ``cv2.VideoCapture``."""

    def __init__(self, device: int | str = 0, still_size: tuple[int, int] | None = None,
                 fps: float | None = None) -> None:
        self.device = device
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"camera {device!r}: cannot open it with OpenCV (not connected, "
                              "busy, or the user is not in the video group)")
        if still_size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, still_size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, still_size[1])
        if fps is not None:
            self._cap.set(cv2.CAP_PROP_FPS, fps)

    def frame(self) -> np.ndarray:
        self._check_open()
        ok, image = self._cap.read()
        if not ok or image is None:
            raise CameraError(f"camera {self.device!r}: lost (no frame)")
        return image

    def still(self) -> np.ndarray:
        # Webcams queue a few frames; drop the stale ones so the still shows the table now.
        for _ in range(2):
            self._cap.grab()
        return self.frame()

    def _release(self) -> None:
        self._cap.release()


def settled(samples: Sequence[dict[str, Any]], keys: Sequence[str], tolerance: float = 0.05) -> bool:
    """True when the last three metadata samples agree within ``tolerance``.

    Pure so it can be tested without a camera: auto exposure, white balance and
    focus are locked only once they stop moving, so the table looks the same
    in every still of the evening.
    """
    if len(samples) < 3:
        return False
    last = samples[-3:]
    for key in keys:
        values = [_flat(s.get(key)) for s in last]
        if any(v is None for v in values):
            continue
        for a, b in zip(values, values[1:]):
            for x, y in zip(a, b):
                if abs(x - y) > tolerance * max(abs(x), abs(y), 1e-9):
                    return False
    return True


def _flat(value: Any) -> list[float] | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [float(v) for v in value]
    return [float(value)]


#: Metadata that must settle before locking, and the control each one fixes.
_LOCKS = {"ExposureTime": "ExposureTime", "AnalogueGain": "AnalogueGain",
          "ColourGains": "ColourGains", "LensPosition": "LensPosition"}


class PiCamera(_Closing):
    """The Raspberry Pi camera through picamera2, kept running in one still mode.

    Switching modes for each still costs a second and changes exposure, so one
    full-resolution still configuration stays running; frames and stills are
    both taken from it (``frame()`` downsizes for speed). After
    ``settle_seconds`` with auto exposure, white balance and continuous focus,
    the values are locked.
    """

    def __init__(self, still_size: tuple[int, int] | None = None, settle_seconds: float = 2.0,
                 frame_width: int = 1152, sleep: Callable[[float], None] = time.sleep) -> None:
        try:
            from picamera2 import Picamera2  # noqa: PLC0415 - only exists on Raspberry Pi OS
        except ImportError:
            raise CameraError(
                "picamera2 is not installed: on Raspberry Pi OS install python3-picamera2 and "
                "make the venv with --system-site-packages; elsewhere set camera.source to "
                "\"opencv\" or \"files\"") from None
        self.frame_width = frame_width
        try:
            self._cam = Picamera2()
        except Exception as exc:  # picamera2 raises IndexError/RuntimeError when no camera is attached
            raise CameraError(f"no Raspberry Pi camera found ({exc}); check the ribbon cable") from None
        try:
            main: dict[str, Any] = {"format": "RGB888"}  # BGR in memory: OpenCV's order
            if still_size is not None:
                main["size"] = tuple(still_size)
            config = self._cam.create_still_configuration(main=main, buffer_count=2)
            self._cam.configure(config)
            self._cam.set_controls({"AeEnable": True, "AwbEnable": True})
            if "AfMode" in self._cam.camera_controls:
                self._cam.set_controls({"AfMode": 2})  # continuous until it settles
            self._cam.start()
            self._lock(settle_seconds, sleep)
        except Exception as exc:
            self.close()
            raise CameraError(f"cannot start the Raspberry Pi camera: {exc}") from None

    def _lock(self, settle_seconds: float, sleep: Callable[[float], None]) -> None:
        samples: list[dict[str, Any]] = []
        deadline = time.monotonic() + max(settle_seconds, 0.0) * 3
        sleep(settle_seconds)
        while time.monotonic() < deadline:
            samples.append(self._cam.capture_metadata())
            if settled(samples, list(_LOCKS)):
                break
        if not samples:
            samples.append(self._cam.capture_metadata())
        last = samples[-1]
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for meta, control in _LOCKS.items():
            if meta in last and control in self._cam.camera_controls:
                controls[control] = last[meta]
        if "LensPosition" in controls:
            controls["AfMode"] = 0  # manual: keep the settled lens position
        self._cam.set_controls(controls)

    def still(self) -> np.ndarray:
        self._check_open()
        try:
            return self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"Raspberry Pi camera lost: {exc}") from None

    def frame(self) -> np.ndarray:
        image = self.still()
        h, w = image.shape[:2]
        if w <= self.frame_width:
            return image
        return cv2.resize(image, (self.frame_width, round(h * self.frame_width / w)),
                          interpolation=cv2.INTER_AREA)

    def _release(self) -> None:
        cam = getattr(self, "_cam", None)
        if cam is None:
            return
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception:  # noqa: BLE001 - releasing a camera that is already gone
                pass


def open_camera(cfg: CameraConfig) -> Camera:
    """The source the config names; raises :class:`CameraError` if it cannot open."""
    if cfg.source == "files":
        if cfg.path is None:
            raise CameraError("camera.path is not set: a folder of images or a video file")
        return FileCamera(cfg.path, loop=cfg.loop)
    if cfg.source == "opencv":
        return OpenCVCamera(cfg.device, still_size=cfg.still_size, fps=cfg.fps)
    if cfg.source == "picamera2":
        return PiCamera(still_size=cfg.still_size, settle_seconds=cfg.settle_seconds)
    raise CameraError(f"unknown camera source {cfg.source!r}")
