"""Club mode under load: N simulated tables x 16 hands through real Mosquitto, the service and PostgreSQL.

Figures, not a pass/fail test. Each table is a real ledger (SQLite, WAL,
synchronous=FULL) with its own publisher (paho, QoS 1, its own broker
user under the example ACL); the service is `tablemate club serve` as its
own process. Two paces:

- fast: every table records its 16 hands as fast as it can;
- realistic: a hand every --hand-seconds per table (jittered, default 3 s,
  a compressed club evening where a real hand takes 5-10 minutes);
- backlog: the service is stopped while the tables play (the broker queues
  for its persistent session) and started afterwards: its own storing rate.

Printed: events stored per second, the slowest event's delay from the
table's ledger to the board's database (the board refreshes within a
further 0.25 s), PostgreSQL rows and size, the service's peak memory.

    .venv/bin/python benchmarks/club_load.py [--tables 100] [--pace fast|realistic|backlog|all]

Needs mosquitto and PostgreSQL installed (as .ci/run does); uses their
test fixtures from tests/club/conftest.py in a temporary folder.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablemate.club.publisher import Publisher  # noqa: E402
from tablemate.app.config import ClubConfig  # noqa: E402
from tablemate.app.ledger import Ledger  # noqa: E402
from tablemate.rules.notation import parse_hand  # noqa: E402
from tablemate.rules.tiles import Tile  # noqa: E402
from tests.club.conftest import CLUB, Broker, Postgres, Service, table_password  # noqa: E402

WIN = "123m 456p 789s E [CCC] +E"


def a_table(rng: random.Random, seat_order) -> dict:
    if rng.random() < 0.2:
        return {"seats": [{}, {}, {}, {}], "winner": None}
    seat = rng.randrange(4)
    seats = [{"seat_wind": w} for w in "ESWN"]
    hand = parse_hand(WIN, seat_wind=Tile.from_code("ESWN"[seat])).to_json()
    del hand["prevailing_wind"]
    seats[seat] = hand
    discarder = None if rng.random() < 0.3 else rng.choice([s for s in range(4) if s != seat])
    return {"seats": seats, "winner": seat, "discarder": discarder}


def play_table(folder: Path, table_id: str, broker_url: str, pace: float | None, results: dict) -> None:
    rng = random.Random(table_id)
    db = folder / table_id / "ledger.sqlite3"
    club = ClubConfig(True, broker_url, CLUB, table_id, table_id, table_password(table_id))
    pub = Publisher(db, club)
    pub.start()
    try:
        with Ledger(db) as led:
            led.new_match("mcr", [f"{table_id}-{k}" for k in "ABCD"])
            for _ in range(16):
                if pace:
                    time.sleep(rng.uniform(0.5, 1.5) * pace)
                led.record(a_table(rng, None))
            results[table_id] = led._db.execute("SELECT max(seq) FROM outbox").fetchone()[0]
        deadline = time.monotonic() + 300
        while pub.pending() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        pub.stop()


def peak_memory_kib(pid: int) -> tuple[int, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])


def run(n: int, pace_name: str, hand_seconds: float, pg: Postgres, folder: Path) -> None:
    folder.mkdir(parents=True)
    tables = [f"t{i:03d}" for i in range(1, n + 1)]
    broker = Broker(folder / "mosquitto", tables)
    broker.start()
    db_url = pg.new_database(f"club_load_{pace_name}")
    service = Service(folder, broker, db_url)
    service.start()
    import psycopg

    try:
        results: dict = {}
        pace = hand_seconds if pace_name == "realistic" else None
        if pace_name == "backlog":
            service.stop()
        t0 = time.monotonic()
        threads = [threading.Thread(target=play_table, args=(folder, t, broker.url, pace, results)) for t in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        played = time.monotonic() - t0
        expected = sum(results.values())
        if pace_name == "backlog":
            service.start()
        with psycopg.connect(db_url) as db:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                (stored,) = db.execute("SELECT count(*) FROM events").fetchone()
                if stored >= expected:
                    break
                time.sleep(0.2)
            (span, max_delay, p50, p99) = db.execute(
                """SELECT extract(epoch FROM max(received) - min(received)),
                          extract(epoch FROM max(received - ts)),
                          extract(epoch FROM percentile_cont(0.5) WITHIN GROUP (ORDER BY received - ts)),
                          extract(epoch FROM percentile_cont(0.99) WITHIN GROUP (ORDER BY received - ts))
                   FROM events""").fetchone()
            rows = {name: db.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
                    for name in ("events", "matches", "hands", "penalties", "club_tables")}
            (size,) = db.execute("SELECT pg_database_size(current_database())").fetchone()
            (events_size,) = db.execute("SELECT pg_total_relation_size('events')").fetchone()
        hwm, rss = peak_memory_kib(service.proc.pid)
        print(f"\n== {n} tables x 16 hands, pace {pace_name}"
              + (f" (a hand every ~{hand_seconds:g} s per table)" if pace else ""))
        print(f"tables finished recording in     {played:8.1f} s")
        print(f"events stored                    {stored:8d} of {expected}")
        print(f"stored per second                {stored / max(float(span), 1e-9):8.1f}  (over {float(span):.1f} s)")
        print(f"delay ledger -> database  median {float(p50) * 1000:8.0f} ms   p99 {float(p99) * 1000:.0f} ms"
              f"   slowest {float(max_delay) * 1000:.0f} ms (+ <= 250 ms to the board's SSE)")
        print("PostgreSQL rows                  " + ", ".join(f"{k} {v}" for k, v in rows.items()))
        print(f"PostgreSQL size                  {size / 2**20:8.1f} MiB database, events {events_size / 2**20:.1f} MiB")
        print(f"service memory                   {hwm / 1024:8.1f} MiB peak, {rss / 1024:.1f} MiB now")
        print(f"refused events in the log       {service.logs().count('refused')} refused")
    finally:
        service.stop()
        broker.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--pace", choices=("fast", "realistic", "backlog", "all"), default="all")
    ap.add_argument("--hand-seconds", type=float, default=3.0)
    args = ap.parse_args()
    pg = Postgres()
    try:
        with tempfile.TemporaryDirectory(prefix="club-load-") as tmp:
            for pace in (("fast", "realistic", "backlog") if args.pace == "all" else (args.pace,)):
                run(args.tables, pace, args.hand_seconds, pg, Path(tmp) / pace)
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
