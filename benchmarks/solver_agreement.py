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
from typing import Any

from trumps.core.cards import Card
from trumps.solver import position_of, solve
from trumps.solver.randpos import random_position_match

RANKS = "AKQJT98765432"
SUITS = "SHDC"


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


def _dds_values(match: Any, relabel: dict[Any, str], trump: int) -> dict[str, int]:
    from endplay import dds, types

    pos = position_of(match)
    hands = [[relabel[c] for c in pos.hands[s]] for s in range(4)]
    first = pos.trick_seats[0] if pos.trick else pos.to_play
    for i, card in enumerate(pos.trick):
        hands[(first + i) % 4].append(relabel[card])
    groups = [".".join("".join(r for r in RANKS if r + s in h) for s in SUITS) for h in hands]
    deal = types.Deal("N:" + " ".join(groups))
    deal.first = types.Player(first)
    deal.trump = types.Denom(trump if trump >= 0 else 4)
    for card in pos.trick:
        text = relabel[card]
        deal.play(types.Card(text[-1] + text[:-1]))
    out = {}
    for card, tricks in dds.solve_board(deal):
        text = str(card)
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(text[0], text[0])
        out[text[1:] + suit] = int(tricks)
    return out


def _dds_sweep(game: str, count: int, seed: int) -> tuple[int, list[str]]:
    rng = random.Random(f"agreement-dds/{game}/{seed}")
    bad: list[str] = []
    for _ in range(count):
        cards = rng.randint(5, 10)
        if game == "500":
            match = random_position_match(
                "500", rng, cards, contract=rng.choice(["6S", "7H", "8D", "9C"]), players="2v2"
            )
            rules = match.deal.rules
            dealt = [c for h in match.deal.dealt for c in h]
            relabel = {}
            for suit in range(4):
                mine = sorted(
                    (c for c in dealt if rules.eff[c.index] == suit), key=lambda c: -rules.power[c.index]
                )
                for slot, c in enumerate(mine):
                    relabel[c] = RANKS[slot] + SUITS[suit]
            trump = int(rules.trump)
        else:
            match = random_position_match("bridge", rng, min(cards, 8))
            relabel = {c: str(c) for h in match.deal.dealt for c in h}
            trump = match.deal.trump
        pos = position_of(match)
        got = _dds_values(match, relabel, trump)
        sol = solve(match, engine="c")
        for card_text, value in sol.values.items():
            tricks = got[relabel[Card(card_text)]]
            ours = tricks if pos.declaring[pos.to_play] else pos.tricks_left - tricks
            if value != pos.won + ours:
                bad.append(
                    f"{game} {match.deal.contract} {match.log}: {card_text} C {value} DDS {pos.won + ours}"
                )
                break
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
