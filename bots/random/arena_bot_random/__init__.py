"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.bot import Bot


class RandomBot(Bot):
    """Picks uniformly among the legal actions; plays every game."""

    name = "random"
    observes = False  # it never looks: the referee need not build observations

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[int(self.rng.random() * len(legal_actions))]
