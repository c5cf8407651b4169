"""``trumps serve`` refuses what it cannot do before it says where the room
is: a port another server holds, a port that is not a port (0 would have
been a random one, 99999 is no TCP port)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from trumps.cli.main import check_port, main


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port held by a listening socket for the test's duration."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def test_a_busy_port_is_said_before_any_address(busy_port: int, tmp_path: Path) -> None:
    db = tmp_path / "room.db"
    r = subprocess.run(
        [sys.executable, "-m", "trumps", "serve", "--port", str(busy_port), "--db", f"sqlite:///{db}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert r.returncode == 2
    assert r.stdout == ""  # no "trumps card room on http://..." line
    assert r.stderr.splitlines() == [
        f"trumps: error: port {busy_port} on 127.0.0.1 is already in use (another server?): "
        "choose another with --port"
    ]
    assert not db.exists()  # nothing was started, not even the database


def test_check_port_accepts_a_free_port_and_refuses_a_busy_one(busy_port: int) -> None:
    from trumps.cli.common import UsageError

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    check_port("127.0.0.1", free)  # no error; and the port is free again afterwards
    with socket.socket() as again:
        again.bind(("127.0.0.1", free))
    with pytest.raises(UsageError, match="already in use"):
        check_port("127.0.0.1", busy_port)
    with pytest.raises(UsageError, match=r"--host 'no\.such\.host\.invalid'"):
        check_port("no.such.host.invalid", free)


@pytest.mark.parametrize("port", ["0", "65536", "99999", "-1", "8e3", "", "1" * 40])
def test_a_port_out_of_range_is_refused_not_replaced(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", port]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("trumps: error: argument --port: ")


def test_the_top_port_is_a_port(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """65535 passes the argument check and reaches the room (stood in for)."""
    seen: dict[str, object] = {}
    monkeypatch.setattr("trumps.cli.main.check_port", lambda host, port: seen.update(port=port))
    monkeypatch.setattr("trumps.room.web.server.serve", lambda **kw: seen.update(kw))
    assert main(["serve", "--port", "65535"]) == 0
    assert seen["port"] == 65535
