"""Type stub of the C double-dummy search (see _dd.c and cengine.py)."""

def solve(problem: bytes, limit: int = 0, /) -> tuple[list[tuple[int, int, int]] | None, int]:
    """Solve a packed problem: ``[(card number, suit, final value)], nodes``;
    ``None`` instead of the list once ``limit`` nodes (0: none) are searched."""

def value(problem: bytes, limit: int = 0, /) -> tuple[int | None, int]:
    """The position's future value only (one search): ``value, nodes``;
    ``None`` for the value once ``limit`` nodes (0: none) are searched."""

def solvers() -> int:
    """How many searches run at once (one table each): one per processor, at most 8."""

def variant() -> str:
    """The copy of the search in use: ``"bmi2"`` (chosen at import where the
    CPU has it) or ``"generic"`` (elsewhere, or with ``TRUMPS_DD_GENERIC=1``)."""
