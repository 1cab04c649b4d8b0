"""Freed memory is handed back to the system (app/memory.py), as the service does after each picture."""
from __future__ import annotations

import subprocess
import sys

import pytest

# Run in a fresh interpreter: in this test process other tests' threads and allocations decide which
# glibc arena and heap the blocks land in, and so whether free() alone already shrinks the heap.
SCRIPT = r"""
import ctypes, ctypes.util
from tablemate.app.memory import give_back

def rss():
    with open("/proc/self/status") as f:
        return int(next(l for l in f if l.startswith("VmRSS:")).split()[1]) / 1024

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
# 3000 blocks of 64 KB (below glibc's mmap threshold: on its heap), written so they are resident,
# then one more block kept alive above them: freed, the heap cannot shrink past it. The pin is as
# big as the blocks so it comes from the heap's top (a small one could land in a free hole below).
blocks = [libc.malloc(64 * 1024) for _ in range(3000)]
for b in blocks:
    ctypes.memset(b, 1, 64 * 1024)
pin = libc.malloc(64 * 1024)
before = rss()
for b in blocks:
    libc.free(b)
freed = rss()
ok = give_back()
print(before, freed, rss(), ok)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc and /proc are Linux's")
def test_memory_freed_below_a_live_block_goes_back_to_the_system():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True).stdout.split()
    before, freed, after = (float(v) for v in out[:3])
    assert out[3] == "True"
    assert freed > before - 60          # free() alone kept most of the ~190 MB resident
    assert after < freed - 120          # give_back handed it back
