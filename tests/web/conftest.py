"""The phone page's tests run the real thing: ``tablemate demo --web`` in a thread on 127.0.0.1.

Why the demo: it is the appliance (MockFactory pins, luma's dummy display,
the rendered session through a FileCamera) with the real page in uvicorn,
as a newcomer runs it. Vision is the renderer's ground truth (``--truth``,
fast and exact) with one tile of the last still misread on purpose
(5p read as 6p), so the page has a real misreading to fix.
"""
from __future__ import annotations

import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from tablemate.device.demo import WebDemo, run_demo

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
MISREAD = {"5p": "6p"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DemoTable:
    """A running ``tablemate demo --web``: its URL, the PIN as the display showed it, its output."""

    def __init__(self, out: Path, **web_options) -> None:
        self.lines: list[str] = []
        self.web = WebDemo(host="127.0.0.1", port=free_port(), **web_options)
        self.error: BaseException | None = None
        self.report: dict | None = None

        def play() -> None:
            try:
                self.report = run_demo(out, truth=True, hands=1, web=self.web, echo=self.lines.append)
            except BaseException as err:  # noqa: BLE001 - shown by the test that waits
                self.error = err
                self.web.ready.set()

        self.thread = threading.Thread(target=play, daemon=True)
        self.thread.start()
        if not self.web.ready.wait(120) or self.error is not None:
            raise RuntimeError(f"the demo did not start: {self.error!r}\n" + "\n".join(self.lines[-20:]))
        self.url = self.web.url.rstrip("/")

    @property
    def pin(self) -> str:
        """The PIN as the display's page screen printed it (the demo echoes every screen)."""
        for line in reversed(self.lines):
            m = re.search(r"PIN (\d{4})", line)
            if m and "display" in line:
                return m.group(1)
        raise AssertionError("the display never showed a PIN:\n" + "\n".join(self.lines))

    @property
    def app(self):
        return self.web.appliance

    def close(self) -> None:
        self.web.stop.set()
        self.thread.join(30)

    def __enter__(self) -> "DemoTable":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with DemoTable(tmp_path_factory.mktemp("demo"), misread=MISREAD) as t:
        yield t


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def phone(browser):
    """A phone-sized page (360x740, touch)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def wait_until(check, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.05)
