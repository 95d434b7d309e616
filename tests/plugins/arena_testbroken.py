"""A plugin that registers things that break the contracts; each is reported and skipped."""

from __future__ import annotations

from collections.abc import Callable

import arena


class Nameless:
    def act(self, observation: object, legal_actions: list[int]) -> int:
        return legal_actions[0]


class Mute:
    name = "mute"


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    register(Nameless)
    register(Mute)
    register(42)  # type: ignore[arg-type]


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    raise RuntimeError("this plugin's game hook is broken")
