"""One plugin module that registers a game and a bot: its game is refused in sandboxed runs.

Not listed in an entry point file; ``tests/test_catalog.py`` names it directly.
"""

from __future__ import annotations

from collections.abc import Callable

from arena_testbots import Cheater
from arena_testgame import TinyRace

import arena


class MixedRace(TinyRace):
    name = "mixed-race"


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    register(MixedRace)


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    register(Cheater)
