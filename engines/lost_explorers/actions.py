"""The action encoding: one fixed id range per kind of move.

Decisions and chance outcomes have disjoint ids, so an id alone says what
happened (the state only adds names to it). ``L`` is a location id (0..11),
``V`` a vehicle id (0 train, 1 car, 2 boat, 3 airship), ``M`` a mission id
(0..79), ``A`` an Equipment area (0, 1), ``K`` the number of members sent
there (1..4: take the K-th token of the stack), ``S`` the side the token is
placed on (0 vehicle, 1 mission).

=======  ==============================================================
id       meaning
=======  ==============================================================
0-11     retrieve your member from location ``L`` (phase 1 start; phase 2
         when a completed mission leaves a choice)
12-27    Equipment action: ``12 + 8A + 2(K-1) + S``
28-75    Expedition action: ``28 + 4L + V``, send a member to ``L`` and
         discard the ``V`` among the route's vehicles
76       end phase 1 (go on to complete missions)
77-156   complete mission ``M`` (``77 + M``)
157      end the turn (members on Equipment areas come back)
158-161  catch-up: take a ``V`` token from the discard area
162-165  setup: flip your starting ``V`` token mission side up
166-177  chance: a Validated Location marker on ``L``
178-181  chance: setup, the next token set out in a stack is a ``V`` (stack
         0's 1st to 32nd token, then stack 1's)
182-185  chance: seat 0..3 is the first player
186-265  chance: the mission revealed is ``M``
266-278  chance: the clue tile drawn is tile 0..12
=======  ==============================================================
"""

from __future__ import annotations

from engines.lost_explorers.components import CLUE_TILES, LOCATIONS, MISSIONS, VEHICLES

AREAS = 2
MAX_SENT = 4
"""Members one Equipment action can send: the 4th token is the deepest one can take."""

RETRIEVE = 0
EQUIP = RETRIEVE + LOCATIONS
EXPEDITION = EQUIP + AREAS * MAX_SENT * 2
END_PHASE_1 = EXPEDITION + LOCATIONS * len(VEHICLES)
COMPLETE = END_PHASE_1 + 1
END_TURN = COMPLETE + MISSIONS
CATCH_UP = END_TURN + 1
FLIP = CATCH_UP + len(VEHICLES)
VALIDATE = FLIP + len(VEHICLES)
REVEAL = VALIDATE + LOCATIONS
FIRST_PLAYER = REVEAL + len(VEHICLES)
MISSION = FIRST_PLAYER + 4
CLUE = MISSION + MISSIONS
NUM_ACTIONS = CLUE + CLUE_TILES

VEHICLE_SIDE, MISSION_SIDE = 0, 1


def equip(area: int, sent: int, side: int) -> int:
    """The Equipment action sending ``sent`` members to ``area``, token placed on ``side``."""
    return EQUIP + area * MAX_SENT * 2 + (sent - 1) * 2 + side


def equip_parts(action: int) -> tuple[int, int, int]:
    """(area, members sent, side) of an Equipment action id."""
    offset = action - EQUIP
    return offset // (MAX_SENT * 2), offset % (MAX_SENT * 2) // 2 + 1, offset % 2


def expedition(location: int, vehicle: int) -> int:
    """The Expedition action to ``location`` discarding a ``vehicle``."""
    return EXPEDITION + location * len(VEHICLES) + vehicle


def expedition_parts(action: int) -> tuple[int, int]:
    """(location, discarded vehicle) of an Expedition action id."""
    return divmod(action - EXPEDITION, len(VEHICLES))


_RANGES = (
    ("retrieve", RETRIEVE, EQUIP), ("equip", EQUIP, EXPEDITION),
    ("expedition", EXPEDITION, END_PHASE_1), ("end-phase-1", END_PHASE_1, COMPLETE),
    ("complete", COMPLETE, END_TURN), ("end-turn", END_TURN, CATCH_UP),
    ("catch-up", CATCH_UP, FLIP), ("flip", FLIP, VALIDATE), ("validate", VALIDATE, REVEAL),
    ("reveal", REVEAL, FIRST_PLAYER), ("first-player", FIRST_PLAYER, MISSION),
    ("mission", MISSION, CLUE), ("clue", CLUE, NUM_ACTIONS),
)


def kind(action: int) -> str:
    """The family an id belongs to (the names of the table above), or ``unknown``."""
    for name, start, stop in _RANGES:
        if start <= action < stop:
            return name
    return "unknown"
