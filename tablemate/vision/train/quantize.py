"""Turn an exported reader's convolutions into 8-bit integer arithmetic.

    python -m tablemate.vision.train.quantize models/tile_reader.onnx --data /tmp/tm4 [--crops 1024]

Why: the first reader reads every tile of every still, and its
convolutions were the largest single cost of a recognition after the
JPEG decode (about 80 ms of a 12 MP still on one core here). With 8-bit
weights and activations onnxruntime runs them about a third faster, on
x86 and on the Pi 4's ARM cores alike, and the model file shrinks to a
quarter.

How: static quantization in the QDQ format, calibrated on crops from the
training data (rendered and real alike, so the activations' ranges are
those of both). Only the convolutions are quantized: the final layers
give the probabilities whose fine steps (the second reader is asked below
0.99) 8-bit outputs would blur, and quantizing them gained no time. The
weights use 7 of their 8 bits (``reduce_range``): x86 CPUs without VNNI
multiply 8-bit pairs with a saturating instruction, and with full-range
weights a sum overflows and readings go wrong (a fifth of them, measured).

The float reader is overwritten (its sha256 file too); ``--keep-float``
saves it first, since ``fit --init`` goes on from float weights only.
Prints the share of other training crops on which the quantized reader's
reading agrees with the float one's.
"""
from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from ..contract import READ_H, READ_W


def _crop_sample(data: Path, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` crops of ``data/reader.npz`` as the reader's input: half rendered, half real where the data says which."""
    d = np.load(data / "reader.npz")
    x = d["x"]
    rendered = int(d["rendered"]) if "rendered" in d.files else len(x)
    n = min(n, len(x))
    if 0 < rendered < len(x):
        real = min(n // 2, len(x) - rendered)
        made = min(n - real, rendered)
        idx = np.concatenate([rng.choice(rendered, made, replace=False),
                              rendered + rng.choice(len(x) - rendered, real, replace=False)])
    else:
        idx = rng.choice(len(x), n, replace=False)
    return np.ascontiguousarray((x[np.sort(idx)][..., ::-1].astype(np.float32) / 255.0).transpose(0, 3, 1, 2))


def _probs(path: Path, crops: np.ndarray) -> np.ndarray:
    import onnxruntime as ort
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return np.concatenate([sess.run(["probs"], {"crops": crops[i:i + 128]})[0] for i in range(0, len(crops), 128)])


def quantize_reader(path: Path, data: Path, crops: int = 1024, seed: int = 0, keep_float: Path | None = None) -> dict:
    """Quantize the reader at ``path`` in place; returns what was done and how well the two agree."""
    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from .fit import sha256
    model = onnx.load(str(path))
    if any(n.op_type == "DequantizeLinear" for n in model.graph.node):
        raise ValueError(f"{path} is quantized already; quantize the float reader that `fit reader` exports")
    rng = np.random.default_rng(seed)
    calibration = _crop_sample(data, crops, rng)
    assert calibration.shape[1:] == (3, READ_H, READ_W)

    class Batches(CalibrationDataReader):
        def __init__(self):
            self.at = 0

        def get_next(self):
            if self.at >= len(calibration):
                return None
            self.at += 64
            return {"crops": calibration[self.at - 64:self.at]}

    with tempfile.TemporaryDirectory() as tmp:
        float_copy, pre, out = Path(tmp) / "float.onnx", Path(tmp) / "pre.onnx", Path(tmp) / "int8.onnx"
        shutil.copyfile(path, float_copy)
        quant_pre_process(str(float_copy), str(pre))
        quantize_static(str(pre), str(out), Batches(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        reduce_range=True, op_types_to_quantize=["Conv"], calibrate_method=CalibrationMethod.MinMax)
        quantized = onnx.load(str(out))
        # classes, input and temperature as the float reader's (not the quantizer's own notes)
        onnx.helper.set_model_props(quantized, {**{p.key: p.value for p in model.metadata_props},
                                                "quantized": "int8 QDQ convolutions, reduce_range"})
        onnx.save(quantized, str(out))
        check = _crop_sample(data, crops, np.random.default_rng(seed + 1))
        agree = float((_probs(float_copy, check).argmax(1) == _probs(out, check).argmax(1)).mean())
        if keep_float is not None:
            shutil.copyfile(float_copy, keep_float)
        shutil.copyfile(out, path)
    path.with_name(path.name + ".sha256").write_text(f"{sha256(path)}  {path.name}\n")
    return {"model": path.name, "float_sha256": sha256(keep_float) if keep_float else None,
            "calibration_crops": len(calibration), "checked_crops": len(check), "agreement_with_float": agree,
            "sha256": sha256(path)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path, help="the float reader, e.g. models/tile_reader.onnx (overwritten)")
    ap.add_argument("--data", type=Path, required=True, help="the training data folder (its reader.npz)")
    ap.add_argument("--crops", type=int, default=1024, help="calibration crops (default 1024)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep-float", type=Path, help="save the float reader here first")
    a = ap.parse_args(argv)
    print(json.dumps(quantize_reader(a.model, a.data, a.crops, a.seed, a.keep_float), indent=2))


if __name__ == "__main__":
    main()
