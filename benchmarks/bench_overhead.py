"""Benchmark: a tournament on N Ray workers against N processes running the in-process loop.

The same matches are played two ways, alternating, best of ``--repeats``:

- *pool*: N plain processes (``multiprocessing``), each playing its share of
  the matches with :func:`arena.match.play_match`: what N cores can do with
  no Ray and no driver;
- *arena*: the arena's path on a fresh local Ray instance of N workers: the
  dispatcher's batches, the results folder (a JSON line per match) and the
  live board (ledger, the live table rated in match order, within its share of the
  driver's time and while the driver waits; ``--no-idle``: within its share only; on a
  machine of 4 cores or more, in a process of its own: ``arena.aside``, chosen with
  ``ARENA_RATE_ASIDE`` as for ``arena run``) up to the final table, as ``arena run`` does.

Both sides are warmed up first (imports, bot hosts started). The ratio
arena / pool is Ray's overhead plus the driver's; ``--profile`` prints where
the driver's own time goes on the arena side, and each side reports its CPU per match by
kind of process (driver, Ray workers, raylet, GCS, bot hosts): a share of the work that does
not depend on how busy the machine is. ``--isolation`` picks the
seats (``process``, the default of a config, or ``inprocess``); ``--bots``
plays random bots only or the 2 random + 2 greedy mix.

    python benchmarks/bench_overhead.py [--workers 1,2] [--matches M] [--repeats R]
        [--isolation process,inprocess] [--bots random,mixed] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import multiprocessing
import os
import pstats
import tempfile
import time
from pathlib import Path

import ray
from rich.console import Console

from arena import cluster
from arena.aside import worth_it
from arena.cluster import Dispatcher, connect
from arena.live import LiveBoard
from arena.match import play_match
from arena.records import Limits, MatchSpec, SeatSpec
from arena.schedule import round_robin
from arena.store import RunStore

GAME = "explorers-of-the-lost-valley"
ACCOUNTS: list[tuple[str, int, int, dict[str, float]]] = []
"""Per timed run: side, workers, matches, CPU seconds by kind of process."""
LEFT: list[int] = []
"""Per timed arena run: matches the live table had not rated when the last one landed."""
BY_DRIVER: list[str] = []
"""Per timed arena run: batches whose lines the driver encoded, of all batches."""
BOTS = {
    "random": (SeatSpec("random", "random"), SeatSpec("random-2", "random"),
               SeatSpec("random-3", "random"), SeatSpec("random-4", "random")),
    "mixed": (SeatSpec("random", "random"), SeatSpec("random-2", "random"),
              SeatSpec("greedy", "greedy"), SeatSpec("greedy-bold", "greedy", {"risk": 0.8})),
}


def matches(count: int, bots: str, isolation: str) -> list[MatchSpec]:
    """The first ``count`` matches of a 4-bot, 3-seat round robin, repeated as needed."""
    from arena.plugins import registry

    module = registry().games[GAME].module if isolation == "process" else ""
    plugins = {}
    if isolation == "process":
        from arena.catalog import sandboxed_registry

        found = sandboxed_registry()
        plugins = {name: found.bot_info(name).module for name in ("random", "greedy")}
    entries = tuple(SeatSpec(seat.label, seat.bot, seat.params, plugins.get(seat.bot, ""))
                    for seat in BOTS[bots])
    plan = round_robin(game=GAME, options={}, entries=entries, players=3,
                       rounds=1 + count // 24, seed=1, seating="permutations",
                       limits=Limits(isolation=isolation))
    return [_with_plugin(spec, module) for _, spec in zip(range(count), plan, strict=False)]


def _with_plugin(spec: MatchSpec, module: str) -> MatchSpec:
    from dataclasses import replace

    return replace(spec, game_plugin=module) if module else spec


def _play_share(specs: list[MatchSpec]) -> int:
    for spec in specs:
        play_match(spec)
    return len(specs)


def cpu_by_process() -> dict[int, tuple[str, float]]:
    """CPU seconds so far of this process and each of its descendants, by pid (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    stats: dict[int, tuple[str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
            name = (entry / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        parents[int(entry.name)] = int(fields[1])
        stats[int(entry.name)] = (name, (int(fields[11]) + int(fields[12])) / ticks)
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return {pid: stats[pid] for pid in mine if pid in stats}


def cpu_spent(before: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds each kind of process spent since ``before``."""
    spent: dict[str, float] = {}
    for pid, (name, seconds) in cpu_by_process().items():
        kind = _kind(pid, name)
        spent[kind] = spent.get(kind, 0.0) + seconds - before.get(pid, (name, 0.0))[1]
    return spent


def _kind(pid: int, name: str) -> str:
    if pid == os.getpid():
        return "driver"
    if name.startswith("ray::"):
        return "Ray workers"
    base = name.rsplit("/", 1)[-1]
    if base in ("raylet", "gcs_server"):
        return base
    if "bwrap" in base or "arena.seats.host" in name or "host.py" in name:
        return "bot hosts"
    return "other (Ray's agents, pool processes)"


def pool_rate(pool: multiprocessing.pool.Pool, workers: int, specs: list[MatchSpec]) -> float:
    """Matches/s of ``workers`` processes, each playing every ``workers``-th match."""
    shares = [specs[i::workers] for i in range(workers)]
    before = cpu_by_process()
    started = time.perf_counter()
    assert sum(pool.map(_play_share, shares)) == len(specs)
    seconds = time.perf_counter() - started
    ACCOUNTS.append(("pool", workers, len(specs), cpu_spent(before)))
    return len(specs) / seconds


def arena_rate(workers: int, specs: list[MatchSpec], warm: list[MatchSpec],
               profile: bool, max_batch: int | None = None, idle: bool = True) -> float:
    """Matches/s of the arena's path on a fresh local Ray instance of ``workers``, up to its
    final table (rated in match order; ``idle``: the live table also rates while the driver
    waits for the workers, as ``arena run`` does)."""
    board = LiveBoard(Console(file=io.StringIO()), len(specs), [], 0.01, "bench",
                      order=sorted(spec.id for spec in specs),
                      aside=worth_it(len(specs)))
    if board.rate_aside:
        board.prepare_aside()  # as arena run does, while Ray starts
    connection = connect(workers=workers)
    try:
        Dispatcher(workers, in_flight=connection.in_flight).run(
            warm, lambda result: None, lambda failed: None)
        profiler = cProfile.Profile() if profile else None
        with tempfile.TemporaryDirectory() as scratch, RunStore(Path(scratch)) as store:
            if profiler:
                profiler.enable()
            before = cpu_by_process()
            started = time.perf_counter()
            sizing = {} if max_batch is None else {"max_batch": max_batch}
            dispatcher = Dispatcher(workers, in_flight=connection.in_flight, **sizing)
            with board:
                dispatcher.run(specs, board.add, lambda failed: None,
                               board.idle if idle else None, store.append_all)
                LEFT.append(board._rater.waiting)
            BY_DRIVER.append(f"{dispatcher.encoded_by_driver} of {dispatcher.sent}")
            seconds = time.perf_counter() - started
            ACCOUNTS.append(("arena", workers, len(specs), cpu_spent(before)))
            if profiler:
                profiler.disable()
        if profiler:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return len(specs) / seconds
    finally:
        ray.shutdown()


def _account(isolation: str, bots: str, workers: int) -> None:
    """Where the CPU went, per match, in the last run of each side (microseconds)."""
    for side in ("pool", "arena"):
        runs = [run for run in ACCOUNTS if run[0] == side and run[1] == workers]
        if not runs:
            continue
        _, _, matches, spent = runs[-1]
        parts = ", ".join(f"{kind} {1e6 * seconds / matches:.0f}"
                          for kind, seconds in sorted(spent.items(), key=lambda kv: -kv[1])
                          if seconds > 0)
        total = 1e6 * sum(spent.values()) / matches
        print(f"    CPU per match, {side} ({isolation}, {bots}, N={workers}): {total:.0f} µs = "
              f"{parts}", flush=True)
    ACCOUNTS.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--isolation", default="process,inprocess")
    parser.add_argument("--bots", default="random,mixed")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-idle", action="store_true",
                        help="the live table rates only within its share (as before)")
    parser.add_argument("--workers-encode", action="store_true",
                        help="the workers always encode the lines (as before the driver "
                        "took them when it had time to spare)")
    args = parser.parse_args()
    if args.workers_encode:
        cluster.DRIVER_ENCODES_BELOW = 0.0
    rows = []
    for isolation in args.isolation.split(","):
        for bots in args.bots.split(","):
            specs = matches(args.matches, bots, isolation)
            for workers in (int(part) for part in args.workers.split(",")):
                warm = specs[: 4 * workers]
                best_pool = best_arena = 0.0
                with multiprocessing.get_context("spawn").Pool(workers) as pool:
                    pool.map(_play_share, [warm[i::workers] for i in range(workers)])
                    for _ in range(args.repeats):
                        best_pool = max(best_pool, pool_rate(pool, workers, specs))
                        best_arena = max(best_arena,
                                         arena_rate(workers, specs, warm, args.profile,
                                                    idle=not args.no_idle))
                _account(isolation, bots, workers)
                print(f"    left for the final table: {', '.join(map(str, LEFT))} matches; "
                      f"batches encoded by the driver: {', '.join(BY_DRIVER)}", flush=True)
                LEFT.clear()
                BY_DRIVER.clear()
                ratio = best_arena / best_pool
                print(f"{isolation:>9} {bots:>6} N={workers}: pool {best_pool:8.1f}, "
                      f"arena {best_arena:8.1f} matches/s, arena/pool {ratio:.2f}", flush=True)
                rows.append((isolation, bots, workers, best_pool, best_arena, ratio))
    print(f"\n{args.matches} matches of {GAME}, 3 seats, best of {args.repeats} alternating")
    print("| seats | bots | N | pool matches/s | arena matches/s | arena / pool |")
    print("|---|---|---|---|---|---|")
    for isolation, bots, workers, pooled, arena, ratio in rows:
        print(f"| {isolation} | {bots} | {workers} | {pooled:,.0f} | {arena:,.0f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
