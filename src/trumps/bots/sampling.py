"""What one seat knows about the hidden cards, and deals consistent with it.

Perfect-information Monte Carlo needs "worlds": full deals that agree with
everything the seat has seen.  :func:`knowledge` reads a view (never the
game) and collects

* the cards the seat holds and every exposed hand (bridge dummy, an open
  misère hand),
* every card already played, and by whom,
* the suits each seat has shown out of (failing to follow the led
  *effective* suit: a 500 left bower is a trump),
* the cards outside every hand: the 500 kitty or discards, known to the
  contractor (its own discards), unknown to everyone else.

:meth:`Knowledge.sample` deals the unseen cards to the unseen places at
random, respecting the hand sizes and the voids.  Rules the sampler does
not model (coinche's duty to trump, a 500 misère player's reasons...) are
enforced afterwards: :func:`trumps.bots.pimc.world` replays the whole play
on the sampled deal and a deal on which a past card would have been illegal
is rejected.  Everything is drawn from the ``rng`` passed in, so a seed
gives the same worlds.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import trumps
from trumps.core.cards import Card, Suit
from trumps.core.errors import TrumpsError

__all__ = ["Knowledge", "SamplingError", "knowledge", "play_sequence"]

PILE = -1  # "seat" of the cards outside every hand (500 kitty / discards)


class SamplingError(TrumpsError):
    """No deal consistent with the view was found (or the view is not a play phase)."""


@lru_cache(maxsize=64)
def _deck(game: str, options_key: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
    """Every card of the game under these options (from a throw-away deal)."""
    m = trumps.new_game(game, options=dict(options_key), seed=0)
    deal: Any = getattr(m, "deal", None)
    cards: list[Card] = [c for h in deal.hands for c in h]
    cards += list(getattr(deal, "kitty", []) or [])
    return tuple(sorted({str(c) for c in cards}))


def _options_key(view: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((str(k), v) for k, v in dict(view.get("options") or {}).items()))


def _eff_suit(view: Mapping[str, Any]) -> Callable[[str], int]:
    """The effective suit (0-3, 4 for a 500 joker in no trumps) of a card."""
    if view.get("game") == "500":
        from trumps.five_hundred.play import TrickRules

        trump = view.get("trump")
        rules = TrickRules(Suit.parse(trump) if trump and trump in "SHDC" else None)
        return lambda text: rules.eff_suit(Card(text))

    def plain(text: str) -> int:
        card = Card(text)
        return 4 if card.suit is None else int(card.suit)

    return plain


def play_sequence(view: Mapping[str, Any]) -> list[tuple[int, str, int | None]]:
    """Every card played this deal, in order: ``(seat, card, led suit)``
    where led suit is the trick's effective led suit (``None`` if unknown)."""
    seats: list[str] = list(view["seats"])
    n = len(seats)
    sitting = {seats.index(s) for s in view.get("sitting_out") or []}
    step = -1 if view.get("direction") == "anticlockwise" else 1
    eff = _eff_suit(view)
    out: list[tuple[int, str, int | None]] = []

    def led_of(cards: list[str], led_code: Any) -> int | None:
        if led_code and isinstance(led_code, str) and led_code in "SHDC":
            return int(Suit.parse(led_code))
        if not cards:
            return None
        e = eff(cards[0])
        return None if e == 4 else e

    for trick in view.get("tricks") or []:
        seat = seats.index(trick["leader"])
        cards = list(trick["cards"])
        led = led_of(cards, trick.get("led_suit"))
        for card in cards:
            while seat in sitting:
                seat = (seat + step) % n
            out.append((seat, card, led))
            seat = (seat + step) % n
    current = list(view.get("trick") or [])
    led = led_of([t["card"] for t in current], view.get("led_suit"))
    for entry in current:
        out.append((seats.index(entry["seat"]), entry["card"], led))
    return out


@dataclass
class Knowledge:
    """What the acting seat knows about where the cards are."""

    game: str
    seat: int
    players: int
    known: dict[int, list[str]]  # seat -> cards it holds now, where the viewer sees them
    sizes: list[int]  # current hand sizes
    played: list[tuple[int, str, int | None]]  # the play so far
    voids: list[set[int]]  # per seat: effective suits it has shown out of
    pool: list[str]  # cards the viewer cannot place
    pile_size: int  # unseen cards outside every hand (500 kitty / discards)
    pile_known: list[str]  # the pile as the viewer knows it (500 contractor's discards)
    eff: Callable[[str], int]
    #: (seat, test of the seat's hand as dealt): what its bids promised
    promises: list[tuple[int, Callable[[list[str]], bool]]] = field(default_factory=list)
    #: seat -> some of the cards it holds, shown but not its whole hand (coinche's melds from trick 2)
    pinned: dict[int, list[str]] = field(default_factory=dict)
    #: coinche meld announcements not shown yet: (seat, value, top rank or None) -- the seat holds
    #: (or held) a meld of that value; each world gives it one
    announced: list[tuple[int, int, str | None]] = field(default_factory=list)
    #: seat -> unseen cards it cannot hold: its plays showed it had none of them (coinche's duty
    #: to trump and to overtrump, beyond the voids of not following suit)
    excluded: dict[int, set[str]] = field(default_factory=dict)

    def _may_hold(self, seat: int, card: str) -> bool:
        return self.eff(card) not in self.voids[seat] and card not in self.excluded.get(seat, ())

    def sample(self, rng: random.Random, tries: int = 50) -> dict[int, list[str]]:
        """A random placement of the unseen cards: seat -> current hand, and
        :data:`PILE` -> the cards outside the hands.  Voids and sizes hold."""
        need = {
            s: self.sizes[s] - len(self.known.get(s, [])) - len(self.pinned.get(s, []))
            for s in range(self.players)
        }
        need = {s: k for s, k in need.items() if k > 0}
        if self.pile_size:
            need[PILE] = self.pile_size
        if sum(need.values()) != len(self.pool):
            raise SamplingError(f"{len(self.pool)} unseen cards for {sum(need.values())} unseen places")
        played_by: dict[int, list[str]] = {}
        for seat, card, _ in self.played:
            played_by.setdefault(seat, []).append(card)
        for attempt in range(tries):
            pool, extra = self.pool, {}
            if self.announced:
                melds = self._announced_cards(rng, played_by, need)
                if melds is None:
                    continue
                extra = melds
                taken = {c for cards in extra.values() for c in cards}
                pool = [c for c in self.pool if c not in taken]
            left = {s: k - len(extra.get(s, [])) for s, k in need.items()}
            placed = self._try(rng, {s: k for s, k in left.items() if k > 0}, pool)
            if placed is None:
                continue
            hands = {
                s: [*self.known.get(s, []), *self.pinned.get(s, []), *extra.get(s, [])]
                for s in range(self.players)
            }
            hands[PILE] = list(self.pile_known)
            for s, cards in placed.items():
                hands[s].extend(cards)
            # what the auction promised holds in the first half of the tries;
            # after that a deal without it beats no deal at all
            if attempt < tries // 2 and not all(
                ok(hands[s] + played_by.get(s, [])) for s, ok in self.promises
            ):
                continue
            return hands
        raise SamplingError("no deal fits what this seat has seen")

    def _announced_cards(
        self, rng: random.Random, played_by: dict[int, list[str]], need: dict[int, int]
    ) -> dict[int, list[str]] | None:
        """For each announced meld, one meld of its value (and top rank)
        that the seat can hold in this world: its unseen cards, drawn at random."""
        free = set(self.pool)
        out: dict[int, list[str]] = {}
        for seat, value, rank in self.announced:
            mine = set(played_by.get(seat, []))
            room = need.get(seat, 0) - len(out.get(seat, []))
            fits = []
            for cards in _melds_of(value, rank):
                unseen = [c for c in cards if c not in mine]
                if len(unseen) <= room and all(c in free and self._may_hold(seat, c) for c in unseen):
                    fits.append(unseen)
            if not fits:
                return None
            chosen = rng.choice(fits)
            free.difference_update(chosen)
            out.setdefault(seat, []).extend(chosen)
        return out

    def _try(self, rng: random.Random, need: dict[int, int], pool: list[str]) -> dict[int, list[str]] | None:
        cards = list(pool)
        rng.shuffle(cards)
        options = {c: [s for s in need if s == PILE or self._may_hold(s, c)] for c in cards}
        cards.sort(key=lambda c: len(options[c]))  # most constrained first (stable: still random)
        out: dict[int, list[str]] = {s: [] for s in need}
        for c in cards:
            open_seats = [s for s in options[c] if need[s] > 0]
            if not open_seats:
                return None
            weights = [need[s] for s in open_seats]
            s = rng.choices(open_seats, weights)[0]
            out[s].append(c)
            need[s] -= 1
        return out


def knowledge(view: Mapping[str, Any]) -> Knowledge:
    """Read what the view's seat knows (the view must be in its play phase)."""
    if str(view.get("phase", "")).upper() != "PLAY" or not view.get("contract"):
        raise SamplingError("card-play sampling needs a view of the play phase")
    game = str(view["game"])
    seats: list[str] = list(view["seats"])
    n = len(seats)
    me = seats.index(view["seat"])
    deck = _deck(game, _options_key(view))
    known: dict[int, list[str]] = {}
    for name, cards in (view.get("hands") or {}).items():
        if cards is not None:
            known[seats.index(name)] = [str(c) for c in cards]
    sizes = [int(view["hand_sizes"][s]) for s in seats]
    played = play_sequence(view)
    eff = _eff_suit(view)
    voids: list[set[int]] = [set() for _ in range(n)]
    for seat, card, led in played:
        if led is not None and eff(card) != led:
            voids[seat].add(led)
    seen = {c for cards in known.values() for c in cards} | {c for _, c, _ in played}
    pile_known = [str(c) for c in view.get("discards") or []] if game == "500" else []
    seen |= set(pile_known)
    pinned = _shown_melds(view, game, seats, me, known, played)
    announced = _announced_melds(view, game, seats, me, known, pinned)
    seen |= {c for cards in pinned.values() for c in cards}
    pool = [c for c in deck if c not in seen]
    excluded = _coinche_duties(view, played, pool) if game == "coinche" else {}
    # whatever is in no hand and not played lies in the pile (500's kitty)
    pile_size = len(deck) - sum(sizes) - len(played) - len(pile_known)
    promises = [
        (s, test)
        for s, test in _promises(view)
        if s != me and s not in known and _still_possible(test, s, played, pool, voids, eff)
    ]
    return Knowledge(
        game, me, n, known, sizes, played, voids, pool, pile_size, pile_known, eff, promises, pinned, announced,
        excluded,
    )  # fmt: skip


def _coinche_duties(
    view: Mapping[str, Any], played: list[tuple[int, str, int | None]], pool: list[str]
) -> dict[int, set[str]]:
    """What coinche's duties (follow, trump, overtrump; the partner
    exemptions of the options) say a seat did not hold: an unseen card is
    ruled out for a seat when holding it beside the card the seat played
    would have made that card illegal.  (The duties are "play one of these
    if you have one", so one card at a time decides.)"""
    from trumps.coinche.calls import AT, NT
    from trumps.coinche.play import rules_for

    denom_text = str((view.get("contract") or {}).get("denom") or "")
    if not denom_text:
        return {}
    denom = NT if denom_text == "NT" else AT if denom_text == "AT" else int(Suit.parse(denom_text))
    options = trumps.game_class("coinche").schema.resolve(None, dict(view.get("options") or {}))
    rules = rules_for(denom, options)
    n = len(view["seats"])
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


def _announced_melds(
    view: Mapping[str, Any],
    game: str,
    seats: list[str],
    me: int,
    known: dict[int, list[str]],
    pinned: dict[int, list[str]],
) -> list[tuple[int, int, str | None]]:
    """Coinche: the value (and, after a "How high?", the top rank) of each
    other seat's best meld, as announced at trick 1, unless already shown."""
    info = (view.get("melds") or {}) if game == "coinche" else {}
    if info.get("shown"):
        return []  # from trick 2 the winning side's melds are shown: pinned
    best: dict[int, tuple[int, str | None]] = {}
    for a in info.get("announcements") or []:
        seat = seats.index(a["seat"])
        rank = (a.get("how_high") or {}).get(a["seat"])
        best[seat] = (int(a["value"]), str(rank) if rank else None)
    return [(s, v, r) for s, (v, r) in best.items() if s != me and s not in known and s not in pinned]


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


def _shown_melds(
    view: Mapping[str, Any],
    game: str,
    seats: list[str],
    me: int,
    known: dict[int, list[str]],
    played: list[tuple[int, str, int | None]],
) -> dict[int, list[str]]:
    """Coinche: the winning side's melds are shown from the second trick;
    their cards not played yet are in their owners' hands, in every world."""
    shown = (view.get("melds") or {}).get("shown") or {} if game == "coinche" else {}
    if not shown:
        return {}
    from trumps.coinche.melds import Meld

    gone = {c for _, c, _ in played}
    out: dict[int, list[str]] = {}
    for name, melds in shown.items():
        seat = seats.index(name)
        if seat == me or seat in known:
            continue
        cards = {str(c) for text in melds for c in Meld.parse(str(text)).cards} - gone
        if cards:
            out[seat] = sorted(cards)
    return out


def _still_possible(
    test: Callable[[list[str]], bool],
    seat: int,
    played: list[tuple[int, str, int | None]],
    pool: list[str],
    voids: list[set[int]],
    eff: Callable[[str], int],
) -> bool:
    """Whether a promise of ``seat``'s auction can still be true: its test
    passes on the cards the seat played plus every unseen card it could
    still hold (the tests only ask for enough cards of a kind, so if that
    fails every deal fails).  A promise the play has ruled out (the bidder
    showed out of the suit) is dropped rather than held against every
    sample, which cost half the tries and sent ``strong`` to the rule bot."""
    mine = [card for s, card, _ in played if s == seat]
    could = [c for c in pool if eff(c) not in voids[seat]]
    return test(mine + could)


def _promises(view: Mapping[str, Any]) -> list[tuple[int, Callable[[list[str]], bool]]]:
    """Simple auction inferences, as tests of a seat's hand as dealt: in 500
    a suit bid promises three cards of the suit (bowers and joker
    counted), in coinche three with its jack or nine.  (Bridge bids are
    partly artificial; the bridge sampler uses none.)"""
    game = view.get("game")
    if game not in ("500", "coinche"):
        return []
    seats: list[str] = list(view["seats"])
    out: list[tuple[int, Callable[[list[str]], bool]]] = []
    for entry in view.get("auction") or []:
        call = str(entry["call"]).lstrip("i")
        if not call[:1].isdigit() or call.endswith(("NT", "AT")) or call[-1] not in "SHDC":
            continue
        out.append((seats.index(str(entry["seat"])), _suit_test(str(game), call[-1])))
    return out


def _suit_test(game: str, suit: str) -> Callable[[list[str]], bool]:
    if game == "500":
        from trumps.five_hundred.play import TrickRules

        rules = TrickRules(Suit.parse(suit))
        code = int(Suit.parse(suit))
        return lambda hand: sum(1 for c in hand if rules.eff_suit(Card(c)) == code) >= 3

    def coinche(hand: list[str]) -> bool:
        held = [c for c in hand if c[-1] == suit]
        return len(held) >= 3 and any(c[0] in "J9" for c in held)

    return coinche
