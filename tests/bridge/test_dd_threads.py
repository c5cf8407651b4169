"""DDS from many threads at once (issue 29: two bridge tables with bots
killed the server with SIGSEGV or DDS's ``Sum 7 is not four``, and
concurrent double-dummy calls came back wrong).

The threads run in a child process, so a crash in DDS fails this test with
the child's exit status instead of killing pytest.  Every answer must equal
the one the same process computed single-threaded first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import trumps
from trumps.bridge import dd

pytestmark = pytest.mark.skipif(not dd.available(), reason="endplay (DDS) not installed")

CHILD = r"""
import sys, threading
import trumps
from trumps.bots import solving
from trumps.bridge import dd

# bot-sized work: positions after a few tricks, from several deals and contracts
positions = []
for seed in range(1, 9):
    m = trumps.new_game("bridge", seed=seed, contract=("3NT", "4S", "2H", "5C")[seed % 4], declarer=seed % 4)
    for _ in range(4 + 3 * (seed % 4)):
        m.apply(m.legal_actions()[seed % len(m.legal_actions())])
    positions.append(m)
deals = [trumps.new_game("bridge", seed=s, contract="1NT", declarer=0).deal.hands for s in (11, 12)]

def board(i):
    return solving.bridge_dds(positions[i]).values

def tricks(i):
    return dd.max_tricks_from(positions[i].deal, i % 2)

def table(i):
    return dd.dd_table(deals[i]).tricks

def tables(i):
    return [t.tricks for t in dd.dd_tables(deals)]

def par(i):
    return dd.par(deals[i], vulnerable="NS", dealer=i).score

calls = [(board, i) for i in range(8)] + [(tricks, i) for i in range(8)]
calls += [(table, 0), (table, 1), (tables, 0), (par, 0), (par, 1)]
want = {(f.__name__, i): f(i) for f, i in calls}
assert all(want[("board", i)] for i in range(8)), "empty single-threaded answer"

wrong = []
def work(t):
    for k in range(ROUNDS):
        f, i = calls[(7 * t + 3 * k) % len(calls)]
        try:
            got = f(i)
        except Exception as exc:
            got = repr(exc)
        if got != want[(f.__name__, i)]:
            wrong.append((f.__name__, i, got))

threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("calls", THREADS * ROUNDS, "wrong", len(wrong), wrong[:3])
sys.exit(1 if wrong else 0)
"""


def _run(threads: int, rounds: int) -> subprocess.CompletedProcess[str]:
    src = str(Path(trumps.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = CHILD.replace("THREADS", str(threads)).replace("ROUNDS", str(rounds))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=240, env=env, cwd=src
    )


@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
def test_many_threads_get_the_single_threaded_answers() -> None:
    out = _run(threads=8, rounds=25)
    assert out.returncode == 0, f"exit {out.returncode}: {out.stdout[-500:]} {out.stderr[-1500:]}"
    assert "calls 200 wrong 0" in out.stdout


def test_a_table_waits_for_the_solves_and_they_for_it() -> None:
    """The gate itself: an exclusive call never overlaps a slot holder and
    two holders never share a slot index."""
    import threading

    gate = dd._Gate(3)
    inside: list[int] = []
    alone_overlap: list[int] = []
    lock = threading.Lock()

    def solver() -> None:
        for _ in range(200):
            with gate.slot() as index:
                with lock:
                    assert index not in inside
                    inside.append(index)
                with lock:
                    inside.remove(index)

    def table() -> None:
        for _ in range(50):
            with gate.alone(), lock:
                alone_overlap.append(len(inside))

    workers = [threading.Thread(target=solver) for _ in range(6)] + [threading.Thread(target=table)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
    assert not any(w.is_alive() for w in workers)
    assert alone_overlap == [0] * 50
