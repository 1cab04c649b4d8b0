"""tablemate: a camera over a real mahjong table that scores what it sees."""

__version__ = "0.1.0"
