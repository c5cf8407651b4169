"""The bots' own thread pools: a search never delays a move that needs none."""

from __future__ import annotations

import asyncio
import random
import sys
import threading
from pathlib import Path

import pytest

import trumps
from trumps.bots.levels import card_actions, cards_in_hands
from trumps.bots.registry import bot_for
from trumps.core.protocol import Deal, Match
from trumps.room.tables import thinking
from trumps.room.tables.bots import bot_choice

sys.path.insert(0, str(Path(__file__).parent))
from waiting import until


def _at(game: str, phase: str, *, options: dict[str, object] | None = None) -> Match[Deal]:
    """A game played by random bots until someone is to act in ``phase``
    with a choice of several actions (of several cards, in the play)."""
    rng = random.Random(3)
    for seed in range(50):
        match = trumps.new_game(game, seed=seed, options=options)
        while not match.is_over:
            seat = match.to_act_index
            view = match.view(seat)
            legal = [str(a) for a in match.legal_actions()]
            here = str(view.get("phase", "")).upper() == phase and len(card_actions(legal)) > 1
            if here and (phase != "PLAY" or cards_in_hands(view) <= 16):
                return match
            match.apply(rng.choice(match.legal_actions()), seat)
    raise AssertionError(f"no {phase} decision found")


@pytest.mark.parametrize(
    ("game", "kind", "phase", "searches"),
    [
        ("bridge", "normal", "AUCTION", False),  # its bidding system
        ("bridge", "strong", "AUCTION", False),
        ("bridge", "normal", "PLAY", True),
        ("bridge", "rules", "PLAY", False),
        ("bridge", "random", "PLAY", False),
        ("500", "normal", "AUCTION", False),  # bids by rule
        ("500", "trumps.bots.levels:NormalSimBot", "AUCTION", True),  # simulates
        ("500", "strong", "PLAY", True),
        ("coinche", "strong", "AUCTION", True),
        ("coinche", "easy", "AUCTION", False),
    ],
)
def test_which_decisions_search(game: str, kind: str, phase: str, searches: bool) -> None:
    match = _at(game, phase)
    seat = match.to_act_index
    legal = [str(a) for a in match.legal_actions()]
    assert bot_for(game, kind).searches(match.view(seat), legal) is searches


def test_a_rule_bot_moves_while_every_search_thread_is_busy() -> None:
    release = threading.Event()
    started: list[str] = []

    def long_search() -> str:
        started.append(threading.current_thread().name)
        release.wait(30)
        return threading.current_thread().name

    async def main() -> None:
        searches = [
            asyncio.ensure_future(thinking.think(False, long_search))
            for _ in range(thinking.SEARCH_THREADS + 2)
        ]
        await until(lambda: len(started) == thinking.SEARCH_THREADS, what="every search thread to be busy")
        # every search thread is taken and two more wait: a rule bot does not
        name = await asyncio.wait_for(thinking.think(True, lambda: threading.current_thread().name), 5)
        assert name.startswith("trumps-quick")
        # nor does asyncio's default executor (replays, history)
        await asyncio.wait_for(asyncio.to_thread(lambda: None), 5)
        assert not any(s.done() for s in searches)
        release.set()
        names = await asyncio.wait_for(asyncio.gather(*searches), 10)
        assert all(n.startswith("trumps-search") for n in names)

    asyncio.run(main())


def test_a_normal_bridge_bots_bid_does_not_wait_for_the_searches() -> None:
    """A ``normal`` bridge bot bids by its system, in milliseconds: its
    bid is not queued behind other tables' card searches (a bots' table
    once waited seconds for each bid)."""
    release = threading.Event()
    started: list[str] = []

    def long_search() -> None:
        started.append(threading.current_thread().name)
        release.wait(30)

    async def main() -> None:
        searches = [
            asyncio.ensure_future(thinking.think(False, long_search))
            for _ in range(thinking.SEARCH_THREADS + 2)
        ]
        await until(lambda: len(started) == thinking.SEARCH_THREADS, what="every search thread to be busy")
        match = _at("bridge", "AUCTION")
        seat = match.to_act_index
        assert seat is not None
        choice = await asyncio.wait_for(bot_choice("bridge", match, seat, "normal", random.Random(1), "t"), 5)
        assert choice in [str(a) for a in match.legal_actions()]
        release.set()
        await asyncio.wait_for(asyncio.gather(*searches), 10)

    asyncio.run(main())
