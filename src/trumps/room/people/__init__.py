"""The room's people: accounts, guests and sessions (:mod:`.accounts`),
friends and blocks (:mod:`.friends`), presence, invitations and each
person's own channel (:mod:`.presence`), profiles (:mod:`.profiles`),
personal settings (:mod:`.prefs`), ratings (:mod:`.ratings`), and the Play
button: its sans-I/O matchmaker (:mod:`.matchmaking`) and the desk that
seats the groups it makes (:mod:`.play`).

Below the web layer and beside the tables: a table consults the people
through its ``Policy`` hook, and never imports them.
"""
