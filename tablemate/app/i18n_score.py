"""Words of the score breakdown (what players read on the command line and the page), from the catalogs.

The callers name these words by key (``text("total", lang)``), so each is
``msg("breakdown.KEY", english)``; the "breakdown." context keeps them apart
from the display's shorter words. An MCR fan's English and official
Chinese names are the rules engine's (``Fan.fan_name``, ``Fan.zh``: data the
JSON prints); its name in the player's language is in the catalogs (msgctxt
``mcr.fan``, msgid the English), so display, command line and page read one
set of translations. Classical names come from i18n_classical. A language
without a catalog reads English.
"""
from __future__ import annotations

from ..locale import Keyed, known, msg, pgettext
from ..locale.extract import MCR_FAN
from ..rules.mcr.fans import Fan
from ..rules.score import ScoreItem
from .i18n_classical import label as classical_label

_TEXT = Keyed([
    msg("breakdown.fans", "fans"),
    msg("breakdown.points", "points"),
    msg("breakdown.total", "Total"),
    msg("breakdown.left_out", "Not counted:"),
    msg("breakdown.false_mahjong", "False mahjong: fewer than 8 fans without flowers."),
    msg("breakdown.doublings", "doubling(s)"),
])

_MCR_BY_NAME = {f.fan_name: f for f in Fan}


def text(key: str, lang: str) -> str:
    return _TEXT(known(lang), f"breakdown.{key}")


def explain_line(rules: str, item: ScoreItem, lang: str) -> str:
    """One line per item: name (German name under --lang de), value, count, tiles."""
    name = item.name
    if rules == "mcr" and name in _MCR_BY_NAME:
        fan = _MCR_BY_NAME[name]
        name = (f"{fan.fan_name} ({fan.zh})" if known(lang) == "en" else
                f"{pgettext(known(lang), MCR_FAN, fan.fan_name)} ({fan.fan_name}, {fan.zh})")
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


#: Why a fan the hand has is left out, by the engine's reason (``note["reason"]``).
_REASONS = Keyed([
    msg("breakdown.left_out.implied", "{fan} not counted: {detail} includes it"),
    msg("breakdown.left_out.account_once", "{fan} not counted again: each chow may combine with another only once"),
    msg("breakdown.left_out.wind", "{fan} not counted: {detail} scores as a wind fan instead"),
    msg("breakdown.left_out.three_winds", "{fan} not counted: the wind pungs already make Big Three Winds"),
])


def fan_label(name: str, lang: str) -> str:
    """An item's name in the player's language, for the display, which knows only the name.

    MCR fan names and classical item names never coincide (a test holds them
    apart), so the name alone says which table to look in.
    """
    if name in _MCR_BY_NAME:
        return pgettext(known(lang), MCR_FAN, name)
    return classical_label(name, lang)


def left_out_line(note: dict, lang: str) -> str:
    """A fan the hand has but does not score, and why, in the player's language."""
    fan = fan_label(note["name"], lang) + (f" x{note['count']}" if note.get("count", 1) > 1 else "")
    detail = note.get("detail", "")
    if note["reason"] == "implied":
        detail = fan_label(detail, lang)
    key = f"breakdown.left_out.{note['reason']}"
    return _REASONS(known(lang), key if key in _REASONS.english else "breakdown.left_out.implied",
                    fan=fan, detail=detail)
