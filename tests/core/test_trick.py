"""The trick core (``trumps.core.trick``): the :class:`Trick` value, the
shared deal-play loop driven by a throw-away game's rules, and the three
games' tricks checked against their own :class:`TrickRules`."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest

import trumps
from trumps.core.cards import Card, parse_cards
from trumps.core.errors import ParseError
from trumps.core.protocol import Action
from trumps.core.trick import NO_SUIT, Trick, TrickDeal, TrickRules

# ----- the value ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "N:AS E:KS S:2H W:QS led:S won:N",
        "E:RJ S:AC W:2C N:KC led:C won:S",
        "0:AS 1:KS 3:QS 4:JS 5:TS led:S won:0",  # six players, seat 2 sitting out
        "W:RJ N:AS E:KS S:QS led:- won:W",
    ],
)
def test_text_round_trips(text: str) -> None:
    t = Trick.parse(text)
    assert str(t) == text
    assert eval(repr(t), {"Trick": Trick}) == t
    assert pickle.loads(pickle.dumps(t)) == t and hash(pickle.loads(pickle.dumps(t))) == hash(t)


def test_fields_and_the_old_tuple_form() -> None:
    t = Trick([3, 0, 1, 2], parse_cards("2H AH KS 3H"), 0, 1)
    assert (t.leader, t.winner, t.led, t.seats) == (3, 0, 1, (3, 0, 1, 2))
    assert t.winning_card == Card("AH") and t.card_of(1) == Card("KS") and t.card_of(5) is None
    leader, cards, winner = t
    assert (leader, list(cards), winner) == (3, parse_cards("2H AH KS 3H"), 0) and t[2] == 0 and len(t) == 3
    wide = Trick(t.seats, t.cards, t.winner, t.led, width=4)
    assert tuple(wide) == (3, t.cards, 0, 1) and wide == t  # the width is a reading, not a value
    assert t.to_json(lambda s: "NESW"[s], led_suit=True) == {
        "leader": "W",
        "cards": ["2H", "AH", "KS", "3H"],
        "winner": "N",
        "led_suit": "H",
    }
    with pytest.raises(AttributeError):
        t.winner = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "N:AS E:KS",
        "N:AS E:KS led:S",
        "N:AS E:KS won:N led:S",
        "NAS E:KS led:S won:N",
        "N:AS E:KS led:X won:N",
        "N:AS E:KS led:S won:S",
        "N:AS N:KS led:S won:N",
        "N:AS E:AS led:S won:N",
        "N:ZZ E:KS led:S won:N",
    ],
)
def test_bad_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        Trick.parse(text)


def test_a_trick_checks_what_it_is_given() -> None:
    with pytest.raises(ParseError):
        Trick([0, 1], parse_cards("AS"), 0, 0)
    with pytest.raises(ParseError):
        Trick([0, 1], parse_cards("AS KS"), 2, 0)
    with pytest.raises(ParseError):
        Trick([0, 1], parse_cards("AS KS"), 0, NO_SUIT + 1)


# ----- the loop, driven by a throw-away game ------------------------------------


class HighCard:
    """Follow suit; the highest card of the suit led wins; hearts score one
    point each.  Not one of the engine's games: the loop must not care."""

    lead_suits = tuple(i // 16 for i in range(66))

    def follow(
        self, hand: list[Card], cards: list[Card], seats: list[int], led: int, seat: int
    ) -> list[Card]:
        return [c for c in hand if c.index // 16 == led] or list(hand)

    def winner(self, cards: Sequence[Card], led: int) -> int:
        return max(range(len(cards)), key=lambda i: (cards[i].index // 16 == led, cards[i].rank))

    def trick_points(self, cards: Sequence[Card]) -> int:
        return sum(1 for c in cards if c.index // 16 == 1)


class ThreeSeats(TrickDeal):
    """Three seats, seat 0 alone against seats 1 and 2, two tricks: the
    shared loop alone (a game subclasses :class:`TrickDeal`; its
    :class:`TrickPlay` half is a mypyc trait, which Python code cannot
    subclass on its own when the engines are compiled)."""

    def __init__(self, hands: list[str]) -> None:
        self.side_of = (0, 1, 1)
        self.next_of = [1, 2, 0]
        self.hands = [parse_cards(h) for h in hands]
        self._init_trick_play()
        self.rules = HighCard()
        self.points = [0, 0]
        self.turn: int | None = 0

    def _set_turn(self, seat: int) -> None:
        self.turn = seat

    def _trick_done(self, trick: Trick) -> bool:
        self.points[self.side_of[trick.winner]] += self.rules.trick_points(trick.cards)
        return len(self.tricks) == 2

    def _finish(self) -> None:
        self.turn = None

    def _compute_legal(self) -> list[Action]:
        return []

    def apply_legal(self, action: Action) -> None:
        raise NotImplementedError


def test_the_shared_loop_follows_wins_and_passes_the_lead() -> None:
    d = ThreeSeats(["AS 2H", "KS AH", "3H QS"])
    rules: TrickRules = d.rules
    assert rules.lead_suits[Card("AS").index] == 0
    assert d._play_card(0, Card("AS")) is None and d.turn == 1
    assert d.follow_cards(1) == [Card("KS")]
    d._play_card(1, Card("KS"))
    assert d.follow_cards(2) == [Card("QS")]
    first = d._play_card(2, Card("QS"))
    assert first == Trick.parse("N:AS E:KS S:QS led:S won:N") and d.turn == 0 and d.trick == []
    d._play_card(0, Card("2H"))
    d._play_card(1, Card("AH"))
    last = d._play_card(2, Card("3H"))
    assert last is not None and last.winner == 1 and d.turn is None
    assert d.seat_tricks() == [1, 1, 0] and d.team_tricks() == [1, 1] and d.points == [0, 3]
    assert d.tricks == [first, last] and d.hands == [[], [], []]


# ----- the three games: every trick agrees with the game's rules ------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("500", {}),
        ("500", {"players": "2v2v2", "nullo_plays": "own_hand"}),
        ("bridge", {}),
        ("coinche", {}),
        ("coinche", {"direction": "anticlockwise"}),
    ],
)
def test_every_trick_agrees_with_the_rules(game: str, options: dict[str, str]) -> None:
    rng = random.Random(5)
    for seed in range(12):
        g = trumps.new_game(game, seed=seed, options=options)
        while not g.is_over:
            d = g.deal
            before = len(getattr(d, "tricks", ()))
            rules = d.rules
            g.apply(rng.choice(g.legal_actions()))
            if len(d.tricks) > before:
                t = d.tricks[-1]
                assert isinstance(t, Trick) and Trick.parse(str(t)) == t
                assert t.seats[rules.winner(t.cards, t.led)] == t.winner
                assert t.led == (rules.lead_suits[t.cards[0].index] if t.cards[0].suit is not None else t.led)
                if before:
                    assert t.leader == d.tricks[-2].winner
                assert sum(d.seat_tricks()) == len(d.tricks)
                assert d.team_tricks() == [
                    sum(w for s, w in enumerate(d.seat_tricks()) if d.side_of[s] == side)
                    for side in range(len(d.side_won))
                ]
