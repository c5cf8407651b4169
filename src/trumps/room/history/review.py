"""The post-game analysis of one deal: every card played with its
double-dummy cost, computed in a worker process with a time limit
(:func:`run_review`, :func:`review_worker`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import trumps
from trumps.core.errors import TrumpsError
from trumps.core.protocol import Deal, Match

if TYPE_CHECKING:
    pass

__all__ = [
    "REVIEW_CACHE",
    "REVIEW_COMMAND",
    "REVIEW_SECONDS",
    "REVIEW_WORKERS",
    "Review",
    "ReviewCard",
    "ReviewFailed",
    "ReviewJob",
    "ReviewRun",
    "ReviewSummary",
    "review_deal",
    "review_summary",
    "review_worker",
    "run_review",
]

REVIEW_SECONDS = 20.0  # wall-clock limit of one deal's analysis (its worker is then stopped)
REVIEW_WORKERS = 1  # analyses running at once (each a process busy on one core)
REVIEW_CACHE = 512  # deal analyses kept (finished games never change)
# the analysis worker: reads a job (JSON) on stdin, writes JSON lines (see review_worker)
REVIEW_COMMAND = [
    sys.executable,
    "-c",
    "from trumps.room.history.review import review_worker; review_worker()",
]


class ReviewCard(TypedDict):
    """One card of a deal's analysis (a row of :func:`review_deal`)."""

    index: int
    deal: int
    seat: str
    by: str
    card: str
    cost: float | None
    value: float | None
    best: list[str]
    unit: str | None
    analysed: bool


class ReviewJob(TypedDict):
    """What the analysis worker is given (as JSON on its stdin)."""

    game: str
    options: Mapping[str, object]
    seed: int | None
    deal: int
    actions: list[tuple[int, str]]


class ReviewRun(TypedDict):
    """What :func:`run_review` returns."""

    cards: list[ReviewCard]
    complete: bool
    seconds: float


class ReviewSummary(TypedDict):
    """The unit of a deal's analysis and each seat's totals."""

    unit: str | None
    totals: dict[str, dict[str, float]]


class Review(TypedDict):
    """The analysis of one deal, as the review API sends it."""

    table: str
    deal: int
    deals: int
    unit: str | None
    totals: dict[str, dict[str, float]]
    complete: bool
    cards: list[ReviewCard]
    seconds: float
    limit: float


# ----- post-game analysis (pure; run in a worker process) ------------------------------


class ReviewFailed(TrumpsError):
    """The analysis of a deal could not be made (the solver failed)."""


@dataclass
class _Played:
    """A card played in trick play, with the position it was played from."""

    index: int  # the action's position in the stored actions
    match: Match[Deal]  # the game just before the card (a clone)
    card: str
    legal: list[str]
    hand: str  # the hand the card came from
    by: str  # the seat that chose it (a declarer for its dummy)


def _deal_plays(
    game: str, options: Mapping[str, object], seed: int | None, actions: Sequence[tuple[int, str]], deal: int
) -> list[_Played]:
    """The cards played to tricks in deal ``deal`` (1-based) of a stored game,
    each with a copy of the game just before it."""
    from trumps.bots.levels import card_actions

    match = trumps.new_game(game, options=options, seed=seed)
    out: list[_Played] = []
    for i, (seat, action) in enumerate(actions):
        number = match.deal_number + 1
        if number > deal or match.is_over:
            break
        to_act = match.to_act_index
        if number == deal and to_act is not None and match.phase == "PLAY" and card_actions([action]):
            legal = [str(a) for a in match.legal_actions()]
            if action in legal:
                hand = match.seat_name(int(getattr(match.deal, "hand_to_play", to_act)))
                out.append(_Played(i, match.clone(), action, legal, hand, match.seat_name(to_act)))
        match.apply(action, seat)
    return out


def review_deal(
    game: str, options: Mapping[str, object], seed: int | None, actions: Sequence[tuple[int, str]], deal: int
) -> Iterator[dict[str, object]]:
    """The post-game analysis of one deal, card by card.

    First ``{"plays": [[index, card, hand, by], ...]}``: every card played to
    a trick in the deal (``index`` its position in ``actions``, ``hand`` the
    hand it came from, ``by`` the seat that chose it).  Then one
    ``{"row": ...}`` per card, **last card first** (the late positions are
    quick to solve; the first tricks of a big deal may take minutes, so a
    caller with a time limit keeps the rest of the deal).  A row is
    :func:`trumps.bots.suggest.review`'s (``index``, ``deal``, ``seat`` =
    the hand, ``card``, ``cost``, ``value``, ``best``, ``unit``) plus
    ``by`` and ``analysed``.  A forced card (the only legal one) costs 0
    with ``value`` ``None``; a position no installed solver can take is not
    ``analysed`` (``cost`` ``None``).  Other solver errors raise."""
    from trumps.bots.levels import card_actions
    from trumps.bots.solving import SolveError, solve_values

    plays = _deal_plays(game, options, seed, actions, deal)
    yield {"plays": [[p.index, p.card, p.hand, p.by] for p in plays]}
    for p in reversed(plays):
        row: ReviewCard = {
            "index": p.index, "deal": deal, "seat": p.hand, "by": p.by, "card": p.card,
            "cost": 0, "value": None, "best": [p.card], "unit": None, "analysed": True,
        }  # fmt: skip
        if len(card_actions(p.legal)) > 1:
            try:
                vals = solve_values(p.match)
            except SolveError:  # no solver for this position (only without any solver installed)
                row["cost"], row["best"], row["analysed"] = None, [], False
                yield {"row": row}
                continue
            value = vals.values.get(p.card)
            if value is None:
                raise ReviewFailed(f"the solver gave no value for {p.card} (it gave {sorted(vals.values)})")
            top = max(vals.values.values()) if vals.maximising else min(vals.values.values())
            row["cost"] = (top - value) if vals.maximising else (value - top)
            row["value"] = value
            row["best"] = [a for a, x in vals.values.items() if x == top]
            row["unit"] = vals.unit
        yield {"row": row}


def review_worker() -> None:
    """The analysis worker's main (``REVIEW_COMMAND``): a job ``{"game",
    "options", "seed", "actions": [[seat, action], ...], "deal"}`` on stdin,
    :func:`review_deal`'s items on stdout as JSON lines, then ``{"done":
    true}``, or ``{"error": "..."}`` and exit status 1."""
    try:
        job = json.loads(sys.stdin.read())
        actions = [(int(seat), str(action)) for seat, action in job["actions"]]
        for item in review_deal(job["game"], job["options"], job["seed"], actions, int(job["deal"])):
            print(json.dumps(item, separators=(",", ":")), flush=True)
    except Exception as exc:
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
        sys.exit(1)
    print(json.dumps({"done": True}), flush=True)


def _worker_env() -> dict[str, str]:
    """The environment of a worker: this process's, with this ``trumps`` importable."""
    root = str(Path(trumps.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


async def run_review(job: ReviewJob, limit: float) -> ReviewRun:
    """Run one deal's analysis in a worker process for at most ``limit``
    seconds (then the worker is killed, and the cards not analysed yet are
    left so: the first ones of the deal, as the worker goes backwards).

    Returns ``{"cards": [...] in play order, "complete", "seconds"}``: every
    card played in the deal, ``analysed`` or not.  Raises
    :class:`ReviewFailed` when the worker reports an error or dies."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    proc = await asyncio.create_subprocess_exec(
        *REVIEW_COMMAND,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=_worker_env(),
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    stderr = asyncio.ensure_future(proc.stderr.read())
    plays: list[tuple[int, str, str, str]] | None = None
    rows: dict[int, ReviewCard] = {}
    error: str | None = None
    done = timed_out = False
    try:
        proc.stdin.write(json.dumps(job).encode())
        await proc.stdin.drain()
        proc.stdin.close()
        while not done and error is None:
            left = start + limit - loop.time()
            try:
                if left <= 0:
                    raise TimeoutError
                line = await asyncio.wait_for(proc.stdout.readline(), left)
            except TimeoutError:
                timed_out = True
                break
            if not line:
                break  # the worker ended
            item = json.loads(line)
            if "plays" in item:
                plays = [(int(i), str(c), str(h), str(b)) for i, c, h, b in item["plays"]]
            elif "row" in item:
                rows[int(item["row"]["index"])] = item["row"]
            elif "error" in item:
                error = str(item["error"])
            elif item.get("done"):
                done = True
    except (OSError, ValueError) as exc:  # a broken pipe, a garbled line
        error = f"the analysis worker failed: {exc}"
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        await proc.wait()
        err = (await stderr).decode(errors="replace").strip()
    seconds = round(loop.time() - start, 3)
    if error is None and not done and not timed_out:  # it died by itself, unfinished
        error = f"the analysis worker stopped (exit status {proc.returncode}): {err[-300:] or 'no message'}"
    if error is not None:
        raise ReviewFailed(error)
    if plays is None:  # stopped before it listed the cards: list them here
        found = await asyncio.to_thread(
            _deal_plays, job["game"], job["options"], job["seed"], job["actions"], job["deal"]
        )
        plays = [(f.index, f.card, f.hand, f.by) for f in found]
    cards: list[ReviewCard] = []
    for index, card, hand, by in plays:
        row = rows.get(index)
        if row is None:  # not reached within the time limit
            row = {
                "index": index, "deal": job["deal"], "seat": hand, "by": by, "card": card,
                "cost": None, "value": None, "best": [], "unit": None, "analysed": False,
            }  # fmt: skip
        cards.append(row)
    return {"cards": cards, "complete": done, "seconds": seconds}


def review_summary(cards: list[ReviewCard], seats: list[str]) -> ReviewSummary:
    """The unit of a deal's analysis and each seat's totals: cards
    analysed, costly ones, and their summed cost (by the seat that chose)."""
    unit = next((c["unit"] for c in cards if c["unit"] is not None), None)
    totals: dict[str, dict[str, float]] = {seat: {"cards": 0, "mistakes": 0, "cost": 0} for seat in seats}
    for c in cards:
        if c["unit"] is None and c["analysed"]:
            c["unit"] = unit  # a forced card: the deal's unit
        if c["analysed"] and c["by"] in totals:
            t = totals[c["by"]]
            t["cards"] += 1
            if c["cost"]:
                t["mistakes"] += 1
                t["cost"] += c["cost"]
    return {"unit": unit, "totals": totals}
