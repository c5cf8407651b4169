"""Personal settings: how the table looks and behaves for one person.

Stored per account (the ``prefs`` column); a guest's are kept by their
browser (the pages keep the same object in ``localStorage``).  The page
builds its settings form from :func:`prefs_schema`, so labels and help
texts live here, not in the page.

>>> Prefs().card_order, Prefs(four_colours=True).four_colours, Prefs().high_contrast
('alternate', True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from trumps.room.storage.db import Player
from trumps.room.tables.table import RoomError

if TYPE_CHECKING:
    from trumps.room.storage.store import Store

__all__ = ["Prefs", "get_prefs", "prefs_schema", "set_prefs"]


class Prefs(BaseModel):
    """One person's settings; unknown keys and bad values are refused."""

    model_config = ConfigDict(extra="forbid", strict=True)

    suggestions: bool = Field(
        default=False, title="Show suggestions",
        description="Turn the bot's suggestions on by itself at every table that allows them",
    )  # fmt: skip
    confirm_card: bool = Field(
        default=False, title="Confirm card play",
        description="A card is played on a second tap, so a slip of the finger costs nothing",
    )  # fmt: skip
    card_order: Literal["alternate", "suits"] = Field(
        default="alternate", title="Card order",
        description="Sort your hand with red and black suits alternating, or in plain suit order",
    )  # fmt: skip
    trumps_first: bool = Field(
        default=True, title="Trumps first", description="Put the trump suit at the left of your hand"
    )
    four_colours: bool = Field(
        default=False, title="Four-colour deck",
        description="Clubs green and diamonds blue, so the four suits never look alike",
    )  # fmt: skip
    high_contrast: bool = Field(
        default=False, title="High-contrast cards",
        description="Pure black and red on white, thicker outlines and larger corner letters",
    )  # fmt: skip
    animation: Literal["off", "fast", "normal", "slow"] = Field(
        default="normal", title="Animation speed",
        description="How fast cards move (off also follows your system's reduced-motion setting)",
    )  # fmt: skip
    language: Literal["auto", "en", "de", "fr"] = Field(
        default="auto", title="Language", description="The room's language (auto: your browser's)"
    )


def prefs_schema() -> list[dict[str, object]]:
    """Every setting with its label, help, type, choices and default."""
    out = []
    schema = Prefs.model_json_schema()["properties"]
    for name, field in Prefs.model_fields.items():
        info = schema[name]
        out.append(
            {
                "name": name,
                "label": field.title,
                "help": field.description,
                "type": "bool" if info.get("type") == "boolean" else "choice",
                "choices": info.get("enum"),
                "default": field.default,
            }
        )
    return out


def get_prefs(store: Store, pid: str) -> dict[str, object]:
    """The account's settings, defaults filled in (stored keys that are no
    longer known are dropped)."""
    with store.sessions() as s:
        p = s.get(Player, pid)
        stored = dict(p.prefs or {}) if p is not None else {}
    known = {k: v for k, v in stored.items() if k in Prefs.model_fields}
    try:
        return Prefs.model_validate(known).model_dump()
    except ValidationError:
        return Prefs().model_dump()


def set_prefs(store: Store, pid: str, changes: Mapping[str, object]) -> dict[str, object]:
    """Change some settings of an account; returns them all."""
    try:
        current = get_prefs(store, pid)
        new = Prefs.model_validate({**current, **changes}).model_dump()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise RoomError(f"{where}: {first.get('msg')}") from None
    with store.sessions.begin() as s:
        p = s.get(Player, pid)
        if p is None or p.username_key is None:
            raise RoomError("guests keep their settings in their browser")
        p.prefs = new
    return new
