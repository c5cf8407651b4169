"""Duplicate tournaments in the room: stored plans, entries and scores
(:mod:`~trumps.room.tournaments.records`) and the desk that lists them and
plays their deals at tables (:mod:`~trumps.room.tournaments.desk`).  The
tournament itself (plans, rankings, fair bots) is :mod:`trumps.tournaments`."""
