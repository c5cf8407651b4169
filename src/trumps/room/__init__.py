"""The card room: an ASGI app where people create tables, take seats, fill
empty seats with bots and play in the browser.  It knows games only through
the engine protocol (`trumps.new_game`, `apply`, `view`) and the option
metadata (`schema.describe()`), so a new game needs no room code."""

from pathlib import Path

__all__ = ["STATIC"]

#: the pages, scripts, styles and card images the room serves (``/static``)
STATIC = Path(__file__).parent / "static"
