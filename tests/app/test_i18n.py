from __future__ import annotations

import pytest

from tablemate.app.i18n import LANGUAGES, WIND_CHARS, Strings, placeholders


def test_every_language_has_every_key_with_the_same_fields():
    english = Strings("en")
    for language in LANGUAGES:
        other = Strings(language)
        assert other.keys() == english.keys(), language
        for key in english.keys():
            assert placeholders(other._table[key]) == placeholders(english._table[key]), (language, key)


def test_translations_differ_where_players_read_them():
    en, de = Strings("en"), Strings("de")
    assert en.prevailing("S") == "South wind" and de.prevailing("S") == "Südwind"
    assert de("play.hand_of", number=5, total=16) == "Spiel 5/16"
    assert en.wind("N") == "North" and de.wind("E") == "Ost"
    same = {k for k in en.keys() if en._table[k] == de._table[k]}
    assert same <= {"wind.W", "score.title", "phone.pin"}


def test_wind_characters():
    assert "".join(WIND_CHARS[w] for w in "ESWN") == "東南西北"


def test_unknown_language_and_wind():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        Strings("fr")
    with pytest.raises(ValueError, match="unknown wind 'X'"):
        Strings("en").wind("X")
