"""An overlay picture so a person can check a recognition at a glance.

Every tile's outline is drawn in its role's colour with its code and
confidence; low-confidence readings are drawn thicker in red.
"""
from __future__ import annotations

import cv2
import numpy as np

ROLE_COLOURS = {  # BGR
    "hand": (255, 200, 0), "winning": (0, 215, 255), "meld": (0, 220, 0), "flower": (255, 0, 255),
    "discard": (200, 200, 200), "wall": (120, 120, 120), "unknown": (0, 0, 255),
}
MAX_SIDE = 2304


def draw_overlay(image: np.ndarray, recognition: dict) -> np.ndarray:
    """A copy of ``image`` (BGR, any size) with the recognition drawn on it, at most 2304 px wide."""
    w = recognition["image"]["width"]
    s = min(1.0, MAX_SIDE / max(image.shape[:2])) * image.shape[1] / max(w, 1)
    out = cv2.resize(image, None, fx=min(1.0, MAX_SIDE / max(image.shape[:2])),
                     fy=min(1.0, MAX_SIDE / max(image.shape[:2])), interpolation=cv2.INTER_AREA)
    for t in recognition["tiles"]:
        q = (np.array(t["corners"], np.float64) * s).astype(np.int32)
        col = ROLE_COLOURS.get(t["role"], (0, 0, 255))
        low = t["confidence"] < 0.8
        cv2.polylines(out, [q], True, (0, 0, 255) if low else col, 3 if low else 1, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in q[0]), 2, col, -1)  # the tile's top-left as read
        label = f"{t['code']} {t['confidence']:.2f}" if t["code"] != "back" else "back"
        org = (int(q[:, 0].min()), int(q[:, 1].min()) - 3)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.38, col, 1, cv2.LINE_AA)
    return out
