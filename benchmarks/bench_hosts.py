"""Kept bot hosts: how many a tournament starts, with the pool's bounds of before and of now.

A host never plays a deal it has played (every seating of a table shares the table's chance
seed), so a bot that sits at every seating of a table needs as many hosts as the table has
seatings: 6 for three seats in every order, 24 for four. The pool kept 8 idle hosts of a bot
(48 in all): a four-seat round robin in every order then started fresh hosts for most of its
seats. It now keeps up to 24 of a bot (128 in all), within a memory budget.

The same plan, in one process, sandboxed seats (``isolation = "process"``), played with the
bounds of before and of now, alternating, from an empty pool each time; reported: matches a
second, hosts started a match and what the idle hosts hold at the end.

    .venv/bin/python benchmarks/bench_hosts.py --rounds 4 --repeats 2
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager

from arena.match import play_match
from arena.records import Limits, SeatSpec
from arena.schedule import round_robin
from arena.seats import process
from arena.seats.process import POOL

ENTRIES = (
    SeatSpec(label="random", bot="random"),
    SeatSpec(label="greedy", bot="greedy"),
    SeatSpec(label="greedy-bold", bot="greedy", params={"risk": 0.8}),
    SeatSpec(label="greedy-careful", bot="greedy", params={"risk": 0.2}),
)


@contextmanager
def bounds(kind: str) -> Iterator[None]:
    """The pool's bounds of ``kind`` ("before": 8 a bot and 48 in all, no memory budget)."""
    saved = process.MAX_IDLE_PER_BOT, process.MAX_IDLE_HOSTS, process.idle_budget
    if kind == "before":
        process.MAX_IDLE_PER_BOT, process.MAX_IDLE_HOSTS = 8, 48
        process.idle_budget = lambda: 1 << 62  # type: ignore[assignment]
    try:
        yield
    finally:
        process.MAX_IDLE_PER_BOT, process.MAX_IDLE_HOSTS, process.idle_budget = saved


def play(players: int, rounds: int, sandbox: str) -> tuple[int, float, int, int]:
    """Matches, seconds, hosts started and bytes the idle hosts hold at the end."""
    POOL.close()
    POOL.started = 0
    limits = Limits(isolation="process", sandbox=sandbox, move_seconds=5.0, bank_seconds=30.0)
    plan = list(round_robin(game="explorers-of-the-lost-valley", options={},
                            entries=ENTRIES[:players] if players < 4 else ENTRIES,
                            players=players, rounds=rounds, seed=7, seating="permutations",
                            limits=limits))
    began = time.perf_counter()
    for spec in plan:
        result = play_match(spec)
        assert all(status == "ok" for status in result.statuses), result.errors
    seconds = time.perf_counter() - began
    held = sum(host.resident for hosts in POOL.idle.values() for host in hosts)
    started = POOL.started
    POOL.close()
    return len(plan), seconds, started, held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--sandbox", default="auto", help="auto, required or fallback")
    args = parser.parse_args()
    print(f"idle budget now: {process.idle_budget() >> 20} MiB a worker")
    for players, rounds in ((4, args.rounds), (3, args.rounds * 4)):
        rates: dict[str, list[float]] = {"before": [], "now": []}
        for _ in range(args.repeats):
            for kind in ("before", "now"):
                with bounds(kind):
                    matches, seconds, started, held = play(players, rounds, args.sandbox)
                rates[kind].append(matches / seconds)
                print(f"{players} seats, {kind:6}: {matches} matches in {seconds:6.1f} s = "
                      f"{matches / seconds:6.1f} matches/s, {started} hosts started "
                      f"({started / matches:.2f} a match), idle at the end {held >> 20} MiB")
        best = {kind: max(values) for kind, values in rates.items()}
        print(f"{players} seats: now / before = {best['now'] / best['before']:.2f} "
              f"(best of {args.repeats} each)")


if __name__ == "__main__":
    main()
