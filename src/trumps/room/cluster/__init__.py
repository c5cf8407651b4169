"""One room on several worker processes (PostgreSQL between them).

See :mod:`trumps.room.cluster.node` for how it works and ``docs/scaling.md``
for how to deploy it."""

from trumps.room.cluster.node import Cluster, RemoteTable

__all__ = ["Cluster", "RemoteTable"]
