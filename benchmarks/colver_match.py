"""trumps' levels against colver's bots, with card points lost to the
double-dummy optimum.

Plays the same duplicate deals as ``trumps arena coinche --preset
contree_exact --a LEVEL --b colver:AGENT`` (same seeds, same chance stream,
so the same results) and, at every card with a choice, asks the project's
double-dummy solver for the value of each legal card: the acting side loses
``best - chosen`` card points (from its own side's point of view) to the
double-dummy optimum.  A side's loss per deal is the sum over its cards;
the figure per bot is the mean over both tables of the deal pair.

    python benchmarks/colver_match.py --levels easy,normal,strong \\
        --against colver:smart_ismcts --deals 200 [--seed 1] [--json out.json]

Needs colver (``pip install trumps[arena]``).  Prints, per pairing, A's gain
per deal (deal score, card points) and each side's card points lost per
deal, all with 95% intervals over the deal pairs.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

import trumps
from trumps.bots.arena import _factory, _gains, _new_match, interval
from trumps.bots.base import Bot
from trumps.bots.selfplay import step
from trumps.bots.solving import solve_values
from trumps.core.protocol import Match

PRESET = {"preset": "contree_exact"}


def _loss(match: Match[Any], seat: int, choice: str, before: dict[str, float], maximising: bool) -> float:
    """Card points the acting side gave away with ``choice``.

    ``before`` holds the declaring side's final total after each card; the
    solver maximises for the declaring side, minimises for the defence."""
    best = max(before.values()) if maximising else min(before.values())
    got = before[choice]
    return best - got if maximising else got - best


def play_table(match: Match[Any], bots: list[Bot], rng: random.Random) -> tuple[dict[str, Any], list[float]]:
    """Play the deal; return the result and each team's DD loss."""
    lost = [0.0, 0.0]
    team_of = {s: t for t, seats in enumerate(match.teams) for s in seats}
    for _ in range(10_000):
        if match.results:
            return dict(match.results[0]), lost
        seat = match.to_act_index
        assert seat is not None
        legal = [str(a) for a in match.legal_actions()]
        values = None
        if match.view(seat)["phase"] == "PLAY" and len(legal) > 1:
            values = solve_values(match)
        _, choice = step(match, bots[seat], rng)
        if values is not None:
            lost[team_of[seat]] += _loss(match, seat, choice, values.values, values.maximising)
    raise RuntimeError("the deal did not finish")


def fixed_contract(seed: int) -> dict[str, Any] | None:
    """The deal of ``seed`` with the contract trumps' ``easy`` bidder reaches
    at all four seats (``None`` when all pass): the deal, dealer, contract
    and declarer to replay card play alone on."""
    match = _new_match("coinche", PRESET, seed)
    bots = [_factory("coinche", "easy")() for _ in range(4)]
    rng = random.Random(seed * 7919 + 17)
    while match.view(match.to_act_index)["phase"] == "AUCTION" and not match.results:
        step(match, bots[match.to_act_index], rng)  # type: ignore[index]
    if match.results:
        return None
    view = match.view(0)
    c = view["contract"]
    played: Any = match
    deal = played.deal
    return {
        "options": dict(view["options"]),
        "deal": {name: [str(x) for x in deal.hands[i]] for i, name in enumerate(view["seats"])},
        "dealer": view["dealer"],
        "contract": str(c["bid"]) + "X" * int(c.get("level") or 0),
        "declarer": str(c["seat"]),
    }


def pair(a: str, b: str, seed: int, fixed: bool = False) -> dict[str, Any] | None:
    """One duplicate deal: A's gains and each bot's loss (mean of the two
    tables); with ``fixed``, card play alone on :func:`fixed_contract`."""
    results: list[dict[str, Any]] = []
    lost_a = lost_b = 0.0
    make_a, make_b = _factory("coinche", a), _factory("coinche", b)
    setup = fixed_contract(seed) if fixed else None
    if fixed and setup is None:
        return None
    for table in (0, 1):
        match = trumps.new_game("coinche", **setup) if setup else _new_match("coinche", PRESET, seed)
        teams = [list(t) for t in match.teams]
        bot_a, bot_b = make_a(), make_b()
        bots = [bot_a if s in teams[table] else bot_b for s in range(match.players)]
        result, lost = play_table(match, bots, random.Random(seed * 7919 + 17))
        results.append(result)
        lost_a += lost[table] / 2
        lost_b += lost[1 - table] / 2
    gains = _gains("coinche", results)
    return {"seed": seed, **gains, "lost_a": lost_a, "lost_b": lost_b}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--levels", default="easy,normal,strong")
    p.add_argument("--against", default="colver:smart_ismcts")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--pairs",
        type=int,
        default=None,
        help="stop each pairing after this many deal pairs played (with --fixed, seeds where all "
        "four pass are skipped, so --deals alone plays fewer pairs than seeds)",
    )
    p.add_argument("--every", type=int, default=10, help="deal pairs between progress lines")
    p.add_argument(
        "--fixed",
        action="store_true",
        help="card play only, on the contract trumps' easy bidder reaches at all four seats",
    )
    p.add_argument("--json", default=None, help="write every deal pair to this file")
    p.add_argument(
        "--pool",
        nargs="+",
        metavar="JSON",
        help="play nothing: pool the deal pairs of --json files (runs on other seeds, e.g. one per "
        "core) and print each pairing's figures over all of them",
    )
    args = p.parse_args(argv)
    if args.pool:
        return pool(args.pool)
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    out: dict[str, list[dict[str, Any]]] = {}
    for level in [x.strip() for x in args.levels.split(",") if x.strip()]:
        rows: list[dict[str, Any]] = []
        out[f"{level} vs {args.against}" + (" (fixed contracts)" if args.fixed else "")] = rows
        start = time.perf_counter()
        for i in range(args.deals):
            row = pair(level, args.against, args.seed + i, args.fixed)
            if row is None:  # all passed: no contract to play
                continue
            rows.append(row)
            done = args.pairs is not None and len(rows) >= args.pairs
            if len(rows) % args.every == 0 or i + 1 == args.deals or done:
                print(
                    _line(level, args.against, rows, time.perf_counter() - start), file=sys.stderr, flush=True
                )
                if args.json:
                    with open(args.json, "w") as fh:
                        json.dump(out, fh)
            if done:
                break
        print(_line(level, args.against, rows, time.perf_counter() - start))
    return 0


def pool(paths: list[str]) -> int:
    """The figures of several runs' deal pairs taken as one sample (a seed
    played twice counts once)."""
    rows: dict[str, dict[int, dict[str, Any]]] = {}
    for path in paths:
        with open(path) as fh:
            for key, pairs in json.load(fh).items():
                for r in pairs:
                    rows.setdefault(key, {})[int(r["seed"])] = r
    for key, by_seed in rows.items():
        a, b = key.split(" vs ", 1)
        seeds = sorted(by_seed)
        print(f"# {key}: seeds {seeds[0]}-{seeds[-1]} ({len(seeds)} pairs from {len(paths)} files)")
        print(_line(a, b, [by_seed[s] for s in seeds], 0.0))
    return 0


def _line(a: str, b: str, rows: list[dict[str, Any]], seconds: float) -> str:
    if not rows:
        return f"{a} vs {b}: no deal pairs"
    parts = [f"{a} vs {b}, {len(rows)} deal pairs ({seconds:.0f} s):"]
    for key, label in (
        ("deal_score", "A-B deal score"),
        ("card_points", "A-B card points"),
        ("lost_a", f"{a} lost to DD"),
        ("lost_b", f"{b} lost to DD"),
    ):
        parts.append(f"{label} {interval([r[key] for r in rows]).format(1)}")
    return "  ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
