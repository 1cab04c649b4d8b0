"""The words players read on the display, named by key; each language's text comes from the catalogs.

The screens name a text by key (``strings("play.hand", number=3)``,
``f"wind.{code}"``), so each is marked ``msg(key, english)``: the key is the
msgctxt, the English the msgid (tablemate/locale, docs/translations.md). The
display keys are a register of their own: a 128x64 panel has lines of about
20 characters, so the key tells a translator to keep it short. Fan and
item names are translated by i18n_score.fan_label (msgctxt ``mcr.fan``,
``classical.name``, ``classical.limit``).
"""
from __future__ import annotations

import string

from ..locale import LANGUAGES, Keyed, gettext, msg

# LANGUAGES: the codes the config file accepts (``language = "en"``), those with a catalog.
__all__ = ["LANGUAGES", "WIND_CHARS", "WIND_CODES", "Strings", "placeholders", "side_name", "wind_name"]

WIND_CODES = ("E", "S", "W", "N")

#: The wind characters as printed on the tiles.
WIND_CHARS = {"E": "東", "S": "南", "W": "西", "N": "北"}


def wind_name(code: str, lang: str) -> str:
    """A wind (E, S, W, N) by name in ``lang``: the page and the score sheet of the CLI."""
    return {"E": gettext(lang, "East"), "S": gettext(lang, "South"), "W": gettext(lang, "West"),
            "N": gettext(lang, "North")}[code]


def side_name(side: str, lang: str) -> str:
    """A seat's side (bottom, right, top, left) in ``lang``: the page and the score sheet of the CLI."""
    return {"bottom": gettext(lang, "bottom"), "right": gettext(lang, "right"), "top": gettext(lang, "top"),
            "left": gettext(lang, "left")}[side]

_TEXTS = Keyed([
    msg("wind.E", "East"),
    msg("wind.S", "South"),
    msg("wind.W", "West"),
    msg("wind.N", "North"),
    msg("prevailing.E", "East wind"),
    msg("prevailing.S", "South wind"),
    msg("prevailing.W", "West wind"),
    msg("prevailing.N", "North wind"),
    msg("play.hand", "Hand {number}"),
    msg("play.hand_of", "Hand {number}/{total}"),
    msg("play.dealer", "Dealer"),
    msg("play.turn", "Turn"),
    msg("score.title", "Mahjong {winner}"),
    msg("score.total", "Total"),
    msg("score.fans", "{total} fan"),
    msg("score.points", "{total} pts"),
    msg("score.invalid", "Below minimum"),
    msg("score.confirm", "NEXT: confirm"),
    msg("settlement.title", "Settlement"),
    msg("settlement.drawn", "Drawn hand"),
    msg("seats.title", "Seat change"),
    msg("trouble.camera_lost", "Camera lost"),
    msg("trouble.camera_lost.hint", "Check the camera cable"),
    msg("trouble.hand_not_recognised", "Hand not recognised"),
    msg("trouble.hand_not_recognised.hint", "Lay tiles flat, MAHJONG"),
    msg("trouble.cannot_score", "Hand cannot be scored"),
    msg("trouble.cannot_score.hint", "Check tiles, MAHJONG"),
    msg("trouble.reason.not_winning", "Not a winning hand"),
    msg("trouble.reason.below_minimum", "Too few fans to win"),
    msg("phone.title", "Phone"),
    msg("phone.pin", "PIN"),
])


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a template, so tests can compare languages."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Strings:
    """Looks up player-facing text in one language.

    A missing key is a programming error and raises ``KeyError`` in tests
    rather than showing a raw key to players.
    """

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(
                f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}"
            )
        self.language = language
        self._table = _TEXTS.table(language)

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
