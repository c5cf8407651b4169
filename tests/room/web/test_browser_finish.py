"""Finishing the table in Chromium (issue 30): Play again with two people
(each back in their own seat at one new table), the 500 kitty (its cards
marked in the hand, the discards chosen, undone and confirmed with one
button) with the Rules panel naming the house rules, an invitation that
seats whoever accepts it, and an abandoned waiting Compete table that
closes after five minutes without costing a chip (a fake clock).
Screenshots go to ``artifacts/screenshots/finish-*.png``."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import SCREENSHOTS, LiveServer, act, click, free_port
from playwright.sync_api import Browser, BrowserContext, Page

from trumps.room.tables.table import ABANDON_AFTER
from trumps.room.tables.timers import FakeClock

LONG = 60_000  # ms: generous, for two busy cores
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(time.time())


@pytest.fixture
def server(tmp_path: Path, clock: FakeClock) -> Iterator[LiveServer]:
    s = LiveServer(f"sqlite:///{tmp_path / 'room.db'}", free_port(), bot_delay=0.0, clock=clock)
    s.start()
    yield s
    s.stop()


def person(
    browser: Browser, server: LiveServer, name: str, *, account: bool = False, phone: bool = False
) -> Page:
    """A new browser context (its own cookie) with a guest or an account ``name``."""
    ctx: BrowserContext = browser.new_context(
        viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone, locale="en-GB"
    )
    page = ctx.new_page()
    page.goto(server.url + "/#join")
    if account:
        status = page.evaluate(
            "n => fetch('/api/register', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({username: n, password: 'correct horse 1'})}).then(r => r.status)",
            name,
        )
    else:
        status = page.evaluate(
            "n => fetch('/api/guest', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({name: n})}).then(r => r.status)",
            name,
        )
    assert status in (200, 201)
    return page


def post(page: Page, path: str, body: dict[str, Any]) -> Any:
    return page.evaluate(
        "([p, b]) => fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify(b)}).then(async r => ({status: r.status, body: await r.json()}))",
        [path, body],
    )


def sit(page: Page, server: LiveServer, tid: str, seat: str) -> None:
    page.goto(f"{server.url}/table/{tid}")
    page.locator(f".seat[data-seat='{seat}']").get_by_role("button", name="Sit here").click(timeout=LONG)
    page.wait_for_selector(f"#me:has-text('You sit {seat}')", state="attached", timeout=LONG)


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"finish-{name}.png"))


def play_both(pages: list[Page], limit: int = 2000) -> None:
    """Each page clicks a legal card or the first call on its turn until
    the game-over panel shows on every page."""
    for _ in range(limit):
        if all(p.locator("#again").count() for p in pages):
            return
        for page in pages:
            act(page)
        pages[0].wait_for_timeout(30)
    raise AssertionError("the game did not end: " + pages[0].inner_text("#status"))


def test_play_again_brings_both_players_back_to_their_seats(browser: Browser, server: LiveServer) -> None:
    ann = person(browser, server, "Ann")
    bob = person(browser, server, "Bob", phone=True)
    made = post(
        ann, "/api/tables", {"game": "coinche", "options": {"target_score": 1}, "settings": {"play_time": 60}}
    )
    tid = made["body"]["id"]
    sit(ann, server, tid, "S")
    sit(bob, server, tid, "N")
    ann.locator("#bot-level").select_option("easy")
    ann.get_by_role("button", name="Fill empty seats with bots").click()
    play_both([ann, bob])
    shot(bob, "over-phone")
    # Ann presses Play again: she sits S at a new table, Bob's seat N waits for him
    ann.locator("#again").click()
    ann.wait_for_url(lambda url: f"/table/{tid}" not in url, timeout=LONG)
    new = ann.url.rsplit("/", 1)[1].split("#")[0]
    ann.wait_for_selector("#me:has-text('You sit S')", state="attached", timeout=LONG)
    ann.wait_for_selector("#status:has-text('Waiting for players: 1 seat free')", timeout=LONG)
    shot(ann, "again-waiting")
    # Bob's finished table tells him, and his Play again seats him at N: the game starts
    bob.wait_for_selector("#again-note:has-text('The next game is ready')", timeout=LONG)
    shot(bob, "again-offered-phone")
    bob.locator("#again").click()
    bob.wait_for_url(f"**/table/{new}", timeout=LONG)
    bob.wait_for_selector("#me:has-text('You sit N')", state="attached", timeout=LONG)
    ann.wait_for_selector("body.playing", state="attached", timeout=LONG)
    assert ann.locator("#rules summary").inner_text() == "Rules"
    # nobody is left with an empty copy: the lobby lists one table for them, the new one
    listed = ann.evaluate("() => fetch('/api/tables').then(r => r.json())")
    assert [t["id"] for t in listed] == [new]


def test_the_kitty_is_marked_and_the_discards_are_confirmed_or_undone(
    browser: Browser, server: LiveServer
) -> None:
    ann = person(browser, server, "Ann")
    made = post(
        ann, "/api/tables", {"game": "500", "preset": "american", "options": {"must_bid_to_win": True}}
    )
    tid = made["body"]["id"]
    sit(ann, server, tid, "S")
    # the Rules panel names the preset and the one house rule, in words
    ann.locator("#rules summary").click()
    rules = ann.locator("#rules-body").inner_text()
    assert "American rules, with these changes:" in rules and "Must bid to win: yes" in rules
    ann.locator("#bot-level").select_option("easy")
    ann.get_by_role("button", name="Fill empty seats with bots").click()
    # Ann bids 10NT when she may (nobody outbids it) and passes only where
    # 10NT is not hers to bid.  The bid box is read in one snapshot: read
    # button by button while a bot's call re-renders it, 10NT could look
    # absent on her turn, and a pass there let a bot win the contract.
    box = """() => {
        const calls = [...document.querySelectorAll('#bidbox button.call')];
        const ten = calls.find(b => b.dataset.call === '10NT');
        return {ten: !!ten && !ten.disabled, tenShut: !!ten && ten.disabled,
                pass: calls.some(b => b.dataset.call === 'P' && !b.disabled)};
    }"""
    until = time.monotonic() + 90
    while time.monotonic() < until:
        if ann.locator("#discard-go").count():
            break
        now = ann.evaluate(box)
        if now["ten"]:
            with contextlib.suppress(Exception):
                click(ann.locator("#bidbox button.call[data-call='10NT']:not([disabled])"))
        elif now["pass"] and now["tenShut"]:  # her turn, and 10NT is not open to her
            with contextlib.suppress(Exception):
                click(ann.locator("#bidbox button.call[data-call='P']:not([disabled])"))
        ann.wait_for_timeout(50)
    shot(ann, "kitty-reached")
    ann.wait_for_selector("#discard-go", timeout=LONG)
    marked = ann.locator("#hand .card.from-kitty")
    assert marked.count() == 3 and ann.locator("#hand .card").count() == 13
    go, undo = ann.locator("#discard-go"), ann.locator("#discard-undo")
    assert go.is_disabled() and undo.is_disabled()
    cards = ann.locator("#hand button.card")
    picks = [cards.nth(i).get_attribute("data-card") for i in (0, 1, 2, 3)]
    for i in (0, 1):
        cards.nth(i).click(position={"x": 7, "y": 7})
    assert ann.locator("#hand button.card.chosen").count() == 2 and go.is_disabled() and undo.is_enabled()
    shot(ann, "kitty-two-chosen")
    undo.click()  # nothing was sent: every card is back
    assert ann.locator("#hand button.card.chosen").count() == 0 and ann.locator("#hand .card").count() == 13
    for i in (1, 2, 3, 0):  # the fourth is refused (three to discard) until one is put back
        ann.locator(f"#hand button.card[data-card='{picks[i]}']").click(position={"x": 7, "y": 7})
    assert ann.locator("#hand button.card.chosen").count() == 3
    ann.locator(f"#hand button.card[data-card='{picks[1]}']").click(position={"x": 7, "y": 7})  # put back
    ann.locator(f"#hand button.card[data-card='{picks[0]}']").click(position={"x": 7, "y": 7})
    chosen = sorted(ann.locator("#hand button.card.chosen").evaluate_all("bs => bs.map(b => b.dataset.card)"))
    assert chosen == sorted([picks[0], picks[2], picks[3]]) and go.is_enabled()
    shot(ann, "kitty-ready")
    go.click()
    ann.wait_for_function("() => !document.querySelector('#discard-go')", timeout=LONG)
    ann.wait_for_function("() => document.querySelectorAll('#hand .card').length <= 10", timeout=LONG)
    left = ann.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert not set(chosen) & set(left) and not ann.locator("#hand .card.from-kitty").count()


def test_accepting_an_invitation_seats_the_friend(browser: Browser, server: LiveServer) -> None:
    ann = person(browser, server, "Ann", account=True)
    bob = person(browser, server, "Bob", account=True, phone=True)
    assert post(ann, "/api/friends", {"player": "Bob", "action": "request"})["status"] == 200
    assert post(bob, "/api/friends", {"player": "Ann", "action": "accept"})["status"] == 200
    tid = post(ann, "/api/tables", {"game": "bridge", "settings": {"private": True}})["body"]["id"]
    sit(ann, server, tid, "S")
    bob.goto(server.url + "/")
    bob.wait_for_selector("#account", timeout=LONG)
    assert post(ann, f"/api/tables/{tid}/invite", {"players": ["Bob"]})["status"] == 200
    bob.locator(".invitation").get_by_role("button", name="Accept").click(timeout=LONG)
    bob.wait_for_url(f"**/table/{tid}", timeout=LONG)
    bob.wait_for_selector("#me:has-text('You sit N')", state="attached", timeout=LONG)  # Ann's partner
    shot(bob, "invited-seated-phone")


def test_an_abandoned_compete_table_closes_and_costs_nothing(
    browser: Browser, server: LiveServer, clock: FakeClock
) -> None:
    ann = person(browser, server, "Ann", account=True)
    chips = ann.evaluate("() => fetch('/api/me/chips').then(r => r.json())")["chips"]
    tid = post(ann, "/api/tables", {"game": "coinche", "settings": {"buy_in": 110}})["body"]["id"]
    sit(ann, server, tid, "S")
    ann.goto(server.url + "/#compete")  # she walks away: no person is at the table
    ann.wait_for_selector(f"tr:has(a[href='/table/{tid}'])", timeout=LONG)
    clock.advance_from_thread(ABANDON_AFTER + 1)
    ann.wait_for_function(f"() => !document.querySelector(\"a[href='/table/{tid}']\")", timeout=LONG)
    assert ann.evaluate("() => fetch('/api/me/chips').then(r => r.json())")["chips"] == chips
    page = ann.goto(f"{server.url}/table/{tid}")
    assert page is not None and page.status == 410
    assert "closed before its game began" in ann.inner_text("body")


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR"])
def test_the_friends_box_keeps_its_field_readable(browser: Browser, server: LiveServer, locale: str) -> None:
    """ "Freund hinzufügen" squeezed the German username field to 50 px."""
    for viewport in (DESKTOP, PHONE):
        ctx = browser.new_context(viewport=viewport, locale=locale)
        page = ctx.new_page()
        page.goto(server.url + "/")
        name = f"Zoe{locale[:2]}{viewport['width']}"
        assert post(page, "/api/register", {"username": name, "password": "correct horse 1"})["status"] == 201
        page.reload()
        page.locator("#friends .add-friend input").wait_for(timeout=LONG)
        # (read in one go: the box is drawn again when the friends list comes)
        field, button = page.evaluate(
            "() => ['input', 'button'].map(t => {"
            " const r = document.querySelector('#friends .add-friend ' + t).getBoundingClientRect();"
            " return [r.width, r.right]; })"
        )
        assert field[0] >= 140, (locale, viewport, field)
        assert button[1] <= viewport["width"], (locale, viewport, button)
        ctx.close()


def test_a_guest_is_offered_to_register_not_to_join_a_compete_table(
    browser: Browser, server: LiveServer
) -> None:
    ann = person(browser, server, "Ann", account=True)
    tid = post(ann, "/api/tables", {"game": "coinche", "settings": {"buy_in": 30}})["body"]["id"]
    guest = person(browser, server, "Gus")
    guest.goto(server.url + "/#compete")
    guest.reload()  # (a new hash alone does not switch the tab)
    row = guest.locator(f"#compete-tables tr:has(a[href='/table/{tid}'])")
    row.wait_for(timeout=LONG)
    link = row.locator("a.t-go")
    assert link.inner_text() == "Register to play"
    link.click()
    guest.wait_for_selector("dialog[open], .account-dialog:not([hidden])", timeout=LONG)
    ann.goto(server.url + "/#compete")  # an account is offered the seat
    ann.reload()  # (the page was loaded before she registered)
    ann.locator(f"#compete-tables a.t-go[href='/table/{tid}']").wait_for(timeout=LONG)
    assert ann.locator(f"#compete-tables a.t-go[href='/table/{tid}']").inner_text() in (
        "Join",
        "Back to your table",
    )
