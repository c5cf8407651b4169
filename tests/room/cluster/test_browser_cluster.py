"""The table page in a real browser on a room of two workers behind the
shipped nginx configuration: the worker running the table is killed (-9)
in the middle of the deal; the page reconnects through nginx by itself,
shows the game where it was, and the deal is played to its end, on a
desktop and a phone screen."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest
from cluster_harness import Worker, lock_holder
from nginx import nginx_proxy, worker_names
from playwright.sync_api import Browser, Page
from test_browser_table import SIZES, new_page, play_one_deal, shot, start_table, view


class Proxied:
    """What start_table needs of a server: its address (nginx's)."""

    def __init__(self, url: str) -> None:
        self.url = url


@pytest.fixture
def room(pg_db: str) -> Iterator[tuple[Proxied, list[Worker]]]:
    db = pg_db
    workers = [Worker(db, bot_delay=0.05, name=name).start(wait=False) for name in worker_names(2)]
    try:
        for w in workers:
            w.wait_ready()
        with nginx_proxy([w.port for w in workers], names=worker_names(2)) as port:
            yield Proxied(f"http://127.0.0.1:{port}"), workers
    finally:
        for w in workers:
            w.stop(timeout=10)


def owner(db: str, tid: str, workers: list[Worker]) -> Worker:
    """The worker whose lock connection holds the table (by its client port)."""
    port = lock_holder(db, tid, "client_port")
    for w in workers:
        assert w.proc is not None
        if port in local_ports(w.proc.pid):
            return w
    raise AssertionError("no worker holds the table")


def local_ports(pid: int) -> set[int]:
    """The local TCP ports of a process's sockets (/proc: its fds' socket
    inodes, looked up in the kernel's table of TCP sockets)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            for line in f.readlines()[1:]:
                cols = line.split()
                if cols[9] in inodes:
                    ports.add(int(cols[1].rsplit(":", 1)[1], 16))
    return ports


def south_to_play(
    browser: Browser, size: str, server: Proxied, workers: list[Worker]
) -> tuple[Page, str, dict[str, Any], Worker]:
    """A 500 table with bots, the page seated at S and S to act: the page,
    the table, its view then (also kept as ``window.before``) and the
    table's worker."""
    page = new_page(browser, size)
    tid = start_table(page, server, "500", "australian", {})  # type: ignore[arg-type]
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_function("() => state && state.table.status === 'playing'")
    page.wait_for_function("() => state.view.to_act === 'S'", timeout=30_000)
    before: dict[str, Any] = view(page)
    page.evaluate("() => { window.before = state; }")
    return page, tid, before, owner(workers[0].db, tid, workers)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_survives_the_death_of_its_tables_worker(
    browser: Browser, room: tuple[Proxied, list[Worker]], size: str
) -> None:
    server, workers = room
    page, _tid, before, first = south_to_play(browser, size, server, workers)
    # a page that landed on the other worker was told the owner and went there
    assert page.evaluate("() => routeTo") in (None, first.name)
    first.kill()
    # the page reconnects through nginx by itself and is shown the game where it was
    page.wait_for_function("() => state !== window.before", timeout=15_000)
    after = view(page)
    assert after["seq"] == before["seq"] and after["you"] == "S" and after["to_act"] == "S"
    # the dead worker is forgotten: the page is on the survivor (directly or told to go there)
    survivor = next(w for w in workers if w is not first)
    page.wait_for_function(f"() => routeTo === null || routeTo === {survivor.name!r}", timeout=5_000)
    shot(page, f"cluster-after-failover-{size}")
    v = play_one_deal(page, f"cluster-{size}", size, 4)
    assert v.get("results"), "the deal did not finish"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_page_follows_its_table_to_the_heir_at_a_normal_stop(
    browser: Browser, room: tuple[Proxied, list[Worker]]
) -> None:
    """The table's worker is stopped normally (a rolling restart): before
    it closes the page's socket it names the worker that takes the table,
    and the page goes straight there, with nothing missed."""
    server, workers = room
    page, tid, before, first = south_to_play(browser, "desktop", server, workers)
    heir = next(w for w in workers if w is not first)
    first.stop()
    page.wait_for_function("() => state !== window.before", timeout=15_000)
    after = view(page)
    assert after["seq"] == before["seq"] and after["you"] == "S" and after["to_act"] == "S"
    # told the heir by the stopping worker, and on it (not forgotten as a 1012 alone would)
    assert page.evaluate("() => routeTo") == heir.name
    assert owner(workers[0].db, tid, [heir]) is heir
    v = play_one_deal(page, "cluster-handover-desktop", "desktop", 4)
    assert v.get("results"), "the deal did not finish"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()
