"""Screenshots of the phone page at phone size (360x740) for docs/phone-page.md.

Run from the repository root: ``.venv/bin/python -m tests.web.screenshots`` (writes
``docs/phone-page/*.png``). The same table as the browser tests: the demo's
first hand with one tile misread on purpose, fixed on the page.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from .conftest import CHROMIUM, MISREAD, DemoTable

OUT = Path(__file__).resolve().parents[2] / "docs" / "phone-page"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with DemoTable(Path(tempfile.mkdtemp()), misread=MISREAD) as table, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=1, has_touch=True,
                                is_mobile=True)
        page.goto(table.url + "/")
        page.screenshot(path=str(OUT / "1-live-table.png"))
        page.locator("section.seat", has=page.locator("h2", has_text="Ben")).scroll_into_view_if_needed()
        page.screenshot(path=str(OUT / "2-live-seats.png"))
        page.goto(table.url + "/hand")
        page.get_by_label("Table PIN (shown on the display)").fill(table.pin)
        page.get_by_role("button", name="Unlock changes").click()
        expect(page.locator("#pin-state")).to_have_text("Changes allowed")
        page.get_by_role("button", name="6 circles, Hand (tap to change)").click()
        page.screenshot(path=str(OUT / "3-pick-a-tile.png"))
        page.locator("dialog#picker").get_by_role("button", name="5 circles", exact=True).click()
        expect(page.locator("#score-total")).to_be_visible()
        page.locator("#score").scroll_into_view_if_needed()
        page.screenshot(path=str(OUT / "4-fixed-hand-score.png"))
        page.get_by_role("button", name="Confirm hand").click()
        page.wait_for_url(table.url + "/scores")
        expect(page.locator(".hand-row")).to_have_count(1)
        page.screenshot(path=str(OUT / "5-score-sheet.png"))
        page.goto(table.url + "/settings?lang=de")
        page.screenshot(path=str(OUT / "6-settings-de.png"))
        browser.close()
    print("\n".join(str(p) for p in sorted(OUT.glob("*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
