"""The games; each module registers itself in zerosum.games.registry. They know no search."""
