"""Where the room keeps everything: the SQLAlchemy models and the Alembic
migrations (:mod:`.db`, ``migrations/``) and the storage API the rest of
the room calls (:mod:`.store`: writes on one database thread in group
commits, reads beside it on PostgreSQL).

The bottom of the room: it imports no other part of it.
"""
