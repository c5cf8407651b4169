"""JSON on the wire: one encoder and decoder for every socket and bus message.

Why not the standard library's ``json``: a worker encodes every state it
sends, one per seat and per spectator for every action, and with ``json``
that was about a quarter of a saturated worker's CPU (py-spy over
``benchmarks/room_load.py``; ``docs/benchmarks.md``).  orjson encodes the
same values in about a tenth of the time and decodes faster too.

What the room sends is plain data (dicts, lists, str, int, float, bool,
None), for which the two give the same JSON but for one thing: text that is
not ASCII goes as UTF-8 rather than as ``\\u`` escapes (both valid JSON and
parsed alike).  So a message's length in characters is not its length in
bytes: code with a byte limit (the bus) measures :func:`dumpb`'s bytes.
Keys that are not strings are written as strings, as ``json`` does.
Decoding refuses what is not JSON (``NaN``, lone surrogates, invalid UTF-8)
with :data:`DecodeError`, a ``ValueError``.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["DecodeError", "dumpb", "dumps", "loads"]

DecodeError = orjson.JSONDecodeError
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumpb(value: object) -> bytes:
    """``value`` as compact JSON, UTF-8 bytes."""
    return orjson.dumps(value, option=_OPTIONS)


def dumps(value: object) -> str:
    """``value`` as compact JSON text (what a WebSocket text frame carries)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(raw: str | bytes) -> Any:  # (parsed JSON: the reader checks its shape)
    """The value of the JSON text ``raw``; :data:`DecodeError` if it is not JSON."""
    return orjson.loads(raw)
