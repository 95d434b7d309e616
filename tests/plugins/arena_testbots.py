"""Bots that misbehave on purpose, registered through a real entry point.

``tests/conftest.py`` puts this folder on ``sys.path`` and on the Ray
workers' ``PYTHONPATH``, so the arena discovers them like any installed bot.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import arena
from arena.bot import Bot


class Crasher(Bot):
    """Raises after ``after`` decisions."""

    name = "crasher"

    def __init__(self, *, after: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.left = after

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.left <= 0:
            raise RuntimeError("boom")
        self.left -= 1
        return legal_actions[0]


class Cheater(Bot):
    """Answers an action id that is never legal."""

    name = "cheater"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return max(legal_actions) + 10_000


class Garbage(Bot):
    """Answers something that is not an action id at all."""

    name = "garbage"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return "banana"  # type: ignore[return-value]


class Sleeper(Bot):
    """Thinks for ``seconds`` before every legal answer; ``except Exception`` can't save it."""

    name = "sleeper"

    def __init__(self, *, seconds: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seconds = seconds

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        # A bot that swallows every Exception still cannot outlive its budget.
        with contextlib.suppress(Exception):
            time.sleep(self.seconds)
        return legal_actions[0]


class Kamikaze(Bot):
    """Kills its whole process: once (when ``marker`` does not exist yet), or always
    (no ``marker``)."""

    name = "kamikaze"

    def __init__(self, *, marker: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.marker = Path(marker) if marker else None

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.marker is None:
            os.kill(os.getpid(), signal.SIGKILL)
        if not self.marker.exists():
            self.marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return legal_actions[self.rng.randrange(len(legal_actions))]


class Picky(Bot):
    """Plays only a game that does not exist."""

    name = "picky"
    games = ("no-such-game",)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    for bot in (Crasher, Cheater, Garbage, Sleeper, Kamikaze, Picky):
        register(bot)
