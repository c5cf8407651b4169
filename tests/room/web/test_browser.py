"""End-to-end: a person in Chromium creates a table, fills it with bots and
plays by clicking; reloads; a spectator sees no hidden card; the server
restarts mid-deal and the game goes on.  Screenshots of every game's table
are saved to ``artifacts/screenshots/``."""

from __future__ import annotations

import re

import pytest
from browser import SCREENSHOTS, LiveServer, enter, play_until
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import trumps

DEAL = re.compile(r"Deal (\d+)")


def create_and_sit(page: Page, server: LiveServer, game: str) -> str:
    enter(page, server, "Ann")
    page.select_option("#game", game)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    page.locator(".seat[data-seat='S']").get_by_role("button", name="Sit here").click()
    page.wait_for_selector("#me:has-text('You sit')")
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_selector("#status:has-text('Deal 1')")
    return page.url


def deal_number_of(status: str) -> int:
    m = DEAL.search(status)
    return int(m.group(1)) if m else 0


def deal_number(page: Page) -> int:
    return deal_number_of(page.inner_text("#status"))


@pytest.mark.parametrize("game", trumps.games())
def test_play_a_complete_deal_by_clicking(browser: Browser, server: LiveServer, game: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    create_and_sit(page, server, game)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{game}-auction.png"))
    play_until(
        page,
        lambda: (
            page.locator("#trick .card").count() > 0
            or "play" in page.inner_text("#status")
            or "Game over" in page.inner_text("#status")
        ),  # a duplicate board may be passed out
    )
    page.screenshot(path=str(SCREENSHOTS / f"{game}-play.png"))
    # reload mid-deal: same seat, same position
    before = page.inner_text("#status")
    page.reload()
    page.wait_for_selector("#me:has-text('You sit S')")
    after = page.inner_text("#status")
    # the same deal, or (when S was dummy and bots finished it) the game's end
    if "Game over" not in before:
        assert deal_number(page) == deal_number_of(before) or "Game over" in after
    play_until(page, lambda: deal_number(page) >= 2 or "Game over" in page.inner_text("#status"))
    page.screenshot(path=str(SCREENSHOTS / f"{game}-after-deal.png"))
    assert page.locator("#score tr").count() >= 3  # header, one deal, total
    page.close()


def test_spectator_sees_no_hidden_card_and_restart_continues(browser: Browser, server: LiveServer) -> None:
    player = browser.new_page()
    url = create_and_sit(player, server, "500")
    play_until(player, lambda: "play" in player.inner_text("#status"))
    watcher_ctx = browser.new_context()
    watcher = watcher_ctx.new_page()
    watcher.on("dialog", lambda d: d.dismiss())
    watcher.goto(url)
    watcher.wait_for_selector("#me:has-text('Watching')")
    # every hidden hand drawn as backs and a count (a misère partner who sits out has none)
    # (a misère contract shows as MIS or in the variant's words, nullo / misère: its
    # partner sits out or shows their hand, so fewer hands are hidden)
    misere = "/MIS|nullo|mis[eè]re/i.test(document.querySelector('#status').innerText)"
    try:
        watcher.wait_for_function(f"() => document.querySelectorAll('.backs .count').length >= 3 || {misere}")
    except PlaywrightTimeout as exc:  # (seen once in CI, not reproduced: say what the page showed)
        seen = watcher.evaluate(
            "() => [document.querySelector('#status').innerText, document.querySelectorAll('.backs .count').length,"
            " typeof state === 'undefined' ? null : JSON.stringify({seq: state?.seq, status: state?.table?.status,"
            " phase: state?.view?.phase, over: state?.view?.over})]"
        )
        raise AssertionError(
            f"the watcher's page: {seen}; the player's status: {player.inner_text('#status')}"
        ) from exc
    assert watcher.locator("#hand .card:not(.back)").count() == 0
    shown = watcher.locator(".seat.other .card:not(.back)").count()
    on_table = watcher.locator("#trick .card").count()
    exposed = watcher.locator(".backs .count").count()
    is_misere = bool(watcher.evaluate(f"() => {misere}"))
    assert exposed >= 3 or is_misere  # hidden hands: backs and a count only
    assert shown == 0 or is_misere
    assert on_table <= 6
    # restart the server mid-deal: both pages reconnect by themselves
    status = player.inner_text("#status")
    server.restart()
    player.wait_for_timeout(2500)
    assert deal_number(player) == deal_number_of(status)
    play_until(player, lambda: deal_number(player) >= 2 or "Game over" in player.inner_text("#status"))
    watcher_ctx.close()
    player.close()


def test_playable_by_keyboard_alone(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page()
    create_and_sit(page, server, "500")
    start = most_calls = page.locator("#auction span").count()
    # Done once a card left South's hand by keyboard: the hand is a lasting
    # state, where a trick on the felt can be gone before a poll sees it (bots
    # play at once here, and the last trick of a deal gives way to the next deal).
    hand_at_my_play: int | None = None
    for _ in range(300):
        status = page.inner_text("#status")
        hand = page.locator("#hand .card").count()
        most_calls = max(most_calls, page.locator("#auction span").count())
        if "Game over" in status or (hand_at_my_play is not None and hand < hand_at_my_play):
            break
        if "your turn" in status:
            if re.search(r"\bplay\b", status):
                hand_at_my_play = hand
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        page.wait_for_timeout(40)
    else:
        raise AssertionError("keyboard play got stuck: " + page.inner_text("#status"))
    assert most_calls > start
    page.close()


def test_arrow_keys_move_only_between_calls_on_screen(browser: Browser, server: LiveServer) -> None:
    """In 500 the Misère menu's calls are in the page but closed: Left from
    the first call went onto one of them and the focus vanished (Left never
    moved again), so Pass was some 25 presses away."""
    page = browser.new_page()
    create_and_sit(page, server, "500")
    page.wait_for_function(
        "() => state.view.to_act === state.table.you && state.view.phase === 'AUCTION'", timeout=30_000
    )
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.matches('#bidbox button.call')"
    )
    seen = set()
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
        focused = page.evaluate(
            "() => { const e = document.activeElement; return e && e.getClientRects().length > 0 ? e.textContent : null; }"
        )
        assert focused, "the focus went to a call not on screen"
        seen.add(focused)
    assert len(seen) == 4  # each press moved
    page.close()
