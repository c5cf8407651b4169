"""Workers started together on a new database agree on one cookie secret
(the first stores it; the others read it instead of failing to start)."""

from __future__ import annotations

import threading

from trumps.room.storage.store import Store


def test_workers_racing_to_create_the_secret_share_one(pg_db: str) -> None:
    stores = [Store(pg_db) for _ in range(6)]
    got: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(len(stores))

    def run(store: Store) -> None:
        try:
            start.wait()
            got.append(store.secret())
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    assert not errors, errors
    assert len(got) == len(stores) and len(set(got)) == 1
