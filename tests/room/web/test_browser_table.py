"""The table as a player sees it, in Debian's Chromium, on a desktop (1280×800)
and a phone (390×844): one complete deal of each game played by clicking the
bidding box and the cards, with the layout checked at every step.

- seats around the table: partner above your hand, opponents left and right
  (six players: a hexagon), the trick between them;
- nothing outside the viewport, no horizontal scroll; on a phone a 13-card
  hand in one row, the bidding box on screen, the trick and the hand at once;
- the bidding box: a grid (role grid, "Bidding box") whose disabled calls are
  exactly the calls the engine does not allow now, each with a spelled-out
  name;
- the end-of-deal panel (500: with the kitty and the discards).

Screenshots of every phase go to artifacts/screenshots/table-<case>-<size>-<phase>.png.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from browser import (
    CALL,
    OFFERED,
    PLAYABLE_CARD,
    SCREENSHOTS,
    LiveServer,
    choosing_discards,
    click,
    free_port,
    start_table,
)
from playwright.sync_api import Browser, Page

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
CASES = {
    "500-american": ("500", "american", {}),
    "500-australian": ("500", "australian", {}),
    "500-six-2v2v2": ("500", "american", {"players": "2v2v2"}),
    "500-six-3v3": ("500", "australian", {"players": "3v3"}),
    "bridge": ("bridge", None, {"scoring": "rubber"}),
    "coinche-ffb": ("coinche", "ffb_2016", {}),
}


def new_page(browser: Browser, size: str) -> Page:
    w, h = SIZES[size]
    phone = size == "phone"
    ctx = browser.new_context(viewport={"width": w, "height": h}, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def view(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            "() => state ? {...state.view, status: state.table.status, you: state.table.you, seq: state.seq} : null"
        )
        or {}
    )


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-{name}.png"))


def box(page: Page, selector: str) -> dict[str, float] | None:
    """The element's edges and centre, measured in one go (the page redraws
    its seats at every state)."""
    found = page.evaluate(
        "s => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect();"
        " return {l: r.left, t: r.top, r: r.right, b: r.bottom, x: r.left + r.width / 2, y: r.top + r.height / 2}; }",
        selector,
    )
    return None if found is None else {k: float(v) for k, v in found.items()}


def check_layout(page: Page, size: str, players: int) -> None:
    """Where things are, whatever the phase."""
    page.evaluate("() => window.scrollTo(0, 0)")
    vw, vh = SIZES[size]
    wide = page.evaluate(
        """vw => document.documentElement.scrollWidth <= vw ? [] : [...document.querySelectorAll('body *')]
             .filter(e => e.getBoundingClientRect().right > vw + 1 && getComputedStyle(e).visibility !== 'hidden')
             .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)""",
        vw,
    )
    assert page.evaluate("() => document.documentElement.scrollWidth") <= vw, f"horizontal scroll: {wide}"
    outside = page.evaluate(
        """vw => [...document.querySelectorAll('#felt *, .strip *')].filter(e => {
             const r = e.getBoundingClientRect();
             return r.width > 0 && getComputedStyle(e).visibility !== 'hidden' && (r.left < -1 || r.right > vw + 1);
           }).map(e => e.className + ' ' + (e.dataset.card || e.dataset.seat || ''))""",
        vw,
    )
    assert not outside, f"outside the viewport: {outside[:5]}"
    hand = box(page, "#mine")
    assert hand is not None
    # a dummy (an exposed hand at the top) is large enough to read, on a phone too
    small = page.evaluate(
        "() => [...document.querySelectorAll('.seat.pos-top .exposed .card')]"
        ".filter(c => c.getBoundingClientRect().width < 36).length"
    )
    assert not small, f"{small} cards of the hand at the top are too small to read"
    if players == 4:
        top, left, right = (
            box(page, ".seat.pos-top"),
            box(page, ".seat.pos-left"),
            box(page, ".seat.pos-right"),
        )
        assert top and left and right
        assert top["b"] <= hand["t"], "partner's area is above your hand"
        assert left["r"] <= right["l"] and left["x"] < top["x"] < right["x"], "opponents left and right"
        assert left["b"] <= hand["t"] + 2 and right["b"] <= hand["t"] + 2
        for cx, cy, _, _ in rects(page, "#trick .card"):
            assert left["x"] < cx < right["x"] and top["y"] < cy < hand["t"] + 4, (
                "the trick is between the seats"
            )
    else:
        pos = {
            p: box(page, f".seat.pos-{p}")
            for p in ("upper-left", "top", "upper-right", "lower-left", "lower-right")
        }
        assert all(pos.values()), pos
        ul, tp, ur, ll, lr = (
            pos[p] for p in ("upper-left", "top", "upper-right", "lower-left", "lower-right")
        )
        assert ul["x"] < tp["x"] < ur["x"] and ll["x"] < tp["x"] < lr["x"], "a hexagon: left, top, right"
        assert ul["y"] < ll["y"] and ur["y"] < lr["y"] and tp["b"] <= hand["t"], "a hexagon: upper and lower"
    if size == "phone":
        assert hand["b"] <= vh + 1, "your hand is on screen"
        tops = {round(y - h / 2) for _, y, _, h in rects(page, "#hand > .card")}
        spread = max(tops) - min(tops) if tops else 0
        assert spread <= 25, f"the hand is in one row ({tops})"  # a raised (legal) card sits a little higher
        for _, y, _, h in rects(page, "#trick .card"):
            assert y - h / 2 >= 0 and y + h / 2 <= vh, "the trick is on screen with the hand"


def rects(page: Page, selector: str) -> list[tuple[float, float, float, float]]:
    """Centre, width and height of every element matching, measured at once
    (a trick being gathered must not vanish between two measurements)."""
    found = page.evaluate(
        "s => [...document.querySelectorAll(s)].map(e => e.getBoundingClientRect())"
        ".filter(r => r.width > 0).map(r => [r.x + r.width / 2, r.y + r.height / 2, r.width, r.height])",
        selector,
    )
    return [(float(x), float(y), float(w), float(h)) for x, y, w, h in found]


def check_bidding_box(page: Page, size: str) -> None:
    """The grid's disabled calls are exactly those the engine does not allow now."""
    grid = page.get_by_role("grid", name="Bidding box")
    assert grid.count() == 1 and grid.is_visible()
    legal = set(page.evaluate("() => state.view.legal"))
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#bidbox button.call[data-call]')]"
        ".map(b => [b.dataset.call, b.disabled, b.getAttribute('aria-label')])"
    )
    on_grid = {c for c, _, _ in shown}
    assert len(on_grid) == len(shown), "each call once"
    assert {c for c, disabled, _ in shown if not disabled} == legal & on_grid
    assert {c for c, disabled, _ in shown if disabled} == on_grid - legal
    assert legal <= on_grid | set(
        page.evaluate("() => [...document.querySelectorAll('#calls button')].map(b => b.dataset.call)")
    )
    names = [n for _, _, n in shown]
    assert all((n and not n[0].isdigit()) or " " in n for n in names), (
        names
    )  # spelled out: "seven hearts", "80 spades"
    assert len(set(names)) == len(names), "every call has its own name"
    b = grid.bounding_box()
    assert b is not None
    if size == "phone":
        assert b["y"] >= 0 and b["y"] + b["height"] <= SIZES["phone"][1], "the bidding box fits on screen"
    # the box (wider than the middle on a phone) leaves every other seat's name plate in view
    covered = page.evaluate(
        """() => [...document.querySelectorAll('.seat.other .plate')].filter(p => {
             const r = p.getBoundingClientRect(), e = document.elementFromPoint(r.left + 8, r.top + r.height / 2);
             return !e || !!e.closest('#bidbox-wrap');
           }).map(p => p.closest('.seat').dataset.seat)"""
    )
    assert not covered, f"the bidding box covers the name plates of {covered}"


def play_one_deal(page: Page, name: str, size: str, players: int) -> dict[str, Any]:
    seen: set[str] = set()
    checked_box = bids = 0
    for _ in range(900):
        v = view(page)
        if v.get("results") or v.get("over"):
            break
        if v.get("status") == "playing" and v.get("to_act") == v.get("you"):
            phase = str(v["phase"]).lower()
            if phase not in seen:
                seen.add(phase)
                check_layout(page, size, players)
                shot(page, f"{name}-{phase}")
            if (
                phase in ("auction", "breach")
                and page.locator("#bidbox button.call").count()
                and checked_box < 4
            ):
                check_bidding_box(page, size)
                checked_box += 1
            before = v["seq"]
            target = page.locator(OFFERED).first
            if not target.count():
                target = page.locator(PLAYABLE_CARD).first
            if not target.count():  # the auction: bid once (so there is play), then pass
                bid = page.locator("#bidbox .brow:not(.bside) button.call:not([disabled])").first
                passing = page.locator("#bidbox button.call.pass:not([disabled])")
                target = (
                    bid
                    if bid.count() and not bids
                    else passing
                    if passing.count()
                    else page.locator(CALL).first
                )
                bids += target is bid
            if target.count():
                with contextlib.suppress(Exception):  # the table moved on
                    click(target)
                if not choosing_discards(page):  # (a discard chosen makes no new state)
                    with contextlib.suppress(Exception):
                        page.wait_for_function("s => state.seq > s", arg=before, timeout=5000)
        else:
            if v.get("phase") == "PLAY" and page.locator("#trick .card").count() >= 2 and "trick" not in seen:
                seen.add("trick")
                check_layout(page, size, players)
                shot(page, f"{name}-trick")
            page.wait_for_timeout(40)
    else:
        shot(page, f"{name}-stuck")
        raise AssertionError("the deal did not end: " + page.inner_text("#status"))
    assert checked_box, "never saw the bidding box"
    return view(page)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("case", list(CASES))
def test_a_deal_at_the_table(browser: Browser, server: LiveServer, case: str, size: str) -> None:
    game, preset, options = CASES[case]
    players = 6 if options.get("players", "2v2") != "2v2" else 4
    page = new_page(browser, size)
    name = f"{case}-{size}"
    start_table(page, server, game, preset, options)
    shot(page, f"{name}-waiting")
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_function("() => state && state.table.status === 'playing'")
    check_layout(page, size, players)
    v = play_one_deal(page, name, size, players)
    # the end of the deal: the panel with the contract, the points and (500) the kitty
    page.wait_for_selector("#panel:not([hidden])", timeout=10_000)
    result = v["results"][0]
    panel = page.locator("#panel")
    assert panel.locator(".deal-score tr").count() >= 3
    if game == "bridge" and result.get("contract"):  # by how much, in words
        level, need = int(result["contract"][0]), int(result["contract"][0]) + 6
        over = result["tricks"] - need
        words = (
            "made with an overtrick"
            if over == 1
            else f"made with {over} overtricks"
            if over > 1
            else "made exactly"
            if over == 0
            else f"down {-over}"
        )
        assert f"by {result['declarer']}, {words}" in panel.inner_text(), (level, panel.inner_text())
    if game == "500" and not result.get("thrown_in"):
        assert panel.locator(".kitty-row .card").count() == len(result["kitty"]) + len(result["discards"])
        labels = panel.locator(".kitty-row .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        assert labels == result["kitty"] + result["discards"]
    check_layout(page, size, players)
    shot(page, f"{name}-deal-over")
    # the next deal wants this player's call or card while the panel is open
    # (their clock runs): it shrinks to a line at the top, off the controls
    page.wait_for_function(
        "() => state.view.deal_number === 2 && state.table.status === 'playing'"
        " && state.view.to_act === state.table.you",
        timeout=20_000,
    )
    page.wait_for_selector("#panel.compact:not([hidden])")
    assert page.locator("#panel .deal-score").is_hidden()
    controls = page.locator(f"{CALL}, {PLAYABLE_CARD}")
    boxes = [controls.nth(i).bounding_box() for i in range(controls.count())]
    assert any(boxes)
    for i, box in enumerate(boxes):
        if box is None:  # (a menu closed: 500's misère calls)
            continue
        on_top = page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y); return !!e && !e.closest('#panel'); }",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top, f"control {i} is under the deal panel"
    shot(page, f"{name}-deal-over-your-turn")
    page.get_by_role("button", name="Continue").click()
    assert page.is_hidden("#panel")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_spectator_sees_the_table_from_south_and_no_hidden_card(
    browser: Browser, server: LiveServer
) -> None:
    page = new_page(browser, "desktop")
    tid = start_table(page, server, "bridge", None, {})
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_function("() => state && state.table.status === 'playing'")
    watcher = new_page(browser, "phone")
    watcher.on("dialog", lambda d: d.dismiss())
    watcher.goto(f"{server.url}/table/{tid}")
    watcher.wait_for_selector("#me:has-text('Watching')", state="attached")
    assert watcher.get_attribute("#mine", "data-seat") == "S"
    assert watcher.locator(".seat.pos-top").get_attribute("data-seat") == "N"
    assert watcher.locator(".seat.pos-left").get_attribute("data-seat") == "W"
    assert watcher.locator(".seat.pos-right").get_attribute("data-seat") == "E"
    assert watcher.locator("#hand .card:not(.back)").count() == 0  # South's cards face down
    assert watcher.locator("#bidbox button").count() == 0
    check_layout(watcher, "phone", 4)
    shot(watcher, "spectator-phone")
    page.context.close()
    watcher.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_watchers_deal_result_shrinks_once_the_next_deal_is_under_way(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    """Nobody asks the reader to act (a spectator, a player away or not
    first to act): the last deal's result opens in full as the deal ends,
    then shrinks to a line at the top once someone calls in the next deal,
    so the new deal is seen, not the old result over it."""
    server = LiveServer(f"sqlite:///{tmp_path / 'room.db'}", free_port(), bot_delay=0.15)
    server.start()
    try:
        page = new_page(browser, size)
        page.goto(server.url + "/#join")
        page.evaluate(
            "() => fetch('/api/guest', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({name: 'Ann'})})"
        )
        table = page.evaluate(
            "() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({game: 'coinche'})}).then(r => r.json())"
        )
        page.goto(f"{server.url}/table/{table['id']}")
        page.get_by_role("button", name="Fill empty seats with bots").click()
        page.wait_for_function("() => state && (state.view.results || []).length === 1", timeout=60_000)
        underway = (
            "() => (state.view.auction || []).length + (state.view.tricks || []).length"
            " + (state.view.trick || []).length > 0"
        )
        if not page.evaluate(underway):  # (the bots' pause before the next deal's first call)
            page.wait_for_selector("#panel:not([hidden]):not(.compact)")
            assert page.locator("#panel .deal-score").is_visible()
            shot(page, f"watcher-deal-over-{size}")
        page.wait_for_function(underway, timeout=20_000)
        page.wait_for_selector("#panel.compact:not([hidden])")
        assert page.locator("#panel .deal-score").is_hidden()
        # nothing said in the last deal (a belote, a meld) is shown at a seat in this one
        said = page.locator(".bubble").all_inner_texts()
        assert not any(b.startswith(("Belote", "Rebelote", "Meld")) for b in said), said
        bidding = page.locator("#auction")
        assert (
            bidding.count() == 0
            or not bidding.is_visible()
            or page.evaluate(
                "() => { const r = document.querySelector('#panel').getBoundingClientRect();"
                " const a = document.querySelector('#auction').getBoundingClientRect();"
                " return r.bottom <= a.top || r.top >= a.bottom || r.right <= a.left || r.left >= a.right; }"
            )
        ), "the shrunk result covers the auction"
        shot(page, f"watcher-next-deal-{size}")
        page.locator("#panel h2").click()  # a tap opens it again, and it stays open
        page.wait_for_selector("#panel:not(.compact)")
        page.wait_for_function("s => state.seq > s + 1", arg=page.evaluate("() => state.seq"), timeout=20_000)
        assert not page.locator("#panel").evaluate("p => p.classList.contains('compact')")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
    finally:
        server.stop()


def test_confirm_card_play_and_drag_up(browser: Browser, server: LiveServer) -> None:
    """On a phone a tap raises the card and a second tap plays it; the choice
    is stored in the browser and can be switched off in the table's menu."""
    page = new_page(browser, "phone")
    start_table(page, server, "coinche", None, {})
    page.get_by_role("button", name="Fill empty seats with bots").click()
    for _ in range(300):
        v = view(page)
        if v.get("phase") == "PLAY" and v.get("to_act") == v.get("you"):
            break
        if v.get("to_act") == v.get("you") and v.get("phase") == "AUCTION":
            with contextlib.suppress(Exception):
                page.locator("#bidbox button.call:not([disabled])").first.click(timeout=2000)
        page.wait_for_timeout(50)
    else:
        raise AssertionError("never reached the play")
    seq = view(page)["seq"]
    card = page.locator(PLAYABLE_CARD).first
    code = card.get_attribute("data-card")
    card.click(position={"x": 7, "y": 7})
    page.wait_for_selector(f"#hand button.card.armed[data-card='{code}']")
    assert view(page)["seq"] == seq, "one tap only raises the card"
    page.locator(f"#hand button.card[data-card='{code}']").click(position={"x": 7, "y": 7})
    page.wait_for_function("s => state.seq > s", arg=seq)
    # switch it off: one tap plays
    page.click("#menu-button")
    page.locator("#table-menu [data-pref=confirm_card]").uncheck()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('trumps.prefs')).confirm_card") is False
