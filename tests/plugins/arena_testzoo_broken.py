"""A bot plugin whose import fails: ``arena bots`` reports it and skips it."""

raise ImportError("this bot plugin is broken on purpose")
