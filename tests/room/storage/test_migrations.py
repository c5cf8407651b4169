"""The accounts migration (0003) keeps what a room stored before it: a
database made at revision 0002 with a guest, chips, a table, its seats,
actions and chat comes back with all of it, on SQLite and PostgreSQL; the
old guest keeps its chips, gets no second grant when it registers, and its
table replays."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

import trumps
from trumps.room.people import accounts
from trumps.room.storage.store import Store
from trumps.room.web.app import create_app

MIGRATIONS = Path(trumps.__file__).parent / "room" / "storage" / "migrations"


def upgrade(url: str, revision: str) -> None:
    engine = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    engine.dispose()


def test_0003_keeps_guests_chips_tables_and_games(db_url: str) -> None:
    upgrade(db_url, "0002")
    game = trumps.new_game("500", seed=7)
    actions = []
    for _ in range(6):
        a = game.legal_actions()[0]
        actions.append((game.to_act_index, str(a)))
        game.apply(a)
    engine = create_engine(db_url)
    with engine.begin() as c:
        c.execute(text("INSERT INTO players (id, name, created, chips) VALUES ('g1', 'Old Ann', 1.0, 870)"))
        c.execute(
            text(
                "INSERT INTO tables (id, game, preset, options, seed, host, status, created, settings, access) "
                "VALUES ('t1', '500', NULL, :o, 7, 'g1', 'playing', 2.0, :s, :a)"
            ),
            {"o": '{"variation": "american"}', "s": '{"buy_in": 0, "private": false}', "a": "{}"},
        )
        for seat in range(4):
            c.execute(
                text("INSERT INTO seats (table_id, seat, player_id, bot) VALUES ('t1', :s, :p, :b)"),
                {"s": seat, "p": "g1" if seat == 2 else None, "b": None if seat == 2 else "rules"},
            )
        for i, (seat, a) in enumerate(actions, start=1):
            c.execute(
                text(
                    "INSERT INTO actions (table_id, seq, seat, action, at, auto) VALUES ('t1', :q, :s, :a, 3.0, :f)"
                ),
                {"q": i, "s": seat, "a": a, "f": False},
            )
        c.execute(
            text(
                "INSERT INTO chat (table_id, seq, player_id, name, text, at) VALUES ('t1', 1, 'g1', 'Old Ann', 'hi', 4.0)"
            )
        )
    engine.dispose()
    store = Store(db_url)  # migrates to the head
    try:
        info = accounts.player_info(store, "g1")
        assert info is not None and info.name == "Old Ann (guest)" and not info.is_account
        from trumps.room.compete import competition

        assert competition.chips(store, "g1") == 870
        st = store.load_table("t1")
        assert st is not None and [a[1] for a in st.actions] == [a for _, a in actions]
        assert st.chat[0]["text"] == "hi" and st.seats[2] == ("g1", None)
        # the old guest registers: same player, same chips (its start grant was had)
        assert accounts.register(store, "OldAnn", "correct horse 1", guest="g1") == "g1"
        assert competition.chips(store, "g1") == 870
    finally:
        store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        t = client.get("/api/tables/t1").json()
        assert t["settings"]["kind"] == "join" and t["seats"][2]["name"] == "OldAnn"
        assert t["scores"] == game.scores


def test_0003_upgrades_an_empty_database_and_a_new_guest_has_no_chips(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    upgrade(url, "0002")
    store = Store(url)
    try:
        pid = store.create_player("New")
        from trumps.room.compete import competition

        assert competition.chips(store, pid) == 0
    finally:
        store.close()
