"""``benchmarks/room_load.py``: what its client processes measure is merged
into one report, and a short run with ``--client-procs 2`` plays every table."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def load_room_load() -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module("room_load")


def test_the_stats_of_client_processes_merge_into_one() -> None:
    rl = load_room_load()
    a = rl.Stats(actions=3, errors=1, latencies=[0.1, 0.2], error_reasons=Counter({"x": 1}))
    a.complete["t1"] = [1.0]
    a.trace["t1 N"] = [(1.0, "open")]
    b = rl.Stats(actions=4, stalls=1, latencies=[0.3], error_reasons=Counter({"x": 2, "y": 1}))
    b.complete["t2"] = [2.0]
    b.drops.append((5.0, "close 1012"))
    parts = [rl.stats_dict(a, keep_trace=False), rl.stats_dict(b, keep_trace=True)]
    # what crosses the pipe is plain data (a spawned process's classes are not the parent's)
    assert all(type(v) in (list, dict, int, bool, type(None)) for d in parts for v in d.values())
    merged = rl.merge_stats(parts)
    assert (merged.actions, merged.errors, merged.stalls) == (7, 1, 1)
    assert sorted(merged.latencies) == [0.1, 0.2, 0.3]
    assert merged.error_reasons == Counter({"x": 3, "y": 1})
    assert merged.complete == {"t1": [1.0], "t2": [2.0]}
    assert merged.drops == [(5.0, "close 1012")]
    assert merged.trace == {}  # not kept without --dump
    assert merged.measuring is False and merged.kill_at is None


def test_each_block_of_tables_has_a_loopback_address_of_its_own() -> None:
    rl = load_room_load()
    per = rl.TABLES_PER_ADDRESS
    assert 4 * per < 256  # the room's socket budget per guest address (trumps.room.limits)
    addresses = [rl.client_address(i, per) for i in range(1000)]
    assert Counter(addresses).most_common(1)[0][1] == per
    assert len(set(addresses)) == -(-1000 // per)
    assert all(a.startswith("127.1.") for a in addresses)
    assert rl.client_address(0, rl.IDLE_TABLES_PER_ADDRESS, 2) == "127.2.0.1"


@pytest.mark.slow
def test_a_short_run_with_two_client_processes(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    cmd = [
        sys.executable, str(BENCHMARKS / "room_load.py"), "--tables", "8", "--idle-tables", "0", "--seconds", "3",
        "--warmup", "1", "--think", "0.05", "--client-procs", "2", "--json", str(out),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "clients: 2 processes (--client-procs)" in r.stdout
    s = json.loads(out.read_text())
    assert s["client_procs"] == 2
    assert s["actions"] > 0 and s["failures"] == 0 and s["stalls"] == 0 and s["errors"] == 0
    assert s["server_cpu_ms_per_action"] > 0
    assert s["cpu_parts"]["load generator"] > 0
