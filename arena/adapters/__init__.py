"""Bridges between the arena's games and other ecosystems (optional extras)."""
