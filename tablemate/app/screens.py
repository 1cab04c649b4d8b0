"""What the display shows, as plain data, independent of any display hardware.

Each screen is a small frozen dataclass built from plain values (wind codes,
names, numbers), so the service loop can fill it from whatever the rules
engine and the ledger hold without the display knowing their types. A screen
turns itself into a :class:`Layout` of text rows; ``display.Renderer`` draws a
layout on any luma device and :func:`to_text` prints it for a terminal, so
the picture and the text can never say different things.
"""
from __future__ import annotations

import enum
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from tablemate.app.i18n import WIND_CHARS, Strings


class Tone(enum.Enum):
    """How a row should stand out; mono displays ignore colour tones."""

    NORMAL = "normal"
    GAIN = "gain"
    LOSS = "loss"


@dataclass(frozen=True)
class Row:
    """One line: text on the left, an optional value right-aligned.

    ``wrap`` rows are sentences the renderer may break over several lines.
    """

    text: str
    value: str = ""
    tone: Tone = Tone.NORMAL
    wrap: bool = False


@dataclass(frozen=True)
class Layout:
    """The content of a screen before it meets a display size.

    ``body`` rows may be split over pages; ``header`` and ``footer`` repeat on
    every page. ``glyph`` is one large character drawn beside the body.
    """

    body: tuple[Row, ...]
    header: Row | None = None
    footer: Row | None = None
    glyph: str | None = None
    pageable: bool = False
    #: Text drawn as a QR code beside the body (the phone page's address), where ``glyph`` would be.
    qr: str | None = None


@dataclass(frozen=True)
class PlayScreen:
    """During a hand: prevailing wind, hand number, dealer and whose turn."""

    prevailing_wind: str
    hand_number: int
    dealer: str
    turn: str | None = None
    hands_total: int | None = None

    def layout(self, t: Strings) -> Layout:
        if self.hands_total:
            hand = t("play.hand_of", number=self.hand_number, total=self.hands_total)
        else:
            hand = t("play.hand", number=self.hand_number)
        rows = [
            Row(t.prevailing(self.prevailing_wind)),
            Row(hand),
            Row(t("play.dealer"), self.dealer),
        ]
        if self.turn is not None:
            rows.append(Row(t("play.turn"), self.turn))
        return Layout(body=tuple(rows), glyph=WIND_CHARS[self.prevailing_wind])


@dataclass(frozen=True)
class ScoreItem:
    """One fan or scoring element: ``points`` each, ``count`` times.

    ``doublings`` is for classical rules, where an item doubles the score
    instead of (or as well as) adding points.
    """

    name: str
    points: int = 0
    count: int = 1
    doublings: int = 0

    def value(self) -> str:
        parts = []
        if self.points:
            parts.append(f"{self.count}×{self.points}" if self.count > 1 else str(self.points))
        if self.doublings:
            parts.append(f"×{2 ** self.doublings}")
        return " ".join(parts) or "0"


@dataclass(frozen=True)
class ScoreScreen:
    """A scored hand: the winner, each fan or item, and the total.

    ``unit`` is ``"fan"`` (MCR) or ``"points"`` (classical, beginner). Long
    lists page; the total shows on every page.
    """

    winner: str
    items: Sequence[ScoreItem]
    total: int
    unit: str = "fan"
    valid: bool = True

    def __post_init__(self) -> None:
        if self.unit not in ("fan", "points"):
            raise ValueError(f"unit must be 'fan' or 'points', not {self.unit!r}")
        object.__setattr__(self, "items", tuple(_item(i) for i in self.items))

    def layout(self, t: Strings) -> Layout:
        total = t("score.fans" if self.unit == "fan" else "score.points", total=self.total)
        footer = Row(t("score.total"), total) if self.valid else Row(t("score.invalid"), total, Tone.LOSS)
        return Layout(
            header=Row(t("score.title", winner=self.winner)),
            body=tuple(Row(item.name, item.value()) for item in self.items),
            footer=footer,
            pageable=True,
        )


def _item(item: ScoreItem | tuple) -> ScoreItem:
    """Accepts ``(name, points)`` pairs as well as :class:`ScoreItem`."""
    return item if isinstance(item, ScoreItem) else ScoreItem(*item)


@dataclass(frozen=True)
class SettlementScreen:
    """Who pays whom, as each player's net for the hand (sums to zero)."""

    nets: Sequence[tuple[str, int]]
    drawn: bool = False

    def layout(self, t: Strings) -> Layout:
        rows = tuple(Row(name, _signed(net), _tone(net)) for name, net in self.nets)
        title = t("settlement.drawn" if self.drawn else "settlement.title")
        return Layout(header=Row(title), body=rows, pageable=True)


def _signed(value: int) -> str:
    # U+2212 MINUS SIGN reads better than a hyphen next to digits.
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def _tone(value: int) -> Tone:
    return Tone.GAIN if value > 0 else Tone.LOSS if value < 0 else Tone.NORMAL


@dataclass(frozen=True)
class SeatChangeScreen:
    """Between rounds: the new prevailing wind and each player's new seat wind."""

    prevailing_wind: str
    seats: Sequence[tuple[str, str]]

    def layout(self, t: Strings) -> Layout:
        rows = tuple(Row(name, f"{WIND_CHARS[w]} {t.wind(w)}") for name, w in self.seats)
        header = Row(t("seats.title"), WIND_CHARS[self.prevailing_wind])
        return Layout(header=header, body=rows, pageable=True)


class Trouble(enum.Enum):
    """Problems the players must act on."""

    CAMERA_LOST = "camera_lost"
    HAND_NOT_RECOGNISED = "hand_not_recognised"
    CANNOT_SCORE = "cannot_score"


#: The reasons the rules give for a claimed win that is none (``Settlement.false_mahjong``), each with the
#: display's words for it: the code itself must never reach a player.
TROUBLE_REASONS = ("not_winning", "below_minimum")


@dataclass(frozen=True)
class TroubleScreen:
    """A problem and what to do about it, kept as data rather than as finished text.

    Why no sentence is stored: the display and the phone page show the same
    trouble, each in its own language, and neither may show an internal code.
    ``reason`` is a code from the rules (one of :data:`TROUBLE_REASONS`) and
    is only ever shown through its text; ``detail`` is an error message as
    raised (English), translated where it is shown.
    """

    trouble: Trouble
    detail: str | None = None
    reason: str | None = None

    def layout(self, t: Strings) -> Layout:
        from .i18n_errors import localize
        from .i18n_service import extra

        key = f"trouble.{Trouble(self.trouble).value}"
        rows = []
        if self.reason in TROUBLE_REASONS:  # what is wrong first, then what to do
            rows.append(Row(t(f"trouble.reason.{self.reason}"), wrap=True))
        elif self.detail:
            detail = localize(self.detail, t.language)
            if self.trouble is Trouble.HAND_NOT_RECOGNISED:
                detail = extra(t, "service.vision", error=detail)
            rows.append(Row(detail, wrap=True))
        rows.append(Row(t(f"{key}.hint"), wrap=True))
        if self.trouble is Trouble.CAMERA_LOST:
            rows.append(Row(extra(t, "service.retry"), wrap=True))
        else:
            rows.append(Row(extra(t, "service.correct"), wrap=True))
        return Layout(header=Row(t(key)), body=tuple(rows))


@dataclass(frozen=True)
class GridFault:
    """What is wrong with an enrollment grid, as plain data (from ``vision.enroll.EnrollError``).

    ``kind`` is the error's kind (``missing``, ``swapped``, ... or
    ``camera``/``store`` for the appliance's own trouble); places are 1-based.
    """

    kind: str
    row: int | None = None
    col: int | None = None
    other: tuple[int, int] | None = None
    code: str | None = None
    count: int | None = None
    total: int | None = None

    @classmethod
    def from_error(cls, err: object, total: int = 44) -> GridFault:
        return cls(getattr(err, "kind", "grid"), getattr(err, "row", None), getattr(err, "col", None),
                   getattr(err, "other", None), getattr(err, "code", None), getattr(err, "count", None), total)

    def text(self, t: Strings) -> str:
        from tablemate.app.i18n_enroll import enroll_text

        other = self.other or (None, None)
        fields = {"row": self.row, "col": self.col, "row2": other[0], "col2": other[1], "code": self.code,
                  "count": self.count, "total": self.total}
        fields = {k: "?" if v is None else v for k, v in fields.items()}
        try:
            return enroll_text(t, f"enroll.fault.{self.kind}", **fields)
        except KeyError:
            return enroll_text(t, "enroll.fault.grid")


@dataclass(frozen=True)
class EnrollScreen:
    """Learning the players' tile set at the table (docs/enrollment.md), one stage at a time.

    ``stage``: ``lay_out`` (asks for the grid; ``why`` says why when the
    appliance asks by itself: ``missing``, ``other_models``, ``damaged``),
    ``working`` (the still is being read), ``wrong`` (``fault`` names the
    place; nothing was stored) or ``learned`` (``read``/``faces``: the grid's
    faces read right with the new set). Why a screen of its own: the four
    body lines of a 128x64 panel hold the fault or the prompt, and the
    header says what to press next.
    """

    stage: str
    name: str
    why: str | None = None
    fault: GridFault | None = None
    read: int | None = None
    faces: int | None = None

    def layout(self, t: Strings) -> Layout:
        from tablemate.app.i18n_enroll import enroll_text

        def say(key: str, **kw: object) -> str:
            return enroll_text(t, key, **kw)

        if self.stage == "lay_out":
            rows = [Row(say(f"enroll.why.{self.why}", name=self.name))] if self.why else []  # one line, shortened
            rows += [Row(say("enroll.lay_out"), wrap=True), Row(say("enroll.back"), wrap=True)]
            return Layout(header=Row(say("enroll.title")), body=tuple(rows))
        if self.stage == "working":
            return Layout(header=Row(say("enroll.title")), body=(Row(say("enroll.working"), wrap=True),))
        if self.stage == "wrong":
            fault = self.fault or GridFault("grid")
            return Layout(header=Row(say("enroll.wrong")), body=(Row(fault.text(t), wrap=True),
                                                                  Row(say("enroll.back"), wrap=True)))
        if self.stage == "learned":
            rows = [Row(self.name)]
            if self.faces:
                rows.append(Row(say("enroll.read"), f"{self.read}/{self.faces}"))
            rows.append(Row(say("enroll.next")))
            return Layout(header=Row(say("enroll.learned")), body=tuple(rows))
        raise ValueError(f"unknown enrollment stage {self.stage!r}")


@dataclass(frozen=True)
class PageScreen:
    """The phone page's address, as a QR code and as text, and the PIN that allows changes.

    Why split the address: beside a QR code readable from a phone, a 128 px
    panel has room for about ten characters a line, so the host is broken
    after its dots.
    """

    url: str
    pin: str

    def layout(self, t: Strings) -> Layout:
        host = self.url.split("://", 1)[-1].rstrip("/")
        chunks: list[str] = []
        for part in host.replace(":", " :").replace(".", ". ").split():
            if chunks and len(chunks[-1]) + len(part) <= 10:
                chunks[-1] += part
            else:
                chunks.append(part)
        rows = [Row(c) for c in chunks[:3]] + [Row(t("phone.pin"), self.pin)]
        return Layout(body=(Row(t("phone.title")), *rows)[-5:], qr=self.url)

    def text(self, t: Strings) -> str:
        return f"{t('phone.title')}: {self.url}  {t('phone.pin')} {self.pin}"


Screen = PlayScreen | ScoreScreen | SettlementScreen | SeatChangeScreen | TroubleScreen | EnrollScreen | PageScreen


def to_text(screen: Screen, strings: Strings) -> str:
    """The whole screen as terminal text (no paging: a terminal scrolls)."""
    if isinstance(screen, PageScreen):  # a terminal shows the address in one piece, not as a QR code
        return screen.text(strings)
    layout = screen.layout(strings)
    rows = [r for r in (layout.header, *layout.body, layout.footer) if r is not None]
    width = max((_cols(r.text) + _cols(r.value) + 2 for r in rows), default=0)
    lines = [_text_row(r, width) for r in rows]
    if layout.glyph:
        lines = [f"{layout.glyph} {line}" if i == 0 else f"   {line}" for i, line in enumerate(lines)]
    if layout.header is not None:
        lines.insert(1, "-" * _cols(lines[0]))
    return "\n".join(line.rstrip() for line in lines)


def _text_row(row: Row, width: int) -> str:
    if not row.value:
        return row.text
    return row.text + " " * (width - _cols(row.text) - _cols(row.value)) + row.value


def _cols(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
