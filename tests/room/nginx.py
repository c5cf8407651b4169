"""A throw-away nginx in front of some upstream ports, for the deployment tests.

Runs Debian's nginx with the SHIPPED site file ``deploy/nginx/trumps.conf``,
changed only where a deployer would change it: its upstream ``server`` lines
name the given ports (keeping their failover parameters) and it listens on
a free loopback port.  The site is wrapped in a minimal top-level
``nginx.conf`` in a temporary directory (pid, logs and temp paths there),
checked with ``nginx -t`` and run in the foreground.  A missing nginx is a
failure, not a skip: ``apt-get install nginx`` (the CI script installs it).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = [
    "SITE",
    "check_config",
    "free_port",
    "nginx_binary",
    "nginx_proxy",
    "render_site",
    "top_level_conf",
    "worker_names",
]

SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "trumps.conf"

_UPSTREAM = re.compile(r"^(upstream\s+trumps_workers\s*\{)(.*?)^\}", re.MULTILINE | re.DOTALL)
_SERVER_LINE = re.compile(r"^[ \t]*server[ \t]+(\S+)([^;\n]*);[ \t]*\n", re.MULTILINE)
_LISTEN_LINE = re.compile(r"^([ \t]*)listen[ \t]+[^;\n]+;[ \t]*\n", re.MULTILINE)
_MAP = re.compile(r"^(map\s+\$arg_worker\s+\$trumps_table_worker\s*\{)(.*?)^\}", re.MULTILINE | re.DOTALL)
_MAP_LINE = re.compile(r"^[ \t]*(?!default\b)\S+[ \t]+\S+:\d+;[ \t]*\n", re.MULTILINE)


def nginx_binary() -> str:
    path = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if path is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx; the CI script installs it)")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def worker_names(n: int) -> list[str]:
    """The names the tests give their workers (``--worker-name``)."""
    return [f"w{i + 1}" for i in range(n)]


def _replace_lines(
    text: str, block_re: re.Pattern[str], line_re: re.Pattern[str], what: str,
    lines: Callable[[re.Match[str]], str],
) -> str:  # fmt: skip
    """``text`` with the ``line_re`` lines inside the ``block_re`` block
    replaced by ``lines(first line's match)``, where the first one was."""
    block = block_re.search(text)
    found = [] if block is None else list(line_re.finditer(block.group(2)))
    if block is None or not found:
        raise RuntimeError(f"{SITE}: no {what}")
    new = lines(found[0])
    body = line_re.sub(lambda m: new if m.start() == found[0].start() else "", block.group(2))
    return text[: block.start(2)] + body + text[block.end(2) :]


def render_site(
    upstream_ports: list[int], listen_port: int, site: str | None = None, names: list[str] | None = None
) -> str:
    """The shipped site file with its upstream servers on ``upstream_ports``
    (same parameters as its first ``server`` line), its table-socket map
    naming them ``names`` (default ``w1``, ``w2``, ...) and its ``listen``
    lines replaced by one on ``127.0.0.1:listen_port``."""
    if not upstream_ports:
        raise ValueError("no upstream ports")
    names = names or worker_names(len(upstream_ports))
    text = SITE.read_text() if site is None else site
    text = _replace_lines(
        text, _MAP, _MAP_LINE, "`map $arg_worker $trumps_table_worker { ... }` block with a worker line",
        lambda _first: "".join(f"    {n} 127.0.0.1:{p};\n" for n, p in zip(names, upstream_ports, strict=True)),
    )  # fmt: skip
    text = _replace_lines(
        text, _UPSTREAM, _SERVER_LINE, "`upstream trumps_workers { ... }` block with a `server` line",
        # the same parameters as the first line, e.g. " max_fails=0"
        lambda first: "".join(f"    server 127.0.0.1:{p}{first.group(2)};\n" for p in upstream_ports),
    )  # fmt: skip
    seen: list[str] = []

    def listen(m: re.Match[str]) -> str:
        seen.append(m.group(0))
        return f"{m.group(1)}listen 127.0.0.1:{listen_port};\n" if len(seen) == 1 else ""

    text = _LISTEN_LINE.sub(listen, text)
    if not seen:
        raise RuntimeError(f"{SITE}: no `listen` line")
    return text


def top_level_conf(prefix: Path, site_path: Path) -> str:
    """A minimal nginx.conf that includes ``site_path`` in its ``http`` block,
    with everything nginx writes kept under ``prefix``.  One worker process,
    so that round robin is one sequence the tests can follow."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers must read the 0700 temp dir
    temps = "".join(
        f"    {kind}_temp_path {prefix / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}daemon off;\nmaster_process on;\nworker_processes 1;\n"
        f"worker_shutdown_timeout 2s;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\n"
        "events {\n    worker_connections 256;\n}\n"
        f"http {{\n    access_log {prefix / 'access.log'};\n{temps}    include {site_path};\n}}\n"
    )


def _nginx(prefix: Path, conf: Path, *args: str) -> list[str]:
    return [nginx_binary(), "-p", f"{prefix}/", "-c", str(conf), "-e", str(prefix / "error.log"), *args]


def check_config(site_text: str) -> str:
    """Run ``nginx -t`` on ``site_text`` wrapped in :func:`top_level_conf`;
    return nginx's report, raise RuntimeError with it if the test fails."""
    prefix = Path(tempfile.mkdtemp(prefix="trumps-nginx-"))
    try:
        site = prefix / "trumps.conf"
        site.write_text(site_text)
        conf = prefix / "nginx.conf"
        conf.write_text(top_level_conf(prefix, site))
        return _test(prefix, conf)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def _test(prefix: Path, conf: Path) -> str:
    r = subprocess.run(_nginx(prefix, conf, "-t"), capture_output=True, text=True, timeout=30, check=False)
    report = (r.stdout + r.stderr).strip()
    if r.returncode != 0:
        raise RuntimeError(f"nginx -t failed:\n{report}")
    return report


def _stop(proc: subprocess.Popen[bytes]) -> None:
    # SIGTERM is nginx's fast shutdown (SIGQUIT would wait for open
    # WebSockets); then SIGKILL for the whole process group, so that no
    # worker process outlives a killed master
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    with suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


@contextmanager
def nginx_proxy(upstream_ports: list[int], names: list[str] | None = None) -> Iterator[int]:
    """Yield the loopback port of an nginx running the shipped site file in
    front of ``upstream_ports`` (workers named ``names``, see render_site)."""
    prefix = Path(tempfile.mkdtemp(prefix="trumps-nginx-"))
    proc: subprocess.Popen[bytes] | None = None
    try:
        port = free_port()
        site = prefix / "trumps.conf"
        site.write_text(render_site(upstream_ports, port, names=names))
        conf = prefix / "nginx.conf"
        conf.write_text(top_level_conf(prefix, site))
        _test(prefix, conf)
        proc = subprocess.Popen(
            _nginx(prefix, conf),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: see _stop
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                log = prefix / "error.log"
                report = log.read_text() if log.exists() else ""
                raise RuntimeError(f"nginx did not start on port {port}:\n{report}")
            time.sleep(0.05)
        yield port
    finally:
        if proc is not None:
            _stop(proc)
        shutil.rmtree(prefix, ignore_errors=True)
