"""Entry point module of the game ``lost-valley-of-the-dinosaurs``."""

from __future__ import annotations

from collections.abc import Callable

import arena
from engines.dinosaurs.game import DinosaursGame


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    register(DinosaursGame)
