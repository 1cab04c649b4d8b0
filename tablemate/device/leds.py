"""One LED per seat: whose turn it is, and the dealer's slow blink between hands.

Built on gpiozero's ``LEDBoard`` with the pin factory passed in (tests use
``MockFactory``; on the Pi gpiozero picks lgpio), so nothing here asks what
machine it runs on.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpiozero import LEDBoard

from tablemate.app.config import SIDES, PinsConfig


class SeatLights:
    """The four seat LEDs, named by table side: bottom, right, top, left."""

    def __init__(self, pins: Mapping[str, int | str], *, active_high: bool = True,
                 dealer_blink: tuple[float, float] = (1.0, 1.0), pin_factory: Any = None) -> None:
        missing = [side for side in SIDES if side not in pins]
        if missing:
            raise ValueError(f"no LED pin for side {', '.join(missing)}")
        self.dealer_blink = dealer_blink
        self._board = LEDBoard(**{side: pins[side] for side in SIDES}, pwm=False,
                               active_high=active_high, initial_value=False,
                               pin_factory=pin_factory)
        self.lit: str | None = None
        self.blinking: str | None = None

    @classmethod
    def from_config(cls, pins: PinsConfig, *, pin_factory: Any = None) -> SeatLights:
        """The seat LEDs as ``[pins]`` in the config file describes them."""
        return cls(pins.leds, active_high=pins.leds_active_high, dealer_blink=pins.dealer_blink,
                   pin_factory=pin_factory)

    def led(self, side: str) -> Any:
        if side not in SIDES:
            raise ValueError(f"unknown side {side!r}: expected one of {', '.join(SIDES)}")
        return getattr(self._board, side)

    def show_turn(self, side: str) -> None:
        """Light the seat whose turn it is, and only that one."""
        target = self.led(side)
        for name in SIDES:
            if name != side:
                self.led(name).off()
        target.on()
        self.lit, self.blinking = side, None

    def between_hands(self, dealer_side: str) -> None:
        """All dark except the dealer's, blinking slowly until play starts."""
        target = self.led(dealer_side)
        for name in SIDES:
            if name != dealer_side:
                self.led(name).off()
        on_time, off_time = self.dealer_blink
        target.blink(on_time=on_time, off_time=off_time, background=True)
        self.lit, self.blinking = None, dealer_side

    def off(self) -> None:
        self._board.off()
        self.lit = self.blinking = None

    def close(self) -> None:
        """Turn the LEDs off and release the pins; idempotent."""
        if not self._board.closed:
            self.off()
        self._board.close()

    @property
    def closed(self) -> bool:
        return self._board.closed

    def __enter__(self) -> SeatLights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
