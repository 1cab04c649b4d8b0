"""Nothing lost, nothing counted twice: offline tables, a broker restart, a killed service, repeats, forgeries.

After each, the service's standings must equal those computed directly from
the tables' own ledgers. Everything runs against real Mosquitto and
PostgreSQL on localhost (conftest.py).
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from datetime import datetime, timezone

from tablemate.club.events import envelope, topic
from tablemate.club.mqtt import make_client, parse_broker
from tablemate.club.publisher import Publisher
from tablemate.club.store import Store
from tablemate.app.config import load_config

from .conftest import CLUB, SERVICE_PASSWORD, SERVICE_USER, table_password
from .tables import SimTable, ledger_standings, wait_until

PLAYERS = [["Anna", "Ben", "Chen", "Dora"], ["Emil", "Fay", "Gus", "Hana"],
           ["Ida", "Jon", "Kai", "Lea"], ["Max", "Nia", "Ole", "Pia"]]


def query(db_url, sql, *args):
    store = Store(db_url)
    try:
        return store.db.execute(sql, args).fetchall()
    finally:
        store.close()


def board(db_url):
    store = Store(db_url)
    try:
        return store.board(CLUB)
    finally:
        store.close()


def all_stored(db_url, tables) -> bool:
    got = dict(query(db_url, "SELECT table_id, last_seq FROM club_tables"))
    return all(got.get(t.table_id) == t.last_seq() for t in tables)


def assert_board_equals_ledgers(db_url, tables):
    wait_until(lambda: all_stored(db_url, tables), what="every event stored")
    assert board(db_url)["overall"] == ledger_standings(tables)
    # stored once: one row per table sequence number, none missing
    for t in tables:
        (n,) = query(db_url, "SELECT count(*) FROM events WHERE table_id = %s", t.table_id)[0]
        assert n == t.last_seq()


def make_tables(tmp_path, broker, n):
    tables = []
    for i in range(n):
        t = SimTable(tmp_path / f"t{i + 1:02d}", f"t{i + 1:02d}", broker.url)
        t.new_match(PLAYERS[i])
        tables.append(t)
    return tables


def background(table: SimTable) -> Publisher:
    cfg = load_config(table.config)
    pub = Publisher(cfg.db, cfg.club)
    pub.start()
    return pub


def raw_client(broker, user, password, name):
    client = make_client(name, parse_broker(broker.url), username=user, password=password)
    connected = threading.Event()
    client.on_connect = lambda *a: connected.set()
    client.connect(parse_broker(broker.url).host, broker.port)
    client.loop_start()
    assert connected.wait(10)
    return client


def test_a_table_offline_for_ten_hands_catches_up_in_order(tmp_path, broker, db_url, service):
    tables = make_tables(tmp_path, broker, 2)
    online, away = tables
    cmd = [sys.executable, "-m", "tablemate.cli.main", "club", "publish", "--config", str(away.config)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        away.play(3)
        online.play(3)
        online.publish()
        wait_until(lambda: all_stored(db_url, tables), what="the first hands")
        proc.kill()  # the network goes: the broker sends the table's Last Will
        proc.wait()
        wait_until(lambda: {t["table_id"]: t["available"] for t in board(db_url)["tables"]}.get("t02") == "offline",
                   what="t02 offline")
        away.play(10, extras=False)
        online.play(10)
        online.publish()
        before = query(db_url, "SELECT last_seq FROM club_tables WHERE table_id = 't02'")[0][0]
        assert away.unsent() >= 10 and before < away.last_seq()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert_board_equals_ledgers(db_url, tables)
        wait_until(lambda: away.unsent() == 0, what="t02's outbox acknowledged")
        states = {t["table_id"]: t["available"] for t in board(db_url)["tables"]}
        assert states["t02"] == "online"
        seqs = [s for (s,) in query(db_url, "SELECT seq FROM events WHERE table_id = 't02' ORDER BY received, seq")]
        assert seqs == sorted(seqs)  # caught up in order
    finally:
        proc.kill()
        proc.wait()


def test_broker_restarted_mid_round(tmp_path, broker, db_url, service):
    tables = make_tables(tmp_path, broker, 2)
    pubs = [background(t) for t in tables]
    try:
        for t in tables:
            t.play(5)
        broker.restart()
        for t in tables:
            t.play(11)
        assert_board_equals_ledgers(db_url, tables)
    finally:
        for p in pubs:
            p.stop()


def test_service_killed_and_restarted(tmp_path, broker, db_url, service):
    tables = make_tables(tmp_path, broker, 2)
    pubs = [background(t) for t in tables]
    try:
        for t in tables:
            t.play(4)
        wait_until(lambda: all_stored(db_url, tables), what="the first hands")
        service.kill()  # SIGKILL: no goodbye; the broker keeps its session and queues what comes
        for t in tables:
            t.play(12)
        wait_until(lambda: all(t.unsent() == 0 for t in tables), what="the broker took every event")
        service.start()
        assert_board_equals_ledgers(db_url, tables)
    finally:
        for p in pubs:
            p.stop()


def test_duplicated_deliveries_are_counted_once(tmp_path, broker, db_url, service):
    tables = make_tables(tmp_path, broker, 2)
    for t in tables:
        t.play(8)
        t.publish()
    assert_board_equals_ledgers(db_url, tables)
    expected = board(db_url)["overall"]
    # the whole outbox again, as after a lost PUBACK, and one message twice by hand
    for t in tables:
        import sqlite3
        db = sqlite3.connect(t.db)
        db.execute("UPDATE outbox SET sent = NULL")
        db.commit()
        seq, event_id, type_, body, created = db.execute(
            "SELECT seq, event_id, type, body, created FROM outbox ORDER BY seq DESC LIMIT 1").fetchone()
        db.close()
        t.publish()
        client = raw_client(broker, t.table_id, table_password(t.table_id), f"dup-{t.table_id}")
        msg = json.dumps(envelope(CLUB, t.table_id, seq, event_id, created, type_, json.loads(body)))
        for _ in range(3):
            client.publish(topic(CLUB, t.table_id, "events"), msg, qos=1).wait_for_publish(10)
        client.disconnect()
        client.loop_stop()
    assert_board_equals_ledgers(db_url, tables)
    assert board(db_url)["overall"] == expected
    assert "refused" not in service.logs()


def test_a_forged_event_from_another_tables_credentials_is_never_stored(tmp_path, broker, db_url, service):
    tables = make_tables(tmp_path, broker, 2)
    victim, forger = tables
    for t in tables:
        t.play(4)
        t.publish()
    assert_board_equals_ledgers(db_url, tables)
    expected = board(db_url)["overall"]
    seen: list[str] = []
    spy = raw_client(broker, SERVICE_USER, SERVICE_PASSWORD, "spy")
    spy.on_message = lambda c, u, m: seen.append(m.topic)
    subscribed = threading.Event()
    spy.on_subscribe = lambda *a: subscribed.set()
    spy.subscribe(f"tablemate/{CLUB}/+/events", qos=1)
    assert subscribed.wait(10)
    forged = envelope(CLUB, victim.table_id, victim.last_seq() + 1, str(uuid.uuid4()),
                      datetime.now(timezone.utc).isoformat(), "penalty",
                      {"match_id": 1, "match_seq": 99, "hand_number": 5, "player": 0, "kind": "foul",
                       "detail": "", "nets": [-300, 100, 100, 100], "standings": [0, 0, 0, 0]})
    client = raw_client(broker, forger.table_id, table_password(forger.table_id), "forger")
    # 1. under the victim's topic: the broker's ACL drops it
    client.publish(topic(CLUB, victim.table_id, "events"), json.dumps(forged), qos=1).wait_for_publish(10)
    # 2. under its own topic, claiming to be the victim: the service refuses it
    client.publish(topic(CLUB, forger.table_id, "events"), json.dumps(forged), qos=1).wait_for_publish(10)
    # 3. malformed, on its own topic: refused
    client.publish(topic(CLUB, forger.table_id, "events"), b"{not json", qos=1).wait_for_publish(10)
    client.disconnect()
    client.loop_stop()
    wait_until(lambda: service.logs().count("refused a message") >= 2, what="both refusals logged")
    assert topic(CLUB, victim.table_id, "events") not in seen  # the ACL kept it from every subscriber
    # the two on its own topic did pass (the spy's copies may arrive after the service's)
    wait_until(lambda: seen.count(topic(CLUB, forger.table_id, "events")) == 2, what="the spy's two copies")
    logs = service.logs()
    assert "was published under table 't02'" in logs and "not JSON" in logs
    spy.disconnect()
    spy.loop_stop()
    assert board(db_url)["overall"] == expected
    assert_board_equals_ledgers(db_url, tables)
    (n,) = query(db_url, "SELECT count(*) FROM penalties WHERE match_seq = 99")[0]
    assert n == 0
