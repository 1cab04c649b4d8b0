"""The appliance turns the pages of a screen longer than the display (luma's dummy, gpiozero's MockFactory).

The score of the hand in ``test_service`` has four fans; the 128x64 panel
shows three lines between the header and the total, so the fourth is only
ever seen on page 2, and only if the loop turns to it.
"""
from __future__ import annotations

import time

from tablemate.app.screens import PlayScreen, ScoreScreen, SettlementScreen
from tablemate.device.display import Renderer

from .test_service import rig  # noqa: F401 - the service tests' fixture, used here by name


class Clock:
    """The loop's clock, moved by the test: which page shows when is exact, not a race."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def scored(r):
    """Play the test hand to its score screen (right wins on bottom's discard)."""
    r.app.start()
    r.app.step(0)
    r.app.step(0)
    r.press("mahjong")
    assert isinstance(r.app.screen, ScoreScreen), r.lines
    return r.app.screen


def pages_of(r, screen):
    """Each page of ``screen`` as the renderer draws it, and the fan names on it."""
    renderer = Renderer(r.display.device.size, r.display.device.mode, r.display.strings)
    layout = screen.layout(r.display.strings)
    images = [renderer.render(screen, p).tobytes() for p in range(renderer.page_count(screen))]
    names = [{row.text for row in body} for body in renderer._pages(layout)]
    return images, names


def on_panel(r, images):
    """Which page the dummy device shows now."""
    return images.index(r.display.device.image.convert(r.display.device.mode).tobytes())


def test_every_fan_is_shown_within_one_rotation(rig):
    clock = Clock()
    r = rig(clock=clock, page_seconds=4.0)
    screen = scored(r)
    images, names = pages_of(r, screen)
    assert len(screen.items) > 3 and len(images) == 2 == r.app.screen_pages
    seen_pages = {on_panel(r, images)}
    assert seen_pages == {0}
    r.app.step(0)                       # no time has passed: still page 1
    assert on_panel(r, images) == 0
    for _ in range(len(images)):
        clock.now += 4.0
        r.app.step(0)
        seen_pages.add(on_panel(r, images))
    assert on_panel(r, images) == 0     # after the last page the first again
    shown = set().union(*(names[p] for p in seen_pages))
    assert {i.name for i in screen.items} <= shown
    assert r.app.mode == "scored" and r.ledger.current().state.hands_played == 0  # paging confirms nothing


def test_a_new_screen_starts_at_page_one_and_buttons_still_work(rig):
    clock = Clock()
    r = rig(values=(0, 1, 2, 2), clock=clock, page_seconds=4.0)   # a second still of the same hand
    screen = scored(r)
    images, _ = pages_of(r, screen)
    clock.now += 4.0
    r.app.step(0)
    assert on_panel(r, images) == 1
    r.press("mahjong")                  # the still again: the same score, shown from its first page
    assert isinstance(r.app.screen, ScoreScreen) and on_panel(r, images) == 0
    clock.now += 2.0
    r.app.step(0)
    assert on_panel(r, images) == 0     # its own four seconds, not what was left of the last page's
    clock.now += 2.0
    r.app.step(0)
    assert on_panel(r, images) == 1
    r.press("next")                     # NEXT on page 2 confirms as on page 1
    assert r.ledger.current().state.hands_played == 1
    assert isinstance(r.app.screen, SettlementScreen) and r.app.screen_pages == 1


def test_a_screen_of_one_page_is_drawn_once(rig):
    clock = Clock()
    r = rig(clock=clock, page_seconds=4.0)
    r.app.start()
    assert isinstance(r.app.screen, PlayScreen) and r.app.screen_pages == 1
    r.press("draw")                     # the settlement of a drawn hand: four players, one page
    assert isinstance(r.app.screen, SettlementScreen) and r.app.screen_pages == 1
    drawn = []
    show = r.display.show
    r.display.show = lambda *a, **kw: drawn.append(a) or show(*a, **kw)
    for _ in range(5):
        clock.now += 4.0
        r.app.step(0)
    assert drawn == [] and r.app._page_due(clock()) is None


def test_zero_seconds_keeps_the_first_page(rig):
    clock = Clock()
    r = rig(clock=clock, page_seconds=0)
    screen = scored(r)
    images, _ = pages_of(r, screen)
    clock.now += 60.0
    r.app.step(0)
    assert on_panel(r, images) == 0


def test_the_loop_wakes_for_the_next_page_while_waiting_for_a_press(rig):
    """On the real clock: a step waiting for a press (frame interval 30 s) turns the page on time."""
    r = rig(page_seconds=0.05)
    screen = scored(r)
    images, names = pages_of(r, screen)
    r.app.frame_interval = 30.0
    seen = {on_panel(r, images)}
    deadline = time.monotonic() + 10.0
    while seen != set(range(len(images))) and time.monotonic() < deadline:
        began = time.monotonic()
        r.app.step()
        assert time.monotonic() - began < 5.0, "the step slept through the page"
        seen.add(on_panel(r, images))
    assert seen == set(range(len(images)))
    assert {i.name for i in screen.items} <= set().union(*names)
