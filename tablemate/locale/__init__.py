"""The gettext catalogs every player-facing text comes from: display, CLI, errors, club and page.

One domain, ``tablemate``, one catalog per language in
``tablemate/locale/<lang>/LC_MESSAGES/tablemate.po`` with its compiled
``.mo`` beside it (docs/translations.md has the workflow). At run time only
the standard library's :mod:`gettext` and the committed ``.mo`` files are
needed; Babel is a tool for maintainers and tests.

Why the ``.mo`` files are read through :mod:`importlib.resources`: the
appliance runs from an installed wheel (systemd/install.sh), where the
package may not be a folder next to the checkout; ``gettext.translation``
with a ``localedir`` would need a real path.

Message ids: the English text is the msgid, so a text missing from a
catalog shows in English, never as a key. Texts that code names by a stable
key (``strings("play.hand")``, an error's id, ``f"wind.{code}"``) carry that
key as their msgctxt, made with :func:`msg` / :func:`nmsg`. The context keeps
the key stable when the English is reworded, tells the translator where a
text is shown (``enroll.*`` and the display keys must fit a 128x64 panel),
and keeps one English word from being forced into one German one: "one" in
an error reads "einen", "Total" on the display and in a score line may part
ways. Free text (the page's templates) needs no context.

English is the source language: the ``en`` catalog has no translations of
its own (every msgstr empty, so the msgid shows) and exists so that every
language is loaded, tested and shipped the same way.
"""
from __future__ import annotations

import gettext as _gettext
from functools import lru_cache
from importlib import resources
from typing import Iterable, Mapping, Union

DOMAIN = "tablemate"

#: The languages with a catalog, English (the msgids) first.
LANGUAGES = ("en", "de")

#: A keyed text's English: one template, or (singular, plural) for :func:`nmsg`.
Template = Union[str, tuple[str, str]]


def _check(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


@lru_cache(maxsize=None)
def translations(lang: str) -> _gettext.GNUTranslations:
    """The catalog of ``lang``, loaded once; usable by Jinja2's ``install_gettext_translations``."""
    path = resources.files(__name__).joinpath(_check(lang), "LC_MESSAGES", f"{DOMAIN}.mo")
    with path.open("rb") as fp:
        return _gettext.GNUTranslations(fp)


def known(lang: str | None, default: str = "en") -> str:
    """``lang`` if it has a catalog, else ``default`` (for callers that fall back rather than refuse)."""
    return lang if lang in LANGUAGES else default


def gettext(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)


def pgettext(lang: str, context: str, message: str) -> str:
    return translations(lang).pgettext(context, message)


def npgettext(lang: str, context: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).npgettext(context, singular, plural, n)


# Markers for texts named by a key. Babel finds them (babel.cfg: ``msg:1c,2 nmsg:1c,2,3``); at run time
# they only pair the key with its English, which a :class:`Keyed` table then translates.

def msg(key: str, english: str) -> tuple[str, str]:
    """A keyed text: ``key`` is its msgctxt, ``english`` its msgid."""
    return key, english


def nmsg(key: str, singular: str, plural: str) -> tuple[str, tuple[str, str]]:
    """A keyed text with a plural; the template is chosen by a count ``n``."""
    return key, (singular, plural)


class Keyed:
    """Texts code names by key, with their English; each language's table comes from its catalog.

    A key missing from the table is a programming error: it raises
    ``KeyError`` rather than showing a raw key to players.
    """

    def __init__(self, entries: Iterable[tuple[str, Template]]) -> None:
        self.english: dict[str, Template] = {}
        for key, template in entries:
            if key in self.english:
                raise ValueError(f"key {key!r} is given twice")
            self.english[key] = template
        self._tables: dict[str, dict[str, Template]] = {}

    def table(self, lang: str) -> Mapping[str, Template]:
        """Every key's template in ``lang`` (plurals as (singular, plural) German forms for n=1 and n=2)."""
        table = self._tables.get(lang)
        if table is None:
            tr = translations(lang)
            table = {}
            for key, en in self.english.items():
                if isinstance(en, tuple):
                    table[key] = (tr.npgettext(key, en[0], en[1], 1), tr.npgettext(key, en[0], en[1], 2))
                else:
                    table[key] = tr.pgettext(key, en)
            self._tables[lang] = table
        return table

    def template(self, lang: str, key: str, n: int | None = None) -> str:
        en = self.english[key]
        if isinstance(en, tuple):
            return npgettext(lang, key, en[0], en[1], 1 if n is None else n)
        return pgettext(lang, key, en)

    def __call__(self, lang: str, key: str, /, **fields: object) -> str:
        """The text of ``key`` in ``lang`` with its ``{name}`` fields filled (a plural by ``n``)."""
        n = fields.get("n")
        return self.template(lang, key, n if isinstance(n, int) else None).format(**fields)

    def keys(self) -> set[str]:
        return set(self.english)


def install_jinja2(env, lang: str) -> None:
    """Gives a Jinja2 environment ``_``, ``gettext``, ``ngettext``, ``pgettext`` and ``npgettext`` in ``lang``.

    Needs the ``jinja2.ext.i18n`` extension; ``newstyle`` lets a template
    write ``{{ _("Hand %(n)s of %(total)s", n=n, total=total) }}``, with
    autoescaping applied to the fields.
    """
    env.install_gettext_translations(translations(lang), newstyle=True)
