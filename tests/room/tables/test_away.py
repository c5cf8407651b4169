"""Away and idle seats on their own: who controls a seat, rebuilt from the
stored log, and the bookkeeping of timed-out moves."""

from __future__ import annotations

import pytest

from trumps.room.storage.store import StoredTable
from trumps.room.tables.away import IDLE_AFTER, Away
from trumps.room.tables.errors import RoomError
from trumps.room.tables.wire import Seat


def _stored(actions: list[tuple[int, str, float, bool]], timeouts: list[int]) -> StoredTable:
    return StoredTable("t1", "500", None, {}, 1, "host", "playing", 0.0, actions=actions, timeouts=timeouts)


def _seats() -> list[Seat]:
    return [Seat("ann", "Ann"), Seat(None, None, "rules"), Seat("cat", "Cat"), Seat()]


def test_a_restart_keeps_an_idle_player_idle() -> None:
    actions = [(0, "P", 1.0, True), (2, "P", 2.0, False), (0, "P", 3.0, True)]
    away = Away(_stored(actions, [1, 3]), _seats(), grace=30.0)
    assert away.idle == {0} and away.timeouts[0] == 2
    assert away.controller(0) == "rules" and away.marked(0)
    assert away.controller(1) == "rules"  # the bot's own seat
    assert away.controller(2) is None and away.controller(3) is None


def test_the_players_own_move_resets_the_count() -> None:
    away = Away(_stored([], []), _seats(), grace=30.0)
    for _ in range(IDLE_AFTER - 1):
        away.moved(2, timeout=True, by_player=False)
    away.moved(2, timeout=False, by_player=True)
    away.moved(2, timeout=True, by_player=False)
    assert 2 not in away.idle and away.timeouts[2] == IDLE_AFTER
    away.moved(2, timeout=True, by_player=False)
    assert 2 in away.idle


def test_a_gone_player_is_played_for_after_the_grace() -> None:
    away = Away(_stored([], []), _seats(), grace=0.0)
    away.left(2)
    assert away.marked(2) and away.controller(2) == "rules"
    assert Away(_stored([], []), _seats(), grace=3600.0).controller(2) is None


def test_back_only_for_an_idle_seat() -> None:
    away = Away(_stored([], []), _seats(), grace=30.0)
    with pytest.raises(RoomError):
        away.back(None)
    with pytest.raises(RoomError):
        away.back(0)
    away.idle.add(0)
    away.back(0)
    assert 0 not in away.idle
