"""An unsure tile read again turned (``recognize._reread_sideways``): with a set, the way round nearest its faces."""
from types import SimpleNamespace

import numpy as np

from tablemate.vision import recognize
from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import SetSay


def _row(code: str, p: float) -> np.ndarray:
    row = np.full(len(READER_CLASSES), (1 - p) / (len(READER_CLASSES) - 1), np.float32)
    row[READER_CLASSES.index(code)] = p
    return row


def _reread(monkeypatch, turned_reads: list[tuple[str, float]], distances: list[float]):
    """A tile read 6p but far from every face of its set, re-read with the turned readings given."""
    face = Seen(100.0, 100.0, 15.0, 20.4, 1, "face_up", "6p", 0.99)
    alts = recognize._turns(face)
    assert [a.orient for a in alts] == [2, 3, 0]
    p2 = np.stack([_row(c, p) for c, p in turned_reads])
    monkeypatch.setattr(recognize, "_reader_crops", lambda ts, image, to_image: np.zeros((len(ts), 1)))
    monkeypatch.setattr(recognize, "_read_crops", lambda blob, models_dir, tile_set=None:
                        (p2.copy(), np.zeros((len(p2), 2)), SetSay(p2.copy(), np.float64(distances))))
    probs = _row("6p", 0.99)[None]
    say = SetSay(probs.copy(), np.float64([36.0]))
    changed = recognize._reread_sideways([face], probs, probs.argmax(1), None, None, None,
                                         tile_set=SimpleNamespace(spread=17.0), say=say)
    return changed, face, probs, say


def test_with_a_set_the_turn_nearest_its_faces_is_taken_not_the_first_near_enough(monkeypatch):
    """A hand tile lying across at 2.0 cm, far from every face (36 against a spread of 17): of its turns, the
    second lies nearest the set's faces. Taking the first one a tenth nearer than the tile kept h6 (28.7)."""
    changed, face, probs, say = _reread(monkeypatch, [("h6", 0.9), ("4p", 0.94), ("9m", 0.99)], [28.7, 26.9, 28.3])
    assert changed and face.orient == 3
    assert READER_CLASSES[int(probs[0].argmax())] == "4p" and say.distance[0] == 26.9


def test_with_a_set_no_turn_is_taken_unless_a_tenth_nearer_than_the_tile(monkeypatch):
    changed, face, probs, say = _reread(monkeypatch, [("h6", 0.9), ("4p", 0.94), ("9m", 0.99)], [33.0, 32.5, 40.0])
    assert not changed and face.orient == 1
    assert READER_CLASSES[int(probs[0].argmax())] == "6p" and say.distance[0] == 36.0
