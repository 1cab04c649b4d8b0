"""Errors a player can be shown as they are.

Every message says what is wrong in table words; callers print ``str(err)``.
They subclass ValueError so a caller can catch broadly or precisely.
"""


class TablemateError(ValueError):
    """Base of every input error tablemate reports to a player."""


class NotationError(TablemateError):
    """Text or JSON that does not describe tiles: an unknown code, bad syntax."""


class IllegalHandError(TablemateError):
    """Tiles that cannot lie on a table: five of one tile, a chow of honours,
    a wrong tile count, contradicting flags."""


class NotWinningError(TablemateError):
    """A hand that claims to have gone out but forms no winning pattern."""
