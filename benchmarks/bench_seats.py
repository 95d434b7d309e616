"""Sandboxed seats against in-process seats, side by side in one run.

(d) per-decision overhead: the same matches (same seeds, same bots) played with
    ``isolation = "process"`` and ``"inprocess"``, alternating, best of the
    repeats; the overhead is the difference of the median per-decision times.
(e) throughput: matches per second of the two, as a ratio (random bots, which
    never read the observation, and greedy bots, which do).
(f) host start-up: a bot host started and greeted, with bubblewrap and with the
    fallback, median of several starts.
(g) host start-up from a stored bot's own environment (as ``arena submit`` makes it)
    against the arena's environment, side by side.
(i) host start-up with a control group per host (where the machine allows one) and
    without, alternating.
(m) waiting for a stopped host: sandboxed ``random`` matches with the referee sleeping
    between its looks at a host it stopped (before) and yielding the core first (now),
    alternating.
(n) a root arena's fallback host start-up with mount and IPC namespaces of its own (read-only
    mounts, tmpfs working folder and ``/dev/shm``) and without them, alternating (run as
    root; ``--only-mounts`` for this figure alone).
(h) the turn guard: one host's request round trip (an empty observation) with and without
    what follows each answer in a match (the sweep for processes left running and the stop
    until the next request), alternating, best of the repeats.

    .venv/bin/python benchmarks/bench_seats.py --matches 200 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from arena.match import refereed
from arena.records import Limits, MatchSpec, SeatSpec
from arena.seats import cgroups, process
from arena.seats import sandbox as sandbox_module
from arena.seats.process import POOL, HostProcess
from arena.seats.sandbox import Confinement, bubblewrap, fallback_user
from arena.submit import build_wheel, make_environment

GAME = "explorers-of-the-lost-valley"


def specs(bot: str, count: int, isolation: str, sandbox: str, first: int = 0
          ) -> list[MatchSpec]:
    """``count`` matches of three ``bot`` seats, deals ``first`` on: a kept host never plays
    a deal twice, so each timed batch of sandboxed seats needs deals of its own, or it
    times host starts."""
    limits = Limits(isolation=isolation, sandbox=sandbox, move_seconds=5.0, bank_seconds=5.0)
    seats = tuple(SeatSpec(label=f"{bot}-{i}", bot=bot) for i in range(3))
    return [MatchSpec(id=f"b{i}", game=GAME, options={}, seats=seats, seed=i,
                      bot_seeds=(i, i + 1, i + 2), limits=limits)
            for i in range(first, first + count)]


def play(batch: list[MatchSpec]) -> tuple[float, float]:
    """(matches per second, median seconds per decision) over ``batch``."""
    per_decision: list[float] = []
    started = time.perf_counter()
    for spec in batch:
        result, referee = refereed(spec)
        for seat, decisions in enumerate(referee.decisions):
            if decisions:
                per_decision.append(result.think_seconds[seat] / decisions)
    elapsed = time.perf_counter() - started
    return len(batch) / elapsed, statistics.median(per_decision)


def compare(bot: str, count: int, repeats: int, sandbox: str) -> None:
    play(specs(bot, 3, "process", sandbox, 1 << 20))  # hosts started, as in a tournament
    best = {"inprocess": (0.0, 1.0), "process": (0.0, 1.0)}
    for repeat in range(repeats):
        batches = {kind: specs(bot, count, kind, sandbox, repeat * count)
                   for kind in ("inprocess", "process")}
        for name, batch in batches.items():
            rate, decision = play(batch)
            best[name] = (max(best[name][0], rate), min(best[name][1], decision))
    (rate_in, dec_in), (rate_out, dec_out) = best["inprocess"], best["process"]
    print(f"{bot:7} {sandbox:9} in-process {rate_in:8.1f} matches/s {dec_in * 1e6:7.1f} µs/decision"
          f" | process {rate_out:7.1f} matches/s {dec_out * 1e6:7.1f} µs/decision"
          f" | overhead {(dec_out - dec_in) * 1e6:6.1f} µs/decision,"
          f" throughput ratio {rate_out / rate_in:.3f}")
    POOL.close()


def startup(sandbox: str, times: int, environment: Path | None = None) -> float:
    seconds = []
    for _ in range(times):
        began = time.perf_counter()
        host = HostProcess("arena_bot_random.plugin", ["--bot=random"], Confinement(), sandbox,
                           environment)
        host.greet(10.0)
        seconds.append(time.perf_counter() - began)
        host.close()
    return statistics.median(seconds)


OWN_MOUNTS = "    if (libc.unshare(0x08020000) == 0\n"
"""The line of the fallback's start that makes its mount and IPC namespaces."""


def own_mounts(starts: int, repeats: int) -> None:
    """(n) a root arena's fallback host's start-up with its own mounts and without them."""
    saved = sandbox_module._SET_LIMITS
    assert OWN_MOUNTS in saved
    timed: dict[str, list[float]] = {"with": [], "without": []}
    try:
        for _ in range(repeats):
            for kind, program in (("with", saved),
                                  ("without", saved.replace(OWN_MOUNTS, "    if (False\n"))):
                sandbox_module._SET_LIMITS = program
                timed[kind].append(startup("fallback", starts))
    finally:
        sandbox_module._SET_LIMITS = saved
    print(f"host start-up (fallback, root): {min(timed['with']) * 1000:.1f} ms with its own "
          f"mounts, {min(timed['without']) * 1000:.1f} ms without")


def stop_waits(sandbox: str, count: int, repeats: int) -> None:
    """(m) sandboxed ``random`` matches with the referee waiting for each stop by sleeping
    between its looks (before) and by first yielding the core (now), alternating, each
    batch on deals of its own; milliseconds a match, of the clock and of this process's
    CPU."""
    saved = process.STOP_YIELDS
    play(specs("random", 3, "process", sandbox, 1 << 21))
    timed: dict[str, list[tuple[float, float]]] = {"sleep": [], "yield first": []}
    first = 1 << 22
    try:
        for _ in range(repeats):
            for kind, yields in (("sleep", 0), ("yield first", saved)):
                process.STOP_YIELDS = yields
                batch = specs("random", count, "process", sandbox, first)
                first += count
                cpu, began = time.process_time(), time.perf_counter()
                play(batch)
                timed[kind].append(((time.perf_counter() - began) / count * 1e3,
                                    (time.process_time() - cpu) / count * 1e3))
    finally:
        process.STOP_YIELDS = saved
    shown = "; ".join(f"{kind}: {min(wall for wall, _ in runs):.1f} ms a match, referee CPU "
                      f"{min(cpu for _, cpu in runs):.1f} ms" for kind, runs in timed.items())
    print(f"stop wait ({sandbox}), random, best of {repeats}: {shown}")
    POOL.close()


def round_trips(sandbox: str, guarded: bool, count: int = 3000) -> float:
    """Microseconds per request round trip of one warm host, with or without the guard."""
    host = HostProcess("arena_bot_random.plugin", ["--bot=random"], Confinement(), sandbox)
    host.greet(10.0)
    start = {"type": "start", "game": GAME, "seat": 0, "num_players": 2, "seed": 1,
             "params": {}}
    host.request(start, "ready", time.perf_counter() + 10, "start-up")
    act = {"type": "act", "observation": {}, "legal": [1, 2, 3]}
    began = time.perf_counter()
    for _ in range(count):
        host.request(act, "action", time.perf_counter() + 5, "a decision")
        if guarded:
            host.end_strays()
            host.pause()
    seconds = time.perf_counter() - began
    host.kill()
    return 1e6 * seconds / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--starts", type=int, default=15)
    parser.add_argument("--only-mounts", action="store_true")
    args = parser.parse_args()
    if fallback_user():
        own_mounts(args.starts, args.repeats)
    if args.only_mounts:
        return
    modes = ["required", "fallback"] if bubblewrap() else ["fallback"]
    for mode in modes:
        for bot in ("random", "greedy"):
            compare(bot, args.matches, args.repeats, mode)
    for mode in modes:
        stop_waits(mode, args.matches, args.repeats)
    for mode in modes:
        bare = min(round_trips(mode, False) for _ in range(args.repeats))
        guarded = min(round_trips(mode, True) for _ in range(args.repeats))
        print(f"round trip ({mode}): {bare:.1f} µs bare, {guarded:.1f} µs with the turn guard "
              f"(+{guarded - bare:.1f} µs)")
    for mode in modes:
        print(f"host start-up ({mode}): median {startup(mode, args.starts) * 1000:.1f} ms")
    groups = cgroups.available
    if groups() is not None:
        for mode in modes:
            timed: dict[str, list[float]] = {"with": [], "without": []}
            for _ in range(args.repeats):
                for kind, found in (("with", groups), ("without", lambda: None)):
                    cgroups.available = found  # type: ignore[assignment]
                    timed[kind].append(startup(mode, args.starts))
            cgroups.available = groups
            print(f"host start-up ({mode}): {min(timed['with']) * 1000:.1f} ms with a control "
                  f"group, {min(timed['without']) * 1000:.1f} ms without")
    with tempfile.TemporaryDirectory() as scratch:
        wheel = build_wheel(Path(__file__).parent.parent / "bots" / "random", Path(scratch), [])
        environment = Path(scratch) / "env"
        make_environment(environment, wheel, ["--no-index"])
        own, arenas = [], []
        for _ in range(3):
            own.append(startup(modes[0], args.starts, environment))
            arenas.append(startup(modes[0], args.starts))
        print(f"host start-up ({modes[0]}): own environment {min(own) * 1000:.1f} ms, "
              f"the arena's {min(arenas) * 1000:.1f} ms, ratio {min(own) / min(arenas):.2f}")


if __name__ == "__main__":
    main()
