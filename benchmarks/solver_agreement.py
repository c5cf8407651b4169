"""Correctness at scale: the C search against the pure-Python reference on
many random positions of every game and option family (the CI tests run a
few hundred small ones; this runs thousands and larger hands), and against
DDS on 500 suit contracts re-ranked into bridge suits and on bridge deals.

    python benchmarks/solver_agreement.py [--positions 1000] [--cards 4 6] [--dds 200] [--seed 1]

Prints, per game, how many positions agreed and the first disagreement in
full (there should be none); exits non-zero if any position disagreed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from trumps.solver import solve
from trumps.solver.ddscheck import dds_totals, rerank_500
from trumps.solver.randpos import random_position_match


def _reference_sweep(game: str, count: int, cards: tuple[int, int], seed: int) -> tuple[int, list[str]]:
    rng = random.Random(f"agreement/{game}/{seed}")
    bad: list[str] = []
    for _ in range(count):
        match = random_position_match(game, rng, rng.randint(*cards))
        c = solve(match, engine="c").values
        py = solve(match, engine="python").values
        if c != py:
            bad.append(f"{game} {match.deal.contract} {match.options} {match.log}: C {c} Python {py}")
    return count, bad


def _dds_sweep(game: str, count: int, seed: int) -> tuple[int, list[str]]:
    rng = random.Random(f"agreement-dds/{game}/{seed}")
    bad: list[str] = []
    for _ in range(count):
        cards = rng.randint(5, 10)
        if game == "500":
            contract = rng.choice(["6S", "7H", "8D", "9C"])
            match = random_position_match("500", rng, cards, contract=contract, players="2v2")
            relabel, trump = rerank_500(match)
        else:
            match = random_position_match("bridge", rng, min(cards, 8))
            relabel = {c: str(c) for h in match.deal.dealt for c in h}
            trump = match.deal.trump
        ours = solve(match, engine="c").values
        theirs = dds_totals(match, relabel, trump)
        if ours != theirs:
            bad.append(f"{game} {match.deal.contract} {match.log}: C {ours} DDS {theirs}")
    return count, bad


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--positions", type=int, default=1000, help="positions per game against the reference")
    ap.add_argument(
        "--cards", type=int, nargs=2, default=(4, 6), metavar=("MIN", "MAX"), help="cards per hand"
    )
    ap.add_argument("--dds", type=int, default=200, help="positions per game against DDS (0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    failures: list[str] = []
    rows: list[tuple[str, str, int, int, float]] = []
    for game in ("500", "coinche", "bridge"):
        t = time.perf_counter()
        n, bad = _reference_sweep(game, args.positions, tuple(args.cards), args.seed)
        rows.append((game, "Python reference", n, len(bad), time.perf_counter() - t))
        failures += bad
        print(f"{game:8} vs Python reference: {n - len(bad)}/{n} agree ({rows[-1][4]:.0f} s)", flush=True)
    if args.dds:
        try:
            import endplay  # noqa: F401
        except ImportError:
            print("endplay (DDS) not installed: DDS comparison skipped", file=sys.stderr)
        else:
            for game in ("500", "bridge"):
                t = time.perf_counter()
                n, bad = _dds_sweep(game, args.dds, args.seed)
                rows.append((game, "DDS", n, len(bad), time.perf_counter() - t))
                failures += bad
                print(f"{game:8} vs DDS: {n - len(bad)}/{n} agree ({rows[-1][4]:.0f} s)", flush=True)
    for line in failures[:5]:
        print("DISAGREE:", line)
    print(f"{sum(r[2] for r in rows)} positions, {len(failures)} disagreements ({Path(__file__).name})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
