"""`tablemate settle`: one result line per table line, errors as lines, never a traceback."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from tablemate.cli.main import main

GOLDEN = Path(__file__).resolve().parents[1] / "rules" / "golden" / "settlement" / "mcr.jsonl"
CASES = [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def run(monkeypatch, capsys, argv, stdin):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    return code, capsys.readouterr()


def test_jsonl_settles_in_order(monkeypatch, capsys):
    text = "".join(json.dumps(c["table"]) + "\n" for c in CASES)
    code, out = run(monkeypatch, capsys, ["settle", "--jsonl"], text)
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert code == 0
    assert [[s["net"] for s in r["seats"]] for r in lines] == [c["nets"] for c in CASES]


def test_bad_lines_give_error_lines_and_exit_1(monkeypatch, capsys):
    five = json.loads(json.dumps(CASES[0]["table"]))
    five["seats"][0]["concealed"] = ["C"] * 2  # with West's pung of C: five red dragons
    two = json.loads(json.dumps(CASES[0]["table"]))
    two["winner"] = [2, 1]
    same = json.loads(json.dumps(CASES[0]["table"]))
    same["discarder"] = 2
    text = "\n".join([json.dumps(CASES[0]["table"]), "{not json", json.dumps(five), json.dumps(two),
                      json.dumps(same), "[1, 2]", json.dumps(CASES[1]["table"])]) + "\n"
    code, out = run(monkeypatch, capsys, ["settle", "--jsonl"], text)
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert code == 1 and len(lines) == 7
    assert "seats" in lines[0] and "seats" in lines[6]
    assert "not JSON" in lines[1]["error"]
    assert "5 of C" in lines[2]["error"]
    assert "two winners" in lines[3]["error"]
    assert "cannot both win and discard" in lines[4]["error"]
    assert "JSON object" in lines[5]["error"]
    assert "Traceback" not in out.err


def test_single_table_mode(monkeypatch, capsys):
    code, out = run(monkeypatch, capsys, ["settle"], json.dumps(CASES[0]["table"], indent=2))
    assert code == 0 and json.loads(out.out)["payments"][1] == {"from": 1, "to": 2, "amount": 25}
    code, out = run(monkeypatch, capsys, ["settle"], "")
    assert code == 1 and "error" in json.loads(out.out)


def test_console_entry_point_never_shows_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "tablemate.cli.main", "settle", "--jsonl"],
                          input='{"seats": 5}\n', capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "error" in json.loads(proc.stdout) and "Traceback" not in proc.stderr
