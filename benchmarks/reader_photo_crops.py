"""The readers alone on real photo crops: the photos they were trained on against held-out ones.

    python benchmarks/reader_photo_crops.py [--train-photos 200] [--models DIR] [--json OUT.json]

Why: end to end, real photos lose most tiles to reading (docs/training.md,
"Crops cut from the detector's own outlines"). This says why in about a
minute, against the twelve of ``vision_accuracy.py --only photos``: each
labelled tile of a photo is cut exactly as the training data cuts its photo
crops (``train.data._photo_crops``: shrunk to a camera's resolution, the
label's box straightened and jittered), once from training photos and once
from the held-out fifth (split by source photo, never trained on). A reader
that reads its training crops far better than held-out ones knows those
photos, not real tiles. The held-out crops are read once more blurred to 0.6
of their resolution: if that costs little, a reader with a larger input
would not read more; and once more cut along outlines off the tile
(``train.data.off_outline``: a fifth to a third of a tile off, up to 1.35
times its size), as the detector outlines tiles in slanted rows and thick
tiles with their side. Last, how the held-out misreads spread over the source
photos: bunched in a few, they point to sets or views training lacks.

Printed per reader: the first (``tile_reader_int8.onnx``, which reads
every crop without a learned set; since 2026-11-29 not the float
``tile_reader.onnx`` of sets quantized, but a reader gone on from it), the
deep reader (``tile_reader_deep.onnx``), the reader on ImageNet features
(``tile_reader_lite.onnx``) and all together as recognition asks them
(``models.run_reader``: the first reader, the deep and lite ones where it is
unsure). Figures to read, not a test: the exit status
is 0 either way.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from tablemate.vision import models
from tablemate.vision.contract import READER_CLASSES, reader_blob
from tablemate.vision.train import data, photos_real

BLUR = 0.6  # the held-out crops' resolution, shrunk and grown back


def crops_of(photos: list, off: bool = False) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """One pass of training-style reader crops over ``photos``: (BGR crops, class indices, source photos).

    ``off``: cut along outlines off the tile (``train.data.off_outline``)."""
    xs, ys, src = [], [], []
    for i, photo in enumerate(photos):
        x, y, _ = data._photo_crops(i, photos, off=off)
        xs.append(x)
        ys.append(y)
        src += [photo.source_photo] * len(y)
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64), src


def blurred(xs: np.ndarray, f: float) -> np.ndarray:
    h, w = xs.shape[1:3]
    small = (max(1, round(w * f)), max(1, round(h * f)))
    return np.stack([cv2.resize(cv2.resize(c, small, interpolation=cv2.INTER_AREA), (w, h),
                                interpolation=cv2.INTER_LINEAR) for c in xs])


def batched(read, blob: np.ndarray) -> np.ndarray:
    """``read`` (a batch of reader input -> face probabilities) over ``blob`` in batches of 512, as the crop
    benchmarks send them."""
    return np.concatenate([read(blob[i:i + 512]) for i in range(0, len(blob), 512)])


def alone(name: str, models_dir=None):
    """The reader ``name`` by itself, as ``batched`` asks a reader."""
    sess = models.session(name, models_dir)
    return lambda b: sess.run(["probs"], {"crops": b})[0]


def readings(xs: np.ndarray, models_dir=None) -> dict[str, np.ndarray]:
    """Each reader's face probabilities for BGR crops, in batches as recognition sends them."""
    blob = reader_blob(list(xs))
    readers = {"first": models.READER_INT8, "deep": models.DEEP_READER, "lite": models.LITE_READER}
    out = {key: batched(alone(name, models_dir), blob) for key, name in readers.items()}
    out["together"] = batched(lambda b: models.run_reader(b, models_dir)[0], blob)
    return out


def figures(xs: np.ndarray, ys: np.ndarray, sources: list[str], models_dir=None) -> dict:
    """Each reader's share read right, the misreads together, and how they spread over the source photos.

    Why the spread: misreads bunched in a few photos point to sets or views
    the training photos lack; spread over many, to the reader itself.
    """
    r = readings(xs, models_dir)
    res = {k: float(np.mean(p.argmax(1) == ys)) for k, p in r.items()}
    pred = r["together"].argmax(1)
    res["tiles"] = int(len(ys))
    res["confusions"] = dict(Counter(f"{READER_CLASSES[t]}->{READER_CLASSES[p]}"
                                     for t, p in zip(ys, pred) if t != p).most_common(10))
    per_photo = Counter({s: 0 for s in sources})
    per_photo.update(s for s, t, p in zip(sources, ys, pred) if t != p)
    worst = per_photo.most_common()
    res["source_photos"] = len(worst)
    res["source_photos_without_misread"] = sum(1 for _, n in worst if n == 0)
    res["misreads_per_source_photo"] = [n for _, n in worst if n]
    return res


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train-photos", type=int, default=200, help="training images to cut (default 200)")
    ap.add_argument("--models", help="a folder with the models of models/ and their .sha256 files")
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args(argv)
    train, hold = photos_real.split(photos_real.load())
    train = train[:a.train_photos]
    tx, ty, ts = crops_of(train)
    hx, hy, hs = crops_of(hold)
    ox, oy, os_ = crops_of(hold, off=True)
    res = {"training": figures(tx, ty, ts, a.models), "held_out": figures(hx, hy, hs, a.models),
           f"held_out_at_{BLUR}": figures(blurred(hx, BLUR), hy, hs, a.models),
           "held_out_off_outline": figures(ox, oy, os_, a.models),
           "images": {"training": len(train), "held_out": len(hold)}}
    print("readers alone on real photo crops, cut as the training data cuts them (first / deep / lite / together):")
    for key, what in (("training", f"training photos ({len(train)} images)"),
                      ("held_out", f"held-out photos ({len(hold)} images)"),
                      (f"held_out_at_{BLUR}", f"held-out photos at {BLUR} of the resolution"),
                      ("held_out_off_outline", "held-out photos cut off the tile")):
        r = res[key]
        print(f"  {what}, {r['tiles']} tiles: {r['first']:.4f} / {r['deep']:.4f} / {r['lite']:.4f} / "
              f"{r['together']:.4f}")
    h = res["held_out"]
    print(f"  held-out misreads (together): {h['confusions']}")
    n = h["misreads_per_source_photo"]
    print(f"  held-out misreads by source photo: {h['source_photos_without_misread']} of {h['source_photos']} "
          f"photos have none; the worst two hold {sum(n[:2])} of {sum(n)} ({n[:10]} ...)")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
