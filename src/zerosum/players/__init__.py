"""Players: the catalogue of player kinds (catalogue), the computer players (agents),
their written form (spec), the terminal's person and watch (terminal) and the text of a
match (text). The game loop itself is zerosum.match."""
