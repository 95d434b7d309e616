"""Benchmark: how a run's cost grows with its size (plan time, driver memory, rating time).

For each size N (1k, 10k, 100k, 1M matches by default), in a fresh process
of its own so that its peak memory is its own:

- *plan*: the time to the first match of the plan and to walk N matches of
  it (a 100-bot, 3-seat round robin of 970,200 matches a round: the plan of a
  large tournament, of which N are taken);
- *driver*: N synthetic finished matches (3 seats, a 120-action replay) go
  through what ``arena run`` does with each (stored as a JSON line, kept in
  the ledger, counted by the live board), then the peak resident memory of
  the process (Ray's own modules imported, as in the driver);
- *final*: the final table at the end of the run: what the live table (rated
  along the plan within its share of the driver's time) had not reached;
- *rating*, *re-read*: ``arena leaderboard``'s work on the finished run (read
  ``matches.jsonl`` a line at a time, rate in match-id order), the first time
  and again from the checkpoint the first left, and its peak memory (a
  process of its own).

Times are CPU seconds of the process (the machines are shared: wall time
would measure the neighbours).

    python benchmarks/bench_scale.py [--sizes 1000,10000,100000,1000000] [--no-rating]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

BOTS = 100


def config() -> object:
    from arena.config import TournamentConfig
    from arena.records import Limits, SeatSpec

    return TournamentConfig(
        name="scale", game="explorers-of-the-lost-valley", players=3, rounds=3, seed=1,
        seating="permutations", options={},
        bots=tuple(SeatSpec(f"bot-{i:03d}", "random") for i in range(BOTS)),
        limits=Limits())


def synthetic(count: int) -> Iterator[object]:
    """``count`` finished matches among the 100 bots, made one at a time."""
    from arena.records import MatchResult

    rng = random.Random(1)
    history = tuple(rng.randrange(60) for _ in range(120))
    labels = [f"bot-{i:03d}" for i in range(BOTS)]
    for index in range(count):
        seats = tuple(rng.sample(labels, 3))
        ranking = tuple(rng.sample(range(3), 3))
        yield MatchResult(
            id=f"r001-t{index // 6 + 1:06d}-s{index % 6 + 1:03d}",
            game="explorers-of-the-lost-valley", seed=rng.getrandbits(63), seats=seats,
            scores=tuple(float(2 - place) for place in ranking), ranking=ranking,
            statuses=("ok", "ok", "ok"), actions=120, seconds=0.004,
            think_seconds=(0.0012, 0.0009, 0.0011), max_move_seconds=(4e-05, 3e-05, 5e-05),
            errors=(None, None, None), history=history)


def measure(size: int, rating: bool, folder: Path) -> dict[str, float]:
    """Plan and driver for one size, in this process; the run's folder is left in
    ``folder`` for :func:`leaderboard`."""
    from rich.console import Console

    import arena.cluster  # noqa: F401  (Ray's modules, as the driver holds them)
    from arena.live import LiveBoard
    from arena.runner import Pending
    from arena.store import RunStore

    figures: dict[str, float] = {}
    started = time.process_time()
    plan = iter(Pending(config(), set()))  # type: ignore[arg-type]
    next(plan)
    figures["first_match_s"] = time.process_time() - started
    for _ in range(size - 1):
        next(plan)
    figures["plan_s"] = time.process_time() - started
    del plan
    labels = [f"bot-{i:03d}" for i in range(BOTS)]
    order = (f"r001-t{index // 6 + 1:06d}-s{index % 6 + 1:03d}" for index in range(size))
    board = LiveBoard(Console(file=io.StringIO()), size, labels, 0.01, "scale", order=order)
    with RunStore(folder) as store:
        started = time.process_time()
        for result in synthetic(size):
            store.append(result)  # type: ignore[arg-type]
            board.add(result)  # type: ignore[arg-type]
        figures["driver_s"] = time.process_time() - started
    figures["driver_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if rating:
        started = time.process_time()
        board.standings()
        figures["final_s"] = time.process_time() - started
    return figures


def leaderboard(folder: Path) -> dict[str, float]:
    """``arena leaderboard``'s work on the run in ``folder``: read and rate it, then again
    from the checkpoint the first reading left."""
    from arena.ledger import rate_run, read_run

    labels = [f"bot-{i:03d}" for i in range(BOTS)]
    figures: dict[str, float] = {}
    for name in ("rating_s", "reread_s"):
        started = time.process_time()
        records = read_run(folder / "matches.jsonl", labels)
        rate_run(records.ledger, 0.01, folder)
        figures[name] = time.process_time() - started
        del records
    figures["leaderboard_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--no-rating", action="store_true")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--leaderboard", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, not args.no_rating, args.folder)))
        return
    if args.leaderboard:
        print(json.dumps(leaderboard(args.leaderboard)))
        return
    print(f"{'matches':>10} {'1st match':>10} {'plan':>8} {'driver':>8} {'driver MB':>10} "
          f"{'final':>8} {'rating':>8} {'re-read':>8} {'board MB':>9}")
    for size in (int(part) for part in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch) / "run"
            command = [sys.executable, __file__, "--one", str(size), "--folder", str(folder)]
            if args.no_rating:
                command.append("--no-rating")
            figures = _run(command)
            if not args.no_rating:
                figures.update(_run([sys.executable, __file__, "--leaderboard", str(folder)]))
        line = (f"{size:>10,} {1000 * figures['first_match_s']:>8.1f}ms "
                f"{figures['plan_s']:>7.2f}s {figures['driver_s']:>7.1f}s "
                f"{figures['driver_mb']:>10.0f}")
        if "final_s" in figures:
            line += (f" {figures['final_s']:>7.1f}s {figures['rating_s']:>7.1f}s "
                     f"{figures['reread_s']:>7.1f}s {figures['leaderboard_mb']:>9.0f}")
        print(line, flush=True)


def _run(command: list[str]) -> dict[str, float]:
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    figures: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return figures


if __name__ == "__main__":
    main()
