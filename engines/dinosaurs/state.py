"""The engine contract for Lost Valley of the Dinosaurs: legality, chance, views.

:class:`DinosaursState` adds to the rules (:mod:`engines.dinosaurs.rules`)
what the referee asks for: who is on move, the legal actions, the chance
outcomes, scores and ranking, observations and text.
"""

from __future__ import annotations

from typing import Any

from arena.game import CHANCE, TERMINAL, State, competition_ranking
from engines.dinosaurs import actions as A
from engines.dinosaurs import observation, render, tensor
from engines.dinosaurs.describe import describe_action
from engines.dinosaurs.legal import DECISIONS
from engines.dinosaurs.phases import DRAW, FIRST_PLAYER, MOVE_PICK, MOVE_ROLL, NAMES, OVER
from engines.dinosaurs.rules import Rules


class DinosaursState(Rules, State):
    """One position of a match of Lost Valley of the Dinosaurs."""

    __slots__ = ()

    def current_player(self) -> int:
        if self.phase < MOVE_PICK:
            return CHANCE
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase < MOVE_PICK:
            return [action for action, _ in self.chance_outcomes()]
        if phase == OVER:
            return []
        return DECISIONS[phase](self)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == DRAW:
            left = sum(self.deck)
            return [(A.CARD + card, count / left) for card, count in enumerate(self.deck)
                    if count]
        if phase == MOVE_ROLL:
            return A.DICE_OUTCOMES[:] if self.carrying[self.mover] else A.DIE_OUTCOMES[:]
        if phase == FIRST_PLAYER:
            return [(A.FIRST_PLAYER + seat, 1 / self.num_players)
                    for seat in range(self.num_players)]
        if phase < MOVE_PICK:  # the water run's two dice
            return A.DICE_OUTCOMES[:]
        return []

    def apply_action(self, action: int) -> None:
        if (not isinstance(action, int) or isinstance(action, bool)
                or action not in self.legal_actions()):
            raise ValueError(f"dinosaurs: action {action!r} is not legal in phase "
                             f"{NAMES[self.phase]} (legal: {self.legal_actions()})")
        self.play(action)

    def clone(self) -> DinosaursState:
        return self.copy()

    def scores(self) -> list[float]:
        return [float(count) for count in self.coins_out]

    def ranking(self) -> list[int]:
        """Most coins brought out, then most explorers alive; equal places if still tied."""
        return competition_ranking([self.standing(seat) for seat in range(self.num_players)])

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
