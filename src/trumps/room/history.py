"""Finished games: replay pages, JSON/PBN export, a player's own game list.

Routes (mounted by :func:`trumps.room.web.app.create_app`):

* ``GET /replay/{tid}`` and ``GET /games``: the pages (static HTML + JS);
* ``GET /api/tables/{tid}/replay``: every step of a finished game (each call
  and card with the state after it, all hands shown) and its score sheet;
* ``GET /api/tables/{tid}/record``: the project's JSON record
  (:meth:`Match.to_json`), as a download; ``?format=pbn`` gives it as PBN
  2.1 for a game that has a PBN format;
* ``GET /api/tables/{tid}/review?deal=N``: the post-game analysis of deal
  ``N``: every card played with its double-dummy cost (see
  :func:`review_deal`), computed in a worker process with a time limit;
* ``GET /api/me/games``: the caller's own tables (seated or hosted).

Hidden information: the replay and the exports show every hand, so they are
only ever made for a game whose table is *finished*.  A table still waiting
or being played gets ``409`` and nothing of its state, whoever asks (the
host and the seated players included: a player must not see the others'
cards through the export).  A finished table that was private (or admitted
no spectators) is replayed only by its host, players and invited players
(``403`` for anyone else).  A finished table is immutable, so what is built
for it (the rebuilt match, the replay JSON) is cached.

Finished tables are not kept live after a restart: everything here reads
them from storage, and rebuilds the game by replaying the stored actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import os
import re
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TypedDict, TypeVar

from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

import trumps
from trumps.core.errors import TrumpsError
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Deal, Match
from trumps.core.seats import seat_name
from trumps.i18n import N_
from trumps.room.history_store import PlayerGame, player_games, table_exists
from trumps.room.store import StoredTable
from trumps.room.validate import parse_int

if TYPE_CHECKING:
    from trumps.room.room import Room

__all__ = [
    "NotFinished",
    "ReviewFailed",
    "build_replay",
    "may_replay",
    "pbn_export",
    "rebuild",
    "review_deal",
    "routes",
]

Identity = Callable[[HTTPConnection], Awaitable[tuple[str | None, str]]]

STATIC = Path(__file__).parent / "static"
CACHE_SIZE = 64  # finished tables kept built (match + replay JSON)
GAMES_LIMIT = 200  # most tables listed in a player's game list
# phases in which an action naming a card of the hand to play is a card played (or discarded)
CARD_PHASES = frozenset({"PLAY", "KITTY"})
# the spectator-view keys a replay step leaves out: constant for the game (given once
# at the top), the legal list (nobody acts in a replay), and the trick history, which
# would make every step carry the whole deal (the last trick is kept instead)
_DROPPED = ("game", "seat", "players", "seats", "teams", "options", "legal", "results", "tricks")
REVIEW_SECONDS = 20.0  # wall-clock limit of one deal's analysis (its worker is then stopped)
REVIEW_WORKERS = 1  # analyses running at once (each a process busy on one core)
REVIEW_CACHE = 512  # deal analyses kept (finished games never change)
# the analysis worker: reads a job (JSON) on stdin, writes JSON lines (see review_worker)
REVIEW_COMMAND = [sys.executable, "-c", "from trumps.room.history import review_worker; review_worker()"]
STILL_PLAYING = N_("the game is still being played: its replay and records are available once it is finished")
NOT_STARTED = N_("the game has not started: there is nothing to replay yet")
CLOSED_UNPLAYED = N_("this table was closed before its game began: nobody came for 5 minutes")
CLOSED = N_("this table was private (or closed to spectators): only its players may replay it")


class Occupant(TypedDict):
    """Who played a seat of a stored table."""

    seat: str
    name: str | None
    bot: str | None


class ReplayStep(TypedDict):
    """One step of a replay: a deal as dealt, or one action with the state after it."""

    index: int
    kind: str  # "deal", "call" or "card"
    deal: int
    action_index: int | None
    seat: str | None
    action: str | None
    card: str | None
    hand: str | None
    phase: str | None
    auto: bool
    time: float | None
    state: JSONDict


class Outcome(TypedDict):
    """The scores of a game and who won (a team's index), for the game list."""

    scores: list[int]
    winner: int | None
    teams: list[list[str]]


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


_Key = TypeVar("_Key", bound=Hashable)
_Value = TypeVar("_Value")


class NotFinished(Exception):
    """The table exists but its game is not over: nothing may be shown."""

    def __init__(self, status: str) -> None:
        super().__init__(
            NOT_STARTED if status == "waiting" else CLOSED_UNPLAYED if status == "closed" else STILL_PLAYING
        )
        self.status = status


# ----- building (pure: no I/O, safe in a worker thread) ---------------------------------


def rebuild(stored: StoredTable) -> Match[Deal]:
    """The table's match, rebuilt by replaying its stored actions (the game
    state itself is never stored)."""
    match = trumps.new_game(stored.game, options=stored.options, seed=stored.seed)
    for seat, action, at, _auto in stored.actions:
        match.apply(action, seat, time=at)
    return match


def _occupants(stored: StoredTable, names: dict[str, str], players: int) -> list[Occupant]:
    """Who played each seat: a name, or the bot's kind."""
    out: list[Occupant] = []
    for seat in range(players):
        player, bot = stored.seats.get(seat, (None, None))
        out.append({"seat": seat_name(seat, players), "name": names.get(player or ""), "bot": bot})
    return out


def _full_state(match: Match[Deal]) -> JSONDict:
    """The state of a finished game's ``match`` with every hand shown.

    Made from the engine's own views only (the spectator's view plus each
    seat's view of its own hand, kitty and discards), so the replay shows
    exactly what the table showed, with nothing hidden."""
    state: JSONDict = match.view(None)
    hands = state["hands"]
    for seat in range(match.players):
        own: JSONDict = match.view(seat)
        name = match.seat_name(seat)
        own_hands = own["hands"]
        if isinstance(hands, dict) and isinstance(own_hands, Mapping):
            hands[name] = own_hands[name]
        for key in ("discards", "kitty"):
            if key in own:
                state[key] = own[key]
    tricks = state.get("tricks") or []
    results = state.get("results") or []
    if isinstance(tricks, Sequence):
        state["last_trick"] = tricks[-1] if tricks else None
        state["trick_count"] = len(tricks)
    if isinstance(results, Sequence):
        state["results_count"] = len(results)
    for key in _DROPPED:
        state.pop(key, None)
    return state


def _at_deal_end(match: Match[Deal], deal: Deal, number: int) -> Match[Deal]:
    """A read-only stand-in for ``match`` showing ``deal`` as it ended.

    When a deal's last action is applied the engine scores it and starts
    the next deal at once, so the match no longer shows the last trick; the
    replay wants that moment too.  The stand-in shares everything with the
    match (scores and results already include the deal) except the deal
    shown.  It is only read (``view``), never applied to."""
    if match.deal is deal:
        return match  # the game is over: the engine keeps the last deal
    ghost = object.__new__(type(match))
    ghost.__dict__.update(match.__dict__)
    ghost.deal = deal
    ghost.deal_number = number
    return ghost


def _bare_card(action: str) -> str:
    """The card an action names (a joker lead ``RJ:C``, ``KH+belote``)."""
    return re.split(r"[:+]", action, maxsplit=1)[0]


def _seat_last_trick(state: JSONDict, plays: list[tuple[str, str]]) -> None:
    """Name who played each card of the last finished trick (the view gives
    only its leader and winner): the plays before the current trick's."""
    last = state.get("last_trick")
    trick = state.get("trick") or []
    if not last or not isinstance(last, dict) or not isinstance(trick, Sequence):
        return
    cards = last["cards"]
    if not isinstance(cards, Sequence):
        return
    end = len(plays) - len(trick)
    mine = plays[end - len(cards) : end]
    if [c for _, c in mine] == [_bare_card(str(c)) for c in cards]:
        last["seats"] = [h for h, _ in mine]


def build_replay(stored: StoredTable, names: dict[str, str]) -> dict[str, object]:
    """Everything the replay page shows of a finished game.

    ``steps`` is what the page steps through: for each deal a ``deal`` step
    (the cards as dealt, before anyone acts), then one step per stored
    action (``call`` or ``card``) with the state after it; the last action
    of a deal shows that deal as it ended (last trick, its result in the
    score sheet).  ``deals`` holds every deal as dealt (all hands, the 500
    kitty) with its result and the range of its steps; ``sheet`` is the
    score sheet."""
    match = trumps.new_game(stored.game, options=stored.options, seed=stored.seed)
    players = match.players
    steps: list[ReplayStep] = []

    def deal_step() -> None:
        steps.append(
            {
                "index": len(steps), "kind": "deal", "deal": len(match.deal_records), "action_index": None,
                "seat": None, "action": None, "card": None, "hand": None, "phase": None, "auto": False,
                "time": None,
                "state": _full_state(match),
            }
        )  # fmt: skip

    plays: list[tuple[str, str]] = []  # (hand, card) of each card played to a trick this deal
    deal_step()
    for i, (seat, action, at, auto) in enumerate(stored.actions):
        deal, number = match.deal, match.deal_number
        before = steps[-1]["state"]
        phase = match.phase
        bare = _bare_card(action)
        to_play, hands = before.get("hand_to_play"), before["hands"]
        hand_name = to_play if isinstance(to_play, str) else None
        held = (hands.get(hand_name or "") if isinstance(hands, Mapping) else None) or []
        is_card = phase in CARD_PHASES and isinstance(held, Sequence) and bare in held
        if is_card and phase == "PLAY" and hand_name is not None:
            plays.append((hand_name, bare))
        match.apply(action, seat, time=at)
        ended = match.deal is not deal or match.is_over
        state = _full_state(_at_deal_end(match, deal, number) if ended else match)
        _seat_last_trick(state, plays)
        steps.append(
            {
                "index": len(steps), "kind": "card" if is_card else "call", "deal": number + 1,
                "action_index": i + 1, "seat": match.seat_name(seat), "action": action,
                "card": bare if is_card else None, "hand": hand_name if is_card else None,
                "phase": phase, "auto": auto, "time": at, "state": state,
            }
        )  # fmt: skip
        if match.deal is not deal and not match.is_over:
            plays = []
            deal_step()
    if not match.is_over:
        raise TrumpsError("the stored actions do not finish the game")
    deals: list[dict[str, object]] = []
    for n, dealt in enumerate(match.deal_records, start=1):
        mine = [s["index"] for s in steps if s["deal"] == n]
        deals.append(
            {
                "number": n,
                **dict(dealt),
                "result": match.results[n - 1] if n - 1 < len(match.results) else None,
                "first_step": mine[0],
                "last_step": mine[-1],
            }
        )
    teams = [[match.seat_name(s) for s in team] for team in match.teams]
    return {
        "id": stored.id,
        "game": stored.game,
        "game_title": match.schema.title or stored.game,
        "preset": stored.preset,
        "options": match.options.to_dict(),
        "created": stored.created,
        "finished": stored.actions[-1][2] if stored.actions else None,
        "players": _occupants(stored, names, players),
        "seats": [match.seat_name(s) for s in range(players)],
        "teams": teams,
        # the game's labels and names of its calls ("Pass", not "P"), which the
        # page shows in the reader's language, as the table does
        "presentation": match.presentation(),
        "deals": deals,
        "steps": steps,
        "sheet": {
            "teams": teams,
            "results": [dict(r) for r in match.results],
            "scores": list(match.scores),
            "winner": match.winner,
        },
        "exports": _exports(stored.id, stored.game),
    }


def may_replay(stored: StoredTable, player: str | None) -> bool:
    """May ``player`` replay (and export) this finished table?

    A table anyone could watch may be replayed by anyone with its link.  A
    private table, or one that admitted no spectators, is replayed only by
    the people who were there: its host, its seated players, its invited
    players."""
    settings = getattr(stored, "settings", None) or {}
    if not settings.get("private") and settings.get("watching", True):
        return True
    if player is None:
        return False
    access = getattr(stored, "access", None) or {}
    seated = {p for p, _bot in stored.seats.values() if p is not None}
    return player == stored.host or player in seated or player in access.get("invited", ())


def _pbn_module(game: str) -> ModuleType | None:
    """The game's PBN module (with ``records_from_game`` and ``write_pbn``),
    or ``None``: the one its spec names (``pbn``), as the CLI finds a game's
    ``cli`` module: the room knows games only through the registry."""
    spec = trumps.game_spec(game)
    if not spec.has("pbn"):
        return None
    module: ModuleType = spec.load("pbn")
    if not (hasattr(module, "records_from_game") and hasattr(module, "write_pbn")):
        return None
    return module


def _exports(tid: str, game: str) -> dict[str, str | None]:
    return {
        "json": f"/api/tables/{tid}/record",
        "pbn": f"/api/tables/{tid}/record?format=pbn" if _pbn_module(game) is not None else None,
    }


def pbn_export(match: Match[Deal], stored: StoredTable, names: dict[str, str]) -> str:
    """The PBN 2.1 text of a game that has a PBN format: every deal with its
    auction, play and result (the game's own PBN writer), plus the event,
    the date and the players' names."""
    pbn = _pbn_module(stored.game)
    if pbn is None:
        raise TrumpsError(f"{stored.game} games have no PBN format")
    records_from_game, write_pbn = pbn.records_from_game, pbn.write_pbn
    occupants = _occupants(stored, names, 4)
    who = [o["name"] or (f"bot ({o['bot']})" if o["bot"] else "?") for o in occupants]
    date = time.strftime("%Y.%m.%d", time.gmtime(stored.created))
    records = records_from_game(match)
    for rec in records:
        rec.tags.update(
            Event=f"trumps table {stored.id}", Site="trumps card room", Date=date,
            North=who[0], East=who[1], South=who[2], West=who[3],
        )  # fmt: skip
    text: str = write_pbn(records)
    return text


def _outcome(match: Match[Deal]) -> Outcome:
    return {
        "scores": list(match.scores),
        "winner": match.winner,
        "teams": [[match.seat_name(s) for s in team] for team in match.teams],
    }


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


def _review_summary(cards: list[ReviewCard], seats: list[str]) -> ReviewSummary:
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


# ----- the routes ---------------------------------------------------------------------


@dataclass
class _Finished:
    """A finished table, built once (finished tables never change)."""

    stored: StoredTable
    names: dict[str, str]
    match: Match[Deal]
    replay_gz: bytes | None = None  # the replay JSON, gzipped (a tenth of its size)


def _replay_bytes(entry: _Finished) -> bytes:
    """The replay JSON of a finished table, gzipped: it is kept for every
    cached table, and a long game's replay is a few hundred kilobytes."""
    data = build_replay(entry.stored, entry.names)
    return gzip.compress(json.dumps(data, separators=(",", ":")).encode(), compresslevel=6)


def _error(reason: str, status: int) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def routes(
    room: Callable[[], Room],
    identity: Identity,
    said: Callable[[Request, str, int], Awaitable[Response]],
) -> list[BaseRoute]:
    """The history routes, given the live room and the cookie identity;
    ``said`` makes the page of a message (a replay that does not exist)."""
    cache: OrderedDict[str, _Finished] = OrderedDict()
    outcomes: OrderedDict[str, Outcome] = OrderedDict()
    reviews: OrderedDict[tuple[str, int], Review] = OrderedDict()
    reviewing: dict[tuple[str, int], asyncio.Future[Review]] = {}
    workers: list[asyncio.Semaphore] = []  # made on first use, in the server's loop

    def remember(store: OrderedDict[_Key, _Value], key: _Key, value: _Value, size: int) -> None:
        store[key] = value
        store.move_to_end(key)
        while len(store) > size:
            store.popitem(last=False)

    async def exists(tid: str) -> bool:
        if tid in room().tables:
            return True
        return await room().store.run(table_exists, room().store, tid)

    async def load(tid: str) -> _Finished | None:
        """The finished table ``tid`` built from storage, ``None`` if there is
        no such table; raises :class:`NotFinished` if its game is not over."""
        live = room().tables.get(tid)
        if live is not None and live.status != "finished":
            raise NotFinished(live.status)  # known without touching the database
        store = room().store
        stored = await store.run(store.load_table, tid)
        if stored is None:
            return None
        if stored.status != "finished":
            raise NotFinished(stored.status)
        names: dict[str, str] = {}
        for player, _bot in stored.seats.values():
            if player is not None:
                names[player] = await room().player_name(player) or "?"
        match = await asyncio.to_thread(rebuild, stored)
        remember(outcomes, tid, _outcome(match), CACHE_SIZE * 16)
        return _Finished(stored, names, match)

    async def finished(tid: str) -> _Finished | None:
        """:func:`load`, through the cache of finished tables."""
        hit = cache.get(tid)
        if hit is not None:
            cache.move_to_end(tid)
            return hit
        entry = await load(tid)
        if entry is not None:
            remember(cache, tid, entry, CACHE_SIZE)
        return entry

    async def lookup(request: Request) -> _Finished | Response:
        """The finished table of the request, or the error response."""
        tid = request.path_params["tid"]
        try:
            entry = await finished(tid)
        except NotFinished as exc:
            return _error(str(exc), 409)
        except TrumpsError as exc:
            return _error(f"table {tid!r} could not be rebuilt from its stored actions: {exc}", 500)
        if entry is None:
            return _error(f"no table {tid!r}", 404)
        if not may_replay(entry.stored, (await identity(request))[0]):
            return _error(CLOSED, 403)
        return entry

    # ----- pages -----------------------------------------------------------------
    async def replay_page(request: Request) -> Response:
        # the page holds no game data: it loads the replay through the API,
        # which refuses unfinished games (the page then says so)
        if not await exists(request.path_params["tid"]):
            return await said(request, N_("No such table"), 404)
        return FileResponse(STATIC / "replay.html")

    async def games_page(_request: Request) -> Response:
        return FileResponse(STATIC / "games.html")

    # ----- API -------------------------------------------------------------------------
    async def api_replay(request: Request) -> Response:
        entry = await lookup(request)
        if isinstance(entry, Response):
            return entry
        if entry.replay_gz is None:
            entry.replay_gz = await asyncio.to_thread(_replay_bytes, entry)
        headers = {"Vary": "Accept-Encoding", "Cache-Control": "private, max-age=3600"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(entry.replay_gz, media_type="application/json", headers=headers)
        body = await asyncio.to_thread(gzip.decompress, entry.replay_gz)  # rare: browsers take gzip
        return Response(body, media_type="application/json", headers=headers)

    async def api_record(request: Request) -> Response:
        fmt = request.query_params.get("format", "json")
        if fmt not in ("json", "pbn"):
            return _error(f"unknown format {fmt!r} (json or pbn)", 400)
        entry = await lookup(request)
        if isinstance(entry, Response):
            return entry
        st = entry.stored
        stem = f"trumps-{st.game}-{st.id}"
        if fmt == "pbn":
            if _pbn_module(st.game) is None:
                return _error(f"{st.game} games have no PBN export (only JSON)", 400)
            text = pbn_export(entry.match, st, entry.names)
            return Response(
                text.encode(),
                media_type="application/vnd.pbn; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="{stem}.pbn"'},
            )
        return JSONResponse(
            entry.match.to_json(), headers={"Content-Disposition": f'attachment; filename="{stem}.json"'}
        )

    async def analyse(entry: _Finished, deal: int) -> Review:
        """Deal ``deal``'s analysis, made once (in a worker process, at most
        :data:`REVIEW_WORKERS` at a time) and kept."""
        key = (entry.stored.id, deal)
        if not workers:
            workers.append(asyncio.Semaphore(REVIEW_WORKERS))
        async with workers[0]:
            hit = reviews.get(key)
            if hit is not None:
                return hit
            st, match = entry.stored, entry.match
            job: ReviewJob = {
                "game": st.game, "options": st.options, "seed": st.seed, "deal": deal,
                "actions": [(seat, action) for seat, action, _at, _auto in st.actions],
            }  # fmt: skip
            ran = await run_review(job, REVIEW_SECONDS)
        seats = [match.seat_name(s) for s in range(match.players)]
        summary = _review_summary(ran["cards"], seats)
        result: Review = {
            "table": st.id,
            "deal": deal,
            "deals": len(match.deal_records),
            "unit": summary["unit"],
            "totals": summary["totals"],
            "complete": ran["complete"],
            "cards": ran["cards"],
            "seconds": ran["seconds"],
            "limit": REVIEW_SECONDS,
        }
        remember(reviews, key, result, REVIEW_CACHE)
        return result

    async def api_review(request: Request) -> Response:
        entry = await lookup(request)
        if isinstance(entry, Response):
            return entry
        count = len(entry.match.deal_records)
        deal = parse_int(request.query_params.get("deal"), 1, count)
        if deal is None:
            return _error(f"give the deal to analyse: ?deal=N with N from 1 to {count}", 400)
        key = (entry.stored.id, deal)
        result = reviews.get(key)
        if result is None:
            task = reviewing.get(key)
            if task is None:  # one analysis per deal, whoever asks meanwhile
                task = asyncio.ensure_future(analyse(entry, deal))
                reviewing[key] = task
                task.add_done_callback(lambda _t: reviewing.pop(key, None))
            try:
                result = await asyncio.shield(task)
            except ReviewFailed as exc:
                return _error(f"the double-dummy analysis of deal {deal} failed: {exc}", 503)
        reviews.move_to_end(key)
        return JSONResponse(result, headers={"Cache-Control": "private, max-age=3600"})

    async def api_my_games(request: Request) -> Response:
        pid, name = await identity(request)
        if pid is None:
            return _error("choose a name first", 401)
        store = room().store
        rows = await store.run(player_games, store, pid, GAMES_LIMIT)
        out = []
        for row in rows:
            out.append(await describe(row, pid))
        return JSONResponse({"player": pid, "name": name, "games": out})

    async def describe(row: PlayerGame, pid: str) -> dict[str, object]:
        """One entry of a game list: public facts only (seats, status,
        scores), never a card, whatever the table's status."""
        players = len(row.seats)
        seats = [{"seat": seat_name(s.seat, players), "name": s.name, "bot": s.bot} for s in row.seats]
        mine = next((seat_name(s.seat, players) for s in row.seats if s.player == pid), None)
        outcome: Outcome | None = None
        status = row.status
        live = room().tables.get(row.id)
        if live is not None and live.status != "finished":
            status = live.status
            outcome = _outcome(live.match)
            outcome["winner"] = None
        elif status == "finished":
            outcome = outcomes.get(row.id)
            if outcome is None:  # built once, without filling the cache of whole tables
                with contextlib.suppress(NotFinished, TrumpsError):
                    await load(row.id)
                outcome = outcomes.get(row.id)
        result = None
        if status == "finished" and outcome is not None and mine is not None:
            win = outcome["winner"]
            result = "drawn" if win is None else "won" if mine in outcome["teams"][win] else "lost"
        over = status == "finished"
        return {
            "id": row.id,
            "game": row.game,
            "preset": row.preset,
            "options": row.options,
            "status": status,
            "created": row.created,
            "finished": row.last_action if over else None,
            "actions": row.actions,
            "host": row.host == pid,
            "seat": mine,
            "seats": seats,
            "scores": None if outcome is None else outcome["scores"],
            "teams": None if outcome is None else outcome["teams"],
            "winner": None if outcome is None or not over else outcome["winner"],
            "result": result,
            "links": {
                "table": None if over else f"/table/{row.id}",
                "replay": f"/replay/{row.id}" if over else None,
                **({"json": None, "pbn": None} if not over else _exports(row.id, row.game)),
            },
        }

    return [
        Route("/replay/{tid:tid}", replay_page),
        Route("/games", games_page),
        Route("/api/tables/{tid:tid}/replay", api_replay),
        Route("/api/tables/{tid:tid}/record", api_record),
        Route("/api/tables/{tid:tid}/review", api_review),
        Route("/api/me/games", api_my_games),
    ]
