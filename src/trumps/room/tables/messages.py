"""Messages on the wire, validated with pydantic.

Every message carries ``v`` (the protocol version).  A client message that
does not validate is answered with an ``error`` event and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from trumps.room import wire
from trumps.room.validate import Line, Text

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "ClientMessage",
    "MessageError",
    "error_event",
    "parse_client_message",
]

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096
#: The largest sequence number a client may name: far beyond any game, and
#: within the 53 bits every JSON reader (and the bus between workers) keeps.
MAX_SEQ = 10**12

# every text field refuses control characters (a NUL cannot be stored in
# PostgreSQL, and none has a use in a seat, an action or an id)
SeatText = Annotated[Line, Field(min_length=1, max_length=5)]
Seq = Annotated[int, Field(ge=0, le=MAX_SEQ)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    v: Literal[1]


class Hello(_Msg):
    """Sent on (re)connect: ``since`` is the last event sequence the client saw."""

    type: Literal["hello"]
    since: Seq | None = None  # left out: just the current state

    @field_validator("since", mode="before")
    @classmethod
    def _given_means_a_number(cls, since: object) -> object:
        if since is None:
            raise ValueError("since must be a whole number (leave it out for the current state)")
        return since


class Act(_Msg):
    type: Literal["act"]
    action: Annotated[Line, Field(min_length=1, max_length=16)]
    seq: Seq | None = None  # the state the client acted on


class Sit(_Msg):
    type: Literal["sit"]
    seat: SeatText


class Stand(_Msg):
    type: Literal["stand"]


class Back(_Msg):
    """A player marked away after running out of time takes the seat back."""

    type: Literal["back"]


class SetBot(_Msg):
    """Host only: put a bot in ``seat`` (``kind`` a level: "easy" = "rules",
    "normal", "strong"; or "random") or remove it (``kind`` null)."""

    type: Literal["bot"]
    seat: SeatText
    kind: Literal["rules", "easy", "normal", "strong", "random"] | None = "rules"


class FillBots(_Msg):
    """Host only: a bot (of level ``kind``) in every empty seat."""

    type: Literal["fill"]
    kind: Literal["rules", "easy", "normal", "strong", "random"] = "rules"


class Suggest(_Msg):
    """Switch the bot's suggestions on or off for yourself."""

    type: Literal["suggest"]
    on: bool


class Kick(_Msg):
    """Host only: remove a spectator (by player id) from the table for good."""

    type: Literal["kick"]
    player: Annotated[Line, Field(min_length=1, max_length=40)]


class Invite(_Msg):
    """Host only: revoke the invitation (a new code replaces it)."""

    type: Literal["invite"]
    action: Literal["revoke"]


class Chat(_Msg):
    """A chat line: ``text`` typed, or ``phrase``, the key of a preset phrase
    (each reader sees it in their own language)."""

    type: Literal["chat"]
    text: Annotated[Text, Field(min_length=1, max_length=300)] | None = None
    phrase: Annotated[Line, Field(min_length=1, max_length=32)] | None = None

    @model_validator(mode="after")
    def _one_of(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("send either text or a phrase")
        return self


AnyMessage = Hello | Act | Sit | Stand | Back | SetBot | FillBots | Chat | Suggest | Kick | Invite
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
_adapter: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)


class MessageError(ValueError):
    """A client message was malformed; ``str()`` is the reason sent back."""


def parse_client_message(raw: str | bytes) -> AnyMessage:
    """Validate one client message or raise :class:`MessageError` with a
    short reason a person can read."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise MessageError(f"message too large ({size} bytes; limit {MAX_MESSAGE_BYTES})")
    try:
        data = wire.loads(raw)
    except (ValueError, RecursionError):  # wire.DecodeError is a ValueError
        raise MessageError("malformed JSON") from None
    if not isinstance(data, dict):
        raise MessageError("a message must be a JSON object")
    version = data.get("v")
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise MessageError(
            f"unsupported protocol version {data.get('v')!r} (this server speaks {PROTOCOL_VERSION})"
        )
    known = ("hello", "act", "sit", "stand", "back", "bot", "fill", "chat", "suggest", "kick", "invite")
    if data.get("type") not in known:
        raise MessageError(f"unknown message type {data.get('type')!r}")
    try:
        msg = _adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if p != data.get("type"))
        raise MessageError(
            f"invalid {data['type']} message: {where or 'message'}: {first.get('msg')}"
        ) from None
    return msg


def error_event(reason: str, seq: int | None = None) -> dict[str, object]:
    return {"v": PROTOCOL_VERSION, "type": "error", "reason": reason, "seq": seq}
