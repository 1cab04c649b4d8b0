"""``benchmarks/turn_replay.py``: recorded frames given to the tracker again read as the tracker reads them live."""
import copy
import json
import random

import pytest

from tablemate.app.session import play_sequence, recognition_of
from tablemate.vision.turns import SIDES, TurnTracker

from .benchmark_module import load_benchmark


def _bench():
    return load_benchmark("turn_replay")


def _recording(spoil=None):
    """Two played hands as `turn_accuracy.py --record` writes them, from the ground truth (``spoil`` edits a frame)."""
    lines = []
    for seq in range(2):
        east = SIDES[seq % 4]
        for i, step in enumerate(play_sequence(random.Random(1000 + seq), east=east, turns=12, idle_rate=0.0)):
            rec = copy.deepcopy(recognition_of(step.layout))
            if spoil:
                spoil(seq, i, rec)
            lines.append({"sequence": seq, "frame": i, "east": east, "turn": step.turn, "event": step.event,
                          "recognition": rec})
    return lines


def _live(lines):
    """The figure a live run would print: one tracker per sequence, fed frame by frame."""
    right = 0
    for seq in {l["sequence"] for l in lines}:
        mine = [l for l in lines if l["sequence"] == seq]
        t = TurnTracker(turn=mine[0]["east"])
        for l in mine:
            t.update(l["recognition"])
            right += t.turn == l["turn"]
    return right


def test_a_replay_reads_each_sequence_from_its_own_start_as_the_live_run_does(tmp_path, capsys):
    bench = _bench()
    truth = _recording()
    assert bench.replay(truth) == (len(truth), len(truth))

    def lose_discards(seq, i, rec):  # vision loses the whole centre in two frames of the second hand
        if seq == 1 and i in (5, 6):
            for side in SIDES:
                rec["seats"][side]["discards"] = []
    spoiled = _recording(lose_discards)
    right, frames = bench.replay(spoiled)
    assert frames == len(spoiled) and right == _live(spoiled) < frames

    path = tmp_path / "frames.jsonl"
    path.write_text("".join(json.dumps(l) + "\n" for l in spoiled))
    bench.main([str(path)])
    assert f"turn right {right}/{frames} =" in capsys.readouterr().out


def test_an_unreadable_recording_is_named_and_stops_the_replay(tmp_path, capsys):
    bad = tmp_path / "broken.jsonl"
    bad.write_text('{"sequence": 0, "frame"\n')
    with pytest.raises(SystemExit) as e:
        _bench().main([str(bad)])
    assert "cannot read the recording" in str(e.value) and "broken.jsonl" in str(e.value)
