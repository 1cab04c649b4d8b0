"""Committed rendered photos (JPEG) with their calibration and ground truth.

Made by ``python -m tests.vision.make_photos``; see tests/vision/data/README.md.
"""
from pathlib import Path

DATA = Path(__file__).with_name("data")
PHOTOS = [(p, p.with_suffix(".cal.json"), p.with_suffix(".truth.json")) for p in sorted(DATA.glob("*.jpg"))]
