"""Greedy heuristic for Lost Explorers: score every legal move, play the best.

Everything comes from the observation (routes, missions, tracks included), so
a user's own component file is handled too. The plan is always the same:
hold a few missions, gather the vehicles their locations' routes show, send
members when a mission can be finished this turn (or to stake a location
when nothing better is left), complete every mission that can be, the one
that brings a clue or helps the rearmost Leader first.

``risk`` (0..1) sets how many missions the bot holds before it stops taking
tokens mission side up (2 to 4), and how readily it sends extra members to
reach a deeper token of a stack.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.lost_explorers import actions as A

VEHICLES = ("train", "car", "boat", "airship")
END_PHASE_SCORE = 0.8
SPARE_VEHICLE_SCORE = 1.0
"""A vehicle no target needs, from the top of a stack: worth more than doing nothing, as it
brings the next tokens into reach (and spares a deeper one, worth less than a member)."""

Observation = Mapping[str, Any]


class _View:
    """The bot's reading of an observation: its missions, targets and vehicle needs."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.seat: int = obs["seat"]
        self.me: Mapping[str, Any] = obs["players"][self.seat]
        self.locations: list[Mapping[str, Any]] = obs["locations"]
        self.held: list[int] = [self.me["vehicles"][name] for name in VEHICLES]
        self.missions: list[Mapping[str, Any]] = self.me["missions"]
        self.open = {m["id"]: self.missing(m) for m in self.missions
                     if any(not self.locations[p]["validated"] for p in m["locations"])}
        self.targets = {p for places in self.open.values() for p in places}
        self.demand = [0] * len(VEHICLES)
        for place in self.targets:
            for name in self.locations[place]["route"]:
                self.demand[VEHICLES.index(name)] += 1

    def missing(self, mission: Mapping[str, Any]) -> list[int]:
        """Locations of ``mission`` that still need a member of ours."""
        return [p for p in mission["locations"]
                if not self.locations[p]["validated"] and self.locations[p]["member"] != self.seat]

    def route(self, place: int) -> list[int]:
        return [VEHICLES.index(name) for name in self.locations[place]["route"]]

    def reachable(self, place: int) -> bool:
        needs = self.route(place)
        return all(self.held[v] >= needs.count(v) for v in set(needs))

    def mission_value(self, mission: Mapping[str, Any]) -> float:
        """Slots gained, clues reached, and a bonus for moving the rearmost Leader."""
        track = mission["track"]
        leaders: list[int] = self.me["leaders"]
        needed = sum(1 for p in mission["locations"] if not self.locations[p]["validated"])
        before, after = leaders[track], leaders[track] + needed
        glasses = sum(1 for slot in self.obs["tracks"][track]["glasses"] if before < slot <= after)
        rear = 1.0 if leaders[track] <= leaders[1 - track] else 0.0
        return needed + 3.0 * glasses + rear

    def finishable(self, mission: Mapping[str, Any]) -> bool:
        """Every missing location reachable now, with enough members left to send."""
        missing = self.open.get(mission["id"], [])
        return bool(missing) and len(missing) <= self.obs["can_send"] and all(
            self.reachable(p) for p in missing)


def _flip(view: _View, legal: Sequence[int]) -> int:
    """Flip the starting token of the vehicle the fewest routes show."""
    icons = [sum(loc["route"].count(name) for loc in view.locations) for name in VEHICLES]
    return min(legal, key=lambda action: (icons[action - A.FLIP], action))


def _expedition_score(view: _View, place: int, vehicle: int) -> float:
    if place not in view.targets:
        return -1.0
    score = 0.0
    for mission in view.missions:
        missing = view.open.get(mission["id"], [])
        if place in missing:
            value = view.mission_value(mission)
            score += 8.0 + value if view.finishable(mission) else 1.0 + value / (2 * len(missing))
    if view.locations[place]["member"] is not None:
        score += 0.5  # the displaced player loses a member and gains only a vehicle
    surplus = view.held[vehicle] - view.demand[vehicle]
    return score + 0.1 * surplus


def _equip_score(view: _View, action: int, risk: float) -> float:
    area, sent, side = A.equip_parts(action)
    visible = view.obs["stacks"][area]["visible"]
    vehicle = VEHICLES.index(visible[sent - 1])
    depth_cost = (sent - 1) * (1.6 - risk)
    if side == A.MISSION_SIDE:
        wanted = 2 + round(2 * risk)
        score = 3.5 if len(view.open) < wanted else 0.3
        return score + 0.2 * min(view.held[vehicle], 2) - depth_cost
    deficit = view.demand[vehicle] - view.held[vehicle]
    score = 3.0 + min(deficit, 3) if deficit > 0 else SPARE_VEHICLE_SCORE
    return score - depth_cost


def _phase_one_score(view: _View, action: int, risk: float) -> float:
    family = A.kind(action)
    if family == "retrieve":
        place = action - A.RETRIEVE
        needed_by = sum(1 for m in view.missions if place in m["locations"])
        if not needed_by:
            return 20.0
        # With every member out on the map, one must come back or the bot is stuck.
        return 0.9 - 0.05 * needed_by if view.me["members_in_front"] == 0 else -1.0
    if family == "expedition":
        return _expedition_score(view, *A.expedition_parts(action))
    if family == "equip":
        return _equip_score(view, action, risk)
    return END_PHASE_SCORE


def _complete(view: _View, legal: Sequence[int]) -> int:
    by_id = {m["id"]: m for m in view.missions}
    options = [a for a in legal if a != A.END_TURN]
    if not options:
        return A.END_TURN
    return max(options, key=lambda a: (view.mission_value(by_id[a - A.COMPLETE]), -a))


def _retrieve(view: _View, legal: Sequence[int]) -> int:
    """Bring back the member the other missions need least."""
    completing = view.obs["completing"]["id"] if view.obs["completing"] else -1

    def still_needed(action: int) -> int:
        place = action - A.RETRIEVE
        return sum(1 for m in view.missions if m["id"] != completing and place in m["locations"])
    return min(legal, key=lambda a: (still_needed(a), a))


def _catch_up(view: _View, legal: Sequence[int]) -> int:
    return max(legal, key=lambda a: (view.demand[a - A.CATCH_UP] - view.held[a - A.CATCH_UP], -a))


def choose(observation: Observation, legal_actions: Sequence[int], rng: random.Random,
           risk: float) -> int:
    """The greedy move for the seat that sees ``observation``."""
    view = _View(observation)
    phase = observation["phase"]
    legal = list(legal_actions)
    if phase == "flip-starting-token":
        return _flip(view, legal)
    if phase == "phase-2":
        return _complete(view, legal)
    if phase == "retrieve-member":
        return _retrieve(view, legal)
    if phase == "catch-up-token":
        return _catch_up(view, legal)
    scores = [(_phase_one_score(view, action, risk), rng.random(), action) for action in legal]
    return max(scores)[2]
