"""Babel extractors for trumps, and the list of every message it shows.

Registered as Babel extraction methods (``babel.extractors`` entry points,
used by ``babel.cfg``), so ``pybabel extract -F babel.cfg`` finds:

``trumps_python``
    ``_()``, ``N_()``, ``gettext()``, ``ngettext()``, ``pgettext()`` calls;
    the message of every error raised (``SomethingError("...")``,
    ``IllegalAction(f"card {card} ...")``: an f-string becomes the template
    ``"card {card} ..."``, recognised at run time by
    :meth:`trumps.i18n.Translator.message`); ``{"error": "..."}`` answers,
    the ``text`` of ``{"type": "notice", ...}`` events, ``bad("...")``
    refusals of the routes, and the strings returned by ``explain_illegal``
    and ``*_refusal`` functions.
``trumps_html``
    Every text node and the ``title``, ``aria-label``, ``placeholder`` and
    ``alt`` of every element of a page (the page translates them on load).
``trumps_runtime``
    The texts the pages get as data: option labels and help texts of every
    game and preset, the presentation of every game (calls, their names,
    the variant's words), the table and personal settings, the preset chat
    phrases.  They are produced by running the code, so a new option is
    extracted without marking anything.

The pages' JavaScript is read by Babel's own ``javascript`` extractor with
the keywords ``t``, ``tn:1,2`` and ``tc:1c,2``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import IO

from trumps.i18n import has_letters

__all__ = ["ERROR_NAMES", "extract_html", "extract_python", "extract_runtime", "known_messages"]

#: Calls whose first argument is a message a person may read (besides ``*Error``).
ERROR_NAMES = frozenset(
    {
        "IllegalAction",
        "WrongSeat",
        "GameOver",
        "AccessDenied",
        "error_event",
        "notify",
        "bad",
        "_error",
        "refuse",
    }
)
_GETTEXT = {"_": 1, "N_": 1, "gettext": 1, "ngettext": 2, "pgettext": 2}


def _is_message_call(func: ast.expr) -> str | None:
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name is None:
        return None
    if name in _GETTEXT or name in ERROR_NAMES or (name.endswith("Error") and name[:1].isupper()):
        return name
    return None


def _placeholder_name(expr: ast.expr, taken: dict[str, str], source: str) -> str:
    """A readable placeholder for an f-string's ``{expr}``: ``{seat}`` for
    ``{seat}`` or ``{self.seat}``, ``{n}`` for ``{len(x)}``, else ``{value}``."""
    if isinstance(expr, ast.Name):
        base = expr.id
    elif isinstance(expr, ast.Attribute):
        base = expr.attr
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len":
        base = "n"
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        base = expr.func.attr
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        base = expr.func.id
    elif isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):
        base = str(expr.slice.value)
    else:
        base = "value"
    base = re.sub(r"\W", "_", base.strip("_")).lower() or "value"
    text = ast.get_source_segment(source, expr) or base
    name, i = base, 2
    while name in taken and taken[name] != text:
        name, i = f"{base}{i}", i + 1
    taken[name] = text
    return name


def template_of(node: ast.expr, source: str) -> str | None:
    """The message template of a string or f-string expression, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        taken: dict[str, str] = {}
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                out.append("{" + _placeholder_name(part.value, taken, source) + "}")
        return "".join(out)
    return None


def templates_of(node: ast.expr, source: str) -> list[str]:
    """Every message an expression can be: a string, an f-string, either
    branch of ``a if c else b``, or a string plus a string."""
    if isinstance(node, ast.IfExp):
        return templates_of(node.body, source) + templates_of(node.orelse, source)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = templates_of(node.left, source), templates_of(node.right, source)
        return [a + b for a in left for b in right]
    text = template_of(node, source)
    return [text] if text is not None else []


#: Functions whose returned strings are messages a person reads (why an action is illegal,
#: why a seat is refused).
_EXPLAINERS = re.compile(r"^(explain_illegal|.*_refusal|refusal)$")


def _returns(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    for node in ast.walk(func):
        if isinstance(node, ast.Return) and node.value is not None:
            yield node.value


def _python_messages(source: str) -> Iterator[tuple[int, str | None, tuple[str, ...]]]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _EXPLAINERS.match(node.name):
            for value in _returns(node):
                for text in templates_of(value, source):
                    if has_letters(text):
                        yield value.lineno, None, (text,)
        if isinstance(node, ast.Call):
            name = _is_message_call(node.func)
            if name is None or not node.args:
                continue
            if name in ("ngettext", "pgettext"):
                args = [template_of(a, source) for a in node.args[:2]]
                if all(args):
                    yield node.lineno, name, tuple(a for a in args if a)
                continue
            for text in templates_of(node.args[0], source):
                if has_letters(text):
                    yield node.lineno, None, (text,)
        elif isinstance(node, ast.Dict):
            keys = {
                k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)
            }
            kind = keys.get("type")
            notice = isinstance(kind, ast.Constant) and kind.value == "notice"
            for k, v in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(k, ast.Constant)
                    and (k.value == "error" or (notice and k.value == "text"))
                    and v is not None
                ):
                    for found in templates_of(v, source):
                        if has_letters(found):
                            yield v.lineno, None, (found,)


def extract_python(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: Mapping[str, str]
) -> Iterator[tuple[int, str | None, tuple[str, ...], list[str]]]:
    """Babel extraction method for trumps' Python sources (see the module doc)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, funcname, messages in _python_messages(source):
        yield lineno, funcname, messages, []


_ATTRS = ("title", "aria-label", "placeholder", "alt")
_SKIP = {"script", "style"}


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skipping += 1
        for k, v in attrs:
            if k in _ATTRS and v and has_letters(v):
                self.found.append((self.getpos()[0], " ".join(v.split())))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not self.skipping and has_letters(text):
            self.found.append((self.getpos()[0], text))


def html_texts(source: str) -> list[tuple[int, str]]:
    """Every text node and translatable attribute of a page, whitespace collapsed."""
    p = _Texts()
    p.feed(source)
    return p.found


def extract_html(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: Mapping[str, str]
) -> Iterator[tuple[int, str | None, tuple[str, ...], list[str]]]:
    """Babel extraction method for the room's pages (see the module doc)."""
    for lineno, text in html_texts(fileobj.read().decode("utf-8")):
        yield lineno, None, (text,), []


def extract_runtime(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: Mapping[str, str]
) -> Iterator[tuple[int, str | None, tuple[str, ...], list[str]]]:
    """Babel extraction method run on ``src/trumps/i18n/runtime.py``: the
    texts the code produces as data (see the module doc)."""
    from trumps.i18n.runtime import runtime_texts

    for text, where in runtime_texts():
        yield 1, None, (text,), [where]


_PKG = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def known_messages() -> list[tuple[str, str | None, str | None]]:
    """Every message of trumps as ``(msgid, plural, context)``, extracted from
    the installed package exactly as ``babel.cfg`` does (the pseudo-language
    and the catalogue tests use it)."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    keywords = {**DEFAULT_KEYWORDS, **JS_KEYWORDS}
    seen: dict[tuple[str, str | None], str | None] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(_PKG), METHOD_MAP, {}, keywords=keywords, comment_tags=(), strip_comment_tags=True
    ):
        msgid, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, None)
        seen.setdefault((msgid, context), plural)
    return [(m, p, c) for (m, c), p in seen.items()]


#: The JavaScript keywords of the pages: t(msgid, params), tn(singular, plural, n, params), tc(context, msgid, params).
JS_KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "t": None,
    "tn": (1, 2),
    "tc": ((1, "c"), 2),
}

#: What ``babel.cfg`` says, for extraction from the installed package (paths relative to src/trumps).
METHOD_MAP = [
    ("i18n/runtime.py", "trumps.i18n.extract:extract_runtime"),
    ("i18n/**.py", "ignore"),
    ("**/migrations/**", "ignore"),
    # the research library speaks English (its errors are for programmers)
    ("bots/**.py", "ignore"),
    ("solver/**.py", "ignore"),
    ("envs/**.py", "ignore"),
    ("__init__.py", "ignore"),
    ("**.py", "trumps.i18n.extract:extract_python"),
    ("room/static/**.js", "javascript"),
    ("room/static/**.html", "trumps.i18n.extract:extract_html"),
]
