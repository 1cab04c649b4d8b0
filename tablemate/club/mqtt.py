"""Small helpers shared by the table's publisher and the club service: broker URLs and clients."""
from __future__ import annotations

import ssl
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class BrokerURL:
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None


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


def make_client(client_id: str, broker: BrokerURL, *, username: str | None = None, password: str | None = None,
                tls_ca: str | None = None, clean_session: bool = True, manual_ack: bool = False):
    """A paho-mqtt 2 client for MQTT 3.1.1 with credentials and optional TLS set up."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session,
                         protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    user = username or broker.username
    if user:
        client.username_pw_set(user, password if password is not None else broker.password)
    if broker.tls:
        client.tls_set(ca_certs=tls_ca, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(min_delay=1, max_delay=10)
    return client
