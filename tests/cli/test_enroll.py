"""`tablemate enroll` and `tablemate sets`: exit codes, what is stored, and --set on recognize."""
from __future__ import annotations

import json

import cv2
import pytest

from tablemate.cli.main import main
from tablemate.vision.render.enroll_grid import render_grid

SIZE = (2304, 1296)


def _grid(tmp_path, name, **fault):
    img, _, cal = render_grid(4242, look_seed=4242, tile_cm=2.2, image_size=SIZE, **fault)
    photo, calf = tmp_path / f"{name}.jpg", tmp_path / f"{name}.cal.json"
    cv2.imwrite(str(photo), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    calf.write_text(json.dumps(cal))
    return str(photo), str(calf)


@pytest.fixture
def sets(tmp_path, monkeypatch):
    folder = tmp_path / "sets"
    monkeypatch.setenv("TABLEMATE_SETS", str(folder))
    return folder


def test_enroll_stores_a_set_and_sets_lists_shows_and_removes_it(tmp_path, sets, capsys):
    photo, cal = _grid(tmp_path, "grid")
    assert main(["enroll", photo, "--calibration", cal, "--name", "home"]) == 0
    out = capsys.readouterr().out
    assert "tile size" in out and "back colour: #" in out and "weakest faces" in out
    assert (sets / "home.tileset.json").is_file()
    assert main(["sets", "list"]) == 0 and "home" in capsys.readouterr().out
    assert main(["sets", "show", "home"]) == 0 and "faces: 42" in capsys.readouterr().out
    assert main(["recognize", photo, "--calibration", cal, "--set", "home", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["tiles"]) == 44
    assert main(["sets", "remove", "home"]) == 0
    assert not (sets / "home.tileset.json").exists()
    assert main(["sets", "show", "home"]) == 1
    assert "no tile set named home" in capsys.readouterr().err


def test_a_wrong_grid_exits_1_names_the_place_and_stores_nothing(tmp_path, sets, capsys):
    photo, cal = _grid(tmp_path, "swapped", swap=(2, 3))
    assert main(["enroll", photo, "--calibration", cal, "--name", "home"]) == 1
    assert "row 1, column 3 and row 1, column 4 are swapped" in capsys.readouterr().err
    assert not sets.exists() or not list(sets.iterdir())
    assert main(["enroll", photo, "--calibration", cal, "--name", "home", "--lang", "de"]) == 1
    assert "Reihe 1, Spalte 3 und Reihe 1, Spalte 4 sind vertauscht" in capsys.readouterr().err


def test_missing_or_damaged_sets_are_refused(tmp_path, sets, capsys):
    photo, cal = _grid(tmp_path, "grid")
    assert main(["recognize", photo, "--calibration", cal, "--set", "nope"]) == 1
    assert "no tile set named nope" in capsys.readouterr().err
    sets.mkdir()
    (sets / "bad.tileset.json").write_text("{not json")
    assert main(["recognize", photo, "--calibration", cal, "--set", "bad"]) == 1
    assert "damaged" in capsys.readouterr().err
    assert main(["enroll", photo, "--calibration", cal, "--name", "../x"]) == 1
    assert "not a usable set name" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["enroll", photo])
    assert e.value.code == 2


def test_with_lang_de_what_was_learned_and_the_sets_are_told_in_german(tmp_path, sets, capsys):
    photo, cal = _grid(tmp_path, "grid")
    said = []
    assert main(["enroll", photo, "--calibration", cal, "--name", "home", "--lang", "de"]) == 0
    said.append(capsys.readouterr().out)
    assert "Satz home gelernt: 42 Bilder und die Rückseite" in said[-1] and "Steingröße:" in said[-1]
    assert "Farbe der Rückseite: #" in said[-1] and "schwächste Bilder:" in said[-1] and "gespeichert in" in said[-1]
    assert main(["sets", "show", "home", "--lang", "de"]) == 0
    said.append(capsys.readouterr().out)
    assert "Bilder: 42; Farbe der Rückseite" in said[-1] and "schwächste Bilder:" in said[-1]
    (sets / "bad.tileset.json").write_text("{not json")
    assert main(["sets", "list", "--lang", "de"]) == 0
    said.append(capsys.readouterr().out)
    assert "bad  (unbrauchbar:" in said[-1] and "beschädigt" in said[-1]
    assert main(["sets", "remove", "home", "--lang", "de"]) == 0
    said.append(capsys.readouterr().out)
    assert "entfernt" in said[-1]
    english = ("learned", "tile size", "back colour", "weakest", "stored in", "unusable", "removed", "nearest",
               "faces", "took")
    text = "".join(said)
    assert [w for w in english if w in text] == []
