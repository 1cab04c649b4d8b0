"""Latency of one calibrated 4608x2592 still, file to recognition JSON, on one core.

    python benchmarks/vision_latency.py [--runs 15] [--image STILL.jpg --calibration CAL.json]
    python benchmarks/vision_latency.py --photos 1.8,2.2,3.0,3.5,4.0 [--every 5] [--runs 3]

Without --image a scoring-time table is rendered once (seed 7, held-out look)
in a child process, so the renderer's memory does not count. Prints the
median time per stage and in total, and the process's peak memory.

--photos: the held-out real photos (photos-real, as ``vision_accuracy.py``
lays them on a mat) as 12 MP stills with tiles of each size, every
``--every``-th of them, each timed ``--runs`` times after one untimed
call; prints the median, 90th percentile and slowest still of each size.
Why: a rendered table's tiles lie in neat rows and read surely, while
real photos hold strewn discards, clutter and tiles at a slant, which cost
the closer looks and re-reads a rendered table never asks for.
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


def photo_latency(sizes: list[float], every: int, runs: int) -> list[dict]:
    """Per tile size: the median, 90th percentile and slowest of the held-out real photos' stills (see --photos)."""
    import cv2
    cv2.setNumThreads(1)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from vision_accuracy import laid_photo, write_still
    from tablemate.vision.recognize import recognize_image
    from tablemate.vision.train import photos_real
    photos = photos_real.load()
    if not photos:
        print(f"real photos: not found at {photos_real.root()} (docs/training.md says where they go)")
        return []
    _, hold = photos_real.split(photos)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            times = []
            for k, photo in enumerate(hold):
                if k % every:
                    continue
                img, cal, _ = laid_photo(photo, k, size)
                path, cpath = write_still(img, cal, tmp)
                recognize_image(str(path), str(cpath))  # untimed: the first call loads and checks the models
                ts = []
                for _ in range(runs):
                    t0 = time.perf_counter()
                    json.dumps(recognize_image(str(path), str(cpath)))
                    ts.append(time.perf_counter() - t0)
                times.append((statistics.median(ts) * 1000, photo.image.name))
            ms = sorted(t for t, _ in times)
            slowest = max(times)
            r = {"tile_cm": size, "stills": len(ms), "runs_each": runs, "median_ms": round(statistics.median(ms), 1),
                 "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1), "max_ms": round(slowest[0], 1),
                 "slowest": slowest[1], "over_300_ms": sum(t > 300 for t in ms)}
            out.append(r)
            print(f"held-out real photos at {size} cm on 85 cm, {r['stills']} stills (every {every}th), median of "
                  f"{runs} each: median {r['median_ms']:.0f} ms, p90 {r['p90_ms']:.0f} ms, slowest {r['max_ms']:.0f} ms "
                  f"({r['slowest']}), {r['over_300_ms']} over 300 ms",
                  flush=True)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, help="timed calls per still (default 15; with --photos 3)")
    ap.add_argument("--image")
    ap.add_argument("--calibration")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--photos", help="tile sizes (cm on 85 cm, comma-separated): time held-out real photos instead")
    ap.add_argument("--every", type=int, default=5, help="with --photos: every N-th held-out photo (default 5)")
    a = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    os.environ["OMP_NUM_THREADS"] = "1"
    if a.photos:
        res = photo_latency([float(v) for v in a.photos.split(",")], a.every, a.runs or 3)
        if a.json:
            Path(a.json).write_text(json.dumps(res, indent=2) + "\n")
        return
    a.runs = a.runs or 15
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
