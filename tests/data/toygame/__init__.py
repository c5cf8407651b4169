"""Toy Tricks: a throw-away fourth game that proves what adding a game means.

Eight cards (A K Q J of spades and hearts), four seats in two partnerships,
two cards each, no auction: the seat left of the dealer leads, everyone
follows suit when able, the highest card of the suit led wins, and every
trick is a point for the winner's side.  The first side to reach ``target``
points at the end of a deal wins.  It lives in the tests on purpose: it is
registered only through an entry point (``tests/core/test_registry.py``),
exactly as an outside package would register its game.
"""
