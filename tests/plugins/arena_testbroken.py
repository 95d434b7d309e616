"""A plugin that registers things that break the contracts; each is reported and skipped."""

from __future__ import annotations

from collections.abc import Callable

import arena
from arena.bot import Bot


class Nameless:
    def act(self, observation: object, legal_actions: list[int]) -> int:
        return legal_actions[0]


class Mute:
    name = "mute"


class Argless:
    """Written to the letter of "a class with a name and an act method": it has no
    constructor, so the referee's ``Argless(game=..., seat=...)`` could never build it."""

    name = "argless"

    def act(self, observation: object, legal_actions: list[int]) -> int:
        return legal_actions[0]


class OneGame(Bot):
    """A tuple of one game without its comma: the string matched parts of game names."""

    name = "one-game"
    games = ("tiny-race")  # type: ignore[assignment]

    def act(self, observation: object, legal_actions: list[int]) -> int:
        return legal_actions[0]


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    register(Nameless)
    register(Mute)
    register(Argless)
    register(OneGame)
    register(42)  # type: ignore[arg-type]


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    raise RuntimeError("this plugin's game hook is broken")
