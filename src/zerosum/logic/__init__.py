"""Propositional logic."""
