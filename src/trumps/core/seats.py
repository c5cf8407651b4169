"""Seats: integers clockwise from 0, named N E S W at a four-player table
and ``0``-``5`` at a six-player table (docs/rules/README.md §2)."""

from __future__ import annotations

from trumps.core.errors import ParseError

__all__ = ["SEAT_NAMES_4", "parse_seat", "seat_name"]

SEAT_NAMES_4 = ("N", "E", "S", "W")
_LONG = {"NORTH": 0, "EAST": 1, "SOUTH": 2, "WEST": 3}


def seat_name(seat: int, players: int = 4) -> str:
    """``N``/``E``/``S``/``W`` for four players, the digit for six."""
    return SEAT_NAMES_4[seat] if players == 4 else str(seat)


def parse_seat(value: object, players: int = 4) -> int:
    """Read a seat given as its index, its compass letter (four players) or
    its digit.  Raises :class:`ParseError` for anything else."""
    if isinstance(value, bool):
        raise ParseError(f"not a seat: {value!r}")
    if isinstance(value, int):
        seat = value
    elif isinstance(value, str):
        t = value.strip().upper()
        if players == 4 and t in SEAT_NAMES_4:
            seat = SEAT_NAMES_4.index(t)
        elif players == 4 and t in _LONG:
            seat = _LONG[t]
        elif t.isascii() and t.isdigit():
            seat = int(t)
        else:
            raise ParseError(f"not a seat: {value!r}")
    else:
        raise ParseError(f"not a seat: {value!r}")
    if not 0 <= seat < players:
        raise ParseError(f"no seat {value!r} at a {players}-player table")
    return seat
