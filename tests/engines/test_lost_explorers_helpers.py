"""Helpers for the Lost Explorers tests: exact situations by naming chance.

Every test builds its situation from the initial state by applying explicit
chance outcomes (markers, every token of both stacks as setup sets them out,
the first player, the missions revealed), so the position it checks is exact. A few tests then
hand a player tokens with :func:`give`, to reach a position in one step that
play would take many turns to reach.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.lost_explorers import actions as A
from engines.lost_explorers.components import (
    MISSIONS,
    TOKENS_PER_VEHICLE,
    VEHICLES,
    Components,
    default_components,
)
from engines.lost_explorers.game import LostExplorersGame
from engines.lost_explorers.state import LostExplorersState
from engines.lost_explorers.table import STACK_SIZE

COMPONENTS = default_components()
GAME = LostExplorersGame()

# Markers drawn unless a test names its own: the first ones of the file's list.
DEFAULT_MARKERS = {2: ("Sphinx", "Chichén Itzá", "Taj Mahal", "Mount Fuji"),
                   3: ("Sphinx", "Chichén Itzá", "Taj Mahal"), 4: ("Sphinx", "Chichén Itzá")}


def stacks(tops: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both stacks in full, 32 tokens each from the 1st down: each starts with the vehicles
    ``tops`` names for it; the tokens left (16 per vehicle in all) follow, dealt round
    train, car, boat, airship, to stack 0 first."""
    left = dict.fromkeys(VEHICLES, TOKENS_PER_VEHICLE)
    for top in tops:
        for name in top:
            left[name] -= 1
    rest: list[str] = []
    while any(left.values()):
        for name in VEHICLES:
            if left[name]:
                rest.append(name)
                left[name] -= 1
    first = [*tops[0], *rest[:STACK_SIZE - len(tops[0])]]
    return tuple(first), (*tops[1], *rest[STACK_SIZE - len(tops[0]):])


DEFAULT_VIEW = stacks((("train", "car", "boat", "airship"), ("airship", "boat", "car", "train")))
"""The stacks unless a test names its own: 1st token first, every token's type in view."""


def place(name: str) -> int:
    """The id of the location called ``name``."""
    return COMPONENTS.location_names.index(name)


def vehicle(name: str) -> int:
    return VEHICLES.index(name)


def mission(vehicle_name: str, *places: str) -> int:
    """The id of the mission of ``vehicle_name`` on exactly ``places``."""
    wanted = tuple(sorted(place(name) for name in places))
    kind = vehicle(vehicle_name)
    return next(m for m in range(MISSIONS) if COMPONENTS.mission_locations[m] == wanted
                and COMPONENTS.mission_vehicle[m] == kind)


def starting(vehicle_name: str, index: int = 0) -> int:
    """The ``index``-th starting mission of ``vehicle_name``."""
    return COMPONENTS.starting_missions(vehicle(vehicle_name))[index]


def play(state: LostExplorersState, *actions: int) -> LostExplorersState:
    """Apply ``actions`` in order (decisions and chance outcomes alike)."""
    for action in actions:
        state.apply_action(action)
    return state


def reveal(*names: str) -> list[int]:
    """The chance actions setting out tokens of the named vehicles (setup)."""
    return [A.REVEAL + vehicle(name) for name in names]


def setup(players: int = 3, *, first: int = 0, markers: Sequence[str] | None = None,
          view: Sequence[Sequence[str]] = DEFAULT_VIEW,
          flips: Sequence[tuple[str, int]] | None = None,
          components: Components | None = None) -> LostExplorersState:
    """A state at the first player's first turn, set up exactly as asked.

    ``view``: the first tokens of each stack, 1st first; the rest are filled in by
    :func:`stacks`. ``flips``: per seat in turn order, the starting vehicle flipped and the index
    of the starting mission of that vehicle revealed (default: seat k flips its
    train and reveals the k-th starting train mission). ``components``: a crafted
    component set (same location names) instead of the shipped one.
    """
    state = (GAME.new_initial_state(players) if components is None
             else LostExplorersState(components, players))
    chosen = markers if markers is not None else DEFAULT_MARKERS[players]
    play(state, *(A.VALIDATE + place(name) for name in chosen))
    full = stacks(view)
    play(state, *reveal(*full[0]), *reveal(*full[1]), A.FIRST_PLAYER + first)
    for name, index in flips or [("train", k) for k in range(players)]:
        play(state, A.FLIP + vehicle(name), A.MISSION + starting(name, index))
    return state


def give(state: LostExplorersState, seat: int, *, vehicles: Sequence[str] = (),
         missions: Sequence[int] = ()) -> LostExplorersState:
    """Put vehicle tokens and mission tokens in front of ``seat`` (a test shortcut)."""
    for name in vehicles:
        state.vehicles[seat][vehicle(name)] += 1
    for m in missions:
        state.missions[seat].append(m)
        pool = state.hidden_missions[COMPONENTS.mission_vehicle[m] + (4 if m >= 64 else 0)]
        if m in pool:
            pool.remove(m)
    return state


def go(state: LostExplorersState, location: str, discard: str) -> LostExplorersState:
    """The player on move sends a member to ``location`` discarding a ``discard``."""
    return play(state, A.expedition(place(location), vehicle(discard)))


def end_turn(state: LostExplorersState) -> LostExplorersState:
    """Finish the turn of the player on move without completing anything."""
    return play(state, A.END_PHASE_1, A.END_TURN)
