"""PIMC: sampled deals agree with the view; decisions are legal and repeatable."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trumps
from trumps.bots.levels import NormalBot, StrongBot, cards_in_hands
from trumps.bots.pimc import evaluate, world
from trumps.bots.registry import bot_for
from trumps.bots.sampling import PILE, SamplingError, knowledge, play_sequence
from trumps.bots.selfplay import step
from trumps.core.protocol import Match
from trumps.solver import SearchLimit

GAMES = ["500", "bridge", "coinche"]


def _play_to(game: str, seed: int, actions: int, options: dict[str, Any] | None = None) -> Match[Any] | None:
    """A game after ``actions`` rule-bot decisions into its first play phase."""
    m = trumps.new_game(game, seed=seed, options=options or {})
    bots = [bot_for(game, "rules") for _ in range(m.players)]
    rng = random.Random(seed)
    in_play = 0
    while not m.results and m.to_act_index is not None:
        if m.view(m.to_act_index)["phase"] == "PLAY":
            if in_play == actions:
                return m
            in_play += 1
        step(m, bots[m.to_act_index], rng)
    return None


def _truth(m: Match[Any]) -> list[set[str]]:
    return [{str(c) for c in h} for h in m.deal.hands]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), actions=st.integers(0, 30), draw=st.integers(0, 2**32))
def test_samples_agree_with_the_view(game: str, seed: int, actions: int, draw: int) -> None:
    m = _play_to(game, seed, actions)
    if m is None or m.to_act_index is None:
        return
    view = m.view(m.to_act_index)
    me = view["seats"].index(view["seat"])
    know = knowledge(view)
    truth = _truth(m)
    # what the sampler infers is true of the real deal
    for seat, voids in enumerate(know.voids):
        for card in truth[seat]:
            assert know.eff(card) not in voids
            assert card not in know.excluded.get(seat, ())  # coinche's duty to trump and overtrump
    hands = know.sample(random.Random(draw))
    seen_elsewhere = {c for _, c, _ in play_sequence(view)}
    for seat, size in enumerate(know.sizes):
        assert len(hands[seat]) == size
        assert not set(hands[seat]) & seen_elsewhere
        for card in hands[seat]:
            assert know.eff(card) not in know.voids[seat]
            assert card not in know.excluded.get(seat, ())
    # the sampled world replays every card played so far (follow, trump, overtrump)
    world(view, hands)
    # the seat's own and exposed hands are exactly as seen
    assert set(hands[me]) == truth[me]
    for name in view.get("exposed") or []:
        s = view["seats"].index(name)
        assert set(hands[s]) == truth[s]
    # every card exactly once
    everything = [c for s in range(len(know.sizes)) for c in hands[s]] + hands[PILE] + list(seen_elsewhere)
    assert len(everything) == len(set(everything))
    # the real deal is one of the worlds: rebuilding it replays the play
    real = {s: sorted(truth[s]) for s in range(len(truth))}
    real[PILE] = [str(c) for c in getattr(m.deal, "discards", [])] if game == "500" else []
    rebuilt = world(view, real)
    assert sorted(str(a) for a in rebuilt.legal_actions()) == sorted(str(a) for a in m.legal_actions())
    assert rebuilt.to_act_index == m.to_act_index


@pytest.mark.parametrize("game", GAMES)
def test_normal_bot_is_legal_and_repeatable(game: str) -> None:
    for seed in (1, 2):
        m = _play_to(game, seed, 20)
        if m is None or m.to_act_index is None:
            continue
        view = m.view(m.to_act_index)
        legal = [str(a) for a in m.legal_actions()]
        a = NormalBot().choose(view, legal, random.Random(5))
        b = NormalBot().choose(view, legal, random.Random(5))
        assert a == b and a in legal


def test_evaluation_counts_samples_and_ranks() -> None:
    m = _play_to("bridge", 2, 40)
    assert m is not None and m.to_act_index is not None
    view = m.view(m.to_act_index)
    legal = [str(a) for a in m.legal_actions()]
    ev = evaluate(view, legal, random.Random(1), samples=6)
    assert ev.samples == 6 and ev.unit == "tricks"
    ranked = ev.ranked()
    assert {r["action"] for r in ranked} == set(legal)
    vals = [r["value"] for r in ranked]
    assert vals == sorted(vals, reverse=ev.maximising)
    assert cards_in_hands(view) == sum(view["hand_sizes"].values())


def test_coinche_defender_keeps_the_master_card() -> None:
    # Three cards each at hearts; every card is exposed to the solver in each
    # sample, and the best card of the contracting side is the same in all.
    m = _play_to("coinche", 3, 20)
    assert m is not None and m.to_act_index is not None
    view = m.view(m.to_act_index)
    legal = [str(a) for a in m.legal_actions()]
    ev = evaluate(view, legal, random.Random(3), samples=4)
    assert ev.unit == "points" and ev.samples == 4
    assert all(0 <= v <= 162 for v in ev.values.values())


def test_knowledge_needs_the_play_phase() -> None:
    m = trumps.new_game("coinche", seed=1)
    assert m.to_act_index is not None
    with pytest.raises(SamplingError):
        knowledge(m.view(m.to_act_index))


@pytest.mark.parametrize("game", ["500", "coinche"])
def test_a_promise_is_dropped_only_when_the_play_has_ruled_it_out(game: str) -> None:
    """What a bid promised (three of the suit) is held against the samples
    unless the bidder's play has made it impossible.  A dropped promise is
    one the real deal breaks too (the real deal is one of the worlds the
    seat cannot rule out), and every promise the sampler keeps is still
    possible."""
    from trumps.bots.sampling import _promises, _still_possible

    dropped = 0
    for seed in range(1, 60):
        m = trumps.new_game(game, seed=seed)
        bots = [bot_for(game, "rules") for _ in range(m.players)]
        rng = random.Random(seed)
        while not m.results and m.to_act_index is not None:
            view = m.view(m.to_act_index)
            if view["phase"] == "PLAY":
                know = knowledge(view)
                me = view["seats"].index(view["seat"])
                every = [(s, t) for s, t in _promises(view) if s != me and s not in know.known]
                possible = [
                    _still_possible(t, s, know.played, know.pool, know.voids, know.eff) for s, t in every
                ]
                assert len(know.promises) == sum(possible)
                for (s, test), ok in zip(every, possible, strict=True):
                    if not ok:
                        dropped += 1
                        dealt = [str(c) for c in m.deal.hands[s]] + [c for p, c, _ in know.played if p == s]
                        assert not test(dealt), (seed, s, dealt)
            step(m, bots[m.to_act_index], rng)
    assert dropped, "no position where the play ruled a promise out: the test checks nothing"


def test_a_search_past_the_limit_leaves_the_decision_to_the_rules() -> None:
    """A sampled deal whose search runs past the level's node limit is
    dropped; with none solved, ``evaluate`` raises and the level's bot plays
    its rule bot's card (a room's bot never holds the solver for minutes)."""
    m = _play_to("500", 4, 0)
    assert m is not None and m.to_act_index is not None
    view = m.view(m.to_act_index)
    legal = [str(a) for a in m.legal_actions()]
    with pytest.raises(SearchLimit):
        evaluate(view, legal, random.Random(1), samples=4, limit=20)
    full = evaluate(view, legal, random.Random(1), samples=4)
    assert evaluate(view, legal, random.Random(1), samples=4, limit=10**9) == full
    bot = StrongBot()
    bot.budget = dataclasses.replace(bot.budget, limit=20)
    rules = bot_for("500", "rules").choose(view, legal, random.Random(7))
    assert bot.choose(view, legal, random.Random(7)) == rules
