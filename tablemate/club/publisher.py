"""A table's side of club mode: drain the ledger's outbox to the club's broker.

The ledger writes an outbox row in the same transaction as each event
(``tablemate.app.ledger`` migration 2), so nothing the table recorded can
be missing from the outbox. This publisher sends the unsent rows in sequence
order at QoS 1 and marks a row sent only when the broker's PUBACK for it
arrives; whatever was in flight when the connection dropped is sent again
after the reconnect. The service stores events idempotently by (table, seq),
so a repeat is harmless, and it asks for a resend (``control`` topic) when
it sees a gap, so a lost message is recovered too.

It also keeps the table's availability (retained ``online``, Last Will
``offline``, ``stopped`` on a clean exit) and saves the seating the service
publishes for this table (retained) to ``seating.json`` beside the ledger,
where the appliance takes it up (``table_seating``).
"""
from __future__ import annotations

import json
import logging
import os
import queue
import sqlite3
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from ..app.config import ClubConfig
from ..app.ledger import Ledger
from .events import envelope, topic
from .mqtt import make_client, parse_broker, refused
from .table_seating import seating_path

log = logging.getLogger(__name__)

#: Messages in flight at once; QoS 1 on one connection keeps them in order.
WINDOW = 20


class Publisher:
    """Runs in the background (``start``/``stop``) or drains once (``drain``)."""

    def __init__(self, ledger_path: str | os.PathLike, club: ClubConfig) -> None:
        self.ledger_path = Path(ledger_path)
        self.club = club
        self.broker = parse_broker(club.broker)
        with Ledger(self.ledger_path):  # creates or migrates it, so the outbox exists
            pass
        self._acks: queue.Queue = queue.Queue()
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._generation = 0  # bumped on every (re)connect: older in-flight mids are void
        self._thread: threading.Thread | None = None
        self.client = make_client(
            f"tablemate-{club.club_id}-{club.table_id}", self.broker,
            username=club.username, password=club.password, tls_ca=club.tls_ca, clean_session=True)
        self._t_events = topic(club.club_id, club.table_id, "events")
        self._t_available = topic(club.club_id, club.table_id, "available")
        self._t_seating = topic(club.club_id, club.table_id, "seating")
        self._t_control = topic(club.club_id, club.table_id, "control")
        self.client.will_set(self._t_available, "offline", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = self._on_subscribe
        self._ready_mid = -1
        #: Set once subscribed and the retained seating (if any) has arrived.
        self.ready = threading.Event()
        self.client.on_message = self._on_message
        self.seating: dict | None = None

    # -- paho callbacks (paho's network thread) -------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            refused(client, self.broker, reason_code)
            return
        client.problem = None
        client.subscribe([(self._t_seating, 1), (self._t_control, 1)])
        self._acks.put(("connected", None))
        self._connected.set()
        log.info("club broker %s:%d connected", self.broker.host, self.broker.port)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        # The broker sends retained messages (the seating) right after SUBACK, so
        # once "online", published now, is acknowledged, they have arrived.
        self._ready_mid = client.publish(self._t_available, "online", qos=1, retain=True).mid

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        if self._connected.is_set():
            log.warning("club broker disconnected (%s); events wait in the outbox", reason_code)
        self._connected.clear()
        self.ready.clear()

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        if mid == self._ready_mid:
            self.ready.set()
        self._acks.put(("ack", mid))

    def _on_message(self, client, userdata, msg) -> None:
        try:
            data = json.loads(msg.payload)
        except ValueError:
            log.warning("ignored a message on %s that is not JSON", msg.topic)
            return
        if msg.topic == self._t_seating and isinstance(data, dict):
            self.seating = data
            path = seating_path(self.ledger_path)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
            os.replace(tmp, path)
            log.info("seating for this table: %s", ", ".join(map(str, data.get("players", []))))
        elif msg.topic == self._t_control and isinstance(data, dict):
            start = data.get("resend_from")
            if isinstance(start, int) and start >= 1:
                self._acks.put(("resend", start))

    # -- the outbox ---------------------------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.ledger_path, isolation_level=None, timeout=10.0)
        db.execute("PRAGMA synchronous = FULL")
        return db

    @property
    def problem(self):
        """Why the broker cannot be used right now (``mqtt.Problem``), or None."""
        return self.client.problem

    def pending(self) -> int:
        """How many outbox rows the broker has not acknowledged yet."""
        with _closing(self._db()) as db:
            return db.execute("SELECT count(*) FROM outbox WHERE sent IS NULL").fetchone()[0]

    def _work(self, until_empty: bool, deadline: float | None) -> bool:
        """The sending loop; returns True when it stopped with the outbox empty."""
        db = self._db()
        inflight: dict[int, int] = {}  # mid -> seq
        last = 0  # highest seq published on this connection
        try:
            while not self._stop.is_set():
                if deadline is not None and time.monotonic() > deadline:
                    return False
                try:
                    kind, value = self._acks.get(timeout=0.05 if self._connected.is_set() else 0.2)
                except queue.Empty:
                    kind, value = None, None
                if kind == "connected":
                    inflight.clear()
                    last = 0
                elif kind == "ack" and value in inflight:
                    seq = inflight.pop(value)
                    db.execute("UPDATE outbox SET sent = ? WHERE seq = ?",
                               (datetime.now(timezone.utc).isoformat(timespec="milliseconds"), seq))
                elif kind == "resend":
                    log.info("the club service asks for events from %d again", value)
                    db.execute("UPDATE outbox SET sent = NULL WHERE seq >= ?", (value,))
                    last = min(last, value - 1)
                if not self._connected.is_set():
                    inflight.clear()
                    last = 0
                    continue
                room = WINDOW - len(inflight)
                if room > 0:
                    rows = db.execute(
                        "SELECT seq, event_id, type, body, created FROM outbox"
                        " WHERE sent IS NULL AND seq > ? ORDER BY seq LIMIT ?", (last, room)).fetchall()
                    for seq, event_id, type_, body, created in rows:
                        msg = envelope(self.club.club_id, self.club.table_id, seq, event_id, created, type_,
                                       json.loads(body))
                        info = self.client.publish(self._t_events, json.dumps(msg, ensure_ascii=False), qos=1)
                        if info.rc != 0:
                            break  # not connected after all; the reconnect starts over
                        inflight[info.mid] = seq
                        last = seq
                if until_empty and not inflight and kind is None and self.ready.is_set():
                    if db.execute("SELECT count(*) FROM outbox WHERE sent IS NULL").fetchone()[0] == 0:
                        return True
            return False
        finally:
            db.close()

    # -- running ------------------------------------------------------------------------

    def _connect(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()

    def drain(self, timeout: float = 30.0) -> bool:
        """Connect, send everything unsent, wait for the broker's acks; True if the outbox is empty."""
        self._connect()
        try:
            return self._work(until_empty=True, deadline=time.monotonic() + timeout)
        finally:
            self._close("stopped")

    def start(self) -> None:
        """Publish in the background until ``stop``; reconnects by itself."""
        self._connect()
        self._thread = threading.Thread(target=self._work, args=(False, None), name="club-publisher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close("stopped")

    def _close(self, state: str) -> None:
        if self._connected.is_set():
            try:
                self.client.publish(self._t_available, state, qos=1, retain=True).wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):
                pass  # the connection went meanwhile; the Last Will says offline
        self.client.disconnect()
        self.client.loop_stop()


class _closing:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        return self.db

    def __exit__(self, *exc: object) -> None:
        self.db.close()
