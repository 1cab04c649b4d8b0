from __future__ import annotations

import os
import socket

import pytest

from tablemate.device import sdnotify


@pytest.fixture
def listener(tmp_path, monkeypatch):
    """A datagram socket standing in for systemd's notify socket."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_ready_watchdog_status_stopping(listener):
    assert sdnotify.ready("camera ok")
    assert listener.recv(4096) == b"READY=1\nSTATUS=camera ok"
    assert sdnotify.watchdog()
    assert listener.recv(4096) == b"WATCHDOG=1"
    assert sdnotify.status("hand 5 of 16")
    assert listener.recv(4096) == b"STATUS=hand 5 of 16"
    assert sdnotify.stopping()
    assert listener.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket(monkeypatch):
    name = f"tablemate-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert sdnotify.watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.ready() is False


def test_a_vanished_socket_is_not_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert sdnotify.watchdog() is False


def test_watchdog_period_is_half_the_timeout():
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "soon"}) is None
    assert sdnotify.watchdog_period({}) is None
