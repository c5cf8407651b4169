"""``TRUMPS_PURE=1``: run the engines as the Python they are written in,
even where their compiled modules are installed (``setup.py``).

mypyc puts each compiled module beside its source (``deal.py`` and
``deal.cpython-311-….so``), and Python's import system prefers the
extension.  This finder, installed by ``trumps/__init__.py`` before any
engine module is imported, hands out the source instead.  It exists for the
differential test (``tests/core/test_compiled.py``) and the benchmark
(``benchmarks/engine_differential.py``), which play the same deals both ways
and require identical records, and for a user who wants to step through the
engine in a debugger.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["compiled_modules", "install_if_asked"]


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds ``trumps.*`` modules in their ``.py`` file when a compiled one
    sits beside it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("trumps.") or path is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if (
            spec is None
            or spec.origin is None
            or not spec.origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        ):
            return None
        source = os.path.join(os.path.dirname(spec.origin), fullname.rpartition(".")[2] + ".py")
        if not os.path.exists(source):
            return None  # an extension with no Python twin (the C solver): it stays
        return importlib.util.spec_from_file_location(fullname, source)


def stale_sources(group: str) -> list[str]:
    """The engine sources changed after ``group`` (the compiled library) was
    built: in a checkout installed in place (``pip install -e .``), an edit
    to ``deal.py`` does not rebuild ``deal.cpython-311-….so``, and a failed
    rebuild (a type error mypyc refuses) leaves the old one there.  Python
    would run the old compiled code beside the new sources without a word."""
    package = os.path.dirname(group)
    checkout = os.path.dirname(os.path.dirname(package))
    if os.path.basename(os.path.dirname(package)) != "src" or not os.path.exists(
        os.path.join(checkout, "pyproject.toml")
    ):
        # an installed wheel: its files' times are when they were unpacked, in any
        # order, and its sources cannot be edited in place anyway
        return []
    built = os.path.getmtime(group)
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    out = []
    for folder, _dirs, files in os.walk(package):
        for name in files:
            if not name.endswith(suffixes) or name.startswith("_compiled__mypyc"):
                continue
            source = os.path.join(folder, name.partition(".")[0] + ".py")
            if os.path.exists(source) and os.path.getmtime(source) > built:
                out.append(os.path.relpath(source, package))
    return sorted(out)


def install_if_asked() -> bool:
    """Install the finder when ``TRUMPS_PURE`` is set to anything but ``0``,
    when the compiled group itself is missing (a build whose group failed
    to compile while some of its modules' stubs did: then the stubs could
    not import, and the sources are what there is), or when a source is
    newer than the compiled group (:func:`stale_sources`; all or nothing,
    since a compiled module cannot import a class of a source-run one as
    the native class it was compiled against)."""
    asked = os.environ.get("TRUMPS_PURE", "0") not in ("", "0")
    group = importlib.util.find_spec("trumps._compiled__mypyc")
    if not asked and group is not None and group.origin is not None:
        stale = stale_sources(group.origin)
        if not stale:
            return False
        warnings.warn(
            f"trumps: {', '.join(stale)} changed after the engines were compiled; running the "
            "Python sources (rebuild with `pip install -e .`)",
            RuntimeWarning,
            stacklevel=3,
        )
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())
    return True


def compiled_modules() -> list[str]:
    """The engine modules imported so far that run compiled (loaded from an
    extension; the C solver and mypyc's shared library aside).  Read from
    the loader, not ``__file__``: mypyc gives the modules of its group a
    wrong ``__file__`` (mypy 2.4)."""
    skip = ("trumps.solver._dd", "trumps.core._seeded", "trumps._compiled__mypyc")
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("trumps.")
        and name not in skip
        and isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)
    )
