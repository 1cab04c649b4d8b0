from __future__ import annotations

import time

import pytest

from tablemate.device.buttons import Action, Buttons
from tablemate.app.config import PinsConfig
from tablemate.device.leds import SeatLights

LEDS = PinsConfig().leds
BUTTONS = PinsConfig().buttons


def states(pin) -> list[bool]:
    return [bool(s.state) for s in pin.states]


def test_turn_lights_exactly_one_seat(mock_factory):
    with SeatLights(LEDS, pin_factory=mock_factory) as lights:
        lights.show_turn("bottom")
        lights.show_turn("right")
    mock_factory.pin(LEDS["bottom"]).assert_states([False, True, False])
    mock_factory.pin(LEDS["right"]).assert_states([False, True, False])
    mock_factory.pin(LEDS["top"]).assert_states([False])
    mock_factory.pin(LEDS["left"]).assert_states([False])


def test_active_low_leds_invert_the_pin(mock_factory):
    with SeatLights(LEDS, active_high=False, pin_factory=mock_factory) as lights:
        lights.show_turn("top")
        assert mock_factory.pin(LEDS["top"]).state is False or mock_factory.pin(LEDS["top"]).state == 0
        assert mock_factory.pin(LEDS["left"]).state == 1


def test_dealer_blinks_between_hands_and_stops_when_play_starts(mock_factory):
    lights = SeatLights(LEDS, dealer_blink=(0.02, 0.02), pin_factory=mock_factory)
    lights.show_turn("left")
    lights.between_hands("top")
    time.sleep(0.2)
    lights.show_turn("top")
    history = states(mock_factory.pin(LEDS["top"]))
    after = len(history)
    time.sleep(0.1)
    lights.close()
    # Off at start, then alternating on/off while blinking (several cycles).
    assert history[0] is False
    assert history.count(True) >= 3
    assert all(a != b for a, b in zip(history, history[1:]))
    assert history[-1] is True  # lit steadily for its turn
    # After show_turn the blinking stopped: only close() turned it off since.
    assert states(mock_factory.pin(LEDS["top"]))[after:] == [False]
    mock_factory.pin(LEDS["left"]).assert_states([False, True, False])


def test_close_turns_everything_off_and_is_idempotent(mock_factory):
    lights = SeatLights(LEDS, pin_factory=mock_factory)
    lights.show_turn("right")
    lights.close()
    lights.close()
    assert lights.closed
    mock_factory.pin(LEDS["right"]).assert_states([False, True, False])


def test_unknown_side_is_a_clear_error(mock_factory):
    with SeatLights(LEDS, pin_factory=mock_factory) as lights:
        with pytest.raises(ValueError, match="unknown side 'east'"):
            lights.show_turn("east")


def test_missing_led_pin_is_named(mock_factory):
    with pytest.raises(ValueError, match="left"):
        SeatLights({"bottom": 5, "right": 6, "top": 13}, pin_factory=mock_factory)


def test_each_button_queues_its_action(mock_factory):
    seen = []
    with Buttons(BUTTONS, bounce_time=None, pin_factory=mock_factory, on_press=seen.append) as buttons:
        for name in ("undo", "mahjong", "next", "draw"):
            pin = mock_factory.pin(BUTTONS[name])
            pin.drive_low()
            pin.drive_high()
        got = [buttons.wait(1.0) for _ in range(4)]
        assert buttons.wait(0.01) is None
    assert got == [Action.UNDO, Action.MAHJONG, Action.NEXT, Action.DRAW]
    assert seen == got


def test_buttons_use_pull_up_and_read_pressed_when_low(mock_factory):
    with Buttons(BUTTONS, pin_factory=mock_factory) as buttons:
        pin = mock_factory.pin(BUTTONS["next"])
        assert pin.pull == "up"
        assert not buttons.is_pressed(Action.NEXT)
        pin.drive_low()
        assert buttons.is_pressed(Action.NEXT)


def test_bounce_time_reaches_the_pin(mock_factory):
    # Debouncing itself happens in the pin backend (lgpio); MockPin only records it.
    with Buttons(BUTTONS, bounce_time=0.5, pin_factory=mock_factory):
        assert mock_factory.pin(BUTTONS["mahjong"]).bounce == 0.5


def test_button_pin_already_used_by_an_led_fails_cleanly(mock_factory):
    with SeatLights(LEDS, pin_factory=mock_factory):
        clash = dict(BUTTONS, undo=LEDS["top"])
        with pytest.raises(Exception, match="in use|already"):
            Buttons(clash, pin_factory=mock_factory)
        # the buttons opened before the clash were released again
        Buttons(dict(BUTTONS, undo=26), pin_factory=mock_factory).close()


def test_built_from_the_config_file(mock_factory, tmp_path):
    from tablemate.app.config import load_config

    path = tmp_path / "t.toml"
    path.write_text('[pins]\nleds_active_high = false\nbuttons_pull_up = false\n'
                    '[pins.leds]\nbottom = 20\n[pins.buttons]\ndraw = 21\n')
    pins = load_config(path).pins
    with SeatLights.from_config(pins, pin_factory=mock_factory) as lights, \
            Buttons.from_config(pins, pin_factory=mock_factory) as buttons:
        lights.show_turn("bottom")
        assert mock_factory.pin(20).state == 0  # active low: lit means driven low
        draw = mock_factory.pin(21)
        assert draw.pull == "down"
        draw.drive_high()
        assert buttons.wait(1.0) is Action.DRAW
