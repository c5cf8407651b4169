"""trumps.i18n: choosing a language, catalogues, plural forms, messages
translated by their template, numbers and dates (the German and French
catalogues are the real ones shipped in the package)."""

from __future__ import annotations

import ast
import json
from datetime import date, datetime

import pytest

from trumps.i18n import (
    LANGUAGES,
    PSEUDO,
    Translator,
    c_plural_to_python,
    catalog,
    catalog_script,
    cli_language,
    negotiate,
    pick,
    placeholders,
    translator,
)
from trumps.i18n.extract import html_texts, known_messages, template_of, templates_of


@pytest.mark.parametrize(
    ("header", "want"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("fr-CA", "fr"),
        ("es-ES, fr;q=0.3, de;q=0.5", "de"),
        ("en-GB;q=0.1, fr;q=0.2", "fr"),
        ("es, it", None),
        ("", None),
        (None, None),
        ("de;q=0, fr;q=bad", None),
        ("*", None),
    ],
)
def test_accept_language_is_negotiated_by_quality(header: str | None, want: str | None) -> None:
    assert negotiate(header) == want


def test_pick_takes_the_first_offered_language() -> None:
    assert pick(None, "xx", "fr", "de") == "fr"
    assert pick(None, "") == "en"
    assert pick("auto", None) == "en"


@pytest.mark.parametrize(
    ("option", "env", "want"),
    [
        (None, {"LANG": "de_DE.UTF-8"}, "de"),
        (None, {"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
        (None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        (None, {"LANGUAGE": "es:fr", "LANG": "de_DE"}, "fr"),
        ("de", {"LANG": "fr_FR"}, "de"),
        (None, {}, "en"),
        (None, {"LANG": "ja_JP.UTF-8"}, "en"),
    ],
)
def test_the_cli_follows_lang_and_its_option(option: str | None, env: dict[str, str], want: str) -> None:
    assert cli_language(option, env) == want


def test_messages_with_values_are_recognised_by_their_template() -> None:
    t = Translator("de", {
        "invite at most {n} people at once": "lade höchstens {n} Personen auf einmal ein",
        "{card} is not in {seat}'s hand": "{card} ist nicht in der Hand von {seat}",
        "{card} is not in the contractor's hand; discard one of: {show}": "{card} hat der Alleinspieler nicht; lege eine ab: {show}",
        "misère": "Misère",
        "{misere} {points}": "{misere} mit {points}",
        "{Misere} points": "Punkte für {Misere}",
        "{action}: only the leader names a suit": "{action}: nur wer ausspielt, nennt eine Farbe",
        "the game is over": "das Spiel ist vorbei",
    })  # fmt: skip
    assert t.message("the game is over") == "das Spiel ist vorbei"
    assert t.message("invite at most 8 people at once") == "lade höchstens 8 Personen auf einmal ein"
    assert t.message("QH is not in N's hand") == "QH ist nicht in der Hand von N"
    # the most specific template wins
    assert t.message("QH is not in the contractor's hand; discard one of: 7H, 8H") == (
        "QH hat der Alleinspieler nicht; lege eine ab: 7H, 8H"
    )
    # a value that is a known word is translated too
    assert t.message("misère 250") == "Misère mit 250"
    assert t.message("something nobody wrote") == "something nobody wrote"
    assert t.message("1000 points") == "1000 points"  # a variant's word is never a number
    assert t.message("RJ:H: only the leader names a suit") == "RJ:H: nur wer ausspielt, nennt eine Farbe"
    assert t.message("") == ""
    # gettext of an unknown finished message falls back to the template
    assert t.gettext("invite at most 3 people at once") == "lade höchstens 3 Personen auf einmal ein"


def test_plural_forms_follow_each_language() -> None:
    de = Translator("de", {"{n} trick": ["{n} Stich", "{n} Stiche"]})
    fr = Translator("fr", {"{n} trick": ["{n} pli", "{n} plis"]})
    assert [de.ngettext("{n} trick", "{n} tricks", n) for n in (0, 1, 2)] == [
        "0 Stiche",
        "1 Stich",
        "2 Stiche",
    ]
    # French uses the singular for 0 and 1
    assert [fr.ngettext("{n} trick", "{n} tricks", n) for n in (0, 1, 2)] == ["0 pli", "1 pli", "2 plis"]
    en = translator("en")
    assert [en.ngettext("{n} trick", "{n} tricks", n) for n in (0, 1, 2)] == [
        "0 tricks",
        "1 trick",
        "2 tricks",
    ]


def test_numbers_and_dates_are_written_as_each_language_writes_them() -> None:
    assert translator("en").number(1234.5) == "1,234.5"
    assert translator("de").number(1234.5) == "1.234,5"
    assert translator("fr").number(1234.5).replace("\u202f", " ").replace("\xa0", " ") == "1 234,5"
    assert translator("de").when(date(2026, 11, 25)) == "25.11.2026"
    assert "nov." in translator("fr").when(date(2026, 11, 25))
    assert translator("en").when(datetime(2026, 11, 25, 18, 30)).startswith("Nov 25, 2026")


def test_unknown_languages_get_english() -> None:
    assert translator("xx").lang == "en"
    assert translator("xx").gettext("Lobby") == "Lobby"


def test_the_pages_catalogue_script_defines_plural_rules_without_eval() -> None:
    js = catalog_script("fr")
    assert js.startswith("window.I18N = {")
    data = json.loads(js.split("\n", 1)[0].removeprefix("window.I18N = ").removesuffix(";"))
    assert data["lang"] == "fr" and data["languages"] == LANGUAGES
    assert "window.I18N.plural = function (n) { return Number((n > 1)); };" in js and "eval" not in js
    assert catalog("de")["plural"] == "(n != 1)" and catalog("de")["nplurals"] == 2


def test_gettext_plural_rules_become_python() -> None:
    rule = eval(
        "lambda n: "
        + c_plural_to_python(  # a Slavic three-form rule
            "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"
        )
    )
    assert [rule(n) for n in (1, 2, 5, 11, 21, 22, 25)] == [0, 1, 2, 2, 0, 1, 2]


def test_the_pseudo_language_brackets_every_known_message() -> None:
    q = translator(PSEUDO)
    assert q.gettext("Lobby") == "⟦Lobby⟧"
    assert len(q.messages) == len({(m, c) for m, _p, c in known_messages()})


def test_the_extractor_turns_fstrings_and_branches_into_templates() -> None:
    src = 'f"card {card} is not in {self.seat}\'s hand ({len(x)} left, {fmt(y)!r})"'
    node = ast.parse(src, mode="eval").body
    assert template_of(node, src) == "card {card} is not in {seat}'s hand ({n} left, {fmt})"
    src = '"the game has not started" if waiting else f"the game is over after {n} deals"'
    node = ast.parse(src, mode="eval").body
    assert templates_of(node, src) == ["the game has not started", "the game is over after {n} deals"]


def test_the_html_extractor_finds_text_and_attributes_not_scripts() -> None:
    page = '<title>trumps — table</title><a aria-label="Back to the lobby">← <b>Lobby</b></a><script>var x = "no";</script><p>  two\n words </p><i title="12"></i>'
    assert [t for _, t in html_texts(page)] == ["trumps — table", "Back to the lobby", "Lobby", "two words"]


def test_placeholders() -> None:
    assert placeholders("{n} tricks for {team} {{not}}") >= {"n", "team"}


def test_contexts_of_the_shipped_catalogues() -> None:
    assert translator("de").pgettext("card letter", "Q") == "D"
    assert translator("fr").pgettext("card letter", "K") == "R"
    assert translator("en").pgettext("card letter", "Q") == "Q"
