"""A learned tile set (docs/enrollment.md): the file, where it lives, and how recognition uses it.

Why a file and no weights: enrollment runs on the Pi with the runtime's own
libraries, so it trains nothing. It keeps, per face, where the reader's
pooled features (``embedding``) of the player's own tile fall, jittered and
turned round; recognition then asks how near each tile lies to each of
the set's faces and blends that with the trained classifier. Features are
only comparable within one reader, so the file records the reader's sha256
and a set learned for another reader is refused (enroll again after an
update), as is a file that is missing or damaged.

Why a discriminant and not plain cosine similarity: the reader's features
were trained on other sets, and on a set whose faces look nothing like
them most of the 192 directions vary as much within one face (light,
outline, perspective) as between faces. The set's own crops show which
directions do tell its faces apart: features are whitened by the spread
of each face's jittered crops around its mean (shrunk towards a sphere,
as 44 tiles are few), and a tile is as likely a face as it is near that
face's mean there. The distance to the nearest face also says how much a
crop looks like any tile of this set at all, which decides which way a
tile lies when its face is one the reader never saw.

The file is JSON (``<name>.tileset.json``), written atomically (a temporary
file, then ``os.replace``) so a power cut leaves the old set or the new one,
never half of one. A ``checksum`` over its content catches a damaged copy.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import face_templates
from .contract import READER_CLASSES
from .errors import VisionError

FORMAT = "tablemate-tile-set"
VERSION = 3   # 2: a discriminant (whitening and means) instead of cosine prototypes; 3: the faces' pictures
READABLE = (2, 3)  # a version-2 file has no pictures and still reads (the pictures' help is lost until enrolled again)
SUFFIX = ".tileset.json"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")

#: Blend of the set's say and the classifier's (both chosen per set at enrollment):
#: the set's probabilities are softmax(-d^2 / (2 TEMPERATURE)) over the squared distances d^2
#: to each face's mean in the whitened space; the blend is
#: log p = (1 - WEIGHT) log max(p_classifier, FLOOR) + WEIGHT log p_set.
TEMPERATURE = 4.0
WEIGHT = 0.6
FLOOR = 1e-3
SHRINK = 0.1   # covariance shrunk this far towards a sphere of the same total spread


def fit_discriminant(feats: np.ndarray, labels: np.ndarray, shrink: float = SHRINK) -> tuple[np.ndarray, np.ndarray]:
    """(whitening matrix D x D, class means K x D in the whitened space) from features and labels 0..K-1.

    Features are L2-normalised first, as at recognition. The within-class
    covariance is pooled over all classes and shrunk towards a multiple of the
    identity, so the inverse exists with few crops per face.
    """
    x = _unit(feats)
    k = int(labels.max()) + 1
    mu = np.stack([x[labels == c].mean(0) for c in range(k)])
    w = x - mu[labels]
    cov = w.T @ w / len(w)
    cov = (1 - shrink) * cov + shrink * np.trace(cov) / len(cov) * np.eye(len(cov))
    vals, vecs = np.linalg.eigh(cov)
    whiten = (vecs / np.sqrt(np.maximum(vals, 1e-12))).T
    return np.float32(whiten), np.float32(mu @ whiten.T)


def _unit(e: np.ndarray) -> np.ndarray:
    e = np.asarray(e, np.float32)
    return e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-8)


class TileSetError(VisionError):
    """A tile set that cannot be used: missing, damaged, for other models, or a bad name."""


@dataclass
class TileSet:
    """One enrolled set: prototypes per face in the reader's feature space, and what was measured."""

    name: str
    reader_sha256: str
    classes: tuple[str, ...]              # the faces with a prototype (``back`` included), READER_CLASSES order
    prototypes: np.ndarray                # len(classes) x D, rows L2-normalised (mean features)
    whiten: np.ndarray                    # D x D: features into the space where one face's crops scatter evenly
    means: np.ndarray                     # 2 len(classes) x D there: each face upright, then turned round
    created: float = field(default_factory=time.time)
    tile_px: tuple[float, float] = (0.0, 0.0)   # face width, height in the rectified 640 px square
    tile_cm: tuple[float, float] | None = None  # the same in cm, when the play area's side was given
    area_cm: float | None = None
    back_bgr: tuple[int, int, int] = (0, 0, 0)
    face_lab: tuple[float, float, float] | None = None  # the faces' ground (enroll.face_ground); None in older files
    margins: dict = field(default_factory=dict)  # code -> [margin, nearest code] (enroll.margins)
    bonus: bool = True
    spread: float = float("inf")          # the grid's own crops lie this near their face (99th percentile)
    temperature: float = TEMPERATURE
    weight: float = WEIGHT
    pictures: dict = field(default_factory=dict)  # code -> grey picture of the face (face_templates)

    # --- recognition -----------------------------------------------------------------------------------

    def __post_init__(self) -> None:
        self.prototypes = np.asarray(self.prototypes, np.float32)
        self.whiten = np.asarray(self.whiten, np.float32)
        self.means = np.asarray(self.means, np.float32)
        self._index = np.array([READER_CLASSES.index(c) for c in self.classes])

    def match(self, emb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N x 43 probabilities, N distances to the nearest face) for crops with features ``emb``.

        Probabilities are 0 for faces the set lacks: a set enrolled without
        flowers and seasons has none, so nothing on its table is one. The
        distance (whitened units) is small for a crop that looks like one of
        this set's tiles either way up, large for one cut sideways.
        """
        d2 = self._squared_distances(emb)
        nearest = d2.min(1, keepdims=True)
        p = np.exp(-(d2 - nearest) / (2 * self.temperature))
        out = np.zeros((len(d2), len(READER_CLASSES)), np.float32)
        out[:, self._index] = p / p.sum(1, keepdims=True)
        return out, np.sqrt(nearest[:, 0])

    def distances(self, emb: np.ndarray) -> np.ndarray:
        """N x len(classes): each crop's whitened distance to each face's mean, upright or turned, the nearer."""
        return np.sqrt(self._squared_distances(emb))

    def _squared_distances(self, emb: np.ndarray) -> np.ndarray:
        z = _unit(emb) @ self.whiten.T
        d2 = (z * z).sum(1, keepdims=True) - 2 * z @ self.means.T + (self.means * self.means).sum(1)
        n = len(self.classes)
        return np.maximum(np.minimum(d2[:, :n], d2[:, n:]), 0)

    def blend(self, probs: np.ndarray, proto: np.ndarray) -> np.ndarray:
        """The classifier's probabilities and the prototypes' as one log-linear blend (rows sum to 1).

        Why log-linear with a floor: where both agree the reading gets surer;
        where the classifier is confidently wrong on a face it never saw, the
        floor caps its veto and the player's own prototype can win.
        """
        lp = (1 - self.weight) * np.log(np.maximum(probs, FLOOR)) + self.weight * np.log(proto + 1e-12)
        lp -= lp.max(1, keepdims=True)
        p = np.exp(lp)
        return (p / p.sum(1, keepdims=True)).astype(np.float32)

    def read(self, probs: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """Blended N x 43 probabilities for crops the reader gave ``probs`` and ``emb``."""
        return self.blend(probs, self.match(emb)[0])

    # --- the file ----------------------------------------------------------------------------------------

    def to_json(self) -> dict:
        body = {
            "format": FORMAT, "version": VERSION, "name": self.name, "created": round(self.created, 3),
            "created_iso": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.created)),
            "reader_sha256": self.reader_sha256, "classes": list(self.classes),
            "dim": int(self.prototypes.shape[1]),
            "prototypes": _rows(self.prototypes), "whiten": _rows(self.whiten), "means": _rows(self.means),
            "tile_px": [round(float(v), 2) for v in self.tile_px],
            "tile_cm": None if self.tile_cm is None else [round(float(v), 2) for v in self.tile_cm],
            "area_cm": self.area_cm, "back_bgr": [int(v) for v in self.back_bgr],
            "face_lab": None if self.face_lab is None else [round(float(v), 2) for v in self.face_lab],
            "margins": {k: [round(float(m), 4), n] for k, (m, n) in self.margins.items()},
            "bonus": self.bonus, "spread": round(float(self.spread), 4), "temperature": self.temperature, "weight": self.weight,
            "pictures": face_templates.encode(self.pictures),
        }
        body["checksum"] = _checksum(body)
        return body

    def save(self, path: str | os.PathLike) -> Path:
        """Write atomically: a temporary file in the same folder, fsync, then ``os.replace``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix="." + path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(self.to_json(), f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            with _suppress():
                os.unlink(tmp)
            raise
        return path

    @property
    def back_hex(self) -> str:
        b, g, r = self.back_bgr
        return f"#{r:02x}{g:02x}{b:02x}"


def _rows(a: np.ndarray) -> list[list[float]]:
    return [[float(f"{v:.6g}") for v in row] for row in np.asarray(a, np.float64)]


class _suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def _checksum(body: dict) -> str:
    data = json.dumps({k: v for k, v in body.items() if k != "checksum"}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()


def _damaged(path: Path) -> TileSetError:
    return TileSetError(f"the tile set file {path} is damaged or not a tile set; enroll the set again")


def parse(data: object, path: Path) -> TileSet:
    """A TileSet from a file's parsed JSON, or TileSetError if anything is off."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _damaged(path)
    if isinstance(data.get("version"), int) and data["version"] < min(READABLE):
        raise TileSetError(f"the tile set file {path} was made by an older tablemate; enroll the set again")
    if data.get("version") not in READABLE or data.get("checksum") != _checksum(data):
        raise _damaged(path)
    try:
        classes = tuple(data["classes"])
        protos = np.asarray(data["prototypes"], np.float32)
        whiten = np.asarray(data["whiten"], np.float32)
        means = np.asarray(data["means"], np.float32)
        dim = int(data["dim"])
        if (protos.shape != (len(classes), dim) or whiten.shape != (dim, dim) or means.shape != (2 * len(classes), dim)
                or not set(classes) <= set(READER_CLASSES) or "back" not in classes
                or not all(np.isfinite(a).all() for a in (protos, whiten, means))):
            raise ValueError
        pictures = face_templates.decode(data["pictures"]) if data["version"] >= 3 else {}
        if not set(pictures) <= set(classes):
            raise ValueError
        order = sorted(range(len(classes)), key=lambda i: READER_CLASSES.index(classes[i]))
        return TileSet(
            name=str(data["name"]), reader_sha256=str(data["reader_sha256"]),
            classes=tuple(classes[i] for i in order), prototypes=protos[order], whiten=whiten,
            means=means[order + [len(classes) + i for i in order]], created=float(data["created"]),
            tile_px=tuple(float(v) for v in data["tile_px"]),
            tile_cm=None if data.get("tile_cm") is None else tuple(float(v) for v in data["tile_cm"]),
            area_cm=data.get("area_cm"), back_bgr=tuple(int(v) for v in data["back_bgr"]),
            face_lab=None if data.get("face_lab") is None else tuple(float(v) for v in data["face_lab"]),
            margins={k: (float(m), str(n)) for k, (m, n) in data.get("margins", {}).items()},
            bonus=bool(data.get("bonus", True)), spread=float(data["spread"]), temperature=float(data["temperature"]), weight=float(data["weight"]),
            pictures=pictures)
    except (KeyError, TypeError, ValueError, IndexError):
        raise _damaged(path) from None


# --- where sets live ----------------------------------------------------------------------------------------

def sets_dir(env: dict | None = None, db_path: str | os.PathLike | None = None) -> Path:
    """``$TABLEMATE_SETS``, else ``sets/`` beside the ledger (``db_path``, else the CLI's default ledger)."""
    env = os.environ if env is None else env
    if env.get("TABLEMATE_SETS"):
        return Path(env["TABLEMATE_SETS"])
    if db_path is None:
        from tablemate.app.ledger import default_db_path
        db_path = default_db_path(env)
    return Path(db_path).parent / "sets"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise TileSetError(f"'{name}' is not a usable set name (use 1-40 letters, digits, - or _)")
    return name


def set_path(name: str, folder: str | os.PathLike | None = None) -> Path:
    return Path(folder or sets_dir()) / (check_name(name) + SUFFIX)


def reader_sha256(models_dir=None) -> str:
    """The installed reader's sha256 (as recorded beside it and checked on every load)."""
    from .models import MODELS_DIR, READER, expected_sha256
    return expected_sha256(Path(models_dir or MODELS_DIR) / READER)


def load_file(path: str | os.PathLike, name: str | None = None, models_dir=None, check_models: bool = True) -> TileSet:
    """The set in ``path``, refused if missing, damaged or learned for another reader."""
    path = Path(path)
    shown = name or path.name.removesuffix(SUFFIX)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TileSetError(f"there is no tile set named {shown} in {path.parent}; "
                           f"enroll it with 'tablemate enroll IMAGE --name {shown}'") from None
    except (OSError, UnicodeDecodeError):
        raise _damaged(path) from None
    try:
        data = json.loads(text)
    except ValueError:
        raise _damaged(path) from None
    ts = parse(data, path)
    if check_models and ts.reader_sha256 != reader_sha256(models_dir):
        raise TileSetError(f"the tile set {shown} was learned for other models (the reader has been updated); "
                           f"enroll the set again")
    return ts


def load_set(name: str, folder: str | os.PathLike | None = None, models_dir=None) -> TileSet:
    """The set called ``name`` in ``folder`` (default ``sets_dir()``)."""
    return load_file(set_path(name, folder), name, models_dir)


def list_sets(folder: str | os.PathLike | None = None) -> list[Path]:
    d = Path(folder or sets_dir())
    return sorted(d.glob("*" + SUFFIX)) if d.is_dir() else []


def remove_set(name: str, folder: str | os.PathLike | None = None) -> Path:
    p = set_path(name, folder)
    try:
        p.unlink()
    except FileNotFoundError:
        raise TileSetError(f"there is no tile set named {name} in {p.parent}; "
                           f"enroll it with 'tablemate enroll IMAGE --name {name}'") from None
    return p

