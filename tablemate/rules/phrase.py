"""Explanation lines as a key and parameters, so the device can say them in any language.

The rules engine stays free of the words players read: it records what it
found (a ``Phrase``), and a template table per language turns that into a
sentence. docs/formats.md fixes the JSON explanation in English, so the English
table sits next to each rule set; other languages live in the device layer.
"""
from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: A template, or (singular, plural) chosen by the phrase's ``n``.
Template = str | tuple[str, str]


@dataclass(frozen=True, slots=True)
class Term:
    """A name in its English wording, which is also the key a translation looks it up by.

    Item names are English in JSON (docs/formats.md), so the English name is the
    one stable identifier both the JSON and a translation table can share.
    """

    text: str


@dataclass(frozen=True, slots=True)
class Phrase:
    """One sentence or part of one: a template key and its arguments.

    Arguments are numbers and tile codes (printed as they are), Terms,
    nested Phrases, tuples of either (joined with ", ") or None (nothing).
    """

    key: str
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **args: Any) -> Phrase:
        return cls(key, tuple(args.items()))


def render(value: Any, templates: Mapping[str, Template], term: Callable[[str], str] = str) -> str:
    """The text of a Phrase (or of any argument value) with one language's templates.

    >>> render(Phrase.of("points", n=1), {"points": ("{n} point", "{n} points")})
    '1 point'
    """
    if value is None:
        return ""
    if isinstance(value, Term):
        return term(value.text)
    if isinstance(value, tuple):
        return ", ".join(render(v, templates, term) for v in value)
    if not isinstance(value, Phrase):
        return str(value)
    raw = dict(value.args)
    template = templates[value.key]
    if isinstance(template, tuple):
        template = template[0] if raw.get("n") == 1 else template[1]
    return template.format(**{k: render(v, templates, term) for k, v in raw.items()})


def placeholders(template: Template) -> set[str]:
    """The argument names a template uses, so tests can hold languages to the same ones."""
    parts = template if isinstance(template, tuple) else (template,)
    return {name for part in parts for _, name, _, _ in string.Formatter().parse(part) if name}
