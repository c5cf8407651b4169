"""Type stub of the C double-dummy search (see _dd.c and cengine.py)."""

def solve(problem: bytes, /) -> tuple[list[tuple[int, int, int]], int]:
    """Solve a packed problem: ``[(card number, suit, final value)], nodes``."""

def value(problem: bytes, /) -> tuple[int, int]:
    """The position's future value only (one search): ``value, nodes``."""
