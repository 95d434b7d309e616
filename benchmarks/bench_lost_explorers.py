"""Benchmark: the Lost Explorers engine and its greedy bot.

Five figures:

- random-playout speed on one core, actions/s (chance outcomes included),
  per player count, for about ``--seconds`` each;
- ``clone()`` in µs, averaged over states sampled along random games;
- how games end (by four clues or by empty stacks) and their mean length in
  decisions, greedy against greedy (risk 0.5), and random against random;
- the share of seat pairs tied for a place in those games (the game's
  ``draw_probability``);
- greedy's win rate against random players, seats rotated, with a 95 %
  Wilson interval.

Run: ``.venv/bin/python benchmarks/bench_lost_explorers.py [--seconds S] [--matches M]``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from collections.abc import Sequence

from arena_bot_greedy.lost_explorers import choose

from arena.game import State, drive
from engines.lost_explorers.game import LostExplorersGame
from engines.lost_explorers.state import LostExplorersState

GAME = LostExplorersGame()
RANDOM = "random"


def playout(state: LostExplorersState, rng: random.Random) -> int:
    """Play ``state`` to the end with uniform moves; return the number of actions."""

    def uniform(state: State, player: int) -> int:
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    return len(drive(state, uniform, rng))


def speed(players: int, seconds: float) -> tuple[float, int]:
    """Actions per second and games played over about ``seconds``."""
    rng, actions, games = random.Random(1), 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += playout(GAME.new_initial_state(players), rng)
        games += 1
    return actions / (time.perf_counter() - start), games


def clone_micros(samples: int = 2000) -> float:
    """Mean µs per ``clone()`` over states met along random 3-player games."""
    rng = random.Random(2)
    states: list[LostExplorersState] = []
    while len(states) < samples:
        def sample(state: State) -> None:
            if rng.random() < 0.05:
                states.append(state.clone())  # type: ignore[arg-type]

        def uniform(state: State, player: int) -> int:
            legal = state.legal_actions()
            return legal[int(rng.random() * len(legal))]

        drive(GAME.new_initial_state(3), uniform, rng, watch=sample)
    best = math.inf
    for _ in range(5):
        start = time.perf_counter()
        for state in states:
            state.clone()
        best = min(best, (time.perf_counter() - start) / len(states))
    return best * 1e6


def match(seated: Sequence[float | str], seed: int) -> tuple[LostExplorersState, int]:
    """One game; a seat is a greedy risk level or ``"random"``. Returns (state, decisions)."""
    chance_rng, move_rng = random.Random(seed), random.Random(seed ^ 0x5EED)
    state = GAME.new_initial_state(len(seated))
    decisions = 0

    def decide(state: State, seat: int) -> int:
        nonlocal decisions
        decisions += 1
        legal = state.legal_actions()
        kind = seated[seat]
        if kind == RANDOM:
            return legal[int(move_rng.random() * len(legal))]
        return choose(state.observation(seat), legal, move_rng, float(kind))

    drive(state, decide, chance_rng)
    return state, decisions


def endings(seated: Sequence[float | str],
            matches: int) -> tuple[Counter[str], float, float]:
    """How ``matches`` games end (by clues / stacks / turn-limit), their mean decisions and
    the share of seat pairs tied for a place."""
    ends: Counter[str] = Counter()
    total = tied = pairs = 0
    for seed in range(matches):
        state, decisions = match(seated, seed)
        ends[state.observation(0)["end"]["by"]] += 1
        total += decisions
        ranking = state.ranking()
        for first in range(len(ranking)):
            for second in range(first + 1, len(ranking)):
                pairs += 1
                tied += ranking[first] == ranking[second]
    return ends, total / matches, tied / pairs


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    share = successes / trials
    centre = share + z * z / (2 * trials)
    margin = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (centre - margin) / scale, (centre + margin) / scale


def greedy_wins(opponents: int, matches: int) -> float:
    """Games greedy (0.5) wins against ``opponents`` random players (shared firsts split)."""
    won = 0.0
    for seed in range(matches):
        seated: list[float | str] = [RANDOM] * (opponents + 1)
        mine = seed % len(seated)
        seated[mine] = 0.5
        ranking = match(seated, 10_000 + seed)[0].ranking()
        if ranking[mine] == 0:
            won += 1 / ranking.count(0)
    return won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    for players in (2, 3, 4):
        rate, games = speed(players, args.seconds)
        print(f"random playouts, {players} players: {rate:10,.0f} actions/s ({games} games)")
    print(f"clone(): {clone_micros():.1f} µs")
    for players in (2, 3, 4):
        for label, seated in (("greedy", [0.5] * players), ("random", [RANDOM] * players)):
            ends, mean, tied = endings(seated, args.matches)
            shares = ", ".join(f"{by} {count / args.matches:.1%}" for by, count in ends.items())
            print(f"{players} players, all {label}: ends by {shares}; "
                  f"{mean:.0f} decisions on average; tied seat pairs {tied:.2%}")
    for opponents in (1, 2, 3):
        won = greedy_wins(opponents, args.matches)
        low, high = wilson(won, args.matches)
        print(f"greedy vs {opponents} random: wins {won / args.matches:.1%} of "
              f"{args.matches} (95 % interval {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
