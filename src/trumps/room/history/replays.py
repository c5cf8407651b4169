"""Finished games rebuilt from their stored actions: the replay (every call
and card with the state after it, all hands shown), the score sheet, the PBN
export, and who may replay a game.

Pure (no I/O): safe in a worker thread.  Only ever made for a game whose
table is *finished*: the replay and the exports show every hand
(:class:`NotFinished` otherwise).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TypedDict

import trumps
from trumps.core.copying import shallow_copy
from trumps.core.errors import TrumpsError
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Deal, Match
from trumps.core.seats import seat_name
from trumps.i18n import N_
from trumps.room.storage.store import StoredTable

__all__ = [
    "CLOSED",
    "CLOSED_UNPLAYED",
    "NOT_STARTED",
    "STILL_PLAYING",
    "NotFinished",
    "Occupant",
    "Outcome",
    "ReplayStep",
    "build_replay",
    "exports",
    "game_outcome",
    "may_replay",
    "pbn_export",
    "pbn_module",
    "rebuild",
]

# the spectator-view keys a replay step leaves out: constant for the game (given once
# at the top), the legal list (nobody acts in a replay), and the trick history, which
# would make every step carry the whole deal (the last trick is kept instead)
_DROPPED = ("game", "seat", "players", "seats", "teams", "options", "legal", "results", "tricks")
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
    return stored.replayed()


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
    seat's view of its own hand and what else it alone sees, such as the 500
    kitty and discards: ``Match.own_view_keys``), so the replay shows
    exactly what the table showed, with nothing hidden."""
    state: JSONDict = match.view(None)
    hands = state["hands"]
    for seat in range(match.players):
        own: JSONDict = match.view(seat)
        name = match.seat_name(seat)
        own_hands = own["hands"]
        if isinstance(hands, dict) and isinstance(own_hands, Mapping):
            hands[name] = own_hands[name]
        for key in match.own_view_keys:
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
    ghost = shallow_copy(match)  # a compiled match has no __dict__ to copy
    ghost.deal = deal
    ghost.deal_number = number
    return ghost


def _seat_last_trick(match: Match[Deal], state: JSONDict, plays: list[tuple[str, str]]) -> None:
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
    if [c for _, c in mine] == [match.card_text(str(c)) for c in cards]:
        last["seats"] = [h for h, _ in mine]


def build_replay(stored: StoredTable, names: dict[str, str]) -> dict[str, object]:
    """Everything the replay page shows of a finished game.

    ``steps`` is what the page steps through: for each deal a ``deal`` step
    (the cards as dealt, before anyone acts), then one step per stored
    action (``call`` or ``card``) with the state after it; the last action
    of a deal shows that deal as it ended (last trick, its result in the
    score sheet).  ``deals`` holds every deal as dealt (all hands, and
    the kitty of a game that has one) with its result and the range of its steps; ``sheet`` is the
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
        bare = match.card_text(action)
        to_play, hands = before.get("hand_to_play"), before["hands"]
        hand_name = to_play if isinstance(to_play, str) else None
        held = (hands.get(hand_name or "") if isinstance(hands, Mapping) else None) or []
        is_card = phase in match.card_phases and isinstance(held, Sequence) and bare in held
        if is_card and phase == "PLAY" and hand_name is not None:
            plays.append((hand_name, bare))
        match.apply(action, seat, time=at)
        ended = match.deal is not deal or match.is_over
        state = _full_state(_at_deal_end(match, deal, number) if ended else match)
        _seat_last_trick(match, state, plays)
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
        "deals": _deals(match, steps),
        "steps": steps,
        "sheet": {
            "teams": teams,
            "results": [dict(r) for r in match.results],
            "scores": list(match.scores),
            "winner": match.winner,
        },
        "exports": exports(stored.id, stored.game),
    }


def _deals(match: Match[Deal], steps: list[ReplayStep]) -> list[dict[str, object]]:
    """Every deal as dealt (all hands, a kitty), its result, and the
    range of the replay's steps that show it."""
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
    return deals


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


def pbn_module(game: str) -> ModuleType | None:
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


def exports(tid: str, game: str) -> dict[str, str | None]:
    return {
        "json": f"/api/tables/{tid}/record",
        "pbn": f"/api/tables/{tid}/record?format=pbn" if pbn_module(game) is not None else None,
    }


def pbn_export(match: Match[Deal], stored: StoredTable, names: dict[str, str]) -> str:
    """The PBN 2.1 text of a game that has a PBN format: every deal with its
    auction, play and result (the game's own PBN writer), plus the event,
    the date and the players' names."""
    pbn = pbn_module(stored.game)
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


def game_outcome(match: Match[Deal]) -> Outcome:
    return {
        "scores": list(match.scores),
        "winner": match.winner,
        "teams": [[match.seat_name(s) for s in team] for team in match.teams],
    }
