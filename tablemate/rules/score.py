"""The result of scoring one hand, as docs/formats.md "A score" shows it."""
from __future__ import annotations

from dataclasses import dataclass, field

from .phrase import Phrase


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One fan (MCR) or one basic-points / doubling item (classical)."""

    name: str
    points: int
    count: int = 1
    doublings: int = 0
    #: Which tiles earned it, in notation, for the explanation.
    source: str = ""

    def to_json(self) -> dict:
        out: dict = {"name": self.name, "points": self.points, "count": self.count}
        if self.doublings:
            out["doublings"] = self.doublings
        return out


@dataclass(frozen=True, slots=True)
class Score:
    rules: str
    valid: bool
    total: int
    items: tuple[ScoreItem, ...]
    explanation: tuple[str, ...] = ()
    #: Extra machine-readable facts a rule set reports (e.g. MCR fans without flowers).
    extra: dict = field(default_factory=dict)
    #: The explanation as phrases (key and parameters), for other languages than
    #: the JSON's English; not part of the JSON.
    phrases: tuple[Phrase, ...] = ()

    def to_json(self) -> dict:
        out = {
            "rules": self.rules,
            "valid": self.valid,
            "total": self.total,
            "items": [i.to_json() for i in self.items],
            "explanation": list(self.explanation),
        }
        out.update(self.extra)
        return out
