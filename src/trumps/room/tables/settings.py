"""Table settings: how a table is run, as opposed to the rules of its game.

The rules (variation, players, kitty size, must bid to win, nullo options...)
are the engine's options; these are the card room's own settings, chosen
when the table is created and shown in the lobby: move timers, chat,
spectators, invitation, suggestions, start time and competition buy-in.

>>> TableSettings().bid_time, TableSettings().chat
(0, 'text')
>>> TableSettings(kind="compete", buy_in=110).suggestions
False
>>> TableSettings(buy_in=110).kind
'compete'
>>> TableSettings.model_validate({"bid_time": 9})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for TableSettings
...
"""

from __future__ import annotations

import logging
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)

__all__ = [
    "BUY_INS",
    "CHOICE_WORDS",
    "LATEST_START",
    "MAX_SPECTATORS",
    "PHRASE_OF_TEXT",
    "PRESET_PHRASES",
    "SCHEDULE_HORIZON",
    "SUMMARY_WORDS",
    "TIME_LIMITS",
    "TableSettings",
    "bot_level",
    "settings_schema",
]

#: Time limits (seconds, 0 = off) for calls and for cards.
TIME_LIMITS = (0, 7, 15, 30, 60)
#: Competition buy-ins in play chips (0 = a friendly game).
BUY_INS = (0, 30, 110, 275, 550)
#: The most spectators a table admits.
MAX_SPECTATORS = 10
#: How far ahead a table may be scheduled, in seconds.
SCHEDULE_HORIZON = 24 * 3600
#: The latest start time any table may carry (2100-01-01 UTC, in seconds
#: since 1970): a bound of the type, checked even where the clock is not at
#: hand (a stored table read back); creation also checks :data:`SCHEDULE_HORIZON`.
LATEST_START = 4_102_444_800.0

log = logging.getLogger("trumps.room")
#: The phrases of "preset" chat, in the order the page shows them: a phrase
#: travels as its key and each reader sees it in their own language.
PRESET_PHRASES: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "well_played": "Well played!",
    "nice_bid": "Nice bid!",
    "oops": "Oops!",
    "sorry": "Sorry, partner",
    "thanks": "Thanks!",
    "hurry": "Hurry up, please",
    "again": "One more game?",
    "good_game": "Good game!",
    "bye": "Bye!",
}
#: A phrase's key from its English text (a chat line typed as exactly a phrase is that phrase).
PHRASE_OF_TEXT = {text: key for key, text in PRESET_PHRASES.items()}


TimeLimit = Literal[0, 7, 15, 30, 60]


class TableSettings(BaseModel):
    """A table's room settings; unknown keys and bad values are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    kind: Literal["join", "compete", "play", "tournament"] = Field(
        default="join",
        title="Kind of game",
        description="Join: a table of friends with any rules; Compete: chips, no suggestions, accounts only; "
        "Play: made by the Play button; Tournament: one deal of a tournament",
    )
    bid_time: TimeLimit = Field(
        default=0, title="Bid time", description="Time for each call; when it runs out, a bot calls for you."
    )
    play_time: TimeLimit = Field(
        default=0,
        title="Play time",
        description="Time for each card (kitty discards too); when it runs out, a bot plays for you.",
    )
    chat: Literal["none", "preset", "text"] = Field(
        default="text",
        title="Chat during the game",
        description="Chat is always open before and after the game.",
    )
    spectator_chat: bool = Field(
        default=True, title="Spectators may chat", description="People watching may chat among themselves."
    )
    watching: bool = Field(
        default=True,
        title="Allow watching",
        description="Up to 10 people may watch; they see nobody's cards.",
    )
    private: bool = Field(
        default=False,
        title="Must be invited",
        description="Not listed in the lobby: people come in by your link or code.",
    )
    suggestions: bool = Field(
        default=True,
        title="Allow suggestions",
        description="Players may ask the bot for a suggested call or card.",
    )
    # finite and within the calendar: a NaN passed every comparison with the
    # clock, was stored, and the lobby's JSON could not encode it (issue 29)
    start_at: float | None = Field(
        default=None,
        title="Start",
        description="Now, or at a time within 24 hours: empty seats then get bots.",
        allow_inf_nan=False,
        ge=0,
        le=LATEST_START,
    )
    buy_in: Literal[0, 30, 110, 275, 550] = Field(
        default=0,
        title="Buy-in",
        description="Play chips each player stakes; the winners share them.",
    )
    # a tournament's deal (trumps.room.tournaments): which tournament and which deal.
    # Made by the room, never by a form; never the plan, whose seed deals every hand
    tournament: str | None = Field(default=None, max_length=32, title="Tournament")
    tournament_deal: int | None = Field(default=None, ge=0, le=64, title="Deal")

    @model_validator(mode="before")
    @classmethod
    def _kind_rules(cls, data: object) -> object:
        """A table stored before kinds existed is a Compete table if it has a
        buy-in, else a Join table.  Suggestions are forced off in Compete
        games and on in Play games, whatever was asked (seed: "always yes in
        Play games, no in Compete games")."""
        if not isinstance(data, dict):
            return data
        if "kind" not in data:
            data = {**data, "kind": "compete" if data.get("buy_in") else "join"}
        if data.get("kind") == "compete":
            return {**data, "suggestions": False}
        if data.get("kind") == "play":
            return {**data, "suggestions": True}
        if data.get("kind") == "tournament":  # alone with the bots, as everyone who plays the deal
            return {**data, "suggestions": False, "private": True, "watching": False, "chat": "none"}
        return data

    @model_validator(mode="after")
    def _buy_in_only_in_compete(self) -> TableSettings:
        if self.kind == "compete" and not self.buy_in:
            raise ValueError("a Compete table needs a buy-in (30, 110, 275 or 550 chips)")
        if self.kind != "compete" and self.buy_in:
            raise ValueError("only Compete tables have a buy-in")
        if self.kind == "play" and (self.private or self.start_at is not None):
            raise ValueError("Play tables start now and are not invitation-only")
        if self.kind == "tournament":
            if self.tournament is None or self.tournament_deal is None:
                raise ValueError("a tournament table names its tournament and deal, and no other table does")
        elif self.tournament is not None or self.tournament_deal is not None:
            raise ValueError("a tournament table names its tournament and deal, and no other table does")
        return self

    @model_serializer(mode="wrap")
    def _without_empty_room_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """Every table but a tournament's stores and shows its settings as
        before: the tournament fields only where they are set."""
        data: dict[str, object] = handler(self)
        for name in ROOM_ONLY:
            if data.get(name) is None:
                data.pop(name, None)
        return data

    @classmethod
    def from_stored(cls, data: object, table: str = "?") -> TableSettings:
        """The settings of a stored table, read leniently: a value the
        checks refuse (a row written before they existed, e.g. a NaN start
        time) is dropped for its default and logged, so that the table
        still runs and the lobby still lists it; the row itself is left as
        it is.  Raises ``ValidationError`` only when dropping the bad values
        does not help (the table is then set aside by the caller)."""
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            if not isinstance(data, dict):
                raise
            bad = {str(e["loc"][0]) for e in exc.errors() if e.get("loc")}
            if not bad and data.get("kind") != "tournament":  # a tournament's fields on another table
                bad = {
                    name for name in ROOM_ONLY if data.get(name) is not None
                }  # (a form could set them once)
            if not bad:
                raise
            log.warning(
                "table %s: stored settings %s are not valid; their defaults are used", table, sorted(bad)
            )
            return cls.model_validate({k: v for k, v in data.items() if k not in bad})

    @property
    def competition(self) -> bool:
        return self.kind == "compete"

    def time_limit(self, card: bool) -> int:
        """The limit for the next action: a card, or anything else."""
        return self.play_time if card else self.bid_time


#: A setting's value as the forms and the lobby name it (``"*"``: any value set).
SettingValue = str | int | bool

#: The words for each setting's values (what a form and the lobby show).
CHOICE_WORDS: dict[str, dict[SettingValue, str]] = {
    "kind": {"join": "Join", "compete": "Compete", "play": "Play", "tournament": "Tournament"},
    "bid_time": {t: f"{t} s" if t else "off" for t in TIME_LIMITS},
    "play_time": {t: f"{t} s" if t else "off" for t in TIME_LIMITS},
    "chat": {"none": "none", "preset": "preset phrases", "text": "text"},
    "buy_in": {b: f"{b} chips" if b else "friendly game" for b in BUY_INS},
}

#: How a setting reads in a table's one-line description in the lobby, per
#: value (a value not listed says nothing); ``{value}``: the value's words
#: (the page fills it; a start time in the reader's own time zone).
SUMMARY_WORDS: dict[str, dict[SettingValue, str]] = {
    "bid_time": {t: "bid {value}" for t in TIME_LIMITS if t},
    "play_time": {t: "play {value}" for t in TIME_LIMITS if t},
    "buy_in": {b: "buy-in {value}" for b in BUY_INS if b},
    "chat": {"none": "no chat", "preset": "preset chat"},
    "watching": {False: "no spectators"},
    "private": {True: "invitation only"},
    "suggestions": {False: "no suggestions"},
    "start_at": {"*": "starts {value}"},
}

#: The groups of the settings, as the seed room groups them ("When",
#: "Winnings", "Limits"); ``kind`` is chosen by the lobby's tab.
SETTING_GROUPS = {"start_at": ("when", "When"), "buy_in": ("winnings", "Winnings"), "kind": ("kind", "Kind")}
#: settings the room sets and no form shows
ROOM_ONLY = ("tournament", "tournament_deal")
LIMITS = ("limits", "Limits")


def settings_schema() -> list[dict[str, object]]:
    """Metadata for the create-table form: name, type, choices, default,
    doc (= help), label, choice_labels (``[{"value", "label"}]``), group,
    group_label and summary (``[{"value", "text"}]``; value ``"*"``: any
    value that is set)."""
    out = []
    schema = TableSettings.model_json_schema()["properties"]
    for name, field in TableSettings.model_fields.items():
        if name in ROOM_ONLY:
            continue
        info = schema[name]
        choices: list[SettingValue] | None = None
        if "enum" in info:
            choices = list(info["enum"])
        kind = "bool" if info.get("type") == "boolean" else "time" if name == "start_at" else "choice"
        words = CHOICE_WORDS.get(name, {True: "yes", False: "no"} if kind == "bool" else {})
        values = [True, False] if kind == "bool" else choices or []
        group, group_label = SETTING_GROUPS.get(name, LIMITS)
        out.append(
            {
                "name": name,
                "type": kind,
                "choices": choices,
                "default": field.default,
                "doc": field.description,
                "label": field.title or name,
                "help": field.description,
                "choice_labels": [{"value": v, "label": words.get(v, str(v))} for v in values],
                "group": group,
                "group_label": group_label,
                "summary": [{"value": v, "text": t} for v, t in SUMMARY_WORDS.get(name, {}).items()],
            }
        )
    return out


def bot_level(kind: str) -> str:
    """A bot kind's level: ``easy`` and ``rules`` are the same bot.

    >>> bot_level("easy"), bot_level("rules"), bot_level("strong")
    ('rules', 'rules', 'strong')
    """
    return "rules" if kind == "easy" else kind
