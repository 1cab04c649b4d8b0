"""Latency of one calibrated 4608x2592 still, file to recognition JSON, on one core.

    python benchmarks/vision_latency.py [--runs 15] [--image STILL.jpg --calibration CAL.json]

Without --image a scoring-time table is rendered once (seed 7, held-out look)
in a child process, so the renderer's memory does not count. Prints the
median time per stage and in total, and the process's peak memory.
Not a pass/fail test; the target is <= 300 ms in total.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def render_still(out_dir: Path) -> tuple[Path, Path]:
    code = (
        "import json, cv2, numpy as np\n"
        "from tablemate.vision.render import random_layout, render_scene\n"
        "img, gt, cal = render_scene(random_layout(np.random.default_rng(7), 'scoring'), 7, family='holdout')\n"
        f"cv2.imwrite({str(out_dir / 'still.jpg')!r}, img, [cv2.IMWRITE_JPEG_QUALITY, 92])\n"
        f"open({str(out_dir / 'still.cal.json')!r}, 'w').write(json.dumps(cal))\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    return out_dir / "still.jpg", out_dir / "still.cal.json"


def peak_rss_mb() -> float:
    """This process's own peak resident memory, MB.

    Why not ``getrusage`` alone: on Linux its ``ru_maxrss`` survives ``exec``, so
    a benchmark started from a big process (``vision_accuracy.py`` after its
    photos and renders) would report its parent's peak. ``VmHWM`` belongs to
    the process's own address space, which ``exec`` made new.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--image")
    ap.add_argument("--calibration")
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    os.environ["OMP_NUM_THREADS"] = "1"
    tmp = tempfile.TemporaryDirectory()
    if a.image:
        image, cal = Path(a.image), Path(a.calibration) if a.calibration else None
    else:
        image, cal = render_still(Path(tmp.name))
    rss_before = peak_rss_mb()
    import cv2
    cv2.setNumThreads(1)
    from tablemate.vision.recognize import recognize_image

    stages: dict[str, list[float]] = {}
    totals = []
    for i in range(a.runs + 1):
        tm: dict[str, float] = {}
        t0 = time.perf_counter()
        rec = recognize_image(str(image), str(cal) if cal else None, timings=tm)
        text = json.dumps(rec)
        total = time.perf_counter() - t0
        if i == 0:
            continue  # warm-up: loads and checks the models
        totals.append(total)
        for k, v in tm.items():
            stages.setdefault(k, []).append(v)
    peak_mb = peak_rss_mb()
    res = {"image": str(image), "runs": a.runs, "tiles": len(rec["tiles"]), "json_bytes": len(text),
           "median_ms": {k: round(statistics.median(v) * 1000, 1) for k, v in stages.items()},
           "median_total_ms": round(statistics.median(totals) * 1000, 1),
           "p90_total_ms": round(sorted(totals)[int(0.9 * (len(totals) - 1))] * 1000, 1),
           "peak_rss_mb": round(peak_mb, 1), "rss_before_mb": round(rss_before, 1)}
    print(f"recognition of {res['image']} ({res['tiles']} tiles), {a.runs} runs on one core")
    for k, v in res["median_ms"].items():
        print(f"  {k:<10} {v:8.1f} ms")
    print(f"  {'total':<10} {res['median_total_ms']:8.1f} ms median, {res['p90_total_ms']:.1f} ms p90 (target <= 300)")
    print(f"  peak memory (process RSS) {res['peak_rss_mb']:.0f} MB")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
