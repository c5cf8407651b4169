"""Answers that say one thing: a refusal as the API gives it (:func:`bad`),
and pages for a table that does not exist, or that the reader may not open.  A real page (the room's look, a phone's viewport, the way back
to the lobby, the reader's language), not a bare line of English text: the
address may come from a stale link or a friend's message."""

from __future__ import annotations

from html import escape

from starlette.responses import HTMLResponse, JSONResponse

from trumps.i18n import Translator

__all__ = ["bad", "message_page"]


def bad(reason: str, status: int = 400, **headers: str) -> JSONResponse:
    """A refusal as the API gives it: ``{"error": reason}`` (with ``headers``,
    such as ``Retry-After``)."""
    return JSONResponse({"error": reason}, status_code=status, headers=headers or None)


def message_page(words: Translator, message: str, status: int, lang: str = "en") -> HTMLResponse:
    """``message`` (already in the reader's language) as a page with ``status``."""
    back = escape(words.gettext("Back to the lobby"))
    text = escape(message)
    html = f"""<!doctype html>
<html lang="{escape(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>trumps — {text}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
</head>
<body>
<header><a href="/">← trumps</a><h1>{text}</h1></header>
<main class="lobby">
  <section class="panel">
    <p>{text}</p>
    <p><a class="button primary" href="/">{back}</a></p>
  </section>
</main>
</body>
</html>
"""
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})
