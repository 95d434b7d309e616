"""``tiny-race``: a very small game for the framework's own tests.

Each seat in turn either steps 1 forward (action 0) or gambles (action 1):
a chance node then moves it 0 or 3 spaces. The first to reach 6 ends the
game; places follow positions. It has every kind of node the referee meets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import arena
from arena.game import CHANCE, TERMINAL, Game, InvalidOptions, State, competition_ranking

GOAL = 6


class RaceState(State):
    def __init__(self, players: int, goal: int, explode_after: int = -1) -> None:
        self.explode_after = explode_after
        self.positions = [0] * players
        self.goal = goal
        self.turn = 0
        self.gambling = False

    def current_player(self) -> int:
        if max(self.positions) >= self.goal:
            return TERMINAL
        return CHANCE if self.gambling else self.turn

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [0, 3] if self.gambling else [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (3, 0.5)]

    def apply_action(self, action: int) -> None:
        if self.explode_after == 0:
            raise RuntimeError("tiny-race exploded as asked")
        self.explode_after -= 1
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        if self.gambling:
            self.positions[self.turn] += action
            self.gambling = False
        elif action == 1:
            self.gambling = True
            return
        else:
            self.positions[self.turn] += 1
        self.turn = (self.turn + 1) % len(self.positions)

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def clone(self) -> RaceState:
        twin = RaceState(len(self.positions), self.goal, self.explode_after)
        twin.positions = list(self.positions)
        twin.turn, twin.gambling = self.turn, self.gambling
        return twin

    def scores(self) -> list[float]:
        return [float(p) for p in self.positions]

    def ranking(self) -> list[int]:
        return competition_ranking(self.positions)

    def observation(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "positions": list(self.positions), "turn": self.turn}

    def action_to_string(self, action: int) -> str:
        return f"move {action}" if self.gambling else ("step" if action == 0 else "gamble")

    def render(self) -> str:
        return " ".join(f"{seat}:{pos}" for seat, pos in enumerate(self.positions))


class TinyRace(Game):
    name = "tiny-race"
    title = "Tiny Race"
    min_players = 2
    max_players = 4
    num_distinct_actions = 4
    default_options: Mapping[str, Any] = {"goal": GOAL, "explode_after": -1}

    def new_initial_state(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> RaceState:
        options = dict(options or {})
        unknown = set(options) - set(self.default_options)
        if unknown:
            raise InvalidOptions(f"unknown option {sorted(unknown)[0]!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(f"tiny-race is for 2 to 4 players, not {num_players}")
        return RaceState(
            num_players, int(options.get("goal", GOAL)), int(options.get("explode_after", -1))
        )


@arena.hookimpl
def arena_register_games(register: Callable[[type], None]) -> None:
    register(TinyRace)
