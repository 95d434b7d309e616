"""Entry point module of the ``random`` bot."""

from __future__ import annotations

from collections.abc import Callable

import arena
from arena_bot_random import RandomBot


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    register(RandomBot)
