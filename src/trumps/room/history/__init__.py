"""Finished games: rebuilt from their stored actions into replays and
exports (:mod:`.replays`), analysed card by card after the game
(:mod:`.review`), and the read-only queries behind a player's game list
(:mod:`.queries`).  The pages and the JSON routes are
:mod:`trumps.room.web.history`'s.
"""
