"""The post-game analysis in Chromium: bots play a bridge board, the replay's
"Analysis" button marks every card played with its double-dummy cost (a red
"−1" badge for a card that lost a trick, "✓" for a best card), the step
description gives the cost and the best cards, and the side panel sums the
deal per seat.  Screenshot: ``artifacts/screenshots/replay-analysis.png``."""

from __future__ import annotations

import re
from typing import Any

from browser import SCREENSHOTS, LiveServer
from playwright.sync_api import Browser, Page

SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def short(card: str) -> str:
    return card[:-1] + SUIT[card[-1]]


def played_board(page: Page, server: LiveServer) -> str:
    """A finished bridge board played by bots (seeds tried until the board
    is not passed out); returns the table id."""
    page.goto(server.url + "/#join")
    page.fill("#name", "Ann")
    page.click("#name-form button")
    page.wait_for_selector("#name-box", state="hidden")
    for _ in range(10):
        r = page.request.post(f"{server.url}/api/tables", data={"game": "bridge", "options": {}})
        assert r.status == 201, r.text()
        tid: str = r.json()["id"]
        page.goto(f"{server.url}/table/{tid}")
        page.get_by_role("button", name="Fill empty seats with bots").click()
        page.wait_for_selector("#status:has-text('Game over')", timeout=60_000)
        record = page.request.get(f"{server.url}/api/tables/{tid}/record").json()
        if not record["results"][0]["passed_out"]:
            return tid
    raise AssertionError("every board was passed out")


def test_analysis_marks_every_card_played(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    tid = played_board(page, server)
    page.goto(f"{server.url}/replay/{tid}")
    page.wait_for_selector("#step-label:has-text('Step 0 of')")
    data: dict[str, Any] = page.request.get(f"{server.url}/api/tables/{tid}/replay").json()
    review: dict[str, Any] = page.request.get(f"{server.url}/api/tables/{tid}/review?deal=1").json()
    cards = review["cards"]
    assert len(cards) == 52 and review["complete"]
    assert page.locator(".cost-badge").count() == 0 and page.is_hidden("#analysis-panel")

    # switch the analysis on, at the end of the board: every card played has its badge
    page.keyboard.press("End")
    page.click("#analysis")
    assert page.get_attribute("#analysis", "aria-pressed") == "true"
    page.wait_for_selector("#analysis-summary table")
    badges = page.locator(".rhand .cost-badge")
    assert badges.count() == 52
    costly = [c for c in cards if c["cost"]]
    assert page.locator(".rhand .cost-badge.bad").count() == len(costly)
    for c in cards:
        badge = page.locator(f".rhand[data-seat='{c['seat']}'] .card[data-card='{c['card']}'] .cost-badge")
        assert badge.inner_text() == (f"−{c['cost']:g}" if c["cost"] else "✓")

    # the summary: each seat's cards, mistakes and cost (a dummy's cards count for its declarer)
    rows = page.locator("#analysis-summary tr[data-seat]")
    for i in range(rows.count()):
        row = rows.nth(i)
        seat = row.get_attribute("data-seat")
        assert seat is not None
        t = review["totals"][seat]
        cells = [row.locator("td").nth(k).inner_text() for k in range(4)]
        assert cells[1:3] == [str(t["cards"]), str(t["mistakes"])]
        assert cells[3] == (
            "0" if not t["cost"] else f"−{t['cost']:g} trick" + ("" if t["cost"] == 1 else "s")
        )
    assert sum(review["totals"][s]["cards"] for s in "NESW") == 52

    # a card's own step says what it cost and what was best
    step_of = {s["action_index"] - 1: s["index"] for s in data["steps"] if s["kind"] == "card"}
    shown = costly[0] if costly else cards[5]
    page.goto(f"{server.url}/replay/{tid}#step={step_of[shown['index']]}&analysis")
    page.reload()
    page.wait_for_selector(".step-analysis")
    said = page.inner_text(".step-analysis")
    if shown["cost"]:
        assert said.startswith(f"✗ Cost {shown['cost']:g} trick")
        assert "best: " + ", ".join(short(b) for b in shown["best"]) in said
        trick_badge = page.locator(f".rtrick .card[data-card='{shown['card']}'] .cost-badge.bad")
        assert trick_badge.inner_text() == f"−{shown['cost']:g}"
    else:
        assert said.startswith("✓")
    # only the cards played so far are marked
    assert page.locator(".rhand .cost-badge").count() == sum(1 for c in cards if c["index"] <= shown["index"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "replay-analysis.png"), full_page=True)

    # off again: no marks
    page.click("#analysis")
    assert page.locator(".cost-badge").count() == 0 and page.is_hidden("#analysis-panel")
    assert not re.search("Cost|best card", page.inner_text("#step-text"))
    page.close()
