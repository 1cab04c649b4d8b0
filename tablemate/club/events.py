"""The club event envelope: what a table publishes and what the service accepts.

One JSON object per MQTT message on ``tablemate/<club>/<table>/events``
(docs/club.md "Payloads"). ``validate`` is the service's gate: anything it
refuses is logged and never stored, so a forged or malformed event cannot
reach the standings. It checks shape and types only; whether ``seq`` follows
the table's last one is the store's job, because only the store knows it.
"""
from __future__ import annotations

import json
import re
import uuid
from datetime import datetime
from typing import Any

SCHEMA = 1
TOPIC_ROOT = "tablemate"
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_PAYLOAD = 64 * 1024

#: Body keys each event type must carry, with their JSON types.
_INT = (int,)
BODY_KEYS: dict[str, dict[str, tuple[type, ...]]] = {
    "match_started": {"match_id": _INT, "rules": (str,), "players": (list,), "options": (dict,)},
    "hand_recorded": {"match_id": _INT, "match_seq": _INT, "hand_number": _INT, "nets": (list,),
                      "standings": (list,), "drawn": (bool,)},
    "penalty": {"match_id": _INT, "match_seq": _INT, "player": _INT, "kind": (str,), "nets": (list,),
                "standings": (list,)},
    "undo": {"match_id": _INT, "match_seq": _INT, "hand_number": _INT, "finished": (bool,),
             "standings": (list,)},
    "match_finished": {"match_id": _INT, "hands_played": _INT, "standings": (list,)},
}
EVENT_TYPES = tuple(BODY_KEYS)


class EventError(ValueError):
    """An event the service refuses; the message says why (logged, never shown as a traceback)."""


def topic(club: str, table: str, leaf: str) -> str:
    """``tablemate/<club>/<table>/<leaf>``; leaf is events, available, seating or control."""
    return f"{TOPIC_ROOT}/{club}/{table}/{leaf}"


def split_topic(name: str) -> tuple[str, str, str]:
    """(club, table, leaf) of a tablemate topic, or EventError."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != TOPIC_ROOT or not ID_RE.fullmatch(parts[1]) or not ID_RE.fullmatch(parts[2]):
        raise EventError(f"not a tablemate table topic: {name!r}")
    return parts[1], parts[2], parts[3]


def envelope(club: str, table: str, seq: int, event_id: str, ts: str, type_: str, body: dict) -> dict:
    """The message a table publishes for one outbox row."""
    return {"schema": SCHEMA, "event_id": event_id, "club": club, "table_id": table, "seq": seq,
            "ts": ts, "type": type_, "body": body}


def _four_ints(value: Any, name: str, zero_sum: bool = True) -> None:
    if not (isinstance(value, list) and len(value) == 4
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise EventError(f"body.{name} must be four integers")
    if zero_sum and sum(value) != 0:
        raise EventError(f"body.{name} must add up to zero, got {value}")


def validate(topic_name: str, payload: bytes, club: str) -> dict:
    """Parse and check one message from ``topic_name``; return the event or raise EventError.

    The topic's table id must equal the payload's: the broker's ACL ties a
    table's credentials to its topic, so this is what stops one table's
    credentials from writing another table's results.
    """
    t_club, t_table, leaf = split_topic(topic_name)
    if leaf != "events":
        raise EventError(f"not an events topic: {topic_name!r}")
    if t_club != club:
        raise EventError(f"topic of club {t_club!r}, this service serves {club!r}")
    if len(payload) > MAX_PAYLOAD:
        raise EventError(f"payload of {len(payload)} bytes, the limit is {MAX_PAYLOAD}")
    try:
        event = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise EventError(f"payload is not JSON ({err})") from None
    if not isinstance(event, dict):
        raise EventError("payload is not a JSON object")
    if event.get("schema") != SCHEMA:
        raise EventError(f"unknown schema {event.get('schema')!r} (this service reads {SCHEMA})")
    missing = [k for k in ("event_id", "club", "table_id", "seq", "ts", "type", "body") if k not in event]
    if missing:
        raise EventError(f"missing {', '.join(missing)}")
    extra = set(event) - {"schema", "event_id", "club", "table_id", "seq", "ts", "type", "body"}
    if extra:
        raise EventError(f"unknown keys {', '.join(sorted(extra))}")
    if event["club"] != t_club or event["table_id"] != t_table:
        raise EventError(
            f"payload says club {event['club']!r} table {event['table_id']!r} "
            f"but was published under table {t_table!r} of club {t_club!r}")
    seq = event["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise EventError(f"seq must be a positive integer, got {seq!r}")
    try:
        uuid.UUID(str(event["event_id"]))
    except ValueError:
        raise EventError(f"event_id is not a UUID: {event['event_id']!r}") from None
    try:
        ts = datetime.fromisoformat(str(event["ts"]))
    except ValueError:
        raise EventError(f"ts is not an ISO 8601 time: {event['ts']!r}") from None
    if ts.tzinfo is None:
        raise EventError("ts has no time zone")
    type_ = event["type"]
    if type_ not in BODY_KEYS:
        raise EventError(f"unknown type {type_!r}")
    body = event["body"]
    if not isinstance(body, dict):
        raise EventError("body is not an object")
    for key, types in BODY_KEYS[type_].items():
        if key not in body:
            raise EventError(f"{type_} without body.{key}")
        value = body[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise EventError(f"body.{key} has the wrong type ({value!r})")
    if "nets" in body:
        _four_ints(body["nets"], "nets")
    if "standings" in body:
        _four_ints(body["standings"], "standings")
    if type_ == "match_started":
        players = body["players"]
        if (len(players) != 4 or not all(isinstance(p, str) and p.strip() and len(p) <= 40 for p in players)
                or len({p.casefold() for p in players}) != 4):
            raise EventError("body.players must be four different names")
    if type_ == "penalty" and not 0 <= body["player"] <= 3:
        raise EventError("body.player must be 0-3")
    for key in ("match_id", "match_seq", "hand_number", "hands_played"):
        if key in body and body[key] < 0:
            raise EventError(f"body.{key} is negative")
    return event
