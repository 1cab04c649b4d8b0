"""A claimed tile lying turned in a meld: the meld is still seen (held-out look, rendered)."""
import json
import random

import cv2

from tablemate.app.session import play_sequence
from tablemate.vision.recognize import recognize_image
from tablemate.vision.render import render_scene


def test_turned_claimed_tile_keeps_its_meld(tmp_path):
    # Turn benchmark, sequence 5, frame 10: the detector outlines the turned 3p as an
    # upright tile and the reader, on that squeezed crop, is sure it is a flower.
    steps = play_sequence(random.Random(1005), east="right", turns=24, idle_rate=0.0)
    layout = steps[10].layout
    assert layout["seats"]["left"]["melds"][0]["tiles"] == ["3p"] * 3
    img, gt, cal = render_scene(layout, 5010, family="holdout", image_size=(2304, 1296), look_seed=5005,
                                markers=True)
    cv2.imwrite(str(tmp_path / "f.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (tmp_path / "f.json").write_text(json.dumps(cal))
    rec = recognize_image(str(tmp_path / "f.jpg"), str(tmp_path / "f.json"))
    assert [m["tiles"] for m in rec["seats"]["left"]["melds"]] == [["3p"] * 3]
    assert rec["seats"]["left"]["flowers"] == []
