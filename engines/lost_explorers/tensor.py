"""The observation as a flat vector of numbers (``State.observation_tensor``), for learning
agents: a fixed length per player count, built from
:func:`engines.lost_explorers.observation.build`.

Seats are *relative* to the observer: block 0 is the observer, block 1 the seat after it.
The layout, in order (``n`` players, ``L`` locations, 12 in the shipped data; vehicles in
the order train, car, boat, airship):

- phase, one-hot over ``phases.NAMES`` (11);
- seat on move: one-hot over the ``n`` relative seats, then chance, then game over (n + 2);
- first player, one-hot relative (n);
- turn, members that may still be sent, members sent this turn (3);
- per location: validated (0/1), the member on it one-hot relative (n), its route's
  vehicles counted per vehicle (4) (5 + n each);
- per stack: tokens left, then each of its ``S`` = 32 places, from the 1st token down,
  one-hot over the four vehicles (zeros past the last token) (1 + 4S each, 258);
- members on each of the two equipment areas (2); the discard per vehicle (4);
- per relative seat: vehicles held per vehicle (4), members in front, members in all,
  members on locations, its leaders' places on the two tracks (2), clue tiles, tokens,
  missions held, and their needs: missions per vehicle (4), locations named per location
  (L) (16 + L each);
- the observer's clue numbers: how many, and their sum (2); clue tiles left, missions
  completed, a mission being completed (0/1), game over (0/1) (4).

Length: 11 + (n + 2) + n + 3 + L(5 + n) + 2(1 + 4S) + 2 + 4 + n(16 + L) + 6; with 12
locations and 32 tokens a stack 346 + 42n: 430 for two players, 472 for three, 514 for
four.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.lost_explorers import phases
from engines.lost_explorers.components import VEHICLES
from engines.lost_explorers.table import STACK_SIZE


def one_hot(index: int, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (none when it is out of range)."""
    return [1.0 if i == index else 0.0 for i in range(size)]


def vehicles(names: list[str]) -> list[float]:
    """How many of each vehicle ``names`` holds."""
    return [float(names.count(vehicle)) for vehicle in VEHICLES]


def encode(observation: Mapping[str, Any]) -> list[float]:
    """The vector described in the module docstring, from one seat's observation."""
    n, seat = observation["num_players"], observation["seat"]

    def relative(other: int | None) -> int:
        return -1 if other is None or other < 0 else (other - seat) % n

    current = observation["current_player"]
    mover = relative(current) if current >= 0 else n + (0 if current == -1 else 1)
    vector = one_hot(phases.NAMES.index(observation["phase"]), len(phases.NAMES))
    vector += one_hot(mover, n + 2) + one_hot(relative(observation["first_player"]), n)
    vector += [float(observation["turn"]), float(observation["can_send"]),
               float(observation["sent_this_turn"])]
    locations = observation["locations"]
    for place in locations:
        vector += [float(bool(place["validated"]))]
        vector += one_hot(relative(place["member"]), n) + vehicles(place["route"])
    for stack in observation["stacks"]:
        vector += [float(stack["count"]), *_stack(stack["visible"])]
    vector += [float(members) for members in observation["equipment_areas"]]
    vector += [float(observation["discard"][vehicle]) for vehicle in VEHICLES]
    players = observation["players"]
    for offset in range(n):
        vector += _player(players[(seat + offset) % n], len(locations))
    clues = observation["my_clues"]
    vector += [float(len(clues)), float(sum(clues)), float(observation["clue_tiles_left"]),
               float(len(observation["completed_missions"])),
               float(observation["completing"] is not None), float(observation["end"] is not None)]
    return vector


def _stack(order: list[str]) -> list[float]:
    """Each place of a stack, from the 1st token down, one-hot over the vehicles."""
    places = [0.0] * (len(VEHICLES) * STACK_SIZE)
    for index, name in enumerate(order[:STACK_SIZE]):
        places[index * len(VEHICLES) + VEHICLES.index(name)] = 1.0
    return places


def _player(player: Mapping[str, Any], locations: int) -> list[float]:
    missions = player["missions"]
    needs = [0.0] * locations
    for mission in missions:
        for place in mission["locations"]:
            needs[place] += 1.0
    return [float(player["vehicles"][vehicle]) for vehicle in VEHICLES] + [
        float(player["members_in_front"]), float(player["members_total"]),
        float(len(player["members_on_locations"])), *map(float, player["leaders"]),
        float(player["clues"]), float(player["tokens"]), float(len(missions)),
        *vehicles([mission["vehicle"] for mission in missions]), *needs]
