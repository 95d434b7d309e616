"""Benchmark: the Lost Valley of the Dinosaurs engine and its greedy bot on one core.

Prints, for the short game (1 coin) and the long game (3 coins):

- random-playout speed, actions per second (chance outcomes included), 3 players;
- ``clone()`` in microseconds, on states taken from the middle of random matches;
- match length (actions and turns) and how matches end (coins, deaths, no coins left,
  the bound), for random play and for greedy self-play;
- the greedy bot's win rate against random, heads-up, seats alternated, with a 95 % Wilson
  interval (shared first places count as a split win);
- the share of seat pairs tied for a place in greedy self-play (the game's draw probability).

Run: ``.venv/bin/python benchmarks/bench_dinosaurs.py [--seconds 3] [--matches 300]``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence

from arena_bot_greedy import GreedyBot
from arena_bot_random import RandomBot

from arena.bot import Bot
from arena.game import NoEnd, State, drive
from engines.dinosaurs.game import DinosaursGame
from engines.dinosaurs.state import DinosaursState

GAME = DinosaursGame()


def _uniform(rng: random.Random) -> Callable[[State, int], int]:
    """A decision rule: uniform over the legal actions, drawn from ``rng``."""

    def decide(state: State, player: int) -> int:
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    return decide


def random_playout(state: DinosaursState, rng: random.Random) -> int:
    """Play ``state`` to the end with uniform moves; return the number of actions applied."""
    return len(drive(state, _uniform(rng), rng))


def playout_speed(players: int, coins: int, seconds: float) -> tuple[float, int, float]:
    """Actions per second, matches played, and mean actions per match over ``seconds``."""
    rng = random.Random(1)
    actions = matches = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += random_playout(GAME.new_initial_state(players, {"coins": coins}), rng)
        matches += 1
    return actions / (time.perf_counter() - start), matches, actions / matches


def clone_micros(players: int, coins: int, samples: int = 400) -> float:
    """Mean ``clone()`` time in µs over states from the middle of random matches."""
    rng = random.Random(2)
    states = []
    while len(states) < samples:
        state = GAME.new_initial_state(players, {"coins": coins})
        with contextlib.suppress(NoEnd):  # stopped part-way on purpose
            drive(state, _uniform(rng), rng, max_actions=rng.randrange(20, 600))
        states.append(state)
    repeats = 50
    start = time.perf_counter()
    for _ in range(repeats):
        for state in states:
            state.clone()
    return (time.perf_counter() - start) / (repeats * len(states)) * 1e6


def make_bot(kind: str, seat: int, players: int, seed: int) -> Bot:
    if kind == "random":
        return RandomBot(game=GAME.name, seat=seat, num_players=players, seed=seed)
    return GreedyBot(game=GAME.name, seat=seat, num_players=players, seed=seed)


def bot_match(seated: Sequence[str], seed: int, coins: int) -> DinosaursState:
    """One match with bots in the seats (observations built as the referee does)."""
    players = len(seated)
    state = GAME.new_initial_state(players, {"coins": coins})
    bots = [make_bot(kind, seat, players, seed * 10 + seat) for seat, kind in enumerate(seated)]
    drive(
        state,
        lambda state, seat: bots[seat].act(state.observation(seat), tuple(state.legal_actions())),
        random.Random(seed),
    )
    return state


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    margin = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return centre - margin, centre + margin


def endings(kinds: Sequence[str], coins: int,
            matches: int) -> tuple[Counter[str], float, int, float]:
    """How matches end, mean turns, the longest match in turns, the share of tied seat pairs."""
    reasons: Counter[str] = Counter()
    turns = longest = 0
    tied = pairs = 0
    for seed in range(matches):
        state = bot_match(kinds, seed, coins)
        reasons[state.end_reason] += 1
        turns += state.turns
        longest = max(longest, state.turns)
        ranking = state.ranking()
        for first in range(len(ranking)):
            for second in range(first + 1, len(ranking)):
                pairs += 1
                tied += ranking[first] == ranking[second]
    return reasons, turns / matches, longest, tied / pairs


def greedy_vs_random(matches: int, coins: int) -> tuple[float, tuple[float, float]]:
    wins = 0.0
    for match in range(matches):
        seated = ["greedy", "random"] if match % 2 == 0 else ["random", "greedy"]
        ranking = bot_match(seated, 10_000 + match, coins).ranking()
        winners = [kind for kind, place in zip(seated, ranking, strict=True) if place == 0]
        wins += winners.count("greedy") / len(winners)
    return wins / matches, wilson(wins, matches)


def random_endings(players: int, coins: int, matches: int) -> tuple[Counter[str], float, int]:
    rng = random.Random(3)
    reasons: Counter[str] = Counter()
    turns = longest = 0
    for _ in range(matches):
        state = GAME.new_initial_state(players, {"coins": coins})
        random_playout(state, rng)
        reasons[state.end_reason] += 1
        turns += state.turns
        longest = max(longest, state.turns)
    return reasons, turns / matches, longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    for coins in (1, 3):
        label = f"{coins} coin{'s' if coins > 1 else ''}"
        rate, played, length = playout_speed(3, coins, args.seconds)
        print(f"[{label}] random playouts, 3 players: {rate:,.0f} actions/s "
              f"({played} matches, {length:.0f} actions each)")
        print(f"[{label}] clone(): {clone_micros(3, coins):.1f} µs")
        reasons, turns, longest = random_endings(3, coins, args.matches)
        print(f"[{label}] random play, 3 players: {turns:.0f} turns on average, longest "
              f"{longest}; ends {dict(reasons)}")
        for players in (2, 3, 4):
            reasons, turns, longest, tied = endings(["greedy"] * players, coins,
                                                       args.matches // 2)
            print(f"[{label}] greedy self-play, {players} players: {turns:.1f} turns, longest "
                  f"{longest}; ends {dict(reasons)}; tied seat pairs {tied:.2%}")
        share, (low, high) = greedy_vs_random(args.matches, coins)
        print(f"[{label}] greedy vs random heads-up, {args.matches} matches: {share:.1%} "
              f"(95% interval {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
