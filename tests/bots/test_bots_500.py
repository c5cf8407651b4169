"""Bots: only legal actions, only the seat's view, and the rule bot plays 500 well."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import trumps
from trumps.bots import Bot, BotError, RandomBot, bot_for, play_game, selfplay, step
from trumps.bots import registry as registry_mod
from trumps.bots.five_hundred import FiveHundredRuleBot, misere_danger, suit_tricks
from trumps.core.cards import Suit, parse_cards
from trumps.core.decks import deck_500


class Spy(Bot):
    """Wraps a bot; checks every call it gets and every answer it gives."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[tuple[dict[str, Any], list[str], str]] = []

    def decide(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        assert isinstance(view, dict)
        json.dumps(view)  # plain JSON data: no way back to the game object
        answer = self.inner.choose(view, legal, rng)
        assert answer in legal
        self.calls.append((view, list(legal), answer))
        return str(answer)


CONFIGS: list[tuple[str | None, dict[str, Any]]] = [
    (None, {}),
    ("australian", {}),
    ("australian", {"raise_own_bid": "yes", "breach_enabled": "yes"}),
    (None, {"kitty_size": "6", "nullo_plays": "both_hands"}),
    (None, {"players": "2v2v2"}),
    (None, {"players": "3v3", "kitty_size": "5"}),
    ("australian", {"all_pass_action": "play_no_trumps", "joker_low_in_misere": "yes"}),
    (
        None,
        {"open_misere_expose": "after_first_trick", "end_hand_when_decided": "yes", "first_lead": "eldest"},
    ),
]


@pytest.mark.parametrize(("preset", "options"), CONFIGS)
def test_rule_and_random_bots_only_play_legal_actions(preset: str | None, options: dict[str, Any]) -> None:
    for seed in range(4):
        match = trumps.new_game("500", preset=preset, options=options or None, seed=seed)
        kinds = [FiveHundredRuleBot(), RandomBot()]
        bots = [Spy(kinds[(match.team_of(s) + seed) % 2]) for s in range(match.players)]
        rng = random.Random(seed)
        while not match.is_over:
            seat = match.to_act_index
            assert seat is not None
            legal = [str(a) for a in match.legal_actions()]
            spy = bots[seat]
            before = len(spy.calls)
            step(match, spy, rng)
            _view, given, answer = spy.calls[before]
            assert given == legal
            assert answer in legal
        assert match.is_over


def test_a_bot_gets_only_its_seats_view() -> None:
    spies = [Spy(FiveHundredRuleBot()) for _ in range(4)]
    for seed in range(6):
        match = trumps.new_game("500", seed=seed, options={"nullo_mode": "anytime"})
        play_game(match, spies, random.Random(seed))
    seen = 0
    for seat, spy in enumerate(spies):
        name = "NESW"[seat]
        for view, _legal, _answer in spy.calls:
            seen += 1
            assert view["seat"] == name
            for other, hand in view["hands"].items():
                if other != name and other not in view["exposed"]:
                    assert hand is None, f"{name} was shown {other}'s hand"
            if "kitty" in view or "discards" in view:
                assert view["contract"]["seat"] == name
    assert seen > 200


def test_random_bot_needs_no_view() -> None:
    views: list[dict[str, Any]] = []

    class Watched(RandomBot):
        def decide(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
            views.append(view)
            return super().decide(view, legal, rng)

    match = trumps.new_game("500", seed=2)
    play_game(match, [Watched()] * 4, random.Random(0))
    assert views and all(view == {} for view in views)


def test_an_illegal_answer_is_refused() -> None:
    class Cheat(Bot):
        def decide(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
            return "10NT!"

    match = trumps.new_game("500", seed=1)
    with pytest.raises(BotError, match="not legal"):
        step(match, Cheat(), random.Random(0))
    assert match.log == []


def test_rule_bot_beats_random_clearly() -> None:
    result = selfplay("500", ["rules", "random"], 100, seed=20261122)
    assert result.games == 100
    assert result.wins[0] >= 75, result.wins
    swapped = selfplay("500", ["random", "rules"], 100, seed=777, preset="australian")
    assert swapped.wins[1] >= 75, swapped.wins


def test_rule_bots_make_most_of_their_contracts() -> None:
    made = total = 0
    result = selfplay("500", ["rules"], 40, seed=99, keep_records=True)
    for record in result.records:
        for deal in record["results"]:
            if deal.get("contract"):
                total += 1
                made += bool(deal["made"])
    assert total >= 40
    assert made / total >= 0.7, (made, total)


def test_selfplay_is_reproducible_and_records_replay() -> None:
    a = selfplay("500", ["rules", "random"], 5, seed=3, keep_records=True)
    b = selfplay("500", ["rules", "random"], 5, seed=3, keep_records=True)
    assert a.records == b.records
    assert a.deals == sum(len(r["results"]) for r in a.records)
    for record in a.records:
        again = trumps.load_game(json.dumps(record))
        assert again.scores == record["scores"]
        assert again.winner == record["winner"]


# ----- registry ------------------------------------------------------------------------
def test_registry_kinds() -> None:
    assert isinstance(bot_for("500", "rules"), FiveHundredRuleBot)
    assert isinstance(bot_for("five_hundred", "rules"), FiveHundredRuleBot)
    assert isinstance(bot_for("500", "random"), RandomBot)
    assert isinstance(bot_for("500", "trumps.bots.base:RandomBot"), RandomBot)
    with pytest.raises(BotError, match="unknown bot kind"):
        bot_for("500", "genius")
    with pytest.raises(trumps.OptionError, match="unknown game"):
        bot_for("whist", "rules")


def test_registry_missing_rule_bot() -> None:
    from trumps.core import registry as games

    spec = games.spec("500")
    games.unregister("500")
    games.register(dataclasses.replace(spec, rule_bot="trumps.bots.not_written_yet:SomeBot"))
    try:
        with pytest.raises(BotError, match="no rule bot for 500"):
            bot_for("500", "rules")
        assert isinstance(bot_for("500", "rules", fallback=True), RandomBot)
        assert not registry_mod.has_rule_bot("500")
    finally:
        games.reload()
    assert registry_mod.has_rule_bot("500")


def test_bots_per_team_and_per_seat() -> None:
    r = selfplay("500", ["rules", "random", "rules", "random"], 2, seed=1)
    assert r.games == 2
    with pytest.raises(BotError, match="one per team"):
        selfplay("500", ["rules", "random", "rules"], 1, seed=1)


# ----- hand evaluation and decisions -------------------------------------------------
DECK = deck_500(4, 3)


def test_hand_evaluation() -> None:
    strong = parse_cards("RJ JH JD AH KH 9H AS AC 5S 6C")
    weak = parse_cards("5S 7S 4H 6H 5D 8D 6C 7C 9C TD")
    assert suit_tricks(strong, Suit.HEARTS, DECK) >= 6
    assert suit_tricks(weak, Suit.HEARTS, DECK) < 1.5
    assert misere_danger(weak, DECK) <= 1.5
    assert misere_danger(strong, DECK) >= 5


def _deal(n: str, e: str, s: str, w: str) -> dict[str, Any]:
    hands = {"N": parse_cards(n), "E": parse_cards(e), "S": parse_cards(s), "W": parse_cards(w)}
    used = {c for h in hands.values() for c in h}
    kitty = [c for c in DECK if c not in used]
    assert all(len(h) == 10 for h in hands.values()) and len(kitty) == 3
    out: dict[str, Any] = {k: [str(c) for c in v] for k, v in hands.items()}
    out["kitty"] = [str(c) for c in kitty]
    return out


HANDS = _deal(
    "RJ JH JD AH KH 9H AS AC 5S 6C",  # N: a big heart hand
    "5H 6H 7H 8H 4D 5D 6D 7D 8D 9D",
    "QH TH 4H TD JS QS KS AD KD QD",
    "6S 7S 8S 9S TS 5C 7C 8C 9C TC",  # W: nothing
)


def test_rule_bot_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    bot = FiveHundredRuleBot()
    match = trumps.new_game("500", deal=HANDS, dealer="W", seed=1)
    view = match.view("N")
    call = bot.choose(view, view["legal"], random.Random(0))
    assert call.endswith("H") and not call.startswith("i") and int(call[:-1]) >= 7
    match.apply(call, "N")
    match.apply("P", "E")
    match.apply("P", "S")
    view = match.view("W")
    assert bot.choose(view, view["legal"], random.Random(0)) == "P"


def test_rule_bot_keeps_trumps_and_aces_in_the_kitty_exchange() -> None:
    bot = FiveHundredRuleBot()
    match = trumps.new_game("500", deal=HANDS, dealer="W", seed=1)
    for seat, call in zip("NESW", ["8H", "P", "P", "P"], strict=True):
        match.apply(call, seat)
    assert match.phase == "KITTY"
    for _ in range(3):
        view = match.view("N")
        match.apply(bot.choose(view, view["legal"], random.Random(0)), "N")
    kept = set(match.view("N")["hands"]["N"])
    assert {"RJ", "JH", "JD", "AH", "KH", "9H", "AS", "AC"} <= kept
    discards = match.view("N")["discards"]
    assert "6C" in discards or "5S" in discards


def test_rule_bot_does_not_pass_a_big_hand_in_australian() -> None:
    bot = FiveHundredRuleBot()
    match = trumps.new_game("500", preset="australian", deal=HANDS, dealer="W", seed=1)
    view = match.view("N")
    assert bot.choose(view, view["legal"], random.Random(0)) != "P"


def _play_to(match: trumps.Match[Any], cards: list[str]) -> dict[str, Any]:
    for c in cards:
        match.apply(c)
    seat = match.to_act_index
    assert seat is not None
    return match.view(seat)


PLAY_HANDS = _deal(
    "9H 5S 6S 7S 8S 9S TS 5C 6C 7C",  # N declares 7S
    "AH 5H 4D 5D 6D 7D 8D 9D TD JD",
    "4H QH 8H AD KD QD 6H JS QS KS",
    "KH 7H TH JC QC KC AC 8C 9C TC",  # W: the bot under test
)


def test_fourth_hand_wins_with_its_lowest_winner() -> None:
    bot = FiveHundredRuleBot()
    match = trumps.new_game("500", deal=PLAY_HANDS, contract="7S", declarer="N", dealer="W", seed=1)
    view = _play_to(match, ["9H", "5H", "8H"])  # N's 9H wins so far; W holds KH TH 7H
    assert view["seat"] == "W"
    assert bot.choose(view, view["legal"], random.Random(0)) == "TH"


def test_no_overtaking_partners_sure_winner() -> None:
    bot = FiveHundredRuleBot()
    match = trumps.new_game("500", deal=PLAY_HANDS, contract="7S", declarer="N", dealer="W", seed=1)
    view = _play_to(match, ["9H", "AH", "4H"])  # partner E's ace wins
    assert view["seat"] == "W"
    assert bot.choose(view, view["legal"], random.Random(0)) == "7H"


def test_contractor_draws_trumps_with_a_master() -> None:
    bot = FiveHundredRuleBot()
    deal = _deal(
        "RJ JS JC AS 6H 7H 8H 9H 5D 6D",
        "5S 6S 7S 4H 5H 4D 7D 8D 9D TD",
        "8S 9S TS AH KH QH JH TH AD KD",
        "QS KS 5C 6C 7C 8C 9C TC QC KC",
    )
    match = trumps.new_game("500", deal=deal, contract="7S", declarer="N", dealer="W", seed=1)
    view = match.view("N")
    assert bot.choose(view, view["legal"], random.Random(0)) == "RJ"


def test_misere_contractor_plays_under() -> None:
    bot = FiveHundredRuleBot()
    deal = _deal(
        "4H 5H 6H 5S 6S 7S 4D 5D 9C KC",
        "AH KH QH AS KS QS AD KD QD AC",
        "JH TH 9H JS TS 9S JD TD 9D JC",
        "8H 7H 8S 8D 7D 6D 6C 7C 8C TC",
    )
    match = trumps.new_game("500", deal=deal, contract="MIS", declarer="N", dealer="W", seed=1)
    view = match.view("N")
    lead = bot.choose(view, view["legal"], random.Random(0))
    # nobody can go under it, and it starts to empty the shortest safe suit
    assert lead == "5D"
    match.apply(lead, "N")
    # later: E leads a club; N has 9C and KC; W plays TC: N ducks with 9C
    match2 = trumps.new_game("500", deal=deal, contract="MIS", declarer="N", dealer="W", seed=1)
    match2.apply("4H", "N")
    match2.apply("AH", "E")
    match2.apply("8H", "W")  # E wins and leads
    match2.apply("AC", "E")
    match2.apply("TC", "W")
    view = match2.view("N")
    assert bot.choose(view, view["legal"], random.Random(0)) == "KC"  # shed the king under the ace


def test_misere_only_with_a_genuinely_low_hand() -> None:
    bot = FiveHundredRuleBot()
    low = _deal(
        "5S 6S 7S 4H 5H 6H 4D 5D 6D 5C",  # the lowest cards of every suit
        "8S 9S TS 7H 8H 9H 7D 8D 9D 6C",
        "JS QS KS TH JH QH TD JD QD 7C",
        "AS AH KH AD KD AC KC QC JC TC",
    )
    match = trumps.new_game("500", deal=low, dealer="W", seed=1)
    view = match.view("N")
    assert bot.choose(view, view["legal"], random.Random(0)) in ("MIS", "OMIS")
    # the strong and the middling hands never try misère
    for deal, seat in ((HANDS, "N"), (low, "E")):
        match = trumps.new_game("500", deal=deal, dealer="N" if seat == "E" else "W", seed=1)
        view = match.view(seat)
        assert bot.choose(view, view["legal"], random.Random(0)) not in ("MIS", "OMIS")
