"""Start a model's training from a shipped ONNX export (reader, bonus reader or detector) instead of from scratch.

Why: the shipped readers took 55-95 minutes of one core each. Going on from
their weights with more real photos costs a fraction of that and keeps what
they learned of the renderer's looks. The ONNX export folded every
BatchNorm into the convolution before it, so the weights come back as
convolutions with a bias and BatchNorm layers that do nothing (scale 1, mean
0, variance 1 - eps): those must stay in eval mode while training goes on
(``freeze_norms``), or batch statistics would replace the identity and undo
the folded weights.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np


def _onnx_weights(path: Path) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict[str, np.ndarray]]:
    """(conv (weight, bias) pairs in graph order, the named head weights) of an exported reader."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(str(path))
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    # A quantized reader (``train.quantize``) keeps its convolutions' weights and biases as
    # integers, each read through a DequantizeLinear node: they come back as the floats it computes with.
    for n in model.graph.node:
        if n.op_type == "DequantizeLinear" and n.input[0] in init:
            q, scale = init[n.input[0]].astype(np.float64), init[n.input[1]].astype(np.float64)
            zero = init[n.input[2]].astype(np.float64) if len(n.input) > 2 and n.input[2] else np.zeros_like(scale)
            axis = next((a.i for a in n.attribute if a.name == "axis"), 1)
            shape = [-1 if d == axis % q.ndim else 1 for d in range(q.ndim)] if scale.ndim else []
            init[n.output[0]] = ((q - zero.reshape(shape)) * scale.reshape(shape)).astype(np.float32)
    convs = [(init[n.input[1]], init[n.input[2]]) for n in model.graph.node if n.op_type == "Conv"]
    # The exports wrap the net as ``reader`` (ReaderExport) or ``net`` (BonusExport).
    heads = {k.split(".", 1)[1]: v for k, v in init.items() if k.startswith(("reader.", "net."))}
    return convs, heads


def _put_convs(units: list, convs: list, path: Path, kind: str) -> None:
    """Each exported (weight, bias) into its (convolution, BatchNorm or None), the norm made an identity.

    A convolution with a norm gets the folded bias as the norm's shift (the
    norm then does nothing); a bare convolution takes the bias itself. A file
    of another shape is refused before anything is loaded.
    """
    import torch
    if len(units) != len(convs):
        raise ValueError(f"{path} has {len(convs)} convolutions, the net {len(units)}: not the same {kind}")
    for (conv, _), (w, _) in zip(units, convs):
        if tuple(conv.weight.shape) != w.shape:
            raise ValueError(f"{path}: convolution of shape {w.shape}, the net has {tuple(conv.weight.shape)}")
    with torch.no_grad():
        for (conv, bn), (w, b) in zip(units, convs):
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            if bn is None:
                conv.bias.copy_(torch.from_numpy(np.array(b)))
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(np.array(b)))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)


def _put_heads(net, heads: dict[str, np.ndarray]) -> None:
    """A reader's linear heads (``face``, and ``flip`` where it has one) from the export's named weights."""
    import torch
    with torch.no_grad():
        for name in ("face", "flip") if hasattr(net, "flip") else ("face",):
            getattr(net, name).weight.copy_(torch.from_numpy(np.array(heads[f"{name}.weight"])))
            getattr(net, name).bias.copy_(torch.from_numpy(np.array(heads[f"{name}.bias"])))


def load_reader(net, path: Path) -> None:
    """Put an exported reader's weights into ``net`` (a ``Reader``, ``DeepReader`` or ``BonusReader`` of its shape)."""
    from torch import nn
    convs, heads = _onnx_weights(Path(path))
    blocks = [m for m in net.body if isinstance(m, nn.Sequential)]
    _put_convs([(block[0], block[1]) for block in blocks], convs, path, "reader")
    _put_heads(net, heads)


def load_lite(net, path: Path) -> None:
    """Put an exported lite reader's weights into ``net`` (a ``lite_reader.LiteReader``).

    Why its own loader: its blocks are not ``Sequential`` pairs but named
    convolutions each followed by its norm, registered in the order the
    forward pass runs them (stem, every block's expansion, depthwise and
    projection, head), which is the order of the export's Conv nodes.
    """
    from torch import nn
    convs, heads = _onnx_weights(Path(path))
    mods = list(net.body.modules())
    units = [(m, nxt) for m, nxt in zip(mods, mods[1:])
             if isinstance(m, nn.Conv2d) and isinstance(nxt, nn.BatchNorm2d)]
    _put_convs(units, convs, path, "lite reader")
    _put_heads(net, heads)


def _conv_units(net) -> list:
    """(convolution, its BatchNorm or None) of ``net`` in the order its forward pass runs them.

    The detector registers its layers in the order it runs them, which is the
    order of the export's Conv nodes; a ``cbr`` block's norm was folded into
    its convolution, a bare 1x1 convolution (lateral, head) has its own bias.
    """
    from torch import nn
    units, seen = [], set()
    for m in net.modules():
        if (isinstance(m, nn.Sequential) and len(m) >= 2 and isinstance(m[0], nn.Conv2d)
                and isinstance(m[1], nn.BatchNorm2d)):
            units.append((m[0], m[1]))
            seen.add(id(m[0]))
        elif isinstance(m, nn.Conv2d) and id(m) not in seen:
            units.append((m, None))
    return units


def load_detector(net, path: Path) -> None:
    """Put an exported detector's weights into ``net`` (a ``nets.Detector``)."""
    convs, _ = _onnx_weights(Path(path))
    _put_convs(_conv_units(net), convs, path, "detector")


def freeze_norms(net) -> None:
    """BatchNorm layers back in eval mode (after ``net.train()``): their folded statistics stay."""
    from torch import nn
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def restore_norms(net, batches) -> None:
    """Each folded BatchNorm given the statistics its convolution's output has on ``batches``, still an identity.

    Why: ``freeze_norms`` leaves a net gone on with no normalisation at
    all, and every detector gone on that way found fewer real tiles than
    the shipped one did. Here each norm gets the running mean ``mu`` and
    variance ``var`` measured on training crops, and the scale ``sqrt(var
    + eps)`` and shift ``mu + bias`` that undo them, so in eval mode the net
    computes exactly what the export did, and in training the norms
    normalise by batch statistics again, as they did when the net was
    first trained. Measured in one pass in eval mode: every norm is an
    identity then, so each layer sees what it will see once the rest are
    restored too.
    """
    import torch
    from torch import nn
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    sums: dict[int, list] = {id(bn): [0.0, 0.0, 0] for bn in norms}

    def measure(bn, inputs, _out):
        x = inputs[0].detach().double()
        acc = sums[id(bn)]
        acc[0] = acc[0] + x.sum(dim=(0, 2, 3))
        acc[1] = acc[1] + (x * x).sum(dim=(0, 2, 3))
        acc[2] += x.numel() // x.shape[1]

    hooks = [bn.register_forward_hook(measure) for bn in norms]
    modes = [(m, m.training) for m in net.modules()]  # each module's own: frozen norms stay frozen
    net.eval()
    try:
        with torch.no_grad():
            for xb in batches:
                net(xb)
    finally:
        for h in hooks:
            h.remove()
    with torch.no_grad():
        for bn in norms:
            s, ss, n = sums[id(bn)]
            if not n:
                raise ValueError("no batch reached a norm: nothing to measure its statistics on")
            mu = s / n
            var = (ss / n - mu * mu).clamp(min=0)
            # Running statistics as the identity's: x -> (x - mu) / sigma * gamma + beta with gamma = sigma.
            shift = bn.bias.double() - bn.weight.double() * bn.running_mean.double() / torch.sqrt(
                bn.running_var.double() + bn.eps)
            scale = bn.weight.double() / torch.sqrt(bn.running_var.double() + bn.eps)
            sigma = torch.sqrt(var + bn.eps)
            bn.running_mean.copy_(mu.float())
            bn.running_var.copy_(var.float())
            bn.weight.copy_((scale * sigma).float())
            bn.bias.copy_((shift + scale * mu).float())
    for m, training in modes:
        m.train(training)


def go_on_from(net, path: Path) -> None:
    """``net`` ready to train on from an exported model: its weights loaded, its folded norms frozen."""
    from .lite_reader import LiteReader
    from .nets import Detector
    load = load_detector if isinstance(net, Detector) else load_lite if isinstance(net, LiteReader) else load_reader
    load(net, Path(path))
    freeze_norms(net)
