"""Tell systemd how the service is doing (sd_notify), without libsystemd.

The unit is ``Type=notify`` with ``WatchdogSec``: the loop sends READY=1 once
camera, display and pins are open, WATCHDOG=1 at least every
:func:`watchdog_period` seconds, and STOPPING=1 on SIGTERM. Outside systemd
(no NOTIFY_SOCKET) every call is a cheap no-op.
"""
from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send one notification; True if it was sent, False without systemd.

    Errors are swallowed on purpose: a vanished socket must never stop play.
    """
    address = (env if env is not None else os.environ).get("NOTIFY_SOCKET")
    if not address or address[0] not in "/@":
        return False
    if address[0] == "@":  # abstract namespace
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode(), address)
    except OSError:
        return False
    return True


def ready(status: str | None = None) -> bool:
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def watchdog() -> bool:
    return notify("WATCHDOG=1")


def stopping() -> bool:
    return notify("STOPPING=1")


def status(text: str) -> bool:
    return notify(f"STATUS={text}")


def watchdog_period(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between kicks (half of WatchdogSec), or None without a watchdog."""
    env = env if env is not None else os.environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2e6 if value > 0 else None
