"""The four buttons players press: MAHJONG, NEXT, DRAW and UNDO.

Presses become :class:`Action` values in a queue, so the service loop reads
them with a timeout alongside camera frames instead of running game logic in
gpiozero's callback thread.

Holding MAHJONG for ``enroll_hold`` seconds queues :data:`ENROLL` instead
(docs/enrollment.md: learning the players' tile set at the table). Why a
long press and not a sequence: every short press already means something
during a hand (DRAW records, UNDO takes back), and a sequence would do
those first; with a hold time MAHJONG is reported when it is let go, so a
hold does nothing but start enrollment.
"""
from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button

from tablemate.app.config import ACTIONS, PinsConfig
from tablemate.app.inputs import ENROLL, Action, Gesture


class Buttons:
    """Buttons from a ``{"mahjong": pin, ...}`` map; presses queue up as actions."""

    def __init__(self, pins: Mapping[str, int | str], *, pull_up: bool = True,
                 bounce_time: float | None = 0.05, pin_factory: Any = None,
                 on_press: Callable[[Action | Gesture], None] | None = None,
                 enroll_hold: float | None = None) -> None:
        missing = [name for name in ACTIONS if name not in pins]
        if missing:
            raise ValueError(f"no button pin for {', '.join(missing)}")
        self.events: queue.Queue[Action | Gesture] = queue.Queue()
        self._on_press = on_press
        self._held = False
        self._buttons: dict[Action, Button] = {}
        try:
            for action in Action:
                hold = enroll_hold if action is Action.MAHJONG else None
                button = Button(pins[action.value], pull_up=pull_up, bounce_time=bounce_time,
                                pin_factory=pin_factory, **({"hold_time": hold} if hold else {}))
                if hold:
                    button.when_held = self._on_held
                    button.when_released = self._released(action)
                else:
                    button.when_pressed = self._handler(action)
                self._buttons[action] = button
        except Exception:
            self.close()
            raise

    @classmethod
    def from_config(cls, pins: PinsConfig, *, pin_factory: Any = None,
                    on_press: Callable[[Action | Gesture], None] | None = None,
                    enroll_hold: float | None = None) -> Buttons:
        """The buttons as ``[pins]`` in the config file describes them."""
        return cls(pins.buttons, pull_up=pins.buttons_pull_up, bounce_time=pins.bounce_time,
                   pin_factory=pin_factory, on_press=on_press, enroll_hold=enroll_hold)

    def _handler(self, action: Action) -> Callable[[], None]:
        def pressed() -> None:
            self._pressed(action)
        return pressed

    def _on_held(self) -> None:
        self._held = True
        self._pressed(ENROLL)

    def _released(self, action: Action) -> Callable[[], None]:
        def released() -> None:
            if self._held:  # the hold was the gesture; letting go is not a press
                self._held = False
                return
            self._pressed(action)
        return released

    def _pressed(self, action: Action | Gesture) -> None:
        self.events.put(action)
        if self._on_press is not None:
            self._on_press(action)

    def wait(self, timeout: float | None = None) -> Action | Gesture | None:
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
