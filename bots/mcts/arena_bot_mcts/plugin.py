"""Entry point module of the ``mcts`` bot."""

from __future__ import annotations

from collections.abc import Callable

import arena
from arena_bot_mcts import MCTSBot


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    register(MCTSBot)
