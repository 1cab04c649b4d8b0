"""Extra player-facing lines of the service loop, named by key (texts from the catalogs).

Kept apart from ``i18n.py`` so the two tables can grow without editing each
other; same rules: ``msg(key, english)``, the key is the msgctxt, and these
lines are shown on the display.
"""
from __future__ import annotations

from ..locale import Keyed, msg
from .i18n import Strings

_EXTRA = Keyed([
    msg("service.correct", "Or: tablemate match record"),
    msg("service.no_winner", "No winning tile set apart"),
    msg("service.vision", "Vision: {error}"),
    msg("service.finished", "Match over"),
    msg("service.retry", "Retrying the camera"),
])


def extra(strings: Strings, key: str, **fields: object) -> str:
    return _EXTRA(strings.language, key, **fields)
