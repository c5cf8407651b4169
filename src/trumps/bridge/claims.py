"""Claim and concession actions (docs/rules/bridge.md §3.1): ``CLAIM<n>`` (the
claimer's side wins ``n`` of the remaining tricks; ``CLAIM0`` concedes the
rest), answered ``ACCEPT`` or ``REJECT`` by the opponents (and, for a
defender's claim, by the claimer's partner)."""

from __future__ import annotations

from typing import ClassVar

from trumps.core.errors import ParseError

__all__ = ["ACCEPT", "REJECT", "ClaimCall", "claim"]


class ClaimCall:
    """An interned claim-procedure action: kind ``CLAIM`` (with ``tricks``),
    ``ACCEPT`` or ``REJECT``."""

    __slots__ = ("_text", "kind", "tricks")
    _all: ClassVar[dict[str, ClaimCall]] = {}
    kind: str
    tricks: int
    _text: str

    def __new__(cls, kind: str, tricks: int = -1) -> ClaimCall:
        text = f"CLAIM{tricks}" if kind == "CLAIM" else kind
        got = cls._all.get(text)
        if got is None:
            got = object.__new__(cls)
            object.__setattr__(got, "kind", kind)
            object.__setattr__(got, "tricks", tricks)
            object.__setattr__(got, "_text", text)
            cls._all[text] = got
        return got

    @classmethod
    def parse(cls, text: str) -> ClaimCall:
        t = text.strip().upper().replace(" ", "")
        if t in ("ACCEPT", "REJECT"):
            return cls(t)
        if t.startswith("CLAIM") and t[5:].isascii() and t[5:].isdigit() and int(t[5:]) <= 13:
            return cls("CLAIM", int(t[5:]))
        if t == "CONCEDE":
            return cls("CLAIM", 0)
        raise ParseError(f"not a claim action: {text!r} (CLAIM<n>, CONCEDE, ACCEPT, REJECT)")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ClaimCall is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (ClaimCall, (self.kind, self.tricks))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"ClaimCall({self._text!r})"


ACCEPT = ClaimCall("ACCEPT")
REJECT = ClaimCall("REJECT")
_CLAIMS = tuple(ClaimCall("CLAIM", n) for n in range(14))


def claim(n: int) -> ClaimCall:
    """The interned ``CLAIM<n>`` action."""
    return _CLAIMS[n]
