"""The English of the classical and beginner explanation, one template per phrase key.

English lives here, not in the device layer, because docs/formats.md makes the
JSON ``explanation`` English and the rules engine writes the JSON. Every
other language translates the same keys (tablemate/app/i18n_classical.py).
"""
from __future__ import annotations

from ..phrase import Phrase, Template, render

EN: dict[str, Template] = {
    "points": ("{n} point", "{n} points"),
    "doublings": ("{n} doubling", "{n} doublings"),
    # A set, chow or pair of the hand.
    "group": "{name} {tiles}: {points}{why}{note}",
    "why": ", {doublings} ({reasons})",
    "note.claimed": " (completed with the claimed winning tile)",
    "note.undeclared_kong": " (four {tile} not declared as a kong count as a concealed pung)",
    "pair.claimed_zero": "{name} {tiles}: {points}, completed with the claimed winning tile",
    # Whole-hand items.
    "flowers": "{name} {tiles}: {count} x {points}",
    "item": "{name}: {value}",
    "item.tiles": "{name} {tiles}: {value}",
    "robbing": "{name} ({tile}): {value}",
    "robbing.beginner": "{name}: no bonus at the beginners' table",
    "flush.full": "{name} (all {suit}): {value}",
    "flush.half": "{name} (all {suit} and honours): {value}",
    "suit.m": "m",
    "suit.p": "p",
    "suit.s": "s",
    "blessings.beginner": "The blessings are not scored at the beginners' table: the hand scores its points",
    "loose": "No scoring set: {tiles}",
    "loser.beginner": "Did not go out: sets, pairs and bonus tiles count with their doublings; no Mah-Jongg bonus",
    "loser.classical": (
        "Did not go out: sets, pairs and bonus tiles count with their doublings; "
        "no Mah-Jongg bonus, flushes or limit hands"
    ),
    # The sum, and the limits that replace it.
    "summary": "{base}{rounded}{capped}",
    "summary.plain": "{points}",
    "summary.doubled": "{points} x 2^{doublings} = {raw}",
    "summary.rounded": " (rounded up to 10)",
    "summary.capped": ", capped at the limit of {limit}",
    "limit": "{name}: the limit, {value}{replaced}{others}",
    "limit.replaces": "; it replaces {summary}",
    "limit.others": "; also {names} (limits never stack)",
    "limit.half": "{name}: half the limit, {value}{replaced}",
    "limit.half_less": "{name}: half the limit ({value}) is less than the hand's score, which counts",
    "total": "Total: {summary}",
}


def english(phrase: Phrase) -> str:
    """The line as the JSON explanation has it."""
    return render(phrase, EN)
