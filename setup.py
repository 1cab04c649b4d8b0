"""Package discovery for setuptools; everything else is in pyproject.toml.

Why a setup.py: the ONNX models stay in the repository's top-level
``models/`` folder (model cards, training and benchmarks refer to it there),
yet must ship inside the wheel. pyproject.toml cannot combine automatic
package discovery with mapping one extra folder to a package, so this file
does both: every ``tablemate*`` package, plus ``models/`` as
``tablemate/_models`` (found at run time by ``tablemate.vision.models``).
"""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["tablemate*"]) + ["tablemate._models"],
    package_dir={"tablemate._models": "models"},
)
