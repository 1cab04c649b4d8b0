"""`tablemate markers`: a printable sheet that keeps its true size and holds the four markers."""
import cv2
from PIL import Image

from tablemate.cli.main import main
from tablemate.vision.markers import CORNER_IDS


def test_sheet_is_written_with_its_resolution_and_markers(tmp_path, capsys):
    out = tmp_path / "markers.png"
    assert main(["markers", str(out), "--dpi", "150"]) == 0
    with Image.open(out) as im:
        assert tuple(round(v) for v in im.info["dpi"]) == (150, 150)
        assert abs(im.size[0] / 150 * 2.54 - 21.0) < 0.1  # A4 width in cm
    grey = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = det.detectMarkers(grey)
    assert sorted(ids.ravel().tolist()) == list(CORNER_IDS)


def test_bad_requests_are_refused_with_a_reason(tmp_path, capsys):
    assert main(["markers", str(tmp_path / "m.pdf")]) == 2
    assert "PNG" in capsys.readouterr().err
    assert main(["markers", str(tmp_path / "no" / "dir" / "m.png")]) == 1
    assert "cannot write" in capsys.readouterr().err
    assert main(["markers", str(tmp_path / "m.png"), "--dpi", "5"]) == 2
