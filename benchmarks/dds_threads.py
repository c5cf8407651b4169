"""DDS under concurrency: which safe way of calling it is fastest for the
room's load (issue 29).

The room's bridge bots run in threads (``asyncio.to_thread``) and each
decision makes many small ``solve_board`` calls (one per sampled deal, in
the middle of play).  DDS as endplay calls it is not safe from several
threads at once, so the calls must go through one of:

* ``slots``  — the gate of ``trumps.bridge.dd``: each solve holds a DDS
  thread slot of its own (DDS keeps memory per slot), up to as many at once
  as DDS has slots; what the code base uses;
* ``lock``   — one caller at a time (the same gate with one slot);
* ``thread`` — a dedicated solver thread fed by a queue;
* ``pool``   — a process pool, one DDS per worker process.

``bot threads`` callers each solve the same list of mid-play positions; the
figure is solves per second over all callers and the mean wait of one call.
Every answer is checked against a single-threaded run.

    python benchmarks/dds_threads.py [--threads 4] [--positions 60] [--repeat 3]

The default run takes about half a minute on two cores.
"""

from __future__ import annotations

import argparse
import os
import platform
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import trumps
from trumps.bridge import dd
from trumps.bridge.hands import format_deal

Position = tuple[str, int, int, tuple[str, ...]]


def positions(n: int) -> list[Position]:
    """``n`` bot-sized positions: a deal after 1 to 7 tricks, as
    ``(hands, leader, DDS trump, cards of the current trick)``."""
    out: list[Position] = []
    seed = 0
    while len(out) < n:
        seed += 1
        m = trumps.new_game(
            "bridge", seed=seed, contract=("3NT", "4S", "4H", "5D")[seed % 4], declarer=seed % 4
        )
        for _ in range(4 * (1 + seed % 7) + seed % 3):
            legal = m.legal_actions()
            m.apply(legal[seed % len(legal)])
        d: Any = m.deal
        hands = [list(h) for h in d.hands]
        for seat, card in zip(d.trick_seats, d.trick, strict=True):
            hands[seat].append(card)
        leader = d.trick_seats[0] if d.trick else d.hand_to_play
        trick = tuple(str(c)[-1] + str(c)[:-1] for c in d.trick)
        out.append((format_deal(hands), int(leader), dd._DENOM_OF_STRAIN[d.contract.strain], trick))
    return out


def solve(pos: Position) -> tuple[tuple[str, int], ...]:
    """One position through the gate (also the process pool's task)."""
    _, types = dd._endplay()
    text, leader, trump, trick = pos
    ep = types.Deal(text)
    ep.first = types.Player(leader)
    ep.trump = types.Denom(trump)
    for card in trick:
        ep.play(types.Card(card))
    return tuple((dd._card_text(c), int(t)) for c, t in dd.solve_board(ep))


class SolverThread:
    """A dedicated thread that alone calls DDS; callers wait on a future."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[tuple[Position, Future[Any]] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while (job := self.jobs.get()) is not None:
            pos, fut = job
            fut.set_result(solve(pos))

    def __call__(self, pos: Position) -> Any:
        fut: Future[Any] = Future()
        self.jobs.put((pos, fut))
        return fut.result()

    def close(self) -> None:
        self.jobs.put(None)
        self.thread.join()


def run(
    call: Callable[[Position], Any], work: list[Position], want: list[Any], callers: int
) -> tuple[float, float]:
    waits: list[float] = []
    wrong: list[int] = []

    def caller(t: int) -> None:
        for k in range(len(work)):
            i = (k + t * 7) % len(work)
            t0 = time.perf_counter()
            got = call(work[i])
            waits.append(time.perf_counter() - t0)
            if got != want[i]:
                wrong.append(i)

    threads = [threading.Thread(target=caller, args=(t,)) for t in range(callers)]
    start = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - start
    if wrong:
        raise SystemExit(f"{len(wrong)} wrong answers")
    return callers * len(work) / elapsed, 1000 * sum(waits) / len(waits)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=4, help="bot threads calling at once (default 4)")
    ap.add_argument("--positions", type=int, default=60, help="positions each thread solves (default 60)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each way, the best kept (default 3)")
    a = ap.parse_args()
    if not dd.available():
        raise SystemExit("needs endplay (DDS)")
    work = positions(a.positions)
    slots = dd._gate().slots
    t0 = time.perf_counter()
    want = [solve(p) for p in work]
    single = len(work) / (time.perf_counter() - t0)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, DDS slots {slots}")
    print(f"{a.threads} bot threads x {a.positions} mid-play positions; best of {a.repeat}")
    print(f"{'single caller':>14}: {single:7.1f} solves/s")

    pool = ProcessPoolExecutor(max_workers=slots)
    list(pool.map(solve, work[: 2 * slots]))  # start and warm the workers
    solver_thread = SolverThread()
    gate = dd._gate()
    ways: dict[str, Callable[[Position], Any]] = {
        "slots": solve,
        "lock": solve,
        "thread": solver_thread,
        "pool": lambda p: pool.submit(solve, p).result(),
    }
    for name, call in ways.items():
        dd._GATE = dd._Gate(1) if name == "lock" else gate
        best = max((run(call, work, want, a.threads) for _ in range(a.repeat)), key=lambda r: r[0])
        print(f"{name:>14}: {best[0]:7.1f} solves/s, {best[1]:6.1f} ms mean wait per call")
    dd._GATE = gate
    solver_thread.close()
    pool.shutdown()


if __name__ == "__main__":
    main()
