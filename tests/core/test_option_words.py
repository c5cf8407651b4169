"""The human side of the option metadata: every option of every game has a
label, a group and a one-line help, every value has words, presets say what
they change, and a rule set reads as one short line whose words follow the
variant (500: Nullo and widow in American, Misère and kitty in Australian)."""

from __future__ import annotations

from typing import Any

import pytest

import trumps
from trumps.core.options import OptionGroup, OptionSchema, OptionSpec, PresetInfo, fill_terms

GAMES = trumps.games()
FIVE = trumps.game_class("500").schema
BRIDGE = trumps.game_class("bridge").schema
COINCHE = trumps.game_class("coinche").schema


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_a_label_a_group_help_and_words_for_each_value(game: str) -> None:
    schema = trumps.game_class(game).schema
    described = schema.describe()
    assert described["title"]
    groups = {g["key"] for g in described["groups"]}
    assert groups and all(g["label"] for g in described["groups"])
    used = set()
    for o in described["options"]:
        assert o["label"] and o["label"] != o["name"], o["name"]
        assert o["help"] and o["help"] == o["doc"], o["name"]
        assert "\n" not in o["help"] and len(o["help"]) <= 120, o["name"]  # one line
        assert o["group"] in groups, o["name"]
        used.add(o["group"])
        spec = schema.spec(o["name"])
        values = spec.values()
        if values is None:  # a free whole number: bounds for the form
            assert o["bounds"] is not None and o["choice_labels"] == [], o["name"]
            assert o["default_label"] == str(o["default"])
        else:
            assert [c["value"] for c in o["choice_labels"]] == list(values), o["name"]
            assert all(c["label"] for c in o["choice_labels"]), o["name"]
        for other, allowed in (o["when"] or {}).items():
            assert allowed and all(schema.spec(other).coerce(v) == v for v in allowed)
    assert used == groups  # no empty group
    for c in described["options"]:
        assert "{" not in c["label"] + c["help"], c["name"]  # every term filled in


@pytest.mark.parametrize("game", GAMES)
def test_presets_have_words_and_say_what_they_change(game: str) -> None:
    schema = trumps.game_class(game).schema
    described = schema.describe()
    assert set(described["preset_info"]) == set(described["presets"])
    plain = schema.resolve()
    for name, info in described["preset_info"].items():
        assert info["label"] and info["doc"], name
        resolved = schema.resolve(name)
        changed = {c["name"] for c in info["changes"]}
        assert changed == {k for k in plain if resolved[k] != plain[k]}, name
        for c in info["changes"]:
            assert c["value"] == resolved[c["name"]] and c["label"] and c["words"]


def test_500_preset_changes_are_worded_as_the_preset_words_them() -> None:
    info = FIVE.describe()["preset_info"]
    assert info["american"]["changes"] == []
    assert info["american"]["label"] == "American rules"
    assert "nullo any time" in info["american"]["doc"]
    assert [(c["name"], c["label"], c["words"]) for c in info["australian"]["changes"]] == [
        ("variation", "Variation", "Australian"),
        ("must_bid_to_win", "Must bid to win", "yes"),
        ("nullo_mode", "Misère", "after a 7 bid"),
    ]
    assert "misère after a 7 bid" in info["australian"]["doc"]
    coinche = COINCHE.describe()["preset_info"]
    assert coinche["common"]["changes"] == []
    assert ("target_score", 2000) in {(c["name"], c["value"]) for c in coinche["ffb_2016"]["changes"]}


def _label(described: dict[str, Any], name: str) -> str:
    return str(next(o["label"] for o in described["options"] if o["name"] == name))


def test_500_words_follow_the_variation() -> None:
    neutral = FIVE.describe()
    american = FIVE.describe({"variation": "american"})
    australian = FIVE.describe(FIVE.resolve("australian"))
    assert _label(neutral, "nullo_points") == "Nullo (misère) points"
    assert _label(american, "nullo_points") == "Nullo points"
    assert _label(australian, "nullo_points") == "Misère points"
    assert _label(american, "kitty_size") == "Widow size"
    assert _label(australian, "kitty_size") == "Kitty size"
    assert _label(american, "open_nullo_points") == "Open nullo points"
    assert [g["label"] for g in australian["groups"]][:2] == ["The game", "Misère"]
    assert [g["label"] for g in american["groups"]][:2] == ["The game", "Nullo"]
    # a form re-words itself: templates and the terms of every variation
    spec = next(o for o in neutral["options"] if o["name"] == "nullo_points")
    assert spec["templates"]["label"] == "{Misere} points"
    assert neutral["variants"]["option"] == "variation"
    assert neutral["variants"]["terms"]["american"] == {"misere": "nullo", "kitty": "widow"}
    assert neutral["variants"]["defaults"]["australian"]["nullo_mode"] == "after_7"
    assert neutral["variants"]["defaults"]["american"]["nullo_mode"] == "anytime"
    # options whose words never vary carry no templates
    assert "templates" not in next(o for o in neutral["options"] if o["name"] == "players")
    assert BRIDGE.describe()["variants"] is None


@pytest.mark.parametrize(
    ("schema", "preset", "options", "expected"),
    [
        (FIVE, None, {}, "American · 2v2 · nullo 250"),
        (FIVE, "american", {}, "American · 2v2 · nullo 250"),
        (FIVE, "australian", {}, "Australian · 2v2 · misère 250"),
        (FIVE, None, {"variation": "australian"}, "Australian · 2v2 · misère 250"),
        (FIVE, "australian", {"nullo_points": 230}, "Australian · 2v2 · misère 230"),
        (FIVE, "american", {"nullo_mode": "off"}, "American · 2v2 · no nullo"),
        (FIVE, "american", {"players": "3v3", "kitty_size": 6}, "American · 3v3 · 6-card widow · nullo 250"),
        (FIVE, "australian", {"kitty_size": 5}, "Australian · 2v2 · 5-card kitty · misère 250"),
        (FIVE, "australian", {"breach_enabled": True}, "Australian · 2v2 · misère 250 · breach"),
        (FIVE, "australian", {"first_lead": "eldest"}, "Australian · 2v2 · misère 250 · +1 house rule"),
        (
            FIVE,
            "american",
            {"first_lead": "eldest", "all_pass_action": "play_no_trumps"},
            "American · 2v2 · nullo 250 · +2 house rules",
        ),
        (BRIDGE, None, {}, "Duplicate · matchpoints"),
        (BRIDGE, None, {"scoring": "rubber"}, "Rubber"),
        (BRIDGE, None, {"scoring": "chicago"}, "Chicago"),
        (BRIDGE, None, {"scoring": "duplicate_imp"}, "Duplicate · IMPs"),
        (BRIDGE, None, {"scoring": "rubber", "claims": "verify"}, "Rubber · checked claims"),
        (COINCHE, None, {}, "Common rules · to 1000"),
        (COINCHE, "ffb_2016", {}, "FFB 2016 · to 2000"),
        (COINCHE, "seed", {}, "Seed rules · melds · to 1000"),
        (COINCHE, "contree_exact", {}, "Contrée, exact points · to 2000"),
        (COINCHE, "pagat", {"target_score": 1500}, "Pagat · to 1500"),
        (COINCHE, "pagat", {"rounding": "none"}, "Pagat · to 1000 · +1 house rule"),
    ],
)
def test_summary(schema: OptionSchema, preset: str | None, options: dict[str, Any], expected: str) -> None:
    assert schema.summary(schema.resolve(preset, options), preset) == expected


def test_summary_finds_the_preset_and_ignores_rules_that_do_not_apply() -> None:
    # no preset given: coinche names the nearest one
    assert COINCHE.summary(COINCHE.resolve("ffb_2016")) == "FFB 2016 · to 2000"
    # inkles do not apply to the Australian game: a stale value is no house rule
    opts = dict(FIVE.resolve("australian"), inkle_seats=3, players="2v2v2")
    assert FIVE.summary(opts, "australian") == "Australian · 2v2v2 · misère 250"


def test_summary_of_a_table_stored_before_an_option_existed() -> None:
    old = {"variation": "australian", "players": "2v2"}  # the rest missing
    assert FIVE.summary(old).startswith("Australian · 2v2 · ")
    assert COINCHE.summary({}, "no-such-preset") == "Common rules · to 1000"


def test_fill_terms() -> None:
    words = {"misere": "misère", "kitty": "kitty"}
    assert fill_terms("{Misere} points, open {misere}, {Kitty}", words) == "Misère points, open misère, Kitty"
    assert fill_terms("{unknown} and {} stay", words) == "{unknown} and {} stay"


def test_words_of_values() -> None:
    spec = FIVE.spec("nullo_mode")
    assert spec.words("after_7") == "after a 7 bid"
    assert FIVE.spec("must_bid_to_win").words(True) == "yes"
    assert FIVE.spec("breach_value").words(100) == "100"
    assert FIVE.spec("kitty_size").words(5) == "5 cards"
    assert FIVE.spec("open_misere_expose").applies({"nullo_mode": "off"}) is False
    assert FIVE.spec("raise_own_bid").applies({"variation": "australian"}) is True


def test_metadata_mistakes_fail_at_import() -> None:
    with pytest.raises(ValueError, match="cannot take"):
        OptionSchema([OptionSpec("a", int, 1, (1, 2), choice_labels={3: "three"})])
    with pytest.raises(ValueError, match="cannot take"):
        OptionSchema([OptionSpec("a", int, 1, (1, 2), summary={True: "x"})])
    with pytest.raises(ValueError, match="unknown group"):
        OptionSchema([OptionSpec("a", bool, False, group="b")], groups=[OptionGroup("g", "G")])
    with pytest.raises(ValueError, match="unknown option"):
        OptionSchema([OptionSpec("a", bool, False, when={"b": (True,)})])
    with pytest.raises(ValueError, match="unknown preset"):
        OptionSchema([OptionSpec("a", bool, False)], preset_info={"p": PresetInfo("P")})
    with pytest.raises(ValueError, match="varies_by"):
        OptionSchema([OptionSpec("a", bool, False)], varies_by="b")


def test_a_schema_without_words_still_describes_itself() -> None:
    schema = OptionSchema([OptionSpec("size", int, 3, (3, 6), "Size."), OptionSpec("flag", bool, False)])
    d = schema.describe()
    assert [o["label"] for o in d["options"]] == ["size", "flag"]  # the key stands in for a label
    assert d["options"][1]["choice_labels"] == [
        {"value": True, "label": "yes"},
        {"value": False, "label": "no"},
    ]
    assert d["groups"] == [] and d["preset_info"] == {} and d["variants"] is None
    assert schema.summary(schema.resolve(None, {"size": 6})) == "+1 house rule"


# ----- the Rules panel of a table: the preset and what differs from it -------------------
def test_house_rules_name_the_preset_and_each_change_as_templates() -> None:
    schema = trumps.game_class("500").schema
    values = schema.resolve("american", {"kitty_size": 5, "nullo_mode": "off"}).to_dict()
    rules = schema.house_rules(values, "american")
    assert rules["preset"] == "american" and rules["label"] == "American rules"
    assert [(c["name"], c["label"], c["words"]) for c in rules["changes"]] == [
        ("kitty_size", "{Kitty} size", "5 cards"),
        ("nullo_mode", "{Misere}", "off"),
    ]
    assert rules["terms"] == {"misere": "nullo", "kitty": "widow"}
    # no preset: the changes from the chosen variation's own defaults
    plain = schema.resolve(None, {"variation": "australian", "must_bid_to_win": False}).to_dict()
    none = schema.house_rules(plain, None)
    assert none["preset"] is None and none["label"] is None
    assert [(c["name"], c["value"], c["words"]) for c in none["changes"]] == [
        ("must_bid_to_win", False, "no")
    ]
    # the preset as written, an unknown preset, a stored table missing an option: never raises
    assert schema.house_rules(schema.resolve("american").to_dict(), "american")["changes"] == []
    assert schema.house_rules({}, "no such preset")["preset"] is None
    for game in ("bridge", "coinche"):
        s = trumps.game_class(game).schema
        for preset in [None, *s.presets]:
            assert s.house_rules(s.resolve(preset).to_dict(), preset)["changes"] == []
