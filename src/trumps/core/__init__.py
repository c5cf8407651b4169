"""The pure core shared by every game: cards, decks, seats, options, errors
and the game protocol.  Nothing here does I/O."""
