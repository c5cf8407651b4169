"""The shuffle of every deal: exactly :meth:`random.Random.shuffle`, in a
module the engines' build compiles (``setup.py``).

Python's shuffle calls a Python-level ``_randbelow`` for each card (52 calls
a bridge deal), a sixth of the time to start a deal.  This is the same
Fisher-Yates walk over the same ``getrandbits`` draws (CPython 3.11-3.13:
``_randbelow_with_getrandbits``), so a seed deals the same cards as it
always has — the stored records replay and ``tests/core/test_shuffle.py``
compares the two on many seeds and lengths.
"""

from __future__ import annotations

import random
from typing import TypeVar

__all__ = ["shuffle"]

T = TypeVar("T")


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place as ``rng.shuffle(items)`` does."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
