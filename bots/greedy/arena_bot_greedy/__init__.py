"""The ``greedy`` bot: a one-move heuristic per game.

Each supported game has a module here with a ``choose(observation,
legal_actions, rng, risk)`` function; the bot dispatches on the game name.
``risk`` (a param, 0..1, default 0.5) says how boldly the heuristic plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.bot import Bot
from arena_bot_greedy import dinosaurs, explorers, lost_explorers

Chooser = Callable[[Mapping[str, Any], Sequence[int], random.Random, float], int]

CHOOSERS: dict[str, Chooser] = {
    "explorers-of-the-lost-valley": explorers.choose,
    "lost-valley-of-the-dinosaurs": dinosaurs.choose,
    "lost-explorers": lost_explorers.choose,
}


class GreedyBot(Bot):
    """Plays the move a per-game heuristic scores best."""

    name = "greedy"
    games = tuple(CHOOSERS)

    def __init__(
        self, *, game: str, seat: int, num_players: int, seed: int, risk: float = 0.5
    ) -> None:
        super().__init__(game=game, seat=seat, num_players=num_players, seed=seed)
        if not 0.0 <= float(risk) <= 1.0:
            raise ValueError(f"greedy: risk must be between 0 and 1, got {risk!r}")
        self.risk = float(risk)
        self._choose = CHOOSERS[game]

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return self._choose(observation, legal_actions, self.rng, self.risk)
