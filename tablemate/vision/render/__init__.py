"""Synthetic mahjong table renderer (training data, benchmarks, demos).

Why: no labelled photos of whole tables exist; a renderer that follows
docs/table-setup.md exactly gives unlimited scenes with exact ground truth.

Public entry points (numpy + OpenCV only, no torch):

- ``random_layout(rng, phase="scoring" | "play") -> layout``: a physically
  possible table. A *layout* is ``{"seats": {side: seat}, "wall_stacks": n}``
  where each seat has the docs/formats.md recognition fields (``melds``,
  ``concealed``, ``flowers``, ``winning_tile``, ``hand_hidden``,
  ``discards``); a meld may add ``"turned": i`` (its i-th tile lies turned,
  a claimed tile), a hidden hand may add ``"standing_count"``.
- ``render_scene(layout, seed, family="train", image_size=(4608, 2592))
  -> (bgr_image, ground_truth, calibration)``: a camera photo. The ground
  truth is a recognition dict (docs/formats.md) with every tile's code, outline
  in image pixels, face up/down, side, role and group; standing tiles are
  not listed (they are unreadable) but make ``hand_hidden`` true. The
  calibration has the docs/table-setup.md shape. Same layout + seed = same picture;
  this is what a later appliance demo uses to render a recorded session,
  one frame per table state (phase ``play`` for frames during play).
  ``look_seed=`` makes the frames of one session: the same camera, table,
  mat and tile set in every frame, only the jitter and sensor noise change.
- ``render_topdown(layout, seed, out_size=...)``: the play area straight
  from above, as the calibration rectifies it (training data);
  ``truth_topdown`` gives the same ground truth without drawing.

``family="holdout"`` draws faces, backs, mats and light from recipes that
training never uses, for the accuracy benchmark.
"""
from .layout import random_layout
from .scene import random_look, render_scene, render_topdown, truth_topdown

__all__ = ["random_layout", "render_scene", "render_topdown", "truth_topdown", "random_look"]
