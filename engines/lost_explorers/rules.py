"""The rules: how each move changes the table.

:class:`Rules` applies chance outcomes and decisions already checked for
legality by :class:`~engines.lost_explorers.state.LostExplorersState`. After
any move, :meth:`Rules._settle` decides what comes next: a chance node that
is due (a marker to place, a stack's token to set out at setup, a mission or a
clue to reveal) or else the decision the turn is at.
"""

from __future__ import annotations

from engines.lost_explorers import actions as A
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import CLUES_TO_WIN, VEHICLES
from engines.lost_explorers.table import (
    BONUS_SLOT,
    BY_CLUES,
    BY_STACKS,
    BY_TURN_LIMIT,
    MAX_TURNS,
    MEMBERS_AT_START,
    Table,
)

_STARTING_POOL = len(VEHICLES)
"""``hidden_missions`` index of the starting tokens of vehicle 0 (then 1, 2, 3)."""


class Rules(Table):
    """The moves of the game as methods on the table."""

    __slots__ = ()

    def play(self, action: int) -> None:
        """Apply ``action``, already known to be legal, then settle what comes next."""
        phase = self.phase
        if phase == P.PHASE_1:
            self._phase_one(action)
        elif phase == P.PHASE_2:
            self._phase_two(action)
        elif phase == P.RETRIEVE_PICK:
            self._complete(action - A.RETRIEVE)
        elif phase == P.CATCH_UP:
            self._catch_up(action - A.CATCH_UP)
        elif phase == P.FLIP:
            self._flip(action - A.FLIP)
        else:
            self._chance(action)
        self._settle()

    def stack_to_reveal(self) -> int:
        """The stack whose next token is to be set out (at setup only: stack 0's 32 tokens,
        then stack 1's), or -1."""
        for stack in (0, 1):
            if len(self.visible[stack]) < self.stack_left[stack]:
                return stack
        return -1

    def _settle(self) -> None:
        if self.ended:
            self.phase = P.OVER
        elif self.markers_left:
            self.phase = P.VALIDATE
        elif self.stack_to_reveal() >= 0:
            self.phase = P.REVEAL
        elif self.first_player < 0:
            self.phase = P.FIRST_PLAYER
        elif self.reveal_pool >= 0:
            self.phase = P.MISSION_DRAW
        elif self.clues_due and self.step != P.CATCH_UP:  # the tiles come last (ruling 25)
            self.phase = P.CLUE_DRAW
        else:
            self.phase = self.step

    # -------------------------------------------------------------- chance

    def _chance(self, action: int) -> None:
        phase = self.phase
        if phase == P.VALIDATE:
            self.validated[action - A.VALIDATE] = True
            self.markers_left -= 1
        elif phase == P.REVEAL:
            vehicle = action - A.REVEAL
            self.visible[self.stack_to_reveal()].append(vehicle)
            self.unseen_vehicles[vehicle] -= 1
        elif phase == P.FIRST_PLAYER:
            self.first_player = self.player = action - A.FIRST_PLAYER
            self.step = P.FLIP
        elif phase == P.MISSION_DRAW:
            mission = action - A.MISSION
            self.hidden_missions[self.reveal_pool].remove(mission)
            self.missions[self.reveal_for].append(mission)
            self.reveal_pool = self.reveal_for = -1
        else:
            self._clue(action - A.CLUE)

    def _clue(self, tile: int) -> None:
        """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
        "Clue" tile", the mission's last step (ruling 25). The fourth one wins at once."""
        seat = self.player
        self.clue_pool.remove(tile)
        self.clues[seat].append(tile)
        self.clues_due -= 1
        if len(self.clues[seat]) >= CLUES_TO_WIN:
            self.ended, self.winner, self.clues_due = BY_CLUES, seat, 0

    # ---------------------------------------------------------------- setup

    def _flip(self, vehicle: int) -> None:
        """Flip one starting token mission side up; its mission is revealed by chance."""
        seat = self.player
        self.vehicles[seat][vehicle] -= 1
        self._reveal_mission(seat, _STARTING_POOL + vehicle)
        self.flips += 1
        if self.flips < self.num_players:
            self.player = (seat + 1) % self.num_players
            return
        self.player, self.turn, self.sent = self.first_player, 0, 0
        self.step = P.PHASE_1

    def _reveal_mission(self, seat: int, pool: int) -> None:
        """The next chance node draws the mission of ``seat``'s new token from ``pool``."""
        self.reveal_for, self.reveal_pool = seat, pool

    # -------------------------------------------------------------- phase 1

    def _phase_one(self, action: int) -> None:
        if action < A.EQUIP:
            self.occupant[action - A.RETRIEVE] = -1
            self.members_front[self.player] += 1
        elif action < A.EXPEDITION:
            self._equip(*A.equip_parts(action))
        elif action < A.END_PHASE_1:
            self._expedition(*A.expedition_parts(action))
        else:
            self.step = P.PHASE_2

    def _equip(self, area: int, sent: int, side: int) -> None:
        """Gain the ``sent``-th token of the area's stack, on ``side``, never to be flipped."""
        seat = self.player
        self.members_front[seat] -= sent
        self.area_members[area] = sent
        self.sent += sent
        vehicle = self.visible[area].pop(sent - 1)
        self.stack_left[area] -= 1
        if side == A.VEHICLE_SIDE:
            self.vehicles[seat][vehicle] += 1
        else:
            self._reveal_mission(seat, vehicle)
        if not any(self.stack_left):
            self.end_triggered = True

    def _expedition(self, location: int, vehicle: int) -> None:
        """Send a member to ``location``; the discarded vehicle goes to a displaced member's
        owner (with the member), or else to the discard area."""
        seat = self.player
        self.members_front[seat] -= 1
        self.sent += 1
        self.vehicles[seat][vehicle] -= 1
        displaced = self.occupant[location]
        if displaced >= 0:
            self.members_front[displaced] += 1
            self.vehicles[displaced][vehicle] += 1
        else:
            self.discard[vehicle] += 1
        self.occupant[location] = seat

    # -------------------------------------------------------------- phase 2

    def _phase_two(self, action: int) -> None:
        if action == A.END_TURN:
            self._end_turn()
            return
        self.completing = action - A.COMPLETE
        places = self.retrievable(self.completing)
        if len(places) <= 1:  # none: every location validated, no member to retrieve
            self._complete(places[0] if places else -1)
        else:
            self.step = P.RETRIEVE_PICK

    def _complete(self, place: int) -> None:
        """Retrieve the member on ``place`` (none if -1), advance the Leader, maybe take a
        catch-up token, discard the mission; the clue tiles its move brings are drawn after
        (RULINGS.md, ruling 25)."""
        seat, mission = self.player, self.completing
        if place >= 0:
            self.occupant[place] = -1
            self.members_front[seat] += 1
        track = self.components.mission_track[mission]
        leaders = self.leaders[seat]
        before = leaders[track]
        after = min(before + self.members_needed(mission),
                    self.components.track_length[track])
        leaders[track] = after
        self.clues_due += sum(1 for slot in self.components.glasses[track]
                              if before < slot <= after)
        kinds = [vehicle for vehicle, count in enumerate(self.discard) if count]
        # "If you move forward an Expedition Leader whose position was equal or lower...":
        # a Leader that does not move (no member needed, or on the last slot) takes nothing.
        if before < after and before <= leaders[1 - track] and kinds:
            if len(kinds) > 1:
                self.step = P.CATCH_UP  # the clue tiles due wait for the choice
                return
            self._catch_up(kinds[0])
            return
        self._discard_mission()

    def _catch_up(self, vehicle: int) -> None:
        self.discard[vehicle] -= 1
        self.vehicles[self.player][vehicle] += 1
        self._discard_mission()

    def _discard_mission(self) -> None:
        """The completed mission goes to the discard area; then the 4th member bonus."""
        seat, mission = self.player, self.completing
        self.missions[seat].remove(mission)
        self.discard[self.components.mission_vehicle[mission]] += 1
        self.completing = -1
        if self.members_total[seat] == MEMBERS_AT_START and self.rearmost(seat) >= BONUS_SLOT:
            self.members_total[seat] += 1
            self.members_front[seat] += 1
        self.step = P.PHASE_2

    def _end_turn(self) -> None:
        """Members on the Equipment areas come back; the game may end; the next seat plays."""
        self.members_front[self.player] += sum(self.area_members)
        self.area_members = [0, 0]
        self.sent = 0
        if self.end_triggered:
            self.ended = BY_STACKS
        elif self.turn + 1 >= MAX_TURNS:
            self.ended = BY_TURN_LIMIT
        else:
            self.turn += 1
            self.player = (self.player + 1) % self.num_players
            self.step = P.PHASE_1
