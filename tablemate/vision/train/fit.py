"""Train a model on the rendered data and export it to ONNX in models/.

    python -m tablemate.vision.train.fit reader   --data /tmp/tm_data --minutes 30
    python -m tablemate.vision.train.fit bonus    --data /tmp/tm_data --minutes 30
    python -m tablemate.vision.train.fit detector --data /tmp/tm_data --minutes 30
    python -m tablemate.vision.train.fit reader   --data /tmp/tm_data --smoke   # CI: one step

Why a time budget instead of epochs: the machine is a shared 2-core CPU;
a budget makes the cost of reproducing a model predictable. Seeds are fixed.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import time
from pathlib import Path

import numpy as np

from tablemate.vision.contract import (BONUS_CLASSES, BONUS_H, BONUS_W, DET_CLASSES, DET_INPUT, DET_SIZE, DET_STRIDE,
                                       READ_H, READ_W, READER_CLASSES, SIZE_SCALE)
from tablemate.vision.datasets import data_dir
from tablemate.vision.render.faces import real_photo_index, split_real

from .stable_numbers import name_number

MODELS = Path(__file__).resolve().parents[3] / "models"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _set_meta(path: Path, meta: dict) -> None:
    """Store the contract in the ONNX metadata (replacing a key already there); record the sha256 beside the file."""
    import onnx
    m = onnx.load(str(path))
    for k, v in meta.items():
        for old in [p for p in m.metadata_props if p.key == k]:
            m.metadata_props.remove(old)
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(path))
    path.with_name(path.name + ".sha256").write_text(f"{sha256(path)}  {path.name}\n")


# ------------------------------------------------------------------ reader

def _real_crops(rng: np.random.Generator, copies: int, size: tuple[int, int] = (READ_W, READ_H),
                classes: tuple[str, ...] = READER_CLASSES, other_copies: int = 0,
                required: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Training-split real photos, padded like a detector crop and colour-jittered: (crops, labels, groups).

    With ``classes`` = BONUS_CLASSES, bonus tiles get ``copies`` copies and
    every other tile ``other_copies``, labelled ``other``. Without the photos
    (tiles-real) a real training run stops with a message saying where they
    go; a smoke run (``required=False``) goes on with none, as a clean clone
    in CI has no data sets. Every copy of one tile photo carries that photo's
    group (``validation_split``).
    """
    import cv2
    train, _ = split_real(real_photo_index())
    xs, ys, gs = [], [], []
    for code, paths in train.items():
        if code in classes:
            label = classes.index(code)
            # Bonus tiles have fewer photos and the most varied faces: three times the copies.
            n_copies = copies * 3 if code.startswith("h") and classes is READER_CLASSES else copies
        else:
            label, n_copies = classes.index("other"), other_copies
        for p in paths:
            im = cv2.imread(str(p))
            for _ in range(n_copies):
                bg = rng.uniform(20, 160, 3)
                mx, my = int(im.shape[1] * 0.1), int(im.shape[0] * 0.1)
                pad = np.empty((im.shape[0] + 2 * my, im.shape[1] + 2 * mx, 3), np.float32)
                pad[:] = bg
                pad[my:-my, mx:-mx] = im
                dx, dy = rng.normal(0, 0.05, 2) * [im.shape[1], im.shape[0]]
                s = 1 + rng.normal(0, 0.04)
                ang = rng.normal(0, 2.5)
                m = cv2.getRotationMatrix2D((pad.shape[1] / 2, pad.shape[0] / 2), ang, s)
                m[:, 2] += (dx, dy)
                pad = cv2.warpAffine(pad, m, (pad.shape[1], pad.shape[0]), borderMode=cv2.BORDER_REPLICATE)
                xs.append(cv2.resize(pad, size, interpolation=cv2.INTER_AREA).astype(np.uint8))
                ys.append(label)
                gs.append(TILE_PHOTO_GROUPS + name_number(p.name, 0, 5))
    if not xs:
        if required:
            raise SystemExit(f"tiles-real not found at {data_dir('tiles-real')}: docs/training.md says where it goes")
        return np.zeros((0, size[1], size[0], 3), np.uint8), np.zeros(0, np.int16), np.zeros(0, np.int64)
    return np.stack(xs), np.array(ys, np.int16), np.array(gs, np.int64)


#: Group numbers of the tile photos (tiles-real) lie from here on, above the photos' (``photos_real.photo_group``).
TILE_PHOTO_GROUPS = 1 << 50
VALIDATION_SHARE = 1 / 12
WARMUP = 0.03  # reader-lite: the share of the budget over which the learning rate rises to its peak


def validation_split(groups: np.ndarray, rng: np.random.Generator,
                     share: float = VALIDATION_SHARE) -> tuple[np.ndarray, np.ndarray]:
    """(validation, training) indices: whole groups on one side, by a hash of the group's number.

    Why: a crop's group is the rendered scene or the photo it was cut from,
    and a photo gives up to fifteen crops of each tile (three versions, five
    passes; each tile photo twenty copies). Split crop by crop, nearly every
    validation crop has a twin in training, and the validation accuracy says
    how well the reader remembers, not how well it reads: the deep readers
    scored 95-98 % there and 95.6-96.0 % on held-out photos' crops. Groups of -1 (data
    written before groups existed) are split crop by crop, and so is a set
    too small for whole groups to leave both sides some crops (a smoke run).
    """
    groups = np.asarray(groups, np.int64)
    loose = groups < 0
    keys = np.unique(groups[~loose]).tolist()
    held = [k for k in keys if name_number(b"val:%d" % k, 0, 4) < share * 2 ** 32]
    back = np.isin(groups, held) | (loose & (rng.random(len(groups)) < share))
    if back.all() or not back.any():
        back = np.zeros(len(groups), bool)
        back[rng.permutation(len(groups))[:max(1, len(groups) // 12)]] = True
    return np.flatnonzero(back), np.flatnonzero(~back)


def _augment(xb, rng, torch, colour_swap: float = 0.0):
    """Photometric jitter on a float batch (N,3,H,W) in 0..1.

    ``colour_swap``: the share of crops whose colour channels are permuted or
    that lose their colour, so the reader learns shapes, not inks: tile sets
    print the same face in red, green, blue or black, and a held-out set's
    flower must not be read by its colour.
    """
    n = xb.shape[0]
    if colour_swap:
        for j in np.nonzero(rng.random(n) < colour_swap)[0]:
            if rng.random() < 0.3:
                xb[j] = xb[j].mean(0, keepdim=True).expand(3, -1, -1)
            else:
                xb[j] = xb[j][torch.from_numpy(rng.permutation(3))]
    gain = torch.from_numpy(rng.uniform(0.75, 1.25, (n, 3, 1, 1)).astype(np.float32))
    bright = torch.from_numpy(rng.uniform(-0.12, 0.12, (n, 1, 1, 1)).astype(np.float32))
    xb = xb * gain + bright
    xb = xb + torch.randn_like(xb) * float(rng.uniform(0, 0.03))
    return xb.clamp(0, 1)


def _crops_tensor(a: np.ndarray, torch):
    """BGR uint8 crops (N,H,W,3) -> float RGB NCHW in 0..1, as ``contract.reader_blob`` gives onnxruntime."""
    return torch.from_numpy(a[..., ::-1].astype(np.float32).transpose(0, 3, 1, 2) / 255.0)


def _cosine_step(opt, loss, peak_lr: float, t0: float, budget: float, warmup: float = 0.0) -> None:
    """One optimiser step, the learning rate cosine-annealed over the time budget (smoke: budget 0).

    ``warmup``: the share of the budget over which the rate first rises linearly to the peak.
    """
    frac = min(1.0, (time.time() - t0) / budget) if budget else 1.0
    rise = min(1.0, frac / warmup) if warmup else 1.0
    for g in opt.param_groups:
        g["lr"] = peak_lr * rise * 0.5 * (1 + np.cos(np.pi * frac))
    opt.zero_grad()
    loss.backward()
    opt.step()


def _fit_temperature(logits, yv, F) -> float:
    """The softmax temperature with the least validation NLL, so confidences mean what they say."""
    best_t, best_nll = 1.0, 1e9
    for t in np.linspace(0.2, 3.0, 57):
        nll = float(F.cross_entropy(logits / t, yv))
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def _rotate_some(xs: np.ndarray, rng: np.random.Generator, share: float, degrees: float = 15.0) -> np.ndarray:
    """``share`` of the crops turned up to ``degrees`` either way in the image plane.

    Why: a tile lying askew on the table is cut along an outline that is not
    quite its own (the detector's outlines are upright in the play area,
    straightening finds most of the tilt, not all); real photos show it.
    """
    import cv2
    pick = np.nonzero(rng.random(len(xs)) < share)[0]
    if not len(pick):
        return xs
    xs = xs.copy()
    h, w = xs.shape[1:3]
    for j in pick:
        m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-degrees, degrees)), 1.0)
        xs[j] = cv2.warpAffine(xs[j], m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return xs


def _warp_some(xs: np.ndarray, rng: np.random.Generator, share: float, reach: float = 0.08) -> np.ndarray:
    """``share`` of the crops cut along a slightly wrong outline: each corner moved up to ``reach`` of a side.

    Why: the deep reader fits its training photos' crops almost perfectly
    (99.5 %) yet reads held-out photos' crops at 95.6 %
    (``benchmarks/reader_photo_crops.py``); the crops it memorised are five
    fixed cuts of each tile. A fresh, slightly wrong outline at every draw
    (shifted, scaled, sheared, seen a little in perspective) gives it more
    than five views. Measured: with ``_erase_some`` it barely narrowed that
    gap (docs/training.md, "Where the readers lose real tiles").
    """
    import cv2
    pick = np.nonzero(rng.random(len(xs)) < share)[0]
    if not len(pick):
        return xs
    xs = xs.copy()
    h, w = xs.shape[1:3]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    for j in pick:
        shift = rng.uniform(-reach, reach, 2) * (w, h)
        dst = (src + shift + rng.uniform(-reach, reach, (4, 2)) * (w, h)).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        xs[j] = cv2.warpPerspective(xs[j], m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return xs


def _erase_some(xb, rng: np.random.Generator, share: float):
    """``share`` of the crops with one small patch (3-12 % of the face) painted over in a flat colour.

    Why: a reader that leans on one stroke of a face misreads a set that
    draws that stroke otherwise, or a tile with a speck of glare or a finger
    on it; with part of the face gone it must read the rest. Patches stay
    small so no face becomes another.
    """
    n, _, h, w = xb.shape
    for j in np.nonzero(rng.random(n) < share)[0]:
        area = rng.uniform(0.03, 0.12) * h * w
        aspect = np.exp(rng.uniform(-0.7, 0.7))
        eh, ew = min(h, max(2, int(round((area * aspect) ** 0.5)))), min(w, max(2, int(round((area / aspect) ** 0.5))))
        y0, x0 = int(rng.integers(0, h - eh + 1)), int(rng.integers(0, w - ew + 1))
        xb[j, :, y0:y0 + eh, x0:x0 + ew] = float(rng.uniform(0, 1))
    return xb


def batch_weights(labels: np.ndarray, index: np.ndarray, rendered: int | None,
                  real_share: float | None) -> np.ndarray:
    """How likely each training crop is drawn into a batch (sums to 1).

    Bonus tiles twice as often: eight look-alike classes whose faces vary
    most between sets. With ``real_share``, crops at ``index >= rendered``
    (the data's photo crops, then the tile photos) make up that share of the
    draws; where the data has no real crops, or only real ones, the share
    cannot be kept and every crop is drawn alike (said once on stdout).
    """
    bonus = np.array([READER_CLASSES[k].startswith("h") for k in labels], bool)
    weights = np.where(bonus, 2.0, 1.0)
    if real_share is not None and rendered is not None:
        real = np.asarray(index) >= rendered
        if real.all() or not real.any():
            print(f"reader: --real-share {real_share} ignored: the training crops are all "
                  f"{'real' if real.all() else 'rendered'}", flush=True)
        else:
            weights[real] *= real_share / weights[real].sum()
            weights[~real] *= (1 - real_share) / weights[~real].sum()
    return weights / weights.sum()


def fit_reader(data: Path, minutes: float, smoke: bool, seed: int = 0, out_dir: Path = MODELS,
               deep: bool = False, init: Path | None = None, peak_lr: float = 3e-3, rotate: float = 0.0,
               real_share: float | None = None, warp: float = 0.0, erase: float = 0.0, lite: bool = False,
               variant: str = "lite0") -> dict:
    """The reader, or with ``deep`` the second, deeper reader (``tile_reader_deep.onnx``), on the same data.

    ``lite``: the reader on EfficientNet-Lite0 (``lite_reader``), started from
    its ImageNet weights, exported as
    ``tile_reader_lite.onnx``; its learning rate rises over the first
    ``WARMUP`` of the budget, so the new heads' first, random gradients do not
    wash out what the backbone learned. ``variant``: Lite1 or Lite2 in Lite0's
    place (tried, not shipped: docs/training.md, "Deeper ImageNet readers").

    ``init``: go on from that exported reader's weights (``warm_start``) rather
    than from scratch, usually with a lower ``peak_lr``. ``rotate``: the share
    of crops turned a little (``_rotate_some``). ``real_share``: the share of
    each batch drawn from real crops (photos and tile photos) when the data
    says which crops are rendered; otherwise every crop is drawn alike.
    ``warp``, ``erase``: the shares of crops cut along a slightly wrong
    outline (``_warp_some``) and with a patch painted over (``_erase_some``).
    """
    import cv2
    import torch
    import torch.nn.functional as F
    from .nets import DeepReader, Reader, ReaderExport
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    d = np.load(data / "reader.npz")
    x, y, flip = d["x"], d["y"].astype(np.int64), d["flip"].astype(np.int64)
    rendered = int(d["rendered"]) if "rendered" in d.files else None  # crops before it rendered, the rest real
    groups = d["group"] if "group" in d.files else np.full(len(y), -1, np.int64)
    rx, ry, rg = _real_crops(rng, 2 if smoke else 20, required=not smoke)
    x = np.concatenate([x, rx])
    y = np.concatenate([y, ry.astype(np.int64)])
    flip = np.concatenate([flip, np.zeros(len(ry), np.int64)])
    val, tr = validation_split(np.concatenate([groups, rg]), rng)
    print(f"reader: {len(tr)} train crops, {len(val)} validation", flush=True)
    weights = batch_weights(y[tr], tr, rendered, real_share)
    if lite:
        from .lite_reader import LiteReader, imagenet_weights, load_imagenet
        net = LiteReader(len(READER_CLASSES), variant)
        if not init:  # with ``init`` it goes on from its own export, in float (not the 8-bit file)
            print(f"reader-lite: {load_imagenet(net, imagenet_weights(variant))} {variant} ImageNet weights", flush=True)
    else:
        net = (DeepReader if deep else Reader)(len(READER_CLASSES))
    if init:
        from .warm_start import go_on_from
        go_on_from(net, init)
    opt = torch.optim.AdamW(net.parameters(), lr=peak_lr, weight_decay=1e-4)
    to_t = lambda a: _crops_tensor(a, torch)  # noqa: E731
    t0, step, bs = time.time(), 0, 128
    budget = 0 if smoke else minutes * 60
    while True:
        idx = rng.choice(tr, bs, p=weights)
        xs = x[idx]
        if rng.random() < 0.5:  # a blurrier, lower-resolution view of some crops
            xs = xs.copy()
            for j in np.nonzero(rng.random(bs) < 0.4)[0]:
                f = float(rng.uniform(1.3, 2.2))
                small = cv2.resize(xs[j], None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
                xs[j] = cv2.resize(small, (READ_W, READ_H), interpolation=cv2.INTER_LINEAR)
        if rotate:
            xs = _rotate_some(xs, rng, rotate)
        if warp:
            xs = _warp_some(xs, rng, warp)
        xb = _augment(to_t(xs), rng, torch, colour_swap=0.3)
        if erase:
            xb = _erase_some(xb, rng, erase)
        # Upside-down copies teach the flip head; crops already flipped in the data stay labelled.
        fb = torch.from_numpy(flip[idx])
        rot = torch.from_numpy(rng.random(bs) < 0.25)
        xb[rot] = torch.flip(xb[rot], dims=(2, 3))
        fb = torch.where(rot, 1 - fb, fb)
        face, fl = net(xb)
        loss = F.cross_entropy(face, torch.from_numpy(y[idx]), label_smoothing=0.02) + 0.5 * F.cross_entropy(fl, fb)
        _cosine_step(opt, loss, peak_lr, t0, budget, warmup=WARMUP if lite else 0.0)
        step += 1
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.4f} t {time.time() - t0:.0f}s", flush=True)
        if smoke or time.time() - t0 > budget:
            break
    net.eval()
    with torch.no_grad():
        logits, flips = [], []
        for i in range(0, len(val), 512):
            a, b = net(to_t(x[val[i:i + 512]]))
            logits.append(a)
            flips.append(b)
        logits = torch.cat(logits)
        flips = torch.cat(flips)
        yv = torch.from_numpy(y[val])
        acc = float((logits.argmax(1) == yv).float().mean())
        flip_acc = float((flips.argmax(1) == torch.from_numpy(flip[val])).float().mean())
        best_t = _fit_temperature(logits, yv, F)
    print(f"reader validation accuracy {acc:.4f} flip {flip_acc:.4f} temperature {best_t:.2f}", flush=True)
    name = "tile_reader_lite" if lite else "tile_reader_deep" if deep else "tile_reader"
    out = Path(out_dir) / (f"{name.removeprefix('tile_')}_smoke.onnx" if smoke else f"{name}.onnx")
    exp = ReaderExport(net, best_t).eval()
    torch.onnx.export(exp, torch.zeros(1, 3, READ_H, READ_W), str(out), input_names=["crops"],
                      output_names=["probs", "flip", "embedding"],
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}, "flip": {0: "n"}, "embedding": {0: "n"}},
                      opset_version=17, dynamo=False)
    _set_meta(out, {"classes": ",".join(READER_CLASSES), "input": f"RGB 0..1 NCHW {READ_H}x{READ_W}",
                    "temperature": f"{best_t:.3f}"})
    res = {"model": out.name, "steps": step, "train_crops": int(len(tr)), "val_crops": int(len(val)),
           "init": str(init) if init else None, "peak_lr": peak_lr, "rotate": rotate, "real_share": real_share,
           "warp": warp, "erase": erase, **({"variant": variant} if lite else {}),
           "val_accuracy": acc, "val_flip_accuracy": flip_acc, "temperature": best_t,
           "minutes": (time.time() - t0) / 60, "sha256": sha256(out)}
    if not smoke:
        (Path(out_dir) / f"{name}.train.json").write_text(json.dumps(res, indent=2) + "\n")
    return res


# ------------------------------------------------------------------ bonus reader


def fit_bonus(data: Path, minutes: float, smoke: bool, seed: int = 0, out_dir: Path = MODELS,
              init: Path | None = None, peak_lr: float = 3e-3) -> dict:
    """The bonus reader: h1..h8 or ``other`` from a full-resolution upright crop.

    Why lower-resolution copies too: a camera without full-resolution stills
    (a USB webcam) gives smaller tiles; the net should still do no worse than
    the reader there.
    """
    import cv2
    import torch
    import torch.nn.functional as F
    from .nets import BonusExport, BonusReader
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    d = np.load(data / "bonus.npz")
    x, y = d["x"], d["y"].astype(np.int64)
    groups = d["group"] if "group" in d.files else np.full(len(y), -1, np.int64)
    rx, ry, rg = _real_crops(rng, 2 if smoke else 60, size=(BONUS_W, BONUS_H), classes=BONUS_CLASSES,
                             other_copies=1 if smoke else 3, required=not smoke)
    x = np.concatenate([x, rx])
    y = np.concatenate([y, ry.astype(np.int64)])
    val, tr = validation_split(np.concatenate([groups, rg]), rng)
    print(f"bonus: {len(tr)} train crops, {len(val)} validation", flush=True)
    net = BonusReader(len(BONUS_CLASSES))
    if init:  # go on from an exported bonus reader (``warm_start``)
        from .warm_start import go_on_from
        go_on_from(net, init)
    opt = torch.optim.AdamW(net.parameters(), lr=peak_lr, weight_decay=1e-4)
    to_t = lambda a: _crops_tensor(a, torch)  # noqa: E731
    t0, step, bs = time.time(), 0, 96
    budget = 0 if smoke else minutes * 60
    while True:
        idx = rng.choice(tr, bs)
        xs = x[idx].copy()
        for j in np.nonzero(rng.random(bs) < 0.3)[0]:  # a blurrier, lower-resolution camera
            f = float(rng.uniform(1.3, 2.5))
            small = cv2.resize(xs[j], None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
            xs[j] = cv2.resize(small, (BONUS_W, BONUS_H), interpolation=cv2.INTER_LINEAR)
        xb = _augment(to_t(xs), rng, torch, colour_swap=0.3)
        loss = F.cross_entropy(net(xb), torch.from_numpy(y[idx]), label_smoothing=0.02)
        _cosine_step(opt, loss, peak_lr, t0, budget)
        step += 1
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.4f} t {time.time() - t0:.0f}s", flush=True)
        if smoke or time.time() - t0 > budget:
            break
    net.eval()
    with torch.no_grad():
        logits = torch.cat([net(to_t(x[val[i:i + 512]])) for i in range(0, len(val), 512)])
        yv = torch.from_numpy(y[val])
        acc = float((logits.argmax(1) == yv).float().mean())
        is_bonus = yv < BONUS_CLASSES.index("other")
        acc_bonus = float((logits.argmax(1) == yv)[is_bonus].float().mean()) if bool(is_bonus.any()) else 0.0
        best_t = _fit_temperature(logits, yv, F)
    print(f"bonus validation accuracy {acc:.4f} (bonus tiles {acc_bonus:.4f}) temperature {best_t:.2f}", flush=True)
    out = Path(out_dir) / ("bonus_smoke.onnx" if smoke else "tile_bonus.onnx")
    torch.onnx.export(BonusExport(net, best_t).eval(), torch.zeros(1, 3, BONUS_H, BONUS_W), str(out),
                      input_names=["crops"], output_names=["probs"],
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}}, opset_version=17, dynamo=False)
    _set_meta(out, {"classes": ",".join(BONUS_CLASSES), "input": f"RGB 0..1 NCHW {BONUS_H}x{BONUS_W}",
                    "temperature": f"{best_t:.3f}"})
    res = {"model": out.name, "steps": step, "train_crops": int(len(tr)), "val_crops": int(len(val)),
           "init": str(init) if init else None, "peak_lr": peak_lr,
           "val_accuracy": acc, "val_accuracy_bonus_tiles": acc_bonus, "temperature": best_t,
           "minutes": (time.time() - t0) / 60, "sha256": sha256(out)}
    if not smoke:
        (Path(out_dir) / "tile_bonus.train.json").write_text(json.dumps(res, indent=2) + "\n")
    return res


# ------------------------------------------------------------------ detector

def _targets(boxes: np.ndarray, out: int, ox: float, oy: float, k: int, crop: int):
    """Heatmap, size, orientation and mask targets for one crop at stride 4."""
    heat = np.zeros((len(DET_CLASSES), out, out), np.float32)
    size = np.zeros((2, out, out), np.float32)
    orient = np.full((out, out), -1, np.int64)
    ys, xs = np.mgrid[0:out, 0:out].astype(np.float32)
    for cx, cy, w, h, o, c in boxes:
        x, y = cx - ox, cy - oy
        # rotate by k quarter turns (np.rot90 convention, counter-clockwise on screen)
        for _ in range(k):
            x, y = y, crop - 1 - x
            o = (o + 3) % 4
        gx, gy = x / DET_STRIDE, y / DET_STRIDE
        if not (-1 <= gx < out + 1 and -1 <= gy < out + 1):
            continue
        sig = max(0.6, min(w, h) / DET_STRIDE / 5)
        g = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sig * sig))
        heat[int(c)] = np.maximum(heat[int(c)], g)
        ix, iy = int(round(gx)), int(round(gy))
        for jy in range(iy - 1, iy + 2):
            for jx in range(ix - 1, ix + 2):
                if 0 <= jx < out and 0 <= jy < out:
                    size[:, jy, jx] = (w / SIZE_SCALE, h / SIZE_SCALE)
                    orient[jy, jx] = int(o)
        if 0 <= ix < out and 0 <= iy < out:
            heat[int(c), iy, ix] = 1.0
    return heat, size, orient


ZOOM = (0.7, 1.6)  # detector crops are seen this much smaller or larger
STRETCH = 1.6      # ... and, with ``stretch``, one axis up to this much longer than the other
#: With ``renorm``, the folded norms' statistics are measured on this many batches of training crops.
RENORM_BATCHES = 32
#: With ``closer``, crops zoomed so the scene's typical tile is this long (pixels), about as long as a still's closer
#: look shows tiles to the detector (``recognize.WIDE_LOOK``: those under 34 shown 40 long, the longest tenth at most
#: 38; longer ones left as they are).
CLOSER_LENGTH = (32.0, 48.0)


def stretched_boxes(bx: np.ndarray, zx: float, zy: float) -> np.ndarray:
    """Tile boxes (cx, cy, across, along, orient, class) of a crop grown ``zx`` across and ``zy`` down.

    A tile whose face points up or down (orient 0, 2) has its across side on
    the image's x axis; one turned a quarter (1, 3) has it on the y axis.
    """
    bx = bx.copy()
    bx[:, 0] *= zx
    bx[:, 1] *= zy
    side = bx[:, 4].astype(int) % 2 == 1
    bx[:, 2] *= np.where(side, zy, zx)
    bx[:, 3] *= np.where(side, zx, zy)
    return bx


def detector_crop(img: np.ndarray, boxes, rng: np.random.Generator, crop: int, stretch: float = 0.0,
                  closer: float = 0.0):
    """A ``crop``-pixel square drawn from a training scene: (image, its tile boxes, (left, top), (zoom across, down)).

    60 % of crops are zoomed ``ZOOM`` (tiles met smaller or larger than drawn); ``stretch`` of them
    are grown along one axis up to ``STRETCH`` times more than along the other. ``closer``: the share
    of crops zoomed instead so the scene's typical tile is ``CLOSER_LENGTH`` long. Why: a still's
    closer look shows small tiles enlarged to that length from fewer pixels (1.8 cm tiles from 23 of
    a 12 MP still's working picture), and ``ZOOM`` shows the smallest drawn tiles at most 1.6 times
    enlarged, so the detector met such tiles rarely.
    """
    import cv2
    side = img.shape[0]
    bx = np.array(boxes, np.float32).reshape(-1, 6)  # a copy (np.array copies), moved into the crop below
    if closer and len(bx) and rng.random() < closer:
        z = float(rng.uniform(*CLOSER_LENGTH)) / float(np.median(np.maximum(bx[:, 2], bx[:, 3])))
    else:
        z = float(np.exp(rng.uniform(np.log(ZOOM[0]), np.log(ZOOM[1])))) if rng.random() < 0.6 else 1.0
    zx = zy = z
    if stretch and rng.random() < stretch:
        f = float(np.exp(rng.uniform(0, np.log(STRETCH))))
        zx, zy = (z * f, z) if rng.random() < 0.5 else (z, z * f)
    sw, sh = min(side, int(round(crop / zx))), min(side, int(round(crop / zy)))
    zx, zy = crop / sw, crop / sh
    ox, oy = int(rng.integers(0, side - sw + 1)), int(rng.integers(0, side - sh + 1))
    im = np.ascontiguousarray(img[oy:oy + sh, ox:ox + sw])
    if (sw, sh) != (crop, crop):
        im = cv2.resize(im, (crop, crop), interpolation=cv2.INTER_AREA if min(zx, zy) < 1 else cv2.INTER_LINEAR)
    bx[:, :2] -= [ox, oy]
    return im, stretched_boxes(bx, zx, zy), (ox, oy), (zx, zy)


def _known(rect: np.ndarray, ox: float, oy: float, zoom: tuple[float, float], k: int, out: int,
           heat: np.ndarray) -> np.ndarray:
    """Where the heat loss may count a cell as background: everywhere but an unlabelled photo's inside.

    Inside a real photo only its labelled tiles (their heat's footprint) are
    known; other tiles there carry no label and must not be taught as mat.
    ``zoom``: the crop's zoom (across, down), as ``detector_crop`` gives it.
    """
    w = np.ones((out, out), np.float32)
    if rect[0] < 0:
        return w
    zx, zy = zoom
    x0, y0, x1, y1 = ((rect - [ox, oy, ox, oy]) * [zx, zy, zx, zy] / DET_STRIDE).tolist()
    inside = np.zeros((out, out), bool)
    inside[max(0, int(np.floor(y0))):max(0, int(np.ceil(y1))), max(0, int(np.floor(x0))):max(0, int(np.ceil(x1)))] = True
    inside = np.rot90(inside, k)
    return np.where(inside & (heat.max(0) < 0.05), 0.0, 1.0).astype(np.float32)


def _focal(pred, gt, torch, weight=None):
    """CenterNet's focal loss; ``weight`` (N,1,H,W) 0 where nothing is known (an unlabelled part of a photo)."""
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    if weight is not None:
        neg = neg * weight
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p ** 2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


#: Cells where the detector gone on from sees a tile this surely keep their sizes close to its (``distil``).
DISTIL_SEEN = 0.2


def _distilled(net_out, teacher_out, n_pos, distil: float, distil_heat: float, torch):
    """The distillation loss: size L1 on the teacher's tiles (weighed as the size loss is), and the binary KL of
    heat on every cell, per tile (as the focal loss is)."""
    (ph, ps), (th, ts) = net_out, teacher_out
    tp = torch.sigmoid(th)
    seen = (tp.amax(1, keepdim=True) >= DISTIL_SEEN).float()
    loss = distil * ((ps - ts).abs() * seen).sum() / seen.sum().clamp(min=1)
    if distil_heat:
        p = torch.sigmoid(ph).clamp(1e-4, 1 - 1e-4)
        q = tp.clamp(1e-4, 1 - 1e-4)
        kl = q * torch.log(q / p) + (1 - q) * torch.log((1 - q) / (1 - p))
        loss = loss + distil_heat * kl.sum() / n_pos.clamp(min=1)
    return loss


def fit_detector(data: Path, minutes: float, smoke: bool, seed: int = 0, out_dir: Path = MODELS,
                 lowres: float = 0.0, init: Path | None = None, peak_lr: float = 2e-3,
                 stretch: float = 0.0, closer: float = 0.0, renorm: bool = False, distil: float = 0.0,
                 distil_heat: float = 0.0) -> dict:
    """The detector on rendered scenes and real photos laid on tables (``train.data``).

    ``init``: go on from that exported detector's weights (``warm_start``),
    usually with a lower ``peak_lr`` than a fresh start's 2e-3.
    ``stretch``: the share of crops grown along one axis up to ``STRETCH`` times more than along the other.
    Why: the renderer draws tiles of one shape, and a phone photo at a slant,
    a rack seen from above or a thick tile's side shows faces narrower or
    squatter than that; the held-out photos lose most tiles there.
    ``closer``: the share of crops zoomed as a still's closer look shows small tiles (``detector_crop``).
    ``renorm``: with ``init``, the folded norms get statistics measured on
    training crops and train again (``warm_start.restore_norms``), instead of
    staying frozen identities.
    ``distil``, ``distil_heat``: with ``init``, the weights of a loss that
    keeps the sizes (where the detector gone on from sees a tile) and the
    heat of the net close to that detector's on the same crops. Why: a
    detector gone on found as many real tiles but outlined some a tenth or
    more another size, and the readers lost them (docs/training.md, "The
    folded norms given back their statistics"). Held so, they still did
    (sixtieth session: "Sizes held to the detector gone on from, soups,
    and looks at two scales"); off by default.
    """
    if renorm and not init:
        raise ValueError("renorm restores the norms of a detector gone on from: give init too")
    if (distil or distil_heat) and not init:
        raise ValueError("distil keeps a detector close to the one gone on from: give init too")
    import cv2
    import torch
    import torch.nn.functional as F
    from .nets import Detector, DetectorExport
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    imgs = np.load(data / "det_images.npy", mmap_mode="r")
    boxes = np.load(data / "det_boxes.npy", allow_pickle=True)
    ign_path = data / "det_ignore.npy"
    ignore = np.load(ign_path) if ign_path.is_file() else np.full((len(imgs), 4), -1, np.float32)
    n_val = max(1, len(imgs) // 15)
    tr = np.arange(n_val, len(imgs))
    print(f"detector: {len(tr)} train images, {n_val} validation", flush=True)
    net = Detector()
    teacher = None
    if init:
        from .warm_start import go_on_from
        go_on_from(net, init)
        if distil or distil_heat:  # the detector gone on from, as loaded, before anything trains
            teacher = copy.deepcopy(net).eval().requires_grad_(False)
    opt = torch.optim.AdamW(net.parameters(), lr=peak_lr, weight_decay=1e-4)
    crop, bs = 320, 8
    out = crop // DET_STRIDE
    budget = 0 if smoke else minutes * 60

    def batch():
        xb, hb, sb, ob, wb = [], [], [], [], []
        for i in rng.choice(tr, bs):
            # Zoom: tiles seen larger or smaller than drawn, so every size players own is met.
            im, bx, (ox, oy), (zx, zy) = detector_crop(imgs[i], boxes[i], rng, crop, stretch, closer)
            k = int(rng.integers(0, 4))
            im = np.rot90(im, k)
            if rng.random() < lowres:  # a low-resolution camera (video modes): lose detail, keep geometry
                f = float(rng.uniform(1.5, 3.5))
                small = cv2.resize(np.ascontiguousarray(im), None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
                im = cv2.resize(small, (crop, crop), interpolation=cv2.INTER_LINEAR)
            h, s, o = _targets(bx, out, 0, 0, k, crop)
            wb.append(_known(ignore[i], ox, oy, (zx, zy), k, out, h))
            xb.append(im[..., ::-1].astype(np.float32).transpose(2, 0, 1) / 255.0)
            hb.append(h), sb.append(s), ob.append(o)
        xb = _augment(torch.from_numpy(np.stack(xb)), rng, torch, colour_swap=0.3)
        return (xb, *(torch.from_numpy(np.stack(a)) for a in (hb, sb, ob, wb)))

    if init and renorm:
        from .warm_start import restore_norms
        restore_norms(net, (batch()[0] for _ in range(1 if smoke else RENORM_BATCHES)))
        net.train()  # the norms train again, on batch statistics
    t0, step = time.time(), 0
    while True:
        xb, hb, sb, ob, wt = batch()
        ph, ps, po = net(xb)
        mask = (ob >= 0).float().unsqueeze(1)
        l_heat = _focal(torch.sigmoid(ph), hb, torch, wt.unsqueeze(1))
        l_size = (F.l1_loss(ps, sb, reduction="none") * mask).sum() / mask.sum().clamp(min=1)
        l_or = F.cross_entropy(po, ob, ignore_index=-1) if (ob >= 0).any() else po.sum() * 0
        loss = l_heat + l_size + 0.5 * l_or
        if teacher is not None:
            loss = loss + _distilled(net_out=(ph, ps), teacher_out=teacher(xb)[:2], n_pos=hb.eq(1).sum(),
                                     distil=distil, distil_heat=distil_heat, torch=torch)
        _cosine_step(opt, loss, peak_lr, t0, budget)
        step += 1
        if step % 100 == 0:
            print(f"step {step} heat {l_heat.item():.3f} size {l_size.item():.3f} orient {l_or.item():.3f} "
                  f"t {time.time() - t0:.0f}s", flush=True)
        if smoke or time.time() - t0 > budget:
            break
    net.eval()
    path = Path(out_dir) / ("detector_smoke.onnx" if smoke else "tile_detector.onnx")
    # Any square side (a multiple of 32): recognition gives small tiles a closer look on a larger one.
    side = {2: "height", 3: "width"}
    torch.onnx.export(DetectorExport(net).eval(), torch.zeros(1, 3, DET_SIZE, DET_SIZE), str(path),
                      input_names=["image"], output_names=["heat", "size", "orient"], opset_version=17, dynamo=False,
                      dynamic_axes={"image": side, "heat": side, "size": side, "orient": side})
    _set_meta(path, {"classes": ",".join(DET_CLASSES), "input": DET_INPUT,
                     "stride": str(DET_STRIDE), "size_scale": str(SIZE_SCALE)})
    res = {"model": path.name, "steps": step, "train_images": int(len(tr)), "val_images": int(n_val),
           "minutes": (time.time() - t0) / 60, "init": str(init) if init else None, "peak_lr": peak_lr,
           "stretch": stretch, "closer": closer, "renorm": renorm, "distil": distil, "distil_heat": distil_heat,
           "sha256": sha256(path)}
    if not smoke:
        (Path(out_dir) / "tile_detector.train.json").write_text(json.dumps(res, indent=2) + "\n")
    print(res, flush=True)
    return res


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("model", choices=["reader", "reader-deep", "reader-lite", "bonus", "detector"])
    ap.add_argument("--data", default="/tmp/tm_data")
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="one training step, exported to *_smoke.onnx")
    ap.add_argument("--out-dir", default=str(MODELS), help="where the .onnx goes (default: models/)")
    ap.add_argument("--init", help="go on from this exported model's weights")
    ap.add_argument("--peak-lr", type=float,
                    help="the cosine schedule's peak (default: 3e-3 for readers, 2e-3 for the detector)")
    ap.add_argument("--rotate", type=float, default=0.0, help="reader, reader-deep: share of crops turned up to 15 degrees")
    ap.add_argument("--real-share", type=float, help="reader, reader-deep: share of each batch from real crops")
    ap.add_argument("--warp", type=float, default=0.0,
                    help="reader, reader-deep: share of crops cut along a slightly wrong outline")
    ap.add_argument("--erase", type=float, default=0.0,
                    help="reader, reader-deep: share of crops with a small patch painted over")
    ap.add_argument("--variant", choices=["lite0", "lite1", "lite2"], default="lite0",
                    help="reader-lite: which EfficientNet-Lite it is built on")
    ap.add_argument("--lowres", type=float, default=0.0,
                    help="detector: share of crops degraded to a low-resolution camera (not used for the shipped model)")
    ap.add_argument("--stretch", type=float, default=0.0,
                    help="detector: share of crops grown along one axis more than the other (tiles narrower or squatter)")
    ap.add_argument("--renorm", action="store_true",
                    help="detector with --init: the folded norms get statistics from training crops and train again")
    ap.add_argument("--distil", type=float, default=0.0,
                    help="detector with --init: weight of a loss keeping its sizes close to that model's")
    ap.add_argument("--distil-heat", type=float, default=0.0,
                    help="detector with --init: weight of a loss keeping its heat close to that model's")
    ap.add_argument("--closer", type=float, default=0.0,
                    help="detector: share of crops zoomed so tiles are as long as a still's closer look shows them")
    a = ap.parse_args(argv)
    if (a.distil or a.distil_heat) and (a.model != "detector" or not a.init):
        ap.error("--distil and --distil-heat are for the detector with --init: they keep it close to that model")
    if a.renorm and (a.model != "detector" or not a.init):
        ap.error("--renorm is for the detector with --init: it restores the norms of the exported model gone on from")
    # Before training, not at the export: a missing folder found after an hour's run loses the hour.
    out_dir = Path(a.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    import torch
    torch.set_num_threads(a.threads)
    lr = {} if a.peak_lr is None else {"peak_lr": a.peak_lr}  # else each model's own default
    if a.model in ("reader", "reader-deep", "reader-lite"):
        res = fit_reader(Path(a.data), a.minutes, a.smoke, out_dir=out_dir, deep=a.model == "reader-deep",
                         lite=a.model == "reader-lite", init=a.init, rotate=a.rotate, real_share=a.real_share, warp=a.warp, erase=a.erase,
                         variant=a.variant, **lr)
    elif a.model == "bonus":
        res = fit_bonus(Path(a.data), a.minutes, a.smoke, out_dir=out_dir, init=a.init, **lr)
    else:
        res = fit_detector(Path(a.data), a.minutes, a.smoke, out_dir=out_dir, lowres=a.lowres,
                           init=a.init, stretch=a.stretch, closer=a.closer, renorm=a.renorm,
                           distil=a.distil, distil_heat=a.distil_heat, **lr)
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
