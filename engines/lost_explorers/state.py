"""The engine contract for Lost Explorers: legality, chance, views.

:class:`LostExplorersState` adds to the rules
(:mod:`engines.lost_explorers.rules`) what the referee asks for: who is on
move, the legal actions, the chance outcomes, scores and ranking,
observations and text.
"""

from __future__ import annotations

import functools
from typing import Any

from arena.game import CHANCE, TERMINAL, State, competition_ranking
from engines.lost_explorers import actions as A
from engines.lost_explorers import observation, render, tensor
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import LOCATIONS, VEHICLES, Components
from engines.lost_explorers.describe import describe_action
from engines.lost_explorers.rules import Rules
from engines.lost_explorers.scoring import ranking_keys

_VEHICLE_IDS = range(len(VEHICLES))


@functools.cache
def expedition_table(components: Components) -> tuple[tuple[tuple[tuple[int, int], ...],
                                                             tuple[int, ...]], ...]:
    """Per location: the (vehicle, count) pairs its route needs, and its Expedition action
    ids (one per distinct vehicle to discard), in increasing order."""
    return tuple((tuple((v, n) for v, n in enumerate(components.route_needs[place]) if n),
                  tuple(A.expedition(place, v) for v in sorted(set(components.routes[place]))))
                 for place in range(LOCATIONS))


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
            return self._phase_two_actions()
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
            held, validated = self.vehicles[seat], self.validated
            for place, (needs, ids) in enumerate(expedition_table(self.components)):
                if (not validated[place] and occupant[place] != seat
                        and all(held[v] >= count for v, count in needs)):
                    legal += ids
        legal.append(A.END_PHASE_1)
        return legal

    def _phase_two_actions(self) -> list[int]:
        """The missions whose every location holds a member of the player or a marker.

        A mission whose every location is validated needs no member: it is complete by itself
        (RULINGS.md, ruling 15).
        """
        seat, occupant, validated = self.player, self.occupant, self.validated
        places = self.components.mission_locations
        legal = []
        for mission in sorted(self.missions[seat]):
            if all(occupant[place] == seat or validated[place] for place in places[mission]):
                legal.append(A.COMPLETE + mission)
        legal.append(A.END_TURN)
        return legal

    def _phase_one_allows(self, action: int) -> bool:
        """``action in self._phase_one_actions()``, without building the list."""
        seat = self.player
        if action < A.EQUIP:
            return action >= 0 and not self.sent and self.occupant[action] == seat
        if action < A.EXPEDITION:
            area, sent, _ = A.equip_parts(action)
            return (not self.area_members[area]
                    and sent <= min(self.send_limit(), len(self.visible[area])))
        if action < A.END_PHASE_1:
            place, vehicle = A.expedition_parts(action)
            return (self.send_limit() > 0 and not self.validated[place]
                    and self.occupant[place] != seat
                    and vehicle in self.components.routes[place] and self.can_reach(seat, place))
        return action == A.END_PHASE_1

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

    def is_legal(self, action: int) -> bool:
        """``action in self.legal_actions()``, quicker where it is asked most (phase 1)."""
        if not isinstance(action, int) or isinstance(action, bool):
            return False
        if self.phase == P.PHASE_1:
            return self._phase_one_allows(action)
        return action in self.legal_actions()

    def apply_action(self, action: int) -> None:
        if not self.is_legal(action):
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

    def observation_tensor(self, seat: int) -> list[float]:
        return tensor.encode(observation.build(self, seat))

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def render(self) -> str:
        return render.render(self)

    def render_for(self, seat: int) -> str:
        """The table without the other seats' clue numbers (until the game is over)."""
        return render.render(self, viewer=seat)

    def action_to_string_for(self, seat: int, action: int) -> str:
        """Another seat's clue tile drawn is told without its number (until the game is
        over); everything else as :meth:`action_to_string`."""
        if (not self.ended and A.kind(action) == "clue" and self.phase == P.CLUE_DRAW
                and self.player != seat):
            return f"seat {self.player} takes a clue tile (its number is hidden)"
        return describe_action(self, action)

    def __str__(self) -> str:
        return self.render()
