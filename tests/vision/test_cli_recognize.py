"""`tablemate recognize` from the command line."""
import json

import cv2

from tablemate.cli.main import main

from .conftest import PHOTOS


def test_recognize_json_and_overlay(tmp_path, capsys):
    photo, cal, truth = [p for p in PHOTOS if p[0].stem == "scoring_train_look"][0]
    out = tmp_path / "overlay.png"
    assert main(["recognize", str(photo), "--calibration", str(cal), "--json", "--overlay", str(out)]) == 0
    rec = json.loads(capsys.readouterr().out)
    want = json.loads(truth.read_text())
    assert rec["image"]["width"] == 4608 and abs(len(rec["tiles"]) - len(want["tiles"])) <= 3
    over = cv2.imread(str(out))
    assert over is not None and over.shape[1] == 2304


def test_recognize_summary_lists_every_side(capsys):
    photo, cal, _ = PHOTOS[0]
    assert main(["recognize", str(photo), "--calibration", str(cal)]) == 0
    text = capsys.readouterr().out
    for side in ("bottom", "right", "top", "left"):
        assert side in text


def test_recognize_bad_image_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "x.jpg"
    bad.write_text("nope")
    assert main(["recognize", str(bad), "--json"]) == 1
    cap = capsys.readouterr()
    assert "not an image" in json.loads(cap.out)["error"]
    assert "Traceback" not in cap.err and "not an image" in cap.err
