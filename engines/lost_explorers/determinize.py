"""A state rebuilt from a seat's observation (``Game.state_from_observation``).

What a seat does not see in Lost Explorers: the numbers on the others' clue
tiles, and the mission side of tokens still face down. The vehicle type of
every stack token is in view from setup on, in order (``stacks``), so the
stacks are rebuilt as they are. The engine never stores a face-down mission
(it is drawn from the unrevealed missions of the token's kind when the token
turns over), so those pools are rebuilt exactly from what was revealed
(missions held, and ``completed_missions``): an unknown mission side stays
a chance outcome of the rebuilt state, drawn when the token is turned over,
never fixed in advance. The others' clue tiles are the one thing sampled:
each seat gets as many tiles as it holds, drawn at random from those the
observing seat does not hold (they change nothing before the game is won,
only which tile numbers the winner reveals).

The components come from the observation: its locations and tracks, and
its ``box`` (every mission, the markers, the clue numbers), so a game played
with a user's own component file is rebuilt with that file's contents. The
observation must be one taken while a seat is on move. It may be edited first, to set up
a position by hand; :mod:`engines.lost_explorers.consistency` refuses one that
contradicts itself.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping
from typing import Any

from engines.lost_explorers import consistency
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import (
    CLUE_TILES,
    VEHICLES,
    Components,
    default_components,
)
from engines.lost_explorers.observation import box_view
from engines.lost_explorers.state import LostExplorersState


def _components(observation: Mapping[str, Any]) -> Components:
    """The component set the observation shows (the shipped one when it is that)."""
    box = observation.get("box")
    if box is None:
        raise ValueError("lost-explorers: state_from_observation needs the observation's "
                         "'box' (its missions, markers and clue numbers)")
    seen = _BY_BOX.get(id(box))
    if seen is not None and seen[0] is box:  # the match's shared box: known already
        return seen[1]
    locations, tracks = observation["locations"], observation["tracks"]
    key = json.dumps([[(place["name"], place["route"]) for place in locations],
                      [(track["name"], track["length"], track["glasses"]) for track in tracks],
                      box], sort_keys=True)
    components = _built(key)
    if len(_BY_BOX) >= 4:
        _BY_BOX.clear()
    _BY_BOX[id(box)] = (box, components)
    return components


_BY_BOX: dict[int, tuple[Any, Components]] = {}
"""The components of the last few ``box`` objects seen: an observation's box is one shared
object through a match (in-process, and in a sandboxed host, which keeps it), so a search
rebuilding many states skips the key."""


@functools.lru_cache(maxsize=8)
def _built(key: str) -> Components:
    """Components from the JSON ``key`` of :func:`_components` (cached: a search rebuilds many
    states from observations of one match)."""
    places, tracks, box = json.loads(key)
    shipped = default_components()
    if key == _shipped_key(shipped):
        return shipped
    names = [name for name, _ in places]
    routes = [tuple(VEHICLES.index(v) for v in route) for _, route in places]
    missions = box["missions"]
    return Components(
        location_names=tuple(names), routes=tuple(routes),
        route_needs=tuple(tuple(route.count(v) for v in range(len(VEHICLES)))
                          for route in routes),
        markers=tuple(box["markers"]),
        mission_vehicle=tuple(VEHICLES.index(m["vehicle"]) for m in missions),
        mission_locations=tuple(tuple(m["locations"]) for m in missions),
        mission_track=tuple(m["track"] for m in missions),
        track_names=tuple(name for name, _, _ in tracks),
        track_length=tuple(length for _, length, _ in tracks),
        glasses=tuple(tuple(glasses) for _, _, glasses in tracks),
        clue_numbers=tuple(box["clue_numbers"]), source="observation")


@functools.cache
def _shipped_key(shipped: Components) -> str:
    """The :func:`_components` key of the shipped components' observation."""
    return json.dumps([[(name, [VEHICLES[v] for v in shipped.routes[place]])
                        for place, name in enumerate(shipped.location_names)],
                       [(name, shipped.track_length[track], list(shipped.glasses[track]))
                        for track, name in enumerate(shipped.track_names)],
                       dict(box_view(shipped))], sort_keys=True)


def rebuild(observation: Mapping[str, Any], rng: random.Random) -> LostExplorersState:
    """A state behind ``observation`` (taken while a seat is on move); ``rng`` deals the
    others' clue tiles."""
    components = _components(observation)
    if observation["current_player"] < 0:
        raise ValueError("lost-explorers: state_from_observation needs an observation taken "
                         "while a seat is on move")
    consistency.check(observation, components)
    n = observation["num_players"]
    state = LostExplorersState(components, n)
    state.phase = state.step = P.NAMES.index(observation["phase"])
    state.player = observation["current_player"]
    state.first_player, state.turn = observation["first_player"], observation["turn"]
    state.markers_left = 0
    state.validated = [place["validated"] for place in observation["locations"]]
    state.occupant = [place["member"] if place["member"] is not None else -1
                      for place in observation["locations"]]
    state.stack_left = [stack["count"] for stack in observation["stacks"]]
    state.visible = [[VEHICLES.index(v) for v in stack["visible"]]
                     for stack in observation["stacks"]]
    if [len(stack) for stack in state.visible] != state.stack_left:
        raise ValueError("lost-explorers: state_from_observation needs every stack token's "
                         "vehicle in the observation's 'stacks' (one per token counted)")
    state.unseen_vehicles = [0] * len(VEHICLES)  # every stack token was set out at setup
    state.end_triggered = not any(state.stack_left)
    state.discard = [observation["discard"].get(v, 0) for v in VEHICLES]
    state.area_members = list(observation["equipment_areas"])
    state.sent = observation["sent_this_turn"]
    completing = observation["completing"]
    state.completing = completing["id"] if completing is not None else -1
    state.clues_due = completing.get("clue_tiles", 0) if completing is not None else 0
    _players(state, observation["players"])
    state.flips = ((state.player - state.first_player) % n if state.phase == P.FLIP else n)
    _hidden(state, observation)
    _clues(state, observation, rng)
    return state


def _players(state: LostExplorersState, players: list[Mapping[str, Any]]) -> None:
    state.vehicles = [[p["vehicles"].get(v, 0) for v in VEHICLES] for p in players]
    state.missions = [[mission["id"] for mission in p["missions"]] for p in players]
    state.members_front = [p["members_in_front"] for p in players]
    state.members_total = [p["members_total"] for p in players]
    state.leaders = [list(p["leaders"]) for p in players]


def _hidden(state: LostExplorersState, observation: Mapping[str, Any]) -> None:
    """The face-down missions: per kind of token, those not revealed yet."""
    components = state.components
    revealed = set(observation["completed_missions"])
    for held in state.missions:
        revealed.update(held)
    pools = [components.stack_missions(v) for v in range(len(VEHICLES))]
    pools += [components.starting_missions(v) for v in range(len(VEHICLES))]
    state.hidden_missions = [[m for m in pool if m not in revealed] for pool in pools]


def _clues(state: LostExplorersState, observation: Mapping[str, Any],
           rng: random.Random) -> None:
    """The observing seat's tiles by their numbers, and another seat's where a set-up names
    them (``players[i].clue_numbers``); the others' drawn from the rest."""
    numbers = state.components.clue_numbers
    seat = observation["seat"]
    free = list(range(CLUE_TILES))

    def tiles(named: list[int]) -> list[int]:
        taken: list[int] = []
        for number in named:
            taken.append(next(tile for tile in free if numbers[tile] == number))
            free.remove(taken[-1])
        return taken

    players = observation["players"]
    held: list[list[int] | None] = [
        tiles(observation["my_clues"]) if other == seat
        else tiles(player["clue_numbers"]) if player.get("clue_numbers") is not None
        else None for other, player in enumerate(players)]
    rng.shuffle(free)
    state.clues = []
    for other, player in enumerate(players):
        given = held[other]
        if given is None:
            given = free[:player["clues"]]
            del free[:player["clues"]]
        state.clues.append(given if other == seat else sorted(given))
    state.clue_pool = sorted(free)
