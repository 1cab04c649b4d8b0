"""`tablemate run` as a real process: sd_notify, SIGKILL and restart, SIGTERM.

The child runs on a FileCamera (blank frames, looping), gpiozero's mock pins
and luma's dummy display; hands are recorded with the CLI while it runs, the
way players correct or record a hand the camera could not read.
"""
from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablemate.cli.main import main as cli_main
from tablemate.app.ledger import Ledger

ROOT = Path(__file__).resolve().parents[2]


class Child:
    def __init__(self, config: Path, notify: str):
        env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", NOTIFY_SOCKET=notify, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "tablemate.cli.main", "run", "--config", str(config),
                                      "--frame-interval", "0.05"],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"{text!r} not seen; child said:\n" + "\n".join(self.seen))


@pytest.fixture
def setup(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i}.png"), np.full((90, 160, 3), 40, np.uint8))
    db = tmp_path / "ledger.sqlite"
    config = tmp_path / "tablemate.toml"
    config.write_text(f'rules = "mcr"\ndb = "{db}"\n[camera]\nsource = "files"\npath = "{frames}"\nloop = true\n'
                      f'[display]\ndriver = "dummy"\n')
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(0.2)
    got: list[str] = []
    done = threading.Event()

    def drain():  # as systemd does: a notify socket nobody reads would block the child
        while not done.is_set():
            try:
                got.extend(sock.recv(4096).decode().split("\n"))
            except (socket.timeout, OSError):
                continue

    threading.Thread(target=drain, daemon=True).start()
    yield config, db, got, sock_path
    done.set()
    sock.close()


def messages(got: list[str], want: str, timeout: float = 20.0) -> list[str]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if want in got:
            out = list(got)
            got.clear()
            return out
        time.sleep(0.05)
    raise AssertionError(f"{want} not received; got {got}")


def test_kill_and_restart_resumes_the_match(setup):
    config, db, sock, sock_path = setup
    child = Child(config, sock_path)
    try:
        messages(sock, "READY=1")
        assert "WATCHDOG=1" in messages(sock, "WATCHDOG=1")
        assert cli_main(["match", "record", "--db", str(db), "--draw"]) == 0
        child.wait_for("ledger changed elsewhere")
        child.proc.send_signal(signal.SIGKILL)
        assert child.proc.wait(10) == -signal.SIGKILL
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
    with Ledger(db, create=False) as ledger:
        assert ledger.current().state.hands_played == 1

    child = Child(config, sock_path)
    try:
        messages(sock, "READY=1")
        line = child.wait_for("match 1:")
        assert "hand 2," in line
        assert cli_main(["match", "record", "--db", str(db), "--draw"]) == 0
        child.wait_for("ledger changed elsewhere: hand 3")
        child.proc.send_signal(signal.SIGTERM)
        assert child.proc.wait(10) == 0
        assert "STOPPING=1" in messages(sock, "STOPPING=1")
        child.wait_for("leds: off")
        child.wait_for("display: off")
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
    with Ledger(db, create=False) as ledger:
        assert ledger.current().state.hands_played == 2
