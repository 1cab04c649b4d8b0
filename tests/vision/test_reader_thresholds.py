"""benchmarks/reader_thresholds.py: recognition's readers at another bar for the first reader."""
import numpy as np

from tablemate.vision import models
from tablemate.vision.contract import READER_CLASSES, reader_blob

from .benchmark_module import load_benchmark
from .art_crops import face_crop


def _bench():
    return load_benchmark("reader_thresholds")


def test_a_bar_decides_which_crops_the_first_reader_reads_alone_and_is_put_back():
    bench = _bench()
    codes = list(READER_CLASSES[:34])
    blob = reader_blob([face_crop(c, "uni") for c in codes])
    ys = np.array([READER_CLASSES.index(c) for c in codes])
    first = models.session(models.READER_INT8).run(["probs"], {"crops": blob})[0]
    assert np.allclose(bench.first_readings(blob), first)
    shipped = models.FIRST_SURE
    alone = bench.at_bar(blob, ys, first, 0.0)  # every first reading stands
    assert alone["unsure"] == 0.0 and alone["read_right"] == float(np.mean(first.argmax(1) == ys))
    assert alone["sure_and_wrong"] == int(np.sum(first.argmax(1) != ys))
    asked = bench.at_bar(blob, ys, first, 1.01)  # the other readers read every crop
    assert asked["unsure"] == 1.0 and asked["sure_and_wrong"] == 0
    assert models.FIRST_SURE == shipped
