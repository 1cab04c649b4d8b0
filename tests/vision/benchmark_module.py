"""A script of ``benchmarks/`` loaded as a module, for the tests of what it counts."""
import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name: str):
    """``benchmarks/NAME.py`` as a fresh module (the scripts are not a package; each puts its folder on the path)."""
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", BENCHMARKS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
