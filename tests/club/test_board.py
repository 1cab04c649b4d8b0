"""The board served by `tablemate club serve`: standings and table states, de/en, live over SSE (real uvicorn)."""
from __future__ import annotations

import subprocess
import sys
import time

from datetime import datetime, timezone

import httpx

from tablemate.app.config import load_config
from tablemate.club.board import table_state
from tablemate.club.publisher import Publisher

from .conftest import Service
from .tables import SimTable, ledger_standings, wait_until


def test_the_board_shows_standings_and_table_states_and_updates_live(tmp_path, broker, db_url):
    service = Service(tmp_path, broker, db_url, board=True)
    service.start()
    base = f"http://127.0.0.1:{service.http_port}"
    proc = pub = None
    try:
        playing = SimTable(tmp_path / "t01", "t01", broker.url)
        playing.new_match(["Anna", "Ben", "Chen", "Dora"])
        cfg = load_config(playing.config)
        pub = Publisher(cfg.db, cfg.club)  # as tablemate-club.service runs it: connected all evening
        pub.start()
        playing.play(6, extras=False)
        away = SimTable(tmp_path / "t02", "t02", broker.url)
        away.new_match(["Emil", "Fay", "Gus", "Hana"])
        proc = subprocess.Popen([sys.executable, "-m", "tablemate.cli.main", "club", "publish",
                                 "--config", str(away.config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: len(httpx.get(base + "/board.json").json()["tables"]) == 2, what="both tables")
        wait_until(lambda: "playing hand 7/16" in httpx.get(base + "/?lang=en").text, what="t01's six hands")
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
            deadline = time.monotonic() + 20
            while True:
                ev = _next_event(lines)
                if "finished" in ev["data"] or time.monotonic() > deadline:
                    break
            assert "finished" in ev["data"] and int(ev["id"]) > int(first["id"])
    finally:
        if pub is not None:
            pub.stop()
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        service.stop()


def test_a_table_offline_or_stopped_shows_since_when():
    since = datetime(2026, 11, 23, 19, 42, tzinfo=timezone.utc)
    local = since.astimezone().strftime("%H:%M")
    playing = {"rules": "mcr", "players": ["A", "B", "C", "D"], "hands_played": 6, "finished": False,
               "standings": [0, 0, 0, 0], "round": 1}
    for state in ("offline", "stopped"):
        tb = {"table_id": "t01", "available": state, "available_since": since.isoformat(), "match": playing}
        assert table_state(tb, "en") == (f"offline since {local}", "offline")
        assert table_state(tb, "de") == (f"offline seit {local}", "offline")
    online = {"table_id": "t01", "available": "online", "available_since": since.isoformat(), "match": playing}
    assert table_state(online, "en") == ("playing hand 7/16", "playing")
    assert table_state({**online, "match": {**playing, "finished": True}}, "de") == ("beendet", "finished")
    gone = {**online, "available": "stopped", "match": {**playing, "finished": True}}
    assert table_state(gone, "en") == ("finished", "finished")  # done for the evening, then shut down
    assert table_state({**online, "match": {**playing, "rules": "classical"}}, "de") == ("spielt Hand 7", "playing")


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
