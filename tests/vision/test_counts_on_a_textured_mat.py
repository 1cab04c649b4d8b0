"""Tiles found clearly keep their readings before patches of a textured mat found faintly
(``tile_counts.assign_within_counts``'s ``found``, ``recognize._found``).

A held-out real photo (tests/vision/data/README.md): a rack of fourteen tiles
on a green mesh mat, laid on the benchmark's mat as the photo benchmark lays
it. The detector finds dozens of faint patches on the mesh, and the reader
reads many of them surely as pips and flowers.
"""
import pytest

from tablemate.vision import tile_counts

from .test_few_tiles_look import _photo, _recognized

RACK = "393108498_1026650501930230_4447288272682756468_n_jpg_v0.jpg"


@pytest.mark.parametrize("tile_cm", [3.5, 4.0])
def test_the_racks_pips_keep_their_readings_beside_a_mesh_read_as_pips(tmp_path, monkeypatch, tile_cm):
    photo = _photo(RACK)
    right, outlines = _recognized(photo, tile_cm, tmp_path)
    assert len(photo.tiles) == 14 and outlines > 40  # the mesh is outlined too ...
    assert right >= 13  # ... and the rack is read as it lies
    monkeypatch.setattr(tile_counts, "FOUND_CLEARLY", 0.0)  # every outline counts as found clearly: by reading alone
    by_reading, _ = _recognized(photo, tile_cm, tmp_path)
    assert by_reading <= right - 2
