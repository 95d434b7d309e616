"""Benchmark (b): the arena's in-process match loop against a bare loop.

Both play the same matches of one engine with uniformly random moves: the
bare loop drives the engine directly with :func:`arena.game.drive` (legal
actions, a random choice, chance sampled); the arena plays the same seeds through ``play_match``
(seat objects, observations, time control, legality checks, the replay
record). Runs alternate A/B several times and the ratio of the best
throughputs is reported, so both sides see the same machine load.

    python benchmarks/bench_referee.py [--game NAME] [--players N] [--matches M] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import time

from arena.game import State, drive
from arena.match import play_match
from arena.plugins import registry
from arena.records import Limits, MatchSpec, SeatSpec


def bare(game_name: str, players: int, seeds: list[int]) -> int:
    """Random playouts straight on the engine; returns the number of actions."""
    game = registry().game(game_name)
    actions = 0
    for seed in seeds:
        move_rng = random.Random(seed ^ 1)

        def uniform(state: State, player: int, move_rng: random.Random = move_rng) -> int:
            legal = state.legal_actions()
            return legal[int(move_rng.random() * len(legal))]

        state = game.new_initial_state(players, {})
        actions += len(drive(state, uniform, random.Random(seed)))
    return actions


def arena(game_name: str, players: int, seeds: list[int]) -> int:
    """The same matches through the referee with the ``random`` bot in every seat."""
    seats = tuple(SeatSpec(f"random-{i}", "random") for i in range(players))
    actions = 0
    for seed in seeds:
        spec = MatchSpec(
            id=str(seed),
            game=game_name,
            options={},
            seats=seats,
            seed=seed,
            bot_seeds=tuple(seed * 10 + i for i in range(players)),
            limits=Limits(move_seconds=10.0, bank_seconds=10.0, isolation="inprocess"),
        )
        actions += play_match(spec).actions
    return actions


def measure(loop: object, game: str, players: int, seeds: list[int]) -> float:
    started = time.perf_counter()
    actions = loop(game, players, seeds)  # type: ignore[operator]
    return float(actions) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="explorers-of-the-lost-valley")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    seeds = list(range(args.matches))
    registry()  # discovery is not part of either loop
    bare_best = arena_best = 0.0
    for _ in range(args.repeats):
        bare_best = max(bare_best, measure(bare, args.game, args.players, seeds))
        arena_best = max(arena_best, measure(arena, args.game, args.players, seeds))
    print(
        f"game {args.game}, {args.players} players, {args.matches} matches, "
        f"best of {args.repeats} alternating runs"
    )
    print(f"bare engine loop : {bare_best:10,.0f} actions/s")
    print(f"arena referee    : {arena_best:10,.0f} actions/s")
    print(f"ratio arena/bare : {arena_best / bare_best:.3f}   (target >= 0.9)")


if __name__ == "__main__":
    main()
