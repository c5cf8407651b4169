"""The room's JSON (trumps.room.wire): the same JSON as the standard
library for what the room sends, bytes measured as bytes, and bad input
refused with a ValueError."""

from __future__ import annotations

import json

import pytest

from trumps.room import wire
from trumps.room.tables.messages import MessageError, parse_client_message


def test_same_values_as_the_standard_library() -> None:
    event = {
        "v": 1,
        "type": "state",
        "seq": 12,
        "scores": {0: 40, 1: -120},  # keys that are not strings become strings, as with json
        "hand": ["AS", "10H"],
        "trick": [],
        "ratio": 0.5,
        "ok": True,
        "none": None,
        "text": 'Sé "fair" — 你好 \\ \n',
    }
    text = wire.dumps(event)
    assert json.loads(text) == json.loads(json.dumps(event))
    assert " " not in wire.dumps({"a": [1, 2]})  # compact
    assert wire.loads(text) == json.loads(json.dumps(event))
    assert wire.loads(wire.dumpb(event)) == wire.loads(text)


def test_non_ascii_is_utf8_so_bytes_exceed_characters() -> None:
    text = wire.dumps({"t": "你好"})
    assert len(wire.dumpb({"t": "你好"})) == len(text.encode()) > len(text)


@pytest.mark.parametrize(
    "raw", ["", "{", "NaN", '{"a": NaN}', '"\\ud800"', b"\xff\xfe", "[" * 2000 + "]" * 2000]
)
def test_not_json_is_a_value_error(raw: str | bytes) -> None:
    with pytest.raises(ValueError):
        wire.loads(raw)


@pytest.mark.parametrize(
    "raw", ['{"v": 1, "type": "act", "action": NaN}', b'{"v": 1, "type": "chat", "text": "\xff"}']
)
def test_client_message_that_is_not_json(raw: str | bytes) -> None:
    with pytest.raises(MessageError, match="malformed JSON"):
        parse_client_message(raw)
