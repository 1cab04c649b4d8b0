"""TLS (optional): a real Mosquitto TLS listener with a certificate for localhost from a CA made in the test.

A table publishes over mqtts:// and the service subscribes over TLS; the
standings then equal the table's own ledger. A table or service given the
wrong CA gets no connection and says why, in English and in German.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from tablemate.club.mqtt import make_client, parse_broker
from tablemate.club.store import Store

from .conftest import CLUB, Broker, Service, make_ca, table_password
from .tables import SimTable, ledger_standings, wait_until


@pytest.fixture
def tls_broker(tmp_path):
    from .conftest import _mosquitto

    if _mosquitto() is None:
        pytest.skip("mosquitto is not installed (Debian package mosquitto)")
    b = Broker(tmp_path / "mosquitto", ["t01", "t02"], tls=True)
    b.start()
    yield b
    b.stop()


def stored(db_url):
    store = Store(db_url)
    try:
        return dict(store.db.execute("SELECT table_id, last_seq FROM club_tables").fetchall()), store.board(CLUB)
    finally:
        store.close()


def club(*argv, lang="en"):
    r = subprocess.run([sys.executable, "-m", "tablemate.cli.main", "club", *argv, "--lang", lang],
                       capture_output=True, text=True, timeout=60, env={**os.environ, "TABLEMATE_LOG": "WARNING"})
    return r.returncode, r.stderr


def test_a_table_publishes_over_tls_and_the_service_reads_over_tls(tmp_path, tls_broker, db_url):
    service = Service(tmp_path, tls_broker, db_url, mqtt=tls_broker.tls_url, tls_ca=tls_broker.ca)
    service.start()  # waits until it subscribed: over TLS, or not at all
    try:
        table = SimTable(tmp_path / "t01", "t01", tls_broker.tls_url, tls_ca=tls_broker.ca)
        table.new_match(["Anna", "Ben", "Chen", "Dora"])
        table.play(6)
        table.publish(timeout=20)
        assert table.unsent() == 0
        wait_until(lambda: stored(db_url)[0].get("t01") == table.last_seq(), what="every event stored")
        assert stored(db_url)[1]["overall"] == ledger_standings([table])
        assert "refused" not in service.logs()
    finally:
        service.stop()
    # The TLS port is TLS only: a plain MQTT client gets no session there.
    plain = make_client("plain", parse_broker(f"mqtt://127.0.0.1:{tls_broker.tls_port}"),
                        username="t01", password=table_password("t01"))
    connected = threading.Event()
    plain.on_connect = lambda *a: connected.set()
    plain.connect_async("127.0.0.1", tls_broker.tls_port)
    plain.loop_start()
    try:
        assert not connected.wait(3)
    finally:
        plain.disconnect()
        plain.loop_stop()


def test_a_wrong_ca_is_refused_with_a_clear_message(tmp_path, tls_broker, db_url):
    other_ca = make_ca(tmp_path / "other", "some-other-ca")[0]
    table = SimTable(tmp_path / "t01", "t01", tls_broker.tls_url, tls_ca=other_ca)
    table.new_match(["Anna", "Ben", "Chen", "Dora"])
    code, err = club("publish", "--config", str(table.config), "--once", "--timeout", "4")
    assert code == 1
    assert (f"the club broker is not reachable: the broker at localhost:{tls_broker.tls_port} shows a TLS "
            f"certificate that the CA in {other_ca} does not vouch for (" in err), err
    assert "1 events are not acknowledged by the broker yet" in err and "Traceback" not in err
    code, err = club("publish", "--config", str(table.config), "--once", "--timeout", "4", lang="de")
    assert code == 1
    assert (f"der Club-Broker ist nicht erreichbar: der Broker unter localhost:{tls_broker.tls_port} zeigt ein "
            f"TLS-Zertifikat, für das die CA in {other_ca} nicht bürgt (" in err), err
    assert table.unsent() == 1  # the match start waits in the outbox

    # mqtts:// to a listener without TLS, and a CA file that is not there: each says what it is.
    plain = _config(table, broker=f"mqtts://localhost:{tls_broker.port}", ca=tls_broker.ca)
    code, err = club("publish", "--config", str(plain), "--once", "--timeout", "4")
    assert code == 1 and (f"TLS with the broker at localhost:{tls_broker.port} failed (" in err
                          and "mqtts:// needs a TLS listener there" in err), err
    code, err = club("publish", "--config", str(plain), "--once", "--timeout", "4", lang="de")
    assert code == 1 and f"TLS mit dem Broker unter localhost:{tls_broker.port} ist gescheitert (" in err, err
    missing = tmp_path / "none.crt"
    code, err = club("publish", "--config", str(_config(table, ca=missing)), "--once", "--timeout", "2")
    assert code == 1 and f"the CA certificate {missing} (tls_ca) does not exist" in err, err
    code, err = club("publish", "--config", str(_config(table, ca=missing)), "--once", "--timeout", "2", lang="de")
    assert code == 1 and f"das CA-Zertifikat {missing} (tls_ca) gibt es nicht" in err, err
    code, err = club("serve", "--mqtt", tls_broker.tls_url, "--tls-ca", str(missing), "--db", db_url, "--no-board")
    assert code == 1 and f"the CA certificate {missing} (tls_ca) does not exist" in err, err

    # The service with the wrong CA: never subscribes, logs why, stores nothing.
    service = Service(tmp_path, tls_broker, db_url, mqtt=tls_broker.tls_url, tls_ca=other_ca, wait=False)
    service.start()
    try:
        wait_until(lambda: "does not vouch for" in service.logs(), what="the service saying why")
        assert "subscribed" not in service.logs()
    finally:
        service.stop()
    assert stored(db_url)[0] == {}


def _config(table: SimTable, broker: str | None = None, ca=None):
    """A copy of the table's config with another broker URL or CA file."""
    lines = []
    for line in table.config.read_text().splitlines():
        if broker and line.startswith("broker"):
            line = f'broker = "{broker}"'
        if ca and line.startswith("tls_ca"):
            line = f'tls_ca = "{ca}"'
        lines.append(line)
    path = table.config.with_name(f"variant-{len(list(table.config.parent.glob('variant-*')))}.toml")
    path.write_text("\n".join(lines) + "\n")
    return path
