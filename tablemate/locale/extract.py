"""A Babel extractor for the classical explanation's English (babel.cfg, ``[wording: ...]``).

Why: ``tablemate/rules/classical/wording.py`` keeps the English templates as
the dict ``EN`` because the rules engine writes them into the JSON and must
not import anything of tablemate, not even a marker function. This reads
that dict literal (the source, never importing it) and hands each entry to
Babel as ``pgettext("classical.KEY", english)``, or ``npgettext`` for a
(singular, plural) pair, the way ``tablemate.app.i18n_classical`` looks them
up. Only maintainers and tests run the extractor; i18n_classical imports
:data:`CONTEXT` from here so the two cannot disagree on the prefix.
"""
from __future__ import annotations

import ast
from typing import Any, BinaryIO, Collection, Iterator, Mapping

#: The msgctxt prefix of the classical templates; i18n_classical uses the same.
CONTEXT = "classical."


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
