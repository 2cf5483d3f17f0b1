"""Game-specific engines that build on the generic searches (kept out of games/)."""
