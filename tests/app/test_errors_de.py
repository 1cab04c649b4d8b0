"""With ``--lang de`` (or TABLEMATE_LANG=de) the errors a user reads are German, with a non-zero exit."""
from __future__ import annotations

import pytest

from tablemate.cli.main import main
from tablemate.app.i18n_errors import MESSAGES, _pattern, localize, template


@pytest.fixture
def run(capsys):
    def call(*argv):
        try:
            code = main(list(argv))
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code
        return code, capsys.readouterr().err

    return call


def test_bad_notation_is_refused_in_german(run):
    code, err = run("score", "--lang", "de", "123m 12x")
    assert code != 0 and "gehört zu keinem Stein" in err and "is not part of a tile" not in err
    code, err = run("score", "--lang", "de", "1111m 1m23456789p +9p")
    assert code != 0 and "ein Satz hat aber nur vier" in err


def test_an_unreadable_image_is_refused_in_german(run, tmp_path):
    bad = tmp_path / "photo.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    code, err = run("recognize", str(bad), "--lang", "de")
    assert code != 0 and "ist kein Bild, das tablemate lesen kann" in err


def test_ledger_and_match_errors_in_german(run, tmp_path):
    db = str(tmp_path / "l.sqlite")
    code, err = run("match", "show", "--db", db, "--lang", "de")
    assert code != 0 and "gibt es noch kein Spielbuch" in err
    code, err = run("match", "new", "--rules", "mcr", "--players", "A", "A", "B", "C", "--db", db, "--lang", "de")
    assert code != 0 and "verschiedenen Namen" in err


def test_usage_errors_follow_tablemate_lang(run, monkeypatch):
    monkeypatch.setenv("TABLEMATE_LANG", "de")
    code, err = run("score", "--rules", "xyz", "1m")
    assert code == 2 and "ungültige Wahl" in err


def test_english_stays_english(run):
    code, err = run("score", "123m 12x")
    assert code != 0 and "is not part of a tile" in err


def test_display_and_camera_messages_translate():
    assert localize("frames/003.png: cannot read this image (damaged or not an image)", "de") == \
        "frames/003.png: dieses Bild ist nicht lesbar (beschädigt oder kein Bild)"
    assert localize("something new", "de") == "something new"  # untranslated, never lost


def test_every_entry_has_the_same_fields_in_both_languages():
    for key, en in MESSAGES.items():
        assert _pattern(en).groupindex.keys() == _pattern(template(key, "de")).groupindex.keys(), key
