"""House-rule options of MCR, each with the default of docs/rules-mcr.md.

The reference calculator (pymahjonggb) decides two of these differently;
``REFERENCE`` holds its choices so the differential tests compare like with like.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..errors import NotationError

KONG_COMBINATIONS = ("separate", "combined")
CONCEALED_FORM_SELF_DRAWN = ("rule_sheet", "fully_concealed", "self_drawn")


@dataclass(frozen=True, slots=True)
class McrOptions:
    #: A concealed plus a melded kong: "separate" scores Concealed Kong 2 +
    #: Melded Kong 1 (docs/rules-mcr.md default); "combined" one fan of 5.
    kong_combination: str = "separate"
    #: A self-drawn hand that is concealed by nature (Seven Pairs, Thirteen
    #: Orphans, Nine Gates, the two honours-and-knitted hands, Four Concealed
    #: Pungs, Seven Shifted Pairs) adds Fully Concealed Hand (4) or only
    #: Self-Drawn (1). "rule_sheet" (docs/rules-mcr.md): Seven Pairs and Nine Gates
    #: add it, the others count Self-Drawn (the sheet is silent on the knitted
    #: hands, so the reference holds); "fully_concealed": all add it;
    #: "self_drawn": none does (the competition rule book and the reference).
    concealed_form_self_drawn: str = "rule_sheet"
    #: The fans a hand needs, without flowers, to be a valid mahjong.
    minimum_fans: int = 8

    def __post_init__(self) -> None:
        if self.kong_combination not in KONG_COMBINATIONS:
            raise NotationError(f"kong_combination must be one of {', '.join(KONG_COMBINATIONS)}")
        if self.concealed_form_self_drawn not in CONCEALED_FORM_SELF_DRAWN:
            raise NotationError(
                f"concealed_form_self_drawn must be one of {', '.join(CONCEALED_FORM_SELF_DRAWN)}"
            )
        if not isinstance(self.minimum_fans, int) or self.minimum_fans < 0:
            raise NotationError("minimum_fans must be a whole number of 0 or more")

    @classmethod
    def from_dict(cls, data: dict | None) -> "McrOptions":
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise NotationError(f"unknown MCR option(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        if "minimum_fans" in data:
            try:
                data["minimum_fans"] = int(data["minimum_fans"])
            except (TypeError, ValueError):
                raise NotationError("minimum_fans must be a whole number") from None
        return replace(cls(), **data)

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT = McrOptions()
#: What pymahjonggb 1.4.0 does (SUPPORT_CONCEALED_KONG_AND_MELDED_KONG=1; Self-Drawn for concealed forms).
REFERENCE = McrOptions(kong_combination="combined", concealed_form_self_drawn="self_drawn")
