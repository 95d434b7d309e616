"""The hook specifications: the whole plugin contract, one function each.

A plugin is a module of functions marked with ``@arena.hookimpl``, named by
an entry point in the ``arena`` group of its distribution::

    [project.entry-points.arena]
    my-bot = "my_bot.plugin"

pluggy calls every registered implementation of a hook; order does not matter.
"""

from __future__ import annotations

from collections.abc import Callable

from arena import hookspec


@hookspec
def arena_register_games(register: Callable[[type], None]) -> None:
    """Register game classes.

    Called once when the arena discovers plugins. Call ``register(GameClass)``
    for each :class:`arena.game.Game` subclass the plugin provides; the class
    must be constructible with no arguments and have a unique ``name``. A
    class that breaks the contract is reported by ``arena games`` and skipped.
    """


@hookspec
def arena_register_bots(register: Callable[[type], None]) -> None:
    """Register bot classes.

    Called once when the arena discovers plugins. Call ``register(BotClass)``
    for each bot class the plugin provides (see :mod:`arena.bot`): it needs a
    ``name`` class attribute, a constructor that takes the keyword arguments
    ``game``, ``seat``, ``num_players`` and ``seed`` (and its params), and an
    ``act(observation, legal_actions)`` method; ``games``, if given, is a tuple
    of game names. A class that breaks the contract is reported by ``arena
    bots`` and skipped.
    """
