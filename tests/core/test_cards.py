"""Card, suit and hand notation (rules README §1)."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trumps.core.cards import (
    Card,
    Suit,
    card_texts,
    deal_sorted,
    format_cards,
    format_hand,
    parse_cards,
    parse_hand,
    rank_value,
    sort_cards,
)
from trumps.core.decks import deck_500, deck_bridge
from trumps.core.errors import ParseError


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AS", "AS"),
        ("as", "AS"),
        (" KH ", "KH"),
        ("10H", "TH"),
        ("10d", "TD"),
        ("TD", "TD"),
        ("2C", "2C"),
        ("13H", "13H"),
        ("12S", "12S"),
        ("11D", "11D"),
        ("JC", "JC"),
        ("RJ", "RJ"),
        ("rj", "RJ"),
        ("BJ", "BJ"),
        ("A♠", "AS"),
        ("Q♥", "QH"),
    ],
)
def test_card_parse_and_canonical_form(text: str, canonical: str) -> None:
    card = Card(text)
    assert str(card) == canonical
    assert Card(canonical) is card  # flyweight
    assert Card(str(card)) is card  # round trip


@pytest.mark.parametrize(
    "bad", ["", "A", "10", "1S", "0S", "15H", "XS", "AX", "JJ", "RJX", "SA", "A S", "RJS", "14H", "1"]
)
def test_bad_card_strings_raise_parse_error(bad: str) -> None:
    with pytest.raises(ParseError):
        Card(bad)


def test_non_string_card_raises_parse_error() -> None:
    with pytest.raises(ParseError):
        Card(5)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        Card(None)  # type: ignore[arg-type]


def test_parse_error_is_value_error() -> None:
    with pytest.raises(ValueError):
        Card("ZZ")


def test_card_attributes() -> None:
    c = Card("13D")
    assert c.suit is Suit.DIAMONDS and c.rank == 13 and c.rank_code == "13" and not c.is_joker
    assert Card("RJ").is_joker and Card("RJ").suit is None and Card("RJ").rank_code == "RJ"
    assert Card("BJ").rank > Card("RJ").rank > Card("AS").rank
    # natural order A K Q J 13 12 11 T 9 ... 2 (five_hundred.md §2.3)
    order = ["A", "K", "Q", "J", "13", "12", "11", "T", "9", "8", "7", "6", "5", "4", "3", "2"]
    values = [rank_value(r) for r in order]
    assert values == sorted(values, reverse=True)
    assert rank_value("10") == rank_value("T") == 10


def test_cards_are_immutable_and_hash_by_index() -> None:
    c = Card("AS")
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    every = deck_500(6, 6) + deck_bridge()
    assert len({x.index for x in set(every)}) == len(set(every))
    assert pickle.loads(pickle.dumps(c)) is c


def test_card_of_and_bad_rank() -> None:
    assert Card.of(Suit.HEARTS, "13") is Card("13H")
    assert Card.of(Suit.CLUBS, 10) is Card("TC")
    with pytest.raises(ParseError):
        Card.of(Suit.CLUBS, 1)
    with pytest.raises(ParseError):
        Card.of(Suit.CLUBS, "Z")


def test_suits() -> None:
    assert [s.code for s in Suit] == ["S", "H", "D", "C"]
    assert Suit.parse("h") is Suit.HEARTS and Suit.parse("♣") is Suit.CLUBS
    assert Suit.SPADES.partner_suit is Suit.CLUBS and Suit.HEARTS.partner_suit is Suit.DIAMONDS
    assert Suit.DIAMONDS.is_red and not Suit.CLUBS.is_red
    with pytest.raises(ParseError):
        Suit.parse("X")


def test_canonical_sort_order() -> None:
    cards = parse_cards("2C RJ AS 13H TH BJ KD JH 12H")
    assert format_cards(sort_cards(cards)) == "AS JH 13H 12H TH KD 2C BJ RJ"


@pytest.mark.parametrize(
    ("hand", "cards"),
    [
        ("AKQ2.JT9.876.543", "AS KS QS 2S JH TH 9H 8D 7D 6D 5C 4C 3C"),
        ("AK.QJ.T9.87+RJ", "AS KS QH JH TD 9D 8C 7C RJ"),
        ("AK[13][12]T.[11].-.2+BJ+RJ", "AS KS 13S 12S TS 11H 2C BJ RJ"),
        ("A...", "AS"),
        ("...+RJ", "RJ"),
        ("A1098.-.-.-", "AS TS 9S 8S"),
    ],
)
def test_hand_form_parses(hand: str, cards: str) -> None:
    assert parse_hand(hand) == parse_cards(cards)
    # parse_cards reads the dotted form too
    assert parse_cards(hand) == parse_cards(cards)


@pytest.mark.parametrize(
    "cards",
    [
        "AS KS QS 2S JH TH 9H 8D 7D 6D 5C 4C 3C",
        "AS 13S 12S 11S TS 13H 13D RJ BJ",
        "RJ",
        "2C",
    ],
)
def test_format_hand_round_trip(cards: str) -> None:
    parsed = parse_cards(cards)
    text = format_hand(parsed)
    assert sorted(parse_hand(text)) == sorted(parsed)
    assert format_hand(parse_hand(text)) == text


def test_format_hand_exact() -> None:
    assert format_hand(parse_cards("AS KS 2H JD 9C RJ")) == "AK.2.J.9+RJ"
    assert format_hand(parse_cards("13H 12H AH BJ RJ")) == ".A[13][12]..+BJ+RJ"


@pytest.mark.parametrize(
    "bad", ["AK.QJ.T9", "AK.QJ.T9.87.65", "A[13.-.-.-", "AZ.-.-.-", "A.-.-.-+AS", "A.-.-.-+RX"]
)
def test_bad_hands_raise_parse_error(bad: str) -> None:
    with pytest.raises(ParseError):
        parse_hand(bad)


def test_parse_cards_separators() -> None:
    assert format_cards(parse_cards("AS, KH 10D")) == "AS KH TD"
    assert format_cards(parse_cards(["AS", "10H", Card("RJ")])) == "AS TH RJ"


@given(
    st.randoms(use_true_random=False), st.sampled_from([(4, 13, 52), (4, 10, 43), (6, 10, 63), (4, 8, 32)])
)
def test_deal_sorted_is_a_sort_per_dealt_hand(rnd: random.Random, shape: tuple[int, int, int]) -> None:
    """``deal_sorted`` gives each seat the cards at its positions, sorted, as
    sorting each dealt hand does; positions past the plan (a kitty) go to nobody."""
    seats, size, pack_size = shape
    pack = (deck_500(seats, 3) if pack_size in (43, 63) else deck_bridge())[
        :pack_size
    ]  # 32: the bridge deck's first
    cards = list(pack)
    rnd.shuffle(cards)
    seat_of = [p % seats for p in range(seats * size)]
    rnd.shuffle(seat_of)
    hands = deal_sorted(cards, seat_of, seats, sort_cards(pack))
    for seat in range(seats):
        dealt = [cards[p] for p, s in enumerate(seat_of) if s == seat]
        assert hands[seat] == sort_cards(dealt)


def test_card_texts() -> None:
    cards = parse_cards("AS 10H RJ 2C")
    assert card_texts(cards) == [str(c) for c in cards] == ["AS", "TH", "RJ", "2C"]


def test_remove_card_takes_the_card_itself_out_and_refuses_one_not_held() -> None:
    from trumps.core.cards import remove_card

    hand = parse_cards("AS KS QH 2C")
    remove_card(hand, Card("QH"))
    assert hand == parse_cards("AS KS 2C")
    remove_card(hand, Card("2C"))  # the last one
    assert hand == parse_cards("AS KS")
    with pytest.raises(ValueError):
        remove_card(hand, Card("QH"))
    assert hand == parse_cards("AS KS")  # nothing changed by the refusal


def test_an_action_is_legal_by_identity_or_by_equality() -> None:
    """``Match.apply``'s membership test: the listed object itself, or an
    equal one (an action not made through its interning constructor)."""
    from trumps.core.protocol import _listed

    big = 10**30
    equal = int(str(big))  # equal, another object
    assert equal is not big
    for legal in ([1, big], (1, big), range(3)):
        assert _listed(legal[-1], legal)
    assert _listed(equal, [1, big]) and _listed(equal, (1, big))
    assert not _listed(7, [1, big]) and not _listed(7, (1, big)) and not _listed(7, range(3))
