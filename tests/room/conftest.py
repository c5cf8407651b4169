"""Fixtures for the card room: an app on a fresh SQLite file, bots instant."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from trumps.room.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'room.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c


def guest(client: TestClient, name: str) -> str:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["player"])
