"""Type stub of the C shuffle from a seed (see _seeded.c and shuffle.py)."""

from typing import Any

def shuffle(key: bytes, items: list[Any], /) -> None:
    """``items`` shuffled in place as ``random.Random(seed).shuffle`` does, the
    generator seeded by the integer whose big-endian bytes are ``key``."""

def randbelow(key: bytes, n: int, /) -> int:
    """``random.Random(seed).randrange(n)`` (``0 < n < 2**32``), seeded as for :func:`shuffle`."""

def randbelow_and_shuffle(dealer_key: bytes, n: int, deal_key: bytes, items: list[Any], /) -> int:
    """``randbelow(dealer_key, n)``, returned, and ``shuffle(deal_key, items)``,
    the two generators seeded side by side."""
