"""Words of the score breakdown in English and German (what players read)."""
from __future__ import annotations

from ..rules.mcr.fans import Fan
from ..rules.score import ScoreItem
from .i18n_classical import label as classical_label

_TEXT = {
    "en": {
        "fans": "fans",
        "points": "points",
        "total": "Total",
        "left_out": "Not counted:",
        "false_mahjong": "False mahjong: fewer than 8 fans without flowers.",
        "doublings": "doubling(s)",
    },
    "de": {
        "fans": "Fan",
        "points": "Punkte",
        "total": "Summe",
        "left_out": "Nicht gezählt:",
        "false_mahjong": "Falsches Mahjong: weniger als 8 Fan ohne Blumen.",
        "doublings": "Verdopplung(en)",
    },
}

_MCR_BY_NAME = {f.fan_name: f for f in Fan}


def text(key: str, lang: str) -> str:
    return _TEXT.get(lang, _TEXT["en"])[key]


def explain_line(rules: str, item: ScoreItem, lang: str) -> str:
    """One line per item: name (German name under --lang de), value, count, tiles."""
    name = item.name
    if rules == "mcr" and name in _MCR_BY_NAME:
        fan = _MCR_BY_NAME[name]
        name = f"{fan.de} ({fan.fan_name}, {fan.zh})" if lang == "de" else f"{fan.fan_name} ({fan.zh})"
        value = f"{item.points}" + (f" x{item.count}" if item.count > 1 else "")
    else:
        name = classical_label(name, lang)
        parts = []
        if item.points:
            parts.append(f"{item.points}" + (f" x{item.count}" if item.count > 1 else ""))
        if item.doublings:
            parts.append(f"{item.doublings} {text('doublings', lang)}")
        value = ", ".join(parts) or "0"
    where = f"  [{item.source}]" if item.source else ""
    return f"  {name}: {value}{where}"


_REASONS = {
    "en": {
        "implied": "{fan} not counted: {detail} includes it",
        "account_once": "{fan} not counted again: each chow may combine with another only once",
        "wind": "{fan} not counted: {detail} scores as a wind fan instead",
        "three_winds": "{fan} not counted: the wind pungs already make Big Three Winds",
    },
    "de": {
        "implied": "{fan} nicht gezählt: in {detail} enthalten",
        "account_once": "{fan} nicht noch einmal gezählt: jeder Chow darf nur einmal mit einem anderen kombiniert werden",
        "wind": "{fan} nicht gezählt: {detail} zählt schon als Windfan",
        "three_winds": "{fan} nicht gezählt: die Windpungs bilden schon Drei Windpungs",
    },
}


def fan_label(name: str, lang: str) -> str:
    """An item's name in the player's language, for the display, which knows only the name.

    MCR fan names and classical item names never coincide (a test holds them
    apart), so the name alone says which table to look in.
    """
    fan = _MCR_BY_NAME.get(name)
    if fan is not None:
        return fan.de if lang == "de" else name
    return classical_label(name, lang)


def left_out_line(note: dict, lang: str) -> str:
    """A fan the hand has but does not score, and why, in the player's language."""
    table = _REASONS.get(lang, _REASONS["en"])
    fan = fan_label(note["name"], lang) + (f" x{note['count']}" if note.get("count", 1) > 1 else "")
    detail = note.get("detail", "")
    if note["reason"] == "implied":
        detail = fan_label(detail, lang)
    return table.get(note["reason"], table["implied"]).format(fan=fan, detail=detail)
