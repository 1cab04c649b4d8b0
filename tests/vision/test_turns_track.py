"""`tablemate track` on a rendered sequence of frames."""
from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest

from tablemate.device.cli import main
from tablemate.device.session import play_sequence

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.fixture(scope="module")
def sequence(tmp_path_factory):
    render = pytest.importorskip("tablemate.vision.render")
    folder = tmp_path_factory.mktemp("frames")
    steps = play_sequence(random.Random(11), east="right", turns=8, idle_rate=0.0)
    for i, step in enumerate(steps):
        image, _, _ = render.render_scene(step.layout, i, family="train", image_size=(640, 360))
        cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    return folder, steps


def test_track_prints_one_line_per_frame_with_the_turn(sequence, capsys):
    folder, steps = sequence
    assert main(["track", str(folder), "--east", "right", "--json"]) == 0
    out = capsys.readouterr()
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert [l["frame"] for l in lines] == [f"{i:03d}.png" for i in range(len(steps))]
    assert all(set(l) >= {"frame", "turn", "event"} for l in lines)
    if not (MODELS / "tile_detector.onnx").exists():
        # no models: every frame is uncertain, the turn never moves, and stderr says why (once)
        assert all(l["uncertain"] and l["event"] is None and l["turn"] == "right" for l in lines)
        assert out.err.count("vision cannot read") == 1
    else:
        # With models every frame names a seat; how often it is the right one is
        # measured, not asserted, by benchmarks/turn_accuracy.py (issue 5's 98 %
        # target is not met yet by vision; the tracker itself is exact on ground
        # truth, see tests/vision/test_turns.py).
        assert all(l["turn"] in ("bottom", "right", "top", "left") for l in lines)
        assert lines[0]["turn"] == "right" and lines[0]["event"] is None


def test_track_refuses_a_missing_source(tmp_path, capsys):
    assert main(["track", str(tmp_path / "nothing"), "--json"]) == 1
    assert "no such folder" in capsys.readouterr().err
