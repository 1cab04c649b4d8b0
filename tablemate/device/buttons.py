"""The four buttons players press: MAHJONG, NEXT, DRAW and UNDO.

Presses become :class:`Action` values in a queue, so the service loop reads
them with a timeout alongside camera frames instead of running game logic in
gpiozero's callback thread.
"""
from __future__ import annotations

import enum
import queue
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button

from tablemate.device.config import ACTIONS, PinsConfig


class Action(enum.Enum):
    MAHJONG = "mahjong"  # score now
    NEXT = "next"        # pass the turn by hand; confirm a result
    DRAW = "draw"        # the wall is exhausted
    UNDO = "undo"        # take the last hand back


class Buttons:
    """Buttons from a ``{"mahjong": pin, ...}`` map; presses queue up as actions."""

    def __init__(self, pins: Mapping[str, int | str], *, pull_up: bool = True,
                 bounce_time: float | None = 0.05, pin_factory: Any = None,
                 on_press: Callable[[Action], None] | None = None) -> None:
        missing = [name for name in ACTIONS if name not in pins]
        if missing:
            raise ValueError(f"no button pin for {', '.join(missing)}")
        self.events: queue.Queue[Action] = queue.Queue()
        self._on_press = on_press
        self._buttons: dict[Action, Button] = {}
        try:
            for action in Action:
                button = Button(pins[action.value], pull_up=pull_up, bounce_time=bounce_time,
                                pin_factory=pin_factory)
                button.when_pressed = self._handler(action)
                self._buttons[action] = button
        except Exception:
            self.close()
            raise

    @classmethod
    def from_config(cls, pins: PinsConfig, *, pin_factory: Any = None,
                    on_press: Callable[[Action], None] | None = None) -> Buttons:
        """The buttons as ``[pins]`` in the config file describes them."""
        return cls(pins.buttons, pull_up=pins.buttons_pull_up, bounce_time=pins.bounce_time,
                   pin_factory=pin_factory, on_press=on_press)

    def _handler(self, action: Action) -> Callable[[], None]:
        def pressed() -> None:
            self._pressed(action)
        return pressed

    def _pressed(self, action: Action) -> None:
        self.events.put(action)
        if self._on_press is not None:
            self._on_press(action)

    def wait(self, timeout: float | None = None) -> Action | None:
        """The next press, or None when none came within ``timeout`` seconds."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def is_pressed(self, action: Action) -> bool:
        return self._buttons[action].is_pressed

    def close(self) -> None:
        """Release the pins; idempotent."""
        for button in self._buttons.values():
            button.close()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
