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
from typing import Any, ClassVar

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


class Closer(Bot):
    """Says when its optional ``close()`` hook runs; raises at its first move if ``fail``."""

    name = "closer"
    closed: ClassVar[list[int]] = []
    """The seats whose close() ran, in this process (in-process seats)."""

    def __init__(self, *, fail: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fail = fail

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.fail:
            raise RuntimeError("boom")
        return legal_actions[0]

    def close(self) -> None:
        print(f"CLOSED seat {self.seat}", flush=True)
        self.closed.append(self.seat)


class Typist(Bot):
    """Raises unless it is handed what the README promises every seat: a dict of JSON values
    (lists, string keys), each part that never changes a read-only ``Static`` (the same
    object all match), and the legal actions as a tuple; answers a numpy-like int."""

    name = "typist"
    static: ClassVar[dict[str, str]] = {"explorers-of-the-lost-valley": "cards",
                                        "lost-valley-of-the-dinosaurs": "board",
                                        "lost-explorers": "box"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kept: object = None

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> Any:
        from arena.game import Static

        if type(legal_actions) is not tuple:
            raise TypeError(f"legal_actions is a {type(legal_actions).__name__}")
        key = self.static.get(self.game)
        if key is not None:
            part = observation[key]
            if type(part) is not Static or part is not (self.kept or part):
                raise TypeError(f"{key} is a new {type(part).__name__}")
            self.kept = part
        _json_values(observation, "observation")
        return _IntLike(legal_actions[-1])


class _IntLike:
    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def _json_values(value: Any, where: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError(f"{where} has the key {key!r}")
            _json_values(item, f"{where}[{key!r}]")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _json_values(item, f"{where}[{index}]")
    elif value is not None and type(value) not in (str, int, float, bool):
        raise TypeError(f"{where} is a {type(value).__name__}")


class Sorter(Bot):
    """Sorts, on its first decision, the lists of the observation's part that never changes in
    a match (``.sort()`` where it meant ``sorted()``): a buggy bot, not a hostile one. In a
    seat of the referee's process that part is the engine's own view, shared by every seat
    of every match there."""

    name = "sorter"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.decided is False:
            self.decided = True
            for column in observation[Typist.static[self.game]].values():
                if isinstance(column, list):
                    column.sort(reverse=True)
        return legal_actions[0]

    decided = False


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
    """Plays only games that do not exist, one of them a misspelt ``tiny-race``."""

    name = "picky"
    games = ("no-such-game", "tiny-rase")

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


class CrowdShy(Bot):
    """Plays heads-up only: at a table of more than two it raises."""

    name = "crowd-shy"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.num_players > 2:
            raise RuntimeError(f"{self.num_players} players is a crowd")
        return legal_actions[0]


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    for bot in (Crasher, Closer, Typist, Sorter, Cheater, Garbage, Sleeper, Kamikaze, Picky,
                CrowdShy):
        register(bot)
