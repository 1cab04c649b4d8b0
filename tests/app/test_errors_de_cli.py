"""`tablemate ... --lang de` on bad input: German on stderr, a non-zero exit, no English left over.

Run as a user runs it (a subprocess), so TABLEMATE_MODELS and TABLEMATE_SETS
are read the way the installed command reads them.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "vision" / "data"
PHOTO, CAL = DATA / "sample_win.jpg", DATA / "sample_win.cal.json"


def tablemate(*argv: str, env: dict | None = None, cwd: Path | None = None) -> tuple[int, str]:
    full = {k: v for k, v in os.environ.items() if k != "TABLEMATE_LANG"}
    full.update(env or {})
    done = subprocess.run([sys.executable, "-m", "tablemate.cli.main", *argv], capture_output=True, text=True,
                          env=full, cwd=cwd, timeout=300)
    return done.returncode, done.stderr


def german(code: int, err: str, *phrases: str, english: tuple[str, ...] = ()) -> None:
    assert code != 0, err
    for phrase in phrases:
        assert phrase in err, err
    for phrase in english + ("error:", "usage:", " the ", " is not ", " must "):
        assert phrase not in err, err


def test_wrong_tile_count_five_of_a_tile_unknown_code():
    code, err = tablemate("score", "--lang", "de", "123m456m789m11p +2p")
    german(code, err, "eine Gewinnhand hat 14 Steine, diese hat aber 12", english=("winning hand",))
    code, err = tablemate("score", "--lang", "de", "11111m 23456789p +9p")
    german(code, err, "5-mal 1m", "ein Satz hat aber nur vier", english=("but a set has only four",))
    code, err = tablemate("score", "123m456m789m11p +X", env={"TABLEMATE_LANG": "de"})
    german(code, err, "gehört zu keinem Stein", english=("is not part of a tile",))


def test_wrong_options_and_usage_errors():
    code, err = tablemate("score", "--lang", "de", "--rules", "classical", "--option", "limit=abc",
                          "123m456m789m11p +1p")
    german(code, err, "Option limit muss eine positive ganze Zahl oder null sein", english=("whole number",))
    code, err = tablemate("score", "--rules", "xyz", "1m", env={"TABLEMATE_LANG": "de"})
    german(code, err, "Aufruf: tablemate score", "Fehler: Argument --rules: ungültige Wahl: 'xyz' (möglich:",
           english=("invalid choice", "choose from"))


def test_wrong_match_options(tmp_path):
    db = str(tmp_path / "book.sqlite")
    code, err = tablemate("match", "new", "--lang", "de", "--rules", "classical", "--option", "bonus_tiles=maybe",
                          "--players", "A", "B", "C", "D", "--db", db)
    german(code, err, "Option bonus_tiles muss true oder false sein, nicht 'maybe'", english=("true or false",))
    code, err = tablemate("match", "record", "--lang", "de", "--db", db, "--winner", "A", "--self-drawn")
    german(code, err, "gibt es noch kein Spielbuch", english=("ledger", "start a match"))
    code, err = tablemate("match", "new", "--rules", "classical", "--players", "A", "B", "C", "D", "--db", db)
    assert code == 0, err
    code, err = tablemate("match", "record", "--lang", "de", "--db", db, "--winner", "A", "--self-drawn")
    german(code, err, "die Steine des Gewinners angeben: --hand A", english=("give the winner",))
    code, err = tablemate("match", "record", "--lang", "de", "--db", db, "--winner", "A", "--self-drawn",
                          "--hand", "A", "123m456m789m11p +1p")
    german(code, err, "wertet jeden Spieler: auch für B, C, D --hand angeben", english=("scores every player",))


def test_unreadable_image_and_missing_image(tmp_path):
    bad = tmp_path / "photo.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    code, err = tablemate("recognize", str(bad), "--lang", "de")
    german(code, err, "ist kein Bild, das tablemate lesen kann", english=("not an image",))
    code, err = tablemate("recognize", str(tmp_path / "none.jpg"), "--lang", "de")
    german(code, err, "ist nicht lesbar: Datei oder Ordner nicht gefunden", english=("No such file",))


def test_corrupt_model_file(tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    for model in (ROOT / "models").glob("*.onnx"):
        (models / model.name).write_bytes(model.read_bytes()[:1000])  # a truncated copy
        shutil.copy(model.with_name(model.name + ".sha256"), models)
    code, err = tablemate("recognize", str(PHOTO), "--calibration", str(CAL), "--lang", "de",
                          env={"TABLEMATE_MODELS": str(models)})
    german(code, err, "ist beschädigt (sha256 stimmt nicht); bitte neu installieren", english=("is corrupt", "reinstall"))


def test_bad_config_files(tmp_path):
    (tmp_path / "players.toml").write_text('players = "x"\n')
    code, err = tablemate("run", "--config", str(tmp_path / "players.toml"), "--lang", "de")
    german(code, err, "players: erwartet wird eine Liste, nicht 'x'", english=("expected",))
    (tmp_path / "broken.toml").write_text("players = [\n")
    code, err = tablemate("run", "--config", str(tmp_path / "broken.toml"), env={"TABLEMATE_LANG": "de"})
    german(code, err, "kein gültiges TOML: ungültiger Wert", english=("Invalid value", "not valid TOML"))
    code, err = tablemate("run", "--config", str(tmp_path / "none.toml"), "--lang", "de")
    german(code, err, "Konfigurationsdatei nicht gefunden", english=("not found",))


def test_a_config_in_german_makes_later_errors_german(tmp_path):
    cfg = tmp_path / "de.toml"
    cfg.write_text(f'language = "de"\ndb = "{tmp_path}/book.sqlite"\n'
                   f'[camera]\nsource = "files"\npath = "{tmp_path}"\n[display]\ndriver = "dummy"\n')
    code, err = tablemate("run", "--config", str(cfg), "--calibration", str(tmp_path / "none.json"))
    german(code, err, "die Kalibrierdatei", "ist nicht lesbar: Datei oder Ordner nicht gefunden",
           english=("cannot read", "No such file"))
    code, err = tablemate("run", "--config", str(cfg), "--calibration", str(tmp_path / "none.json"), "--lang", "en")
    assert code != 0 and "cannot read the calibration file" in err  # --lang wins over the config


def test_corrupt_set_file(tmp_path):
    sets = tmp_path / "sets"
    sets.mkdir()
    (sets / "ours.tileset.json").write_text('{"format": "something else"}')
    code, err = tablemate("sets", "show", "ours", "--lang", "de", env={"TABLEMATE_SETS": str(sets)})
    german(code, err, "ist beschädigt oder kein Steinsatz; den Satz neu anlernen", english=("damaged",))
    code, err = tablemate("recognize", str(PHOTO), "--set", "ours", "--lang", "de", env={"TABLEMATE_SETS": str(sets)})
    german(code, err, "ist beschädigt oder kein Steinsatz", english=("damaged",))


def test_english_by_default(tmp_path):
    code, err = tablemate("score", "11111m 23456789p +9p")
    assert code != 0 and "but a set has only four" in err


@pytest.mark.parametrize("folder", ["out", "out/deeper"])
def test_overlay_into_a_folder_that_does_not_exist_yet(tmp_path, folder):
    overlay = tmp_path / folder / "overlay.png"
    code, err = tablemate("recognize", str(PHOTO), "--calibration", str(CAL), "--overlay", str(overlay))
    assert code == 0, err
    assert overlay.is_file() and overlay.stat().st_size > 1000
