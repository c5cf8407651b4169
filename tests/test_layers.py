"""The engine stays below every I/O layer: no module of the core, the game
packages or the solver imports the CLI, the card room, the translations,
asyncio, a database or a web framework (read with ``ast``, so nothing is imported to check)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "trumps"
PURE = ("core", "five_hundred", "bridge", "coinche", "solver", "tournaments")
FORBIDDEN = (
    "trumps.cli",
    "trumps.room",
    "asyncio",
    "sqlalchemy",
    "alembic",
    "starlette",
    "fastapi",
    "uvicorn",
    "httpx",
    "aiohttp",
    "flask",
    "django",
    "websockets",
    "jinja2",
    "pydantic",
    # the engine speaks English and neutral notation; languages live at the edges
    "trumps.i18n",
    "babel",
)


def _modules() -> list[Path]:
    return sorted(p for pkg in PURE for p in (SRC / pkg).rglob("*.py"))


def _package_of(path: Path) -> str:
    """The package a module's relative imports start from (its own for
    ``__init__.py``, the enclosing one for any other module: both its folder)."""
    return ".".join(path.relative_to(SRC.parent).parts[:-1])


def imported_names(path: Path) -> list[str]:
    """Every absolute module name a file imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(path).split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.append(module)
            names.extend(f"{module}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.append(node.args[0].value)
    return names


def _forbidden(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


def test_the_pure_packages_have_modules() -> None:
    mods = _modules()
    for pkg in PURE:
        assert any(p.parent.name == pkg for p in mods), pkg


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_engine_module_imports_no_io_layer(path: Path) -> None:
    bad = sorted({n for n in imported_names(path) if _forbidden(n)})
    assert not bad, f"{path.relative_to(SRC)} imports {bad}"


def test_the_checker_sees_forbidden_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import asyncio\nfrom trumps.cli.common import CliParser\n"
        "import importlib\nimportlib.import_module('trumps.room.web.app')\nimport trumps.core.cards\n"
    )
    got = [n for n in imported_names(sample) if _forbidden(n)]
    assert "asyncio" in got and "trumps.cli.common" in got and "trumps.room.web.app" in got
    assert not _forbidden("trumps.core.cards") and not _forbidden("trumps.client")


def test_no_game_package_keeps_a_cli_module() -> None:
    for pkg in ("five_hundred", "bridge", "coinche"):
        assert not (SRC / pkg / "cli.py").exists(), f"trumps/{pkg}/cli.py belongs in trumps/cli/games/"


def test_the_languages_know_no_room_module() -> None:
    """The room registers what it translates with ``trumps.i18n`` (the
    ``trumps.texts`` entry points), not the reverse: no import cycle."""
    for path in sorted((SRC / "i18n").rglob("*.py")):
        bad = sorted({n for n in imported_names(path) if n == "trumps.room" or n.startswith("trumps.room.")})
        assert not bad, f"{path.relative_to(SRC)} imports {bad}"


def test_the_room_registers_its_texts_for_translation() -> None:
    from trumps.i18n.runtime import registered_texts

    texts = dict(registered_texts())
    assert texts.get("Kind of game") == "table settings"
    assert any(where == "personal settings" for where in texts.values())
    assert any(where == "preset chat phrase" for where in texts.values())


# ----- the room's areas ---------------------------------------------------------------
ROOM = SRC / "room"
#: the room's areas (subpackages) and the modules at its top: ``room.py``
#: and ``texts.py`` assemble the areas (below the web only); the rest of the
#: top (limits, validate, wire, timing, the package itself) is the base
#: every area may use
ASSEMBLY = frozenset({"room", "texts"})
#: what each area may import at run time (besides itself and the base)
ALLOWED = {
    "storage": set(),
    "tables": {"storage"},
    "people": {"storage", "tables"},
    "history": {"storage", "people"},
    "compete": {"storage", "tables", "people"},
    "cluster": {"storage", "tables", "people"},
    "tournaments": {"storage", "tables", "people"},
    "assembly": {"storage", "tables", "people", "compete", "history", "cluster", "tournaments"},
    "web": {"storage", "tables", "people", "compete", "history", "cluster", "assembly", "tournaments"},
}


def _area(module: str) -> str | None:
    """The area of a module of the room (None outside it)."""
    parts = module.split(".")
    if parts[:2] != ["trumps", "room"] or len(parts) < 3:
        return None
    if (ROOM / parts[2]).is_dir() and parts[2] != "static":
        return parts[2]
    return "assembly" if parts[2] in ASSEMBLY else "base"


def _runtime_imports(path: Path) -> list[str]:
    """The modules a file imports when it runs (``if TYPE_CHECKING:`` blocks
    left out: a name used only in annotations makes no arrow)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    typing_only = {
        id(n)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for n in ast.walk(block)
    }
    names: list[str] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
            names.extend(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
    return names


def _room_modules() -> list[tuple[Path, str]]:
    out = []
    for path in sorted(ROOM.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out.append((path, module))
    return out


def test_the_room_is_split_into_its_areas() -> None:
    areas = {p.name for p in ROOM.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert areas == set(ALLOWED) - {"assembly"}
    flat = sorted(p.name for p in ROOM.glob("*.py") if p.stem not in ASSEMBLY | {"__init__"})
    assert flat == ["limits.py", "timing.py", "validate.py", "wire.py"], flat


@pytest.mark.parametrize("path,module", _room_modules(), ids=lambda v: str(v).rsplit("src/", 1)[-1])
def test_the_room_imports_only_downwards(path: Path, module: str) -> None:
    """web may import every area, the tables neither the web nor the people
    (they are given a Policy and a Ledger), storage no other area: no cycle."""
    mine = _area(module if path.name != "__init__.py" else module + ".x")
    assert mine is not None
    if mine == "base":
        allowed: set[str] = set()
    else:
        allowed = ALLOWED[mine] | {mine}
    bad = sorted({n for n in _runtime_imports(path) if _area(n) not in (None, "base", *allowed)})
    assert not bad, f"{path.relative_to(SRC)} ({mine}) imports {bad}"


def test_the_room_areas_make_no_cycle() -> None:
    seen: set[str] = set()

    def visit(area: str, path: tuple[str, ...]) -> None:
        assert area not in path, f"cycle: {' -> '.join((*path, area))}"
        if area in seen:
            return
        for nxt in ALLOWED[area]:
            visit(nxt, (*path, area))
        seen.add(area)

    for area in ALLOWED:
        visit(area, ())


#: the modules besides the web that may speak HTTP: the ASGI middlewares of the
#: base (a body's size, control characters), which every area's limits share
HTTP_OUTSIDE_WEB = frozenset({"trumps.room.limits", "trumps.room.validate"})


@pytest.mark.parametrize("path,module", _room_modules(), ids=lambda v: str(v).rsplit("src/", 1)[-1])
def test_only_the_web_speaks_http(path: Path, module: str) -> None:
    """Routes, requests and responses live in ``room/web``: the other areas
    are called by it and know nothing of Starlette."""
    if _area(module if path.name != "__init__.py" else module + ".x") == "web" or module in HTTP_OUTSIDE_WEB:
        return
    http = sorted({n for n in _runtime_imports(path) if n == "starlette" or n.startswith("starlette.")})
    assert not http, f"{path.relative_to(SRC)} imports {http}"
