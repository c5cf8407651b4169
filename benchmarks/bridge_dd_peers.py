"""The C double-dummy search against DDS (``endplay.dds.solve_board``) on the
same random deals, CPU time (``time.process_time``), issue 33.

    python benchmarks/bridge_dd_peers.py [--deals 60] [--seed 1] [--rounds 1]
    python benchmarks/bridge_dd_peers.py --game 500 --deals 200 --mode value

``--game bridge`` (default): full 13-card bridge deals from the opening lead
under a random strain (``--contracts``, default one contract per strain), in
"every card" mode: the value of every legal card of the leader (this
solver's ``solve``, DDS ``SolveBoard`` with ``solutions=3``).  ``--game 500``:
500 suit contracts (4 players, 10 cards) re-ranked into bridge suits
(``ddscheck.rerank_500``: joker and bowers on top of the trump suit), in
``--mode all`` (every card) or ``value`` (one best card: ``solve.value``
against ``solutions=1``).  500 no-trump deals have no bridge form (the joker
is a fifth suit): ``benchmarks/solver.py --only "no trumps"`` times them.

Each round solves every deal by both, one after the other (the order
alternating per deal), so both see the same load; the first round also
checks that both give the same value for every card (every deal, every
round's answers are compared).  Per round: median, mean and max of each and
the ratios (ours / DDS); over rounds the min / median / max of each ratio.
The machine is shared: CPU time, not wall time, and the ratios of the same
moment are what to compare.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from trumps.bridge import dd
from trumps.core.cards import Card
from trumps.solver import position_of, solve, value
from trumps.solver.ddscheck import RANKS, SUITS, rerank_500
from trumps.solver.randpos import random_match

BRIDGE_CONTRACTS = ["4S", "4H", "5D", "5C", "3NT"]
FIVE_HUNDRED_CONTRACTS = ["6S", "7H", "8D", "9C", "10S"]


class Board:
    """One deal: the match (for this solver) and its endplay ``Deal`` (for
    DDS), built before any timing."""

    def __init__(self, match: Any, relabel: dict[Card, str], trump: int) -> None:
        _, types = dd._endplay()
        self.match = match
        self.relabel = relabel
        self.trump = trump
        pos = position_of(match)
        self.pos = pos
        hands = [[relabel[c] for c in pos.hands[s]] for s in range(4)]
        groups = [".".join("".join(r for r in RANKS if r + s in h) for s in SUITS) for h in hands]
        self.deal = types.Deal("N:" + " ".join(groups))
        self.deal.first = types.Player(pos.to_play)
        self.deal.trump = types.Denom(trump if trump >= 0 else 4)

    def declaring_total(self, tricks: int) -> int:
        """DDS's tricks for the side to play as this solver's unit (the
        declaring side's final total)."""
        pos = self.pos
        return pos.won + (tricks if pos.declaring[pos.to_play] else pos.tricks_left - tricks)


def make_boards(game: str, deals: int, seed: int, contracts: list[str] | None) -> list[Board]:
    rng = random.Random(seed)
    boards = []
    for _ in range(deals):
        if game == "bridge":
            match = random_match("bridge", rng, rng.choice(contracts or BRIDGE_CONTRACTS))
            relabel = {c: str(c) for h in match.deal.dealt for c in h}
            boards.append(Board(match, relabel, match.deal.trump))
        else:
            match = random_match("500", rng, rng.choice(contracts or FIVE_HUNDRED_CONTRACTS), players="2v2")
            relabel, trump = rerank_500(match)
            boards.append(Board(match, relabel, trump))
    return boards


def run_ours(board: Board, mode: str) -> tuple[float, Any, int]:
    t = time.process_time()
    if mode == "all":
        sol = solve(board.match, engine="c")
        out: Any = sol.values
        nodes = sol.nodes
    else:
        out = value(board.match, engine="c")
        nodes = 0
    return time.process_time() - t, out, nodes


def run_dds(board: Board, mode: str) -> tuple[float, Any]:
    dds, _ = dd._endplay()
    from endplay.dds.solve import SolveMode

    solve_mode = SolveMode.Default if mode == "all" else SolveMode.OptimalOne
    t = time.process_time()
    solved = dds.solve_board(board.deal, solve_mode)
    elapsed = time.process_time() - t
    got = list(solved)
    if mode == "value":
        return elapsed, board.declaring_total(max(int(tricks) for _, tricks in got))
    back = {text: str(c) for c, text in board.relabel.items()}
    out = {}
    for card, tricks in got:
        name = str(card)
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(name[0], name[0])
        out[back[name[1:] + suit]] = board.declaring_total(int(tricks))
    return elapsed, out


def summary(xs: list[float]) -> tuple[float, float, float]:
    return statistics.median(xs), statistics.fmean(xs), max(xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--game", choices=["bridge", "500"], default="bridge")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1, help="rounds over every deal (default 1)")
    ap.add_argument(
        "--mode", choices=["all", "value"], default="all", help="every card (default) or best card"
    )
    ap.add_argument("--contracts", nargs="+", help="contracts to draw from (default one per strain)")
    ap.add_argument("--json", help="write every deal's times and nodes to this file")
    args = ap.parse_args()
    if not dd.available():
        sys.exit("endplay (DDS) is not installed")
    import trumps.solver._dd as cdd

    boards = make_boards(args.game, args.deals, args.seed, args.contracts)
    print(
        f"# {cdd.__file__} ({cdd.variant()}); {args.game}, {args.deals} deals, seed {args.seed}, mode {args.mode}"
    )
    ratios: dict[str, list[float]] = {"median": [], "mean": [], "max": []}
    disagree = 0
    record: list[dict[str, Any]] = []
    for r in range(args.rounds):
        ours_t, dds_t, nodes = [], [], []
        for i, b in enumerate(boards):
            first_ours = (i + r) % 2 == 0
            if first_ours:
                to, vo, n = run_ours(b, args.mode)
            td, vd = run_dds(b, args.mode)
            if not first_ours:
                to, vo, n = run_ours(b, args.mode)
            if vo != vd:
                disagree += 1
                print(f"DISAGREE deal {i}: ours {vo} DDS {vd}", file=sys.stderr)
            ours_t.append(to)
            dds_t.append(td)
            nodes.append(n)
            if r == 0:
                record.append({"deal": i, "strain": b.trump, "ours": to, "dds": td, "nodes": n})
        o, d = summary(ours_t), summary(dds_t)
        for k, a, b2 in zip(ratios, o, d, strict=True):
            ratios[k].append(a / b2)
        print(
            f"round {r + 1}: ours median {o[0] * 1e3:.2f} mean {o[1] * 1e3:.2f} max {o[2] * 1e3:.1f} ms | "
            f"DDS median {d[0] * 1e3:.2f} mean {d[1] * 1e3:.2f} max {d[2] * 1e3:.1f} ms | "
            f"ratio {o[0] / d[0]:.2f} / {o[1] / d[1]:.2f} / {o[2] / d[2]:.2f}"
            + (f" | median nodes {statistics.median(nodes):,.0f}" if args.mode == "all" else ""),
            flush=True,
        )
    print(f"agreement: {args.deals * args.rounds - disagree} of {args.deals * args.rounds} deals")
    for k, xs in ratios.items():
        print(f"ratio of the {k:6}: min {min(xs):.2f}  median {statistics.median(xs):.2f}  max {max(xs):.2f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(record, fh, indent=1)
    if disagree:
        sys.exit(1)


if __name__ == "__main__":
    main()
