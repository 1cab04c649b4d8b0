"""Phone page figures (never pass/fail): page weight, first paint, frame -> page latency, memory.

Why these four: issue #13 sets page weight <= 200 KB, first paint on a
Pi-class core <= 1 s, frame -> page update <= 1 s and the appliance with the
page <= 350 MB RSS. How each is measured:

- page weight: response bodies (HTML + CSS + JS + the frame JPEG) of each page as one browser
  context loads it fresh, the server-sent event stream left out;
- first paint: the page's own ``first-contentful-paint`` entry (a PerformanceObserver; Debian's
  headless chromium reports paint entries), 360x740, with the DevTools CPU throttling rate 4 (a Pi 4
  core is about a quarter of this machine's core for a browser's single-threaded work); the first
  load has an empty cache, the others find CSS and JS cached;
- frame -> page: ``tablemate demo --web`` in replay mode (the appliance in play, its FileCamera
  looping over the last hand's frames, one a second, ground-truth vision so the figure is the
  page's share and not the models'). For each new frame, from the moment the loop stored it
  (``Seen.at``, wall clock) to the moment the page's live section shows that frame (the page's
  own SSE client has replaced the section; ``Date.now()`` in the page, same machine clock), also
  at 4x CPU throttling;
- memory: ``tablemate demo --web`` as its own process with the models' real vision (the cached
  session, so no rendering), its peak RSS (``VmHWM``) after vision read the hand and a browser
  used every page and followed the live table.

    nice -n 19 taskset -c 0 .venv/bin/python benchmarks/page.py
"""
from __future__ import annotations

import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.conftest import CHROMIUM, DemoTable, free_port  # noqa: E402

PAGES = ("/", "/hand", "/scores", "/settings")
FCP = """() => new Promise((done) => {
  const seen = (list) => { const e = list.getEntries().find((x) => x.name === 'first-contentful-paint');
                           if (e) done(e.startTime); };
  new PerformanceObserver(seen).observe({type: 'paint', buffered: true});
  setTimeout(() => done(null), 5000);
})"""
WATCH = """() => { window.shown = [];
  document.addEventListener('tm:update', (e) => {
    const img = e.detail.querySelector('svg image');
    const m = img && /v=(\\d+)/.exec(img.getAttribute('href'));
    if (m) window.shown.push([Number(m[1]), Date.now()]);
  }); }"""


def weights_and_paint(browser, url: str) -> tuple[dict, list, list]:
    weights = {}
    for path in PAGES:
        ctx = browser.new_context(viewport={"width": 360, "height": 740})  # an empty cache for each page
        page = ctx.new_page()
        sizes: list[int] = []
        page.on("requestfinished", lambda r: sizes.append(r.sizes()["responseBodySize"])
                if r.resource_type != "eventsource" else None)
        page.goto(url + path, wait_until="load")
        page.wait_for_timeout(500)
        weights[path] = sum(sizes)
        ctx.close()
    cold, warm = [], []
    for n in range(6):
        if n == 0 or n == 3:  # an empty cache twice
            ctx = browser.new_context(viewport={"width": 360, "height": 740})
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.goto(url + "/", wait_until="load")
        (cold if n in (0, 3) else warm).append(page.evaluate(FCP))
        page.close()
        if n in (2, 5):
            ctx.close()
    return weights, cold, warm


def frame_to_page(browser, table: DemoTable, frames: int, throttle: int) -> list[float]:
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    page = ctx.new_page()
    if throttle > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(table.url + "/", wait_until="load")
    page.evaluate(WATCH)
    stored: dict[int, float] = {}
    stop = threading.Event()

    def note() -> None:  # every frame the loop stores, with the wall-clock time it was stored
        while not stop.is_set():
            seen = table.app.seen
            if seen is not None:
                stored.setdefault(seen.seq, seen.at)
            time.sleep(0.002)

    watcher = threading.Thread(target=note, daemon=True)
    watcher.start()
    end = time.monotonic() + frames * 1.5 + 10
    while time.monotonic() < end and len(page.evaluate("window.shown")) < frames:
        page.wait_for_timeout(200)
    stop.set()
    watcher.join()
    lags = [t / 1000 - stored[seq] for seq, t in page.evaluate("window.shown") if seq in stored]
    ctx.close()
    return lags


def peak_rss_with_real_vision(out: Path, browser) -> tuple[float, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tablemate.cli.main", "demo", "--out", str(out), "--hands", "1",
                             "--web", "--web-port", str(port), "--web-seconds", "60", "--pin", "2468"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("[demo] serving"):
                break
        url = f"http://127.0.0.1:{port}"
        ctx = browser.new_context(viewport={"width": 360, "height": 740})
        page = ctx.new_page()
        for path in PAGES * 2:
            page.goto(url + path, wait_until="load")
            page.wait_for_timeout(300)
        page.goto(url + "/")
        page.wait_for_timeout(5000)  # the live table follows the loop over SSE
        ctx.close()
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024
        proc.send_signal(signal.SIGINT)  # Ctrl-C: the demo ends and says what vision did
        lines += proc.stdout.readlines()
        read = next((ln.strip() for ln in lines if "vision read" in ln), "")
        return peak, read or "".join(lines[-3:]).strip()
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(30)


def main() -> int:
    out = Path(tempfile.mkdtemp())
    table = DemoTable(out, replay=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            weights, cold, warm = weights_and_paint(browser, table.url)
            lags = frame_to_page(browser, table, 15, 1)
            slow = frame_to_page(browser, table, 10, 4)
            table.close()
            rss, vision = peak_rss_with_real_vision(out, browser)  # the session is cached in `out` now
            browser.close()
    finally:
        table.close()
    print("page weight (HTML+CSS+JS+frame JPEG, empty cache):",
          ", ".join(f"{k} {v / 1024:.0f} KB" for k, v in weights.items()))
    print(f"first contentful paint at 4x CPU throttling, 360x740: empty cache {', '.join(f'{c:.0f}' for c in cold)} ms; "
          f"cached CSS/JS median {statistics.median(warm):.0f} ms, max {max(warm):.0f} ms ({len(warm)} loads)")
    for name, got in (("", lags), (" at 4x CPU throttling", slow)):
        if got:
            print(f"frame -> page{name} (frame stored by the loop -> the page's live section shows it): "
                  f"median {statistics.median(got) * 1000:.0f} ms, max {max(got) * 1000:.0f} ms ({len(got)} frames)")
        else:
            print(f"frame -> page{name}: no frame reached the page while measuring")
    print(f"appliance + page (tablemate demo --web, real vision), peak RSS: {rss:.0f} MB  [{vision}]")
    print(f"this machine: {os.cpu_count()} cores, measured under: {' '.join(sys.argv) or 'benchmarks/page.py'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
