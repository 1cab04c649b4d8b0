"""Phone page figures (never pass/fail): page weight, first paint, frame -> page latency, memory.

Runs ``tablemate demo --web`` (one hand, ground-truth vision, so the
figures are the page's and not the models') on 127.0.0.1 and measures:

- page weight: HTML + CSS + JS + the frame JPEG of each page, response bodies as one browser context loads
  them in turn (the first page carries the shared CSS and JS; later pages find them cached);
- first paint: Debian's chromium through Playwright with the DevTools CPU throttling rate 4 (a Pi 4
  core is about a quarter of this machine's x86 core for a browser's single-threaded work), 360x740;
- frame -> page: from the loop taking a new camera image (``Seen.at``) to the page's live
  section showing that version (SSE), over consecutive frames of the demo's table;
- RSS of this process (the appliance, vision and the page server run in it) after the page was used.

    .venv/bin/python benchmarks/page.py
"""
from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.conftest import CHROMIUM, DemoTable  # noqa: E402


def main() -> int:
    table = DemoTable(Path(tempfile.mkdtemp()))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            ctx = browser.new_context(viewport={"width": 360, "height": 740})
            page = ctx.new_page()
            weights = {}
            for path in ("/", "/hand", "/scores", "/settings"):
                fresh = ctx.new_page()
                sizes: list[int] = []
                fresh.on("requestfinished", lambda r: sizes.append(r.sizes()["responseBodySize"])
                         if r.resource_type != "eventsource" else None)
                fresh.goto(table.url + path, wait_until="load")
                fresh.wait_for_timeout(300)
                weights[path] = sum(sizes)
                fresh.close()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            paints = []
            for _ in range(5):
                page.goto(table.url + "/", wait_until="load")
                fcp = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || "
                                    "{startTime: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd})"
                                    ".startTime")
                paints.append(fcp)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            page.goto(table.url + "/")
            app = table.app
            lags = []
            end = time.monotonic() + 30
            last = app.seen.seq if app.seen else 0
            while len(lags) < 10 and time.monotonic() < end:
                seen = app.seen
                if seen is None or seen.seq == last:
                    time.sleep(0.005)
                    continue
                last = seen.seq
                v = app.version
                while time.monotonic() < end:
                    got = page.locator("#live").get_attribute("data-version")
                    if got and int(got) >= v:
                        lags.append(time.time() - seen.at)
                        break
                    time.sleep(0.01)
            browser.close()
    finally:
        table.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("page weight (HTML+CSS+JS+frame, bytes):", ", ".join(f"{k} {v / 1024:.0f} KB" for k, v in weights.items()))
    print(f"first contentful paint (or DOMContentLoaded where headless reports none) at 4x CPU throttling: median {statistics.median(paints):.0f} ms, "
          f"max {max(paints):.0f} ms ({len(paints)} loads)")
    if not lags:
        print("frame -> page: no new frame while measuring (the demo's last hand waits on the score screen, "
              "where the loop reads no frames)")
    if lags:
        print(f"frame -> page (live section shows the frame's version): median {statistics.median(lags) * 1000:.0f} ms, "
              f"max {max(lags) * 1000:.0f} ms ({len(lags)} frames, the demo looks once a second)")
    print(f"appliance + page process, peak RSS: {rss:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
