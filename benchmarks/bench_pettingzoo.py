"""Benchmark (g): games played through the PettingZoo adapter against the bare engine.

Both sides play the same games with a uniformly random agent: the bare loop drives the
engine with :func:`arena.game.drive`; the adapter side steps an
``arena.adapters.pettingzoo`` AEC environment, reading each agent's observation (the
game's ``observation_tensor`` and the action mask, as a learning agent would). Runs
alternate A/B and the best of each is kept; the ratio is decisions per second through the
adapter over the bare loop's, and the mean cost of one observation is printed beside it.

    python benchmarks/bench_pettingzoo.py [--players N] [--games G] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from arena.adapters.pettingzoo import env, game_named
from arena.game import CHANCE, State, drive

GAMES = ("explorers-of-the-lost-valley", "lost-explorers", "lost-valley-of-the-dinosaurs")


def bare(game: str, players: int, seeds: list[int]) -> int:
    """Random playouts straight on the engine; the number of decisions."""
    engine = game_named(game)
    decisions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new_initial_state(players)

        def uniform(state: State, _: int, rng: random.Random = rng) -> int:
            return rng.choice(state.legal_actions())

        history = drive(state, uniform, rng)
        decisions += len(history) - _chance_count(engine, players, history)
    return decisions


def _chance_count(engine: object, players: int, history: list[int]) -> int:
    state = engine.new_initial_state(players)  # type: ignore[attr-defined]
    chance = 0
    for action in history:
        chance += state.current_player() == CHANCE
        state.apply_action(action)
    return chance


def adapter(game: str, players: int, seeds: list[int]) -> int:
    """The same number of games through the AEC environment; the number of decisions."""
    table = env(game, players)
    decisions = 0
    for seed in seeds:
        rng = random.Random(seed)
        table.reset(seed=seed)
        for _ in table.agent_iter():
            observation, _, termination, truncation, _ = table.last()
            if termination or truncation:
                table.step(None)
                continue
            table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            decisions += 1
    return decisions


def best_rate(loop: object, game: str, players: int, seeds: list[int]) -> float:
    started = time.perf_counter()
    decisions = loop(game, players, seeds)  # type: ignore[operator]
    return float(decisions) / (time.perf_counter() - started)


def tensor_cost(game: str, players: int, samples: int = 200) -> float:
    """Mean microseconds of one ``observation_tensor`` call at random nodes of a game."""
    engine, rng = game_named(game), random.Random(0)
    state, elapsed, calls = engine.new_initial_state(players), 0.0, 0
    while calls < samples:
        if state.is_terminal():
            state = engine.new_initial_state(players)
        started = time.perf_counter()
        state.observation_tensor(calls % players)
        elapsed += time.perf_counter() - started
        calls += 1
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes],
                                           [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return 1e6 * elapsed / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for game in GAMES:
        seeds = list(range(args.games))
        bare_best = adapter_best = 0.0
        for _ in range(args.repeats):
            bare_best = max(bare_best, best_rate(bare, game, args.players, seeds))
            adapter_best = max(adapter_best, best_rate(adapter, game, args.players, seeds))
        print(f"{game}, {args.players} players: bare {bare_best:,.0f} decisions/s, adapter "
              f"{adapter_best:,.0f} decisions/s, ratio {adapter_best / bare_best:.3f}; "
              f"observation_tensor {tensor_cost(game, args.players):.0f} µs")


if __name__ == "__main__":
    main()
