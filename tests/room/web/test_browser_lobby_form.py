"""The lobby's create-table form and list in Chromium: house rules grouped as
the seed room groups them, each with its label, its values in words (the
default marked) and its help; a preset shows what it changes and sets the
controls; the words follow the variant (Misère in Australian 500, Nullo and
widow in American); only the user's changes are sent, as option keys and
engine values; the lobby list gives each table's rules in words with its
timers, seats with names, waiting tables first; nothing scrolls sideways on
a phone.  Screenshots: ``artifacts/screenshots/lobby-form-*.png``."""

from __future__ import annotations

import re

from browser import SCREENSHOTS, LiveServer, enter
from playwright.sync_api import Browser, Page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert width <= 0, f"the page scrolls sideways by {width}px"


def australian_form(page: Page) -> None:
    page.wait_for_selector("#game option[value='500']", state="attached")
    page.select_option("#game", "500")
    page.select_option("#preset", "australian")
    page.click("#rules-box summary")
    page.wait_for_selector("#options fieldset.group legend")


def field_label(page: Page, name: str) -> str:
    return page.inner_text(f"#options [data-name={name}] .field-label")


def test_the_form_words_the_rules_and_the_list_shows_them(browser: Browser, server: LiveServer) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    enter(page, server, "Ann")
    australian_form(page)
    # the preset: one line, and what it changes
    info = page.inner_text("#preset-info")
    assert "Bidding goes round" in info and "Changes from American rules" in info
    chips = page.locator("#preset-info .changes.preset li").all_inner_texts()
    assert chips == ["Variation: Australian", "Must bid to win: yes", "Misère: after a 7 bid"]
    # grouped as the seed room groups them, worded for Australian 500
    legends = page.locator("#options fieldset.group:not(.advanced) > legend").all_inner_texts()
    assert legends == ["The game", "Misère"]
    assert field_label(page, "nullo_points") == "Misère points"
    assert field_label(page, "kitty_size") == "Kitty size"
    points = page.locator("#options select[name=nullo_points]")
    assert points.locator("option:checked").inner_text() == "±250 (default)"
    assert (
        page.locator("#options select[name=nullo_mode] option:checked").inner_text()
        == "after a 7 bid (default)"
    )
    assert (
        page.locator("#options select[name=variation] option:checked").inner_text() == "Australian (default)"
    )
    assert "7NT beats 210" in page.inner_text("#options [data-name=nullo_points] small.help")
    assert page.is_visible("#options [data-name=raise_own_bid]")
    assert page.is_hidden("#options [data-name=inkle_seats]")  # an American rule
    # the table settings: labels and words from the server, grouped as Limits
    assert "Limits" in page.locator("#settings fieldset.group > legend").all_inner_texts()
    assert page.locator("#create-form [data-setting][name=bid_time] option").nth(2).inner_text() == "15 s"
    assert page.inner_text("#create-form [data-name=private] .field-label") == "Must be invited"
    page.locator("#create-box").scroll_into_view_if_needed()
    shot(page, "lobby-form-desktop.png")
    no_sideways_scroll(page)

    # American words for the American variation
    page.select_option("#options select[name=variation]", "american")
    assert field_label(page, "nullo_points") == "Nullo points"
    assert field_label(page, "kitty_size") == "Widow size"
    assert page.locator("#options fieldset.group > legend").nth(1).inner_text() == "Nullo"
    assert page.is_hidden("#options [data-name=raise_own_bid]")
    page.select_option("#options select[name=variation]", "australian")
    assert page.inner_text("#rules-count") == ""  # back to the preset's own value: no change
    # one house rule changed, and the timers
    points.select_option("230")
    assert page.inner_text("#rules-count") == "1 changed"
    assert page.locator("#preset-info .changes.mine li").all_inner_texts() == ["Misère points: ±230"]
    for name in ("bid_time", "play_time"):
        page.select_option(f"#create-form [data-setting][name={name}]", "15")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    tid = page.url.rsplit("/", 1)[1]
    table = page.request.get(f"{server.url}/api/tables/{tid}").json()
    assert table["preset"] == "australian"
    assert table["options"]["nullo_points"] == 230 and table["options"]["nullo_mode"] == "after_7"
    assert table["rules_text"] == "Australian · 2v2 · misère 230"

    # a second table that is playing: listed after the one waiting for players
    r = page.request.post(
        f"{server.url}/api/tables", data={"game": "bridge", "options": {"scoring": "rubber"}}
    )
    assert r.status == 201, r.text()
    playing = r.json()["id"]
    page.goto(f"{server.url}/table/{playing}")
    page.get_by_role("button", name="Sit here").nth(2).click()
    page.wait_for_selector("#me:has-text('You sit')")
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_function(
        f"async () => (await (await fetch('/api/tables/{playing}')).json()).status === 'playing'"
    )
    page.goto(server.url + "/#join")
    rows = page.locator("#tables tr")
    in_order = (
        f"() => !!document.querySelector(\"#tables tr:nth-child(1) a[href='/table/{tid}']\")"
        f" && !!document.querySelector(\"#tables tr:nth-child(2) a[href='/table/{playing}']\")"
    )
    try:
        page.wait_for_function(in_order, timeout=15_000)
    except Exception:
        raise AssertionError(f"not waiting first: {rows.all_inner_texts()}") from None
    first, second = rows.nth(0), rows.nth(1)
    assert first.locator(f"a[href='/table/{tid}']").count() == 1
    assert second.locator(f"a[href='/table/{playing}']").count() == 1
    text = " ".join(first.inner_text().split())
    assert "Australian · 2v2 · misère 230 · 15 s" in text, text
    assert "N open" in text and "Waiting · 4 free" in text, text
    other = " ".join(second.inner_text().split())
    assert "Contract Bridge" in other and "Rubber" in other and "Playing" in other, other
    assert "Ann (guest)" in other and re.search(r"[NESW] bot \(\w+\)", other), other
    page.set_viewport_size(PHONE)
    no_sideways_scroll(page)
    shot(page, "lobby-list-phone.png")
    page.context.close()


def test_the_form_on_a_phone(browser: Browser, server: LiveServer) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    enter(page, server, "Bob")
    australian_form(page)
    assert page.is_visible("#options [data-name=nullo_points] small.help")
    no_sideways_scroll(page)
    page.locator("#create-box").scroll_into_view_if_needed()
    shot(page, "lobby-form-phone.png")
    page.context.close()


def test_a_bad_guest_name_is_said_under_the_field(browser: Browser, server: LiveServer) -> None:
    """A name of spaces passes the browser's own check: the server's reason
    shows under the field (it was swallowed: nothing happened), and nothing
    changes; then a good name enters the room."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/#join")
    page.fill("#name", "   ")
    page.click("#name-form button")
    page.wait_for_selector("#name-error:has-text('must not be blank')")
    assert page.is_visible("#name-box")
    page.fill("#name", "Ann\u202e")
    page.click("#name-form button")
    page.wait_for_selector("#name-error:has-text('invisible formatting')")
    page.fill("#name", "Ann")
    page.click("#name-form button")
    page.wait_for_selector("#name-box", state="hidden")
    assert page.inner_text("#name-error") == ""
    assert not errors, errors
    page.close()
