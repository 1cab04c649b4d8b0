"""The classical (Hua Bao) and beginner scoring in the player's language: item names and explanation lines.

The engine keeps English in the JSON (docs/formats.md) and hands out phrases
(tablemate/rules/phrase.py) whose English templates live in
``rules/classical/wording.py``; German players should read German at the
table, so each template is also in the catalogs with msgctxt
``classical.KEY`` (read from the source by tablemate/locale/extract.py, as the
rules import nothing of tablemate), and each item name the engine gives with
msgctxt ``classical.name``. The shared context keeps a name such as "Pair"
from being translated where it is no classical item. The §5 limit hands'
names are in the catalogs by their English (msgctxt ``classical.limit``,
read from rules/classical/limit_hands.py), so the rules keep no German
translation of them. The terms are the ones
German clubs use (docs/rules-classical.md: verdeckt/offen, Farbenspiel,
Blumenstrauß, Trumpfziegel, the §5 names); Pung, Kong and Chow stay.
"""
from __future__ import annotations

from functools import lru_cache

from ..locale import Keyed, known, msg, pgettext
from ..locale.extract import CLASSICAL_LIMIT, CONTEXT
from ..rules.classical import SWITCHABLE
from ..rules.classical.wording import EN, english
from ..rules.phrase import Phrase, Template, render
from ..rules.score import Score

_WORDING = Keyed((CONTEXT + key, template) for key, template in EN.items())

#: Every name the engine gives an item, a chow, a pair or a doubling, by its English wording.
_NAMES = [
    # §3.2 sets; the columns of the table are 2–8, 1/9, winds, dragons.
    msg("classical.name", "Exposed pung of simples"),
    msg("classical.name", "Exposed pung of terminals"),
    msg("classical.name", "Exposed pung of winds"),
    msg("classical.name", "Exposed pung of dragons"),
    msg("classical.name", "Concealed pung of simples"),
    msg("classical.name", "Concealed pung of terminals"),
    msg("classical.name", "Concealed pung of winds"),
    msg("classical.name", "Concealed pung of dragons"),
    msg("classical.name", "Exposed kong of simples"),
    msg("classical.name", "Exposed kong of terminals"),
    msg("classical.name", "Exposed kong of winds"),
    msg("classical.name", "Exposed kong of dragons"),
    msg("classical.name", "Concealed kong of simples"),
    msg("classical.name", "Concealed kong of terminals"),
    msg("classical.name", "Concealed kong of winds"),
    msg("classical.name", "Concealed kong of dragons"),
    msg("classical.name", "Exposed chow"),
    msg("classical.name", "Concealed chow"),
    msg("classical.name", "Pair"),
    msg("classical.name", "Pair of dragons"),
    msg("classical.name", "Pair of own wind"),
    msg("classical.name", "Pair of prevailing wind"),
    msg("classical.name", "Pair of own and prevailing wind"),
    msg("classical.name", "Concealed pair of dragons"),
    msg("classical.name", "Exposed pair of dragons"),
    # Why a set doubles (D1-D3).
    msg("classical.name", "dragons"),
    msg("classical.name", "own wind"),
    msg("classical.name", "prevailing wind"),
    # §3.3, §3.4.
    msg("classical.name", "Flowers and seasons"),
    msg("classical.name", "Mah-Jongg"),
    msg("classical.name", "Robbing the kong"),
    msg("classical.name", "Full flush"),
    msg("classical.name", "Half flush"),
    msg("classical.name", "Own flower"),
    msg("classical.name", "Own season"),
    msg("classical.name", "Bouquet of flowers"),
    msg("classical.name", "Bouquet of seasons"),
    msg("classical.name", "Own flower and own season"),
    msg("classical.name", "All flowers"),
    msg("classical.name", "All seasons"),
    # §3.5 limits.
    msg("classical.name", "Heavenly Blessing (Segen des Himmels)"),
    msg("classical.name", "Earthly Blessing (Segen der Erde)"),
    msg("classical.name", "All Honours"),
]
NAMES: frozenset[str] = frozenset(name for _context, name in _NAMES)

#: §5 limit hands by the title the engine names them with ("English (S002's name)"), to their English name.
_LIMIT_HANDS = {h.title: h.name for h in SWITCHABLE.values()}


@lru_cache(maxsize=None)
def templates(lang: str) -> dict[str, Template]:
    """Every explanation template in ``lang``, by the phrase keys of rules/classical/wording.py."""
    table = _WORDING.table(lang)
    return {key: table[CONTEXT + key] for key in EN}


def label(name: str, lang: str) -> str:
    """A classical item's name as players of ``lang`` say it; unknown names stay as they are."""
    lang = known(lang)
    if name in NAMES:
        return pgettext(lang, "classical.name", name)
    if name in _LIMIT_HANDS and lang != "en":  # English keeps the title, as the JSON prints it
        return pgettext(lang, CLASSICAL_LIMIT, _LIMIT_HANDS[name])
    return name


def explain(result: Score, lang: str) -> list[str]:
    """The explanation lines in ``lang``; English is exactly the JSON's."""
    if known(lang) == "en" or not result.phrases:
        return list(result.explanation)
    return [say(p, lang) for p in result.phrases]


def say(phrase: Phrase, lang: str) -> str:
    """One phrase in ``lang`` (English for a language without a catalog)."""
    lang = known(lang)
    if lang == "en":
        return english(phrase)
    return render(phrase, templates(lang), lambda name: label(name, lang))


def __getattr__(name: str):
    """``DE`` and ``NAMES_DE``: the German tables as dicts, for tests and tools (read from the catalog)."""
    if name == "DE":
        return templates("de")
    if name == "NAMES_DE":
        return {english_name: label(english_name, "de") for english_name in (*NAMES, *_LIMIT_HANDS)}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
