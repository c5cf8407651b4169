"""``infos[agent]``: a real dict whose ``"view"`` is made when first read.

A view costs several engine steps, and most training loops never read it;
making it on every step was most of the environment's cost.  A
:class:`ViewInfo` holds a function that makes the view and calls it the
first time the dict is read in any way (``info["view"]``, ``get``, ``in``,
iteration, ``len``, ``==``, ``dict(info)``, JSON, pickling, copying).  The
function gives the view of the state the info was made for, even when read
after the environment has stepped on (the environment replays its actions
for that), so reading late gives the same dict as reading at once.

Only code that reads a dict's storage directly, bypassing its methods
(``dict.get(info, "view")`` unbound, some C extensions such as orjson),
can see the placeholder ``None`` of a view not made yet; ``dict(info)``
gives a plain dict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from trumps.core.json_types import JSONObject

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

    from _typeshed import SupportsKeysAndGetItem

__all__ = ["ViewInfo"]


class ViewInfo(dict[str, object]):
    """``{"view": make()}``, with ``make`` called on first read."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], JSONObject]) -> None:
        # the key is there from the start (C code that reads a dict's size
        # directly, as the json encoder does, must not see an empty dict)
        dict.__setitem__(self, "view", None)  # (not super().__init__(view=None): a third cheaper)
        self._make: Callable[[], JSONObject] | None = make

    def _load(self) -> None:
        make = self._make
        if make is not None:
            dict.__setitem__(self, "view", make())  # (if it raises, the next read tries again)
            self._make = None

    def __getitem__(self, key: str) -> object:
        self._load()
        return dict.__getitem__(self, key)

    def __setitem__(self, key: str, value: object) -> None:
        self._load()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self._load()
        dict.__delitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._load()
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._load()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load()
        return dict.__len__(self)

    def __eq__(self, other: object) -> bool:
        self._load()
        if isinstance(other, ViewInfo):
            other._load()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._load()
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[type[dict[str, object]], tuple[dict[str, object]]]:
        self._load()
        return (dict, (dict(self.items()),))

    def __copy__(self) -> dict[str, object]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> dict[str, object]:
        import copy

        return copy.deepcopy(self.copy(), memo)

    def __or__(self, other: dict[str, object]) -> dict[str, object]:  # type: ignore[override]
        out: dict[str, object] = self.copy() | other
        return out

    def __ior__(self, other: SupportsKeysAndGetItem[str, object] | Iterable[tuple[str, object]]) -> ViewInfo:  # type: ignore[override]
        self.update(other)
        return self

    def get(self, key: str, default: object = None) -> object:
        self._load()
        return dict.get(self, key, default)

    def keys(self) -> dict_keys[str, object]:
        self._load()
        return dict.keys(self)

    def values(self) -> dict_values[str, object]:
        self._load()
        return dict.values(self)

    def items(self) -> dict_items[str, object]:
        self._load()
        return dict.items(self)

    def copy(self) -> dict[str, object]:
        self._load()
        return dict(dict.items(self))

    def pop(self, key: str, *default: object) -> object:
        self._load()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, object]:
        self._load()
        return dict.popitem(self)

    def setdefault(self, key: str, default: object = None) -> object:
        self._load()
        return dict.setdefault(self, key, default)

    def update(
        self, other: SupportsKeysAndGetItem[str, object] | Iterable[tuple[str, object]] = (), /, **kw: object
    ) -> None:
        self._load()
        dict.update(self, other, **kw)

    def clear(self) -> None:
        self._make = None
        dict.clear(self)
