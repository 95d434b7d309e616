"""A state rebuilt from a seat's observation (``Game.state_from_observation``).

What a seat does not see in Lost Explorers: the numbers on the others' clue
tiles, and the mission side of tokens still face down. The engine never
stores a face-down mission (it is drawn from the unrevealed missions of the
token's kind when the token turns over), so those pools are rebuilt exactly
from what was revealed (missions held, and ``completed_missions``). The
others' clue tiles are the one thing sampled: each seat gets as many tiles
as it holds, drawn at random from those the observing seat does not hold
(they change nothing before the game is won, only which tile numbers the
winner reveals).

The observation does not carry the component file (its missions' backs,
clue numbers and markers), so a rebuilt state uses the shipped one; an
observation whose locations or tracks differ from it is refused with a
``ValueError``. The observation must be one taken while a seat is on move.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

from engines.lost_explorers import phases as P
from engines.lost_explorers.components import (
    CLUE_TILES,
    TOKENS_PER_VEHICLE,
    VEHICLES,
    Components,
    default_components,
)
from engines.lost_explorers.state import LostExplorersState


@functools.cache
def _shipped_fingerprint() -> tuple[Any, ...]:
    components = default_components()
    return (list(components.location_names),
            [[VEHICLES[v] for v in route] for route in components.routes],
            list(components.track_names), list(components.track_length),
            [list(glasses) for glasses in components.glasses])


def _components(observation: Mapping[str, Any]) -> Components:
    seen = ([place["name"] for place in observation["locations"]],
            [place["route"] for place in observation["locations"]],
            [track["name"] for track in observation["tracks"]],
            [track["length"] for track in observation["tracks"]],
            [track["glasses"] for track in observation["tracks"]])
    if seen != _shipped_fingerprint():
        raise ValueError("lost-explorers: state_from_observation knows only the shipped "
                         "components; this observation shows other locations or tracks")
    return default_components()


def rebuild(observation: Mapping[str, Any], rng: random.Random) -> LostExplorersState:
    """A state behind ``observation`` (taken while a seat is on move); ``rng`` deals the
    others' clue tiles."""
    components = _components(observation)
    n = observation["num_players"]
    state = LostExplorersState(components, n)
    state.phase = state.step = P.NAMES.index(observation["phase"])
    state.player = observation["current_player"]
    if state.player < 0:
        raise ValueError("lost-explorers: state_from_observation needs an observation taken "
                         "while a seat is on move")
    state.first_player, state.turn = observation["first_player"], observation["turn"]
    state.markers_left = 0
    state.validated = [place["validated"] for place in observation["locations"]]
    state.occupant = [place["member"] if place["member"] is not None else -1
                      for place in observation["locations"]]
    state.stack_left = [stack["count"] for stack in observation["stacks"]]
    state.visible = [[VEHICLES.index(v) for v in stack["visible"]]
                     for stack in observation["stacks"]]
    state.end_triggered = not any(state.stack_left)
    state.discard = [observation["discard"][v] for v in VEHICLES]
    state.area_members = list(observation["equipment_areas"])
    state.sent = observation["sent_this_turn"]
    completing = observation["completing"]
    state.completing = completing["id"] if completing is not None else -1
    _players(state, observation["players"])
    state.flips = ((state.player - state.first_player) % n if state.phase == P.FLIP else n)
    _hidden(state, observation)
    _clues(state, observation, rng)
    return state


def _players(state: LostExplorersState, players: list[Mapping[str, Any]]) -> None:
    state.vehicles = [[p["vehicles"][v] for v in VEHICLES] for p in players]
    state.missions = [[mission["id"] for mission in p["missions"]] for p in players]
    state.members_front = [p["members_in_front"] for p in players]
    state.members_total = [p["members_total"] for p in players]
    state.leaders = [list(p["leaders"]) for p in players]


def _hidden(state: LostExplorersState, observation: Mapping[str, Any]) -> None:
    """The face-down missions and the tokens whose vehicle side no one has seen yet."""
    components = state.components
    revealed = set(observation["completed_missions"])
    for held in state.missions:
        revealed.update(held)
    pools = [components.stack_missions(v) for v in range(len(VEHICLES))]
    pools += [components.starting_missions(v) for v in range(len(VEHICLES))]
    state.hidden_missions = [[m for m in pool if m not in revealed] for pool in pools]
    # Every token of a vehicle is either unseen in a stack or seen somewhere: in a stack's
    # view, in front of a seat, in the discard area, or turned over as a mission.
    for v in range(len(VEHICLES)):
        seen = (sum(held[v] for held in state.vehicles) + state.discard[v]
                + sum(stack.count(v) for stack in state.visible)
                + sum(1 for held in state.missions for m in held
                      if components.mission_vehicle[m] == v))
        state.unseen_vehicles[v] = TOKENS_PER_VEHICLE + state.num_players - seen


def _clues(state: LostExplorersState, observation: Mapping[str, Any],
           rng: random.Random) -> None:
    """The observing seat's tiles by their numbers; the others' drawn from the rest."""
    numbers = state.components.clue_numbers
    seat = observation["seat"]
    free = list(range(CLUE_TILES))
    mine = []
    for number in observation["my_clues"]:
        tile = next(tile for tile in free if numbers[tile] == number)
        free.remove(tile)
        mine.append(tile)
    rng.shuffle(free)
    state.clues = []
    for other, player in enumerate(observation["players"]):
        if other == seat:
            state.clues.append(mine)
        else:
            state.clues.append(sorted(free[:player["clues"]]))
            del free[:player["clues"]]
    state.clue_pool = sorted(free)
