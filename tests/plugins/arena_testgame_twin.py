"""Another plugin module registering ``tiny-race``: two claims on one game name
(named directly by ``tests/test_catalog.py``)."""

from __future__ import annotations

from collections.abc import Callable

from arena_testgame import TinyRace

import arena


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    register(TinyRace)
