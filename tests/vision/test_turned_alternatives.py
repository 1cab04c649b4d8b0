"""A claimed tile misread the wrong way round: its turned readings' codes may complete the meld."""
from __future__ import annotations

import numpy as np

from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.grouping import Seen, _meld_or_one_fix
from tablemate.vision.recognize import _add_alternatives


def _tile(code, alternatives):
    t = Seen(0, 0, 20, 28, 0, "face_up", code, alternatives[0][1])
    t.alternatives = tuple(alternatives)
    return t


def _reading(**p):
    v = np.full(len(READER_CLASSES), 1e-4, np.float32)
    for code, x in p.items():
        v[READER_CLASSES.index(code.replace("_", ""))] = x
    return v / v.sum()


def test_a_turned_reading_completes_the_chow_its_first_reading_spoils():
    three, four = _tile("3p", [("3p", 0.99)]), _tile("4p", [("4p", 0.99)])
    odd = _tile("1s", [("1s", 0.9), ("7s", 0.05), ("1p", 0.03), ("2s", 0.01)])
    assert _meld_or_one_fix([three, four, odd]) is None          # 5p is not among its own readings
    _add_alternatives(odd, [_reading(_5p=0.3, h1=0.6), _reading(W=0.97)])
    codes = [c for c, _ in odd.alternatives]
    assert codes[0] == "1s" and "5p" in codes and "back" not in codes
    meld, (tile, code, p) = _meld_or_one_fix([three, four, odd])
    assert meld["kind"] == "chow" and tile is odd and code == "5p" and abs(p - 0.3) < 0.05


def test_a_faint_turned_reading_adds_nothing():
    odd = _tile("1s", [("1s", 0.9)])
    _add_alternatives(odd, [_reading(_5p=0.02, W=0.97)])
    assert [c for c, _ in odd.alternatives] == ["1s", "W"]
