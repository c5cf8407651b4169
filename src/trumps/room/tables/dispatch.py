"""One client message at a table: parse it, call the table, answer a
refusal with an ``error`` event.  Shared by the table's own WebSocket and by
connections relayed from another worker (:mod:`trumps.room.cluster`), so a
message means the same wherever its socket is."""

from __future__ import annotations

import contextlib
import logging

from trumps.room.storage.store import StoreUnavailable
from trumps.room.tables.messages import (
    Act,
    Back,
    Chat,
    FillBots,
    Hello,
    Invite,
    Kick,
    MessageError,
    SetBot,
    Sit,
    Stand,
    Suggest,
    parse_client_message,
)
from trumps.room.tables.table import Connection, RoomError, Table, TableClosed

__all__ = ["handle"]

log = logging.getLogger("trumps.room")


async def handle(table: Table, conn: Connection, raw: str | bytes) -> None:
    try:
        msg = parse_client_message(raw)
        if isinstance(msg, Hello):
            await table.catch_up(conn, msg.since)
        elif isinstance(msg, Act):
            await table.act(conn, msg.action, expect_seq=msg.seq)
        elif isinstance(msg, Sit):
            await table.sit(conn, msg.seat)
        elif isinstance(msg, Stand):
            await table.stand(conn)
        elif isinstance(msg, Back):
            await table.back(conn)
        elif isinstance(msg, SetBot):
            await table.set_bot(conn, msg.seat, msg.kind)
        elif isinstance(msg, FillBots):
            await table.fill_bots(conn, msg.kind)
        elif isinstance(msg, Chat):
            await table.say(conn, msg.text, phrase=msg.phrase)
        elif isinstance(msg, Suggest):
            await table.set_suggestions(conn, msg.on)
        elif isinstance(msg, Kick):
            await table.remove_spectator(conn, msg.player)
        elif isinstance(msg, Invite):
            await table.revoke_invite(conn)
    except TableClosed:
        # handed over meanwhile: nothing was done; the page reconnects, finds
        # the table's new worker and acts again there
        with contextlib.suppress(Exception):
            await conn.close(1012)
    except (MessageError, RoomError, StoreUnavailable) as exc:  # the last: nothing was stored
        with contextlib.suppress(Exception):  # the socket may have closed meanwhile
            await conn.send(table.error(str(exc)))
    except Exception:  # never let one message kill the connection or the table
        log.exception("unexpected error handling a message at table %s", table.id)
        with contextlib.suppress(Exception):
            await conn.send(table.error("the server could not handle that message"))
