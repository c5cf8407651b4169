"""The games as OpenSpiel Python games: OpenSpiel's own random simulation
test (with serialisation) and its IS-MCTS bot playing whole deals."""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from trumps.envs.openspiel_game import register  # noqa: E402

register()


@pytest.mark.parametrize(
    ("game", "params"),
    [
        ("bridge", {}),
        ("500", {"preset": "american"}),
        ("500", {"preset": "australian", "options": "players:3v3"}),
        ("coinche", {"preset": "ffb_2016"}),
        ("coinche", {"preset": "seed", "reward": "card_points"}),
        ("500", {"preset": "american", "options": json.dumps({"players": "2v2v2", "kitty_size": 5})}),
        ("coinche", {"preset": "common", "options": "belote_requires_announcement:true;melds:seed"}),
    ],
)
def test_random_sim(game: str, params: dict[str, object]) -> None:
    g = pyspiel.load_game(f"python_trumps_{game}", params)
    pyspiel.random_sim_test(g, num_sims=3, serialize=True, verbose=False)


def test_tensors_and_strings_have_the_declared_shapes() -> None:
    g = pyspiel.load_game("python_trumps_bridge")
    s = g.new_initial_state()
    rng = random.Random(1)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    assert len(s.observation_tensor(0)) == g.observation_tensor_size()
    assert len(s.information_state_tensor(0)) == g.information_state_tensor_size()
    assert sum(s.information_state_tensor(0)[:52]) == 13
    # what North sees does not say where East's cards are
    view = json.loads(s.observation_string(0).split(" ", 1)[1])
    assert view["hands"]["E"] is None


@pytest.mark.parametrize(
    ("game", "params"), [("coinche", {"preset": "ffb_2016"}), ("500", {"preset": "american"})]
)
def test_ismcts_plays_a_whole_deal(game: str, params: dict[str, object]) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    g = pyspiel.load_game(f"python_trumps_{game}", params)
    rs = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=8, random_state=rs)
    s = g.new_initial_state()
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rs.randint(len(outcomes))][0])
            continue
        if s.current_player() % 2 == 0:
            action = bot.step(s)
            moves += 1
        else:
            action = int(rs.choice(s.legal_actions()))
        s.apply_action(action)
    assert moves > 0
    r = s.returns()
    assert r[0] == r[2] and r[1] == r[3]


def test_resampled_worlds_share_the_information_state() -> None:
    g = pyspiel.load_game("python_trumps_bridge")
    rng = random.Random(3)
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    for _ in range(40):
        s.apply_action(rng.choice(s.legal_actions()))
    p = s.current_player()
    w = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert w.information_state_string(p) == s.information_state_string(p)
    assert w.legal_actions() == s.legal_actions()


def test_resampled_coinche_worlds_tell_what_the_melds_told() -> None:
    """With the seed's melds: every world drawn for a seat in the play
    holds the melds shown at trick 2 in their owners' hands, and a meld of
    each announced value; its information state is the seat's own."""
    g = pyspiel.load_game("python_trumps_coinche", {"preset": "seed"})
    rng = random.Random(11)
    positions = shown = agree = 0
    for _ in range(40):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
                continue
            p = s.current_player()
            view = json.loads(s.observation_string(p).split(" ", 1)[1])
            melds = view.get("melds") or {}
            if view.get("phase") == "PLAY" and (melds.get("announcements") or melds.get("shown")):
                try:
                    w = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                except RuntimeError:  # a world the trumping rules' inferences would need (see docs/envs.md)
                    w = None
                if w is not None:
                    positions += 1
                    agree += w.information_state_string(p) == s.information_state_string(p)
                    world = w.match.deal
                    for name, shown_melds in (melds.get("shown") or {}).items():
                        seat = list(view["seats"]).index(name)
                        dealt = {str(c) for c in world.dealt[seat]}
                        cards = {r + m[-1] for m in shown_melds if len(set(m)) > 1 for r in m[:-1]}
                        cards |= {m[0] + x for m in shown_melds if len(set(m)) == 1 for x in "SHDC"}
                        assert cards <= dealt, (name, shown_melds, sorted(dealt))
                        shown += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert positions > 100 and shown > 20
    assert agree >= 0.98 * positions, (agree, positions)
