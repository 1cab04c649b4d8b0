"""A table at the end of a hand: four seats, who went out, who paid for it.

Mirrors docs/formats.md "A table". Building one from JSON checks what no single
hand can check on its own: that the four seats together are a possible table
(no fifth tile of a kind, each flower once), that only one player went out,
and that the discarder is somebody else. Settlement and the match ledger can
then trust a Table without looking again.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

from .errors import IllegalHandError, NotationError
from .hand import Hand
from .rulesets import check_rules
from .tiles import WIND_CODES, Tile, wind_from_code

SEAT_NAMES = ("East", "South", "West", "North")


def _freeze(options: Mapping | None) -> Mapping:
    return MappingProxyType(dict(options or {}))


@dataclass(frozen=True)
class Table:
    """Four hands in play order starting with East, and the result of the hand.

    ``winner`` None is a drawn hand; ``discarder`` None with a winner is a
    self-drawn win. Seat i always has seat wind ``WIND_CODES[i]`` and the
    table's prevailing wind, whatever the JSON said per hand, so a scorer
    never sees two contradicting winds.
    """

    rules: str
    seats: tuple[Hand, ...]
    prevailing_wind: Tile = Tile.EAST
    winner: int | None = None
    discarder: int | None = None
    options: Mapping = field(default_factory=lambda: _freeze(None))

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", _freeze(self.options))
        check_rules(self.rules)
        if len(self.seats) != 4:
            raise IllegalHandError(f"a table has four seats, not {len(self.seats)}")
        _check_result(self.seats, self.winner, self.discarder)
        _check_tiles_across_seats(self.seats)

    @property
    def drawn(self) -> bool:
        return self.winner is None

    @property
    def self_drawn(self) -> bool:
        return self.winner is not None and self.discarder is None

    # -- JSON ----------------------------------------------------------------

    @classmethod
    def from_json(cls, data: object, *, rules: str | None = None) -> "Table":
        """A Table from docs/formats.md JSON; ``rules`` fills in a missing rule set."""
        if not isinstance(data, dict):
            raise NotationError("a table must be a JSON object with 'seats'")
        table_rules = data.get("rules", rules)
        if not isinstance(table_rules, str):
            raise NotationError("a table needs 'rules': mcr, classical or beginner")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise NotationError("'options' must be a JSON object")
        prevailing = data.get("prevailing_wind", "E")
        if not isinstance(prevailing, str):
            raise NotationError("'prevailing_wind' must be E, S, W or N")
        prevailing_tile = wind_from_code(prevailing)
        seats_json = data.get("seats")
        if not isinstance(seats_json, list) or len(seats_json) != 4:
            raise NotationError("a table has 'seats': a list of the four players' hands, East first")
        winner = _seat_index(data.get("winner"), "winner")
        discarder = _seat_index(data.get("discarder"), "discarder")
        seats = []
        for i, seat in enumerate(seats_json):
            if not isinstance(seat, dict):
                raise NotationError(f"seat {i} ({SEAT_NAMES[i]}) must be a JSON object")
            wind = seat.get("seat_wind", WIND_CODES[i])
            if wind != WIND_CODES[i]:
                raise IllegalHandError(
                    f"seats are listed in play order from East, so seat {i} is {SEAT_NAMES[i]} ({WIND_CODES[i]}), "
                    f"but it says seat_wind {wind!r}"
                )
            try:
                hand = Hand.from_json(seat)
            except (NotationError, IllegalHandError) as err:
                raise type(err)(f"{SEAT_NAMES[i]}'s hand: {err}") from None
            # The winner's self_drawn flag follows from the table, not the other way round.
            self_drawn = winner is not None and i == winner and discarder is None
            if i == winner and discarder is not None and hand.self_drawn:
                raise IllegalHandError(
                    f"{SEAT_NAMES[i]}'s hand says self-drawn, but the table says {SEAT_NAMES[discarder]} discarded the winning tile"
                )
            seats.append(replace(hand, prevailing_wind=prevailing_tile, self_drawn=self_drawn))
        return cls(
            rules=table_rules,
            seats=tuple(seats),
            prevailing_wind=prevailing_tile,
            winner=winner,
            discarder=discarder,
            options=options,
        )

    def to_json(self) -> dict:
        return {
            "rules": self.rules,
            "options": dict(self.options),
            "prevailing_wind": self.prevailing_wind.code,
            "seats": [h.to_json() for h in self.seats],
            "winner": self.winner,
            "discarder": self.discarder,
        }


def _seat_index(value: object, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, list):
        if name == "winner" and len(value) > 1:
            raise IllegalHandError("only one player can go out in a hand, but the table names two winners")
        if len(value) == 1:
            value = value[0]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise NotationError(f"'{name}' must be a seat number 0-3 (0 is East) or null")
    return value


def _check_result(seats: tuple[Hand, ...], winner: int | None, discarder: int | None) -> None:
    going_out = [i for i, h in enumerate(seats) if h.winning_tile is not None]
    if winner is None:
        if discarder is not None:
            raise IllegalHandError("a drawn hand (no winner) has nobody who discarded the winning tile")
        if going_out:
            raise IllegalHandError(
                f"the table says nobody won, but {SEAT_NAMES[going_out[0]]} has a winning tile"
            )
        return
    if discarder == winner:
        raise IllegalHandError(
            f"{SEAT_NAMES[winner]} cannot both win and discard the winning tile; "
            "leave out the discarder for a self-drawn win"
        )
    others = [i for i in going_out if i != winner]
    if others:
        names = " and ".join(SEAT_NAMES[i] for i in [winner, *others])
        raise IllegalHandError(f"only one player can go out in a hand, but {names} both have a winning tile")
    if seats[winner].winning_tile is None:
        raise IllegalHandError(f"{SEAT_NAMES[winner]} won, so their hand needs its winning tile")


def _check_tiles_across_seats(seats: tuple[Hand, ...]) -> None:
    counts: Counter = Counter()
    for hand in seats:
        counts.update(hand.all_tiles())
        counts.update(hand.flowers)
    for tile, n in sorted(counts.items()):
        limit = 1 if tile.is_bonus else 4
        if n > limit:
            what = "one" if limit == 1 else "four"
            where = [SEAT_NAMES[i] for i, h in enumerate(seats) if tile in h.all_tiles() or tile in h.flowers]
            raise IllegalHandError(
                f"there are {n} of {tile.code} on the table ({', '.join(where)}), but a set has only {what}"
            )
