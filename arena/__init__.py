"""Lost Valley Arena: AI tournaments on tabletop games.

The public API for plugin authors is small:

- :data:`hookimpl` marks the functions of a plugin module
  (``arena_register_games`` / ``arena_register_bots``);
- :class:`arena.game.Game` and :class:`arena.game.State` are the engine contract;
- :class:`arena.bot.Bot` is the (optional) base class for bots.
"""

from __future__ import annotations

import pluggy

PROJECT = "arena"
"""The pluggy project name and the entry point group plugins register under."""

hookimpl = pluggy.HookimplMarker(PROJECT)
hookspec = pluggy.HookspecMarker(PROJECT)

__all__ = ["PROJECT", "hookimpl", "hookspec"]
__version__ = "0.1.0"
