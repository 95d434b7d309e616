"""Benchmark: random playouts of Explorers of the Lost Valley on one core.

Plays whole matches for about three seconds per variant: uniform over the
legal actions at decisions, sampled from ``chance_outcomes()`` at chance
nodes, with one ``random.Random``. Prints actions per second (chance outcomes
included). Run: ``.venv/bin/python benchmarks/bench_engine.py [seconds]``.
"""

from __future__ import annotations

import random
import sys
import time

from arena.game import State, drive
from engines.explorers.game import ExplorersGame
from engines.explorers.state import ExplorersState


def playout(state: ExplorersState, rng: random.Random) -> int:
    """Play ``state`` to the end; return the number of actions applied."""

    def uniform(state: State, player: int) -> int:
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    return len(drive(state, uniform, rng))


def bench(players: int, advanced: bool, seconds: float) -> tuple[float, int]:
    """Actions per second and matches played over about ``seconds``."""
    game, rng = ExplorersGame(), random.Random(1)
    actions = matches = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += playout(game.new_initial_state(players, {"advanced": advanced}), rng)
        matches += 1
    return actions / (time.perf_counter() - start), matches


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for advanced in (False, True):
        rate, matches = bench(3, advanced, seconds)
        label = "advanced" if advanced else "basic"
        print(
            f"explorers-of-the-lost-valley 3 players {label:8}: {rate:10,.0f} actions/s "
            f"({matches} matches)"
        )


if __name__ == "__main__":
    main()
