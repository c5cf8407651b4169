"""The chat collaborator on its own: the per-player and per-person budget,
and which lines each side of the table reads."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from trumps.room.storage.store import ChatLine
from trumps.room.tables.chat import ADDRESS_SHARE, CHAT_BURST, CHAT_WINDOW, SHOWN, Budget, Chat
from trumps.room.tables.errors import RoomError


class _Conn:
    def __init__(self, player: str | None, person: str | None = None) -> None:
        self.player, self.name, self.person = player, player or "", person

    async def send(self, event: Mapping[str, object]) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


def test_a_player_has_a_burst_per_window() -> None:
    budget = Budget(CHAT_BURST)
    ann = _Conn("ann")
    for _ in range(CHAT_BURST):
        budget.spend(ann, 0.0)
    with pytest.raises(RoomError):
        budget.spend(ann, 1.0)
    budget.spend(ann, CHAT_WINDOW)  # the window has passed


def test_the_guests_of_one_address_share_a_bigger_budget() -> None:
    budget = Budget(1)
    guests = [_Conn(f"guest{i}", person="10.0.0.1") for i in range(ADDRESS_SHARE + 1)]
    for g in guests[:ADDRESS_SHARE]:
        budget.spend(g, 0.0)
    with pytest.raises(RoomError):
        budget.spend(guests[-1], 0.0)


def test_the_book_forgets_idle_people() -> None:
    budget = Budget(2)
    budget.spend(_Conn("ann"), 0.0)
    budget.spend(_Conn("bob"), CHAT_WINDOW + 1)
    assert "ann" not in budget.book


def _line(i: int, channel: str, player: str = "p") -> ChatLine:
    return {
        "seq": i,
        "player": player,
        "name": player,
        "text": f"line {i}",
        "at": float(i),
        "channel": channel,
    }


def test_players_never_read_the_spectators_channel() -> None:
    lines = [_line(i, "spectators" if i % 2 else "players") for i in range(2 * SHOWN + 10)]
    chat = Chat(lines)
    players = chat.shown(True, ())
    assert len(players) == SHOWN and all(line["channel"] == "players" for line in players)
    assert players[-1]["seq"] == 2 * SHOWN + 8
    spectators = chat.shown(False, ())
    assert len(spectators) == SHOWN and {line["channel"] for line in spectators} == {"players", "spectators"}


def test_the_lines_of_blocked_people_are_hidden() -> None:
    chat = Chat([_line(1, "players", "ann"), _line(2, "players", "bob")])
    assert [line["player"] for line in chat.shown(True, {"bob"})] == ["ann"]
    assert chat.lines[0]["phrase"] is None  # (a typed line: no preset phrase)
