"""Lost Explorers: the engine (rules in :mod:`engines.lost_explorers.game`)."""
