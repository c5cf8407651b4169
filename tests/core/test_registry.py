"""The game registry: the built-in games from a plain checkout, and a fourth
game added from outside through a real entry point.

The fourth game is Toy Tricks (``tests/data/toygame``: eight cards, no
auction).  It is declared the way an installed package declares it: a
``toy-0.dist-info/entry_points.txt`` with a ``[trumps.games]`` section on
``sys.path``, read by ``importlib.metadata``.  Then it is played through
the protocol, a bot, the arena, the PettingZoo environment and the card
room's HTTP and WebSocket API, none of which was told its name.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import warnings
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.core import registry
from trumps.core.errors import IllegalAction, OptionError, RecordError, WrongSeat
from trumps.core.spec import GameSpec, SpecError, resolve_ref

DATA = Path(__file__).resolve().parents[1] / "data"
BUILTIN = ("500", "bridge", "coinche")
REFERENCES = (
    "match",
    "deck",
    "notation",
    "view",
    "presentation",
    "solver",
    "dds_solver",
    "sampling",
    "rule_bot",
    "system_bidder",
    "system_explainer",
    "cli",
    "pbn",
    "arena_gains",
    "match_options",
    "match_format",
    "rl_actions",
    "bid_simulation",
)


def _dist(root: Path, name: str, lines: str) -> None:
    """A distribution's metadata as ``pip install`` writes it."""
    info = root / f"{name}-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINT_GROUP}]\n{lines}\n")


@pytest.fixture
def installed(tmp_path: Path) -> Iterator[Path]:
    """Toy Tricks installed: its package importable, its entry point declared."""
    _dist(tmp_path, "toy", "toy = toygame.spec:SPEC")
    sys.path[:0] = [str(tmp_path), str(DATA)]
    registry.reload()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.path.remove(str(DATA))
        registry.reload()


# ----- the built-in games ---------------------------------------------------------


def test_the_builtin_games_are_registered_without_package_metadata() -> None:
    assert tuple(trumps.games()[:3]) == BUILTIN
    assert registry.spec("five_hundred").name == registry.spec("FiveHundred").name == "500"
    assert registry.spec(" Belote ").name == "coinche"
    assert trumps.game_spec("bridge") is registry.spec("bridge")
    with pytest.raises(registry.UnknownGame, match="unknown game 'chess'") as err:
        registry.spec("chess")
    assert isinstance(err.value, OptionError)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_reference_of_a_builtin_spec_resolves(name: str) -> None:
    spec = registry.spec(name)
    for part in REFERENCES:
        if spec.has(part):
            assert spec.load(part) is not None, part
    cls = spec.match_class()
    assert cls.game == spec.name and spec.schema is cls.schema
    assert spec.title and spec.noun and spec.max_players in (4, 6)


@pytest.mark.parametrize("name", BUILTIN)
def test_a_spec_deck_is_the_deck_dealt(name: str) -> None:
    spec = registry.spec(name)
    for preset in (None, *spec.presets):
        match = trumps.new_game(name, preset=preset, seed=5)
        dealt = [c for rec in match.deal_records for cards in rec["hands"].values() for c in cards]
        dealt += list(match.deal_records[0].get("kitty") or [])
        deck = [str(c) for c in spec.load("deck")(match.options)]
        assert sorted(deck) == sorted(dealt), preset


def test_the_builtin_specs_are_the_entry_points_of_the_package() -> None:
    """pyproject.toml declares the built-ins too; the registry takes each
    game once, whether it comes from there or from ``BUILTIN``."""
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    section = text.split('[project.entry-points."trumps.games"]', 1)[1].split("\n[", 1)[0]
    declared = dict(
        (k.strip().strip('"'), v.strip().strip('"'))
        for k, v in (line.split("=", 1) for line in section.strip().splitlines() if "=" in line)
    )
    assert declared == {s: ref for s, ref in zip(BUILTIN, registry.BUILTIN, strict=True)}


def test_references_and_specs_are_checked() -> None:
    with pytest.raises(SpecError, match="no module"):
        resolve_ref("trumps.no_such_module:X")
    with pytest.raises(SpecError, match="has no 'Nope'"):
        resolve_ref("trumps.core.spec:Nope")
    with pytest.raises(SpecError, match="module:attr"):
        resolve_ref("trumps.core.spec:")
    assert resolve_ref("trumps.core.spec").__name__ == "trumps.core.spec"
    with pytest.raises(SpecError, match="lower case"):
        GameSpec(name="Toy", match="x:y", title="T", noun="t")
    with pytest.raises(SpecError, match="has no pbn"):
        registry.spec("500").load("pbn")
    spec = registry.spec("500")
    assert "500" in repr(spec)
    with pytest.raises(SpecError, match="already registered"):
        registry.register(dataclasses.replace(spec, name="five", aliases=("five_hundred",)))
    assert "five" not in trumps.games()


# ----- a game from outside ------------------------------------------------------------


def test_an_entry_point_adds_a_game(installed: Path) -> None:
    assert [ep.name for ep in entry_points(group=registry.ENTRY_POINT_GROUP) if ep.name == "toy"] == ["toy"]
    assert trumps.games()[:3] == list(BUILTIN) and "toy" in trumps.games()
    spec = trumps.game_spec("Toy_Tricks")
    assert spec.name == "toy" and spec.title == "Toy Tricks"
    assert not spec.has("solver") and not spec.has("presentation")


def test_a_broken_or_clashing_entry_point_is_skipped_with_a_warning(installed: Path) -> None:
    (installed / "clash.py").write_text(
        "from trumps.core.spec import GameSpec\n"
        "SPEC = GameSpec(name='bridge', match='toygame.game:ToyTricks', title='Fake', noun='fake')\n"
    )
    _dist(
        installed,
        "bad",
        "broken = toygame.no_such_module:SPEC\nbridge = clash:SPEC\nmisnamed = toygame.spec:SPEC",
    )
    registry.reload()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = trumps.games()
    said = " ".join(str(w.message) for w in caught)
    assert "failed to load" in said and "already registered" in said
    assert "'misnamed' names a game called 'toy'" in said
    assert names.count("bridge") == 1 and "toy" in names
    assert trumps.game_spec("bridge").match == "trumps.bridge.game:Bridge"


def test_the_toy_game_through_the_protocol(installed: Path) -> None:
    g = trumps.new_game("toy", seed=11, options={"target": 2})
    assert g.to_act_index is not None and g.phase == "PLAY"
    seat = g.to_act_index
    with pytest.raises(WrongSeat):
        g.apply(g.legal_actions()[0], (seat + 1) % 4)
    # the cards of another hand are never legal
    other = next(c for s in range(4) if s != seat for c in g.deal.hands[s])
    with pytest.raises(IllegalAction):
        g.apply(other)
    view = g.view(seat)
    assert view["legal"] == [str(c) for c in g.legal_actions()]
    assert all(h is None for s, h in view["hands"].items() if s != g.seat_name(seat))
    g.apply(g.legal_actions()[0])  # an object
    rng = random.Random(4)
    while not g.is_over:
        g.apply(str(rng.choice(g.legal_actions())))  # its notation
    assert g.winner in (0, 1) and max(g.scores) >= 2
    record = json.loads(json.dumps(g.to_json()))
    again = trumps.load_game(record)
    assert again.scores == g.scores and again.history() == g.history()
    record["scores"] = [9, 9]
    with pytest.raises(RecordError):
        trumps.load_game(record)


def test_the_toy_game_with_its_rule_bot_and_the_arena(installed: Path) -> None:
    from trumps.bots import bot_for, selfplay
    from trumps.bots.arena import duplicate_match

    easy = bot_for("toy", "easy")
    assert type(easy).__name__ == "ToyRuleBot"
    g = trumps.new_game(
        "toy", seed=2, deal={"N": "AS JH", "E": "KS KH", "S": "QS QH", "W": "JS AH"}, dealer="W"
    )
    assert g.to_act_index == 0
    g.apply("AS")
    assert easy.choose(g.view(1), [str(c) for c in g.legal_actions()], random.Random(0)) == "KS"
    played = selfplay("toy", ["easy", "random"], games=3, seed=1)
    assert played.games == 3
    result = duplicate_match("toy", "easy", "random", deals=6, seed=1)
    assert result.game == "toy" and result.measures == ("points",)
    assert len(result.per_deal) == 6
    for outcome in result.per_deal:
        # a two-trick deal: each side wins 0, 1 or 2 at each table
        assert -2 <= outcome.gains["points"] <= 2
    # the solver, the PIMC levels and OpenSpiel bounds need more than this spec gives
    from trumps.solver import SolverError, solve

    with pytest.raises(SolverError, match="no solver adapter"):
        solve(trumps.new_game("toy", seed=1))


def test_the_toy_game_in_the_pettingzoo_environment(installed: Path) -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np
    from pettingzoo.test import api_test

    from trumps.envs import env, raw_env

    api_test(env("toy"), num_cycles=100)
    e = raw_env("toy", reward="tricks", check_observations=True)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        total[agent] = total.get(agent, 0.0) + float(reward)
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert total["N"] + total["E"] == 2  # two tricks in a deal
    with pytest.raises(ValueError, match="not offered"):
        raw_env("toy", reward="imps")


def test_the_toy_game_in_the_card_room(installed: Path, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from trumps.room.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'room.db'}", bot_delay=0)) as client:
        catalogue = {g["game"]: g for g in client.get("/api/games").json()}
        assert catalogue["toy"]["short_title"] == "Toy Tricks" and catalogue["toy"]["noun"] == "toy tricks"
        assert client.post("/api/guest", json={"name": "Ann"}).status_code == 200
        r = client.post("/api/tables", json={"game": "toy_tricks", "options": {"target": 2}})
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["game"] == "toy"
        states: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws/table/{table['id']}") as ws:

            def state() -> dict[str, Any]:
                while True:
                    ev = json.loads(ws.receive_text())
                    assert ev["type"] != "error", ev
                    if ev["type"] == "state":
                        states.append(ev)
                        return dict(ev)

            state()
            ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
            state()
            ws.send_text(json.dumps({"v": 1, "type": "fill"}))
            ev = state()
            played = 0
            for _ in range(500):
                if ev["view"]["over"]:
                    break
                if ev["table"]["status"] == "playing" and ev["view"]["to_act"] == "S":
                    ws.send_text(
                        json.dumps(
                            {"v": 1, "type": "act", "action": ev["view"]["legal"][-1], "seq": ev["seq"]}
                        )
                    )
                    played += 1
                ev = state()
        assert ev["view"]["over"] and ev["table"]["status"] == "finished" and played > 0
        assert ev["table"]["game_title"] == "Toy Tricks"
        for seen in states:  # only South's own cards, and the cards played
            v = seen["view"]
            assert all(h is None for s, h in v["hands"].items() if s != "S")
        record = client.get(f"/api/tables/{table['id']}/record").json()
        replayed = trumps.load_game(record)
        assert replayed.is_over and replayed.scores == ev["view"]["scores"]


# ----- nothing outside a game's package names it ---------------------------------------

SRC = Path(trumps.__file__).resolve().parent
GAME_PACKAGES = {ref.split(":")[0].split(".")[1] for ref in registry.BUILTIN}


def _game_words() -> set[str]:
    """The games' names (not their aliases: "belote" is also a card announcement's word)."""
    return {s.name for s in registry.specs()}


def _outside_the_games() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.relative_to(SRC).parts[0] not in GAME_PACKAGES)


def test_no_layer_compares_a_game_name() -> None:
    """The layers ask the registry: no ``game == "bridge"``, no
    ``name in ("500", ...)``, no map keyed by game names, outside the games'
    own packages."""
    import ast

    words = _game_words()

    def names_a_game(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value.lower() in words
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(names_a_game(e) for e in node.elts)
        return False

    found = []
    for path in _outside_the_games():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(names_a_game(n) for n in (node.left, *node.comparators)):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
            # a map keyed by game names (a word map of the CLI, where "coinche" is a call's name, is not)
            if isinstance(node, ast.Dict) and sum(names_a_game(k) for k in node.keys if k is not None) >= 2:
                found.append(f"{path.relative_to(SRC)}:{node.lineno} (a map keyed by games)")
    assert not found, found


def test_no_page_names_a_game() -> None:
    """The pages get the games' names from /api/games: no script or page
    holds a map or a list of game names."""
    import re

    names = "|".join(re.escape(w) for w in _game_words())
    key = re.compile(rf"""(?:["']?\b(?:{names})\b["']?\s*:)|(?:value=["'](?:{names})["'])""")
    found = []
    for path in sorted((SRC / "room" / "static").glob("*.*")):
        if path.suffix not in (".js", ".html"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if key.search(code):
                found.append(f"{path.name}:{n}: {line.strip()[:80]}")
    assert not found, found
