"""Entry point module of the ``greedy`` bot."""

from __future__ import annotations

from collections.abc import Callable

import arena
from arena_bot_greedy import GreedyBot


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    register(GreedyBot)
