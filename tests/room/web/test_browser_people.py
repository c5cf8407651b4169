"""Players, friends and the three kinds of game, end to end in Chromium,
several accounts in separate browser contexts: register through the
dialog, befriend by username, invite from the create form, accept from the
lobby notification and sit down; a stranger never finds the table; four
people press Play together and land at one table; a Compete game of one
person with bots refunds the buy-in, moves no rating and shows on the
profile.  Screenshots go to
``artifacts/screenshots/people-*.png`` (desktop and phone)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import SCREENSHOTS, LiveServer, free_port
from playwright.sync_api import Browser, Page
from test_browser_settings import act_once, fill, my_turn, new_page, sit

PASSWORD = "correct horse 1"
LONG = 60_000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    s = LiveServer(f"sqlite:///{tmp_path / 'room.db'}", free_port(), bot_delay=0.0)
    s.start()
    yield s
    s.stop()


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def register(browser: Browser, server: LiveServer, username: str, phone: bool = False) -> Page:
    """A new person who registers through the header's dialog."""
    page = new_page(browser)
    if phone:
        page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.locator("#account").get_by_role("button", name="Register").click()
    dialog = page.locator("dialog.account-dialog")
    dialog.get_by_label("Username").fill(username)
    dialog.get_by_label("Password").fill(PASSWORD)
    dialog.get_by_role("button", name="Register").click()
    page.wait_for_selector(f"#me:has-text('You are {username} · 1000 chips')")
    return page


def test_befriend_invite_accept_play_and_a_stranger_sees_nothing(
    browser: Browser, server: LiveServer
) -> None:
    ann = register(browser, server, "Ann")
    bob = register(browser, server, "Bob")
    zed = register(browser, server, "Zed")
    # Ann asks Bob by username; Bob accepts in his friends panel, live
    ann.get_by_label("Username to add as a friend").fill("bob")
    ann.get_by_role("button", name="Add friend").click()
    ann.wait_for_selector("#friends :text('Request sent.')")
    request = bob.locator(".friend.request", has_text="Ann")
    request.get_by_role("button", name="Accept").click()
    bob.wait_for_selector("#friends .friend-list :text('Ann')")
    ann.wait_for_selector("#friends .friend.online :text('Bob')")
    shot(bob, "people-friends.png")
    # Ann creates an invite-only table, inviting Bob from the form
    ann.get_by_role("tab", name="Join").click()
    ann.select_option("#game", "500")
    ann.locator("#create-form [name=private]").set_checked(True)
    ann.locator("#invite-friends label", has_text="Bob").locator("input").check()
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url("**/table/*")
    tid = ann.url.rsplit("/", 1)[1]
    # Bob gets the notification in the lobby and accepts it
    toast = bob.locator(".toast .invitation", has_text="Ann")
    toast.wait_for()
    shot(bob, "people-invitation.png")
    toast.get_by_role("button", name="Accept").click()
    bob.wait_for_url(f"**/table/{tid}")
    # accepting seated him (the first free seat: Ann, the host, had not sat down yet)
    bob.wait_for_selector("#me:has-text('You sit N')", state="attached")
    sit(ann, "S")
    fill(ann)
    for _ in range(6):  # a few moves each, so both have really played
        for p in (ann, bob):
            if my_turn(p):
                act_once(p)
    shot(ann, "people-table.png")
    # the stranger never finds it, and cannot open it
    zed.goto(server.url + "/#join")
    zed.reload()
    zed.wait_for_selector("#tables tr")
    assert zed.locator(f"a[href='/table/{tid}']").count() == 0
    assert zed.request.get(f"{server.url}/api/tables/{tid}").status == 403
    assert zed.request.get(f"{server.url}/table/{tid}").status == 403
    for p in (ann, bob, zed):
        p.context.close()


def test_four_people_press_play_together_and_land_at_one_table(browser: Browser, server: LiveServer) -> None:
    pages = [register(browser, server, f"Player{i}", phone=i == 3) for i in range(4)]
    for p in pages:
        p.get_by_role("tab", name="Play").click()
        p.locator("#play-games label", has_text="Coinche").click()
        p.locator("#play-rules label", has_text="Common rules").click()
    shot(pages[3], "people-play-phone.png")
    for p in pages:
        p.click("#play-button")
    for p in pages:
        p.wait_for_url("**/table/*", timeout=LONG)
    tables = {p.url.rsplit("/", 1)[1] for p in pages}
    assert len(tables) == 1, tables
    page = pages[0]
    page.wait_for_selector("#status:not(:empty)")
    names = page.evaluate("() => state.table.seats.map(s => s.name)")
    assert sorted(names) == [f"Player{i}" for i in range(4)]
    assert page.evaluate("() => state.table.settings.kind") == "play"
    shot(pages[3], "people-play-table-phone.png")
    for p in pages:
        p.context.close()


def test_a_compete_game_alone_with_bots_refunds_and_shows_on_the_profile(
    browser: Browser, server: LiveServer
) -> None:
    ann = register(browser, server, "Ann")
    ann.get_by_role("tab", name="Compete").click()
    ann.select_option("#game", "bridge")
    ann.locator("#create-form [name=buy_in]").select_option("30")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url("**/table/*")
    ann.wait_for_selector("#status:not(:empty)")
    assert ann.evaluate("() => state.table.settings.kind") == "compete"
    sit(ann, "S")
    fill(ann)
    for _ in range(400):
        if "Game over" in ann.inner_text("#status"):
            break
        if not act_once(ann, prefer="1C"):
            ann.wait_for_function("() => state.view.over || state.view.to_act === 'S'")
    ann.wait_for_selector("#status:has-text('Game over')")
    # one person with bots plays for nothing (issue 29): the buy-in comes back, no rating moves,
    # and the profile still shows the game
    ann.wait_for_timeout(500)
    me = ann.request.get(f"{server.url}/api/me").json()
    assert me["chips"] == 1000
    assert ann.request.get(f"{server.url}/api/ratings?game=bridge").json()["players"] == []
    profile = ann.request.get(f"{server.url}/api/players/ann").json()
    assert profile["games"]["bridge"]["played"] == 1
    assert profile["games"]["bridge"]["rating"] is None
    ann.goto(server.url + "/leaderboard")
    ann.wait_for_selector("#board")
    shot(ann, "people-leaderboard.png")
    ann.goto(server.url + "/player/Ann")
    ann.wait_for_selector("text=Ann")
    shot(ann, "people-profile.png")
    ann.set_viewport_size({"width": 390, "height": 844})
    shot(ann, "people-profile-phone.png")
    ann.context.close()
