"""The card faces of cards.js in Chromium: a gallery of every card (the
four-handed 500 deck with its joker, the six-handed ranks 11 to 13, both
jokers, a joker lead naming its suit, the back) in the normal, four-colour
and high-contrast modes, on the room's own stylesheet.  Every card is an SVG
with the right index, the court cards and the jokers are drawings that differ,
the index reads in the strip an overlapping hand leaves, and the modes follow
the stored settings and switch live.  Screenshots go to
``artifacts/screenshots/cards-*.png``."""

from __future__ import annotations

import re
from typing import Any

from browser import SCREENSHOTS, LiveServer
from playwright.sync_api import Browser, Page

SUITS = "SHDC"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
SIX_HANDED = ["11", "12", "13"]
DECK = [r + s for s in SUITS for r in RANKS] + ["RJ"]  # 53: every card the 500 decks draw from
EXTRA = [r + s for s in SUITS for r in SIX_HANDED] + ["BJ", "RJ:C"]
INDEX = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
MODES = {
    "normal": {"four_colours": False, "high_contrast": False},
    "four colours": {"four_colours": True, "high_contrast": False},
    "high contrast": {"four_colours": False, "high_contrast": True},
}

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css">
<style>
  body { background: #1f6f43; color: #fff; }
  main { display: block; padding: .5rem; }
  h2 { font-size: 1rem; margin: .6rem 0 .3rem; }
  .row { display: flex; flex-wrap: wrap; gap: .3rem; margin-bottom: .3rem; }
  .fan { display: flex; padding: .5rem 0; }
  .fan .card + .card { margin-left: -2.94rem; }  /* 4.2rem cards, 1.26rem (30%) showing */
  @media (max-width: 48rem) { .fan .card + .card { margin-left: -2.24rem; } }  /* 3.2rem cards */
</style>
<script src="/static/cards.js"></script></head>
<body><main id="gallery"></main></body></html>"""

# Builds the gallery with the globals of cards.js: a section per mode, a row
# per suit (then the jokers and the back), one .card per picture as the
# table draws it.
GALLERY = """([modes, deck, extra]) => {
  const main = document.getElementById("gallery");
  main.replaceChildren();
  for (const [name, prefs] of modes) {
    setCardPrefs(prefs);
    const h = document.createElement("h2");
    h.textContent = name;
    const section = document.createElement("section");
    section.dataset.mode = name;
    section.append(h);
    const codes = [...deck, ...extra];
    const rows = [..."SHDC"].map(s => codes.filter(c => !c.startsWith("RJ") && c !== "BJ" && c.endsWith(s)));
    rows.push(codes.filter(c => c.startsWith("RJ") || c === "BJ"));
    for (const [i, row] of rows.entries()) {
      const div = document.createElement("div");
      div.className = "row";
      for (const code of row) {
        const d = document.createElement("div");
        d.className = "card";
        d.dataset.card = code;
        d.setAttribute("role", "img");
        d.setAttribute("aria-label", cardLabel(code));
        d.append(cardSVG(code));
        div.append(d);
      }
      if (i === rows.length - 1) {
        const d = document.createElement("div");
        d.className = "card back";
        d.append(cardBackSVG());
        div.append(d);
      }
      section.append(div);
    }
    main.append(section);
  }
  setCardPrefs(modes[0][1]);
}"""

# What each drawn card says about itself: the first index corner's texts, its
# box in card units, the colours used and the drawing without the index.
INSPECT = """() => [...document.querySelectorAll("section[data-mode] .card")].map(d => {
  const svg = d.querySelector("svg");
  const index = svg.querySelector("g.index");
  const box = index ? index.getBBox() : null;
  const art = svg.cloneNode(true);
  art.querySelectorAll("g.index, text").forEach(e => e.remove());
  return {
    mode: d.closest("section").dataset.mode,
    card: d.dataset.card || "back",
    svgs: d.querySelectorAll(":scope > svg").length,
    viewBox: svg.getAttribute("viewBox"),
    hidden: svg.getAttribute("aria-hidden"),
    texts: index ? [...index.querySelectorAll("text")].map(t => t.textContent) : [],
    indexFill: index ? index.getAttribute("fill") : null,
    box: box && { x: box.x, y: box.y, width: box.width, height: box.height },
    fontSize: index && index.querySelector("text") ? parseFloat(index.querySelector("text").getAttribute("font-size")) : 0,
    edge: parseFloat(svg.querySelector("rect.face").getAttribute("stroke-width")),
    art: art.innerHTML,
    nominated: svg.querySelectorAll("g.nominated path").length,
    width: d.getBoundingClientRect().width,
  };
})"""


def open_gallery(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/api/games")  # any page of the room's origin
    page.set_content(PAGE)
    page.wait_for_function("typeof cardSVG === 'function'")
    page.evaluate(GALLERY, [list(MODES.items()), DECK, EXTRA])


def expected_index(code: str) -> list[str]:
    if code.split(":")[0] in ("RJ", "BJ"):
        return list("JOKER")
    return [INDEX.get(code[:-1], code[:-1])]


def test_every_card_in_every_mode(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_gallery(page, server)
    cards: list[dict[str, Any]] = page.evaluate(INSPECT)
    assert len(cards) == len(MODES) * (len(DECK) + len(EXTRA) + 1)
    by = {(c["mode"], c["card"]): c for c in cards}

    for c in cards:
        assert c["svgs"] == 1 and c["viewBox"] == "0 0 70 100" and c["hidden"] == "true", c["card"]
        if c["card"] == "back":
            assert c["texts"] == [] and "<text" not in c["art"]
            continue
        assert c["texts"] == expected_index(c["card"]), c
        # the index reads in the left 30% of the card (what an overlapping hand shows)
        box = c["box"]
        assert box["x"] >= 0.5 and box["x"] + box["width"] <= 21, c
        if c["card"][0] not in "RB":
            assert 20 <= box["height"] <= 32, c
        # the pictures are paths, not font glyphs
        assert "♠" not in c["art"] and "♥" not in c["art"] and "<path" in c["art"]

    for mode in MODES:
        art = {code: by[(mode, code)]["art"] for code in [*DECK, *EXTRA]}
        # court cards: three different drawings in every suit, none a plain pip card
        for s in SUITS:
            jack, queen, king = art["J" + s], art["Q" + s], art["K" + s]
            assert len({jack, queen, king}) == 3
            assert all(len(a) > 3 * len(art["T" + s]) / 2 for a in (jack, queen, king))
        # the two jokers are different pictures, red and black
        assert art["RJ"] != art["BJ"]
        assert by[(mode, "RJ")]["indexFill"] != by[(mode, "BJ")]["indexFill"]
        # a joker lead naming clubs carries a badge with the club
        assert by[(mode, "RJ:C")]["nominated"] == 1 and by[(mode, "RJ")]["nominated"] == 0
        # every pip card has its own number of pips
        pips = {r: art[r + "S"].count("<path") for r in [*RANKS[:9], *SIX_HANDED]}
        assert len(set(pips.values())) == len(pips), pips
        assert pips["2"] == 2 and pips["T"] == 10 and pips["13"] == 13

    colour = {(m, code[-1]): c["indexFill"] for (m, code), c in by.items() if code in DECK[:-1]}
    assert colour["normal", "C"] == colour["normal", "S"] and colour["normal", "D"] == colour["normal", "H"]
    assert colour["four colours", "C"] == "#1d7a34" and colour["four colours", "D"] == "#1f5fbf"
    assert colour["four colours", "H"] == colour["normal", "H"] != colour["four colours", "S"]
    assert colour["high contrast", "H"] == "#b00000" and colour["high contrast", "S"] == "#000"
    # high contrast: a larger index and a thicker outline
    assert by["high contrast", "KH"]["fontSize"] > by["normal", "KH"]["fontSize"]
    assert by["high contrast", "KH"]["edge"] > by["normal", "KH"]["edge"]

    # the pictures really differ on screen, not just in markup
    def pixels(mode: str, code: str) -> bytes:
        return page.locator(f"section[data-mode='{mode}'] .card[data-card='{code}']").screenshot()

    assert len({pixels("normal", c) for c in ("JS", "QS", "KS")}) == 3
    assert pixels("normal", "RJ") != pixels("normal", "BJ")
    assert pixels("normal", "QD") != pixels("four colours", "QD")

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "cards-gallery-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.locator(".card[data-card='AS']").first.bounding_box()["width"] < 60  # the phone size
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / "cards-gallery-phone.png"))  # the first screen: the normal deck
    assert errors == []
    page.close()


def test_overlapping_hand_shows_every_index(browser: Browser, server: LiveServer) -> None:
    """A 13-card hand with 30% of each card showing: the whole index of every
    card lies in its visible strip (none under the next card)."""
    hand = ["RJ", "AS", "KS", "QS", "JS", "TS", "9S", "KH", "QH", "13H", "7D", "JC", "2C"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    open_gallery(page, server)
    fan = """([hand, prefs]) => {
      setCardPrefs(prefs);
      const fan = document.createElement("div");
      fan.className = "fan";
      fan.dataset.mode = JSON.stringify(prefs);
      for (const code of hand) {
        const b = document.createElement("button");
        b.className = "card legal";
        b.dataset.card = code;
        b.setAttribute("aria-label", cardLabel(code));
        b.append(cardSVG(code));
        fan.append(b);
      }
      const main = document.getElementById("gallery");
      main.prepend(fan);
    }"""
    for prefs in reversed(MODES.values()):
        page.evaluate(fan, [hand, prefs])
    fans = page.locator(".fan")
    assert fans.count() == 3
    for i in range(3):
        cards = fans.nth(i).locator(".card")
        boxes = [cards.nth(k).bounding_box() for k in range(13)]
        for k in range(12):
            shown = boxes[k + 1]["x"] - boxes[k]["x"]
            assert abs(shown / boxes[k]["width"] - 0.3) < 0.03
            index = cards.nth(k).locator("g.index").first.bounding_box()
            assert index["x"] + index["width"] <= boxes[k + 1]["x"], (k, hand[k])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".fan").first.evaluate("f => f.parentElement.style.background = '#1f6f43'")
    first, last = fans.nth(0).bounding_box(), fans.nth(2).bounding_box()
    right = max(fans.nth(i).locator(".card").last.bounding_box()["x"] for i in range(3)) + 80
    page.screenshot(
        path=str(SCREENSHOTS / "cards-overlap.png"),
        clip={"x": 0, "y": first["y"], "width": right, "height": last["y"] + last["height"] - first["y"]},
    )
    page.close()


def test_modes_follow_the_settings_and_switch_live(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto(server.url + "/api/games")
    page.evaluate(
        "localStorage.setItem('trumps.prefs', JSON.stringify({four_colours: true, high_contrast: true}))"
    )
    page.set_content(PAGE)
    page.wait_for_function("typeof cardSVG === 'function'")
    # read once at load
    assert page.evaluate("[FOUR_COLOURS, HIGH_CONTRAST]") == [True, True]
    fill = "code => cardSVG(code).querySelector('g.index').getAttribute('fill')"
    assert page.evaluate(fill, "5C") == "#005f20" and page.evaluate(fill, "5H") == "#b00000"
    # cached, but every call is a new element of the same picture
    same = page.evaluate(
        "() => { const a = cardSVG('QH'), b = cardSVG('QH'); return [a === b, a.isEqualNode(b)]; }"
    )
    assert same == [False, True]
    # switched live: the cards on the page redraw
    page.evaluate("""() => {
      const d = document.getElementById("gallery");
      d.append(cardSVG("5C"), cardBackSVG());
      setCardPrefs({four_colours: false, high_contrast: false});
      refreshCards(d);
    }""")
    assert page.evaluate("[FOUR_COLOURS, HIGH_CONTRAST]") == [False, False]
    assert (
        page.evaluate("() => document.querySelector('#gallery svg g.index').getAttribute('fill')")
        == "#1b1b1b"
    )
    assert page.locator("#gallery svg.card-art").count() == 2
    # the index letters are a map a translation replaces; the drawing stays the same
    before = page.evaluate("cardMarkup('KD')")
    page.evaluate("setRankLetters({K: 'R', Q: 'D', J: 'V'})")
    after = page.evaluate("cardMarkup('KD')")
    assert re.search(r">R</text>", after) and not re.search(r">K</text>", after)
    assert re.sub(r"<text[^>]*>[^<]*</text>", "", before) == re.sub(r"<text[^>]*>[^<]*</text>", "", after)
    assert page.evaluate("cardLabel('KD')") == "king of diamonds"
    page.close()


def test_the_settings_page_switches_high_contrast_on(browser: Browser, server: LiveServer) -> None:
    """A guest ticks "High-contrast cards" on /settings; the cards of the
    next page are drawn in high contrast."""
    page = browser.new_page(viewport={"width": 800, "height": 900})
    page.goto(server.url + "/settings")
    box = page.get_by_label("High-contrast cards")
    box.wait_for()
    assert not box.is_checked()
    box.check()
    page.click("#save")
    page.wait_for_selector("#prefs-status:has-text('Saved in this browser')")
    assert page.evaluate("JSON.parse(localStorage.getItem('trumps.prefs')).high_contrast") is True
    page.goto(server.url + "/api/games")
    page.set_content(PAGE)
    page.wait_for_function("typeof cardSVG === 'function'")
    assert page.evaluate("[FOUR_COLOURS, HIGH_CONTRAST]") == [False, True]
    assert page.evaluate("cardSVG('AH').querySelector('g.index').getAttribute('fill')") == "#b00000"
    page.close()
