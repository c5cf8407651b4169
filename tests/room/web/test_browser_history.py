"""End-to-end history in Chromium: a host fills a table with bots, the game
finishes, the host opens its replay from the game list, steps through it to
the end with the buttons and the keyboard (every hand shown), and downloads
the PBN export, which loads back with the project's PBN reader.  Screenshots
of the replay (desktop and phone widths) go to ``artifacts/screenshots/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser import SCREENSHOTS, LiveServer, enter
from playwright.sync_api import Browser, Page

import trumps
from trumps.bridge.pbn import read_pbn, records_from_game

STEP = re.compile(r"Step (\d+) of (\d+)")


def bot_game(page: Page, server: LiveServer, game: str, options: dict[str, str] | None = None) -> str:
    """Create a table of ``game`` in the lobby, fill every seat with bots
    (the host only watches) and wait for the end; returns the table id."""
    enter(page, server, "Ann")
    page.select_option("#game", game)
    for name, value in (options or {}).items():
        page.select_option(f"#options select[name={name}]", value)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_selector("#status:has-text('Game over')", timeout=60_000)
    return page.url.rsplit("/", 1)[1]


def step(page: Page) -> tuple[int, int]:
    m = STEP.search(page.inner_text("#step-label"))
    assert m, page.inner_text("#step-label")
    return int(m.group(1)), int(m.group(2))


def test_replay_steps_to_the_end_and_pbn_loads_back(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    tid = bot_game(page, server, "bridge")

    # the game list links to the replay
    page.goto(server.url + "/games")
    row = page.locator(f"tr[data-table='{tid}']")
    row.wait_for()
    assert "finished" in row.inner_text() and "host" in row.inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "games-list.png"))
    row.get_by_role("link", name="Replay").click()
    page.wait_for_url(f"**/replay/{tid}*")
    page.wait_for_selector("#step-label:has-text('Step 0 of')")
    data: dict[str, Any] = page.request.get(f"{server.url}/api/tables/{tid}/replay").json()
    last = len(data["steps"]) - 1
    assert step(page) == (0, last)

    # step 0: the deal as dealt, all four hands face up, nothing played
    assert page.locator(".rhand").count() == 4
    for seat in "NESW":
        hand = page.locator(f".rhand[data-seat={seat}] .card")
        assert hand.count() == 13
        assert page.locator(f".rhand[data-seat={seat}] .card.gone").count() == 0
        shown = [hand.nth(i).get_attribute("data-card") for i in range(13)]
        assert shown == data["deals"][0]["hands"][seat]
    assert page.is_disabled("#prev") and page.is_disabled("#first")

    # the buttons, then the keyboard, all the way to the end
    page.click("#next")
    assert step(page)[0] == 1
    first = data["steps"][1]
    assert page.inner_text("#step-text").startswith(first["seat"])
    page.click("#prev")
    assert step(page)[0] == 0
    page.focus("#next")  # keys go to the page, not to the slider
    played = 0
    for n in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        assert step(page)[0] == n
        if data["steps"][n]["kind"] == "card":
            played += 1
            # every card played so far is greyed in its hand
            assert page.locator(".rhand .card.gone").count() == played
            if played == 6:
                page.screenshot(path=str(SCREENSHOTS / "replay-bridge-play.png"))
    assert step(page) == (last, last)
    assert page.is_disabled("#next") and page.is_disabled("#last")
    assert "Game over" in page.inner_text("#status")
    passed_out = data["sheet"]["results"][0]["passed_out"]
    assert played == (0 if passed_out else 52)
    # after the game: every hand shown (all cards greyed as played), the sheet and all deals
    assert page.locator(".rhand .card").count() == 52
    assert page.locator("#score tr").count() == 3  # header, the board, the total
    assert page.locator("#deals .deal dd").count() == 4
    page.screenshot(path=str(SCREENSHOTS / "replay-bridge-end.png"), full_page=True)
    page.keyboard.press("Home")
    assert step(page)[0] == 0
    page.keyboard.press("End")
    assert step(page)[0] == last

    # the PBN download loads back with the project's reader: same deal, auction, play, result
    with page.expect_download() as info:
        page.get_by_role("link", name="PBN (bridge)").click()
    download = info.value
    assert download.suggested_filename == f"trumps-bridge-{tid}.pbn"
    text = Path(download.path()).read_text(encoding="utf-8")
    records = read_pbn(text)
    record = page.request.get(f"{server.url}/api/tables/{tid}/record").json()
    match = trumps.load_game(record)
    assert match.scores == data["sheet"]["scores"]
    expected = records_from_game(match)
    assert len(records) == len(expected) == 1
    got, want = records[0], expected[0]
    assert got.hands == want.hands and got.dealer == want.dealer
    assert got.auction == want.auction and got.play == want.play
    assert (got.contract, got.declarer, got.result, got.passed_out) == (
        want.contract,
        want.declarer,
        want.result,
        want.passed_out,
    )
    assert got.tags["South"] == "bot (easy)"  # the table page seats easy (rule-based) bots
    page.close()


def test_six_hands_at_phone_width(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    enter(page, server, "Bea")
    r = page.request.post(f"{server.url}/api/tables", data={"game": "500", "options": {"players": "3v3"}})
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    # before the game: the replay page says why there is nothing to see
    page.goto(f"{server.url}/replay/{tid}")
    page.wait_for_selector("#error:has-text('has not started')")
    assert page.locator(".rhand").count() == 0
    page.goto(f"{server.url}/table/{tid}")
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_selector("#status:has-text('Game over')", timeout=60_000)

    data: dict[str, Any] = page.request.get(f"{server.url}/api/tables/{tid}/replay").json()
    page.goto(f"{server.url}/replay/{tid}")
    page.wait_for_selector("#step-label:has-text('Step 0 of')")
    assert page.locator(".replay-table.six .rhand").count() == 6
    assert page.locator(".rhand .card").count() == 60  # ten cards each; the kitty is listed with the deal
    assert "kitty" in page.inner_text("#deals")
    # the first discard from the kitty: the contractor holds the kitty, one card set aside
    discard = next((s for s in data["steps"] if s["phase"] == "KITTY"), None)
    if discard is not None:
        page.goto(f"{server.url}/replay/{tid}#step={discard['index']}")
        page.reload()
        page.wait_for_selector(f"#step-label:has-text('Step {discard['index']} of')")
        hand = page.locator(f".rhand[data-seat='{discard['seat']}']")
        assert hand.locator(".card.taken").count() >= 1
        assert "discards" in page.inner_text("#step-text")
    page.keyboard.press("End")
    assert "Game over" in page.inner_text("#status")
    # no sideways scrolling on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.keyboard.press("Home")
    if len(data["deals"]) > 1:
        page.keyboard.press("PageDown")  # the start of deal 2
        assert step(page)[0] == data["deals"][1]["first_step"]
    page.screenshot(path=str(SCREENSHOTS / "replay-500-six-phone.png"), full_page=True)
    page.close()
