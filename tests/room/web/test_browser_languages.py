"""The room in German and French, in Chromium: the header's language
chooser, a browser that asks for French in Accept-Language, a whole deal
played in each language (the cards printed as German and French decks
print them), preset chat between a German and a French player, and a
pseudo-language scan that fails on any visible English text the catalogue
does not know.  Screenshots (desktop and phone) in artifacts/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser import CALL, PLAYABLE_CARD, SCREENSHOTS, LiveServer, play_until
from playwright.sync_api import Browser, Page

from trumps.i18n import translator
from trumps.room.tables.settings import PRESET_PHRASES

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


def new_person(
    browser: Browser,
    server: LiveServer,
    name: str,
    *,
    locale: str = "en-US",
    viewport: dict[str, int] = DESKTOP,
    lang_cookie: str | None = None,
) -> Page:
    ctx = browser.new_context(locale=locale, viewport=viewport)
    if lang_cookie:
        ctx.add_cookies([{"name": "trumps_lang", "value": lang_cookie, "url": server.url}])
    page = ctx.new_page()
    page.goto(server.url + "/#join")
    page.fill("#name", name)
    page.click("#name-form button")
    page.wait_for_selector("#name-box", state="hidden")
    return page


def js(page: Page, expr: str) -> Any:
    return page.evaluate(f"() => {expr}")


def create_table(page: Page, game: str, settings: dict[str, Any] | None = None) -> str:
    page.select_option("#game", game)
    for name, value in (settings or {}).items():
        page.locator(f"#create-form [data-setting][name={name}]").select_option(str(value))
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    page.wait_for_function("() => typeof state !== 'undefined' && state !== null")
    return page.url.rsplit("/", 1)[1]


def sit(page: Page, seat: str) -> None:
    sit_here = translator(js(page, "I18n.lang")).gettext("Sit here")
    page.locator(f".seat[data-seat='{seat}']").get_by_role("button", name=sit_here).click()
    page.wait_for_function(f"() => state && state.table.you === '{seat}'")


def sit_and_fill(page: Page, seat: str = "S") -> None:
    sit(page, seat)
    fill = translator(js(page, "I18n.lang")).gettext("Fill empty seats with bots")
    page.get_by_role("button", name=fill).click()
    page.wait_for_function("() => state && state.table.status === 'playing'")


def play_deals(page: Page, deals: int) -> None:
    """Click a legal card, else an offered call, until ``deals`` deals are over."""
    play_until(
        page, lambda: js(page, f"state.view.over || (state.view.deal_number || 0) > {deals}"), limit=800
    )


def visible_text(page: Page) -> str:
    return str(page.inner_text("body"))


GERMAN = ("Tisch", "Stich", "Passe", "Pik", "Herz", "Karo", "Kreuz", "Kontra", "Partner")
FRENCH = ("Table", "pli", "Passe", "pique", "cœur", "carreau", "trèfle", "Contre")


@pytest.mark.parametrize(("lang", "game"), [("de", "500"), ("fr", "coinche")])
def test_switch_language_and_play_a_deal(browser: Browser, server: LiveServer, lang: str, game: str) -> None:
    t = translator(lang)
    page = new_person(browser, server, "Ann")
    assert js(page, "I18n.lang") == "en"
    # the header's chooser: each language named in itself; the page comes back in it
    page.select_option("#lang-choice", lang)
    page.wait_for_function(f"() => window.I18n && I18n.lang === '{lang}'")
    assert js(page, "document.documentElement.lang") == lang
    lobby = visible_text(page)
    assert t.gettext("Create table") in lobby and "Create table" not in lobby
    shot(page, f"lang-{lang}-lobby.png")
    create_table(page, game)
    sit_and_fill(page)
    page.wait_for_selector(PLAYABLE_CARD + ", " + CALL)
    shot(page, f"lang-{lang}-{game}-auction.png")
    # the cards carry the deck's letters: a German queen is D, a French king R
    letters = js(page, "RANK_LETTERS")
    assert letters == (
        {"T": "10", "J": "B", "Q": "D", "K": "K", "A": "A"}
        if lang == "de"
        else {"T": "10", "J": "V", "Q": "D", "K": "R", "A": "A"}
    )
    labels = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    suit_words = [t.gettext(w) for w in ("spades", "hearts", "diamonds", "clubs")]
    assert all(
        any(w in (label or "") for w in suit_words)
        for label in labels
        if "joker" not in (label or "").lower()
    ), labels
    play_deals(page, 1)
    shot(page, f"lang-{lang}-{game}-after-deal.png")
    text = visible_text(page)
    for english in ("Score", "Auction", "Last trick", "Send", "Chat", "Total"):
        if t.gettext(english) != english:  # German says "Chat" too
            assert not re.search(rf"\b{re.escape(english)}\b", text), english
        assert t.gettext(english) in text, english
    # the phone layout in the same language
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, f"lang-{lang}-{game}-phone.png")
    # the stored records stay language-neutral
    record = page.request.get(page.url.replace("/table/", "/api/tables/") + "/record").json()
    actions = (
        [a["action"] if isinstance(a, dict) else a[1] for a in record.get("actions", [])]
        if isinstance(record, dict)
        else []
    )
    assert all(re.fullmatch(r"[0-9A-Z:+]+", str(a)) for a in actions if a), actions[:10]
    page.context.close()


def test_a_french_browser_gets_french_and_the_setting_wins(browser: Browser, server: LiveServer) -> None:
    page = new_person(browser, server, "Zoé", locale="fr-FR")
    assert js(page, "I18n.lang") == "fr"
    assert translator("fr").gettext("Create table") in visible_text(page)
    # the cookie of the header's choice beats Accept-Language
    page.select_option("#lang-choice", "de")
    page.wait_for_function("() => window.I18n && I18n.lang === 'de'")  # (the page may be reloading)
    page.reload()
    assert js(page, "I18n.lang") == "de"
    page.context.close()


def test_preset_chat_each_player_reads_their_own_language(browser: Browser, server: LiveServer) -> None:
    hans = new_person(browser, server, "Hans", locale="de-DE")
    tid = create_table(hans, "coinche", {"chat": "preset"})
    sit(hans, "S")
    zoe = new_person(browser, server, "Zoé", locale="fr-FR")
    zoe.goto(f"{server.url}/table/{tid}")
    zoe.wait_for_function("() => typeof state !== 'undefined' && state !== null")
    sit(zoe, "N")
    fill = translator("de").gettext("Fill empty seats with bots")
    hans.get_by_role("button", name=fill).click()
    hans.wait_for_function("() => state && state.table.status === 'playing'")
    de, fr = translator("de"), translator("fr")
    hans.wait_for_selector("#phrases button")
    buttons = hans.locator("#phrases button").all_inner_texts()
    assert buttons == [de.gettext(p) for p in PRESET_PHRASES.values()]
    hans.locator("#phrases button").nth(list(PRESET_PHRASES).index("good_luck")).click()
    hans.wait_for_selector(f"#chat div:has-text('{de.gettext('Good luck!')}')")
    zoe.wait_for_selector(f"#chat div:has-text('{fr.gettext('Good luck!')}')")
    assert "Good luck!" not in zoe.inner_text("#chat") and "Good luck!" not in hans.inner_text("#chat")
    shot(zoe, "lang-chat-fr.png")
    shot(hans, "lang-chat-de.png")
    hans.context.close()
    zoe.context.close()


# ----- nothing left in English ---------------------------------------------------------
#: Visible words that are not messages: names, numbers, seats and teams, card and call notation.
ALLOWED = re.compile(
    r"^(trumps|Ann|Bob|Hans|Zoé|English|Deutsch|Français|[NESW]|NS|EW|N/S|E/W|"
    r"[-0-9.,:;/+−×·%°()#–→←=↑↓…]+|[0-9AKQJT]*[♠♥♦♣]|[0-9]+(NT|SA|TA)?|[2-9TJQKA][SHDC]|[SHDC]|"
    r"[NESW]:|AM|PM|JSON|PBN)$"
)


def english_left(page: Page) -> list[str]:
    """Visible words outside ⟦pseudo brackets⟧ (nested ones too: a variant's
    word inside a sentence) that are not names, numbers or notation."""
    found = page.evaluate(
        """() => {
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        // the card faces print what real decks print (JOKER)
        if (!el || el.closest("script,style,svg,[hidden],.sr-only,option:not(:checked)")) continue;
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
        let rest = n.nodeValue, before = null;
        while (rest !== before) { before = rest; rest = rest.replace(/⟦[^⟦⟧]*⟧/g, " "); }
        if (/\\p{L}/u.test(rest)) out.push(rest.trim());
      }
      return out;
    }"""
    )
    return sorted({s for s in found if any(not ALLOWED.match(w.rstrip(",;.") or w) for w in s.split())})


def test_no_visible_english_outside_the_catalogue(browser: Browser, server: LiveServer) -> None:
    page = new_person(browser, server, "Ann", lang_cookie="qps")
    assert js(page, "I18n.lang") == "qps"
    left: dict[str, list[str]] = {}
    left["lobby"] = english_left(page)
    page.locator("#rules-box > summary").click()
    for more in page.locator("#rules-box details > summary").all():
        more.click()
    left["create form"] = english_left(page)
    create_table(page, "500")
    left["table, empty"] = english_left(page)
    sit_and_fill(page)
    page.wait_for_selector(PLAYABLE_CARD + ", " + CALL)
    left["table, auction"] = english_left(page)
    play_deals(page, 1)
    left["table, after a deal"] = english_left(page)
    for path in ("/settings", "/leaderboard", "/games"):
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        left[path] = english_left(page)
    shot(page, "lang-pseudo.png")
    missing = {k: v for k, v in left.items() if v}
    assert not missing, missing
