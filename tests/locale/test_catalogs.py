"""The gettext catalogs are complete, consistent and what the appliance really loads (docs/translations.md).

Why these checks: a ``.mo`` compiled from an older ``.po`` ships German
nobody reviewed (or none at all); a German text that is missing, fuzzy or
loses a ``{field}`` shows English or raises on the display. Babel reads the
files here because it is the tool that writes them.
"""
from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tablemate.locale import DOMAIN, LANGUAGES, Keyed, install_jinja2, msg, nmsg, translations

LOCALE = Path(__file__).resolve().parents[2] / "tablemate" / "locale"


def _po(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _mo(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as f:
        return read_mo(f)


def _entries(catalog) -> list:
    return [m for m in catalog if m.id]


def _text(value):
    return value.decode() if isinstance(value, bytes) else tuple(value) if isinstance(value, (list, tuple)) else value


def _compiled(catalog) -> dict:
    """What a .mo holds (or what ``pybabel compile`` makes of a .po): {(context, msgid): msgstr}.

    Compile keeps translated entries that are not fuzzy, and writes an
    untranslated plural with its English forms.
    """
    out = {}
    for m in _entries(catalog):
        string = _text(m.string)
        strings = string if isinstance(string, tuple) else (string,)
        if isinstance(string, tuple) and not any(strings):
            string = _text(m.id)
        elif not all(strings) or m.fuzzy:
            continue
        out[(_text(m.context), _text(m.id))] = string
    return out


def _fields(text: str) -> set:
    """The ``{name}`` fields of str.format and the ``%(name)s`` / ``%s`` fields of %-formatting."""
    brace = {("{}", name) for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    percent = {("%", name or "", conv) for name, conv in re.findall(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?([sdifr])",
                                                                      text.replace("%%", ""))}
    return brace | percent


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mo_is_compiled_from_its_po(lang):
    po, mo = _po(lang), _mo(lang)
    assert _compiled(mo) == _compiled(po), (
        f"tablemate/locale/{lang}/LC_MESSAGES/{DOMAIN}.mo is stale: run bash scripts/translations.sh compile")
    assert mo.plural_forms == po.plural_forms


def test_both_catalogs_hold_the_same_texts():
    """Both are updated from one extraction; English keeps its msgids as they are."""
    en, de = _po("en"), _po("de")
    assert {(m.context, m.id) for m in _entries(en)} == {(m.context, m.id) for m in _entries(de)}
    assert all(text == msgid for (_, msgid), text in _compiled(en).items()), \
        "the English catalog translates nothing: change the English in the code"


def test_every_german_text_is_there_and_reviewed():
    missing = []
    for m in _entries(_po("de")):
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(s.strip() for s in strings):
            missing.append((m.context, m.id))
    assert not missing, f"German missing or fuzzy in tablemate/locale/de/LC_MESSAGES/{DOMAIN}.po: {missing}"


def test_german_keeps_every_placeholder():
    wrong = []
    for m in _entries(_po("de")):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for i, text in enumerate(strings):
            source = ids[min(i, len(ids) - 1)]  # German has two forms, singular and plural, as English
            if text and _fields(text) != _fields(source):
                wrong.append((m.context, source, text))
    assert not wrong, wrong


def test_german_plural_forms():
    assert _po("de").plural_forms == "nplurals=2; plural=(n != 1);"


def test_fields_are_found_in_both_styles():
    assert _fields("{n} of {total}: %(name)s, %d") == {("{}", "n"), ("{}", "total"), ("%", "name", "s"), ("%", "", "d")}
    assert _fields("100%% sure, {{literal}}") == set()


def test_catalogs_load_once_from_the_package():
    assert translations("de") is translations("de")
    assert translations("en").gettext("a text in no catalog") == "a text in no catalog"
    assert translations("de").ngettext("{n} tile", "{n} tiles", 2) == "{n} tiles"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        translations("fr")


def test_keyed_texts_fall_back_to_english_and_refuse_unknown_keys():
    texts = Keyed([msg("test.only", "Hand {number}"), nmsg("test.tiles", "{n} tile", "{n} tiles")])
    assert texts("de", "test.only", number=3) == "Hand 3"  # in no catalog: the English shows
    assert texts("en", "test.tiles", n=1) == "1 tile" and texts("en", "test.tiles", n=4) == "4 tiles"
    assert texts.table("en")["test.tiles"] == ("{n} tile", "{n} tiles")
    with pytest.raises(KeyError):
        texts("en", "test.nothing")
    with pytest.raises(ValueError, match="given twice"):
        Keyed([msg("a.b", "x"), msg("a.b", "y")])


def test_jinja2_templates_translate_through_the_catalogs():
    jinja2 = pytest.importorskip("jinja2")
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
    install_jinja2(env, "de")
    page = env.from_string('{{ _("Hand %(n)s", n="<b>") }} {{ ngettext("%(num)d tile", "%(num)d tiles", 3) }}')
    assert page.render() == "Hand &lt;b&gt; 3 tiles"


def test_catalogs_hold_every_text_the_code_marks(tmp_path):
    """What ``bash scripts/translations.sh update`` would change: texts new in the code, or gone from it."""
    from babel.messages.frontend import CommandLineInterface

    root = LOCALE.parents[1]
    pot = tmp_path / "tablemate.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(root / "babel.cfg"), "-o", str(pot), str(root)])
    with open(pot, "rb") as f:
        marked = {(m.context, _text(m.id)) for m in read_po(f) if m.id}
    held = {(m.context, _text(m.id)) for m in _entries(_po("de"))}
    assert len(marked) > 500  # the extraction itself works
    new, gone = sorted(marked - held, key=str), sorted(held - marked, key=str)
    assert not new and not gone, (f"run bash scripts/translations.sh update, translate and compile "
                                  f"(docs/translations.md); new: {new}, gone: {gone}")


def test_every_fan_and_limit_hand_has_its_german_name_in_the_catalog():
    """The names players read are the catalogs' (msgctxt mcr.fan, classical.limit), not the rules'.

    Why both the .po and the loaded .mo: a name only in the .po would show
    in English at the table; one the rules gained without a catalog entry
    would too.
    """
    from tablemate.locale import pgettext
    from tablemate.rules.classical import SWITCHABLE
    from tablemate.rules.mcr.fans import Fan

    po = _compiled(_po("de"))
    names = [("mcr.fan", f.fan_name) for f in Fan] + [("classical.limit", h.name) for h in SWITCHABLE.values()]
    assert len(names) == 82 + 11
    missing = [key for key in names if not po.get(key)]
    assert not missing, f"no German for {missing} (docs/translations.md)"
    for context, english in names:
        german = pgettext("de", context, english)
        assert german == po[(context, english)] and german != english, (context, english)
    assert pgettext("de", "mcr.fan", "Chicken Hand") == "Hühnerhand"
    assert pgettext("de", "classical.limit", "Nine Gates") == "Neun-Laternen-Spiel"
