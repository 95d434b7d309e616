"""The engine contract for Explorers of the Lost Valley: legality, chance, views.

:class:`ExplorersState` adds to the rules (:mod:`engines.explorers.rules`)
what the referee asks for: who is on move, the legal actions, the chance
outcomes, scores and ranking, observations and text.
"""

from __future__ import annotations

from typing import Any

from arena.game import State, competition_ranking
from engines.explorers import actions as A
from engines.explorers import observation, phases, render, tensor
from engines.explorers.describe import describe_action
from engines.explorers.phases import (
    AMMUNITION_CHOICE,
    DEAL_TRAIL,
    EXHAUSTED,
    FIRST_PLAYER,
    HOUND_CHOICE,
    HOUND_REVEAL,
    HUNT_ROLL,
    REROLL,
    REVEAL,
    SETUP_DISCARD,
    STEAL_DIE,
    STEAL_PICK,
    STEAL_VICTIM,
    TURN,
    TURN_END,
)
from engines.explorers.rules import Rules
from engines.explorers.scoring import ranking_keys

_DRAWS = (SETUP_DISCARD, REVEAL, HOUND_REVEAL)


class ExplorersState(Rules, State):
    """One position of a match of Explorers of the Lost Valley."""

    __slots__ = ()

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == TURN:
            return self._turn_actions()
        if phase in _DRAWS:
            return [A.DRAW + card for card in self.deck]
        if phase < TURN:
            return [action for action, _ in self.chance_outcomes()]
        if phase == REROLL:
            return [A.REROLL, A.STOP_HUNT]
        if phase == EXHAUSTED:
            return [A.BASE_CAMP, A.ABANDON]
        if phase == TURN_END:
            return [A.EXTRA_ACTION, A.END_TURN]
        if phase == AMMUNITION_CHOICE:
            return [A.RETURN_AMMUNITION, A.KEEP_AMMUNITION]
        if phase == HOUND_CHOICE:
            return [A.HOUND_CAPTURE, A.HOUND_RELEASE]
        if phase == STEAL_VICTIM:
            return [A.STEAL_FROM + seat for seat in self.victims()]
        if phase == STEAL_PICK:
            return [A.STEAL_CARD + card for card in self.stealable()]
        return []

    def _turn_actions(self) -> list[int]:
        seat = self.player
        legal = [A.TAKE, A.TAKE + 1]
        if not self.discard_locked:
            legal += (A.DISCARD, A.DISCARD + 1)
        legal += (A.BASE_CAMP, A.ABANDON)
        if self.may_buy_extra_action():
            legal.append(A.EXTRA_ACTION)
        if self.advanced and not self.steal_locked and self.trail_tokens[seat]:
            legal += [A.STEAL + species for species in sorted(set(self.trail_tokens[seat]))]
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == HUNT_ROLL:
            return A.ROLL_OUTCOMES[:]
        if phase in _DRAWS:
            chance = 1 / len(self.deck)
            return [(A.DRAW + card, chance) for card in self.deck]
        if phase == STEAL_DIE:
            return A.DIE_OUTCOMES[:]
        if phase == FIRST_PLAYER:
            return [(A.FIRST_PLAYER + seat, 1 / self.num_players)
                    for seat in range(self.num_players)]
        if phase == DEAL_TRAIL:
            left = sum(self.trail_pool)
            return [(A.TRAIL_DEAL + species, count / left)
                    for species, count in enumerate(self.trail_pool) if count]
        return []

    def apply_action(self, action: int) -> None:
        if not self._is_legal(action):
            raise ValueError(f"explorers: action {action!r} is not legal in phase "
                             f"{phases.NAMES[self.phase]} (legal: {self.legal_actions()})")
        self.play(action)

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if not isinstance(action, int) or isinstance(action, bool):
            return False
        if phase == HUNT_ROLL:
            return A.ROLL + 2 <= action <= A.ROLL + 12
        if phase in _DRAWS:
            return action >= A.DRAW and action - A.DRAW in self.deck
        if phase == STEAL_DIE:
            return A.DIE + 1 <= action <= A.DIE + 6
        return action in self.legal_actions()

    def clone(self) -> ExplorersState:
        return self.copy()

    def scores(self) -> list[float]:
        return [float(count) for count in self.trophies]

    def ranking(self) -> list[int]:
        return competition_ranking(ranking_keys(self.trophies, self.history, self.final_tokens))

    def observation(self, seat: int) -> dict[str, Any]:
        return observation.build(self, seat)

    def observation_tensor(self, seat: int) -> list[float]:
        return tensor.encode(observation.build(self, seat))

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def render(self) -> str:
        return render.render(self)

    def __str__(self) -> str:
        return self.render()
