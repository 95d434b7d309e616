"""Benchmark (c): a tournament on 2 Ray workers against the same on 1.

Each side starts its own local Ray instance sized to its worker count (as
``arena run --workers N`` does), warms the workers up, then plays the same
matches through the arena's dispatcher. Sides alternate (1, 2, 1, 2, ...)
and the ratio of the best throughputs is reported.

    python benchmarks/bench_cluster.py [--matches M] [--repeats R]
"""

from __future__ import annotations

import argparse
import time

import ray

from arena.cluster import Dispatcher, connect
from arena.records import Limits, MatchResult, MatchSpec, SeatSpec
from arena.schedule import round_robin

GAME = "explorers-of-the-lost-valley"


def matches(count: int) -> list[MatchSpec]:
    """``count`` matches of a 4-bot, 3-seat round robin of random and greedy bots."""
    entries = (
        SeatSpec("random", "random"),
        SeatSpec("random-2", "random"),
        SeatSpec("greedy", "greedy"),
        SeatSpec("greedy-bold", "greedy", {"risk": 0.8}),
    )
    plan = round_robin(
        game=GAME,
        options={},
        entries=entries,
        players=3,
        rounds=10_000,
        seed=1,
        seating="permutations",
        limits=Limits(),
    )
    return [spec for _, spec in zip(range(count), plan, strict=False)]


def throughput(workers: int, specs: list[MatchSpec]) -> float:
    """Matches per second on a fresh local Ray instance with ``workers`` CPUs."""
    connection = connect(workers=workers)
    try:
        warm: list[MatchResult] = []
        Dispatcher(workers, in_flight=connection.in_flight).run(
            specs[: 4 * workers], warm.append, lambda failed: None
        )
        done: list[MatchResult] = []
        started = time.perf_counter()
        Dispatcher(workers, in_flight=connection.in_flight).run(
            specs, done.append, lambda failed: None
        )
        seconds = time.perf_counter() - started
        assert len(done) == len(specs)
        return len(done) / seconds
    finally:
        ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    specs = matches(args.matches)
    best = {1: 0.0, 2: 0.0}
    for _ in range(args.repeats):
        for workers in (1, 2):
            rate = throughput(workers, specs)
            best[workers] = max(best[workers], rate)
            print(f"  {workers} worker(s): {rate:8.1f} matches/s")
    print(f"{args.matches} matches of {GAME}, best of {args.repeats} alternating runs")
    print(f"1 worker : {best[1]:8.1f} matches/s")
    print(f"2 workers: {best[2]:8.1f} matches/s")
    print(f"ratio 2/1: {best[2] / best[1]:.3f}   (target >= 1.8)")


if __name__ == "__main__":
    main()
