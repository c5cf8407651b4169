"""The texts trumps produces as data, for extraction (``trumps_runtime``).

Option labels and help texts, presets, the variant's words, every game's
presentation (bidding box, call labels and names, target) for every
preset and player count, the table settings, the personal settings and the
preset chat phrases: the pages receive them as JSON and translate each
one, so each one must be in the catalogue.  Walking the real data (not a
copy of it) means a new option or call is extracted with no marking.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

__all__ = ["TEXT_KEYS", "runtime_texts"]

#: The keys under which the pages' JSON data holds words a person reads.
TEXT_KEYS = frozenset(
    {"label", "doc", "help", "title", "default_label", "words", "text", "group_label", "name_text", "target"}
)
_HAS_LETTER = re.compile(r"[^\W\d_]")


def _walk(data: Any, where: str, key: str | None = None) -> Iterator[tuple[str, str]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _walk(v, where, str(k))
    elif isinstance(data, list):
        for v in data:
            yield from _walk(v, where, key)
    elif isinstance(data, str) and key in TEXT_KEYS and _HAS_LETTER.search(data):
        yield data, where


def _strings(data: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every string value of a flat mapping (labels, names, terms)."""
    for v in (data or {}).values():
        if isinstance(v, str) and _HAS_LETTER.search(v):
            yield v, where


def _presentation(p: dict[str, Any], where: str) -> Iterator[tuple[str, str]]:
    yield from _strings(p.get("labels"), where)
    yield from _strings(p.get("names"), where)
    yield from _strings(p.get("terms"), where)
    if isinstance(p.get("target"), str):
        yield p["target"], where
    box = p.get("box") or {}
    for part in ("columns", "side"):
        for c in box.get(part) or []:
            for k in ("label", "name"):
                if isinstance(c.get(k), str) and _HAS_LETTER.search(c[k]):
                    yield c[k], where
    for part in ("popup", "inkles"):
        c = box.get(part) or {}
        for k in ("label", "name"):
            if isinstance(c.get(k), str) and _HAS_LETTER.search(c[k]):
                yield c[k], where
    for r in box.get("rows") or []:
        if isinstance(r.get("label"), str) and _HAS_LETTER.search(r["label"]):
            yield r["label"], where


def runtime_texts() -> Iterator[tuple[str, str]]:
    """``(text, where it comes from)`` for every text the pages receive as data."""
    import trumps
    from trumps.room.prefs import prefs_schema
    from trumps.room.room import game_catalogue
    from trumps.room.settings import PRESET_PHRASES, settings_schema

    for game in game_catalogue():
        where = f"options of {game['game']}"
        yield from _walk({k: v for k, v in game.items() if k != "variants"}, where)
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
                if isinstance(piece, str) and _HAS_LETTER.search(piece):
                    # the pages translate the line piece by piece, split at " · "
                    for part in piece.split(" · "):
                        if _HAS_LETTER.search(part):
                            yield part, f"rules summary of {name}"
        for preset in schema.presets:
            for extra in _player_counts(schema):
                try:
                    options = schema.resolve(preset, extra)
                except ValueError:
                    continue
                match = cls(options, seed=1)
                yield from _presentation(match.presentation(), f"presentation of {name}")
    yield from _walk(settings_schema(), "table settings")
    yield from _walk(prefs_schema(), "personal settings")
    for phrase in PRESET_PHRASES.values():
        yield phrase, "preset chat phrase"
    # OptionSchema.summary's count of other rules (one piece of the summary line)
    yield "+{n} house rule", "rules summary"
    yield "+{n} house rules", "rules summary"


def _player_counts(schema: Any) -> list[dict[str, Any]]:
    """Option sets that change the presentation beyond presets (500's six players)."""
    out: list[dict[str, Any]] = [{}]
    if "players" in schema.names:
        out += [{"players": "2v2v2"}, {"players": "3v3"}]
    return out
