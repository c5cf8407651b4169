"""Fixtures for the card room: an app on a fresh database (SQLite file and
a real PostgreSQL server), bots instant."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

from trumps.room.web.app import create_app

# the room's test helpers (peers, browser, pg...) and the test modules other
# tests borrow from are imported by name, wherever in tests/room they live
# (the tests mirror the room's areas: tests/room/people/...)
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "people"))
sys.path.insert(0, str(Path(__file__).parent / "history"))
sys.path.insert(0, str(Path(__file__).parent / "storage"))
sys.path.insert(0, str(Path(__file__).parent / "tables"))
sys.path.insert(0, str(Path(__file__).parent / "compete"))
sys.path.insert(0, str(Path(__file__).parent / "web"))
sys.path.insert(0, str(Path(__file__).parent / "cluster"))
from browser import CHROMIUM_ARGS, LiveServer, chromium_path, free_port
from pg import postgres_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def fresh_database(base: str) -> str:
    """A new empty database on the server of ``base``; its URL."""
    name = "t_" + secrets.token_hex(6)
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def pg_db(pg_url: str) -> str:
    """A fresh PostgreSQL database (the cluster tests)."""
    return fresh_database(pg_url)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'room.db'}"
    return fresh_database(request.getfixturevalue("pg_url"))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, one per test module (imported here:
    only the browser tests need Playwright installed)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """``trumps serve`` on a fresh SQLite file, bots instant."""
    s = LiveServer(f"sqlite:///{tmp_path / 'room.db'}", free_port())
    s.start()
    yield s
    s.stop()
