"""Local search."""
