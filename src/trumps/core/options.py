"""Option sets and named presets.

Each game declares its options as a list of :class:`OptionSpec` and its
presets as plain dicts.  :meth:`OptionSchema.resolve` turns a preset name plus
user overrides into a complete, validated, immutable :class:`Options`.
Unknown keys, bad values, unknown presets and forbidden combinations raise
:class:`~trumps.core.errors.OptionError`.  The same metadata describes the
options to the card room (``describe()``), so adding a game adds no room code.

Human words live here too, next to the keys they explain: each option has a
short ``label``, a one-line ``doc`` (its help), words for each allowed value
(``choice_labels``), a ``group`` (the form's fieldsets and the CLI's
sections, :class:`OptionGroup`), an optional condition ``when`` it applies
at all, and an optional ``summary`` piece for the one-line description of a
rule set (:meth:`OptionSchema.summary`, the card room's lobby).  Presets
have a label and a one-line description (:class:`PresetInfo`).

Words that depend on the rules themselves: 500 says *nullo* and *widow* in
its American variation, *misère* and *kitty* in its Australian one.  One
option cannot carry two labels, so texts may name a **term** in braces,
``"{Misere} points"``, and the schema maps the value of one option
(``varies_by``, e.g. ``variation``) to the words of each term
(``terms``; the key ``""`` holds neutral words for when that value is not
known, "nullo (misère)").  A capitalised placeholder gives the capitalised
word.  :meth:`OptionSchema.describe` returns the texts filled in for given
values (neutral ones by default) and, for the few texts that vary, their
templates and the terms of every variation, so a form can re-word itself
when the variation changes without asking the server again.  Keys and
values themselves never change: records and the API stay language-neutral.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypeAlias, TypedDict

from trumps.core.errors import OptionError

__all__ = ["OptionGroup", "OptionSchema", "OptionSpec", "Options", "PresetInfo", "fill_terms"]

_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}
_BOOL_WORDS = {True: "yes", False: "no"}
_TERM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_WHOLE = re.compile(r"[+-]?[0-9]{1,18}")  # a whole number as text: within 64 bits
#: The bound of a whole number without ``bounds`` (every game's options have
#: theirs): the largest integer any JSON reader keeps exactly.
SAFE_INT = 2**53 - 1

#: What an option can be: a flag, a number or a word (JSON scalars, so every
#: option set can be stored and sent as it is).
OptionValue: TypeAlias = "bool | int | float | str | None"


class PopularRules(TypedDict):
    """One of the rule sets a game names as popular (:attr:`OptionSchema.popular`)."""

    key: str
    label: str
    preset: str | None
    options: dict[str, OptionValue]


class ValueWords(TypedDict):
    value: OptionValue
    label: str


class OptionTemplates(TypedDict):
    label: str
    help: str
    choice_labels: list[ValueWords]


class OptionDescription(TypedDict):
    """One option as :meth:`OptionSpec.describe` tells it."""

    name: str
    type: str
    default: OptionValue
    choices: list[OptionValue] | None
    doc: str
    label: str
    help: str
    group: str
    choice_labels: list[ValueWords]
    default_label: str
    when: dict[str, list[OptionValue]] | None
    bounds: list[int] | None
    templates: NotRequired[OptionTemplates]


class GroupTemplates(TypedDict):
    label: str
    doc: str


class GroupDescription(TypedDict):
    key: str
    label: str
    doc: str
    advanced: NotRequired[bool]  # always given here; a reader may draw a group of its own
    templates: NotRequired[GroupTemplates]


class OptionChange(TypedDict):
    """An option a preset or a table changes: its name, label, value and words."""

    name: str
    label: str
    value: object  # house_rules passes on what the table stored, unchecked
    words: str


class PresetDescription(TypedDict):
    label: str
    doc: str
    changes: list[OptionChange]


class Variants(TypedDict):
    option: str
    terms: dict[str, dict[str, str]]
    defaults: dict[str, dict[str, OptionValue]]


class SchemaDescription(TypedDict):
    """What :meth:`OptionSchema.describe` answers (its docstring tells the keys)."""

    title: str
    options: list[OptionDescription]
    groups: list[GroupDescription]
    presets: dict[str, dict[str, OptionValue]]
    preset_info: dict[str, PresetDescription]
    popular: list[PopularRules]
    terms: dict[str, str]
    variants: Variants | None
    aliases: NotRequired[dict[str, str]]  # names an option is also known by (coinche)


class HouseRules(TypedDict):
    """What :meth:`OptionSchema.house_rules` answers."""

    preset: str | None
    label: str | None
    changes: list[OptionChange]
    terms: dict[str, str]


def fill_terms(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each ``{term}`` replaced by its word; ``{Term}`` gives
    the word capitalised.  Unknown names are left as they are.

    >>> fill_terms("{Misere} points, open {misere}", {"misere": "nullo"})
    'Nullo points, open nullo'
    """

    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        if key in words:
            return str(words[key])
        low = key[:1].lower() + key[1:]
        if key[:1].isupper() and low in words:
            word = str(words[low])
            return word[:1].upper() + word[1:]
        return m.group(0)

    return _TERM.sub(one, text)


def _has_terms(text: str) -> bool:
    return _TERM.search(text) is not None


@dataclass(frozen=True)
class OptionSpec:
    """One option: its key, value type, default, allowed values and meaning.

    ``doc`` is the one-line help; ``label`` the short name a person reads;
    ``choice_labels`` the words for each value (yes/no for a bool unless
    given); ``group`` the key of an :class:`OptionGroup`; ``when`` maps other
    options to the values under which this one applies at all (a form hides
    it otherwise); ``bounds`` = (least, most, step) of a free whole
    number: every game's whole number without ``choices`` has them (one
    without is kept within ±``SAFE_INT``), and
    :meth:`coerce` refuses a value outside [least, most] (an unbounded
    number was stored, then broke every reader: a target of 10**30 does not
    fit the 64 bits of the card room's JSON; ``check`` may narrow further,
    forms use the step); ``summary`` is this
    option's piece of the one-line rules description: a template, or a
    template per value (a value not listed adds nothing).  Templates may
    use terms, ``{value}`` (this value's words) and any option's value by
    its key (``{nullo_points}``)."""

    name: str
    kind: type[bool] | type[int] | type[str]
    default: OptionValue
    choices: tuple[OptionValue, ...] | None = None
    doc: str = ""
    # called with a value coerce() has already made of the option's kind
    check: Callable[[Any], bool] | None = None
    check_doc: str = ""
    label: str = ""
    group: str = ""
    choice_labels: Mapping[OptionValue, str] | None = field(default=None, hash=False)
    when: Mapping[str, tuple[OptionValue, ...]] | None = field(default=None, hash=False)
    bounds: tuple[int, int, int] | None = None
    summary: str | Mapping[OptionValue, str] | None = field(default=None, hash=False)

    def coerce(self, value: object) -> OptionValue:
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
                # ASCII digits only ("²".isdigit(), and int() reads "٣" and "1_0"), and not too many
                text = v.strip()
                if not _WHOLE.fullmatch(text):
                    raise OptionError(f"option {self.name} must be a whole number, not {value!r}")
                v = int(text)
            if isinstance(v, bool) or not isinstance(v, int):
                raise OptionError(f"option {self.name} must be a whole number, not {value!r}")
            least, most, _step = self.bounds or (-SAFE_INT, SAFE_INT, 1)
            if not least <= v <= most:
                raise OptionError(f"option {self.name} must be from {least} to {most}, not {value!r}")
        elif self.kind is str:
            if not isinstance(v, str):
                raise OptionError(f"option {self.name} must be text, not {value!r}")
            v = v.strip()
        else:  # pragma: no cover - kind is bool, int or str
            raise OptionError(f"option {self.name} has an unknown kind {self.kind!r}")
        if self.choices is not None and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name} must be one of {allowed}, not {value!r}")
        if self.check is not None and not self.check(v):
            raise OptionError(f"option {self.name}: {self.check_doc or 'bad value'} ({value!r})")
        return v

    def values(self) -> tuple[OptionValue, ...] | None:
        """The allowed values in order (``True, False`` for a bool), or None
        for a free value."""
        if self.choices is not None:
            return self.choices
        return (True, False) if self.kind is bool else None

    def words(self, value: object, terms: Mapping[str, str] | None = None) -> str:
        """``value`` in words (the value itself when it has none)."""
        labels = self.choice_labels if self.choice_labels is not None else (
            _BOOL_WORDS if self.kind is bool else {}
        )  # fmt: skip
        for key, text in labels.items():
            if key == value and type(key) is type(value):
                return fill_terms(text, terms or {})
        return "yes" if value is True else "no" if value is False else str(value)

    def applies(self, values: Mapping[str, object]) -> bool:
        """Whether this option matters given the other options' ``values``."""
        return all(values.get(k) in allowed for k, allowed in (self.when or {}).items())

    def describe(self, terms: Mapping[str, str] | None = None) -> OptionDescription:
        """Metadata with its texts filled in with ``terms``; an option whose
        texts use terms also carries them unfilled (``templates``)."""
        words = terms or {}
        values = self.values()
        out: OptionDescription = {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "doc": fill_terms(self.doc, words),
            "label": fill_terms(self.label or self.name, words),
            "help": fill_terms(self.doc, words),
            "group": self.group,
            "choice_labels": [{"value": v, "label": self.words(v, words)} for v in values or ()],
            "default_label": self.words(self.default, words),
            "when": {k: list(v) for k, v in self.when.items()} if self.when else None,
            "bounds": list(self.bounds) if self.bounds is not None else None,
        }
        texts = [self.label, self.doc, *(self.choice_labels or {}).values()]
        if any(_has_terms(t) for t in texts):
            out["templates"] = {
                "label": self.label or self.name,
                "help": self.doc,
                "choice_labels": [{"value": v, "label": self.words(v, None)} for v in values or ()],
            }
        return out

    def check_metadata(self) -> None:
        """Raise ``ValueError`` on metadata that contradicts the option
        (words for a value it cannot take)."""
        allowed = self.values()
        if self.bounds is not None and not (
            isinstance(self.default, int) and self.bounds[0] <= self.default <= self.bounds[1]
        ):
            raise ValueError(f"option {self.name}: default {self.default!r} outside its bounds")
        for key in self.choice_labels or {}:
            if allowed is None or not any(key == a and type(key) is type(a) for a in allowed):
                raise ValueError(f"option {self.name}: words for {key!r}, which it cannot take")
        if isinstance(self.summary, Mapping):
            for key in self.summary:
                if allowed is not None and not any(key == a and type(key) is type(a) for a in allowed):
                    raise ValueError(f"option {self.name}: a summary for {key!r}, which it cannot take")


@dataclass(frozen=True)
class OptionGroup:
    """A group of options, in the order a form shows them: ``key`` (what
    :attr:`OptionSpec.group` names), a ``label`` (may use terms) and a
    one-line ``doc``; ``advanced`` groups are the engine's finer points
    that a form may fold away."""

    key: str
    label: str
    doc: str = ""
    advanced: bool = False


@dataclass(frozen=True)
class PresetInfo:
    """How people call a preset, and what it is in one line (may use terms)."""

    label: str
    doc: str = ""


class Options(Mapping[str, Any]):
    """A complete, validated, immutable option set with attribute access:
    ``opts.kitty_size`` or ``opts["kitty_size"]``.  ``game`` names the game
    whose schema resolved it, so its repr says which game's rules these are
    (equality compares the values only, as for any mapping)."""

    # No __slots__: each option is also an entry of the instance's __dict__,
    # so ``opts.kitty_size`` is an ordinary attribute read.  The engines read
    # options at every card; through ``__getattr__`` each read was a Python
    # call, a tenth of a compiled 500 deal.  A name the class defines (``get``,
    # ``items``, ``game``...) is left out, so it means what it always meant.
    _values: dict[str, OptionValue]
    _game: str
    #: What the engines work out from an option set (a contract's trick rules,
    #: the table of bids), by a name of their own.  The options never change,
    #: and :meth:`OptionSchema.resolve` hands the same ``Options`` to every
    #: game of a rule set, so each is worked out once per rule set instead of
    #: at every deal from a key of option values.  Not part of the options'
    #: value: equality, copies and pickles leave it out.
    memo: dict[str, Any]

    def __init__(self, values: Mapping[str, object], game: str = "") -> None:
        own = dict(values)
        state = self.__dict__
        state.update((k, v) for k, v in own.items() if k not in _OPTIONS_NAMES)
        state["_values"] = own
        state["_game"] = game
        state["memo"] = {}

    @property
    def game(self) -> str:
        """The game these options belong to (``""``: not said)."""
        return self._game

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

    def __reduce__(self) -> tuple[type[Options], tuple[dict[str, OptionValue], str]]:
        """Copies and pickles rebuild through ``__init__`` (the slots are
        read-only, so the default slot-by-slot restore cannot set them)."""
        return (Options, (self._values, self._game))

    def __repr__(self) -> str:
        if self._game:
            return f"Options({self._values!r}, game={self._game!r})"
        return f"Options({self._values!r})"

    def to_dict(self) -> dict[str, OptionValue]:
        return dict(self._values)


# what an option may not shadow as an attribute of Options (see its __init__)
_OPTIONS_NAMES = frozenset(dir(Options)) | {"_values", "_game", "memo", "__dict__"}


@dataclass
class OptionSchema:
    """The options and presets of one game.

    ``defaults_for`` may compute defaults that depend on other chosen values
    (500's defaults depend on ``variation``); ``validate`` rejects forbidden
    combinations of a complete option set.  ``popular`` names the few rule
    sets most people play, in the order a card room's Play button offers
    them: ``{"key", "label", "preset", "options"}`` each (a preset, option
    overrides, or both).

    For people: ``title`` is the game's name, ``groups`` orders the
    options' groups, ``preset_info`` names and explains the presets, and
    ``terms`` gives the words of each term per value of the option
    ``varies_by`` (``""``: neutral words; see the module docstring).
    ``summary_preset``: the one-line summary starts with the preset's label
    (a game whose presets are its usual names, like coinche's federation
    sheets); otherwise only the options' ``summary`` pieces describe it.
    """

    specs: list[OptionSpec]
    presets: dict[str, dict[str, OptionValue]] = field(default_factory=dict)
    defaults_for: Callable[[Mapping[str, object]], dict[str, OptionValue]] | None = None
    validate: Callable[[Options], None] | None = None
    popular: list[PopularRules] = field(default_factory=list)
    title: str = ""
    groups: list[OptionGroup] = field(default_factory=list)
    preset_info: dict[str, PresetInfo] = field(default_factory=dict)
    varies_by: str | None = None
    terms: dict[str, dict[str, str]] = field(default_factory=dict)
    summary_preset: bool = False
    #: The game's registry name (``"500"``): resolved options carry it.
    game: str = ""

    def __post_init__(self) -> None:
        self._by_name = {s.name: s for s in self.specs}
        self._resolved: dict[Hashable, Options] = {}
        self._check_metadata()

    def _check_metadata(self) -> None:
        """Mistakes in the metadata are the game author's: fail at import."""
        groups = [g.key for g in self.groups]
        if len(set(groups)) != len(groups):
            raise ValueError(f"option groups repeat a key: {groups}")
        for s in self.specs:
            s.check_metadata()
            if groups and s.group not in groups:
                raise ValueError(f"option {s.name}: unknown group {s.group!r} (groups: {', '.join(groups)})")
            for other in s.when or {}:
                if other not in self._by_name:
                    raise ValueError(f"option {s.name}: applies when unknown option {other!r}")
        for name in self.preset_info:
            if name not in self.presets:
                raise ValueError(f"words for unknown preset {name!r}")
        if self.varies_by is not None and self.varies_by not in self._by_name:
            raise ValueError(f"varies_by names unknown option {self.varies_by!r}")

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.specs]

    def spec(self, name: str) -> OptionSpec:
        try:
            return self._by_name[name]
        except KeyError:
            raise OptionError(f"unknown option {name!r} (known: {', '.join(self.names)})") from None

    def resolve(self, preset: str | None = None, options: Mapping[str, object] | None = None) -> Options:
        """Preset values, then ``options`` on top, then defaults for the rest.
        The same request gives the same (immutable) :class:`Options` again:
        every new game resolves its options, and self-play starts thousands."""
        try:
            # with each value's type: True == 1 and 1.0 == 1, which coerce apart
            # (two tuples built in C: a Python-level loop was a tenth of starting a game)
            items = None if options is None else (tuple(options.items()), tuple(map(type, options.values())))
            key: Hashable = (type(preset), preset, items)
            got = self._resolved.get(key)
        except (TypeError, AttributeError):  # unhashable values, not a mapping: resolved (and checked) anew
            return self._resolve(preset, options)
        if got is None:
            got = self._resolve(preset, options)
            if len(self._resolved) >= 512:
                self._resolved.clear()
            self._resolved[key] = got
        return got

    def _resolve(self, preset: str | None, options: Mapping[str, object] | None) -> Options:
        chosen: dict[str, OptionValue] = {}
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
        full = Options({**self._defaults(chosen), **chosen}, game=self.game)
        if self.validate is not None:
            self.validate(full)
        return full

    def _defaults(self, chosen: Mapping[str, object]) -> dict[str, OptionValue]:
        defaults = {s.name: s.default for s in self.specs}
        if self.defaults_for is not None:
            defaults.update(self.defaults_for(chosen))
        return defaults

    # ----- words -----------------------------------------------------------------
    def terms_for(self, values: Mapping[str, object] | None = None) -> dict[str, str]:
        """The words of the terms for these option ``values`` (neutral words
        when ``values`` is None or does not decide them)."""
        if values is not None and self.varies_by is not None:
            key = values.get(self.varies_by)
            if isinstance(key, str) and key in self.terms:
                return dict(self.terms[key])
        return dict(self.terms.get("", {}))

    def preset_changes(self, name: str) -> list[OptionChange]:
        """What preset ``name`` changes from the defaults: ``name``, ``label``,
        ``value`` and ``words`` of each option it changes, worded as the
        preset's own rules word them."""
        plain, chosen = self.resolve(), self.resolve(name)
        terms = self.terms_for(chosen)
        return [
            {
                "name": s.name,
                "label": fill_terms(s.label or s.name, terms),
                "value": chosen[s.name],
                "words": s.words(chosen[s.name], terms),
            }
            for s in self.specs
            if not _same(chosen[s.name], plain[s.name])
        ]

    def describe(self, values: Mapping[str, object] | None = None) -> SchemaDescription:
        """Machine-readable metadata: every option and every preset, with
        their texts worded for option ``values`` (neutral words by default).

        Keys: ``title``; ``options`` (per option: ``name``, ``type``,
        ``default``, ``choices``, ``doc``, ``label``, ``help`` (= ``doc``),
        ``group``, ``choice_labels`` (``[{"value", "label"}]``),
        ``default_label``, ``when``, ``bounds`` and, if its texts use terms,
        ``templates``); ``groups`` (``key``, ``label``, ``doc``,
        ``advanced``, maybe ``templates``); ``presets`` (name -> values);
        ``preset_info`` (name -> ``label``, ``doc``, ``changes`` as
        :meth:`preset_changes`); ``popular``; ``terms`` (the words used);
        ``variants`` (None, or the option ``varies_by`` with the ``terms``
        and the complete ``defaults`` of each of its values)."""
        terms = self.terms_for(values)
        groups = []
        for g in self.groups:
            group: GroupDescription = {
                "key": g.key,
                "label": fill_terms(g.label, terms),
                "doc": fill_terms(g.doc, terms),
                "advanced": g.advanced,
            }
            if _has_terms(g.label) or _has_terms(g.doc):
                group["templates"] = {"label": g.label, "doc": g.doc}
            groups.append(group)
        info: dict[str, PresetDescription] = {}
        for name in self.presets:
            meta = self.preset_info.get(name, PresetInfo(name))
            own = self.terms_for(self.resolve(name))
            info[name] = {
                "label": fill_terms(meta.label, own),
                "doc": fill_terms(meta.doc, own),
                "changes": self.preset_changes(name),
            }
        variants: Variants | None = None
        if self.varies_by is not None:
            choices = self.spec(self.varies_by).values() or ()
            variants = {
                "option": self.varies_by,
                "terms": {str(v): self.terms_for({self.varies_by: v}) for v in choices},
                "defaults": {str(v): self._defaults({self.varies_by: v}) for v in choices},
            }
        return {
            "title": self.title,
            "options": [s.describe(terms) for s in self.specs],
            "groups": groups,
            "presets": {k: dict(v) for k, v in self.presets.items()},
            "preset_info": info,
            "popular": [PopularRules(**p) for p in self.popular],
            "terms": terms,
            "variants": variants,
        }

    def house_rules(self, options: Mapping[str, object], preset: str | None = None) -> HouseRules:
        """What a table's rules are, for its Rules panel: the preset
        (``preset``: its name, ``label``: its label as a template, or None)
        and ``changes``, every option that applies and differs from it (from
        the defaults of the chosen variant without a preset), in the
        schema's order: ``name``, ``label`` and ``words`` (templates over
        the ``terms``, so a page translates them before filling them in),
        ``value``; ``terms``: the words of the rules being described.

        Never raises: an unknown preset counts as none, a missing option
        as its default."""
        values = {s.name: options.get(s.name, s.default) for s in self.specs}
        key = preset.strip().lower() if isinstance(preset, str) and preset.strip() else None
        if key not in self.presets:
            key = None
        keep = {self.varies_by: values[self.varies_by]} if self.varies_by is not None and key is None else {}
        try:
            base: Mapping[str, object] = self.resolve(key, keep)
        except OptionError:
            base = self._defaults(keep)
        changes: list[OptionChange] = [
            {
                "name": s.name,
                "label": s.label or s.name,
                "value": values[s.name],
                "words": s.words(values[s.name]),
            }
            for s in self.specs
            if s.applies(values) and not _same(values[s.name], base[s.name])
        ]
        info = self.preset_info.get(key, PresetInfo(key)) if key is not None else None
        return {
            "preset": key,
            "label": info.label if info is not None else None,
            "changes": changes,
            "terms": self.terms_for(values),
        }

    def summary(self, options: Mapping[str, object], preset: str | None = None) -> str:
        """A complete option set in a few words, for a lobby: the options'
        ``summary`` pieces (led by the preset's label if ``summary_preset``),
        then how many other rules differ from the preset (or the defaults),
        e.g. ``"Australian · 2v2 · misère 250 · +1 house rule"``.

        Never raises: an option missing from ``options`` (a table stored
        before the option existed) counts as its default."""
        values = {s.name: options.get(s.name, s.default) for s in self.specs}
        terms = self.terms_for(values)
        covered = {s.name for s in self.specs if s.summary is not None}
        parts: list[str] = []
        for s in self.specs:
            template = _pick(s.summary, values[s.name])
            if template is None or not s.applies(values):
                continue
            covered.update(n for n in _TERM.findall(template) if n in self._by_name)
            fill = {
                **{k: str(v) for k, v in values.items()},
                **terms,
                "value": s.words(values[s.name], terms),
            }
            parts.append(fill_terms(template, fill))
        base = preset.strip().lower() if isinstance(preset, str) and preset.strip() else None
        if base not in self.presets:
            base = None
        if base is None and self.summary_preset and self.presets:
            base = min(self.presets, key=lambda name: len(self._differences(values, name, covered)))
        if self.summary_preset and base is not None:
            meta = self.preset_info.get(base, PresetInfo(base))
            parts.insert(0, fill_terms(meta.label, terms))
        n = len(self._differences(values, base, covered))
        if n:
            parts.append(f"+{n} house rule{'' if n == 1 else 's'}")
        return " · ".join(p for p in parts if p)

    def _differences(self, values: Mapping[str, object], preset: str | None, covered: set[str]) -> list[str]:
        """The options (other than ``covered``) that differ from ``preset``
        (or the defaults) with the covered options as chosen, among those
        that apply."""
        try:
            base: Mapping[str, object] = self.resolve(preset, {k: values[k] for k in covered})
        except OptionError:
            try:
                base = self.resolve(preset)
            except OptionError:
                base = self._defaults({})
        return [
            s.name
            for s in self.specs
            if s.name not in covered and s.applies(values) and not _same(values[s.name], base[s.name])
        ]


def _same(a: object, b: object) -> bool:
    return bool(a == b and type(a) is type(b))


def _pick(summary: str | Mapping[OptionValue, str] | None, value: object) -> str | None:
    if summary is None or isinstance(summary, str):
        return summary
    for key, template in summary.items():
        if _same(key, value):
            return template
    return None
