"""Who may change the match: the table's PIN, sessions, CSRF tokens and the lock.

Why this shape: everyone on the table's network may look (the page is the
players' shared score sheet), but a phone that wants to change anything has
to prove it can read the display, which shows the PIN. The PIN is new on
every match unless the config sets one, so a guest from last week's match
cannot edit tonight's. Sessions live in memory only (a restart asks for the
PIN again, which is cheap and keeps nothing secret on disk); their cookie is
HttpOnly and SameSite=Strict, and every change also carries the session's
CSRF token in a header or form field, which another site cannot read.
Five wrong PINs in a row lock every change for a minute: a four-digit PIN
then takes days to guess on the LAN, and the lock is global because a
guesser could otherwise open a new session for each try.
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from ..app.actions import new_pin

COOKIE = "tablemate_session"
MAX_WRONG = 5
LOCK_SECONDS = 60.0
MAX_SESSIONS = 500  # a phone that never comes back must not grow memory for ever


@dataclass
class Session:
    id: str
    csrf: str
    #: The match whose PIN this session entered (a new match asks again), or None.
    match_id: int | None = None
    seen: float = field(default_factory=time.monotonic)


class Guard:
    """PINs per match, sessions and the wrong-PIN lock; thread-safe (uvicorn runs handlers in threads)."""

    def __init__(self, fixed_pin: str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.fixed_pin = fixed_pin
        self.clock = clock
        self._pins: dict[int, str] = {}
        self._sessions: dict[str, Session] = {}
        self._wrong = 0
        self._locked_until = 0.0
        self._lock = threading.Lock()

    # -- the PIN ------------------------------------------------------------------------

    def pin(self, match_id: int) -> str:
        """The PIN of this match: the config's, else a new random one for each match."""
        if self.fixed_pin:
            return self.fixed_pin
        with self._lock:
            if match_id not in self._pins:
                self._pins[match_id] = new_pin()
            return self._pins[match_id]

    def locked_for(self) -> float:
        """Seconds until changes are allowed again after five wrong PINs (0: not locked)."""
        return max(0.0, self._locked_until - self.clock())

    def enter(self, session: Session, match_id: int, pin: str) -> bool:
        """Check a PIN; a right one lets this session change ``match_id`` (raises Locked while locked)."""
        right = self.pin(match_id)
        with self._lock:
            wait = self._locked_until - self.clock()
            if wait > 0:
                raise Locked(wait)
            if hmac.compare_digest(str(pin).strip().encode(), right.encode()):
                self._wrong = 0
                session.match_id = match_id
                return True
            self._wrong += 1
            if self._wrong >= MAX_WRONG:
                self._wrong = 0
                self._locked_until = self.clock() + LOCK_SECONDS
                raise Locked(LOCK_SECONDS)
            return False

    def may_change(self, session: Session | None, match_id: int) -> bool:
        return session is not None and session.match_id == match_id

    # -- sessions -----------------------------------------------------------------------

    def session(self, sid: str | None) -> Session | None:
        with self._lock:
            s = self._sessions.get(sid or "")
            if s is not None:
                s.seen = self.clock()
            return s

    def new_session(self) -> Session:
        with self._lock:
            if len(self._sessions) >= MAX_SESSIONS:
                oldest = min(self._sessions.values(), key=lambda s: s.seen)
                del self._sessions[oldest.id]
            s = Session(secrets.token_urlsafe(24), secrets.token_urlsafe(24), seen=self.clock())
            self._sessions[s.id] = s
            return s

    def csrf_ok(self, session: Session | None, token: str | None) -> bool:
        return session is not None and bool(token) and hmac.compare_digest(session.csrf.encode(), str(token).encode())


class Locked(Exception):
    """Five wrong PINs: changes are locked for ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"locked for {seconds:.0f} s")
        self.seconds = seconds
