"""Helpers for the Lost Explorers tests: exact situations by naming chance.

Every test builds its situation from the initial state by applying explicit
chance outcomes (markers, the tokens coming into view, the first player,
the missions revealed), so the position it checks is exact. A few tests then
hand a player tokens with :func:`give`, to reach a position in one step that
play would take many turns to reach.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.lost_explorers import actions as A
from engines.lost_explorers.components import MISSIONS, VEHICLES, Components, default_components
from engines.lost_explorers.game import LostExplorersGame
from engines.lost_explorers.state import LostExplorersState

COMPONENTS = default_components()
GAME = LostExplorersGame()

# Markers drawn unless a test names its own: the first ones of the file's list.
DEFAULT_MARKERS = {2: ("Sphinx", "Chichén Itzá", "Taj Mahal", "Mount Fuji"),
                   3: ("Sphinx", "Chichén Itzá", "Taj Mahal"), 4: ("Sphinx", "Chichén Itzá")}
DEFAULT_VIEW = (("train", "car", "boat", "airship"), ("airship", "boat", "car", "train"))


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
    """The chance actions bringing tokens of the named vehicles into view."""
    return [A.REVEAL + vehicle(name) for name in names]


def setup(players: int = 3, *, first: int = 0, markers: Sequence[str] | None = None,
          view: Sequence[Sequence[str]] = DEFAULT_VIEW,
          flips: Sequence[tuple[str, int]] | None = None,
          components: Components | None = None) -> LostExplorersState:
    """A state at the first player's first turn, set up exactly as asked.

    ``flips``: per seat in turn order, the starting vehicle flipped and the index
    of the starting mission of that vehicle revealed (default: seat k flips its
    train and reveals the k-th starting train mission). ``components``: a crafted
    component set (same location names) instead of the shipped one.
    """
    state = (GAME.new_initial_state(players) if components is None
             else LostExplorersState(components, players))
    chosen = markers if markers is not None else DEFAULT_MARKERS[players]
    play(state, *(A.VALIDATE + place(name) for name in chosen))
    play(state, *reveal(*view[0]), *reveal(*view[1]), A.FIRST_PLAYER + first)
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
