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
