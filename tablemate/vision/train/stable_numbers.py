"""Numbers drawn from names, the same in every run, on every machine.

Why not ``hash()``: Python salts a string's hash per process, and a split
that moved between runs would put held-out photos into training and
validation crops into the training batches. A slice of the name's sha1
never moves; each use takes its own slice, so the held-out split, a
photo's group number and the validation split do not follow one another.
"""
from __future__ import annotations

import hashlib


def name_number(name: str | bytes, start: int, stop: int) -> int:
    """The big-endian integer in bytes ``start:stop`` of ``name``'s sha1 (a string as UTF-8)."""
    data = name.encode() if isinstance(name, str) else name
    return int.from_bytes(hashlib.sha1(data).digest()[start:stop], "big")
