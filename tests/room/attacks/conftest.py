"""Fixtures the attack tests share with the room's other tests (imported,
not copied)."""

from collections.abc import Iterator

import pytest
from test_ratings import store  # noqa: F401 (a Store on each database)

from trumps.room import limits


@pytest.fixture
def unlimited_messages(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every message budget out of the way, for the fuzzers (autouse in
    their modules, so it runs before the room is made): they send hundreds
    of inputs a second on one socket, and what they check is the answer to
    each input, not the pace.  The budgets have tests of their own
    (test_budgets.py, tests/room/test_limits.py)."""
    for name in ("MESSAGE_BURST", "PERSON_MESSAGE_BURST", "ADDRESS_MESSAGE_BURST"):
        monkeypatch.setattr(limits, name, 10**9)
    yield
