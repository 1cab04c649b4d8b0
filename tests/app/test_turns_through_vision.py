"""Turn tracking through the real pipeline: rendered frames, the models, FrameVision, TurnTracker.

Why here and not only in the benchmark: the issue's bar (the right turn on at
least 98 % of frames) must hold on a clean checkout's own tests, through
vision, not just on ground truth. One held-out table with the printed corner
markers, one marker covered by an arm in a third of the frames.
"""
import random

import cv2
import numpy as np

from tablemate.app.frame_vision import FrameVision
from tablemate.app.session import play_sequence
from tablemate.vision.render import render_scene
from tablemate.vision.turns import TurnTracker


def _cover(image, corners, k):
    c = np.asarray(corners, float)
    side = float(np.linalg.norm(c[1] - c[0]))
    x, y = (int(v) for v in c[k] + 0.05 * side * (c.mean(0) - c[k]) / np.linalg.norm(c.mean(0) - c[k]))
    out = image.copy()
    cv2.circle(out, (x, y), int(0.09 * side), (120, 150, 200), -1)
    return out


def test_the_turn_through_vision_is_right_on_at_least_98_percent_of_frames():
    steps = play_sequence(random.Random(1007), east="left", turns=14, idle_rate=0.0)
    vision, tracker = FrameVision(), TurnTracker(turn="left")
    arm = random.Random(7)
    right = 0
    for i, step in enumerate(steps):
        image, _, cal = render_scene(step.layout, 70_000 + i, family="holdout", image_size=(1920, 1080),
                                     look_seed=5107, markers=True)
        if arm.random() < 0.33:
            image = _cover(image, cal["corners"], arm.randrange(4))
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        tracker.update(vision(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)))
        right += tracker.turn == step.turn
    assert len(steps) >= 14
    assert right / len(steps) >= 0.98, f"{right} of {len(steps)} frames"
