"""``ViewInfo`` behaves as the plain dict ``{"view": ...}`` whichever way it
is read, and makes the view once, on first read."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

from trumps.envs.lazy import ViewInfo


def _info() -> tuple[ViewInfo, list[int]]:
    calls: list[int] = []

    def make() -> dict[str, Any]:
        calls.append(1)
        return {"seat": "N", "hands": {"N": ["AS"]}}

    return ViewInfo(make), calls


PLAIN = {"view": {"seat": "N", "hands": {"N": ["AS"]}}}


def test_not_made_until_read_then_once() -> None:
    info, calls = _info()
    assert calls == []
    assert info["view"]["seat"] == "N"
    assert info["view"] is info["view"]
    assert calls == [1]


def test_every_way_of_reading_sees_the_view() -> None:
    readers = [
        lambda i: i["view"],
        lambda i: i.get("view"),
        lambda i: "view" in i,
        lambda i: list(i),
        lambda i: len(i),
        lambda i: bool(i),
        lambda i: list(i.keys()),
        lambda i: list(i.values()),
        lambda i: list(i.items()),
        lambda i: dict(i),
        lambda i: {**i},
        lambda i: json.loads(json.dumps(i)),
        lambda i: pickle.loads(pickle.dumps(i)),
        lambda i: copy.copy(i),
        lambda i: copy.deepcopy(i),
        lambda i: i.copy(),
        lambda i: i | {},
        lambda i: repr(i),
        lambda i: i == PLAIN,
    ]
    for read in readers:
        info, _ = _info()
        plain = copy.deepcopy(PLAIN)
        assert read(info) == read(plain), read


def test_writes_keep_the_view() -> None:
    info, _ = _info()
    info["extra"] = 1
    assert set(info) == {"view", "extra"}
    info, _ = _info()
    info.update(more=2)
    assert info["view"]["seat"] == "N" and info["more"] == 2
    info, _ = _info()
    assert info.pop("view")["seat"] == "N" and len(info) == 0
