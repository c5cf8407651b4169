"""A move lost with its socket is sent again by the page.

A player clicks; the socket closes before the move reaches the table (its
worker is restarting, or died).  The page reconnects, is shown the very
state it answered, and sends the same move again by itself, once: the game
goes on without a second click.  Played in Debian's Chromium, with
Playwright's WebSocket routing standing between the page and the room (it
drops the first move and closes the socket with 1012, as a stopping
worker does)."""

from __future__ import annotations

import json
from typing import Any

from browser import OFFERED, PLAYABLE_CARD, LiveServer
from playwright.sync_api import Browser, WebSocketRoute
from test_browser_table import new_page, start_table, view


def test_a_move_lost_with_its_socket_is_sent_again(browser: Browser, server: LiveServer) -> None:
    page = new_page(browser, "desktop")
    sent: list[dict[str, Any]] = []  # every move the page sent, through any socket
    sockets: list[str] = []
    dropped: dict[str, Any] = {}

    def route(ws: WebSocketRoute) -> None:
        sockets.append(ws.url)
        room = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "act":
                sent.append(msg)
                if not dropped:  # the first move is lost: the socket closes under it
                    dropped.update(msg)
                    room.close()
                    ws.close(code=1012, reason="restarting")
                    return
            room.send(message)

        ws.on_message(from_page)
        room.on_message(lambda message: ws.send(message))

    page.route_web_socket("**/ws/table/**", route)
    start_table(page, server, "500", "american", {})
    page.get_by_role("button", name="Fill empty seats with bots").click()
    page.wait_for_function("() => state && state.table.status === 'playing'")
    page.wait_for_function("() => state.view.to_act === state.table.you", timeout=30_000)
    before = view(page)["seq"]
    target = page.locator(OFFERED).first
    if not target.count():
        target = page.locator("#bidbox button.call.pass:not([disabled])").first
    if not target.count():
        target = page.locator(PLAYABLE_CARD).first
    target.click()
    # no second click: the page reconnects, sees the same state, sends the move again
    page.wait_for_function("s => state.seq > s", arg=before, timeout=15_000)
    assert len(sockets) >= 2, sockets
    assert dropped and dropped["seq"] == before
    again = [m for m in sent[1:] if m["seq"] == before]
    assert again == [dropped], sent  # sent again once, the same move for the same state
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()
