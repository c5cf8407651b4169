"""The room on the web: the ASGI app and its routes, grouped by area.

:mod:`~trumps.room.web.app` assembles the app (middleware, the shared
:class:`~trumps.room.web.shared.Web`, every area's routes);
:mod:`~trumps.room.web.pages` serves the pages, :mod:`~trumps.room.web.tables`
the tables' JSON API and :mod:`~trumps.room.web.sockets` the lobby's and the
tables' WebSockets.  The rest of the room knows nothing of HTTP.
"""
