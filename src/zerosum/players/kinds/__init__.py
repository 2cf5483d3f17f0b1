"""Kinds of player beyond the built-in ones (zerosum.players.catalogue): each module
here calls `catalogue.register(PlayerKind(...))` when imported, and the catalogue
imports every module here the first time it lists the kinds."""
