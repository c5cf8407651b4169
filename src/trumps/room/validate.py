"""Shared input checks: text without control characters, identifiers of
the allowed characters only, strict whole numbers, and the ASGI middleware
that refuses an address carrying a control character.

Why one module: every input a client sends reaches a handler, the
database or another worker's bus, and each of them breaks differently on
what the others let through.  PostgreSQL refuses a NUL in any text
(``A string literal cannot contain NUL``: a 500 on eleven inputs before this
module), ``"²".isdigit()`` is true but ``int("²")`` is not, and the JSON of
the sockets (orjson) cannot encode an integer beyond 64 bits.  So inputs are
checked here, at the edge, before anything is stored or looked up:

>>> parse_int("42", 1, 100), parse_int("²", 1, 100), parse_int("1000", 1, 100)
(42, None, None)
>>> control_characters("a\\x00b"), control_characters("line\\nbreak"), control_characters("é ♠")
(True, False, False)
>>> TABLE_ID.fullmatch("aB3_-x") is not None, TABLE_ID.fullmatch("a b") is not None
(True, False)
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar
from urllib.parse import unquote_to_bytes

from pydantic import AfterValidator, BaseModel
from pydantic_core import PydanticCustomError
from starlette.convertors import Convertor, register_url_convertor

from trumps.i18n import N_

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = [
    "ADDRESS_REFUSED",
    "NAME",
    "TABLE_ID",
    "BodyReader",
    "Line",
    "RefuseControlCharacters",
    "Text",
    "control_characters",
    "parse_int",
]

_M = TypeVar("_M", bound=BaseModel)


class BodyReader(Protocol):
    """Reads a request's JSON body as ``model`` (the app's ``body``: a size
    bound, then pydantic), or raises a ``MessageError`` naming the first fault."""

    async def __call__(self, request: Request, model: type[_M]) -> _M: ...


#: A table's id (``store.new_id``: URL-safe base64), also a record's and a
#: replay's; a player's id has the same alphabet.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
#: What a profile address may name: a username (``accounts.USERNAME``) or a player id.
NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
#: The most digits a whole number in an address may have (a sequence
#: number, an invitation, a limit: far below 2**53 and the 64 bits of the bus).
MAX_DIGITS = 12

#: The error of an address (path or query) carrying a control character.
ADDRESS_REFUSED = N_("control characters (such as NUL) are not allowed in the address")


def control_characters(text: str, allowed: str = "\t\n") -> bool:
    """Whether ``text`` holds a control character (Unicode Cc: NUL, the C0
    and C1 controls, DEL) other than ``allowed``, or a lone surrogate (Cs:
    no UTF-8 encoder takes it, so neither the sockets nor PostgreSQL)."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in allowed for ch in text)


#: The refusal of text holding a control character (a custom error, so the
#: answer says just this, without pydantic's "Value error, " before it).
CONTROL_REFUSED = N_("control characters are not allowed")


_ERROR_TYPE = "control_characters"  # pydantic's name of the error (not a message)


def _refused() -> PydanticCustomError:
    """The custom error (its message ``CONTROL_REFUSED``, extracted above)."""
    return PydanticCustomError(_ERROR_TYPE, CONTROL_REFUSED)


def _text(text: str) -> str:
    if control_characters(text):
        raise _refused()
    return text


def _line(text: str) -> str:
    if control_characters(text, allowed=""):
        raise _refused()
    return text


#: Text a person typed (a chat line, a name): no control character but tab and newline.
Text = Annotated[str, AfterValidator(_text)]
#: One line (a username, a code, an identifier, a key): no control character at all.
Line = Annotated[str, AfterValidator(_line)]


def parse_int(text: str | None, least: int, most: int) -> int | None:
    """``text`` as a whole number from ``least`` to ``most``, or None:
    ASCII digits only (``str.isdigit`` also takes "²" and "٣", which
    ``int`` refuses or reads), at most :data:`MAX_DIGITS` of them."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        return None
    value = int(text)
    return value if least <= value <= most else None


class _TableId(Convertor[str]):
    """A path parameter that matches only a table id's characters: any other
    address is simply not found (a 404), never a lookup."""

    regex = TABLE_ID.pattern

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


class _Name(_TableId):
    """A profile's name in a path (a username or a player id)."""

    regex = NAME.pattern


# ``{tid:tid}`` in a route: a table (record, replay) id; ``{name:name}``: a profile's name.
register_url_convertor("tid", _TableId())
register_url_convertor("name", _Name())

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]
]


def _bad_address(scope: Scope) -> bool:
    path = scope.get("path", "")
    if isinstance(path, str) and control_characters(path, allowed=""):
        return True
    query = unquote_to_bytes(scope.get("query_string", b"") or b"")
    return any(b < 0x20 or b == 0x7F for b in query)


class RefuseControlCharacters:
    """ASGI middleware: a request or WebSocket handshake whose path or query
    holds a control character (``%00`` above all) is answered 400 with a
    JSON error (a socket: closed with code 4400) before any route runs.  No
    address of the room has a use for one, and a NUL reaching PostgreSQL is
    a 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(
        self,
        scope: Scope,
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        if scope["type"] not in ("http", "websocket") or not _bad_address(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4400, "reason": ADDRESS_REFUSED})
            return
        body = json.dumps({"error": ADDRESS_REFUSED}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})
