"""The words players read on the display, in English and German.

Kept as plain dictionaries so a translator edits one file and a test can check
that every language has every key with the same placeholders. Fan names come
from the rules engine in their official English form and are not translated
here.
"""
from __future__ import annotations

import string

#: Language codes accepted in the config file (``language = "en"``).
LANGUAGES = ("en", "de")

WIND_CODES = ("E", "S", "W", "N")

#: The wind characters as printed on the tiles.
WIND_CHARS = {"E": "東", "S": "南", "W": "西", "N": "北"}

_STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "wind.E": "East",
        "wind.S": "South",
        "wind.W": "West",
        "wind.N": "North",
        "prevailing.E": "East wind",
        "prevailing.S": "South wind",
        "prevailing.W": "West wind",
        "prevailing.N": "North wind",
        "play.hand": "Hand {number}",
        "play.hand_of": "Hand {number}/{total}",
        "play.dealer": "Dealer",
        "play.turn": "Turn",
        "score.title": "Mahjong {winner}",
        "score.total": "Total",
        "score.fans": "{total} fan",
        "score.points": "{total} pts",
        "score.invalid": "Below minimum",
        "score.confirm": "NEXT: confirm",
        "settlement.title": "Settlement",
        "settlement.drawn": "Drawn hand",
        "seats.title": "Seat change",
        "trouble.camera_lost": "Camera lost",
        "trouble.camera_lost.hint": "Check the camera cable",
        "trouble.hand_not_recognised": "Hand not recognised",
        "trouble.hand_not_recognised.hint": "Lay tiles flat, press MAHJONG",
        "trouble.cannot_score": "Hand cannot be scored",
        "trouble.cannot_score.hint": "Check the tiles, press MAHJONG",
    },
    "de": {
        "wind.E": "Ost",
        "wind.S": "Süd",
        "wind.W": "West",
        "wind.N": "Nord",
        "prevailing.E": "Ostwind",
        "prevailing.S": "Südwind",
        "prevailing.W": "Westwind",
        "prevailing.N": "Nordwind",
        "play.hand": "Spiel {number}",
        "play.hand_of": "Spiel {number}/{total}",
        "play.dealer": "Geber",
        "play.turn": "Am Zug",
        "score.title": "Mahjong {winner}",
        "score.total": "Summe",
        "score.fans": "{total} Fan",
        "score.points": "{total} Pkt.",
        "score.invalid": "Unter Minimum",
        "score.confirm": "NEXT: bestätigen",
        "settlement.title": "Abrechnung",
        "settlement.drawn": "Remis",
        "seats.title": "Platzwechsel",
        "trouble.camera_lost": "Kamera ausgefallen",
        "trouble.camera_lost.hint": "Kamerakabel prüfen",
        "trouble.hand_not_recognised": "Hand nicht erkannt",
        "trouble.hand_not_recognised.hint": "Steine flach legen, MAHJONG drücken",
        "trouble.cannot_score": "Hand nicht wertbar",
        "trouble.cannot_score.hint": "Steine prüfen, MAHJONG drücken",
    },
}


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a template, so tests can compare languages."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Strings:
    """Looks up player-facing text in one language.

    A missing key is a programming error and raises ``KeyError`` in tests
    rather than showing a raw key to players.
    """

    def __init__(self, language: str = "en") -> None:
        if language not in _STRINGS:
            raise ValueError(
                f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}"
            )
        self.language = language
        self._table = _STRINGS[language]

    def __call__(self, key: str, **fields: object) -> str:
        return self._table[key].format(**fields)

    def keys(self) -> set[str]:
        return set(self._table)

    def wind(self, code: str) -> str:
        """Short wind name for a seat ("East", "Ost")."""
        return self(f"wind.{_wind(code)}")

    def prevailing(self, code: str) -> str:
        """The prevailing wind as players say it ("East wind", "Ostwind")."""
        return self(f"prevailing.{_wind(code)}")


def _wind(code: str) -> str:
    if code not in WIND_CODES:
        raise ValueError(f"unknown wind {code!r}: expected one of {', '.join(WIND_CODES)}")
    return code
