"""Names for the JSON data that crosses the engine's edges: views, records,
presentations, the room's messages.

``dict[str, Any]`` let anything in and promised nothing on the way out.
``JSON`` is any JSON value, so mypy checks that a function building a view
or a record puts only JSON in it (it can always be sent and stored).  The
containers are the read-only ``Sequence`` and ``Mapping``, so a
``list[str]`` or a ``dict[str, int]`` already is JSON without a copy (a
``list[JSON]`` would refuse a ``list[str]``: lists are invariant); a tuple
is written as a list by :mod:`json`.  ``JSONDict`` is the mutable object a
function fills before it hands it on.  Code that reads a value back out
narrows it (``isinstance``) or, where the shape is fixed, reads it through
a ``TypedDict``.

>>> from trumps.core.json_types import JSONDict
>>> view: JSONDict = {"seat": "N", "hand": ["AS", "KS"], "scores": (0, 0)}
>>> hand = view["hand"]
>>> [c for c in hand if isinstance(c, str) and c.endswith("S")] if isinstance(hand, list) else []
['AS', 'KS']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

__all__ = ["JSON", "JSONDict", "JSONObject"]

JSON: TypeAlias = "bool | int | float | str | Sequence[JSON] | Mapping[str, JSON] | None"
JSONObject: TypeAlias = "Mapping[str, JSON]"
JSONDict: TypeAlias = "dict[str, JSON]"
