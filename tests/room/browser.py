"""Helpers for the browser tests: a real uvicorn server in a thread and
Debian's Chromium driven by Playwright (no browser download needed)."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn

from trumps.room.tables.timers import Clock
from trumps.room.web.app import create_app

if TYPE_CHECKING:  # Playwright is imported only by the browser tests themselves
    from playwright.sync_api import Locator, Page

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("Chromium is not installed (scripts/test.sh installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``trumps serve`` in a thread; :meth:`restart` stops it hard and
    starts a new one on the same port and database."""

    def __init__(self, db_url: str, port: int, bot_delay: float = 0.0, clock: Clock | None = None) -> None:
        self.db_url = db_url
        self.port = port
        self.bot_delay = bot_delay
        self.clock = clock  # e.g. a FakeClock: advance it with clock.advance_from_thread(seconds)
        self.url = f"http://127.0.0.1:{port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        config = uvicorn.Config(
            create_app(self.db_url, bot_delay=self.bot_delay, clock=self.clock),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._server.force_exit = True
            self._thread.join(timeout=20)

    def restart(self) -> None:
        self.stop()
        self.start()


def enter(page: Page, server: LiveServer, name: str) -> None:
    """Choose a display name in the lobby (a new guest)."""
    page.goto(server.url + "/#join")
    page.fill("#name", name)
    page.click("#name-form button")
    page.wait_for_selector("#name-box", state="hidden")


# ----- the table page's parts (table.html, felt.js, bidbox.js) ----------------------------
#: a card you may play now, in your hand or an exposed hand you play (dummy, a misère partner),
#: or a card you may choose to discard from the 500 kitty (not one chosen already)
PLAYABLE_CARD = "#felt button.card.legal:not(.chosen)"
#: a move offered beside the bidding box: a meld, a joker's suit, the kitty's "Discard"
#: once enough cards are chosen ("Undo" takes the choice back: never a move)
OFFERED = "#calls button:not([disabled]):not(#discard-undo)"
#: a call you may make now: on the bidding box, or beside it
CALL = "#bidbox button.call:not([disabled]), " + OFFERED


def choosing_discards(page: Page) -> bool:
    """Whether the page is in the middle of choosing the 500 kitty's discards
    (a card chosen, none sent): a click there makes no new state."""
    return bool(page.locator("#hand button.card.chosen").count())


def click(target: Locator) -> None:
    """Click a card or a call.  Cards in a hand overlap: only their top-left
    corner (the index) is sure to be uncovered, so that is where a player
    taps.  With "confirm card play" a card is raised by the first tap and
    played by the second."""
    is_card = "card" in (target.get_attribute("class", timeout=2000) or "")
    if not is_card:
        target.click(timeout=2000)
        return
    target.click(timeout=2000, position={"x": 7, "y": 7})
    if "armed" in (target.get_attribute("class", timeout=500) or ""):
        target.click(timeout=2000, position={"x": 7, "y": 7})


def act(page: Page) -> None:
    """Click what a player would now: a move offered beside the box, else a
    legal card, else the first call (nothing when it is not their turn)."""
    target = page.locator(OFFERED).first
    if not target.count():
        target = page.locator(PLAYABLE_CARD).first
    if not target.count():
        target = page.locator(CALL).first
    if target.count():
        with contextlib.suppress(Exception):  # the table moved on between our look and our click
            click(target)


def play_until(page: Page, done: object, limit: int = 600) -> None:
    """Click a legal card, else the first offered call, until ``done()``.

    A card that can be played several ways (a 500 joker lead's suit, a
    coinche belote announcement) offers its ways as buttons: the first is
    clicked before any card again."""
    for _ in range(limit):
        if done():  # type: ignore[operator]
            return
        act(page)
        page.wait_for_timeout(30)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "failure.png"))
    raise AssertionError("the game did not get there in time: " + page.inner_text("#status"))


def start_table(
    page: Page, server: LiveServer, game: str, preset: str | None, options: dict[str, str]
) -> str:
    """Ann (a new guest) makes a table of ``game`` and sits at the bottom
    seat (S; 0 with six players); returns the table's id."""
    page.goto(server.url + "/#join")
    page.evaluate(
        "() => fetch('/api/guest', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({name: 'Ann'})})"
    )
    table = page.evaluate(
        "a => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify(a)}).then(r => r.json())",
        {"game": game, "preset": preset, "options": options},
    )
    page.goto(f"{server.url}/table/{table['id']}")
    bottom = "0" if options.get("players", "2v2") != "2v2" else "S"
    page.locator(f".seat[data-seat='{bottom}']").get_by_role("button", name="Sit here").click()
    shown = "N" if bottom == "0" else bottom  # six seats are named by their places (seat 0: N)
    page.wait_for_selector(f"#me:has-text('You sit {shown}')", state="attached")
    return str(table["id"])
