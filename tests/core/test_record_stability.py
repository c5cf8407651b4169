"""A seed deals the same cards and a game records the same things in every
version: the engines are optimised often (docs/benchmarks.md), and a stored
game replays only if its deals, actions and results are what they were.

``tests/data/core/record_digests.json`` holds, per game and option set, the
SHA-256 of the JSON records (``to_json``) and deal results of a few seeded
matches played with seeded random legal actions.  It was written by the
engines before the speed work of session 28; rewrite it only for a change
that is meant to change records, and say so in the commit (run this module
with ``TRUMPS_WRITE_DIGESTS=1``)."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

import trumps

DATA = Path(__file__).parents[1] / "data" / "core" / "record_digests.json"
MATCHES = 25
CASES: list[tuple[str, str | None, dict[str, object] | None]] = [
    ("bridge", None, {"scoring": "duplicate"}),
    ("bridge", None, {"scoring": "rubber"}),
    ("500", "american", None),
    ("500", "australian", None),
    ("500", None, {"players": "3v3"}),
    ("500", None, {"players": "2v2v2"}),
    ("coinche", "seed", None),
    ("coinche", "common", None),
    ("coinche", "ffb_2016", None),
    ("coinche", "contree_exact", None),
    ("coinche", "pagat", None),
    ("coinche", "common", {"direction": "anticlockwise", "deal_pattern": "2-3-3"}),
    ("coinche", "seed", {"coinche_timing": "any_time", "coinche_closes_auction": False}),
]


def _name(game: str, preset: str | None, options: dict[str, object] | None) -> str:
    return f"{game} {preset or '-'} {json.dumps(options or {}, sort_keys=True)}"


def _digest(game: str, preset: str | None, options: dict[str, object] | None) -> str:
    h = hashlib.sha256()
    pick = random.Random(7).randrange
    # a rubber of random calls lasts many deals: fewer of them
    for seed in range(3 if (options or {}).get("scoring") == "rubber" else MATCHES):
        m = trumps.new_game(game, preset=preset, options=options, seed=seed)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[pick(len(legal))])
        h.update(json.dumps(m.to_json()).encode())
        h.update(json.dumps(m.results).encode())
    return h.hexdigest()


def test_the_digests_cover_every_case() -> None:
    if os.environ.get("TRUMPS_WRITE_DIGESTS"):
        DATA.write_text(json.dumps({_name(*c): _digest(*c) for c in CASES}, indent=1) + "\n")
    assert sorted(json.loads(DATA.read_text())) == sorted(_name(*c) for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: _name(*c))
def test_seeded_matches_record_what_they_always_recorded(
    case: tuple[str, str | None, dict[str, object] | None],
) -> None:
    expected = json.loads(DATA.read_text())[_name(*case)]
    assert _digest(*case) == expected
