"""Small helpers shared by the table's publisher and the club service: broker URLs, clients, connection problems.

paho retries a failed connection by itself and tells only *that* it failed,
not why; a wrong CA file or a broker without TLS would then look like a
broker that is merely away. ``connect_problem`` repeats the attempt's TCP
connect and TLS handshake with the same settings to say why, and
``make_client`` logs that once per distinct reason and keeps it on
``client.problem`` for the command line, which says it in English or German.
"""
from __future__ import annotations

import logging
import os
import socket
import ssl
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BrokerURL:
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class Problem:
    """Why the broker cannot be used: a text of ``club.i18n`` (``key``) and its fields."""

    key: str
    fields: dict = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        from .i18n import t

        return t(self.key, lang, **self.fields)

    def __str__(self) -> str:
        return self.text("en")


class BrokerError(ValueError):
    """A broker setting that cannot work (its ``problem`` says why, in either language)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def parse_broker(url: str) -> BrokerURL:
    """mqtt://[user:pass@]host[:port] or mqtts://...; ValueError with a readable message otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ValueError(f"a broker is mqtt://HOST:PORT or mqtts://HOST:PORT, not {url!r}")
    tls = parts.scheme == "mqtts"
    try:
        port = parts.port or (8883 if tls else 1883)
    except ValueError:
        raise ValueError(f"the port in {url!r} is not a number") from None
    return BrokerURL(parts.hostname, port, tls,
                     unquote(parts.username) if parts.username else None,
                     unquote(parts.password) if parts.password else None)


def _tls_context(tls_ca: str | None) -> ssl.SSLContext:
    """The context paho's ``tls_set(ca_certs=tls_ca, cert_reqs=CERT_REQUIRED)`` makes: verify chain and host name."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    if tls_ca:
        context.load_verify_locations(tls_ca)
    else:
        context.load_default_certs()
    return context


def check_tls_ca(tls_ca: str | None) -> None:
    """BrokerError unless ``tls_ca`` (when given) is a readable CA certificate file."""
    if not tls_ca:
        return
    if not os.path.isfile(tls_ca):
        raise BrokerError(Problem("tls_ca_missing", {"path": tls_ca}))
    try:
        _tls_context(tls_ca)
    except (OSError, ssl.SSLError) as err:
        raise BrokerError(Problem("tls_ca_bad", {"path": tls_ca, "why": getattr(err, "reason", None) or err})) from None


def connect_problem(broker: BrokerURL, tls_ca: str | None = None, timeout: float = 5.0) -> Problem | None:
    """Why connecting to ``broker`` fails below MQTT (unreachable, TLS refused); None if TCP and TLS work."""
    where = {"host": broker.host, "port": broker.port}
    try:
        sock = socket.create_connection((broker.host, broker.port), timeout=timeout)
    except OSError as err:
        return Problem("unreachable", {**where, "why": err.strerror or err})
    with sock:
        if not broker.tls:
            return None
        try:
            context = _tls_context(tls_ca)
            with context.wrap_socket(sock, server_hostname=broker.host):
                return None
        except ssl.SSLCertVerificationError as err:
            why = err.verify_message or str(err)
            if tls_ca:
                return Problem("tls_untrusted", {**where, "path": tls_ca, "why": why})
            return Problem("tls_untrusted_system", {**where, "why": why})
        except ssl.SSLError as err:
            return Problem("tls_failed", {**where, "why": err.reason or err})
        except OSError as err:
            return Problem("tls_failed", {**where, "why": err.strerror or err})


def make_client(client_id: str, broker: BrokerURL, *, username: str | None = None, password: str | None = None,
                tls_ca: str | None = None, clean_session: bool = True, manual_ack: bool = False):
    """A paho-mqtt 2 client for MQTT 3.1.1 with credentials and optional TLS set up.

    ``client.problem`` is None while connections work, else the latest
    reason they fail (see the module docstring); BrokerError for a CA file
    that cannot be read.
    """
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session,
                         protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    user = username or broker.username
    if user:
        client.username_pw_set(user, password if password is not None else broker.password)
    if broker.tls:
        check_tls_ca(tls_ca)
        client.tls_set(ca_certs=tls_ca, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(min_delay=1, max_delay=10)
    client.problem = None

    def failed(client, userdata) -> None:
        problem = connect_problem(broker, tls_ca) or Problem("no_mqtt", {"host": broker.host, "port": broker.port})
        if problem != client.problem:
            log.warning("club broker: %s", problem)
        client.problem = problem

    client.on_connect_fail = failed
    return client


def refused(client, broker: BrokerURL, reason_code) -> None:
    """Record the broker's CONNACK refusal (bad user or password, not authorised) on ``client.problem``."""
    problem = Problem("refused", {"host": broker.host, "port": broker.port, "why": str(reason_code)})
    if problem != client.problem:
        log.warning("club broker: %s", problem)
    client.problem = problem
