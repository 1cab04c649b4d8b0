"""The club service: one subscriber for the whole club, PostgreSQL behind it, the board in front.

paho's network thread only queues incoming messages; one worker thread owns
the database connection and handles them in arrival order. A message is
acknowledged to the broker (manual PUBACK) only after its transaction
committed, and the service's MQTT session is persistent (clean_session off,
a fixed client id), so a service that is killed and started again gets
every event it had not finished from the broker. What it refuses is logged
with the reason and acknowledged, so a bad message cannot block the queue.
"""
from __future__ import annotations

import json
import logging
import queue
import threading
import time
from datetime import datetime, timezone

from .events import EventError, topic, validate
from .mqtt import make_client, parse_broker, refused
from .store import Store

log = logging.getLogger(__name__)

#: Ask a table to send again from a gap at most this often.
RESEND_EVERY = 5.0


class ClubService:
    def __init__(self, mqtt_url: str, db_url: str, club: str, *, username: str | None = None,
                 password: str | None = None, tls_ca: str | None = None, client_id: str | None = None) -> None:
        self.club = club
        self.db_url = db_url
        self.broker = parse_broker(mqtt_url)
        self.store = Store(db_url)
        self.store.migrate()
        self.version = 0  # bumped on every stored change; the board's live updates watch it
        self.stored = self.refused = self.duplicates = 0
        self._queue: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._resend_asked: dict[str, float] = {}
        self.client = make_client(client_id or f"tablemate-club-service-{club}", self.broker, username=username,
                                  password=password, tls_ca=tls_ca, clean_session=False, manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a: log.info("club service subscribed to club %s", club)
        self.client.on_disconnect = lambda *a: log.warning("club broker disconnected; reconnecting")
        self._worker = threading.Thread(target=self._work, name="club-store", daemon=True)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            refused(client, self.broker, reason_code)
            return
        client.problem = None
        client.subscribe([(topic(self.club, "+", "events"), 1), (topic(self.club, "+", "available"), 1)])
        log.info("club service connected to %s:%d, club %s", self.broker.host, self.broker.port, self.club)

    def _on_message(self, client, userdata, msg) -> None:
        self._queue.put(msg)

    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                msg = self._queue.get(timeout=0.2)
            except queue.Empty:
                continue
            try:
                self._handle(msg)
            except Exception:  # a database hiccup must not kill the worker: reconnect and retry once
                log.exception("club service: handling a message on %s failed", msg.topic)
                try:
                    self.store.close()
                except Exception:
                    pass
                time.sleep(1.0)
                try:
                    self.store = Store(self.db_url)
                    self._handle(msg)
                except Exception:
                    # acknowledged all the same: the event is not stored, so the table's
                    # next event shows a gap and the table is asked to send again from here
                    log.exception("club service: the retry failed too; the event waits for a resend")
            if msg.qos > 0:
                self.client.ack(msg.mid, msg.qos)

    def _handle(self, msg) -> None:
        leaf = msg.topic.rsplit("/", 1)[-1]
        if leaf == "available":
            table = msg.topic.split("/")[2]
            state = msg.payload.decode("utf-8", "replace").strip()
            if state in ("online", "offline", "stopped"):
                self.store.set_available(self.club, table, state)
                self.version += 1
            return
        try:
            event = validate(msg.topic, msg.payload, self.club)
        except EventError as err:
            self.refused += 1
            log.warning("refused a message on %s: %s", msg.topic, err)
            return
        out = self.store.apply_event(event)
        if out.status == "stored":
            self.stored += 1
            self.version += 1
        elif out.status == "duplicate":
            self.duplicates += 1
        elif out.status == "gap":
            self._ask_resend(event["table_id"], out.expected, out.reason)
        else:
            self.refused += 1
            log.warning("refused event %s seq %s of table %s: %s", event["type"], event["seq"],
                        event["table_id"], out.reason)

    def _ask_resend(self, table: str, start: int, why: str) -> None:
        now = time.monotonic()
        if now - self._resend_asked.get(table, -1e9) < RESEND_EVERY:
            return
        self._resend_asked[table] = now
        log.info("table %s: %s; asking it to send again from %d", table, why, start)
        self.client.publish(topic(self.club, table, "control"), json.dumps({"resend_from": start}), qos=1)

    def publish_seating(self, tournament: dict, round_: int) -> int:
        """Send each table its four players for the round, retained, so a Pi learns them whenever it connects."""
        seating = self.store.seating(tournament["id"], round_)
        for table, players in seating.items():
            payload = {"tournament": tournament["name"], "round": round_, "table_id": table, "players": players,
                       "ts": datetime.now(timezone.utc).isoformat(timespec="seconds")}
            self.client.publish(topic(self.club, table, "seating"), json.dumps(payload, ensure_ascii=False),
                                qos=1, retain=True)
        return len(seating)

    def start(self) -> None:
        self._worker.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()

    def stop(self) -> None:
        self._stop.set()
        self._worker.join(timeout=5)
        self.client.disconnect()
        self.client.loop_stop()
        self.store.close()
