"""Chinese Official (MCR) scoring."""
from .engine import score
from .fans import OFFICIAL_FANS, Fan
from .options import DEFAULT, REFERENCE, McrOptions

__all__ = ["score", "Fan", "OFFICIAL_FANS", "McrOptions", "DEFAULT", "REFERENCE"]
