"""Let a detector exported for a fixed 640x640 square take a square of any size.

    python -m tablemate.vision.train.any_size_input models/tile_detector.onnx

Why: recognition gives small tiles a second, closer look on a larger square
(``recognize.detect_table``). The detector is fully convolutional (its two
upsamplings are by a fixed factor of 2), so only the declared input and
output sizes stood in the way. This names them symbolically, changes no
weight, and rewrites the sha256 file. Detectors exported by ``fit detector``
from now on are exported this way.
"""
from __future__ import annotations

import sys
from pathlib import Path


def any_size_input(path: Path) -> None:
    import onnx

    from tablemate.vision.contract import DET_INPUT

    from .fit import _set_meta
    model = onnx.load(str(path))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_param, dims[3].dim_param = "height", "width"
    for out in model.graph.output:
        d = out.type.tensor_type.shape.dim
        d[2].dim_param, d[3].dim_param = "height/4", "width/4"
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    _set_meta(path, {"input": DET_INPUT})  # also rewrites the sha256 file


if __name__ == "__main__":
    any_size_input(Path(sys.argv[1]))
