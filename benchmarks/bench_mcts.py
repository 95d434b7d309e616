"""Benchmark: the ``mcts`` bot's strength and speed in every shipped game.

Strength: heads-up matches (``--players``, default 2) of ``mcts`` against
``random`` and against ``greedy``, seats alternating, each match from its own
seed, played in-process with :func:`arena.game.drive` (the observation each
seat gets is the engine's, as with ``isolation = "inprocess"``). Reported per
game and opponent: wins, ties for first, losses, the score (a win 1, a tie
for first 1/2) with a 95 % Wilson interval, and mcts's decision times (mean,
99th percentile, worst, share over 0.2 s).

Speed: simulations per second per game over decisions sampled from greedy
self-play, and where the time goes (cProfile, grouped: rebuilding states,
clones, legal actions, applying actions, the evaluation, the tree itself).

Run: ``.venv/bin/python benchmarks/bench_mcts.py [--matches 200] [--iterations 100]
[--seconds 0.15] [--jobs 2] [--games ...] [--opponents random,greedy] [--speed-only |
--strength-only] [--param KEY=VALUE ...]`` (``--param``: any other mcts param, for example
``--param search=uct`` or ``--param rollout_depth=6``).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import pstats
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from arena_bot_greedy import GreedyBot
from arena_bot_mcts import GAMES, MCTSBot
from arena_bot_random import RandomBot

from arena.game import State, drive

OPPONENTS = {"random": RandomBot, "greedy": GreedyBot}
SLOW = 0.2


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if not trials:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (centre - margin) / scale, (centre + margin) / scale


def one_match(job: tuple[str, str, int, int, dict[str, Any]]) -> dict[str, Any]:
    """One match: mcts in seat ``index % players``, the opponent in the others."""
    game_name, opponent, players, index, params = job
    game = GAMES[game_name]()
    me = index % players
    bots: list[Any] = [
        MCTSBot(game=game_name, seat=seat, num_players=players, seed=index, **params)
        if seat == me else
        OPPONENTS[opponent](game=game_name, seat=seat, num_players=players,
                            seed=10_000 + index * 7 + seat)
        for seat in range(players)]
    times: list[float] = []
    simulations = searches = 0

    def decide(state: State, player: int) -> int:
        nonlocal simulations, searches
        legal = state.legal_actions()
        observation = state.observation(player)
        start = time.perf_counter()
        action = int(bots[player].act(observation, legal))
        if player == me:
            times.append(time.perf_counter() - start)
            if len(legal) > 1:
                simulations += bots[me].search.stats.iterations
                searches += 1
        return action

    state = game.new_initial_state(players)
    drive(state, decide, random.Random(index))
    ranking = state.ranking()
    first = ranking[me] == 0
    shared = first and ranking.count(0) > 1
    return {"game": game_name, "opponent": opponent, "index": index, "place": ranking[me],
            "win": first and not shared, "tie": shared, "times": times,
            "simulations": simulations, "searches": searches}


def strength(games: Sequence[str], opponents: Sequence[str], matches: int, players: int,
             params: dict[str, Any], jobs: int, log: str | None, start: int = 0) -> None:
    plan = [(game, opponent, players, index, params) for opponent in opponents
            for game in games for index in range(start, start + matches)]
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    sink = open(log, "a", encoding="utf-8") if log else None  # noqa: SIM115
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(one_match, plan, chunksize=2):
                results.setdefault((result["game"], result["opponent"]), []).append(result)
                if sink:
                    sink.write(json.dumps({**result, "times": [round(t, 5) for t in
                                                               result["times"]]}) + "\n")
                    sink.flush()
    finally:
        if sink:
            sink.close()
    print(f"\nmcts {json.dumps(params)} vs each opponent, {players} seats, seats alternating")
    print("| game | opponent | matches | wins | ties for 1st | losses | score (95 % interval) "
          "| decision mean / p99 / worst | over 0.2 s | simulations per decision |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (game, opponent), rows in results.items():
        report(game, opponent, rows)


def report(game: str, opponent: str, rows: list[dict[str, Any]]) -> None:
    n = len(rows)
    wins = sum(row["win"] for row in rows)
    ties = sum(row["tie"] for row in rows)
    score = wins + 0.5 * ties
    low, high = wilson(score, n)
    times = sorted(t for row in rows for t in row["times"])
    decisions = len(times)
    p99 = times[min(decisions - 1, int(0.99 * decisions))] if times else 0.0
    slow = sum(1 for t in times if t > SLOW)
    searched = sum(row["simulations"] for row in rows)
    with_choice = sum(row["searches"] for row in rows) or 1
    print(f"| {game} | {opponent} | {n} | {wins} | {ties} | {n - wins - ties} "
          f"| {score / n:.1%} ({low:.1%}-{high:.1%}) "
          f"| {1000 * sum(times) / max(1, decisions):.0f} / {1000 * p99:.0f} / "
          f"{1000 * (times[-1] if times else 0):.0f} ms | {slow} of {decisions} "
          f"| {searched / with_choice:.0f} |")


GROUPS = (("state_from_observation", ("determinize.py",)),
          ("clone", ("copy", "clone", "_copy", "_copied")),
          ("evaluation", ("evaluate.py", "scoring.py", "points_now")),
          ("legal actions", ("legal_actions", "_turn_actions", "_phase_one_actions",
                             "_phase_two_actions", "_phase_one_allows", "explorer_steps",
                             "dinosaur_steps", "legal.py", "is_legal", "_is_legal")),
          ("observations", ("observation", "observation.py", "observe.py")),
          ("the greedy policy", ("/arena_bot_greedy/",)),
          ("applying actions (rules)", ("/engines/",)),
          ("the tree and rollout loop", ("search.py", "rollouts.py", "random.py", "game.py")))


def speed(game_name: str, params: dict[str, Any], decisions: int = 30) -> None:
    """Simulations per second over decisions sampled from greedy self-play, and a profile."""
    game = GAMES[game_name]()
    sampled: list[tuple[int, dict[str, Any], list[int]]] = []
    for seed in range(4):
        bots = [GreedyBot(game=game_name, seat=seat, num_players=2, seed=seat) for seat in (0, 1)]

        def decide(state: State, player: int, bots: list[GreedyBot] = bots) -> int:
            legal = state.legal_actions()
            observation = state.observation(player)
            if len(legal) > 1:
                sampled.append((player, observation, legal))
            return int(bots[player].act(observation, legal))

        drive(game.new_initial_state(2), decide, random.Random(seed))
    step = max(1, len(sampled) // decisions)
    sampled = sampled[::step][:decisions]
    bots = {seat: MCTSBot(game=game_name, seat=seat, num_players=2, seed=1, **params)
            for seat in (0, 1)}
    simulations, start = 0, time.perf_counter()
    for seat, observation, legal in sampled:
        bots[seat].act(observation, legal)
        simulations += bots[seat].search.stats.iterations
    elapsed = time.perf_counter() - start
    profile = cProfile.Profile()
    profile.enable()
    for seat, observation, legal in sampled:
        bots[seat].act(observation, legal)
    profile.disable()
    shares = _profile_shares(profile)
    print(f"| {game_name} | {simulations / elapsed:,.0f} | {1000 * elapsed / len(sampled):.0f} ms "
          "| " + ", ".join(f"{name} {share:.0%}" for name, share in shares) + " |")


def _profile_shares(profile: cProfile.Profile) -> list[tuple[str, float]]:
    """Own time per group of functions, as shares of the whole; a builtin's time goes to the
    functions that called it, in proportion."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    own: dict[Any, float] = {}
    for func, (_, _, tottime, _, callers) in stats.items():
        if func[0] == "~" and callers:
            spread = sum(row[2] for row in callers.values()) or 1.0
            for caller, row in callers.items():
                own[caller] = own.get(caller, 0.0) + tottime * row[2] / spread
        else:
            own[func] = own.get(func, 0.0) + tottime
    total = sum(own.values()) or 1.0
    grouped = {name: 0.0 for name, _ in GROUPS}
    grouped["other"] = 0.0
    for (filename, _, function), seconds in own.items():
        grouped[_group(filename, function)] += seconds
    return sorted(((name, part / total) for name, part in grouped.items()),
                  key=lambda item: -item[1])


def _group(filename: str, function: str) -> str:
    for name, keys in GROUPS:
        if any(key == function or filename.endswith(key) or (key.startswith("/")
               and key in filename) for key in keys):
            return name
    return "other"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--opponents", default="greedy,random")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.15)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", help="append one JSON line per match to this file")
    parser.add_argument("--start", type=int, default=0,
                        help="first match index (seed): to split a run over processes")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--strength-only", action="store_true")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="another mcts param (a JSON value, or else a string)")
    args = parser.parse_args(argv)
    params: dict[str, Any] = {"iterations": args.iterations}
    for item in args.param:
        key, _, value = item.partition("=")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    if args.seconds > 0:
        params["seconds"] = args.seconds
    games = args.games.split(",")
    print(f"Python {sys.version.split()[0]}; speed at {json.dumps(params)}, "
          "30 decisions of greedy self-play per game")
    print("| game | simulations/s | per decision | own time (profiled) |")
    print("|---|---|---|---|")
    for game in games if not args.strength_only else ():
        speed(game, params)
    if not args.speed_only:
        strength(games, args.opponents.split(","), args.matches, args.players, params,
                 args.jobs, args.log, args.start)


if __name__ == "__main__":
    main()
