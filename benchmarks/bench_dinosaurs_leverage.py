"""Benchmark: how much the decisions of the Dinosaurs short game are worth against ``greedy``.

A diagnostic for the ``mcts`` target in Lost Valley of the Dinosaurs (clearly
ahead of ``greedy``): heads-up matches of variants of ``greedy``'s own
heuristic against ``greedy``. Each variant changes one part of how it plays
and keeps the rest, so its score says what that part is worth:

- ``same``: ``greedy`` itself (the even share, give or take the seeds);
- ``cards-random``: walks as ``greedy`` but decides every card (dinosaurs,
  pteranodon, lava, the swamp, water, guns) uniformly at random;
- ``pteranodon-hit``: always swoops on the opponent's explorer nearest the
  temple when no carrier is in reach, never lifts its own;
- ``pteranodon-lift``: lifts its own leading explorer first;
- ``risk-0.1``, ``risk-0.9``: ``greedy`` with another ``risk``;
- ``race-policy``: not a variant but the ``mcts`` bot's own race policy
  (``arena_bot_mcts.dinosaurs``, in expected turns) alone, with no search.

Seats alternate; 4,000 matches a variant take a few seconds on one core.

Run: ``.venv/bin/python benchmarks/bench_dinosaurs_leverage.py [--matches 4000] [--coins 1]
[--jobs 2] [--start 0] [--variants same,race-policy]``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from arena_bot_greedy import GreedyBot, dinosaurs
from arena_bot_mcts import dinosaurs as race
from bench_mcts import wilson

from arena.game import State, drive
from engines.dinosaurs.game import DinosaursGame

GAME = "lost-valley-of-the-dinosaurs"
WALKING = ("move-pick", "move-step", "after-move")
Score = Callable[[dinosaurs.View, int], float]


def _hit(view: dinosaurs.View, action: int) -> float:
    if action == dinosaurs.DONE:
        return float(dinosaurs._ptera_pick(view, action))
    number = action - dinosaurs.EXPLORER
    at = view.positions[number]
    if not view.mine(number) and not view.carrying[number] and at >= 0:
        return 45.0 - float(view.map.to_temple[at])
    return float(dinosaurs._ptera_pick(view, action))


def _lift(view: dinosaurs.View, action: int) -> float:
    if action != dinosaurs.DONE:
        number = action - dinosaurs.EXPLORER
        if view.mine(number) and not view.carrying[number]:
            return 60.0 - float(view.to_target(number, view.positions[number]))
    return float(dinosaurs._ptera_pick(view, action))


class Variant:
    """``greedy``'s Dinosaurs heuristic with one part changed."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.risk = {"risk-0.1": 0.1, "risk-0.9": 0.9}.get(name, 0.5)
        self.scores: dict[str, Score] = dict(dinosaurs.SCORES)
        if name == "pteranodon-hit":
            self.scores["pteranodon-pick"] = _hit
        elif name == "pteranodon-lift":
            self.scores["pteranodon-pick"] = _lift

    def act(self, observation: Mapping[str, Any], legal: Sequence[int]) -> int:
        phase = observation["phase"]
        score = self.scores.get(phase)
        if len(legal) == 1:
            return legal[0]
        if self.name == "race-policy":
            return race.choose(observation, legal, self.rng)
        if score is None or (self.name == "cards-random" and phase not in WALKING):
            return self.rng.choice(list(legal))
        view = dinosaurs.View(observation, self.risk)
        return max(legal, key=lambda action: (score(view, action), self.rng.random()))


VARIANTS = ("same", "cards-random", "pteranodon-hit", "pteranodon-lift", "risk-0.1", "risk-0.9",
            "race-policy")


def one_match(job: tuple[str, int, int]) -> float:
    """The variant's score in match ``index`` (1 a win, 0.5 a shared first place)."""
    variant, coins, index = job
    me = index % 2
    bots: list[Any] = [Variant(variant, index) if seat == me else
                       GreedyBot(game=GAME, seat=seat, num_players=2, seed=10_000 + index)
                       for seat in range(2)]

    def decide(state: State, player: int) -> int:
        return int(bots[player].act(state.observation(player), state.legal_actions()))

    state = DinosaursGame().new_initial_state(2, {"coins": coins})
    drive(state, decide, random.Random(index))
    ranking = state.ranking()
    if ranking[me] != 0:
        return 0.0
    return 0.5 if ranking.count(0) > 1 else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4000)
    parser.add_argument("--coins", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--start", type=int, default=0, help="first match index (seed)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    print(f"Dinosaurs, heads-up, coins = {args.coins}, {args.matches} matches a variant, "
          "seats alternating")
    print("| variant against greedy | score (95 % interval) |")
    print("|---|---|")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for variant in args.variants.split(","):
            if variant not in VARIANTS:
                parser.error(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
            jobs = [(variant, args.coins, index)
                    for index in range(args.start, args.start + args.matches)]
            score = sum(pool.map(one_match, jobs, chunksize=50))
            low, high = wilson(score, args.matches)
            print(f"| {variant} | {score / args.matches:.1%} ({low:.1%}-{high:.1%}) |",
                  flush=True)


if __name__ == "__main__":
    main()
