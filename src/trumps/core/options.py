"""Option sets and named presets.

Each game declares its options as a list of :class:`OptionSpec` and its
presets as plain dicts.  :meth:`OptionSchema.resolve` turns a preset name plus
user overrides into a complete, validated, immutable :class:`Options`.
Unknown keys, bad values, unknown presets and forbidden combinations raise
:class:`~trumps.core.errors.OptionError`.  The same metadata describes the
options to the card room (``describe()``), so adding a game adds no room code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from trumps.core.errors import OptionError

__all__ = ["OptionSchema", "OptionSpec", "Options"]

_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}


@dataclass(frozen=True)
class OptionSpec:
    """One option: its key, value type, default, allowed values and meaning."""

    name: str
    kind: type
    default: Any
    choices: tuple[Any, ...] | None = None
    doc: str = ""
    check: Callable[[Any], bool] | None = None
    check_doc: str = ""

    def coerce(self, value: Any) -> Any:
        """Convert ``value`` (possibly a string from a command line or a form)
        to this option's type, or raise :class:`OptionError`."""
        v = value
        if self.kind is bool:
            if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
                v = v.strip().lower() in _TRUE
            if not isinstance(v, bool):
                raise OptionError(f"option {self.name} must be true or false, not {value!r}")
        elif self.kind is int:
            if isinstance(v, str):
                try:
                    v = int(v.strip())
                except ValueError:
                    raise OptionError(f"option {self.name} must be a whole number, not {value!r}") from None
            if isinstance(v, bool) or not isinstance(v, int):
                raise OptionError(f"option {self.name} must be a whole number, not {value!r}")
        elif self.kind is str:
            if not isinstance(v, str):
                raise OptionError(f"option {self.name} must be text, not {value!r}")
            v = v.strip()
        if self.choices is not None and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name} must be one of {allowed}, not {value!r}")
        if self.check is not None and not self.check(v):
            raise OptionError(f"option {self.name}: {self.check_doc or 'bad value'} ({value!r})")
        return v

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "doc": self.doc,
        }


class Options(Mapping[str, Any]):
    """A complete, validated, immutable option set with attribute access:
    ``opts.kitty_size`` or ``opts["kitty_size"]``."""

    __slots__ = ("_values",)
    _values: dict[str, Any]

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Options are immutable")

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Options({self._values!r})"

    def to_dict(self) -> dict[str, Any]:
        return dict(self._values)


@dataclass
class OptionSchema:
    """The options and presets of one game.

    ``defaults_for`` may compute defaults that depend on other chosen values
    (500's defaults depend on ``variation``); ``validate`` rejects forbidden
    combinations of a complete option set.  ``popular`` names the few rule
    sets most people play, in the order a card room's Play button offers
    them: ``{"key", "label", "preset", "options"}`` each (a preset, option
    overrides, or both).
    """

    specs: list[OptionSpec]
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    defaults_for: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    validate: Callable[[Options], None] | None = None
    popular: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_name = {s.name: s for s in self.specs}

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.specs]

    def spec(self, name: str) -> OptionSpec:
        try:
            return self._by_name[name]
        except KeyError:
            raise OptionError(f"unknown option {name!r} (known: {', '.join(self.names)})") from None

    def resolve(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Options:
        """Preset values, then ``options`` on top, then defaults for the rest."""
        chosen: dict[str, Any] = {}
        if preset is not None:
            key = str(preset).strip().lower()
            if key not in self.presets:
                known = ", ".join(sorted(self.presets)) or "none"
                raise OptionError(f"unknown preset {preset!r} (known: {known})")
            chosen.update(self.presets[key])
        if options is not None:
            if not isinstance(options, Mapping):
                raise OptionError(f"options must be a mapping of names to values, not {options!r}")
            for name, value in options.items():
                chosen[name] = self.spec(str(name)).coerce(value)
        defaults = {s.name: s.default for s in self.specs}
        if self.defaults_for is not None:
            defaults.update(self.defaults_for(chosen))
        full = Options({**defaults, **chosen})
        if self.validate is not None:
            self.validate(full)
        return full

    def describe(self) -> dict[str, Any]:
        """Machine-readable metadata: every option and every preset."""
        return {
            "options": [s.describe() for s in self.specs],
            "presets": {k: dict(v) for k, v in self.presets.items()},
            "popular": [dict(p) for p in self.popular],
        }
