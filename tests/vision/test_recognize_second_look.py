"""The second look at a seat's odd tiles (``recognize._group_with_second_look``) is taken only where it may be kept."""
from tablemate.vision import recognize
from tablemate.vision.recognize import recognize_image

from .conftest import PHOTOS


def _second_looks(monkeypatch, photo):
    """(recognition, how often the odd tiles were read again sideways for a second grouping)."""
    calls = []
    real = recognize._reread_sideways

    def counting(*a, **k):
        if k.get("candidates") is not None:
            calls.append(len(k["candidates"]))
        return real(*a, **k)

    monkeypatch.setattr(recognize, "_reread_sideways", counting)
    path, cal, _ = next(p for p in PHOTOS if p[0].name == photo)
    return recognize_image(str(path), str(cal)), calls


def test_a_table_with_flowers_and_no_tile_left_unknown_gets_no_second_look(monkeypatch):
    """Nothing can be left fewer than none unknown: flowers read surely are not read again for nothing."""
    rec, calls = _second_looks(monkeypatch, "play_holdout_look.jpg")
    roles = [t["role"] for t in rec["tiles"]]
    assert roles.count("flower") >= 3 and "unknown" not in roles
    assert calls == []


def test_a_table_with_tiles_left_unknown_still_gets_its_second_look(monkeypatch):
    rec, calls = _second_looks(monkeypatch, "scoring_holdout_look.jpg")
    assert calls and calls[0] >= 1
