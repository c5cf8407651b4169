"""The training example runs end to end: trains, saves, loads the policy as
a bot and plays it in the duplicate arena (tiny settings, for speed)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

pytest.importorskip("numpy")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_coinche_card_play.py"


def _load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_coinche_card_play", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_trains_saves_loads_and_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ex = _load()
    out = tmp_path / "policy.npz"
    assert ex.main(["--deals", "60", "--arena-deals", "2", "--out", str(out)]) == 0
    assert out.exists()
    text = capsys.readouterr().out
    assert "policy (A) vs random (B), 2 duplicate deals" in text and "policy (A) vs easy (B)" in text
    bot = ex.PolicyBot.load(out)
    import trumps

    m = trumps.new_game("coinche", seed=3)
    rng = random.Random(1)
    while m.deal_number == 0 and not m.is_over:  # every choice legal, from the seat's own view
        legal = [str(a) for a in m.legal_actions()]
        choice = bot.choose(m.view(m.to_act_index), legal, rng)
        assert choice in legal
        m.apply(choice)


def test_bad_arguments_exit_2() -> None:
    assert _load().main(["--deals", "0"]) == 2
