"""German for the classical (Hua Bao) and beginner scoring: item names and explanation lines.

The engine keeps English in the JSON (docs/formats.md) and hands out phrases
(tablemate/rules/phrase.py); German players should read German at the table,
so the words live here, where a translator edits one file. The terms are the
ones German clubs use (docs/rules-classical.md: verdeckt/offen, Farbenspiel,
Blumenstrauß, Trumpfziegel, the §5 names); Pung, Kong and Chow stay.
"""
from __future__ import annotations

from ..rules.classical import SWITCHABLE
from ..rules.classical.wording import EN, english
from ..rules.phrase import Phrase, Template, render
from ..rules.score import Score

DE: dict[str, Template] = {
    "points": ("{n} Punkt", "{n} Punkte"),
    "doublings": ("{n} Verdopplung", "{n} Verdopplungen"),
    "group": "{name} {tiles}: {points}{why}{note}",
    "why": ", {doublings} ({reasons})",
    "note.claimed": " (mit dem genommenen Gewinnziegel vervollständigt)",
    "note.undeclared_kong": " (vier {tile}, nicht als Kong angesagt, zählen als verdeckter Pung)",
    "pair.claimed_zero": "{name} {tiles}: {points}, mit dem genommenen Gewinnziegel vervollständigt",
    "flowers": "{name} {tiles}: {count} x {points}",
    "item": "{name}: {value}",
    "item.tiles": "{name} {tiles}: {value}",
    "robbing": "{name} ({tile}): {value}",
    "robbing.beginner": "{name}: am Anfängertisch kein Bonus",
    "flush.full": "{name} (nur {suit}): {value}",
    "flush.half": "{name} (nur {suit} und Trumpfziegel): {value}",
    "suit.m": "Zahlen",
    "suit.p": "Kreise",
    "suit.s": "Bambus",
    "blessings.beginner": "Segen des Himmels und der Erde zählen am Anfängertisch nicht: die Hand zählt ihre Punkte",
    "loose": "Keine wertbare Kombination: {tiles}",
    "loser.beginner": (
        "Nicht gewonnen: Kombinationen, Paare, Blumen und Jahreszeiten zählen mit ihren Verdopplungen; "
        "kein Mah-Jongg-Bonus"
    ),
    "loser.classical": (
        "Nicht gewonnen: Kombinationen, Paare, Blumen und Jahreszeiten zählen mit ihren Verdopplungen; "
        "kein Mah-Jongg-Bonus, kein Farbenspiel, kein Limit-Spiel"
    ),
    "summary": "{base}{rounded}{capped}",
    "summary.plain": "{points}",
    "summary.doubled": "{points} x 2^{doublings} = {raw}",
    "summary.rounded": " (auf 10 aufgerundet)",
    "summary.capped": ", begrenzt auf das Limit von {limit}",
    "limit": "{name}: das Limit, {value}{replaced}{others}",
    "limit.replaces": "; ersetzt {summary}",
    "limit.others": "; außerdem {names} (Limits zählen nie mehrfach)",
    "limit.half": "{name}: das halbe Limit, {value}{replaced}",
    "limit.half_less": "{name}: das halbe Limit ({value}) ist weniger als der Wert der Hand, der zählt",
    "total": "Summe: {summary}",
}

#: Every name the engine gives an item, a chow, a pair or a doubling, by its English wording.
NAMES_DE: dict[str, str] = {
    # §3.2 sets; the columns of the table are 2–8, 1/9, winds, dragons.
    "Exposed pung of simples": "Offener Pung 2–8",
    "Exposed pung of terminals": "Offener Pung 1/9",
    "Exposed pung of winds": "Offener Windpung",
    "Exposed pung of dragons": "Offener Drachenpung",
    "Concealed pung of simples": "Verdeckter Pung 2–8",
    "Concealed pung of terminals": "Verdeckter Pung 1/9",
    "Concealed pung of winds": "Verdeckter Windpung",
    "Concealed pung of dragons": "Verdeckter Drachenpung",
    "Exposed kong of simples": "Offener Kong 2–8",
    "Exposed kong of terminals": "Offener Kong 1/9",
    "Exposed kong of winds": "Offener Windkong",
    "Exposed kong of dragons": "Offener Drachenkong",
    "Concealed kong of simples": "Verdeckter Kong 2–8",
    "Concealed kong of terminals": "Verdeckter Kong 1/9",
    "Concealed kong of winds": "Verdeckter Windkong",
    "Concealed kong of dragons": "Verdeckter Drachenkong",
    "Exposed chow": "Offener Chow",
    "Concealed chow": "Verdeckter Chow",
    "Pair": "Paar",
    "Pair of dragons": "Drachenpaar",
    "Pair of own wind": "Paar des eigenen Windes",
    "Pair of prevailing wind": "Paar des Rundenwindes",
    "Pair of own and prevailing wind": "Paar des eigenen und des Rundenwindes",
    "Concealed pair of dragons": "Verdecktes Drachenpaar",
    "Exposed pair of dragons": "Offenes Drachenpaar",
    # Why a set doubles (D1-D3).
    "dragons": "Drachen",
    "own wind": "eigener Wind",
    "prevailing wind": "Rundenwind",
    # §3.3, §3.4.
    "Flowers and seasons": "Blumen und Jahreszeiten",
    "Mah-Jongg": "Mah-Jongg",
    "Robbing the kong": "Kong rauben",
    "Full flush": "Reines Farbenspiel",
    "Half flush": "Unreines Farbenspiel",
    "Own flower": "Eigene Blume",
    "Own season": "Eigene Jahreszeit",
    "Bouquet of flowers": "Blumenstrauß",
    "Bouquet of seasons": "Jahreszeitenstrauß",
    "Own flower and own season": "Eigene Blume und eigene Jahreszeit",
    "All flowers": "Alle Blumen",
    "All seasons": "Alle Jahreszeiten",
    # §3.5 limits.
    "Heavenly Blessing (Segen des Himmels)": "Segen des Himmels",
    "Earthly Blessing (Segen der Erde)": "Segen der Erde",
    "All Honours": "Nur Trumpfziegel",
    # §5: the engine names them "English (German)"; S002 gives the German.
    **{f"{h.name} ({h.german})": h.german for h in SWITCHABLE.values()},
}

_TEMPLATES = {"en": EN, "de": DE}
_NAMES = {"de": NAMES_DE}


def label(name: str, lang: str) -> str:
    """A classical item's name as players of ``lang`` say it; unknown names stay as they are."""
    return _NAMES.get(lang, {}).get(name, name)


def explain(result: Score, lang: str) -> list[str]:
    """The explanation lines in ``lang``; English is exactly the JSON's."""
    if lang not in _TEMPLATES or lang == "en" or not result.phrases:
        return list(result.explanation)
    return [say(p, lang) for p in result.phrases]


def say(phrase: Phrase, lang: str) -> str:
    """One phrase in ``lang`` (English for a language without a table)."""
    if lang not in _TEMPLATES or lang == "en":
        return english(phrase)
    return render(phrase, _TEMPLATES[lang], lambda name: label(name, lang))
