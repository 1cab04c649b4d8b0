"""Package discovery for setuptools; everything else is in pyproject.toml.

Why a setup.py: the ONNX models stay in the repository's top-level
``models/`` folder (model cards, training and benchmarks refer to it there),
yet must ship inside the wheel. pyproject.toml cannot combine automatic
package discovery with mapping one extra folder to a package, so this file
does both: every ``tablemate*`` package, plus ``models/`` as
``tablemate/_models`` (found at run time by ``tablemate.vision.models``).

Namespace discovery, because the data folders (art, fonts, translations,
templates) have no ``__init__.py``: Python can import them as packages, and
setuptools warns that a package left out of ``packages`` "would be ignored",
its files then missing from the wheel.
"""
from setuptools import find_namespace_packages, setup

setup(
    packages=find_namespace_packages(include=["tablemate", "tablemate.*"], exclude=["*.__pycache__"])
    + ["tablemate._models"],
    package_dir={"tablemate._models": "models"},
)
