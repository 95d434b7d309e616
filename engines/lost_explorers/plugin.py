"""Entry point module of the game ``lost-explorers``."""

from __future__ import annotations

from collections.abc import Callable

import arena
from engines.lost_explorers.game import LostExplorersGame


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    register(LostExplorersGame)
