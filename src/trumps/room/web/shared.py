"""What every route shares: the room, its store, the session reader, the
socket counts and the request body reader.

One object made by :func:`~trumps.room.web.app.create_app` and filled in
by its lifespan (the store and the room exist only once the server runs),
instead of a ``dict[str, Any]`` every handler read by key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import HTTPConnection, Request

from trumps.room import STATIC
from trumps.room.limits import SocketCount
from trumps.room.tables.messages import MessageError
from trumps.room.web.accounts import Sessions
from trumps.room.web.message import bad

if TYPE_CHECKING:
    from itsdangerous import URLSafeSerializer

    from trumps.room.room import Room
    from trumps.room.storage.store import Store

__all__ = ["BODY_LIMIT", "STATIC", "Web", "bad"]

BODY_LIMIT = 16_384  # bytes of a JSON request body at most

M = TypeVar("M", bound=BaseModel)


@dataclass(eq=False)
class Web:
    """The running room as the routes see it."""

    unmetered: tuple[str, ...] = ()
    store: Store | None = None
    running: Room | None = None
    signer_key: URLSafeSerializer | None = None
    sockets: SocketCount = field(default_factory=SocketCount)  # open sockets per person
    sessions: Sessions = field(init=False)

    def __post_init__(self) -> None:
        self.sessions = Sessions(self.room, self.signer)

    def room(self) -> Room:
        """The room (once the server has started)."""
        assert self.running is not None, "the room has not started"
        return self.running

    def signer(self) -> URLSafeSerializer:
        assert self.signer_key is not None, "the room has not started"
        return self.signer_key

    async def identity(self, conn: HTTPConnection) -> tuple[str | None, str]:
        """Who sent a request: their player id (None: nobody yet) and name."""
        return await self.sessions.identity(conn)

    async def body(self, request: Request, model: type[M]) -> M:
        """The request's JSON body as ``model``, or :class:`MessageError`
        naming the first fault (a body over :data:`BODY_LIMIT` is refused)."""
        raw = await request.body()
        if len(raw) > BODY_LIMIT:
            raise MessageError("request too large")
        try:
            return model.model_validate_json(raw or b"{}")
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise MessageError(f"{where or 'body'}: {first.get('msg')}") from None
