"""The two networks, small enough for one Raspberry Pi 4 core.

Why these shapes: the reader sees one upright tile at 36x48 and only has to
tell 43 faces apart, so four conv stages and global pooling suffice. The
detector is a CenterNet-style fully convolutional net: per cell of a 1/4
resolution grid, a heatmap per tile state, the tile's size and its
orientation, so one forward pass finds every tile without anchors or NMS.
"""
from __future__ import annotations

import torch
from torch import nn
import torch.nn.functional as F


def cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Reader(nn.Module):
    """Upright tile crop (N,3,48,36) -> face logits (N,43), upside-down logits (N,2)."""

    def __init__(self, n_classes: int = 43):
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 24), nn.MaxPool2d(2),
            cbr(24, 48), cbr(48, 48), nn.MaxPool2d(2),
            cbr(48, 96), nn.MaxPool2d(2),
            cbr(96, 192), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
        self.face = nn.Linear(192, n_classes)
        self.flip = nn.Linear(192, 2)

    def forward(self, x):
        f = self.body(x)
        return self.face(f), self.flip(f)


class DeepReader(Reader):
    """The second reader: one more convolution at 12x9 and at 6x4 (about 40 MMAC per tile against 23).

    Why a second net rather than a replacement: it fits real photos better
    (the first reader cannot even fit all its own training photos), and the
    two err on different tiles, so recognition takes their agreement; but its
    pooled features tell a players' own set's faces apart worse, so enrollment
    keeps to the first reader's.
    """

    def __init__(self, n_classes: int = 43):
        super().__init__(n_classes)
        self.body = nn.Sequential(
            cbr(3, 24), nn.MaxPool2d(2),
            cbr(24, 48), cbr(48, 48), nn.MaxPool2d(2),
            cbr(48, 96), cbr(96, 96), nn.MaxPool2d(2),
            cbr(96, 192), cbr(192, 192), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))


class BonusReader(nn.Module):
    """Upright tile crop (N,3,72,54) at full camera resolution -> h1..h8 / other logits (N,9).

    Why a second, narrower net: a flower and a season differ only in a small
    number and name, legible at the camera's full resolution but not in the
    reader's 36x48 crop; eight look-alike classes and "other" need no flip
    head (the reader has turned the crop upright), and running only on the few
    tiles the reader takes for bonus tiles keeps the cost small.
    """

    def __init__(self, n_classes: int = 9):
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 16), nn.MaxPool2d(2),
            cbr(16, 32), cbr(32, 32), nn.MaxPool2d(2),
            cbr(32, 64), cbr(64, 64), nn.MaxPool2d(2),
            cbr(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
        self.face = nn.Linear(128, n_classes)

    def forward(self, x):
        return self.face(self.body(x))


class BonusExport(nn.Module):
    """Bonus reader with temperature-scaled softmax baked in, as shipped."""

    def __init__(self, net: BonusReader, temperature: float):
        super().__init__()
        self.net = net
        self.register_buffer("t", torch.tensor(float(temperature)))

    def forward(self, x):
        return F.softmax(self.net(x) / self.t, dim=1)


class ReaderExport(nn.Module):
    """Reader with temperature-scaled softmax baked in, as shipped; also the pooled features (``embedding``).

    Why the features: enrolling a players' set learns one prototype per face
    in this space on the Pi, where there is no PyTorch.
    """

    def __init__(self, reader: Reader, temperature: float):
        super().__init__()
        self.reader = reader
        self.register_buffer("t", torch.tensor(float(temperature)))

    def forward(self, x):
        f = self.reader.body(x)
        face, flip = self.reader.face(f), self.reader.flip(f)
        return F.softmax(face / self.t, dim=1), F.softmax(flip, dim=1), f


class Detector(nn.Module):
    """Rectified table (1,3,H,W) -> heat (3 ch), size (2 ch), orientation logits (4 ch) at H/4."""

    def __init__(self):
        super().__init__()
        self.s2 = cbr(3, 12, 2)
        self.s4 = nn.Sequential(cbr(12, 16, 2), cbr(16, 16))
        self.s8 = nn.Sequential(cbr(16, 32, 2), cbr(32, 32))
        self.s16 = nn.Sequential(cbr(32, 64, 2), cbr(64, 64), cbr(64, 64))
        self.lat8 = nn.Conv2d(64, 32, 1)
        self.up8 = cbr(32, 32)
        self.lat4 = nn.Conv2d(32, 16, 1)
        self.up4 = cbr(16, 24)
        self.heat = nn.Conv2d(24, 3, 1)
        self.size = nn.Conv2d(24, 2, 1)
        self.orient = nn.Conv2d(24, 4, 1)
        nn.init.constant_(self.heat.bias, -2.2)

    def forward(self, x):
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        u8 = self.up8(F.interpolate(self.lat8(f16), scale_factor=2.0, mode="nearest") + f8)
        u4 = self.up4(F.interpolate(self.lat4(u8), scale_factor=2.0, mode="nearest") + f4)
        return self.heat(u4), self.size(u4), self.orient(u4)


class DetectorExport(nn.Module):
    def __init__(self, det: Detector):
        super().__init__()
        self.det = det

    def forward(self, x):
        h, s, o = self.det(x)
        return torch.sigmoid(h), s, F.softmax(o, dim=1)
