"""Fixtures shared by the appliance, device and CLI tests: gpiozero's own mock pins, never hand-made fakes."""
from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def mock_factory():
    """A fresh MockFactory; reset afterwards because close() does not free mock pins."""
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
