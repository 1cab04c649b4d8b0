"""The page's words: gettext for templates (``{{ _("...") }}``) and for messages built in Python.

Why gettext from the start: display, CLI and page share one set of
catalogs in ``tablemate/locale`` (Babel). The English text is the msgid, so
an untranslated text shows in English, never as a key.
"""
from __future__ import annotations

import gettext
from functools import lru_cache

LANGS = ("en", "de")


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English: the msgids themselves)."""
    from ..locale import known, translations as shared  # the project's catalogs (docs/translations.md)

    return shared(known(lang))


def _(lang: str, message: str, **fields: object) -> str:
    text = translations(lang).gettext(message)
    return text % fields if fields else text
