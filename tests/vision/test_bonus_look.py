"""The bonus reader's say in a tile's reading: pure arithmetic, no model."""
import numpy as np

from tablemate.vision import bonus_look
from tablemate.vision.bonus_look import LOOK_AT, MAX_LOOKS, NOT_BONUS, SAY, candidates, merge
from tablemate.vision.contract import READER_CLASSES


def _row(**p):
    r = np.full(len(READER_CLASSES), 1e-4, np.float32)
    for code, v in p.items():
        r[READER_CLASSES.index(code)] = v
    return r / r.sum()


def test_merge_lets_the_bonus_reader_pick_the_flower_the_reader_cannot_tell_apart():
    reader = _row(h1=0.11, h2=0.11, h3=0.11, h4=0.11, h5=0.11, h6=0.11, h7=0.11, h8=0.11, **{"3m": 0.06, "2m": 0.03})
    bonus = np.array([0, 0.9, 0.02, 0, 0, 0, 0, 0, 0.08], np.float32)
    out = merge(reader, bonus)
    assert READER_CLASSES[int(out.argmax())] == "h2" and out.max() > 0.7
    assert np.isclose(out.sum(), 1, atol=1e-5)
    # what is left keeps the reader's 2:1 odds of 3m over 2m
    m3, m2 = out[READER_CLASSES.index("3m")], out[READER_CLASSES.index("2m")]
    assert np.isclose(m3 / m2, 2.0, rtol=0.01)


def test_merge_lets_the_surer_expert_decide_when_they_disagree():
    sure_bonus = merge(_row(h3=0.3, h5=0.1, **{"3m": 0.3}), np.array([0, 0, 0.02, 0, 0.95, 0, 0, 0, 0.03], np.float32))
    assert READER_CLASSES[int(sure_bonus.argmax())] == "h5"
    sure_reader = merge(_row(**{"1s": 0.97}, h8=0.02), np.array([0, 0, 0, 0, 0, 0, 0, 0.6, 0.4], np.float32))
    assert READER_CLASSES[int(sure_reader.argmax())] == "1s", "an unsure bonus reading does not overturn a sure one"


def test_merge_lets_the_bonus_reader_say_it_is_no_bonus_tile():
    reader = _row(h6=0.55, **{"3m": 0.4})
    out = merge(reader, np.array([0, 0, 0, 0, 0, 0.05, 0, 0, 0.95], np.float32))
    assert READER_CLASSES[int(out.argmax())] == "3m"
    assert out[NOT_BONUS].sum() > 0.7


def test_merge_counts_the_bonus_reader_tempered(monkeypatch):
    """Its 0.95 for a flower does not overturn a reader five times surer of a suited tile; at full say it would."""
    reader = _row(**{"1s": 0.85}, h8=0.15)
    bonus = np.array([0, 0, 0, 0, 0, 0, 0, 0.95, 0.05], np.float32)
    assert SAY < 1
    assert READER_CLASSES[int(merge(reader, bonus).argmax())] == "1s"
    monkeypatch.setattr(bonus_look, "SAY", 1.0)
    assert READER_CLASSES[int(merge(reader, bonus).argmax())] == "h8"


def test_candidates_are_possible_bonus_tiles_likeliest_first_never_backs():
    rows = [_row(**{"5p": 0.99}), _row(h1=0.5, **{"5p": 0.5}), _row(back=0.8, h4=0.2),
            _row(h7=0.9), _row(**{"1s": 1 - LOOK_AT / 2}, h8=LOOK_AT / 2)]
    assert candidates(np.stack(rows)) == [3, 1]
    assert candidates(np.stack(rows), among=[0, 1, 2]) == [1]
    many = np.stack([_row(h1=0.5 + i / 100) for i in range(MAX_LOOKS + 5)])
    assert len(candidates(many)) == MAX_LOOKS and candidates(many)[0] == MAX_LOOKS + 4


def test_an_unsure_reading_gets_the_closer_look_even_without_bonus_probability():
    unsure = _row(**{"9s": 0.3, "8s": 0.3, "7s": 0.3})
    sure = _row(**{"9s": 0.97})
    assert candidates(np.stack([sure, unsure])) == [1]
