"""Marks every test by what it needs, so a developer can run the fast tier.

The tiers (declared in ``pyproject.toml``, checked by ``--strict-markers``):

- ``browser``: drives Chromium through Playwright (a test that asks for the
  ``browser`` fixture, or lives in a ``test_browser*.py`` file);
- ``postgres``: starts a real PostgreSQL server (asks for ``pg_url`` or
  ``pg_db``, or is the PostgreSQL case of the ``db_url`` parameter);
- ``cluster``: several worker processes, nginx in front (the
  ``test_cluster*.py`` and ``test_browser_cluster.py`` files and the nginx
  deployment tests);
- ``slow``: marked explicitly where a test takes tens of seconds or minutes.

The marks are derived here, from what a test uses, rather than written on
every test: a new test that asks for ``pg_url`` is in the ``postgres`` tier
without anyone remembering to say so.  ``pytest -m "not browser and not
postgres and not cluster and not slow"`` is the fast tier (docs/testing.md).
"""

from __future__ import annotations

import pytest

BROWSER_FIXTURES = frozenset({"browser", "page"})
POSTGRES_FIXTURES = frozenset({"pg_url", "pg_db"})
CLUSTER_FILES = frozenset({"test_browser_cluster.py", "test_nginx.py"})


def tiers_of(item: pytest.Item) -> set[str]:
    """The tier marks ``item`` needs, from its fixtures, parameters and file."""
    names = set(getattr(item, "fixturenames", ()))
    path = item.path
    tiers: set[str] = set()
    if names & BROWSER_FIXTURES or path.name.startswith("test_browser"):
        tiers.add("browser")
    callspec = getattr(item, "callspec", None)
    db = callspec.params.get("db_url") if callspec is not None else None
    if names & POSTGRES_FIXTURES or db == "postgresql":
        tiers.add("postgres")
    if path.name.startswith("test_cluster") or path.name in CLUSTER_FILES:
        tiers.add("cluster")
    return tiers


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for tier in sorted(tiers_of(item)):
            item.add_marker(getattr(pytest.mark, tier))


def pytest_ignore_collect(collection_path: object, config: pytest.Config) -> bool | None:
    """With ``-m "not browser ..."`` the browser test files are not even
    imported, so the fast tier runs where Playwright is not installed."""
    name = getattr(collection_path, "name", "")
    if name.startswith("test_browser") and "not browser" in (config.option.markexpr or ""):
        return True
    return None
