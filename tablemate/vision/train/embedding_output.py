"""Give a reader exported before enrollment existed its ``embedding`` output.

    python -m tablemate.vision.train.embedding_output models/tile_reader.onnx

Why: enrollment needs the reader's pooled features, which readers exported
by ``fit reader`` now give as a third output. A reader exported earlier has
the same tensor inside its graph (the input of its two final layers); this
names it as an output, changes no weight, and rewrites the sha256 file.
"""
from __future__ import annotations

import sys
from pathlib import Path


def add_embedding_output(path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper

    from .fit import sha256
    model = onnx.load(str(path))
    g = model.graph
    if any(o.name == "embedding" for o in g.output):
        return
    face = next(n for n in g.node if n.op_type == "Gemm" and "face" in n.input[1])
    feat = face.input[0]
    dim = next(i for i in g.initializer if i.name == face.input[1]).dims[1]
    g.node.append(helper.make_node("Identity", [feat], ["embedding"]))
    g.output.append(helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["n", dim]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    path.with_name(path.name + ".sha256").write_text(f"{sha256(path)}  {path.name}\n")


if __name__ == "__main__":
    add_embedding_output(Path(sys.argv[1]))
