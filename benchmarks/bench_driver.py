"""Benchmark: the driver's own cost per finished match, with synthetic results and no workers.

What ``arena run`` does with each match that comes back, stage by stage, on
results shaped like real ones (3 seats, a replay of about 120 actions):

- *receive*: unpickle a batch of results as ``ray.get`` does, each as a worker sends
  it (:func:`arena.store.encoded`: its JSON line, and beside it what the driver reads);
- *dispatch*: the dispatcher's bookkeeping (:meth:`Dispatcher._deliver`);
- *store*: a batch's lines appended to ``matches.jsonl`` in one write, flushed;
- *view*: :class:`arena.live.LiveBoard` (ledger, rating along the plan's order
  within its share of the time, progress), on a terminal (``--terminal``) or plain;
- *final table*: what the live table has not rated yet, rated when the last match is in.

It reports matches/s for the whole path, up to the final table (every match
rated: the figure the 20,000 target is about) and up to the last match
landed, and per stage, against the same path as it was before issue 11 (whole
results, ``dataclasses.asdict`` for the line, every match rated at once and
kept whole), side by side in one run. (l) The canonical rating
rating as it is (``arena.freeforall``, TrueSkill's messages on plain floats)
against the ``trueskill`` package's objects, side by side on the same results,
and the two tables compared for equality.

Times are CPU seconds of the driver's process (its display thread included): on a
shared machine, wall time would measure the neighbours.

    python benchmarks/bench_driver.py [--matches N] [--repeats R] [--terminal]
"""

from __future__ import annotations

import argparse
import io
import json
import pickle
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from rich.console import Console

from arena.cluster import Dispatcher, Failed
from arena.live import LiveBoard
from arena.ratings import Ratings, _Tally, canonical_order, rate
from arena.records import MatchResult
from arena.store import RunStore, encoded

LABELS = ("random", "greedy", "greedy-bold", "greedy-careful")


def synthetic(count: int, seed: int = 1) -> list[MatchResult]:
    """``count`` results of 3-seat matches among :data:`LABELS`, ids in plan order."""
    rng = random.Random(seed)
    results = []
    for index in range(count):
        seats = tuple(rng.sample(LABELS, 3))
        ranking = tuple(rng.sample(range(3), 3))
        results.append(MatchResult(
            id=f"r001-t{index // 6 + 1:06d}-s{index % 6 + 1:03d}",
            game="explorers-of-the-lost-valley",
            seed=rng.getrandbits(63),
            seats=seats,
            scores=tuple(float(2 - place) for place in ranking),
            ranking=ranking,
            statuses=("ok", "ok", "ok"),
            actions=120,
            seconds=0.004,
            think_seconds=(0.0012, 0.0009, 0.0011),
            max_move_seconds=(0.00004, 0.00003, 0.00005),
            errors=(None, None, None),
            history=tuple(rng.randrange(60) for _ in range(120)),
        ))
    return results


def batches(results: list[MatchResult], size: int = 64) -> list[bytes]:
    """The results as Ray carries them: pickled lists of ``size``."""
    return [pickle.dumps(results[i:i + size]) for i in range(0, len(results), size)]


def console(terminal: bool) -> Console:
    return Console(file=io.StringIO(), force_terminal=terminal, width=100)


def now_path(payload: list[bytes], order: list[str], folder: Path,
             terminal: bool, aside: bool = False) -> tuple[float, float, float]:
    """The whole driver path as it is now: CPU seconds for every match up to the last one
    landed, and up to the final table (every match rated, the table printed), and the wall
    seconds to the final table. ``aside``: rated in a process of its own (arena.aside),
    whose CPU is not the driver's."""
    dispatcher = Dispatcher(1)
    board = LiveBoard(console(terminal), len(order), LABELS, 0.01, "bench", order=order,
                      aside=aside)
    started, wall = time.process_time(), time.perf_counter()
    with RunStore(folder) as store, board:
        for blob in payload:
            dispatcher._deliver(pickle.loads(blob), {}, set(), board.add, _ignore,
                                store.append_all)
        landed = time.process_time()
    return landed - started, time.process_time() - started, time.perf_counter() - wall


def before_path(payload: list[bytes], folder: Path) -> float:
    """The same path as before issue 11: ``asdict`` lines, every match rated at once, every
    result kept (without its replay) for the final table, the ``trueskill`` package rating."""
    ratings = PackageRatings(0.01, LABELS)
    kept: list[MatchResult] = []
    recorded: set[str] = set()
    folder.mkdir()
    started = time.process_time()
    with (folder / "matches.jsonl").open("a", encoding="utf-8") as lines:
        for blob in payload:
            for result in pickle.loads(blob):
                if result.id in recorded:
                    continue
                recorded.add(result.id)
                lines.write(json.dumps(result.to_json(), separators=(",", ":")) + "\n")
                lines.flush()
                kept.append(replace(result, history=()))
                ratings.add(result)
    return time.process_time() - started


class PackageRatings(Ratings):
    """:class:`Ratings` rating every match with the ``trueskill`` package's objects, as
    before ``arena.freeforall``."""

    def _update(self, match_id: str, ranks: Sequence[int], tallies: list[_Tally]) -> None:
        teams = []
        for tally in tallies:
            rating = self._fast.create_rating()
            rating.pi, rating.tau = tally.pi, tally.tau
            teams.append((rating,))
        try:
            rated = [(r.pi, r.tau) for (r,) in self._fast.rate(teams, ranks=list(ranks))]
        except ArithmeticError:
            rated = self._rate_precisely(match_id, tallies, list(ranks))
            self.fallbacks += 1
        for tally, (pi, tau) in zip(tallies, rated, strict=True):
            tally.pi, tally.tau = pi, tau


def canonical(kind: type[Ratings], results: list[MatchResult]) -> tuple[float, object]:
    """CPU seconds to rate ``results`` in canonical order, and the table."""
    started = time.process_time()
    ratings = kind(0.01, LABELS)
    for result in canonical_order(results):
        ratings.add(result)
    table = ratings.standings()
    return time.process_time() - started, table


def stage(name: str, count: int, work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    seconds = time.process_time() - started
    print(f"  {name:<28} {count / seconds:>12,.0f} matches/s  {1e6 * seconds / count:7.1f} µs",
          file=sys.__stdout__)
    return seconds


def each(step: Callable[[MatchResult], None], results: list[MatchResult]) -> None:
    for result in results:
        step(result)


def _ignore(failure: Failed) -> None:
    """Synthetic results never fail."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--terminal", action="store_true", help="a rich live display")
    args = parser.parse_args()
    results = synthetic(args.matches)
    # As the workers send them now: each result as arena.store.encoded makes it (its JSON
    # line, and beside it only the fields the driver reads); before issue 11, whole.
    sent = [encoded(result) for result in results]
    payload = batches(sent)
    whole = batches(results)
    order = [result.id for result in results]
    best_now, best_landed, best_before = float("inf"), float("inf"), float("inf")
    best_aside, best_aside_wall = float("inf"), float("inf")
    with tempfile.TemporaryDirectory() as scratch:
        for repeat in range(args.repeats):
            landed, now, _ = now_path(payload, order, Path(scratch) / f"now{repeat}",
                                      args.terminal)
            _, aside, aside_wall = now_path(payload, order, Path(scratch) / f"aside{repeat}",
                                            args.terminal, aside=True)
            before = before_path(whole, Path(scratch) / f"before{repeat}.d")
            best_now, best_before = min(best_now, now), min(best_before, before)
            best_landed = min(best_landed, landed)
            best_aside, best_aside_wall = min(best_aside, aside), min(best_aside_wall, aside_wall)
            print(f"  run {repeat + 1}: now {args.matches / now:,.0f} (up to the last match "
                  f"landed {args.matches / landed:,.0f}; rated aside: the driver "
                  f"{args.matches / aside:,.0f}, the final table {args.matches / aside_wall:,.0f}"
                  f" in wall time), before {args.matches / before:,.0f} matches/s")
        print(f"stages, {args.matches:,} matches:")
        stage("receive (unpickle)", args.matches, lambda: [pickle.loads(b) for b in payload])
        folder = Path(scratch) / "stage"
        with RunStore(folder) as store:
            stage("store (a batch's lines, flush)", args.matches,
                  lambda: [store.append_all(sent[i:i + 64]) for i in range(0, len(sent), 64)])
        board = LiveBoard(console(args.terminal), args.matches, LABELS, 0.01, "bench",
                          order=order)
        with board:
            stage("view (ledger, live rating)", args.matches, lambda: each(board.add, sent))
            final = stage("final table (canonical)", args.matches, board.standings)
        assert board.standings() == rate(results, 0.01, LABELS)
        flat, package = float("inf"), float("inf")
        for _ in range(args.repeats):
            seconds, table = canonical(Ratings, results)
            flat = min(flat, seconds)
            seconds, package_table = canonical(PackageRatings, results)
            package = min(package, seconds)
            assert table == package_table, "the two ratings differ"
    view = "terminal" if args.terminal else "plain"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"driver path, {args.matches:,} synthetic matches, {view} view, best of {args.repeats}:")
    print(f"  now   : {args.matches / best_now:>10,.0f} matches/s, every match stored, shown "
          f"and rated (target >= 20,000)")
    print(f"          {args.matches / best_landed:>10,.0f} matches/s up to the last match landed "
          f"(the live table rated within its share)")
    print(f"  aside : {args.matches / best_aside:>10,.0f} matches/s of the driver's CPU, rated in "
          f"a process of its own; {args.matches / best_aside_wall:,.0f} matches/s in wall time "
          f"to the final table (fed at once, the rating process's pace)")
    print(f"  before: {args.matches / best_before:>10,.0f} matches/s, every match rated")
    print(f"  ratio now/before: {best_before / best_now:.1f}")
    print(f"  final canonical rating: {final:.2f} s ({args.matches / final:,.0f} matches/s)")
    print(f"  (l) canonical rating, arena.freeforall: {args.matches / flat:,.0f} matches/s, "
          f"trueskill package: {args.matches / package:,.0f} matches/s, "
          f"ratio {package / flat:.1f} (tables equal)")
    print(f"  peak resident memory: {peak:.0f} MB")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
