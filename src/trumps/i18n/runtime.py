"""The texts trumps produces as data, for extraction (``trumps_runtime``).

Option labels and help texts, presets, the variant's words, every game's
presentation (bidding box, call labels and names, target) for every
preset and player count, the bots' reasons, and whatever other parts
register under the ``trumps.texts`` entry point group (the card room: its
table settings, personal settings and preset chat phrases): the pages
receive them as JSON and translate each one, so each one must be in the
catalogue.  Walking the real data (not a copy of it) means a new option or
call is extracted with no marking.

The room registers its texts here rather than this module reading the
room: the languages are a layer below the room, and a part that sends
texts of its own (a plug-in game's server, say) registers them the same
way.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import entry_points
from typing import Any

from trumps.i18n import has_letters

__all__ = ["TEXT_KEYS", "TEXT_SOURCES", "registered_texts", "runtime_texts", "walk"]

#: The entry point group of the functions that yield ``(text, where)`` for
#: the texts a part of trumps sends as data (``trumps.room.texts:texts``).
TEXT_SOURCES = "trumps.texts"

#: The keys under which the pages' JSON data holds words a person reads.
TEXT_KEYS = frozenset(
    {
        "label",
        "doc",
        "help",
        "title",
        "short_title",
        "noun",
        "default_label",
        "words",
        "text",
        "group_label",
        "name_text",
        "target",
    }
)


def walk(data: object, where: str, key: str | None = None) -> Iterator[tuple[str, str]]:
    """Every string of ``data`` (JSON) under one of :data:`TEXT_KEYS`."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from walk(v, where, str(k))
    elif isinstance(data, list):
        for v in data:
            yield from walk(v, where, key)
    elif isinstance(data, str) and key in TEXT_KEYS and has_letters(data):
        yield data, where


def _strings(data: object, where: str) -> Iterator[tuple[str, str]]:
    """Every string value of a flat mapping (labels, names, terms)."""
    if not isinstance(data, dict):
        return
    for v in data.values():
        if isinstance(v, str) and has_letters(v):
            yield v, where


def _texts_of(part: object, keys: tuple[str, ...], where: str) -> Iterator[tuple[str, str]]:
    """The strings under ``keys`` of one entry of a bidding box (a dict)."""
    if isinstance(part, dict):
        for k in keys:
            text = part.get(k)
            if isinstance(text, str) and has_letters(text):
                yield text, where


def _presentation(p: object, where: str) -> Iterator[tuple[str, str]]:
    if not isinstance(p, dict):
        return
    yield from _strings(p.get("labels"), where)
    yield from _strings(p.get("names"), where)
    yield from _strings(p.get("terms"), where)
    target = p.get("target")
    if isinstance(target, dict):
        target = target.get("text")
    if isinstance(target, str) and has_letters(target):
        yield target, where
    box = p.get("box") or {}
    if not isinstance(box, dict):
        return
    for part in ("columns", "side"):
        for c in box.get(part) or []:
            yield from _texts_of(c, ("label", "name"), where)
    for part in ("popup", "inkles"):
        yield from _texts_of(box.get(part) or {}, ("label", "name"), where)
    for r in box.get("rows") or []:
        yield from _texts_of(r, ("label",), where)


def runtime_texts() -> Iterator[tuple[str, str]]:
    """``(text, where it comes from)`` for every text the pages receive as data."""
    import trumps
    from trumps.core import registry

    for game in registry.catalogue():
        where = f"options of {game['game']}"
        yield from walk({k: v for k, v in game.items() if k != "variants"}, where)
        yield from _strings(game.get("terms"), where)
        for terms in (game.get("variants") or {}).get("terms", {}).values():
            yield from _strings(terms, where)
    for name in trumps.games():
        cls = trumps.game_class(name)
        schema = cls.schema
        # the lobby's one-line rules: each piece is translated by its template
        for spec in schema.specs:
            pieces = spec.summary.values() if isinstance(spec.summary, dict) else [spec.summary]
            for piece in pieces:
                if isinstance(piece, str) and has_letters(piece):
                    # the pages translate the line piece by piece, split at " · "
                    for part in piece.split(" · "):
                        if has_letters(part):
                            yield part, f"rules summary of {name}"
        for preset in [None, *schema.presets]:
            for extra in _variations(schema):
                try:
                    options = schema.resolve(preset, extra)
                except ValueError:
                    continue
                match = cls(options, seed=1)
                yield from _presentation(match.presentation(), f"presentation of {name}")
    yield from registered_texts()
    yield from _bot_reasons()
    # OptionSchema.summary's count of other rules (one piece of the summary line)
    yield "+{n} house rule", "rules summary"
    yield "+{n} house rules", "rules summary"


def registered_texts() -> Iterator[tuple[str, str]]:
    """The texts of every part registered under :data:`TEXT_SOURCES`, by
    name.  A part whose extra is not installed (the room without
    ``trumps[room]``) has nothing to translate: it is passed over."""
    for source in sorted(entry_points(group=TEXT_SOURCES), key=lambda e: e.name):
        try:
            texts = source.load()
        except ImportError:
            continue
        yield from texts()


def _variations(schema: Any) -> list[dict[str, object]]:
    """Option sets that may change the presentation: each value of each
    option with a few choices, one at a time (player counts, scoring forms,
    variations, misère modes...)."""
    out: list[dict[str, object]] = [{}]
    for spec in schema.specs:
        if spec.choices is not None and len(spec.choices) <= 6:
            out += [{spec.name: v} for v in spec.choices if v != spec.default]
    return out


def _bot_reasons() -> Iterator[tuple[str, str]]:
    """The reasons the suggestions show (the bots' rule names and the
    simulation's words): literals in the bots' suggestion code, and the
    names of the bridge bidding rules."""
    import ast
    from pathlib import Path

    from trumps.bots.sayc import RULES

    for rule, _fn in RULES:
        yield rule, "suggestion reason (bridge bidding rule)"
    yield "pass", "suggestion reason (bridge bidding rule)"
    bots = Path(__file__).resolve().parent.parent / "bots"
    for name in ("suggest.py", "bidsim.py"):
        tree = ast.parse((bots / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            texts: list[ast.expr] = []
            if isinstance(node, ast.Dict):
                texts = [v for k, v in zip(node.keys, node.values, strict=True)
                         if isinstance(k, ast.Constant) and k.value == "reason"]  # fmt: skip
            elif (
                isinstance(node, ast.Return)
                and isinstance(node.value, ast.Tuple)
                and len(node.value.elts) == 2
            ):
                texts = [node.value.elts[1]]
            for t in texts:
                for v in [t.body, t.orelse] if isinstance(t, ast.IfExp) else [t]:
                    if isinstance(v, ast.Constant) and isinstance(v.value, str) and has_letters(v.value):
                        yield v.value, "suggestion reason"
