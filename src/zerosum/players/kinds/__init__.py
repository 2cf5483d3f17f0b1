"""Kinds of player (zerosum.players.catalogue), one module each (or a few that share
their search): each module here calls `catalogue.register(PlayerKind(...))` when
imported, and the catalogue imports every module here the first time it lists the kinds.
A search algorithm is one such module: a kind with an `analyser` (see alphabeta.py)."""
