"""The shipped catalogues are complete: every message of the server, the
CLI, the pages and the games' data is translated in every language, with
its placeholders kept, and the compiled ``.mo`` files match their ``.po``.

This is the test that fails when someone adds a string (a page text, an
error, an option label) without a translation: run
``python scripts/i18n.py all``, translate the new entries, commit."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from trumps.i18n import LANGUAGES, translator
from trumps.i18n.extract import _is_message_call, templates_of

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "trumps"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["i18n_tool"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_every_message_is_translated_in_every_language() -> None:
    problems = _tool().problems()
    assert not problems, f"{len(problems)} catalogue problems, first: " + "\n".join(problems[:20])


def test_a_compiled_catalogue_is_stale_when_its_messages_are_not_when_its_header_is(tmp_path: Path) -> None:
    """Another Babel writes another "Generated-By" header (CI got Babel 2.19 while the
    catalogues were compiled with 2.18): that is not staleness; a changed message is."""
    import io

    from babel.messages.mofile import read_mo, write_mo

    tool = _tool()
    shipped = tool.po_path("fr").with_suffix(".mo")
    cat = read_mo(io.BytesIO(shipped.read_bytes()))
    other_babel = tmp_path / "other.mo"
    buf = io.BytesIO()
    write_mo(buf, cat)
    other_babel.write_bytes(buf.getvalue().replace(b"Generated-By: Babel ", b"Generated-By: Babe1 "))
    assert other_babel.read_bytes() != shipped.read_bytes()
    assert tool.mo_is_current(other_babel, "fr")
    first = next(m for m in cat if m.id and isinstance(m.string, str) and m.string)
    first.string += " (changed)"
    buf = io.BytesIO()
    write_mo(buf, cat)
    changed = tmp_path / "changed.mo"
    changed.write_bytes(buf.getvalue())
    assert not tool.mo_is_current(changed, "fr")


def test_the_plural_rule_is_the_catalogues_own_not_babels() -> None:
    """Babel 2.19's CLDR gives French three plural forms; the French catalogue has two."""
    from trumps.i18n import gettext_plural

    assert gettext_plural("fr") == (2, "(n > 1)")
    assert gettext_plural("de") == (2, "(n != 1)")
    assert gettext_plural("en") == (2, "(n != 1)")
    fr = translator("fr")
    assert [fr._plural_index(n) for n in (0, 1, 2, 1_000_000)] == [0, 0, 1, 1]


#: Raises whose message is not written at the raise: each re-raises a message
#: that is itself extracted where it is made (an engine error, a refusal).
RERAISES = {
    ("room/people/accounts.py", "WRONG"),  # a constant marked N_() where it is defined
    ("room/people/presence.py", 'answer["error"]'),
    ("room/people/play.py", 'answer["error"]'),
    ("room/tables/seating.py", "str(exc)"),
    ("room/tables/table.py", "str(exc)"),
    ("room/tables/seating.py", "refusal"),
    ("room/tables/admission.py", "reason or NOT_INVITED"),  # not_seen_because's N_ messages, or NOT_INVITED
    ("room/tables/table.py", "self.match.explain_illegal(parsed, legal)"),
    ("room/people/play.py", "str(exc)"),
    ("room/room.py", "str(exc)"),
    ("cli/common.py", "message"),
    ("cli/games/bridge.py", "message"),
    ("bridge/pbn.py", "defects"),
    ("bridge/lin.py", "defects"),
    ("core/protocol.py", "self.explain_illegal(action, legal)"),
    ("core/options.py", "name"),
}
SKIP = ("bots/", "solver/", "envs/", "i18n/", "room/storage/migrations/")


def _raise_sites() -> list[tuple[str, int, str]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(SKIP) or rel == "__init__.py":
            continue
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args):
                continue
            if _is_message_call(node.exc.func) is None:
                continue
            arg = node.exc.args[0]
            if not templates_of(arg, source):
                out.append((rel, node.lineno, ast.get_source_segment(source, arg) or ""))
    return out


def test_every_error_a_person_can_read_is_extractable() -> None:
    """An error's message must be written at the raise (a string, an
    f-string, a choice of them) so the extractor finds it, or be a listed
    re-raise of a message extracted elsewhere."""
    unknown = [(f, line, seg) for f, line, seg in _raise_sites() if (f, seg) not in RERAISES]
    assert not unknown, f"messages the catalogue cannot know: {unknown}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_engine_errors_reach_a_player_translated(lang: str) -> None:
    import trumps

    match = trumps.new_game("coinche", seed=3)
    for bad in ("ZZ", "7H", "XX"):  # unreadable, a card in the auction, a double with no bid
        with pytest.raises(ValueError) as info:
            match.apply(bad)
        english = str(info.value)
        assert translator(lang).message(english) != english, english
