"""The room's and the CLI's languages: gettext catalogues handled with Babel.

Every text a person reads is written in English in the source, marked for
extraction, and looked up in a catalogue at the edge: the pages translate
with a JSON catalogue of their language (:func:`catalog_script`), the CLI
and the server with :func:`translator`.  The engine stays English and
language-neutral: it never imports this package, and the notation stored
in records and accepted by the API (``7H``, ``XX``, ``RJ``) never changes.

Messages the server builds with values in them (errors, notices) are
translated by *template*: the catalogue holds ``"invite at most {n} people
at once"``, and :meth:`Translator.message` recognises a finished English
message by its template, translates the template and puts the values back.
So an error raised anywhere, in the engine or the room, reaches a German
player in German without the raising code knowing languages.

A fourth language is a new catalogue: ``src/trumps/locale/<code>/LC_MESSAGES/
trumps.po`` (and its compiled ``.mo``) plus its code in :data:`LANGUAGES`
(see ``docs/translating.md``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache, cached_property
from pathlib import Path
from typing import TypedDict

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "PSEUDO",
    "Catalog",
    "Translator",
    "TranslatorJSON",
    "catalog",
    "catalog_script",
    "cli_language",
    "negotiate",
    "pick",
    "translator",
]

#: The languages the room offers, by code, each named in itself (a chooser shows these).
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}
DEFAULT = "en"
#: A pseudo-language for tests: every text bracketed, so an untranslated one stands out.
PSEUDO = "qps"
DOMAIN = "trumps"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


class TranslatorJSON(TypedDict):
    """:meth:`Translator.as_json`: the code and the messages (a plural one as its list of forms)."""

    lang: str
    messages: dict[str, str | list[str]]


class Catalog(TranslatorJSON):
    """:func:`catalog`: a translator's JSON plus gettext's plural rule."""

    nplurals: int
    plural: str


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_HAS_LETTER = re.compile(r"[^\W\d_]")


def N_(text: str) -> str:
    """Mark ``text`` for extraction without translating it (it is translated where shown)."""
    return text


def fill(text: str, params: Mapping[str, object] | None) -> str:
    """``{name}`` placeholders of ``text`` replaced by ``params`` (unknown ones left as they are).

    >>> fill("{n} tricks for {team}", {"n": 3, "team": "NS"})
    '3 tricks for NS'
    """
    if not params:
        return text
    return _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


def has_letters(text: str) -> bool:
    """Whether ``text`` has a letter (a word to translate, not a number or a symbol)."""
    return _HAS_LETTER.search(text) is not None


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of ``text`` (a translation must keep exactly these)."""
    return set(_PLACEHOLDER.findall(text))


@dataclass
class Translator:
    """One language's catalogue: ``messages`` maps a msgid (``context\\x04msgid``
    with a context) to its translation, or to the list of plural forms for a
    plural message; ``plural`` picks the form for a count."""

    lang: str
    messages: dict[str, str | list[str]] = field(default_factory=dict)

    def _plural_index(self, n: int) -> int:
        return int(_plural_index(self.lang)(n))

    def gettext(self, msgid: str, **params: object) -> str:
        """``msgid`` in this language (itself when untranslated), placeholders filled."""
        found = self.messages.get(msgid)
        if isinstance(found, str) and found:
            return fill(found, params)
        return fill(msgid, params) if params else self.message(msgid)

    def pgettext(self, context: str, msgid: str, **params: object) -> str:
        """``msgid`` in ``context`` (the same English word meaning different things)."""
        found = self.messages.get(f"{context}\x04{msgid}")
        text = found if isinstance(found, str) and found else msgid
        return fill(text, params)

    def ngettext(self, singular: str, plural: str, n: int, **params: object) -> str:
        """The form for ``n`` (``{n}`` is filled with ``n`` unless given)."""
        params.setdefault("n", n)
        found = self.messages.get(singular)
        if isinstance(found, list) and found:
            i = min(self._plural_index(n), len(found) - 1)
            if found[i]:
                return fill(found[i], params)
        return fill(singular if n == 1 else plural, params)

    @cached_property
    def _templates(self) -> list[tuple[re.Pattern[str], str, str]]:
        """Every message with placeholders as a pattern, the most specific first."""
        out = []
        for msgid, text in self.messages.items():
            if not isinstance(text, str) or "\x04" in msgid or not _PLACEHOLDER.search(msgid):
                continue
            parts = _PLACEHOLDER.split(msgid)  # literal, name, literal, name, ...
            rx = "".join(
                re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" if p not in parts[1:i:2] else f"(?P={p})"
                for i, p in enumerate(parts)
            )
            out.append((re.compile(rx + r"\Z", re.S), msgid, text))
        out.sort(key=lambda t: -len(_PLACEHOLDER.sub("", t[1])))
        return out

    def message(self, english: str) -> str:
        """A finished English message (an error, a notice) in this language:
        looked up as it is, else recognised by its template and translated
        with its values put back; a message no catalogue knows stays English."""
        if not english:
            return english
        found = self.messages.get(english)
        if isinstance(found, str) and found:
            return found
        for rx, msgid, text in self._templates:
            m = rx.match(english)
            if not m or not text:
                continue
            values = m.groupdict()
            # a template of values only ("{misere} {points}") matches only known words
            if not _HAS_LETTER.search(_PLACEHOLDER.sub("", msgid)) and any(
                _HAS_LETTER.search(v) and v not in self.messages for v in values.values()
            ):
                continue
            # a variant's word ({Misere}, capitalised) is a word, never a number
            if any(k[:1].isupper() and not _HAS_LETTER.search(v) for k, v in values.items()):
                continue
            # a value that is itself a known word ("misère" in "{misere} 250") is translated too
            return fill(text, {k: self._word(v) for k, v in values.items()})
        return english

    def _word(self, value: str) -> str:
        found = self.messages.get(value)
        return found if isinstance(found, str) and found else value

    def number(self, value: float, *, digits: int | None = None) -> str:
        """A number as this language writes it (``1,234.5`` / ``1.234,5`` / ``1 234,5``)."""
        from babel.numbers import format_decimal

        if digits is not None:
            return str(
                format_decimal(
                    value, format=f"#,##0.{'0' * digits}" if digits else "#,##0", locale=self.locale
                )
            )
        return str(format_decimal(value, locale=self.locale))

    def when(self, moment: datetime | date, *, style: str = "medium") -> str:
        """A date or a date and time as this language writes them."""
        from babel.dates import format_date, format_datetime

        if isinstance(moment, datetime):
            return str(format_datetime(moment, style, locale=self.locale))
        return str(format_date(moment, style, locale=self.locale))

    @property
    def locale(self) -> str:
        return DEFAULT if self.lang == PSEUDO else self.lang

    def as_json(self) -> TranslatorJSON:
        return {"lang": self.lang, "messages": self.messages}


def _mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def c_plural_to_python(expr: str) -> str:
    """A gettext ``plural=`` expression (C: ``?:``, ``&&``, ``||``, ``!``) as Python.

    >>> c_plural_to_python("(n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2)")
    '((0) if (n==1) else (((1) if (n%10>=2  and  n%10<=4) else (2))))'
    """
    e = expr.strip()
    while e.startswith("(") and _closing(e, 0) == len(e) - 1:
        e = e[1:-1].strip()
    q = _top_level(e, "?")
    if q < 0:
        e = e.replace("&&", " and ").replace("||", " or ")
        return re.sub(r"!(?!=)", " not ", e)
    depth_q, i = 0, q + 1
    colon = -1
    while i < len(e):
        c = e[i]
        if c == "(":
            i = _closing(e, i)
        elif c == "?":
            depth_q += 1
        elif c == ":":
            if depth_q == 0:
                colon = i
                break
            depth_q -= 1
        i += 1
    cond, yes, no = e[:q], e[q + 1 : colon], e[colon + 1 :]
    return f"(({c_plural_to_python(yes)}) if ({c_plural_to_python(cond)}) else ({c_plural_to_python(no)}))"


def _closing(e: str, start: int) -> int:
    depth = 0
    for i in range(start, len(e)):
        depth += {"(": 1, ")": -1}.get(e[i], 0)
        if depth == 0:
            return i
    return len(e)


def _top_level(e: str, ch: str) -> int:
    depth = 0
    for i, c in enumerate(e):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == ch and depth == 0:
            return i
    return -1


#: English, the source language, has no catalogue: gettext's rule for it.
_ENGLISH_PLURAL = (2, "(n != 1)")


@cache
def gettext_plural(lang: str) -> tuple[int, str]:
    """``(nplurals, plural expression)`` of ``lang`` as its catalogue's header has them.

    The rule is read from the shipped catalogue, never from Babel's copy of
    CLDR: the translations were written for the header's forms, and a newer
    Babel may give a language another rule (Babel 2.19 gives French three
    forms, where every French catalogue has two)."""
    if lang in (DEFAULT, PSEUDO) or lang not in LANGUAGES:
        return _ENGLISH_PLURAL
    path = _mo_path(lang)
    if path.exists():
        from babel.messages.mofile import read_mo

        with path.open("rb") as f:
            cat = read_mo(f)
        return cat.num_plurals, cat.plural_expr
    from babel.messages.plurals import get_plural

    rule = get_plural(lang)
    return rule.num_plurals, rule.plural_expr


@cache
def _plural_index(lang: str) -> Callable[[int], int]:
    """``n`` -> the index of the plural form of ``lang`` (gettext's rule)."""
    code = compile(c_plural_to_python(gettext_plural(lang)[1]), "<plural>", "eval")
    return lambda n: int(eval(code, {"__builtins__": {}}, {"n": n}))


@cache
def translator(lang: str) -> Translator:
    """The catalogue of ``lang`` (English, the source language, has none; an
    unknown code gets English)."""
    if lang == PSEUDO:
        return _pseudo()
    if lang not in LANGUAGES or lang == DEFAULT:
        return Translator(DEFAULT, {})
    from babel.messages.mofile import read_mo

    path = _mo_path(lang)
    if not path.exists():
        return Translator(lang, {})
    with path.open("rb") as f:
        cat = read_mo(f)
    messages: dict[str, str | list[str]] = {}
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        key = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        if m.context:
            # Babel's read_mo leaves the context as bytes
            raw: object = m.context
            context = raw.decode() if isinstance(raw, bytes) else str(raw)
            key = f"{context}\x04{key}"
        if isinstance(m.string, (list, tuple)):
            if any(m.string):
                messages[key] = list(m.string)
        elif m.string:
            messages[key] = m.string
    return Translator(lang, messages)


def _pseudo() -> Translator:
    """Every known message, bracketed: ``⟦Lobby⟧``; placeholders kept."""
    from trumps.i18n.extract import known_messages

    messages: dict[str, str | list[str]] = {}
    for msgid, plural, context in known_messages():
        key = f"{context}\x04{msgid}" if context else msgid
        messages[key] = [f"⟦{msgid}⟧", f"⟦{plural}⟧"] if plural else f"⟦{msgid}⟧"
    return Translator(PSEUDO, messages)


def catalog(lang: str) -> Catalog:
    """The JSON catalogue of the pages: ``lang``, ``messages``, ``nplurals``
    and ``plural`` (gettext's rule, a C expression of ``n`` that is also
    valid JavaScript)."""
    t = translator(lang)
    nplurals, expr = gettext_plural(t.lang)
    return {"lang": t.lang, "messages": t.messages, "nplurals": nplurals, "plural": expr}


def catalog_script(lang: str) -> str:
    """The pages' catalogue as a script: ``window.I18N = {lang, messages,
    languages}`` and ``I18N.plural(n)`` -> the form index (a script, so the
    rule is code without eval)."""
    cat = catalog(lang)
    data = json.dumps(
        {"lang": cat["lang"], "messages": cat["messages"], "languages": LANGUAGES}, ensure_ascii=False
    )
    return (
        f"window.I18N = {data};\nwindow.I18N.plural = function (n) {{ return Number({cat['plural']}); }};\n"
    )


def negotiate(accept_language: str | None) -> str | None:
    """The best offered language for an ``Accept-Language`` header, or None.

    >>> negotiate("fr-CH, fr;q=0.9, en;q=0.8"), negotiate("es, de;q=0.5"), negotiate("es")
    ('fr', 'de', None)
    """
    if not accept_language:
        return None
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        q = 1.0
        for b in bits[1:]:
            k, _, v = b.strip().partition("=")
            if k == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            wanted.append((-q, i, tag))
    for _q, _i, tag in sorted(wanted):
        base = tag.split("-")[0].split("_")[0]
        if base in LANGUAGES:
            return base
    return None


def pick(*candidates: str | None) -> str:
    """The first offered language among ``candidates`` (a setting, a cookie,
    a negotiated header...), else English."""
    for c in candidates:
        if c and (c in LANGUAGES or c == PSEUDO):
            return c
    return DEFAULT


def cli_language(option: str | None, environ: Mapping[str, str]) -> str:
    """The CLI's language: ``--lang``, else ``LANGUAGE`` / ``LC_ALL`` /
    ``LC_MESSAGES`` / ``LANG`` as gettext reads them (``de_DE.UTF-8`` -> de).

    >>> cli_language(None, {"LANG": "fr_FR.UTF-8"}), cli_language("de", {"LANG": "fr_FR"}), cli_language(None, {})
    ('fr', 'de', 'en')
    """
    if option:
        return option
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        for tag in value.split(":"):
            base = tag.split(".")[0].split("@")[0].split("_")[0].lower()
            if base in ("c", "posix"):
                break
            if base in LANGUAGES:
                return base
        if value:
            break
    return DEFAULT
