"""The messages workers send each other over the bus, one shape per kind.

Every message is a JSON object whose ``k`` names its kind; the bus adds
``from`` (the sending worker).  The workers are one program, so a message
read back has the shape its kind names: :class:`~trumps.room.cluster.node.Cluster`
dispatches on ``k`` to a handler that declares the kind it reads, and mypy
checks every key a handler uses against it.  The senders build plain dicts
(the bus takes any JSON object and adds ``from``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

if TYPE_CHECKING:
    from trumps.room.tables.table import TableSummary

__all__ = [
    "AccessFacts",
    "Answer",
    "AnswerMessage",
    "Ask",
    "AskMessage",
    "AskRequest",
    "BusMessage",
    "ClientMessage",
    "CloseMessage",
    "EndedMessage",
    "EventMessage",
    "OpenMessage",
    "PersonMessage",
    "PresenceMessage",
    "PushMessage",
    "ReleasedMessage",
    "SocketMessage",
    "SummaryMessage",
    "TableMessage",
]

#: what every message carries (``from`` is a keyword: the functional form)
BusMessage = TypedDict("BusMessage", {"k": str, "from": str})


class AccessFacts(TypedDict):
    """What the access rules read of a table run elsewhere (:func:`trumps.room.tables.access`)."""

    host: str
    seats: list[str | None]
    pending: list[str]
    invited: list[str]
    banned: list[str]
    invite: str | None


class TableMessage(BusMessage):
    """``unlisted``, ``owned``, ``declined``: about one table."""

    t: str


class SummaryMessage(TableMessage):
    """``summary``: a table's lobby entry and access facts changed."""

    s: TableSummary
    a: AccessFacts


class ReleasedMessage(TableMessage):
    """``released``: a table was let go, to ``to`` (None: to anyone)."""

    to: str | None


class SocketMessage(BusMessage):
    """``opened``, ``nothere``, ``moved``, ``gone``: about one relayed socket."""

    c: str


class OpenMessage(SocketMessage):
    """``open``: connect a relayed socket to the table ``t``."""

    t: str
    p: str | None
    n: str | None
    pk: str | None
    since: int | None
    to: str | None
    repair: bool


class ClientMessage(SocketMessage):
    """``msg``: the client's raw text, or (``repair``) a replay asked by its worker."""

    raw: str
    repair: NotRequired[int]


class EventMessage(SocketMessage):
    """``ev``: an event for the relayed socket's client."""

    e: dict[str, object]


class CloseMessage(SocketMessage):
    """``close``: the table closed the socket with ``code``."""

    code: int


class PersonMessage(BusMessage):
    """``renamed``: about one person."""

    p: str


class PresenceMessage(PersonMessage):
    """``presence``: the person's socket on the sender opened or closed."""

    on: bool


class PushMessage(PersonMessage):
    """``push``: an event for the person's own channel."""

    e: dict[str, object]


class EndedMessage(BusMessage):
    """``ended``: these login sessions are revoked."""

    sids: list[str]


class AskRequest(TypedDict, total=False):
    """What an ``ask`` asks the table's or the matchmaker's worker."""

    what: str
    player: str
    game: str
    rules: str
    since: float | None


class Ask(TypedDict):
    """``ask`` as sent: a request for the owner of table ``t`` (None: the
    matchmaker), kept by the asker until it is answered."""

    k: str
    t: str | None
    id: str
    q: AskRequest


class AskMessage(BusMessage, Ask):
    """``ask`` as it arrives."""


class Answer(TypedDict, total=False):
    """The owner's answer to an ``ask``: ``ok``, and what was asked for
    (``table`` a Play press's table, ``waiting`` the matchmaker's counts),
    or why not (``cancelled``, ``timeout``, ``error``)."""

    ok: bool
    table: str
    cancelled: bool
    waiting: dict[str, int]
    timeout: bool
    error: str


class AnswerMessage(BusMessage):
    """``answer``: the answer to the ask ``id``."""

    id: str
    a: Answer
