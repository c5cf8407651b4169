"""The refusals a table answers with: kept apart so every collaborator (and
the rest of the room) can raise them without importing the actor."""

from __future__ import annotations


class RoomError(ValueError):
    """A request the table refuses (wrong seat, not the host, table full...)."""


class AccessDenied(RoomError):
    """The connection may not be at this table at all (private, removed,
    no spectators); the connection is closed after the error event."""


class TableClosed(RoomError):
    """The table stopped running in this process (handed over to another
    worker) while a request waited for it: nothing was done; the socket is
    about to be sent where the table went."""
