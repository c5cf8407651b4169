"""What a table shows: its summary (the lobby's entry, the head of every
state) and the ``state`` event each connection gets, made from its own seat.

Apart from the actor because this is the wire's side of the table: what
each receiver may see (no cards before the start, the host's extras, the
chat channel of their side less the people they blocked)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trumps.core.protocol import Deal, Match
from trumps.room.tables.messages import PROTOCOL_VERSION
from trumps.room.tables.wire import Connection, TableSummary

if TYPE_CHECKING:
    from trumps.room.tables.table import Table


def summary(table: Table) -> TableSummary:
    """The public description shown in the lobby and at the table."""
    name, away = table.match.seat_name, table.away
    return {
        "id": table.id, "game": table.game, "game_title": table.game_title, "preset": table.preset,
        "options": table.options, "rules_text": table.rules_text, "settings": table.settings.model_dump(),
        "status": table.status, "host": table.host,
        "seats": [
            {"seat": name(i), "name": s.name, "bot": s.bot, "empty": s.empty, "away": away.marked(i),
             "idle": i in away.idle, "timeouts": away.timeouts[i]}
            for i, s in enumerate(table.seats)
        ],
        "free": sum(1 for s in table.seats if s.empty), "spectators": len(table.spectators()),
        "scores": table.match.scores, "created": table.created, "started": table.started, "rematch": table.rematch,
    }  # fmt: skip


def state_event(
    table: Table,
    conn: Connection,
    match: Match[Deal] | None = None,
    *,
    summary: TableSummary | None = None,
    views: dict[int | None, dict[str, Any]] | None = None,
    chat: bool = True,
) -> dict[str, Any]:
    """The ``state`` event for ``conn``: the table and the engine's view
    of the connection's seat (a spectator's view when it has none).
    A broadcast passes the table's ``summary`` and a cache of ``views``
    per seat, so each is built once per state rather than once per
    connection.  Without ``chat`` the event has no ``chat`` key (the
    earlier states of a replay: the page keeps the chat it has, and a
    replay does not repeat up to 50 lines in every state)."""
    seat = table.seat_of(conn.player)
    m = table.match if match is None else match
    # before the start nobody sees a card, seated or not: the first deal is
    # dealt when the table is made, and a player who sat in each free seat
    # in turn would otherwise know every hand of it
    looks_from = seat if table.status != "waiting" else None
    cached = None if views is None else views.get(looks_from)
    view = m.view(looks_from) if cached is None else cached
    if views is not None and cached is None:
        views[looks_from] = view
    host = conn.player == table.host
    head = {
        **(table.summary() if summary is None else summary),
        "you": None if seat is None else table.match.seat_name(seat),
        "is_host": host,
        "suggesting": conn.player in table.suggestions.players,
        "deadline": table.deadline() if match is None else None,
        "now": table.clock.now(),
        "rules": table.house_rules,
    }
    if host:  # only the host sees the invitation and who is watching
        head["invite"] = table.invite
        head["watchers"] = [{"player": p, "name": n} for p, n in table.spectators().items()]
    event = {"v": PROTOCOL_VERSION, "type": "state", "seq": len(m.log), "table": head, "view": view}
    if chat:
        hidden = table.policy.hidden_from(conn.player) if table.policy is not None else ()
        event["chat"] = table.chat.shown(seat is not None or host, hidden)
    return event
