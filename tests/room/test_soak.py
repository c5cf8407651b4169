"""The soak test (issue 29): one real ``trumps serve`` for two and a half
minutes of ordinary play, and the room must hold.

It is ``benchmarks/soak.py --set short`` (imported, not copied): bot tables
of 500 (four and six players), bridge and coinche with melds, every bot
level at each; a client acting as a person with suggestions on at a 500, a
bridge and a coinche table, bots in the other seats; spectators coming and
going, some of them slow readers; chat now and then; a guest playing the
instant duplicate tournaments, a deal of each game in turn.  The run ends at the
first failure, so a server that dies fails this test in seconds rather than
minutes.

What must hold: the server stays up; every table advances (none is still
for ``STALL`` seconds); its RSS grows less than ``RSS_GROWTH_MB`` after the
warm-up; no request is answered with 5xx nor socket closed with 1011; the
clients' ordinary play never fails.  The bounds are generous for a shared
2-core machine: what the test catches is a crash, a frozen table, a leak
that grows with the run, not a slow minute.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
MINUTES = 2.5
WARMUP = 45.0  # s: tables made, every kind of game under way, the server's imports done
STALL = 45.0  # s a table may be still (a strong bot's turn on a loaded machine takes a few)
RSS_GROWTH_MB = 100.0  # after the warm-up (a few MB a run when it holds; a leak per action grows far more)


def load_soak() -> ModuleType:
    """``benchmarks/soak.py`` (it imports ``room_load`` from its folder)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module("soak")


@pytest.mark.slow
def test_room_survives_minutes_of_ordinary_play() -> None:
    soak = load_soak()
    opts = soak.Options(
        minutes=MINUTES, set="short", stall=STALL, warmup=WARMUP, rss_growth_mb=RSS_GROWTH_MB,
        fail_fast=True, quiet=True,
    )  # fmt: skip
    out = soak.run_soak(opts)
    assert out["ok"], soak.describe(out)
    # the run really was what it says: all of it happened, and for the whole time
    assert out["elapsed_s"] >= MINUTES * 60 - 10, soak.describe(out)
    assert all(t["actions"] > 0 for t in out["tables"]), soak.describe(out)
    clients = out["clients"]
    assert clients.get("suggestions played", 0) > 0, soak.describe(out)
    assert clients.get("spectator visits", 0) > 0, soak.describe(out)
    assert clients.get("tournament deals played", 0) > 0, soak.describe(out)
    assert clients.get("slow spectator visits", 0) > 0, soak.describe(out)
    assert out["server"]["rss"]["samples_after_warmup"] > 0, soak.describe(out)
