"""Loading the ONNX models, checked against their recorded sha256.

Why the check: a model file cut short by a failed copy or replaced by a
different version gives plausible but wrong tiles; refusing it with a clear
message is better. Each ``models/NAME.onnx`` has ``models/NAME.onnx.sha256``.
Sessions run on one thread (the Pi budget is one core) and are cached.
"""
from __future__ import annotations

import functools
import hashlib
import os
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources
from pathlib import Path

import numpy as np

from .contract import BONUS_CLASSES, DET_CLASSES, READER_CLASSES
from .errors import VisionError


def _installed_models() -> Path:
    """Where the models are: inside the installed package, else the source checkout.

    Why both: a wheel carries the repository's top-level ``models/`` as
    ``tablemate/_models`` (pyproject.toml); an editable install runs from the
    checkout, where they stay in ``models/`` beside the package.
    """
    packaged = Path(str(resources.files("tablemate") / "_models"))
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "models"


MODELS_DIR = Path(os.environ.get("TABLEMATE_MODELS") or _installed_models())
DETECTOR = "tile_detector.onnx"
READER = "tile_reader.onnx"
#: A deeper reader trained from scratch, in 8-bit integers: reads the crops the first reader is unsure of.
DEEP_READER = "tile_reader_deep.onnx"
#: A reader on EfficientNet-Lite0 started from ImageNet weights, in 8-bit integers: its errors are not the deep one's.
LITE_READER = "tile_reader_lite.onnx"
#: The first reader, gone on with drawn sets and in 8-bit integers (``train.quantize``): reads without a learned set.
READER_INT8 = "tile_reader_int8.onnx"
BONUS = "tile_bonus.onnx"
CLASSES = {DETECTOR: DET_CLASSES, READER: READER_CLASSES, DEEP_READER: READER_CLASSES, LITE_READER: READER_CLASSES,
           READER_INT8: READER_CLASSES, BONUS: BONUS_CLASSES}


def expected_sha256(path: Path) -> str:
    side = path.with_name(path.name + ".sha256")
    try:
        return side.read_text().split()[0].strip().lower()
    except (OSError, IndexError):
        raise VisionError(f"the checksum file {side} is missing; reinstall the models") from None


def verify(path: Path) -> None:
    """Raise VisionError if the model file is missing or does not match its sha256."""
    if not path.is_file():
        raise VisionError(f"the model file {path} is missing; reinstall tablemate or its models/ folder")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != expected_sha256(path):
        raise VisionError(f"the model file {path} is corrupt (its sha256 does not match); reinstall it")


@functools.lru_cache(maxsize=8)
def _session(path_str: str, mtime: float, classes: tuple[str, ...]):
    import onnxruntime as ort
    path = Path(path_str)
    verify(path)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    # Only the detector keeps onnxruntime's memory arena. A reader's arena keeps every batch
    # size's buffers for the process's life (a 12 MP still peaked at about 310 MB with every
    # session's arena, 226 MB without). The detector's looks are few and alike, and without
    # its arena each 1024-pixel look takes fresh pages that glibc keeps afterwards: RSS crept
    # to 350 MB over 24 stills of 1.8-3.0 cm tiles. With it, RSS stays at 215 MB and each
    # look skips faulting its pages in (1.8 cm stills 217-221 against 237-251 ms median;
    # docs/training.md, "The detector's memory arena").
    so.enable_cpu_mem_arena = path.name == DETECTOR
    so.log_severity_level = 3
    try:
        sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own exception types
        raise VisionError(f"the model file {path} cannot be loaded: {e}") from None
    meta = sess.get_modelmeta().custom_metadata_map
    if tuple(meta.get("classes", "").split(",")) != classes:
        raise VisionError(f"the model file {path} was made for other tile classes; reinstall it")
    return sess


def session(name: str, models_dir: Path | None = None):
    path = Path(models_dir or MODELS_DIR) / name
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = 0.0
    return _session(str(path), mtime, CLASSES[name])


def run_detector(blob: np.ndarray, models_dir: Path | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(heat 3xHxW, size 2xHxW, orientation probs 4xHxW) for one rectified image blob."""
    heat, size, orient = session(DETECTOR, models_dir).run(None, {"image": blob})
    return heat[0], size[0], orient[0]


#: A deep reading this sure of the first reader's own first choice is agreed with the lite reader's as it is, not
#: read turned round too.
SURE = 0.99
#: A first reading this sure stands without the others'. Lower than SURE because the first reader, gone on with
#: drawn sets, spreads its probabilities more (temperature 0.95 against 0.75): at 0.95 it was sure of 4 wrong crops
#: of 6,564 drawn ones (the reader before at 0.99: 39) and of about as many wrong real-photo crops as that one at
#: 0.99 (docs/training.md, "A first reader that knows numerals").
FIRST_SURE = 0.95


#: The readings of one recognition (``readings_remembered``), by reader, models folder and crop; None outside one.
_REMEMBERED: ContextVar[dict | None] = ContextVar("readings_remembered", default=None)


@contextmanager
def readings_remembered():
    """Within it, each reader (the three of ``run_reader``, and ``run_bonus``) reads each distinct crop once and
    gives its first reading again.

    Why: a still's recognition reads some crops more than once. Grouping
    reads the odd tiles turned sideways (``recognize._group_with_second_look``),
    most of which reading had already turned the same way, and looks that
    outline a tile again often outline it to the pixel as before: of the
    3,985 crops the held-out photos' stills read at 1.8 cm (every fifth
    still), 435 were read before in the same still, most of them unsure
    ones, which the deep and lite readers read both ways up; of the 1,174
    the bonus reader read, 171, all in grouping's second look. The stills
    that read most again are the slowest: 608 against 686 ms for the
    slowest, the median still as before (docs/training.md, "A crop read
    once a recognition"). A crop's reading depends on its pixels alone:
    each reader reads every crop of a batch on its own (convolutions an
    image at a time, per-row softmax), so a reading taken from another
    batch is the very one (``tests/vision/test_models.py``). Why for one
    recognition only: the memo's crops are kept for its life, and a video
    frame's crops differ from the last frame's by the camera's noise. Why
    reader by reader, not the readers' agreement: a crop the deep and lite
    readers read turned round is, turned round, a crop of its own, which the
    sideways reads ask for (``recognize._turned_crops``); only the first
    reader reads it anew.
    """
    token = _REMEMBERED.set({})
    try:
        yield
    finally:
        _REMEMBERED.reset(token)


def _digests(blob: np.ndarray) -> list[bytes] | None:
    """Each crop's digest, the key it is remembered by; None outside ``readings_remembered`` (nothing is)."""
    if _REMEMBERED.get() is None:
        return None
    return [hashlib.blake2b(crop.tobytes(), digest_size=16).digest() for crop in blob]


def _remembered(reader: str, read, blob: np.ndarray, models_dir: Path | None,
                digests: list[bytes] | None = None) -> tuple[np.ndarray, ...]:
    """``read(blob, models_dir)`` (arrays of a row a crop), where within ``readings_remembered`` a crop ``reader``
    has read before in it is not read again (``digests``: the crops', if known)."""
    memo = _REMEMBERED.get()
    if memo is None or len(blob) == 0:
        return read(blob, models_dir)
    keys = [(reader, str(models_dir), d) for d in (digests if digests is not None else _digests(blob))]
    unread: dict = {}  # each crop not read yet, at its first place in the batch
    for j, k in enumerate(keys):
        if k not in memo and k not in unread:
            unread[k] = j
    if unread:
        rows = read(blob[list(unread.values())], models_dir)
        memo.update({k: tuple(out[n] for out in rows) for n, k in enumerate(unread)})
    return tuple(np.stack(column) for column in zip(*(memo[k] for k in keys)))


def _read_by(reader: str, blob: np.ndarray, models_dir: Path | None,
             digests: list[bytes] | None) -> tuple[np.ndarray, np.ndarray]:
    """One reader's (face probabilities, upside-down probabilities) for ``blob``, each crop read once a
    recognition."""
    def read(crops: np.ndarray, folder: Path | None) -> tuple[np.ndarray, np.ndarray]:
        return tuple(session(reader, folder).run(["probs", "flip"], {"crops": crops}))
    return _remembered(reader, read, blob, models_dir, digests)


def run_reader(blob: np.ndarray, models_dir: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(face probabilities Nx43, upside-down probabilities Nx2) for a batch of crops: the readers agreed;
    within ``readings_remembered`` a crop already read is not read again.

    Why more than one reader: on held-out real photos differently trained
    nets err on different tiles, and the normalised geometric mean of their
    probabilities reads more of them right than any alone
    (models/tile_reader_lite.md). Why these two: a net from scratch on our
    data and one that starts from ImageNet's features differ most; with the
    lite reader in place of a second copy of the deep net, the held-out
    photo crops read 97.3 against 96.4 % (docs/training.md, "A reader that
    starts from ImageNet"). A learned set keeps to ``tile_reader.onnx``
    (``run_reader_embedding``): the other readers' features suit its
    discriminant worse.

    Why only where the first is unsure: the other two readers cost most of
    the reading time of a still, and where the first reader is sure
    (``FIRST_SURE``) it changed no reading of the benchmark's real photos or
    rendered tables (docs/training.md, "Asking the second reader only when
    the first is unsure"; "A first reader that knows numerals").

    Why the crops turned round only where the deep reader is unsure too,
    or reads another face than the first: where it is SURE of the first
    reader's own first choice, the deep and lite readers' agreement is
    asked as it is. Turned round costs as much again as both readers (the
    lite one 1.3 ms a crop here, the deep one 0.7, the first 0.5), and for
    the lite reader's word alone there it read three training photo tiles
    more at 1.8 cm and none fewer at 2.2 or 3.0 cm, a still's median 4 ms
    longer (docs/training.md, "The lite reader's word where the deep one is
    sure"). The sure crops keep the first and deep readers' upside-down
    flags, as before; with the lite reader's they were not tried.

    Why the first reader's probabilities leave the agreement there: on the
    held-out photo crops the two other readers alone read more right than
    the three together (with the deep pair, docs/training.md, "A second deep
    reader"; with the deep and lite readers on the detector's own crops,
    96.1 against 95.8 %, "Where the photos' errors lie"); the upside-down
    flags of all three are averaged, which read best.

    Why the first reader in 8-bit integers (``READER_INT8``): it reads every
    crop, and 8-bit convolutions with their activations folded in take a
    third to a half of the float time here, reading alike (docs/training.md,
    "The first reader in 8-bit integers", "Activations in 8 bits too"). It
    is not the float ``READER`` quantized but a reader gone on from it with
    sets drawn from the faces' meaning: the float one read the art's strokes,
    and was sure of 三萬 as 二萬 in a typeface it never saw.
    """
    if len(blob) == 0:
        return np.zeros((0, len(READER_CLASSES)), np.float32), np.zeros((0, 2), np.float32)
    digests = _digests(blob)
    probs, flip = _read_by(READER_INT8, blob, models_dir, digests)
    unsure = np.flatnonzero(probs.max(axis=1) < FIRST_SURE)
    if not len(unsure):
        return probs, flip
    some = None if digests is None else [digests[j] for j in unsure]
    deep, deep_flip = _read_by(DEEP_READER, blob[unsure], models_dir, some)
    lite, lite_flip = _read_by(LITE_READER, blob[unsure], models_dir, some)
    settled = (deep.max(axis=1) >= SURE) & (deep.argmax(axis=1) == probs[unsure].argmax(axis=1))
    done, rest = unsure[settled], unsure[~settled]
    probs[unsure] = agree(deep, lite)
    flip[done] = (flip[done] + deep_flip[settled]) / 2
    if len(rest):
        _agree_turned_round(probs, rest, blob, deep[~settled], lite[~settled], models_dir)
        flip[rest] = (flip[rest] + deep_flip[~settled] + lite_flip[~settled]) / 3
    return probs, flip


def _agree_turned_round(probs: np.ndarray, rest: np.ndarray, blob: np.ndarray, deep: np.ndarray, lite: np.ndarray,
                        models_dir: Path | None) -> None:
    """The ``rest`` rows (deep and lite readings ``deep``, ``lite``) read again from their crops turned round (in place).

    Why: the readers learned tiles either way up, so a crop turned half a
    turn is a second view of the same face, sampled differently by every
    filter; where the two readers disagree or are unsure, their four
    readings agreed read more held-out real photo tiles right than their
    two: 24 of 15,730 over 1.8-4.0 cm, more at every size (docs/training.md,
    "Crops turned round"). Why not where a back is one of the two likeliest
    readings: a blank white dragon and a back differ in the tile's sides and
    shading, not in a picture, and turned round the readers took more
    rendered blank dragons for backs (4 against 1 of the held-out look's
    tables over the whole size range). Why not for the first reader too:
    agreeing its turned reading with its own as well moved the photos by
    a tile or none a size.
    """
    back = READER_CLASSES.index("back")
    either = np.flatnonzero((np.argsort(-probs[rest], axis=1)[:, :2] != back).all(axis=1))
    if not len(either):
        return
    turned = np.ascontiguousarray(blob[rest[either]][:, :, ::-1, ::-1])
    digests = _digests(turned)
    deep_t = _read_by(DEEP_READER, turned, models_dir, digests)[0]
    lite_t = _read_by(LITE_READER, turned, models_dir, digests)[0]
    probs[rest[either]] = agree(deep[either], lite[either], deep_t, lite_t)


def agree(*readings: np.ndarray, floor: float = 1e-12) -> np.ndarray:
    """The normalised geometric mean of readings of the same crops (each N x classes): a face all find likely wins.

    ``floor``: the least probability a reading counts with, so one reading
    sure a face is impossible cannot veto it outright.
    """
    logs = np.mean([np.log(np.maximum(r, floor)) for r in readings], axis=0)
    g = np.exp(logs - logs.max(axis=-1, keepdims=True))
    return (g / g.sum(axis=-1, keepdims=True)).astype(np.float32)


def run_reader_embedding(blob: np.ndarray, models_dir: Path | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(face probabilities Nx43, upside-down Nx2, the reader's pooled features NxD) for a batch of crops.

    Why a second entry point: only enrollment and a learned set need the
    features; recognition without a set asks for the probabilities alone.
    Always the float reader: a set's faces are learned in its features (and
    set files record its sha256), and with the 8-bit reader abstract sets
    lost tiles.
    """
    sess = session(READER, models_dir)
    if "embedding" not in {o.name for o in sess.get_outputs()}:
        raise VisionError("the reader model has no 'embedding' output (made before enrollment); reinstall the models")
    if len(blob) == 0:
        dim = sess.get_outputs()[2].shape[1]
        return (np.zeros((0, len(READER_CLASSES)), np.float32), np.zeros((0, 2), np.float32),
                np.zeros((0, dim if isinstance(dim, int) else 0), np.float32))
    probs, flip, emb = sess.run(["probs", "flip", "embedding"], {"crops": blob})
    return probs, flip, emb


def run_bonus(blob: np.ndarray, models_dir: Path | None = None) -> np.ndarray:
    """h1..h8 / other probabilities (Nx9) for a batch of full-resolution crops; within ``readings_remembered`` a
    crop already read is not read again."""
    return _remembered(BONUS, _read_bonus, blob, models_dir)[0]


def _read_bonus(blob: np.ndarray, models_dir: Path | None) -> tuple[np.ndarray]:
    if len(blob) == 0:
        return (np.zeros((0, len(BONUS_CLASSES)), np.float32),)
    return (session(BONUS, models_dir).run(None, {"crops": blob})[0],)
