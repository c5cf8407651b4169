"""The shipped systemd unit (deploy/systemd/trumps@.service): systemd
accepts it, and its command, run as systemd would run it (the environment
file's variables, the instance as the port), starts a worker on PostgreSQL
that answers and stops cleanly on SIGTERM within the unit's stop timeout."""

from __future__ import annotations

import http.client
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from trumps.cli.main import build_parser
from trumps.room.web.server import WORKER_NAME

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "room"))
from nginx import free_port
from pg import postgres_server

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
UNIT = DEPLOY / "trumps@.service"


def settings() -> dict[str, str]:
    """The unit's ``[Service]`` settings (the last of each key)."""
    out: dict[str, str] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def env_file() -> dict[str, str]:
    example = (DEPLOY / "trumps.env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in example if line and not line.startswith("#"))


def command(port: int, env: dict[str, str]) -> list[str]:
    """ExecStart as systemd expands it: %i the instance, ${VAR} from the environment."""
    line = settings()["ExecStart"].replace("%i", str(port))
    line = re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], line)
    return shlex.split(line)


def test_the_command_is_one_the_cli_accepts() -> None:
    s = settings()
    assert s["EnvironmentFile"] == "/etc/trumps/trumps.env"
    assert "TRUMPS_DB" in env_file() and "PGPASSWORD" in env_file()
    argv = command(8001, env_file())
    assert argv[0] == "/opt/trumps/bin/trumps"
    args = build_parser().parse_args(argv[1:])
    assert (args.command, args.port, args.host) == ("serve", 8001, "127.0.0.1")
    assert args.db == env_file()["TRUMPS_DB"] and ":" not in args.db.split("@")[0].split("//")[1]
    assert WORKER_NAME.fullmatch(args.worker_name) and args.worker_name == "w8001"
    # nginx on the machine: its X-Forwarded-For is believed, nobody else's
    assert args.trusted_proxies == "127.0.0.1"
    # longer than the handover may take (trumps.room.web.server.HANDOVER_LIMIT, 30 s)
    assert int(s["TimeoutStopSec"]) > 30 and s["KillSignal"] == "SIGTERM"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    # the same unit with a program and a user that exist on this machine
    trumps = Path(sys.executable).with_name("trumps")
    text = UNIT.read_text().replace("/opt/trumps/bin/trumps", str(trumps))
    text = re.sub(r"^(User|Group)=.*$", r"\1=root", text, flags=re.M)
    text = text.replace("EnvironmentFile=/etc/trumps/trumps.env", f"EnvironmentFile={tmp_path / 'env'}")
    (tmp_path / "env").write_text("TRUMPS_DB=postgresql+psycopg://trumps@localhost/trumps\n")
    (tmp_path / "trumps@.service").write_text(text)
    r = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "trumps@8001.service")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert r.returncode == 0 and "trumps@" not in r.stderr, r.stderr


@pytest.mark.postgres
def test_the_command_serves_and_stops_on_sigterm() -> None:
    with postgres_server() as url:
        port = free_port()
        env = {**os.environ, **env_file(), "TRUMPS_DB": url}
        argv = command(port, env)
        argv[0] = str(Path(sys.executable).with_name("trumps"))
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("GET", "/api/games")
                    assert conn.getresponse().status == 200
                    break
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline, "the worker did not start"
                    time.sleep(0.2)
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=int(settings()["TimeoutStopSec"]))
            # uvicorn shuts down, then ends by the signal it caught: systemd counts
            # an exit by SIGTERM as clean (SuccessExitStatus's default)
            assert proc.returncode in (0, -signal.SIGTERM), out
            assert f"port {port}" in out or f":{port}/" in out
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
