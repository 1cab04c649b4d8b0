"""Babel extractors for the English the rules engine keeps (babel.cfg, ``[wording: ...]`` and the others).

Why: ``tablemate/rules/classical/wording.py`` keeps the English templates as
the dict ``EN`` because the rules engine writes them into the JSON and must
not import anything of tablemate, not even a marker function. This reads
that dict literal (the source, never importing it) and hands each entry to
Babel as ``pgettext("classical.KEY", english)``, or ``npgettext`` for a
(singular, plural) pair, the way ``tablemate.app.i18n_classical`` looks them
up. Only maintainers and tests run the extractor; i18n_classical imports
:data:`CONTEXT` from here so the two cannot disagree on the prefix.

The same holds for the names of MCR's fans (``rules/mcr/fans.py``, the
English of each ``Fan`` member) and of classical's §5 limit hands
(``rules/classical/limit_hands.py``, each ``LimitHand``'s English): the
rules keep the English (and MCR the official Chinese) the JSON prints, the
catalogs every translation, with msgctxt :data:`MCR_FAN` and
:data:`CLASSICAL_LIMIT` (docs/translations.md).
"""
from __future__ import annotations

import ast
from typing import Any, BinaryIO, Collection, Iterator, Mapping

#: The msgctxt prefix of the classical templates; i18n_classical uses the same.
CONTEXT = "classical."
#: The msgctxt of an MCR fan's name (msgid: ``Fan.fan_name``); i18n_score uses the same.
MCR_FAN = "mcr.fan"
#: The msgctxt of a §5 limit hand's name (msgid: ``LimitHand.name``, the English); i18n_classical uses the same.
CLASSICAL_LIMIT = "classical.limit"


def wording(fileobj: BinaryIO, keywords: Collection[str], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    tree = ast.parse(fileobj.read().decode(options.get("encoding", "utf-8")))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if not (isinstance(target, ast.Name) and target.id == "EN" and isinstance(node.value, ast.Dict)):
            continue
        for key, value in zip(node.value.keys, node.value.values):
            template = ast.literal_eval(value)
            name = CONTEXT + ast.literal_eval(key)
            if isinstance(template, tuple):
                yield value.lineno, "npgettext", (name, *template), []
            else:
                yield value.lineno, "pgettext", (name, template), []


def mcr_fans(fileobj: BinaryIO, keywords: Collection[str], comment_tags: Collection[str],
             options: Mapping[str, Any]) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Each member of ``class Fan`` (``NAME = ("English", value, "中文")``) as ``pgettext(MCR_FAN, english)``."""
    tree = ast.parse(fileobj.read().decode(options.get("encoding", "utf-8")))
    for cls in tree.body:
        if not (isinstance(cls, ast.ClassDef) and cls.name == "Fan"):
            continue
        for node in cls.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and node.value.elts:
                first = node.value.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    yield node.lineno, "pgettext", (MCR_FAN, first.value), []


def limit_hands(fileobj: BinaryIO, keywords: Collection[str], comment_tags: Collection[str],
                options: Mapping[str, Any]) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Each ``LimitHand("id", "English (rule book name)", test)`` as ``pgettext(CLASSICAL_LIMIT, english)``."""
    tree = ast.parse(fileobj.read().decode(options.get("encoding", "utf-8")))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "LimitHand"
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
            yield node.lineno, "pgettext", (CLASSICAL_LIMIT, english_name(node.args[1].value)), []


def english_name(title: str) -> str:
    """The English of a limit hand's title: "Nine Gates (Neun-Laternen-Spiel)" -> "Nine Gates"."""
    return title.split(" (", 1)[0]
