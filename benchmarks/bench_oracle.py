"""Benchmark: how far search can go against ``greedy`` when it is shown everything.

A diagnostic for the ``mcts`` target (clearly ahead of ``greedy``): heads-up
matches of a *cheating* search against ``greedy``. Each decision it runs the
``mcts`` bot's paired policy rollouts (:mod:`arena_bot_mcts.rollouts`) from
the referee's true state (no determinization: every hidden card is known),
with a large budget and no clock. If even this does not beat ``greedy``
clearly, no honest search of the same kind will, and the game's outcome
between two competent players is mostly chance. Seats alternate and match
``i`` uses the same seeds as in ``bench_mcts.py``, so the two compare.

Run: ``.venv/bin/python benchmarks/bench_oracle.py [--game GAME] [--matches 60]
[--iterations 400] [--depth 1000] [--candidates 4] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from arena_bot_greedy import GreedyBot
from arena_bot_mcts import GAMES, greedy_policy
from arena_bot_mcts.evaluate import evaluation
from arena_bot_mcts.rollouts import PairedRollouts
from arena_bot_mcts.search import Budget
from bench_mcts import wilson

from arena.game import State, drive


class Oracle:
    """A game whose ``state_from_observation`` hands over the true state (a copy)."""

    def __init__(self) -> None:
        self.true: State | None = None

    def state_from_observation(self, observation: Mapping[str, Any],
                               rng: random.Random) -> State:
        assert self.true is not None
        return self.true.clone()


def one_match(job: tuple[str, int, int, int, int]) -> float:
    """Match ``index``: the oracle in seat ``index % 2``; its score (a tie for first ½)."""
    game_name, index, iterations, depth, candidates = job
    evaluate = evaluation(game_name)
    assert evaluate is not None
    oracle = Oracle()
    game: Any = oracle  # it answers the one Game method the search calls
    search = PairedRollouts(game, budget=Budget(iterations), rng=random.Random(index),
                            policy=greedy_policy(game_name), evaluate=evaluate, depth=depth,
                            candidates=candidates, determinizations=1)
    me = index % 2
    opponent = GreedyBot(game=game_name, seat=1 - me, num_players=2,
                         seed=10_000 + index * 7 + 1 - me)

    def decide(state: State, player: int) -> int:
        legal = state.legal_actions()
        if player != me:
            return int(opponent.act(state.observation(player), legal))
        if len(legal) == 1:
            return legal[0]
        oracle.true = state
        return search.choose(state.observation(player), legal)

    state = GAMES[game_name]().new_initial_state(2)
    drive(state, decide, random.Random(index))
    ranking = state.ranking()
    if ranking[me] != 0:
        return 0.0
    return 0.5 if ranking.count(0) > 1 else 1.0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="lost-valley-of-the-dinosaurs", choices=sorted(GAMES))
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = [(args.game, index, args.iterations, args.depth, args.candidates)
            for index in range(args.matches)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        scores = list(pool.map(one_match, jobs))
    low, high = wilson(sum(scores), len(scores))
    print(f"{args.game}: the oracle search ({args.iterations} paired rollouts of "
          f"{args.depth} decisions, {args.candidates} candidates) against greedy over "
          f"{len(scores)} matches: {sum(scores) / len(scores):.1%} ({low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
