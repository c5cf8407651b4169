"""Copies of engine states that work the same whether the engine runs as
plain Python or compiled by mypyc (``docs/architecture.md``, "The compiled
engines").

A plain Python object keeps its attributes in ``__dict__`` (or in
``__slots__``); a compiled ("native") object keeps them in a C struct whose
names the class lists in ``__mypyc_attrs__`` and has no ``__dict__`` unless
an interpreted subclass (a game outside trumps) adds one.  Copying by
``__dict__.update`` alone would copy nothing of a native object, so the
engines copy through :func:`shallow_copy`.

The classes copied here are declared to mypyc as allowing interpreted
subclasses, which makes ``cls.__new__(cls)`` build an instance without
running ``__init__``, as ``object.__new__`` does for a plain class (mypyc's
``serializable`` would too, but then an instance made from Python code
skips its ``__init__``: mypy 2.4).
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["fields_of", "shallow_copy"]

T = TypeVar("T")

_FIELDS: dict[type, tuple[str, ...]] = {}


def fields_of(cls: type) -> tuple[str, ...]:
    """The attributes an instance of ``cls`` keeps outside any ``__dict__``:
    a native class's struct fields, or the ``__slots__`` of a plain class
    and its bases.  Cached per class: it is read at every copy."""
    got = _FIELDS.get(cls)
    if got is None:
        names: list[str] = []
        native = cls.__dict__.get("__mypyc_attrs__")
        if native is None:
            for klass in cls.__mro__:
                native = klass.__dict__.get("__mypyc_attrs__")
                if native is not None:
                    break
        if native is not None:
            names.extend(native)
        for klass in cls.__mro__:
            slots = klass.__dict__.get("__slots__", ())
            names.extend((slots,) if isinstance(slots, str) else slots)
        got = _FIELDS[cls] = tuple(dict.fromkeys([n for n in names if n not in ("__dict__", "__weakref__")]))
    return got


def shallow_copy(obj: T) -> T:
    """A new object of ``obj``'s class holding the same attribute values
    (not copies of them), built without running ``__init__``."""
    cls = type(obj)
    other: T = cls.__new__(cls)
    for name in fields_of(cls):
        try:
            value = getattr(obj, name)
        except AttributeError:  # declared and never set
            continue
        setattr(other, name, value)
    state = getattr(obj, "__dict__", None)
    if state:
        try:
            other.__dict__.update(state)
        except AttributeError:  # a Python subclass of a compiled class: no __dict__ until set
            for name, value in state.items():
                setattr(other, name, value)
    return other
