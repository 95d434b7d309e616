"""Readable names for action ids (``action_to_string``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.lost_explorers import actions as A
from engines.lost_explorers.components import MISSIONS, VEHICLES, Components

if TYPE_CHECKING:
    from engines.lost_explorers.state import LostExplorersState

_SIDES = ("vehicle side up", "mission side up")


def a_vehicle(vehicle: int) -> str:
    """``a car``, ``an airship``."""
    name = VEHICLES[vehicle]
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def mission_label(components: Components, mission: int) -> str:
    """A mission's id, vehicle, locations and track, on one line."""
    if not 0 <= mission < MISSIONS:
        return f"mission #{mission}"
    places = " + ".join(components.location_names[p]
                        for p in components.mission_locations[mission])
    return (f"mission #{mission} ({VEHICLES[components.mission_vehicle[mission]]}: {places}, "
            f"{components.track_names[components.mission_track[mission]]} track)")


def _equip(state: LostExplorersState, action: int) -> str:
    area, sent, side = A.equip_parts(action)
    visible = state.visible[area]
    token = VEHICLES[visible[sent - 1]] if sent <= len(visible) else "token"
    members = "member" if sent == 1 else "members"
    return (f"{sent} {members} to Equipment area {area}: take the {token} "
            f"(token {sent} of stack {area}) {_SIDES[side]}")


def _expedition(state: LostExplorersState, action: int) -> str:
    place, vehicle = A.expedition_parts(action)
    name = state.components.location_names[place]
    text = f"send a member to {name}, discarding {a_vehicle(vehicle)}"
    displaced = state.occupant[place]
    if displaced >= 0 and displaced != state.player:
        text += f" (displaces seat {displaced})"
    return text


def _named(state: LostExplorersState, family: str, value: int) -> str:
    components = state.components
    if family == "retrieve":
        return f"retrieve your member from {components.location_names[value]}"
    if family == "complete":
        return f"complete {mission_label(components, value)}"
    if family == "catch-up":
        return f"take {a_vehicle(value)} from the discard area"
    if family == "flip":
        return f"flip your starting {VEHICLES[value]} token mission side up"
    if family == "validate":
        return f"Validated Location marker on {components.location_names[value]}"
    if family == "reveal":
        stack = state.stack_to_reveal()
        where = (f"token {len(state.visible[stack]) + 1} of stack {stack}" if stack >= 0
                 else "a stack's next token")
        return f"{where} is {a_vehicle(value)}"
    if family == "first-player":
        return f"seat {value} goes first"
    if family == "mission":
        return f"revealed {mission_label(components, value)}"
    return f"clue tile {value} (number {components.clue_numbers[value]})"


_STARTS = {"retrieve": A.RETRIEVE, "complete": A.COMPLETE, "catch-up": A.CATCH_UP,
           "flip": A.FLIP, "validate": A.VALIDATE, "reveal": A.REVEAL,
           "first-player": A.FIRST_PLAYER, "mission": A.MISSION, "clue": A.CLUE}


def describe_action(state: LostExplorersState, action: int) -> str:
    """A stable, human-readable name of ``action`` in ``state``."""
    family = A.kind(action) if isinstance(action, int) else "unknown"
    if family == "unknown":
        return f"unknown action {action}"
    if family == "equip":
        return _equip(state, action)
    if family == "expedition":
        return _expedition(state, action)
    if family == "end-phase-1":
        return "end phase 1: go on to complete missions"
    if family == "end-turn":
        return "end the turn"
    return _named(state, family, action - _STARTS[family])

