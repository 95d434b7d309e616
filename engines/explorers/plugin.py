"""Entry point module of the game ``explorers-of-the-lost-valley``."""

from __future__ import annotations

from collections.abc import Callable

import arena
from engines.explorers.game import ExplorersGame


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    register(ExplorersGame)
