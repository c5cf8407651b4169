"""What the PIMC sampler reads from one game's view beyond the common part.

:mod:`trumps.bots.sampling` knows what every trick game shares: the hands a
seat sees, the cards played, the suits a seat showed out of.  What a game
adds (500's bowers and kitty, coinche's duty to trump and its melds, the
promises of an auction, how a contract is written to restart a sampled deal)
is an :class:`Inference`, named by the game's spec (``sampling``).  A game
that names none is sampled as a plain trick game (:data:`PLAIN`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence

from trumps.core.cards import Card, Suit

__all__ = ["BRIDGE", "COINCHE", "FIVE_HUNDRED", "PILE", "PLAIN", "Inference"]

PILE = -1  # "seat" of the cards outside every hand (500 kitty / discards)

Played = list[tuple[int, str, int | None]]
Promise = tuple[int, Callable[[list[str]], bool]]


def _plain_suit(text: str) -> int:
    card = Card(text)
    return 4 if card.suit is None else int(card.suit)


def _at(obj: object, key: str) -> object:
    """``obj[key]`` of a view's JSON object (a KeyError when absent, as indexing)."""
    if not isinstance(obj, Mapping):
        raise TypeError(f"a view's object was expected, not {type(obj).__name__}")
    return obj[key]


def _get(obj: object, key: str) -> object:
    """``obj.get(key)`` of a view's JSON object; None when ``obj`` is none."""
    return obj.get(key) if isinstance(obj, Mapping) else None


def _items(obj: object) -> Sequence[object]:
    """A view's JSON list (none: empty)."""
    if not obj:
        return []
    if not isinstance(obj, Sequence) or isinstance(obj, str):
        raise TypeError(f"a view's list was expected, not {type(obj).__name__}")
    return obj


def _int(value: object) -> int:
    """A view's number (or numeric text) as an int."""
    if not isinstance(value, (int, float, str)):
        raise TypeError(f"a number was expected, not {value!r}")
    return int(value)


def _seats(view: Mapping[str, object]) -> list[str]:
    return [str(s) for s in _items(view["seats"])]


def _bids(view: Mapping[str, object]) -> list[tuple[int, str]]:
    """(seat, suit letter) of every natural suit bid of the auction."""
    seats = _seats(view)
    out = []
    for entry in _items(view.get("auction")):
        call = str(_at(entry, "call")).lstrip("i")
        if not call[:1].isdigit() or call.endswith(("NT", "AT")) or call[-1] not in "SHDC":
            continue
        out.append((seats.index(str(_at(entry, "seat"))), call[-1]))
    return out


class Inference:
    """A plain trick game: suits as printed, nothing outside the hands,
    no auction inferences, the contract written as ``call`` by ``seat``."""

    #: where :func:`trumps.bots.pimc.world` puts the :data:`PILE` in a deal ("kitty"), if anywhere
    pile_key: str | None = None

    def eff_suit(self, view: Mapping[str, object]) -> Callable[[str], int]:
        """The effective suit (0-3; 4: none) of a card under the view's contract."""
        return _plain_suit

    def pile_known(self, view: Mapping[str, object]) -> list[str]:
        """The cards outside every hand that this seat knows."""
        return []

    def pinned(
        self,
        view: Mapping[str, object],
        seats: list[str],
        me: int,
        known: dict[int, list[str]],
        played: Played,
    ) -> dict[int, list[str]]:
        """Seat -> cards it is known to hold without its whole hand being shown."""
        return {}

    def announced(
        self,
        view: Mapping[str, object],
        seats: list[str],
        me: int,
        known: dict[int, list[str]],
        pinned: dict[int, list[str]],
    ) -> list[tuple[int, list[tuple[str, ...]]]]:
        """(seat, the card groups it holds one of) for announcements not shown yet."""
        return []

    def excluded(self, view: Mapping[str, object], played: Played, pool: list[str]) -> dict[int, set[str]]:
        """Seat -> unseen cards its plays show it did not hold (beyond not following suit)."""
        return {}

    def promises(self, view: Mapping[str, object]) -> list[Promise]:
        """What the auction promised, as tests of a seat's hand as dealt."""
        return []

    def contract_args(self, view: Mapping[str, object]) -> tuple[str, str]:
        """``(contract, declarer)`` to restart a sampled deal at its play."""
        c = view["contract"]
        return str(_at(c, "call")), str(_at(c, "seat"))


class _FiveHundred(Inference):
    """500: the bowers and jokers change suits; the kitty lies outside the
    hands (its discards known to the contractor); a suit bid promises three
    cards of the suit, bowers and joker counted."""

    pile_key = "kitty"

    def eff_suit(self, view: Mapping[str, object]) -> Callable[[str], int]:
        from trumps.five_hundred.play import TrickRules

        trump = view.get("trump")
        rules = TrickRules(
            Suit.parse(trump) if isinstance(trump, str) and trump and trump in "SHDC" else None
        )
        return lambda text: rules.eff_suit(Card(text))

    def pile_known(self, view: Mapping[str, object]) -> list[str]:
        return [str(c) for c in _items(view.get("discards"))]

    def promises(self, view: Mapping[str, object]) -> list[Promise]:
        from trumps.five_hundred.play import TrickRules

        def test(suit: str) -> Callable[[list[str]], bool]:
            rules = TrickRules(Suit.parse(suit))
            code = int(Suit.parse(suit))
            return lambda hand: sum(1 for c in hand if rules.eff_suit(Card(c)) == code) >= 3

        return [(seat, test(suit)) for seat, suit in _bids(view)]


class _Bridge(Inference):
    """Bridge: plain suits; its bids are partly artificial, so the sampler
    reads no promise from them."""

    def contract_args(self, view: Mapping[str, object]) -> tuple[str, str]:
        c = view["contract"]
        return str(_at(c, "call")), str(_at(c, "declarer"))


@functools.cache
def _meld_table() -> dict[int, list[tuple[str | None, tuple[str, ...]]]]:
    """Every meld of the 32-card deck by value: (top rank, its cards)."""
    from trumps.coinche.melds import CARRE_VALUES, NATURAL, SEQ_VALUES

    out: dict[int, list[tuple[str | None, tuple[str, ...]]]] = {}
    for suit in "SHDC":
        for length in range(3, 9):
            for top in range(len(NATURAL) - length + 1):
                ranks = NATURAL[top : top + length]
                value = SEQ_VALUES.get(length, 100)
                out.setdefault(value, []).append((ranks[0], tuple(r + suit for r in ranks)))
    for rank, value in CARRE_VALUES.items():
        out.setdefault(value, []).append((rank, tuple(rank + suit for suit in "SHDC")))
    return out


def _melds_of(value: int, rank: str | None) -> list[tuple[str, ...]]:
    return [cards for top, cards in _meld_table().get(value, []) if rank is None or top == rank]


class _Coinche(Inference):
    """Coinche: the duties to trump and overtrump rule cards out; melds
    announced at trick 1 and shown from trick 2 place cards; a suit bid
    promises three cards of the suit with its jack or nine."""

    def contract_args(self, view: Mapping[str, object]) -> tuple[str, str]:
        c = view["contract"]
        return str(_at(c, "bid")) + "X" * _int(_get(c, "level") or 0), str(_at(c, "seat"))

    def promises(self, view: Mapping[str, object]) -> list[Promise]:
        def test(suit: str) -> Callable[[list[str]], bool]:
            def holds(hand: list[str]) -> bool:
                held = [c for c in hand if c[-1] == suit]
                return len(held) >= 3 and any(c[0] in "J9" for c in held)

            return holds

        return [(seat, test(suit)) for seat, suit in _bids(view)]

    def excluded(self, view: Mapping[str, object], played: Played, pool: list[str]) -> dict[int, set[str]]:
        """What coinche's duties (follow, trump, overtrump; the partner
        exemptions of the options) say a seat did not hold: an unseen card is
        ruled out for a seat when holding it beside the card the seat played
        would have made that card illegal.  (The duties are "play one of these
        if you have one", so one card at a time decides.)"""
        from trumps.coinche.calls import AT, NT
        from trumps.coinche.options import SCHEMA
        from trumps.coinche.play import rules_for

        denom_text = str(_get(view.get("contract"), "denom") or "")
        if not denom_text:
            return {}
        denom = NT if denom_text == "NT" else AT if denom_text == "AT" else int(Suit.parse(denom_text))
        given = view.get("options")
        options = SCHEMA.resolve(None, dict(given) if isinstance(given, Mapping) else {})
        rules = rules_for(denom, options)
        n = len(_items(view["seats"]))
        unseen = [Card(c) for c in pool]
        out: dict[int, set[str]] = {}
        for start in range(0, len(played), n):
            trick = played[start : start + n]
            for k in range(1, len(trick)):
                seat, text, _led = trick[k]
                before = [Card(c) for _, c, _ in trick[:k]]
                first = before[0].suit
                led = int(first) if first is not None else 0
                best = max(range(k), key=lambda i: rules.strength(before[i], led))
                partner_winning = trick[best][0] % 2 == seat % 2
                card = Card(text)
                for x in unseen:
                    if card not in rules.legal([card, x], before, best, partner_winning):
                        out.setdefault(seat, set()).add(str(x))
        return out

    def announced(
        self,
        view: Mapping[str, object],
        seats: list[str],
        me: int,
        known: dict[int, list[str]],
        pinned: dict[int, list[str]],
    ) -> list[tuple[int, list[tuple[str, ...]]]]:
        """The value (and, after a "How high?", the top rank) of each other
        seat's best meld, as announced at trick 1, unless already shown: the
        melds of that value it may hold."""
        info = view.get("melds")
        if _get(info, "shown"):
            return []  # from trick 2 the winning side's melds are shown: pinned
        best: dict[int, tuple[int, str | None]] = {}
        for a in _items(_get(info, "announcements")):
            name = str(_at(a, "seat"))
            seat = seats.index(name)
            rank = _get(_get(a, "how_high"), name)
            best[seat] = (_int(_at(a, "value")), str(rank) if rank else None)
        return [
            (s, _melds_of(v, r))
            for s, (v, r) in best.items()
            if s != me and s not in known and s not in pinned
        ]

    def pinned(
        self,
        view: Mapping[str, object],
        seats: list[str],
        me: int,
        known: dict[int, list[str]],
        played: Played,
    ) -> dict[int, list[str]]:
        """The winning side's melds are shown from the second trick; their
        cards not played yet are in their owners' hands, in every world."""
        shown = _get(view.get("melds"), "shown")
        if not shown or not isinstance(shown, Mapping):
            return {}
        from trumps.coinche.melds import Meld

        gone = {c for _, c, _ in played}
        out: dict[int, list[str]] = {}
        for name, melds in shown.items():
            seat = seats.index(name)
            if seat == me or seat in known:
                continue
            cards = {str(c) for text in _items(melds) for c in Meld.parse(str(text)).cards} - gone
            if cards:
                out[seat] = sorted(cards)
        return out


PLAIN = Inference()
FIVE_HUNDRED: Inference = _FiveHundred()
BRIDGE: Inference = _Bridge()
COINCHE: Inference = _Coinche()
