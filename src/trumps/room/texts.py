"""The room's own texts for the catalogue of translations: the table
settings, the personal settings and the preset chat phrases, which the
pages receive as data (so no marking in the code finds them).

Registered with :mod:`trumps.i18n.runtime` under the ``trumps.texts``
entry point group (pyproject.toml), so that the languages know no room
module: the room tells them what it sends.
"""

from __future__ import annotations

from collections.abc import Iterator

from trumps.i18n.runtime import walk
from trumps.room.people.prefs import prefs_schema
from trumps.room.tables.settings import PRESET_PHRASES, settings_schema

__all__ = ["texts"]


def texts() -> Iterator[tuple[str, str]]:
    """``(text, where it comes from)`` for each text the room sends as data."""
    yield from walk(settings_schema(), "table settings")
    yield from walk(prefs_schema(), "personal settings")
    for phrase in PRESET_PHRASES.values():
        yield phrase, "preset chat phrase"
