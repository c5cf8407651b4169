"""A person plays a tournament in a real browser: the Tournaments tab, Play,
a whole deal at the table, the end panel with the score against the field,
the next deal, the tournament's page with its ranking and travelling sheets;
a second player's result appears; a guest meets the daily tournament's
door.  Screenshots on a desktop and a phone (tests/artifacts/screenshots)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import SCREENSHOTS, LiveServer, act, free_port
from playwright.sync_api import Browser, Page

from trumps.room.storage.store import Store
from trumps.room.tournaments import records
from trumps.tournaments import TournamentPlan

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LONG = 20_000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    s = LiveServer(f"sqlite:///{tmp_path / 'room.db'}", free_port(), bot_delay=0.0)
    s.start()
    yield s
    s.stop()


def instant(server: LiveServer, deals: int = 2) -> str:
    store = Store(server.db_url)
    try:
        plan = TournamentPlan.make("coinche", deals, 2026, preset="contree_exact", bots="easy")
        return records.make_instant(store, plan, 10, time.time())
    finally:
        store.close()


def person(browser: Browser, server: LiveServer, name: str, *, account: bool, phone: bool = False) -> Page:
    ctx = browser.new_context(
        viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone, locale="en-GB"
    )
    page = ctx.new_page()
    page.goto(server.url + "/#join")
    path, body = (
        ("/api/register", {"username": name, "password": "correct horse 1"})
        if account
        else ("/api/guest", {"name": name})
    )
    status = page.evaluate(
        "([p, b]) => fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(b)}).then(r => r.status)",
        [path, body],
    )
    assert status in (200, 201)
    return page


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"tournament-{name}.png"), full_page=True)


def open_tab(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/#tournaments")
    page.reload()  # (the person registered from this page's script: the page shows who they are now)
    page.wait_for_selector("#tournament-list .tournament-row", timeout=LONG)


def play_the_deal(page: Page) -> None:
    """Click as a player would until the deal's end panel says how it compares."""
    for _ in range(800):
        if page.locator("#tournament-line").count() and "%" in page.inner_text("#tournament-line"):
            return
        act(page)
        page.wait_for_timeout(30)
    shot(page, "failure")
    raise AssertionError("the deal did not end: " + page.inner_text("#status"))


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_player_plays_a_tournament_through_and_sees_the_field(
    browser: Browser, server: LiveServer, phone: bool
) -> None:
    tid = instant(server)
    ann = person(browser, server, "Ann_t", account=True, phone=phone)
    open_tab(ann, server)
    rows = ann.locator("#tournament-list .tournament-row")
    # the daily one of each game, an instant one of each game and scoring (coinche's is this one)
    assert rows.count() == 7
    assert "IMPs" in ann.inner_text("#tournament-list")  # bridge by cross-IMPs too
    assert "Daily tournament" in ann.inner_text("#tournament-list")
    shot(ann, f"tab-{'phone' if phone else 'desktop'}")
    row = ann.locator(f"#tournament-list .tournament-row[data-tournament='{tid}']")
    row.get_by_role("button", name="Play").click()
    ann.wait_for_url("**/table/*", timeout=LONG)
    first_table = ann.url
    play_the_deal(ann)
    line = ann.inner_text("#tournament-line")
    assert "You scored" in line and "50 % of the field so far" in line  # alone on the deal so far
    assert ann.locator("#again").count() == 0  # no Play again at a tournament's deal
    shot(ann, f"deal-end-{'phone' if phone else 'desktop'}")
    ann.locator("#next-deal").click(timeout=LONG)
    ann.wait_for_url(lambda url: "/table/" in url and url != first_table, timeout=LONG)
    play_the_deal(ann)
    assert ann.locator("#next-deal").is_hidden()  # every deal played
    ann.locator("#tournament-results").click()
    ann.wait_for_selector("#ranking tr.me", timeout=LONG)
    assert "Ann_t" in ann.inner_text("#ranking")
    deals = ann.locator("#deals .deal-result")
    assert deals.count() == 2 and ann.locator("#deals .sheet").count() == 2
    assert ann.locator("#play").is_hidden()
    shot(ann, f"page-{'phone' if phone else 'desktop'}")
    mine = ann.locator("#deals .travellers tr.me a").first  # her name: her replay, on any screen
    assert "/replay/" in (mine.get_attribute("href") or "") and mine.is_visible()
    box = mine.bounding_box()
    assert box is not None and box["x"] + box["width"] <= ann.viewport_size["width"]  # type: ignore[index]
    # a second player: his result appears beside Ann's once he has played the deal
    bob = person(browser, server, "Bob_t", account=True, phone=phone)
    bob.goto(f"{server.url}/tournament/{tid}")
    bob.wait_for_selector("#deals .deal-result", timeout=LONG)
    assert "Ann_t" not in bob.inner_text("#deals")  # nothing of a deal he has not played
    assert "Not played yet" in bob.inner_text("#deals")
    bob.get_by_role("button", name="Play").click()
    bob.wait_for_url("**/table/*", timeout=LONG)
    play_the_deal(bob)
    bob.goto(f"{server.url}/tournament/{tid}")
    bob.wait_for_selector("#deals .travellers", timeout=LONG)
    first = bob.locator("#deals .deal-result").first.inner_text()
    assert "Ann_t" in first and "Bob_t" in first
    ann.goto(f"{server.url}/tournament/{tid}")
    ann.wait_for_selector("#ranking tr.me", timeout=LONG)
    assert "Bob_t" in ann.locator("#deals .deal-result").first.inner_text()
    # her profile lists it; its game name leads to the results on any screen (a phone hides the Results column)
    ann.goto(f"{server.url}/player/Ann_t")
    link = ann.locator("#tournaments a", has_text="Coinche").first
    link.wait_for(timeout=LONG)
    assert re.search(r"\b[12] of 2\b", ann.inner_text("#tournaments"))  # her place among the two
    box = link.bounding_box()
    assert box is not None and box["x"] + box["width"] <= ann.viewport_size["width"]  # type: ignore[index]
    link.click()
    ann.wait_for_url(f"**/tournament/{tid}", timeout=LONG)


def test_a_guest_is_sent_to_register_for_a_daily_one_and_plays_an_instant_one(
    browser: Browser, server: LiveServer
) -> None:
    tid = instant(server, deals=1)
    cat = person(browser, server, "Cat", account=False)
    open_tab(cat, server)
    daily = cat.locator("#tournament-list .tournament-row").first
    assert "Daily tournament" in daily.inner_text() and "Register to play" in daily.inner_text()
    cat.locator(f"#tournament-list .tournament-row[data-tournament='{tid}']").get_by_role(
        "button", name="Play"
    ).click()
    cat.wait_for_url("**/table/*", timeout=LONG)
    table = cat.url
    for _ in range(3):  # a move or two, then she leaves for the lobby half way through the deal
        act(cat)
        cat.wait_for_timeout(30)
    open_tab(cat, server)
    row = cat.locator(f"#tournament-list .tournament-row[data-tournament='{tid}']")
    row.get_by_role("button", name="Continue").click()
    cat.wait_for_url("**/table/*", timeout=LONG)
    assert cat.url == table  # back at the deal she left, not a new one
    play_the_deal(cat)
    cat.locator("#tournament-results").click()
    cat.wait_for_selector("#deals .travellers", timeout=LONG)
    assert "Cat" not in cat.inner_text("#ranking")  # a guest plays unranked
    assert "Cat" in cat.inner_text("#deals")  # and sees her own result
