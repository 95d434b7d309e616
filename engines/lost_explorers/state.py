"""The engine contract for Lost Explorers: legality, chance, views.

:class:`LostExplorersState` adds to the rules
(:mod:`engines.lost_explorers.rules`) what the referee asks for: who is on
move, the legal actions, the chance outcomes, scores and ranking,
observations and text.
"""

from __future__ import annotations

from typing import Any

from arena.game import CHANCE, TERMINAL, State, competition_ranking
from engines.lost_explorers import actions as A
from engines.lost_explorers import observation, render
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import LOCATIONS, VEHICLES
from engines.lost_explorers.describe import describe_action
from engines.lost_explorers.rules import Rules
from engines.lost_explorers.scoring import ranking_keys

_VEHICLE_IDS = range(len(VEHICLES))


class LostExplorersState(Rules, State):
    """One position of a game of Lost Explorers."""

    __slots__ = ()

    def current_player(self) -> int:
        if self.phase < P.FLIP:
            return CHANCE
        return TERMINAL if self.phase == P.OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == P.OVER

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == P.PHASE_1:
            return self._phase_one_actions()
        if phase == P.PHASE_2:
            missions = sorted(self.missions[self.player])
            return [A.COMPLETE + m for m in missions if self.can_complete(m)] + [A.END_TURN]
        if phase == P.RETRIEVE_PICK:
            return [A.RETRIEVE + place for place in self.retrievable(self.completing)]
        if phase == P.CATCH_UP:
            return [A.CATCH_UP + v for v in _VEHICLE_IDS if self.discard[v]]
        if phase == P.FLIP:
            return [A.FLIP + v for v in _VEHICLE_IDS if self.vehicles[self.player][v]]
        return [action for action, _ in self.chance_outcomes()]

    def _phase_one_actions(self) -> list[int]:
        seat, occupant = self.player, self.occupant
        legal = [A.RETRIEVE + place for place in range(LOCATIONS)
                 if occupant[place] == seat] if not self.sent else []
        limit = self.send_limit()
        if limit > 0:
            for area in (0, 1):
                if not self.area_members[area]:
                    for sent in range(1, min(limit, len(self.visible[area])) + 1):
                        first = A.equip(area, sent, A.VEHICLE_SIDE)
                        legal += (first, first + 1)
            routes, validated = self.components.routes, self.validated
            for place in range(LOCATIONS):
                if not validated[place] and occupant[place] != seat and self.can_reach(seat,
                                                                                      place):
                    legal += [A.expedition(place, v) for v in sorted(set(routes[place]))]
        legal.append(A.END_PHASE_1)
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == P.REVEAL:
            unseen = self.unseen_vehicles
            total = sum(unseen)
            return [(A.REVEAL + v, unseen[v] / total) for v in _VEHICLE_IDS if unseen[v]]
        if phase == P.MISSION_DRAW:
            pool = self.hidden_missions[self.reveal_pool]
            return [(A.MISSION + m, 1 / len(pool)) for m in pool]
        if phase == P.CLUE_DRAW:
            return [(A.CLUE + tile, 1 / len(self.clue_pool)) for tile in self.clue_pool]
        if phase == P.VALIDATE:
            left = [place for place in self.components.markers if not self.validated[place]]
            return [(A.VALIDATE + place, 1 / len(left)) for place in sorted(left)]
        if phase == P.FIRST_PLAYER:
            n = self.num_players
            return [(A.FIRST_PLAYER + seat, 1 / n) for seat in range(n)]
        return []

    def apply_action(self, action: int) -> None:
        if (not isinstance(action, int) or isinstance(action, bool)
                or action not in self.legal_actions()):
            raise ValueError(f"lost-explorers: action {action!r} is not legal in phase "
                             f"{P.NAMES[self.phase]} (legal: {self.legal_actions()})")
        self.play(action)

    def clone(self) -> LostExplorersState:
        return self.copy()

    def scores(self) -> list[float]:
        return [float(len(tiles)) for tiles in self.clues]

    def ranking(self) -> list[int]:
        return competition_ranking(ranking_keys(self))

    def observation(self, seat: int) -> dict[str, Any]:
        return observation.build(self, seat)

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def render(self) -> str:
        return render.render(self)

    def __str__(self) -> str:
        return self.render()
