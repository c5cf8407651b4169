"""Fixtures the attack tests share with the room's other tests (imported,
not copied)."""

from test_ratings import store  # noqa: F401 (a Store on each database)
