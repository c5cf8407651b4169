"""The joker's called suit in no trumps (issue 30): led in 500 no trumps, the
joker calls the suit the others must follow, and everyone at the table sees
which: a suit badge on the card on the felt, the status line ("Joker led,
calling ♥ hearts"), the card's spoken label, and "Last trick" once the trick
is over; in every language.

The table is stored as dealt (seed 3: South bids 7NT, everyone passes,
South exchanges the kitty and leads the red joker calling hearts) and the
room's bots are slow (a minute a move), so the trick stays on the felt while
the page is looked at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import SCREENSHOTS, LiveServer, free_port
from playwright.sync_api import Browser, Page

import trumps
from trumps.room.storage.store import Store

SEED = 3
LEAD = "RJ:H"


def _actions() -> list[tuple[int, str]]:
    """South's 7NT, three passes, South's kitty exchange, the joker lead."""
    m = trumps.new_game("500", seed=SEED)
    out: list[tuple[int, str]] = []

    def apply(action: str) -> None:
        seat = m.to_act_index
        assert seat is not None
        m.apply(action)
        out.append((seat, action))

    assert m.to_act_index == 2 and "7NT" in map(str, m.legal_actions())
    apply("7NT")
    while m.view(None)["phase"] == "AUCTION":
        apply("P")
    while m.view(None)["phase"] != "PLAY":
        apply(str(m.legal_actions()[-1]))
    assert LEAD in map(str, m.legal_actions())
    apply(LEAD)
    return out


@pytest.fixture
def joker_table(tmp_path: Path) -> Iterator[tuple[LiveServer, str]]:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    store = Store(url)
    host = store.create_player("host")
    tid = store.create_table("500", "american", {}, SEED, host, 4, settings={})
    for seat in range(4):
        store.set_seat(tid, seat, None, "rules")
    store.set_status(tid, "playing", 1_800_000_000.0)
    for seq, (seat, action) in enumerate(_actions(), start=1):
        store.append_action(tid, seq, seat, action, 1_800_000_000.0 + seq, True)
    store.close()
    server = LiveServer(url, free_port(), bot_delay=60.0)
    server.start()
    yield server, tid
    server.stop()


def _watch(browser: Browser, server: LiveServer, tid: str, lang: str, size: tuple[int, int]) -> Page:
    phone = size[0] < 500
    locale = {"en": "en-GB", "de": "de-DE", "fr": "fr-FR"}[lang]  # the page's language: the browser's
    ctx = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone, locale=locale
    )
    page = ctx.new_page()
    page.goto(f"{server.url}/table/{tid}")
    page.wait_for_function("() => state && state.view.trick.length === 1")
    return page


@pytest.mark.parametrize(
    ("lang", "size", "status", "label"),
    [
        ("en", (1280, 800), "Joker led, calling ♥ hearts", "S: red joker, leading hearts"),
        ("de", (390, 844), "Joker ausgespielt, Farbe ♥", "Herz"),
        ("fr", (1280, 800), "Joker en entame, couleur demandée : ♥", "cœur"),
    ],
)
def test_everyone_sees_the_suit_the_joker_calls(
    browser: Browser,
    joker_table: tuple[LiveServer, str],
    lang: str,
    size: tuple[int, int],
    status: str,
    label: str,
) -> None:
    server, tid = joker_table
    page = _watch(browser, server, tid, lang, size)
    card = page.locator("#trick .card[data-card='RJ']")
    assert card.get_attribute("data-calls") == "H"
    assert card.locator("svg .nominated").count() == 1  # the badge on the card
    assert label in (card.get_attribute("aria-label") or "")
    assert status in page.inner_text("#status")
    badge = card.locator("svg .nominated").bounding_box()
    assert badge is not None and badge["width"] > 4  # drawn, not hidden
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"joker-{lang}-{size[0]}.png"))
    page.context.close()


def test_the_view_says_which_suit_the_joker_called() -> None:
    """What the page reads: the trick's led suit, with no trump suit."""
    m = trumps.new_game("500", seed=SEED)
    for _seat, action in _actions():
        m.apply(action)
    v = m.view(None)
    assert v["trick"] == [{"seat": "S", "card": "RJ"}] and v["led_suit"] == "H" and v["trump"] is None
