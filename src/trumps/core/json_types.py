"""Names for the JSON data that crosses the engine's edges: views, records,
presentations, the room's messages.

``JSON`` is any JSON value and ``JSONObject`` a JSON object: a function
that builds one is checked by mypy to put only JSON in it (so a view can
always be sent and stored), where ``dict[str, Any]`` checked nothing.  Code
that reads a value back out narrows it (``isinstance``) or, where the shape
is fixed, reads it through a ``TypedDict``.

>>> from trumps.core.json_types import JSONObject
>>> view: JSONObject = {"seat": "N", "hand": ["AS", "KS"], "scores": [0, 0]}
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["JSON", "JSONObject"]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
JSONObject: TypeAlias = "dict[str, JSON]"
