"""The generators and the shuffle of every deal: exactly
``random.Random(text)``, :meth:`random.Random.randrange` and
:meth:`random.Random.shuffle`, in a module the engines' build compiles
(``setup.py``).

Python's shuffle calls a Python-level ``_randbelow`` for each card (52 calls
a bridge deal), a sixth of the time to start a deal.  This is the same
Fisher-Yates walk over the same ``getrandbits`` draws (CPython 3.11-3.13:
``_randbelow_with_getrandbits``), so a seed deals the same cards as it
always has — the stored records replay and ``tests/core/test_shuffle.py``
compares the two on many seeds and lengths.

Every game also makes two generators from strings (its first dealer's and
each deal's, ``Match._setup`` and ``Match.deal_rng``), and
``random.Random(text)`` runs two Python-level methods around the C seeding
(``__init__`` and ``seed``, a quarter of its 5 µs).  :func:`seeded` does what
they do — the SHA-512 of the text appended to it, read as one integer, given
to the C ``seed`` — so the generator's state is the same, which the tests
compare with ``getstate()`` on many texts.

A deal's shuffle and the first dealer are drawn from a generator that is
used once: :func:`seeded_shuffle` and :func:`seeded_randbelow` do both
steps in the C module ``_seeded.c`` when it is built (the generator's state
made without a Python object, ``init_genrand(19650218)`` worked out once,
the draws as C calls: about 3.7 against 6.8 µs a 500 deal), and with the
functions above otherwise or under ``TRUMPS_PURE=1``.  Those functions are
its specification; the tests compare the two on many texts and lengths.
A game's first dealer and first deal are drawn in one call,
:func:`seeded_randbelow_and_shuffle`: seeding is a chain of dependent
steps, and the C code runs the two generators' chains side by side.
"""

from __future__ import annotations

import _random
import os
import random
from hashlib import sha512
from types import ModuleType
from typing import Final, TypeVar

__all__ = [
    "randbelow",
    "seed_key",
    "seeded",
    "seeded_randbelow",
    "seeded_randbelow_and_shuffle",
    "seeded_shuffle",
    "shuffle",
]

T = TypeVar("T")

_Random: Final = random.Random
# the C type's own methods: random.Random's Python-level __init__ and seed
# call these in the end
_new: Final = random.Random.__new__
_c_seed: Final = _random.Random.seed


def _c_twin() -> ModuleType | None:
    """``_seeded.c``, unless it was not built (no C compiler at install) or
    ``TRUMPS_PURE`` asks for the Python (the differential compares them)."""
    if os.environ.get("TRUMPS_PURE", "0") not in ("", "0"):
        return None
    try:
        import trumps.core._seeded as twin
    except ImportError:  # pragma: no cover - only without a compiler
        return None
    return twin


_C: Final = _c_twin()


def seeded(text: str) -> random.Random:
    """``random.Random(text)``: the same state, made without the Python-level
    ``Random.__init__`` and ``Random.seed`` (version 2 seeding of a string:
    ``int.from_bytes(text + sha512(text))``, then ``gauss_next = None``)."""
    rng: random.Random = _new(_Random)
    _c_seed(rng, int.from_bytes(seed_key(text), "big"))
    rng.gauss_next = None  # type: ignore[attr-defined]  # random.Random's own attribute, not in its stub
    return rng


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``, draw for draw (the Python-level
    ``randrange`` and ``_randbelow`` are a tenth of a deal's set-up)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


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


def seed_key(text: str) -> bytes:
    """The bytes whose big-endian integer seeds ``random.Random(text)``
    (version 2 seeding of a string: the text, then its SHA-512)."""
    data = text.encode()
    return data + sha512(data).digest()


def seeded_shuffle(text: str, items: list[T]) -> None:
    """``random.Random(text).shuffle(items)``, draw for draw."""
    twin = _C
    if twin is not None:
        twin.shuffle(seed_key(text), items)
    else:
        shuffle(seeded(text), items)


def seeded_randbelow(text: str, n: int) -> int:
    """``random.Random(text).randrange(n)`` for ``0 < n < 2**32``."""
    twin = _C
    if twin is not None:
        r: int = twin.randbelow(seed_key(text), n)
        return r
    return randbelow(seeded(text), n)


def seeded_randbelow_and_shuffle(dealer_text: str, n: int, deal_text: str, items: list[T]) -> int:
    """``seeded_randbelow(dealer_text, n)``, returned, and
    ``seeded_shuffle(deal_text, items)``: a game's first dealer and first
    deal.  Seeding a generator is a chain of about 1,250 dependent steps
    that leaves the processor mostly idle; the C code runs the two chains
    side by side, in the time of one (about 3.0 against 5.4 µs)."""
    twin = _C
    if twin is not None:
        r: int = twin.randbelow_and_shuffle(seed_key(dealer_text), n, seed_key(deal_text), items)
        return r
    shuffle(seeded(deal_text), items)
    return randbelow(seeded(dealer_text), n)
