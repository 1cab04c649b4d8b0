"""Handing freed memory back to the system after each picture.

Why: every camera frame allocates tens of megabytes of short-lived arrays
(the decoded frame, its rectified and shrunk copies, crops, model
buffers). glibc's allocator keeps what was freed for reuse, scattered, so
the service's resident memory creeps up frame after frame (86 MB of models
and libraries grew to 180 MB after eight 2304x1296 frames here) and a 12 MP
still on top of that pushed the appliance past 300 MB. ``malloc_trim``
returns the free pages (the same eight frames then leave 106 MB); the call
takes well under a millisecond, and the next frame pays a few milliseconds
to take pages back (frame to turn 52 -> about 60 ms,
benchmarks/appliance_latency.py). Elsewhere than glibc this does nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools


@functools.lru_cache(maxsize=1)
def _trim():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        return libc.malloc_trim if libc is not None else None
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to hand back this way
        return None


def give_back() -> bool:
    """Return freed heap pages to the system; whether the C library could."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
