"""The board served by `tablemate club serve`: standings and table states, de/en, live over SSE (real uvicorn)."""
from __future__ import annotations

import json
import subprocess
import sys
import time

import httpx

from .conftest import Service
from .tables import SimTable, ledger_standings, wait_until


def test_the_board_shows_standings_and_table_states_and_updates_live(tmp_path, broker, db_url):
    service = Service(tmp_path, broker, db_url, board=True)
    service.start()
    base = f"http://127.0.0.1:{service.http_port}"
    proc = None
    try:
        playing = SimTable(tmp_path / "t01", "t01", broker.url)
        playing.new_match(["Anna", "Ben", "Chen", "Dora"])
        playing.play(6, extras=False)
        playing.publish()
        away = SimTable(tmp_path / "t02", "t02", broker.url)
        away.new_match(["Emil", "Fay", "Gus", "Hana"])
        proc = subprocess.Popen([sys.executable, "-m", "tablemate.cli.main", "club", "publish",
                                 "--config", str(away.config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: len(httpx.get(base + "/board.json").json()["tables"]) == 2, what="both tables")
        proc.kill()
        proc.wait()
        wait_until(lambda: "offline since" in httpx.get(base + "/?lang=en").text, what="t02 offline")

        board = httpx.get(base + "/board.json").json()
        assert board["overall"] == ledger_standings([playing, away])
        page = httpx.get(base + "/?lang=en").text
        assert "playing hand 7/16" in page and "Anna" in page
        german = httpx.get(base + "/", headers={"Accept-Language": "de-DE,de;q=0.9"}).text
        assert "spielt Hand 7/16" in german and "offline seit" in german and "Rangliste" in german

        with httpx.stream("GET", base + "/events?lang=en", timeout=20) as events:
            lines = events.iter_lines()
            first = _next_event(lines)
            assert "playing hand 7/16" in first["data"]
            playing.play(10, extras=False)
            playing.publish()
            deadline = time.monotonic() + 20
            while True:
                ev = _next_event(lines)
                if "finished" in ev["data"] or time.monotonic() > deadline:
                    break
            assert "finished" in ev["data"] and int(ev["id"]) > int(first["id"])
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        service.stop()


def _next_event(lines) -> dict:
    ev: dict = {"data": ""}
    for _ in range(10000):
        line = next(lines)
        if not line:
            if ev.get("event"):
                return ev
            continue
        key, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if key == "data":
            ev["data"] += value + "\n"
        elif key in ("event", "id"):
            ev[key] = value
    raise AssertionError("no event in the stream")
