"""The language of the ``trumps`` command line.

One translator is current while a command runs (:func:`session`): ``--lang``
anywhere on the command line, else ``LANGUAGE`` / ``LC_ALL`` /
``LC_MESSAGES`` / ``LANG`` (:func:`trumps.i18n.cli_language`).  Every text
the CLI prints is written in English in the source and looked up here:

* :func:`_`, :func:`ngettext`, :func:`pgettext` translate a message of the CLI
  (extracted by Babel: literal first arguments, values as ``{placeholders}``);
* :func:`message` translates a finished English message (an engine error) by
  its template;
* :func:`styled` builds a rich :class:`~rich.text.Text` from a translated
  template whose values are themselves styled (a card in red inside a
  sentence);
* :func:`number` writes a decimal number as the language does.

In English every function returns exactly the text the source writes, so
the English output of the CLI does not depend on this module.

>>> with session(["--lang", "de", "games"]) as rest:
...     (lang(), rest)
('de', ['games'])
>>> lang()
'en'
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from trumps.i18n import DEFAULT, LANGUAGES, N_, PSEUDO, Translator, cli_language, fill, translator

if TYPE_CHECKING:
    from rich.text import Text

__all__ = [
    "N_",
    "_",
    "add_lang_argument",
    "current",
    "lang",
    "message",
    "ngettext",
    "number",
    "pgettext",
    "session",
    "split_lang",
    "styled",
    "translate_error",
    "use",
]

_current: list[Translator] = [translator(DEFAULT)]
_depth = [0]


def current() -> Translator:
    """The translator of the command that is running (English outside one)."""
    return _current[0]


def lang() -> str:
    """The code of the current language (``en``, ``de``, ``fr``)."""
    return current().lang


def use(code: str) -> Translator:
    """Make ``code`` the current language (an unknown code gets English)."""
    _current[0] = translator(code)
    return _current[0]


def _(msgid: str, **params: object) -> str:
    """``msgid`` in the current language, ``{placeholders}`` filled from ``params``
    (without params the translated template is returned with its placeholders)."""
    found = current().messages.get(msgid)
    text = found if isinstance(found, str) and found else msgid
    return fill(text, params) if params else text


def ngettext(singular: str, plural: str, n: int, **params: object) -> str:
    """The form for ``n`` (``{n}`` is filled with ``n`` unless given)."""
    return current().ngettext(singular, plural, n, **params)


def pgettext(context: str, msgid: str, **params: object) -> str:
    """``msgid`` in ``context`` (a short word that means different things)."""
    return current().pgettext(context, msgid, **params)


def message(english: str) -> str:
    """A finished English message (an engine error...) in the current language."""
    return current().message(english)


def number(value: float, spec: str) -> str:
    """``format(value, spec)`` (``"+.2f"``, ``".1f"``, ``".3f"``), with the
    decimal mark and grouping of the current language; in English exactly
    ``format(value, spec)``.

    >>> number(1234.5, "+.2f")
    '+1234.50'
    >>> with session(["--lang", "de"]):
    ...     number(1234.5, "+.2f"), number(-0.25, ".1f"), number(3, "d")
    ('+1.234,50', '-0,2', '3')
    """
    text = format(value, spec)
    t = current()
    if t.lang in (DEFAULT, PSEUDO) or not re.fullmatch(r"\+?\.\d+f", spec):
        return text
    digits = int(spec.rsplit(".", 1)[1][:-1])
    sign = "-" if text.startswith("-") else "+" if spec.startswith("+") else ""
    return sign + t.number(abs(value), digits=digits)


def styled(template: str, style: str = "", **parts: str | Text) -> Text:
    """A rich Text of a translated ``template`` whose ``{placeholders}`` are
    filled with ``parts``: the words in ``style``, a :class:`~rich.text.Text`
    part in its own.

    >>> from rich.text import Text
    >>> t = styled("{who} plays {card}", who="N", card=Text("Q♥", style="red"))
    >>> t.plain, [str(s.style) for s in t.spans]
    ('N plays Q♥', ['red'])
    """
    from rich.text import Text

    out = Text()
    pos = 0
    for m in re.finditer(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", template):
        name = m.group(1)
        if name not in parts:
            continue
        out.append(template[pos : m.start()], style=style)
        value = parts[name]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            out.append(str(value), style=style)
        pos = m.end()
    out.append(template[pos:], style=style)
    return out


# ----- the language of a command line -------------------------------------------------
def split_lang(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang CODE`` / ``--lang=CODE`` taken out of a command line (anywhere
    before ``--``): ``(code or None, the rest)``.  An unknown code is a usage
    error (:class:`argparse.ArgumentError`-like, one line).

    >>> split_lang(["play", "500", "--lang", "fr", "--seed", "3"])
    ('fr', ['play', '500', '--seed', '3'])
    >>> split_lang(["--lang=de", "games"]), split_lang(["solve", "--", "--lang", "x"])
    (('de', ['games']), (None, ['solve', '--', '--lang', 'x']))
    """
    from trumps.cli.common import UsageError

    out: list[str] = []
    code: str | None = None
    args = list(argv)
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            out.extend(args[i:])
            break
        if a == "--lang" or a.startswith("--lang="):
            if a == "--lang":
                if i + 1 >= len(args):
                    raise UsageError("argument --lang: expected one argument")
                value = args[i + 1]
                i += 2
            else:
                value = a.split("=", 1)[1]
                i += 1
            if value not in LANGUAGES and value != PSEUDO:
                choices = ", ".join(repr(c) for c in LANGUAGES)
                raise UsageError(f"argument --lang: invalid choice: {value!r} (choose from {choices})")
            code = value
            continue
        out.append(a)
        i += 1
    return code, out


@contextmanager
def session(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> Iterator[list[str]]:
    """Run a command in its language: ``--lang`` of ``argv``, else the one of
    an enclosing session (``trumps --lang de arena ...`` runs the arena in
    German), else the environment's.  Yields ``argv`` without ``--lang``;
    the previous language is back afterwards.  Raises the usage error of an
    unknown ``--lang`` before switching anything."""
    code, rest = split_lang(argv)
    before = current()
    if code is None:
        code = before.lang if _depth[0] else cli_language(None, os.environ if environ is None else environ)
    use(code)
    _depth[0] += 1
    try:
        yield rest
    finally:
        _depth[0] -= 1
        _current[0] = before


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """``--lang {en,de,fr}`` in a parser's help (the value is taken out of the
    command line before parsing, by :func:`session`)."""
    parser.add_argument(
        "--lang",
        choices=list(LANGUAGES),
        help=_("language of the output (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"),
    )


# ----- argparse's own words --------------------------------------------------------------
_ARGUMENT = re.compile(r"argument (?P<arg>\S+(?: \S+)*?): (?P<message>.+)\Z", re.S)
_ARGPARSE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"the following arguments are required: (?P<args>.+)\Z", re.S),
     N_("the following arguments are required: {args}")),
    (re.compile(r"unrecognized arguments: (?P<args>.+)\Z", re.S), N_("unrecognized arguments: {args}")),
    (re.compile(r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)\Z", re.S),
     N_("invalid choice: {value} (choose from {choices})")),
    (re.compile(r"invalid (?P<type>\S+) value: (?P<value>.+)\Z", re.S), N_("invalid {type} value: {value}")),
    (re.compile(r"expected one argument\Z"), N_("expected one argument")),
    (re.compile(r"expected at least one argument\Z"), N_("expected at least one argument")),
    (re.compile(r"expected at most one argument\Z"), N_("expected at most one argument")),
    (re.compile(r"not allowed with argument (?P<arg>.+)\Z", re.S), N_("not allowed with argument {arg}")),
    (re.compile(r"ignored explicit argument (?P<value>.+)\Z", re.S), N_("ignored explicit argument {value}")),
    (re.compile(r"one of the arguments (?P<args>.+) is required\Z", re.S),
     N_("one of the arguments {args} is required")),
    (re.compile(r"ambiguous option: (?P<option>.+) could match (?P<matches>.+)\Z", re.S),
     N_("ambiguous option: {option} could match {matches}")),
]  # fmt: skip


def translate_error(text: str) -> str:
    """An error message for the current language: argparse's own messages
    by their form, any other (the engine's, the CLI's) by its template.

    >>> translate_error("argument --games/-n: invalid int value: 'ten'")
    "argument --games/-n: invalid int value: 'ten'"
    """
    if lang() == DEFAULT:
        return text
    m = _ARGUMENT.match(text)
    if m:
        return _("argument {arg}: {message}", arg=m["arg"], message=translate_error(m["message"]))
    for rx, msgid in _ARGPARSE:
        m = rx.match(text)
        if m:
            return _(msgid, **m.groupdict())
    return message(text)
