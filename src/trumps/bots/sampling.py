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

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import trumps
from trumps.bots.inference import PILE, PLAIN, Inference
from trumps.core.cards import Card, Suit
from trumps.core.errors import TrumpsError

__all__ = ["PILE", "Knowledge", "SamplingError", "inference_of", "knowledge", "play_sequence"]


class SamplingError(TrumpsError):
    """No deal consistent with the view was found (or the view is not a play phase)."""


@lru_cache(maxsize=64)
def _deck(game: str, options_key: tuple[tuple[str, object], ...]) -> tuple[str, ...]:
    """Every card of the game under these options (the spec's ``deck``)."""
    spec = trumps.game_spec(game)
    options = spec.schema.resolve(None, dict(options_key))
    cards: list[Card] = list(spec.load("deck")(options))
    return tuple(sorted({str(c) for c in cards}))


def inference_of(view: Mapping[str, object]) -> Inference:
    """The game's :class:`~trumps.bots.inference.Inference` (its spec's
    ``sampling``; a plain trick game's when it names none)."""
    spec = trumps.game_spec(str(view.get("game")))
    found: Inference = spec.load("sampling") if spec.has("sampling") else PLAIN
    return found


def _options_key(view: Mapping[str, Any]) -> tuple[tuple[str, object], ...]:
    return tuple(sorted((str(k), v) for k, v in dict(view.get("options") or {}).items()))


def play_sequence(view: Mapping[str, Any]) -> list[tuple[int, str, int | None]]:
    """Every card played this deal, in order: ``(seat, card, led suit)``
    where led suit is the trick's effective led suit (``None`` if unknown)."""
    seats: list[str] = list(view["seats"])
    n = len(seats)
    sitting = {seats.index(s) for s in view.get("sitting_out") or []}
    step = -1 if view.get("direction") == "anticlockwise" else 1
    eff = inference_of(view).eff_suit(view)
    out: list[tuple[int, str, int | None]] = []

    def led_of(cards: list[str], led_code: object) -> int | None:
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
    #: meld announcements not shown yet (coinche): (seat, the melds it may hold) -- the seat
    #: holds (or held) one of them; each world gives it one
    announced: list[tuple[int, list[tuple[str, ...]]]] = field(default_factory=list)
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
        for seat, candidates in self.announced:
            mine = set(played_by.get(seat, []))
            room = need.get(seat, 0) - len(out.get(seat, []))
            fits = []
            for cards in candidates:
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
    rules = inference_of(view)
    played = play_sequence(view)
    eff = rules.eff_suit(view)
    voids: list[set[int]] = [set() for _ in range(n)]
    for seat, card, led in played:
        if led is not None and eff(card) != led:
            voids[seat].add(led)
    seen = {c for cards in known.values() for c in cards} | {c for _, c, _ in played}
    pile_known = rules.pile_known(view)
    seen |= set(pile_known)
    pinned = rules.pinned(view, seats, me, known, played)
    announced = rules.announced(view, seats, me, known, pinned)
    seen |= {c for cards in pinned.values() for c in cards}
    pool = [c for c in deck if c not in seen]
    excluded = rules.excluded(view, played, pool)
    # whatever is in no hand and not played lies in the pile (500's kitty)
    pile_size = len(deck) - sum(sizes) - len(played) - len(pile_known)
    promises = [
        (s, test)
        for s, test in rules.promises(view)
        if s != me and s not in known and _still_possible(test, s, played, pool, voids, eff)
    ]
    return Knowledge(
        game, me, n, known, sizes, played, voids, pool, pile_size, pile_known, eff, promises, pinned, announced,
        excluded,
    )  # fmt: skip


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


def _promises(view: Mapping[str, object]) -> list[tuple[int, Callable[[list[str]], bool]]]:
    """What the auction promised about each seat's hand (the game's :class:`~trumps.bots.inference.Inference`)."""
    return inference_of(view).promises(view)
