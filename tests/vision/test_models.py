"""The shipped models: files, checksums, and their input/output contract."""
import hashlib
from contextlib import contextmanager

import cv2
import numpy as np
import onnxruntime as ort
import pytest

from tablemate.vision.contract import (BONUS_CLASSES, BONUS_H, BONUS_W, DET_CLASSES, DET_SIZE, DET_STRIDE, READ_H,
                                       READ_W, READER_CLASSES, bonus_crop, reader_blob)
from tablemate.vision.models import (BONUS, CLASSES, DEEP_READER, LITE_READER, DETECTOR, MODELS_DIR, READER,
                                     READER_INT8, FIRST_SURE, SURE, agree, readings_remembered, run_bonus, run_reader,
                                     run_reader_embedding, session)

from .art_crops import face_crop


def test_every_shipped_model_is_one_recognition_knows_and_the_other_way_round():
    """The model tests run over ``models.CLASSES``: a file shipped beside it, or one it names but lacks, is a mistake."""
    assert sorted(p.name for p in MODELS_DIR.glob("*.onnx")) == sorted(CLASSES)
    assert len(CLASSES) == 6


@pytest.mark.parametrize("name", list(CLASSES))
def test_model_file_is_small_and_matches_its_checksum(name):
    path = MODELS_DIR / name
    assert path.stat().st_size < 10 * 1024 * 1024
    want = (MODELS_DIR / (name + ".sha256")).read_text().split()[0]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == want


def _sess(name):
    return ort.InferenceSession(str(MODELS_DIR / name), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("name", [READER, DEEP_READER, LITE_READER, READER_INT8])
def test_reader_contract(name):
    s = _sess(name)
    meta = s.get_modelmeta().custom_metadata_map
    assert tuple(meta["classes"].split(",")) == READER_CLASSES
    assert len(READER_CLASSES) == 43 and READER_CLASSES[-1] == "back"
    (inp,) = s.get_inputs()
    assert inp.name == "crops" and list(inp.shape[1:]) == [3, READ_H, READ_W]
    x = np.random.default_rng(0).random((5, 3, READ_H, READ_W), dtype=np.float32)
    probs, flip, emb = s.run(["probs", "flip", "embedding"], {"crops": x})
    assert probs.shape == (5, 43) and flip.shape == (5, 2)
    assert emb.shape[0] == 5 and emb.shape[1] >= 32 and np.isfinite(emb).all()
    assert np.allclose(probs.sum(1), 1, atol=1e-4) and (probs >= 0).all()
    assert float(meta["temperature"]) > 0


def test_agree_takes_the_face_both_readers_find_likely():
    a = np.float32([[0.60, 0.40, 0.00], [0.1, 0.8, 0.1]])
    b = np.float32([[0.0001, 0.50, 0.4999], [0.1, 0.8, 0.1]])
    p = agree(a, b)
    assert np.allclose(p.sum(1), 1, atol=1e-6)
    assert p[0].argmax() == 1  # neither reader's own first choice alone
    assert np.allclose(p[1], b[1], atol=1e-6)  # two readers that agree change nothing


def _unsure_batch() -> np.ndarray:
    """Art faces, the same blurred, and noise: crops of every kind of row ``run_reader`` tells apart."""
    faces = [face_crop(c, "uni") for c in READER_CLASSES[:34]]
    blurred = [cv2.GaussianBlur(f, (0, 0), 2.0) for f in faces]  # softer faces: fewer sure readings
    noise = np.random.default_rng(1).random((6, 3, READ_H, READ_W), dtype=np.float32)
    return np.concatenate([reader_blob(faces + blurred), noise])


def test_run_reader_asks_the_deep_and_lite_readers_where_the_first_is_unsure_and_turns_the_crop_where_that_is_unsure():
    """Sure rows are the first (8-bit) reader's own; unsure rows the deep and lite readers' agreement, with their
    readings of the crop turned round too unless the deep reader is sure of the first reader's own first choice or
    a back is one of that agreement's two likeliest faces."""
    x = _unsure_batch()
    pa, fa = _sess(READER_INT8).run(["probs", "flip"], {"crops": x})
    pb, fb = _sess(DEEP_READER).run(["probs", "flip"], {"crops": x})
    pc, fc = _sess(LITE_READER).run(["probs", "flip"], {"crops": x})
    first_sure = pa.max(1) >= FIRST_SURE
    settled = ~first_sure & (pb.max(1) >= SURE) & (pb.argmax(1) == pa.argmax(1))
    rest = ~first_sure & ~settled
    assert first_sure.any() and settled.any() and rest.any()  # every kind of row is in the batch
    probs, flip = run_reader(x)
    assert not np.allclose(pb, pc, atol=1e-3)  # two different nets
    assert np.allclose(probs[first_sure], pa[first_sure], atol=1e-6)
    assert np.allclose(flip[first_sure], fa[first_sure], atol=1e-6)
    two = agree(pb, pc)
    assert np.allclose(probs[settled], two[settled], atol=1e-6)
    assert not np.allclose(probs[settled], pb[settled], atol=1e-4)  # the lite reader has its say there too
    assert np.allclose(flip[settled], (fa[settled] + fb[settled]) / 2, atol=1e-6)
    turned = np.ascontiguousarray(x[:, :, ::-1, ::-1])
    pb_t = _sess(DEEP_READER).run(["probs"], {"crops": turned})[0]
    pc_t = _sess(LITE_READER).run(["probs"], {"crops": turned})[0]
    backish = (np.argsort(-two, axis=1)[:, :2] == READER_CLASSES.index("back")).any(axis=1)
    four = rest & ~backish
    assert four.any() and (rest & backish).any()
    assert np.allclose(probs[four], agree(pb[four], pc[four], pb_t[four], pc_t[four]), atol=1e-5)
    assert not np.allclose(probs[four], two[four], atol=1e-3)  # the turned readings have a say
    assert np.allclose(probs[rest & backish], two[rest & backish], atol=1e-5)
    assert np.allclose(flip[rest], (fa[rest] + fb[rest] + fc[rest]) / 3, atol=1e-6)


def test_a_crop_the_readers_disagree_on_reads_the_same_either_way_up():
    """Where the deep and lite readers are both asked, the crop and the crop turned round are read alike: each way
    up is one of the four readings agreed (the first reader, which decides who is asked, may differ)."""
    x = _unsure_batch()
    turned = np.ascontiguousarray(x[:, :, ::-1, ::-1])

    def asked_both(blob):
        pa = _sess(READER_INT8).run(["probs"], {"crops": blob})[0]
        pb = _sess(DEEP_READER).run(["probs"], {"crops": blob})[0]
        two = agree(pb, _sess(LITE_READER).run(["probs"], {"crops": blob})[0])
        settled = (pb.max(1) >= SURE) & (pb.argmax(1) == pa.argmax(1))
        no_back = (np.argsort(-two, axis=1)[:, :2] != READER_CLASSES.index("back")).all(axis=1)
        return (pa.max(1) < FIRST_SURE) & ~settled & no_back

    both = asked_both(x) & asked_both(turned)
    assert both.sum() >= 3
    assert np.allclose(run_reader(x)[0][both], run_reader(turned)[0][both], atol=1e-5)


@contextmanager
def _crops_counted(name: str, counted: list[int], **more: list[int]):
    """Within it, recognition's ``name`` session (and each of ``more``'s, by its name) is onnxruntime's own, and
    each run appends how many crops it is given to ``counted`` (``more[name]``)."""
    lists = {name: counted, **more}

    class Counting:
        def __init__(self, n):
            self.real, self.counted = session(n), lists[n]

        def run(self, names, feed):
            self.counted.append(len(feed["crops"]))
            return self.real.run(names, feed)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("tablemate.vision.models.session",
                   lambda n, models_dir=None: Counting(n) if n in lists else session(n, models_dir))
        yield


def test_a_crop_read_again_in_one_recognition_is_given_its_first_reading_exactly():
    """Within ``readings_remembered`` a crop read before, in a batch of other crops, reads to the bit as it would
    read there afresh (each reader reads every crop of a batch on its own), and is not read by the readers again;
    outside it every crop is read."""
    x = _unsure_batch()
    first, later = x[::2], np.concatenate([x[1::2], x[::4], x[::4][:3]])  # a quarter read before, three twice
    alone_p, alone_f = run_reader(later)
    counted: list[int] = []
    with _crops_counted(READER_INT8, counted):
        with readings_remembered():
            run_reader(first)
            p, f = run_reader(later)
            p[:] = 0  # the caller's copy: changing it leaves the remembered readings alone
            again_p, _ = run_reader(later)
        run_reader(later)
    assert counted == [len(first), len(x[1::2]), len(later)]
    assert np.array_equal(f, alone_f) and np.array_equal(again_p, alone_p)
    assert (alone_p.argmax(1) != 0).any()  # ``p[:] = 0`` would show


def test_a_crop_the_deep_and_lite_readers_read_turned_round_is_not_read_by_them_again_turned_round():
    """Within ``readings_remembered`` each reader remembers its own readings: of the crops turned round, read after
    the crops, the first reader reads every one, the deep reader only those it had not read turned round (and, of
    those it reads turned round in turn, the crops it had not read); every reading is the one read afresh."""
    x = _unsure_batch()
    turned = np.ascontiguousarray(x[:, :, ::-1, ::-1])
    alone = run_reader(turned)

    def asked(blob):
        """(the rows the deep reader reads, those it reads turned round too)"""
        pa = _sess(READER_INT8).run(["probs"], {"crops": blob})[0]
        pb = _sess(DEEP_READER).run(["probs"], {"crops": blob})[0]
        two = agree(pb, _sess(LITE_READER).run(["probs"], {"crops": blob})[0])
        unsure = pa.max(1) < FIRST_SURE
        rest = unsure & ~((pb.max(1) >= SURE) & (pb.argmax(1) == pa.argmax(1)))
        return unsure, rest & (np.argsort(-two, axis=1)[:, :2] != READER_CLASSES.index("back")).all(axis=1)

    unsure_x, round_x = asked(x)
    unsure_t, round_t = asked(turned)
    first, deep = [], []
    with _crops_counted(READER_INT8, first, **{DEEP_READER: deep}):
        with readings_remembered():
            run_reader(x)
            assert sum(deep) == unsure_x.sum() + round_x.sum()
            deep.clear()
            again = run_reader(turned)
    assert first == [len(x), len(x)]
    read_again = (unsure_t & ~round_x).sum() + (round_t & ~unsure_x).sum()
    assert sum(deep) == read_again < unsure_t.sum() + round_t.sum()
    assert np.array_equal(again[0], alone[0]) and np.array_equal(again[1], alone[1])


def test_bonus_reader_contract():
    s = _sess(BONUS)
    meta = s.get_modelmeta().custom_metadata_map
    assert tuple(meta["classes"].split(",")) == BONUS_CLASSES
    assert BONUS_CLASSES == ("h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "other")
    (inp,) = s.get_inputs()
    assert inp.name == "crops" and list(inp.shape[1:]) == [3, BONUS_H, BONUS_W]
    x = np.random.default_rng(0).random((4, 3, BONUS_H, BONUS_W), dtype=np.float32)
    (probs,) = s.run(None, {"crops": x})
    assert probs.shape == (4, 9) and np.allclose(probs.sum(1), 1, atol=1e-4) and (probs >= 0).all()
    assert float(meta["temperature"]) > 0


def test_detector_contract():
    s = _sess(DETECTOR)
    meta = s.get_modelmeta().custom_metadata_map
    assert tuple(meta["classes"].split(",")) == DET_CLASSES
    (inp,) = s.get_inputs()
    assert inp.name == "image" and inp.shape[:2] == [1, 3] and all(isinstance(d, str) for d in inp.shape[2:])
    heat, size, orient = s.run(None, {"image": np.zeros((1, 3, DET_SIZE, DET_SIZE), np.float32)})
    g = DET_SIZE // DET_STRIDE
    assert heat.shape == (1, 3, g, g) and size.shape == (1, 2, g, g) and orient.shape == (1, 4, g, g)
    assert 0 <= heat.min() and heat.max() <= 1
    assert np.allclose(orient.sum(1), 1, atol=1e-4)
    assert heat.max() < 0.35, "an empty (black) table must not show tiles"


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_only_the_detector_keeps_a_memory_arena(name):
    # Why: without its arena each closer look's pages stay with glibc and the appliance creeps
    # past 300 MB; a reader's arena keeps every batch size's buffers for good (models._session).
    assert session(name).get_session_options().enable_cpu_mem_arena is (name == DETECTOR)


def test_reader_reads_the_plain_art_faces():
    """The untouched CC0 / public-domain faces must be read (a floor, not the benchmark)."""
    cases = [(c, "uni") for c in READER_CLASSES[:-1]] + [(c, "fluffy") for c in READER_CLASSES[:34]]
    probs, flip = run_reader(reader_blob([face_crop(c, a) for c, a in cases]))
    pred = [READER_CLASSES[k] for k in probs.argmax(1)]
    right = sum(p == c for p, (c, _) in zip(pred, cases))
    assert right >= 0.95 * len(cases), [(c, a, p) for p, (c, a) in zip(pred, cases) if p != c]


def test_reader_notices_upside_down_tiles():
    codes = ["1m", "5m", "9m", "E", "S", "W", "N", "C", "F", "h1", "h5", "h7"]
    _, up = run_reader(reader_blob([face_crop(c, "uni") for c in codes]))
    _, down = run_reader(reader_blob([face_crop(c, "uni", up=False) for c in codes]))
    assert down[:, 1].mean() > up[:, 1].mean() + 0.3
    assert (down[:, 1] > up[:, 1]).mean() >= 0.8


def test_bonus_reader_reads_the_plain_art_flowers_and_seasons_and_knows_other_tiles():
    codes = [f"h{k}" for k in range(1, 9)] + ["5p", "3m", "E"]
    crops = [face_crop(code, "uni", cut=bonus_crop) for code in codes]
    probs = run_bonus(reader_blob(crops, size=(BONUS_W, BONUS_H)))
    got = [BONUS_CLASSES[k] for k in probs.argmax(1)]
    assert got == codes[:8] + ["other"] * 3


def test_a_bonus_crop_read_again_in_one_recognition_is_given_its_first_reading_exactly():
    """As the readers' (above): the bonus reader, in float, reads a crop alike in any batch, and within
    ``readings_remembered`` is given only the crops it has not read."""
    codes = [f"h{k}" for k in range(1, 9)] + ["5p", "3m", "E", "P"]
    x = reader_blob([face_crop(code, "uni", cut=bonus_crop) for code in codes], size=(BONUS_W, BONUS_H))
    first, later = x[:8], x[4:]
    alone = run_bonus(later)
    counted: list[int] = []
    with _crops_counted(BONUS, counted):
        with readings_remembered():
            run_bonus(first)
            again = run_bonus(later)
    assert counted == [8, 4]
    assert np.array_equal(again, alone)


def test_the_first_reader_is_8bit_reads_the_art_and_a_learned_set_keeps_to_the_float_reader():
    """The first reader (gone on with drawn sets, then quantized) reads the plain art; sets use the float reader."""
    import onnx
    cases = [(c, "uni") for c in READER_CLASSES[:-1]] + [(c, "fluffy") for c in READER_CLASSES[:34]]
    x = reader_blob([face_crop(c, a) for c, a in cases] + [face_crop(c, "uni", up=False) for c in ("1m", "E", "h5")])
    want = [READER_CLASSES.index(c) for c, _ in cases] + [READER_CLASSES.index(c) for c in ("1m", "E", "h5")]
    (pf,) = _sess(READER).run(["probs"], {"crops": x})
    pq, fq = _sess(READER_INT8).run(["probs", "flip"], {"crops": x})
    assert (pq.argmax(1) == want).mean() >= 0.93  # a floor on the untouched CC0 art, not the benchmark
    assert fq[-3:, 1].min() > 0.5 > fq[:-3, 1].mean()  # the three turned round are seen so
    assert np.abs(pf - pq).max() > 0  # not the float reader
    assert any(n.op_type == "DequantizeLinear" for n in onnx.load(str(MODELS_DIR / READER_INT8)).graph.node)
    ins = {o.name for o in _sess(READER_INT8).get_outputs()}
    assert {"probs", "flip", "embedding"} <= ins
    _, _, emb = run_reader_embedding(x[:4])
    (want,) = _sess(READER).run(["embedding"], {"crops": x[:4]})
    assert np.allclose(emb, want, atol=1e-6)
