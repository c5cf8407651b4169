"""The fixed action space covers every legal action; observations come from
the seat's view only and have the documented size."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import trumps  # noqa: E402
from trumps.envs.encoding import Spec, action_key  # noqa: E402

CONFIGS: list[tuple[str, str | None, dict[str, Any]]] = [
    ("bridge", None, {}),
    ("500", "american", {}),
    ("500", "australian", {}),
    ("500", "american", {"breach_enabled": True}),
    ("500", "australian", {"players": "3v3"}),
    ("500", "american", {"players": "2v2v2", "kitty_size": 5}),
    ("500", "american", {"kitty_size": 6}),
    ("500", "australian", {"all_pass_action": "play_no_trumps"}),
    ("coinche", "seed", {}),
    ("coinche", "common", {}),
    ("coinche", "ffb_2016", {}),
    ("coinche", "contree_exact", {}),
    ("coinche", "pagat", {}),
    ("coinche", "seed", {"belote_requires_announcement": True, "card_in_multiple_melds": False}),
    ("coinche", "seed", {"long_run_split": True, "allow_generale_bid": True}),
]


def _play(game: str, preset: str | None, options: dict[str, Any], deals: int) -> None:
    spec: Spec | None = None
    for s in range(deals):
        m = trumps.new_game(game, preset=preset, options=options, seed=s)
        if spec is None:
            spec = Spec(m)
        rng = random.Random(s)
        start = len(m.results)
        while not m.is_over and len(m.results) == start:
            seat = m.to_act_index
            assert seat is not None
            legal = m.legal_actions()
            for a in legal:
                assert action_key(a) in spec.actions.index, (game, preset, str(a))
            obs = spec.observation.encode(m.view(seat))
            assert obs.shape == (spec.observation.size,)
            m.apply(rng.choice(legal))


@pytest.mark.parametrize(("game", "preset", "options"), CONFIGS)
def test_every_legal_action_is_in_the_space(game: str, preset: str | None, options: dict[str, Any]) -> None:
    _play(game, preset, options, deals=int(os.environ.get("TRUMPS_ENV_DEALS", "40")))


def test_observation_does_not_depend_on_hidden_cards() -> None:
    """Two deals that agree on what North sees give North the same tensor."""
    m = trumps.new_game("bridge", seed=3, dealer="N")
    spec = Spec(m)
    view = m.view(0)
    obs = spec.observation.encode(view)
    hands = {k: v for k, v in view["hands"].items() if v}
    assert list(hands) == ["N"]
    n, e, s, w = ([str(c) for c in hand] for hand in m.deal.hands)
    other = trumps.new_game("bridge", deal={"N": n, "E": w, "S": s, "W": e}, dealer="N")  # E and W swapped
    assert other.view(0) == view and [str(c) for c in other.deal.hands[1]] != e
    assert (spec.observation.encode(other.view(0)) == obs).all()
    for block, off, size in spec.observation.describe():
        if block == "hand":
            assert obs[off : off + size].sum() == 13
        if block == "exposed_hands":
            assert obs[off : off + size].sum() == 0


def test_layout_sums_to_size() -> None:
    spec = Spec(trumps.new_game("coinche", preset="ffb_2016", seed=0))
    assert sum(s for _n, _o, s in spec.observation.describe()) == spec.observation.size


@pytest.mark.parametrize(("game", "preset"), [("coinche", "ffb_2016"), ("500", "american"), ("bridge", None)])
def test_played_cards_are_credited_to_who_played_them(game: str, preset: str | None) -> None:
    from trumps.bots.sampling import play_sequence

    for s in range(5):
        m = trumps.new_game(game, preset=preset, seed=s)
        spec = Spec(m)
        rng = random.Random(s)
        while not m.is_over and not m.results:
            seat = m.to_act_index
            assert seat is not None
            view = m.view(seat)
            if view["phase"] == "PLAY" and view.get("tricks"):
                obs = spec.observation.encode(view)
                off = dict((n, o) for n, o, _s in spec.observation.describe())["played"]
                d = len(spec.deck)
                want = np.zeros(spec.players * d, dtype=np.float32)
                done = sum(len(t["cards"]) for t in view["tricks"])
                for who, card, _led in play_sequence(view)[:done]:
                    want[((who - seat) % spec.players) * d + spec.card_index[card]] = 1.0
                assert (obs[off : off + spec.players * d] == want).all()
            m.apply(rng.choice(m.legal_actions()))
