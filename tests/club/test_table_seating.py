"""The appliance starts each round's match with the players the service seated at its table.

Real Mosquitto, PostgreSQL and `tablemate club serve`; the table's publisher
saves the retained seating, and the appliance (gpiozero's MockFactory, luma's
dummy display, a folder of blank frames) takes it up: at once when no match
is in progress, and only after the match at the table has ended otherwise.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
from luma.core.device import dummy

from tablemate.app.config import PinsConfig, load_config
from tablemate.app.i18n import Strings
from tablemate.app.ledger import Ledger
from tablemate.app.screens import PlayScreen, to_text
from tablemate.app.service import Appliance, Outputs
from tablemate.club.board import render_fragment
from tablemate.club.publisher import Publisher
from tablemate.club.standings import TableResult, rank
from tablemate.club.store import Store
from tablemate.club.table_seating import SeatingScreen, for_config
from tablemate.device.buttons import Buttons
from tablemate.device.camera import FileCamera
from tablemate.device.display import Display
from tablemate.device.leds import SeatLights

from .conftest import CLUB, SERVICE_PASSWORD, SERVICE_USER
from .tables import SimTable, cli, wait_until

REPO = Path(__file__).resolve().parents[2]
PINS = PinsConfig(bounce_time=None)
PLAYERS = ["Anna", "Ben", "Chen", "Dora", "Emil", "Fay", "Gus", "Hana"]
HIDDEN = {"image": {"width": 64, "height": 64}, "tiles": [],
          "seats": {s: {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": True,
                        "discards": []} for s in ("bottom", "right", "top", "left")}}


def blank_frames(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "0.png"), np.full((64, 64, 3), 40, np.uint8))
    return folder


class Table:
    """One table's appliance built as `tablemate run` builds it, on mock pins and a dummy display."""

    def __init__(self, sim: SimTable, factory, frames: Path) -> None:
        self.sim, self.factory = sim, factory
        cfg = load_config(sim.config)
        self.lights = SeatLights.from_config(PINS, pin_factory=factory)
        self.buttons = Buttons.from_config(PINS, pin_factory=factory)
        self.display = Display(dummy(width=128, height=64, mode="1"), Strings("en"))
        self.ledger = Ledger(cfg.db)
        self.lines: list[str] = []
        self.app = Appliance(self.ledger, Outputs(self.lights, self.display, Strings("en")), self.buttons,
                             lambda: FileCamera(frames, loop=True), rules=cfg.rules, options=cfg.options,
                             players=cfg.players, recognize=lambda image: HIDDEN, frame_interval=0, ledger_poll=0,
                             echo=self.lines.append, seating=for_config(cfg))

    def press(self, name: str) -> None:
        pin = self.factory.pin(PINS.buttons[name])
        pin.drive_low()
        pin.drive_high()
        self.app.step(0.5)

    def steps(self, n: int = 5) -> None:
        for _ in range(n):
            self.app.step(0)

    def match(self):
        return self.ledger.current()

    def close(self) -> None:
        for part in (self.buttons, self.lights, self.display, self.ledger):
            part.close()


def stored_matches(db_url: str, table: str) -> list[tuple]:
    store = Store(db_url)
    try:
        return store.db.execute("SELECT match_id, players, round, finished FROM matches WHERE table_id = %s"
                                " ORDER BY match_id", (table,)).fetchall()
    finally:
        store.close()


def board(db_url: str) -> dict:
    store = Store(db_url)
    try:
        return store.board(CLUB)
    finally:
        store.close()


def seating_round(sim: SimTable) -> int | None:
    try:
        return json.loads(sim.db.with_name("seating.json").read_text())["round"]
    except (OSError, ValueError):
        return None


def organiser(*argv: str) -> str:
    return cli("club", *argv, "--club", CLUB, "--username", SERVICE_USER, "--password", SERVICE_PASSWORD)


def test_the_appliance_plays_each_round_with_the_seated_players(tmp_path, broker, db_url, service, mock_factory):
    players_file = tmp_path / "players.txt"
    players_file.write_text("\n".join(PLAYERS) + "\n")
    frames = blank_frames(tmp_path / "frames")
    sim = SimTable(tmp_path / "t01", "t01", broker.url)
    table = Table(sim, mock_factory, frames)
    pub = None
    try:
        # The Pi boots before the organiser has seated anyone: a match with the config's names.
        table.app.start()
        assert table.match().state.players == ("Player 1", "Player 2", "Player 3", "Player 4")
        cfg = load_config(sim.config)
        pub = Publisher(cfg.db, cfg.club)
        pub.start()
        plan = json.loads(organiser("seating", "--players", str(players_file), "--rounds", "2", "--json", "--ema",
                                    "--db", db_url, "--name", "Club night", "--mqtt", broker.url))
        first, second = plan["rounds"][0]["t01"], plan["rounds"][1]["t01"]
        assert first != second

        # Round 1 arrives (retained, through the publisher): the match starts with its players, in wind order.
        wait_until(lambda: seating_round(sim) == 1, what="round 1's seating at the table")
        wait_until(lambda: (table.steps(1), table.match().state.players == tuple(first))[1],
                   what="the appliance starting round 1")
        round1 = table.match()
        assert round1.id == 2 and not round1.events
        screen = table.app.screen
        assert isinstance(screen, SeatingScreen) and [name for name, _ in screen.seats] == first
        shown = to_text(screen, Strings("en"))
        assert "Round 1" in shown and all(name in shown for name in first)
        assert "Runde 1" in to_text(screen, Strings("de"))
        assert table.display.current is not None and table.display.current.getbbox() is not None  # drawn
        # ... and the service learns it from the match-started event: these four, round 1 of the tournament.
        wait_until(lambda: (2, first, 1, False) in stored_matches(db_url, "t01"), what="match 2 stored")

        # A hand is played; then round 2 is sent. The match in progress is not interrupted.
        table.press("next")  # the seating screen -> play
        assert isinstance(table.app.screen, PlayScreen) and table.app.screen.dealer == first[0]
        table.press("draw")
        table.press("next")
        organiser("round", "2", "--db", db_url, "--mqtt", broker.url)
        wait_until(lambda: seating_round(sim) == 2, what="round 2's seating at the table")
        table.steps(10)
        assert table.match().id == round1.id and table.match().state.hands_played == 1
        for _ in range(15):
            table.press("draw")
            while table.app.mode == "between":  # the settlement, at a new wind round the seat change
                table.press("next")
            assert table.match().id == round1.id  # never mid-match
        # Its end: the sixteenth hand finished it; the next poll takes round 2.
        assert table.ledger.current(round1.id).state.finished
        table.steps(3)
        assert table.match().id == 3 and table.match().state.players == tuple(second)
        assert isinstance(table.app.screen, SeatingScreen) and table.app.screen.round == 2

        # The broker sends the retained seating again on every reconnect; nothing starts twice.
        pub.stop()
        pub = Publisher(cfg.db, cfg.club)
        pub.start()
        wait_until(pub.ready.is_set, what="the publisher back")
        table.steps(5)
        assert table.ledger.match_ids() == [1, 2, 3]

        wait_until(lambda: [m[0] for m in stored_matches(db_url, "t01")] == [1, 2, 3], what="match 3 stored")
        matches = stored_matches(db_url, "t01")
        assert matches[1] == (2, first, 1, True) and matches[2] == (3, second, 2, False)
        # The standings are those of the table's own ledger, round by round.
        ledger_results = [TableResult(1, "t01", tuple(first), table.ledger.current(2).state.standings),
                          TableResult(2, "t01", tuple(second), table.ledger.current(3).state.standings)]
        shown = board(db_url)
        assert shown["overall"] == [r.to_json() for r in rank(ledger_results, "mcr", ema=True, players=PLAYERS)]
        assert all(row["ranking_points"] is not None for row in shown["overall"])  # the tournament's EMA option
        # The board: both rounds' seating with the plan's repeat count, the EMA column, round 1 and overall.
        for lang, words in (("en", ("Seating · Round 2", f"Repeat opponents: {plan['repeats']}", "Ranking points",
                                    "Round 1", "Overall")),
                            ("de", ("Sitzplan · Runde 2", f"Wiederholte Gegner: {plan['repeats']}",
                                    "Ranglistenpunkte", "Runde 1", "Gesamt"))):
            page, _ = render_fragment(shown, lang)
            assert all(w in page for w in words), (lang, page)
            assert ", ".join(second) in page
    finally:
        if pub is not None:
            pub.stop()
        table.close()

    # A restart of the appliance does not start the round again either.
    again = Table(sim, mock_factory, frames)
    try:
        again.app.start()
        again.steps(3)
        assert again.ledger.match_ids() == [1, 2, 3]
        assert again.match().state.players == tuple(second)
    finally:
        again.close()


def test_tablemate_run_starts_with_the_seating_it_finds(tmp_path, broker, db_url, service):
    """The real `tablemate run` process: a table whose first match is the seated one, no names typed."""
    players_file = tmp_path / "players.txt"
    players_file.write_text("\n".join(PLAYERS[:4]) + "\n")
    plan = json.loads(organiser("seating", "--players", str(players_file), "--rounds", "1", "--json",
                                "--db", db_url, "--name", "Club night", "--mqtt", broker.url))
    seated = plan["rounds"][0]["t01"]
    sim = SimTable(tmp_path / "t01", "t01", broker.url)
    sim.publish()  # connects, learns its seating (retained), has nothing to send yet
    frames = blank_frames(tmp_path / "frames")
    with open(sim.config, "a") as f:
        f.write(f'\n[camera]\nsource = "files"\npath = "{frames}"\nloop = true\n\n[display]\ndriver = "dummy"\n')
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "tablemate.cli.main", "run", "--config", str(sim.config),
                             "--frame-interval", "0.05"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr], daemon=True).start()
    seen = []
    try:
        deadline = time.monotonic() + 30
        while not any("started match 1 for" in line for line in seen):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(seen)
            try:
                seen.append(lines.get(timeout=0.2))
            except queue.Empty:
                pass
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert f"started match 1 for {', '.join(seated)}" in "".join(seen)
    with Ledger(sim.db) as led:
        assert led.match_ids() == [1] and led.current().state.players == tuple(seated)
    sim.publish()
    wait_until(lambda: stored_matches(db_url, "t01") == [(1, seated, 1, False)], what="the match stored")
