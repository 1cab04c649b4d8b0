"""Turn an exported reader's convolutions into 8-bit integer arithmetic.

    python -m tablemate.vision.train.quantize models/tile_reader.onnx --data /tmp/ft [--crops 1024]

writes ``models/tile_reader_int8.onnx`` (``--out`` to choose) with its sha256
and ``.train.json``; the float reader is left as it is.

Why: without a learned set the first reader reads every tile of every
still, and its convolutions were the largest single cost of a recognition
after the JPEG decode (about 80 ms of a 12 MP still on one core here).
With 8-bit weights and activations onnxruntime runs them about a third
faster, and the model file shrinks to a quarter. A learned set keeps to
the float reader: its faces are learned in that reader's features, and
abstract sets read with the 8-bit one lost tiles (docs/training.md).
The deep and lite readers, which read the crops the first is unsure of,
ship quantized the same way.

How: static quantization in the QDQ format, calibrated on crops from the
training data (rendered and real alike, so the activations' ranges are
those of both). The convolutions are quantized with the activation that
follows each (``Relu``, or ``Clip`` for ReLU6 in the lite reader):
onnxruntime then folds the activation into the convolution's 8-bit output
range, where with the convolutions alone each output went back to float
for the activation and was quantized again. Without those conversions the
first reader reads 112 crops in 57 instead of 67 ms on one core here, the
lite reader in 143 instead of 239 ms (docs/training.md, "Activations in 8
bits too"), and the readings agree with the float reader's more
often, not less (the activations' ranges start at 0, so the 8 bits are spent
on values the net uses). The final layers stay in float: they give the
probabilities whose fine steps (``models.FIRST_SURE`` and ``SURE`` read them)
8-bit outputs would blur, and quantizing them gained no time. The
weights use 7 of their 8 bits (``reduce_range``): x86 CPUs without VNNI
multiply 8-bit pairs with a saturating instruction, and with full-range
weights a sum overflows and readings go wrong (one in six of them, measured).

Prints the share of other training crops on which the quantized reader's
reading agrees with the float one's.
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

from ..contract import READ_H, READ_W

#: The layers computed in 8 bits: convolutions and the activation after each (the module's docstring says why).
QUANTIZED_OPS = ["Conv", "Relu", "Clip"]


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


def quantize_reader(path: Path, data: Path, out: Path, crops: int = 1024, seed: int = 0) -> dict:
    """The reader at ``path`` quantized into ``out``; returns what was done and how well the two agree."""
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
        pre, made = Path(tmp) / "pre.onnx", Path(tmp) / "int8.onnx"
        quant_pre_process(str(path), str(pre))
        quantize_static(str(pre), str(made), Batches(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        reduce_range=True, op_types_to_quantize=QUANTIZED_OPS, calibrate_method=CalibrationMethod.MinMax)
        quantized = onnx.load(str(made))
        # classes, input and temperature as the float reader's (not the quantizer's own notes)
        onnx.helper.set_model_props(quantized, {**{p.key: p.value for p in model.metadata_props},
                                                "quantized": "int8 QDQ convolutions and their activations, reduce_range"})
        onnx.save(quantized, str(out))
    check = _crop_sample(data, crops, np.random.default_rng(seed + 1))
    agree = float((_probs(path, check).argmax(1) == _probs(out, check).argmax(1)).mean())
    digest = sha256(out)
    out.with_name(out.name + ".sha256").write_text(f"{digest}  {out.name}\n")
    info = {"model": out.name, "from": path.name, "from_sha256": sha256(path), "data": str(data), "seed": seed,
            "calibration_crops": len(calibration), "checked_crops": len(check), "agreement_with_float": agree,
            "sha256": digest}
    out.with_name(out.stem + ".train.json").write_text(json.dumps(info, indent=2) + "\n")
    return info


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path, help="the float reader, e.g. models/tile_reader.onnx")
    ap.add_argument("--data", type=Path, required=True, help="the training data folder (its reader.npz)")
    ap.add_argument("--crops", type=int, default=1024, help="calibration crops (default 1024)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="where the quantized reader goes (default: beside it, NAME_int8.onnx)")
    a = ap.parse_args(argv)
    out = a.out or a.model.with_name(a.model.stem + "_int8.onnx")
    print(json.dumps(quantize_reader(a.model, a.data, out, a.crops, a.seed), indent=2))


if __name__ == "__main__":
    main()
