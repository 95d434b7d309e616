"""Paired policy rollouts at the root: a base policy's move, challenged by a few others.

A search mode for games where a good hand-made policy exists and a tree
grown from 100 simulations over a dozen moves per decision does not beat it
(measured in Lost Explorers: see the package README). Each decision:

1. rebuild ``determinizations`` states from the observation
   (``Game.state_from_observation``), as the tree search does;
2. the *candidates*: the policy's move for the seat on move, then the other
   legal moves the game's evaluation likes best after one step, up to
   ``candidates`` in all (or, given ``rank``, the policy's own order: its
   move and its runners-up);
3. sample ``i`` (``i = 0, 1, ...`` until the budget is spent) plays every
   candidate still in the running from determinization ``i mod
   determinizations`` with the same seed, so dice and draws are shared
   (*common random numbers*): after the candidate, every seat follows the
   policy for ``depth`` decisions, and the game's evaluation (or its end)
   gives the value;
4. every ``halving`` samples the weaker half of the challengers, by their
   mean paired difference with the policy's move, drops out;
5. the answer is the challenger with the largest mean paired advantage over
   the policy's move when that advantage is positive and more than
   ``margin`` standard errors; otherwise the policy's move.

It searches only what the observation shows (the rebuilt states), and with
``iterations`` alone it is reproducible from the seed. A time limit is
checked before every decision of a rollout; a rollout the deadline cuts short
is dropped, and the last sample is compared on the candidates it reached.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.game import CHANCE, TERMINAL, Game, State, sample_chance
from arena_bot_mcts.search import Budget, Evaluate, Stats, final_values

Policy = Callable[[State, int, list[int], random.Random], int]
"""The move ``player`` makes among ``legal`` in ``state`` (its rng for ties)."""
Rank = Callable[[State, int, list[int], random.Random], list[int]]
"""``legal`` ordered best first for ``player`` by a policy (its first is the policy's move)."""


class PairedRollouts:
    """One search per decision; see the module's docstring."""

    def __init__(self, game: Game, *, budget: Budget, rng: random.Random, policy: Policy,
                 evaluate: Evaluate, depth: int = 20, candidates: int = 4,
                 determinizations: int = 8, halving: int = 6, margin: float = 0.0,
                 rank: Rank | None = None) -> None:
        self.game, self.budget, self.rng = game, budget, rng
        self.policy, self.evaluate, self.rank = policy, evaluate, rank
        self.depth = depth
        self.candidates = max(1, candidates)
        self.determinizations = max(1, determinizations)
        self.halving = max(1, halving)
        self.margin = margin
        self.stats = Stats()

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """The policy's move, or a challenger that did better in paired rollouts."""
        start = time.perf_counter()
        deadline = None if self.budget.seconds is None else start + self.budget.seconds
        limit = self.budget.iterations or 1 << 62
        rng = self.rng
        stats = self.stats = Stats()
        worlds = [self.game.state_from_observation(observation, rng)]
        seat = worlds[0].current_player()
        allowed = set(legal_actions)
        legal = [a for a in worlds[0].legal_actions() if a in allowed] or list(legal_actions)
        if self.rank is not None:
            running = self.rank(worlds[0].clone(), seat, legal,
                                random.Random(rng.getrandbits(32)))[:self.candidates]
            first = running[0]
        else:
            first = self.policy(worlds[0].clone(), seat, legal,
                                random.Random(rng.getrandbits(32)))
            challengers = sorted((a for a in legal if a != first),
                                 key=lambda action: -self._value_after(worlds[0], action, seat))
            running = [first, *challengers[:self.candidates - 1]]
        if len(running) == 1:
            stats.seconds = time.perf_counter() - start
            return first
        values: dict[int, list[float]] = {action: [] for action in running}
        salt = rng.getrandbits(32)
        sample = 0
        while stats.iterations < limit:
            if deadline is not None and sample and time.perf_counter() >= deadline:
                break
            if len(worlds) < self.determinizations:
                worlds.append(self.game.state_from_observation(observation, rng))
            world = worlds[sample % len(worlds)]
            for action in running:
                if stats.iterations >= limit:  # a last, partial sample: compared on the rest
                    break
                state = world.clone()
                state.apply_action(action)
                value = self._rollout(state, random.Random(salt + sample), deadline)
                if value is None:  # out of time: this sample is compared on what it has
                    break
                values[action].append(value[seat])
                stats.iterations += 1
            sample += 1
            if sample % self.halving == 0 and len(running) > 2:
                ranked = sorted(running[1:], key=lambda a: -advantage(values[a], values[first]))
                running = [first, *ranked[:(len(ranked) + 1) // 2]]
        stats.seconds = time.perf_counter() - start
        best, best_gain = first, 0.0
        for action, mine in values.items():
            gain = advantage(mine, values[first])
            if action != first and gain > best_gain and \
                    gain > self.margin * standard_error(mine, values[first]):
                best, best_gain = action, gain
        return best

    def _value_after(self, state: State, action: int, seat: int) -> float:
        after = state.clone()
        after.apply_action(action)
        if after.current_player() == TERMINAL:
            return final_values(after)[seat]
        return self.evaluate(after)[seat]

    def _rollout(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> list[float] | None:
        """Every seat plays the policy for ``depth`` decisions (chance sampled with ``rng``);
        then the evaluation, or the end of the game. None once ``deadline`` has passed
        (checked before each decision, so a decision's time limit is kept closely)."""
        decisions = 0
        while True:
            if deadline is not None and time.perf_counter() >= deadline:
                return None
            player = state.current_player()
            if player == TERMINAL:
                return final_values(state)
            if player == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
                continue
            if decisions >= self.depth:
                return self.evaluate(state)
            legal = state.legal_actions()
            state.apply_action(legal[0] if len(legal) == 1
                               else self.policy(state, player, legal, rng))
            decisions += 1
            self.stats.rollout_actions += 1


def advantage(mine: list[float], theirs: list[float]) -> float:
    """The mean difference over the samples both have (``-inf`` with none)."""
    n = min(len(mine), len(theirs))
    if not n:
        return -math.inf
    return sum(mine[i] - theirs[i] for i in range(n)) / n


def standard_error(mine: list[float], theirs: list[float]) -> float:
    """The standard error of :func:`advantage` (``inf`` under two samples)."""
    n = min(len(mine), len(theirs))
    if n < 2:
        return math.inf
    diffs = [mine[i] - theirs[i] for i in range(n)]
    mean = sum(diffs) / n
    return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
