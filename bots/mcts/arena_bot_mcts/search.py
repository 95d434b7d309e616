"""Monte Carlo tree search over states rebuilt from one observation.

Determinized UCT with one tree: each iteration takes a state consistent with
the observation (``Game.state_from_observation``, sampled again for every
few iterations so hidden parts average out), walks the tree from the root
choosing by UCB1 for whichever seat is on move, samples chance nodes with
their probabilities (a chance node's children are the outcomes drawn so
far), adds one node, plays a short rollout and backs up a value per seat.
The tree's nodes follow action ids, so one tree serves every determinization
(in the shipped games the observation shows all that decides legality).

Values are in [0, 1] per seat: at the end of a game, the share of the other
seats the seat finished ahead of (a tie counts half); where a rollout stops
before the end, the game's evaluation (:mod:`arena_bot_mcts.evaluate`) turned
into the same kind of share.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.game import CHANCE, TERMINAL, Game, State, sample_chance

GUIDE_SAMPLE = 5
"""Moves a guided rollout compares at one decision."""

Evaluate = Callable[[State], list[float]]
"""Per-seat values in [0, 1] of a state that is not over."""


@dataclass(frozen=True, slots=True)
class Budget:
    """When a search stops: after ``iterations``, or once ``seconds`` have passed (whichever
    comes first; ``None`` means no such limit)."""

    iterations: int | None = 200
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("mcts: give iterations or seconds (or both)")
        if self.iterations is not None and (type(self.iterations) is not int
                                            or self.iterations < 1):
            raise ValueError(f"mcts: iterations must be a positive integer, "
                             f"got {self.iterations!r}")
        if self.seconds is not None and not (isinstance(self.seconds, int | float)
                                             and 0 < self.seconds < math.inf):
            raise ValueError(f"mcts: seconds must be a positive number, got {self.seconds!r}")


class Node:
    """Statistics of one action sequence from the root."""

    __slots__ = ("children", "totals", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.totals = [0.0] * seats


@dataclass(slots=True)
class Stats:
    """What the last search did (for benchmarks and tests)."""

    iterations: int = 0
    seconds: float = 0.0
    rollout_actions: int = 0


def final_values(state: State) -> list[float]:
    """Per seat: the share of the other seats it finished ahead of, a tie counting half."""
    ranking = state.ranking()
    others = len(ranking) - 1
    if not others:
        return [1.0]
    return [(sum(1 for other in ranking if other > mine)
             + 0.5 * (sum(1 for other in ranking if other == mine) - 1)) / others
            for mine in ranking]


class Search:
    """One search per decision; the tree is not kept between decisions."""

    def __init__(self, game: Game, *, budget: Budget, rng: random.Random,
                 exploration: float = 0.7, rollout_depth: int | None = 40,
                 evaluate: Evaluate | None = None, determinizations: int = 8,
                 guided: bool = True, epsilon: float = 0.1,
                 max_rollout: int = 100_000) -> None:
        self.game, self.budget, self.rng = game, budget, rng
        self.exploration = exploration
        self.rollout_depth = rollout_depth if evaluate is not None else None
        self.evaluate = evaluate
        self.guided = guided and evaluate is not None
        self.epsilon = epsilon
        self.determinizations = max(1, determinizations)
        self.max_rollout = max_rollout
        self.stats = Stats()
        self._root_seat = 0

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """The most visited of ``legal_actions`` after searching from ``observation``."""
        start = time.perf_counter()
        deadline = None if self.budget.seconds is None else start + self.budget.seconds
        limit = self.budget.iterations
        rng = self.rng
        worlds = [self.game.state_from_observation(observation, rng)
                  for _ in range(min(self.determinizations, limit or self.determinizations))]
        seats = len(worlds[0].scores())
        self._root_seat = worlds[0].current_player()
        root = Node(seats)
        allowed = frozenset(legal_actions)
        stats = self.stats = Stats()
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if done and done % len(worlds) == 0 and len(worlds) < self.determinizations:
                worlds.append(self.game.state_from_observation(observation, rng))
            self._iterate(root, worlds[done % len(worlds)].clone(), allowed)
            done += 1
        stats.iterations, stats.seconds = done, time.perf_counter() - start
        return self._best(root, legal_actions)

    def _best(self, root: Node, legal_actions: Sequence[int]) -> int:
        best, best_key = legal_actions[0], (-1, -1.0)
        seat = self._root_seat
        for action in legal_actions:
            child = root.children.get(action)
            if child is None:
                continue
            key = (child.visits, child.totals[seat] / child.visits)
            if key > best_key:
                best, best_key = action, key
        return best

    def _iterate(self, root: Node, state: State, allowed: frozenset[int]) -> None:
        path = [root]
        node, rng = root, self.rng
        expanded = False
        while not expanded:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = sample_chance(state.chance_outcomes(), rng)
            else:
                legal = state.legal_actions()
                if node is root:
                    legal = [a for a in legal if a in allowed] or legal
                untried = [a for a in legal if a not in node.children]
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    expanded = True
                else:
                    action = self._select(node, legal, player)
            state.apply_action(action)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = Node(len(root.totals))
            node = child
            path.append(node)
        values = self._rollout(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat, value in enumerate(values):
                totals[seat] += value

    def _guided(self, state: State, player: int, legal: list[int]) -> int:
        """The legal move whose resulting state (before any chance) evaluates best for
        ``player``, among at most ``GUIDE_SAMPLE`` of them drawn at random (each costs a
        clone and an evaluation); ties go to the first."""
        assert self.evaluate is not None
        if len(legal) > GUIDE_SAMPLE:
            legal = self.rng.sample(legal, GUIDE_SAMPLE)
        best, best_value = legal[0], -1.0
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            value = self.evaluate(after)[player]
            if value > best_value:
                best, best_value = action, value
        return best

    def _select(self, node: Node, legal: list[int], player: int) -> int:
        log_visits = math.log(node.visits or 1)
        exploration = self.exploration
        best, best_score = legal[0], -math.inf
        children = node.children
        for action in legal:
            child = children[action]
            score = (child.totals[player] / child.visits
                     + exploration * math.sqrt(log_visits / child.visits))
            if score > best_score:
                best, best_score = action, score
        return best

    def _rollout(self, state: State) -> list[float]:
        """Play until the end or ``rollout_depth`` decisions, then the value. Guided: each
        decision the move whose result the evaluation likes best for the seat on move (a
        uniformly random one with probability ``epsilon``); else uniformly random."""
        rng = self.rng
        depth = self.rollout_depth
        decisions = actions = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                self.stats.rollout_actions += actions
                return final_values(state)
            if player == CHANCE:
                action = sample_chance(state.chance_outcomes(), rng)
            else:
                if depth is not None and decisions >= depth:
                    break
                legal = state.legal_actions()
                if self.guided and len(legal) > 1 and rng.random() >= self.epsilon:
                    action = self._guided(state, player, legal)
                else:
                    action = legal[rng.randrange(len(legal))]
                decisions += 1
            state.apply_action(action)
            actions += 1
            if actions >= self.max_rollout:
                break
        self.stats.rollout_actions += actions
        if self.evaluate is None:  # a random rollout past max_rollout: the places now
            return final_values(state)
        return self.evaluate(state)
