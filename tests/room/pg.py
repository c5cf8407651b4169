"""A throw-away PostgreSQL server for the storage tests.

Starts a real server from Debian's postgresql package on a free loopback
port in a temporary directory (as the ``postgres`` user when run as root,
since the server refuses to run as root).  A missing server is a failure,
not a skip: ``scripts/test.sh`` installs it.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["postgres_server"]


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (run scripts/test.sh, which installs it)")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def postgres_server() -> Iterator[str]:
    """Yield an SQLAlchemy URL of a fresh database on a private server."""
    as_root = os.geteuid() == 0
    base = tempfile.mkdtemp(prefix="trumps-pg-")
    data = os.path.join(base, "data")
    os.chmod(base, 0o777)
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    port = _free_port()
    subprocess.run([*prefix, _bin("initdb"), "-D", data, "-U", "postgres", "-A", "trust"],
                   check=True, capture_output=True)  # fmt: skip
    proc = subprocess.Popen(
        [*prefix, _bin("postgres"), "-D", data, "-p", str(port), "-h", "127.0.0.1", "-k", base],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            r = subprocess.run(
                [_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(port)], capture_output=True, check=False
            )
            if r.returncode == 0:
                break
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("PostgreSQL did not start")
            time.sleep(0.2)
        subprocess.run([*prefix, _bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "trumps"],
                       check=True, capture_output=True)  # fmt: skip
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/trumps"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(base, ignore_errors=True)
