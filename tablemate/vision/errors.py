"""Vision errors a player can be shown as they are (``str(err)``)."""
from tablemate.rules.errors import TablemateError


class VisionError(TablemateError):
    """Bad input to vision: an unreadable or empty image, a calibration that
    does not fit the image, a missing or corrupt model file."""
