"""Explorers of the Lost Valley: the engine (rules in :mod:`engines.explorers.game`)."""
