"""The table of a match: every component's position, compact and cheap to copy.

What no one can see is not stored: a Transport stack is the vehicle types
of its tokens in order (every one of them in view from setup on), a token's
mission is drawn when the token is turned mission side up, a clue tile's
number when it is taken. :class:`Table` holds the data and
answers questions about it; the rules that change it live in
:mod:`engines.lost_explorers.rules`.
"""

from __future__ import annotations

from typing import Any, Self

from engines.lost_explorers.components import (
    CLUE_TILES,
    LOCATIONS,
    TOKENS,
    TOKENS_PER_VEHICLE,
    VEHICLES,
    Components,
)
from engines.lost_explorers.phases import VALIDATE

STACK_SIZE = TOKENS // 2
MEMBERS_AT_START = 3
MARKERS_IN_PLAY = {2: 4, 3: 3, 4: 2}
FIRST_ROUND_MEMBERS = (1, 2, 3, 3)
"""Members each seat may send in its first turn, by its place in the turn order."""
BONUS_SLOT = 4
MAX_TURNS = 400
"""Safety cap: the game ends as if the stacks were empty after this many turns."""

# How the game ended, as shown in observations.
NOT_OVER, BY_CLUES, BY_STACKS, BY_TURN_LIMIT = range(4)
END_NAMES = ("", "clues", "stacks", "turn-limit")

SLOTS = ("components", "num_players", "phase", "step", "player", "first_player", "turn",
         "markers_left", "validated", "stack_left", "visible", "unseen_vehicles",
         "hidden_missions", "discard", "vehicles", "missions", "members_front",
         "members_total", "occupant", "leaders", "clues", "clue_pool", "flips", "area_members",
         "sent", "reveal_pool", "reveal_for", "completing", "clues_due",
         "end_triggered", "ended", "winner")
"""Every field of a table. :meth:`Table.copy` follows this list."""


def _copy(value: Any) -> Any:
    """A copy of one field: lists (and lists of lists) copied, everything else immutable."""
    if type(value) is not list:
        return value
    if value and type(value[0]) is list:
        return [inner[:] for inner in value]
    return value[:]


class Table:
    """The components on the table and the bookkeeping of the turn in progress."""

    __slots__ = SLOTS

    components: Components
    num_players: int
    phase: int
    step: int
    """The decision phase the match returns to once no chance node is due."""
    player: int
    first_player: int
    turn: int
    """Turns begun, counting from 0 (the first player's first turn)."""
    markers_left: int
    validated: list[bool]
    stack_left: list[int]
    visible: list[list[int]]
    """Per stack, the vehicle ids of its tokens in order (index 0 is the 1st token); all of
    them are in view once setup has set them out."""
    unseen_vehicles: list[int]
    """Per vehicle, stack tokens not set out yet (the setup chance nodes draw from them; none
    are left after setup)."""
    hidden_missions: list[list[int]]
    """Unrevealed missions: per vehicle the stack tokens' (0..3), then the starting ones' (4..7)."""
    discard: list[int]
    """Tokens in the discard area, per vehicle (taken back vehicle side up)."""
    vehicles: list[list[int]]
    """Per seat, vehicle tokens in front of them, per vehicle."""
    missions: list[list[int]]
    members_front: list[int]
    members_total: list[int]
    occupant: list[int]
    """Per location, the seat whose member is there, or -1."""
    leaders: list[list[int]]
    """Per seat, the slot (1-based) of the Expedition Leader on each track."""
    clues: list[list[int]]
    """Per seat, the clue tiles taken (tile ids into ``components.clue_numbers``)."""
    clue_pool: list[int]
    flips: int
    area_members: list[int]
    sent: int
    reveal_pool: int
    """The ``hidden_missions`` pool a token being turned mission side up draws from, or -1."""
    reveal_for: int
    completing: int
    clues_due: int
    """Clue tiles the mission being completed brings, drawn once its catch-up token is taken
    and its token discarded (RULINGS.md, ruling 25)."""
    end_triggered: bool
    ended: int
    winner: int

    def __init__(self, components: Components, num_players: int) -> None:
        n = num_players
        self.components, self.num_players = components, n
        self.phase = self.step = VALIDATE
        self.player = self.first_player = -1
        self.turn = 0
        self.markers_left = MARKERS_IN_PLAY[n]
        self.validated = [False] * LOCATIONS
        self.stack_left = [STACK_SIZE, STACK_SIZE]
        self.visible = [[], []]
        self.unseen_vehicles = [TOKENS_PER_VEHICLE] * len(VEHICLES)
        self.hidden_missions = [components.stack_missions(v) for v in range(len(VEHICLES))]
        self.hidden_missions += [components.starting_missions(v) for v in range(len(VEHICLES))]
        self.discard = [0] * len(VEHICLES)
        self.vehicles = [[1] * len(VEHICLES) for _ in range(n)]
        self.missions = [[] for _ in range(n)]
        self.members_front = [MEMBERS_AT_START] * n
        self.members_total = [MEMBERS_AT_START] * n
        self.occupant = [-1] * LOCATIONS
        self.leaders = [[1, 1] for _ in range(n)]
        self.clues = [[] for _ in range(n)]
        self.clue_pool = list(range(CLUE_TILES))
        self.flips = 0
        self.area_members = [0, 0]
        self.sent = 0
        self.reveal_pool = self.reveal_for = -1
        self.completing = -1
        self.clues_due = 0
        self.end_triggered = False
        self.ended, self.winner = NOT_OVER, -1

    def copy(self) -> Self:
        """An independent copy: every declared field copied (the components shared)."""
        other = type(self).__new__(type(self))
        for name in SLOTS:
            setattr(other, name, _copy(getattr(self, name)))
        return other

    # ------------------------------------------------------------ questions

    def token_count(self, seat: int) -> int:
        """Tokens in front of ``seat``: vehicles and missions."""
        return sum(self.vehicles[seat]) + len(self.missions[seat])

    def send_limit(self) -> int:
        """Members the player on move may still send this turn (first-round limits)."""
        if self.turn >= self.num_players:
            return self.members_front[self.player]
        order = (self.player - self.first_player) % self.num_players
        return min(self.members_front[self.player], FIRST_ROUND_MEMBERS[order] - self.sent)

    def can_reach(self, seat: int, location: int) -> bool:
        """True if ``seat`` holds every vehicle the route to ``location`` shows."""
        held = self.vehicles[seat]
        needs = self.components.route_needs[location]
        return all(held[v] >= count for v, count in enumerate(needs))

    def retrievable(self, mission: int) -> list[int]:
        """Locations of ``mission`` where the player on move has a member (one comes back)."""
        seat, occupant = self.player, self.occupant
        return [place for place in self.components.mission_locations[mission]
                if occupant[place] == seat and not self.validated[place]]

    def members_needed(self, mission: int) -> int:
        """Members a mission needs: its locations without a Validated Location marker."""
        validated = self.validated
        return sum(1 for place in self.components.mission_locations[mission]
                   if not validated[place])

    def rearmost(self, seat: int) -> int:
        """The slot of ``seat``'s least advanced Expedition Leader."""
        return min(self.leaders[seat])

    def clue_sum(self, seat: int) -> int:
        numbers = self.components.clue_numbers
        return sum(numbers[tile] for tile in self.clues[seat])
