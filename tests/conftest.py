"""Fixtures shared by the appliance, device and CLI tests: gpiozero's own mock pins, never hand-made fakes."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


def pytest_configure(config):
    """Every test sees no data sets (``$TABLEMATE_DATA`` an empty folder), as on a clean clone.

    Why: the renderer draws some faces from the real tile photos when it
    finds them (``vision.datasets``), so a rendered scene on a machine that
    keeps the data sets beside the repository differs slightly from the same
    scene in CI; a test tuned on one would fail on the other. Tests that need
    a data set make their own (``monkeypatch.setenv``).
    """
    config._tablemate_no_data = tempfile.mkdtemp(prefix="tablemate-no-data-")
    os.environ["TABLEMATE_DATA"] = config._tablemate_no_data


def pytest_unconfigure(config):
    folder = getattr(config, "_tablemate_no_data", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


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
