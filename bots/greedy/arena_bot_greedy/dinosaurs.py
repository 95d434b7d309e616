"""Greedy heuristic for Lost Valley of the Dinosaurs: score every legal action, play the best.

Everything comes from the observation (the board included), so a user's own
board file is handled too. Explorers head for the temple while it has coins
and, carrying one, for the nearest entry arrow; the cards are played against
the opponents: dinosaurs are steered at their explorers (carriers first) and
away from ours, the pteranodon drops an opposing carrier into the swamp or
rescues one of ours, lava is poured on opponents, bullets push dinosaurs away
from our explorers.

``risk`` (0..1) sets the boldness: how much an explorer avoids ending its
move next to a dinosaur, and how readily one that is threatened is moved.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

Observation = Mapping[str, Any]

SPACES = 160
EXIT, DONE, EXPLORER, DINOSAUR, SHOOT, SECRET = 160, 161, 162, 178, 184, 190
FAR = 99
WALKING = frozenset({"land", "entry", "crossing", "footprint", "temple-arrow", "cave",
                     "ammo-dump"})
DINOSAUR_BARRED = frozenset({"swamp", "inner-swamp", "temple", "slope"})
WADING_COST = 3
"""Steps a river space is worth on the way: wading in ends the move."""


class Map:
    """Distances on one board, worked out once per board."""

    def __init__(self, board: Mapping[str, Any]) -> None:
        self.terrain: list[str] = board["terrain"]
        self.neighbors: list[list[int]] = board["neighbors"]
        self.temple: int = board["temple"]
        self.entries: list[int] = board["entries"]
        self.lairs: list[int] = board["lairs"]
        self.ring: list[int] = board["swamp_ring"]
        self.exits: list[int] = board["swamp_exits"]
        size = len(self.terrain)
        waters = [at for at in range(size) if self.terrain[at] in ("river", "crossing")]
        self.to_temple = self._walk([self.temple])
        self.to_exit = [steps + 1 for steps in self._walk(self.entries)]
        self.to_river = self._walk(waters)
        self.dinosaur_steps = [self._dinosaur_walk(at) for at in range(size)]

    def _walk(self, targets: Sequence[int]) -> list[int]:
        """Explorer distance from every space to the nearest target (rivers cost more)."""
        distance = [FAR] * len(self.terrain)
        queue = [(0, target) for target in targets]
        for target in targets:
            distance[target] = 0
        while queue:
            steps, here = heapq.heappop(queue)
            if steps > distance[here]:
                continue
            cost = WADING_COST if self.terrain[here] == "river" else 1
            for other in self.neighbors[here]:
                kind = self.terrain[other]
                if (kind in WALKING or kind in ("river", "temple")) and \
                        steps + cost < distance[other]:
                    distance[other] = steps + cost
                    heapq.heappush(queue, (steps + cost, other))
        return distance

    def _dinosaur_walk(self, start: int) -> list[int]:
        distance = [FAR] * len(self.terrain)
        distance[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for other in self.neighbors[here]:
                if distance[other] == FAR and self.terrain[other] not in DINOSAUR_BARRED:
                    distance[other] = distance[here] + 1
                    queue.append(other)
        return distance


_MAPS: dict[tuple[Any, ...], Map] = {}
_LAST: list[tuple[Mapping[str, Any], Map]] = []
"""The board object seen last and its map: the engine (and a bot host) hand every decision
of a match the same board object, so most decisions need not look it up."""


def _board_map(board: Mapping[str, Any]) -> Map:
    """The distances of ``board``, worked out on first sight and kept (a few boards at most)."""
    if _LAST and _LAST[0][0] is board:
        return _LAST[0][1]
    _LAST[:] = [(board, _board_map_of(board))]
    return _LAST[0][1]


def _board_map_of(board: Mapping[str, Any]) -> Map:
    key = (tuple(board["names"]), tuple(board["terrain"]),
           tuple(tuple(near) for near in board["neighbors"]))
    found = _MAPS.get(key)
    if found is None:
        if len(_MAPS) > 8:
            _MAPS.clear()
        found = _MAPS[key] = Map(board)
    return found


class View:
    """The observation, arranged for scoring actions."""

    def __init__(self, obs: Observation, risk: float) -> None:
        self.obs, self.seat, self.risk = obs, obs["seat"], risk
        self.map = _board_map(obs["board"])
        self.positions: list[int] = [at for player in obs["players"]
                                     for at in player["explorers"]]
        self.carrying: list[bool] = [held for player in obs["players"]
                                     for held in player["carrying"]]
        self.dinosaurs: list[int] = obs["dinosaurs"]
        self.now: Mapping[str, Any] = obs["now"]
        self.coins_left = obs["temple_coins"] > 0
        self.abandoned = {space: count for space, count in obs["coins"]}

    def mine(self, number: int) -> bool:
        return number // 4 == self.seat

    def to_target(self, number: int, at: int) -> int:
        """How far explorer ``number`` standing on ``at`` is from where it wants to be."""
        game_map = self.map
        if at == -1:
            at_cost = min(game_map.to_temple[entry] for entry in game_map.entries) + 1
            return at_cost if not self.carrying[number] else 0
        if self.carrying[number]:
            return game_map.to_exit[at]
        if self.coins_left:
            return game_map.to_temple[at]
        if self.abandoned:
            return min(self.explorer_distance(at, space) for space in self.abandoned)
        return game_map.to_temple[at]

    def explorer_distance(self, at: int, space: int) -> int:
        return self.map.dinosaur_steps[at][space] if at >= 0 else FAR

    def threat(self, space: int) -> int:
        """Dinosaurs one or two steps from ``space``."""
        steps = self.map.dinosaur_steps
        return sum(1 for dinosaur in self.dinosaurs if space >= 0 and steps[dinosaur][space] <= 2)

    def opponents(self) -> list[int]:
        """Opposing explorers standing on valley spaces (not in lairs or the temple)."""
        return [number for number, at in enumerate(self.positions)
                if not self.mine(number) and at >= 0 and at != self.map.temple
                and at not in self.map.lairs]

    def own_in_valley(self) -> list[int]:
        return [number for number, at in enumerate(self.positions)
                if self.mine(number) and at >= 0 and at != self.map.temple]

    def dinosaur_value(self, space: int) -> float:
        """How good it is for us that a dinosaur stands on ``space``."""
        steps = self.map.dinosaur_steps[space]
        value = 0.0
        for number in self.opponents():
            weight = 3.0 if self.carrying[number] else 1.0
            value += weight * 4.0 / (1 + steps[self.positions[number]])
        for number in self.own_in_valley():
            weight = 3.0 if self.carrying[number] else 1.0
            value -= weight * 5.0 / (1 + steps[self.positions[number]])
        return value

    def captures(self, space: int) -> float:
        """The worth of a dinosaur entering ``space``: opponents caught, ours lost."""
        value = 0.0
        for number, at in enumerate(self.positions):
            if at == space:
                weight = 30.0 if self.carrying[number] else 10.0
                value += -3 * weight if self.mine(number) else weight
        return value


# ---------------------------------------------------------------------- scores per phase

def _move_pick(view: View, action: int) -> float:
    if action == DONE:
        return 0.0
    if SHOOT <= action < SECRET:
        return _shoot(view, action - SHOOT)
    if action >= SECRET:
        return _secret(view, view.seat * 4 + action - SECRET)
    number = action - EXPLORER
    at = view.positions[number]
    value = 50.0 - view.to_target(number, at)
    if view.carrying[number]:
        value += 40
    if at >= 0:
        value += (1 - view.risk) * 6 * view.threat(at)
        if view.map.terrain[at] in ("swamp", "inner-swamp"):
            value += 15
    return value


def _shoot(view: View, dinosaur: int) -> float:
    at = view.dinosaurs[dinosaur]
    steps = view.map.dinosaur_steps[at]
    near = [number for number in view.own_in_valley() if steps[view.positions[number]] <= 2]
    return 30.0 + 10 * len(near) if near else -5.0


def _secret(view: View, number: int) -> float:
    at = view.positions[number]
    if at == view.map.temple:
        return 20.0 if view.carrying[number] else -5.0
    return 40.0 if view.coins_left and not view.carrying[number] else -5.0


def _move_step(view: View, action: int) -> float:
    number = view.now["explorer"]
    if action == EXIT:
        return 1000.0 if view.carrying[number] else -1000.0
    value = -float(view.to_target(number, action))
    if action == view.map.temple and view.coins_left and not view.carrying[number]:
        value += 100
    last = view.now["steps_left"] == 1
    if last and action in view.abandoned and not view.carrying[number]:
        value += 60
    if last:
        value -= (1 - view.risk) * 8 * view.threat(action)
    return value


def _after_move(view: View, action: int) -> float:
    return 0.0 if action == DONE else _move_pick(view, action)


def _push(view: View, action: int) -> float:
    return view.captures(action) + view.dinosaur_value(action)


def _lair(view: View, action: int) -> float:
    return sum(1.0 if not view.mine(number) else -2.0
               for number, at in enumerate(view.positions) if at == action)


def _dinosaur_pick(view: View, action: int) -> float:
    at = view.dinosaurs[action - DINOSAUR]
    reach = view.now["dinosaur_moves"][0] if view.now["dinosaur_moves"] else 1
    steps = view.map.dinosaur_steps[at]
    best = max((view.captures(view.positions[number]) for number in view.opponents()
                if steps[view.positions[number]] <= reach), default=0.0)
    return best + view.dinosaur_value(at) * 0.1 - (1.0 if at in view.map.lairs else 0.0)


def _dinosaur_step(view: View, action: int) -> float:
    return view.captures(action) * 3 + view.dinosaur_value(action)


def _lava(view: View, action: int) -> float:
    return view.captures(action) * 2


def _lava_lift(view: View, action: int) -> float:
    return 1.0 if action == DONE else 0.0


def _ptera_pick(view: View, action: int) -> float:
    if action == DONE:
        return 5.0
    number = action - EXPLORER
    at = view.positions[number]
    if view.mine(number):
        if at >= 0 and (at in view.map.lairs or view.map.terrain[at] in ("swamp",
                                                                           "inner-swamp")):
            return 50.0
        return 40.0 - view.to_target(number, at) if not view.carrying[number] else 0.0
    if view.carrying[number]:
        return 80.0
    return 30.0 - view.map.to_temple[at] / 2 if at >= 0 else 0.0


def _ptera_drop(view: View, action: int) -> float:
    number = view.now["explorer"]
    if view.mine(number):
        return -float(view.to_target(number, action)) - (1 - view.risk) * 8 * view.threat(action)
    kind = view.map.terrain[action]
    return {"inner-swamp": 30.0, "swamp": 20.0, "river": 10.0}.get(kind, 15.0)


def _fall_pick(view: View, action: int) -> float:
    number = action - EXPLORER
    return float(view.to_target(number, view.positions[number])) - (
        50.0 if view.carrying[number] else 0.0)


def _fall_drop(view: View, action: int) -> float:
    """Near an exit arrow (the way out, one grey arrow a turn), and not just ahead of the
    monster, which walks clockwise; the bolder, the closer to it."""
    ring = view.map.ring
    here, size = ring.index(action), len(ring)
    ahead = (here - ring.index(view.obs["swamp_monster"])) % size
    to_exit = min(min((here - ring.index(out)) % size, (ring.index(out) - here) % size)
                  for out in view.map.exits)
    return -2.0 * to_exit + 1.5 * (1 - view.risk) * min(ahead, 3)


def _own_first(view: View, action: int) -> float:
    if action == DONE:
        return 0.0
    return 10.0 if view.mine(action - EXPLORER) else 1.0


def _placed(view: View, action: int) -> float:
    number = view.now["explorer"]
    distance = float(view.map.to_temple[action])
    return -distance if view.mine(number) else distance


def _water_pick(view: View, action: int) -> float:
    """The explorer nearest water runs (one outside the valley, which the card may send in,
    counts its step onto an entry); a carrier last."""
    number = action - EXPLORER
    at = view.positions[number]
    game_map = view.map
    distance = game_map.to_river[at] if at >= 0 else \
        min(game_map.to_river[entry] for entry in game_map.entries) + 1
    return -10.0 * distance - (30.0 if view.carrying[number] else 0.0)


def _water_step(view: View, action: int) -> float:
    return -float(view.map.to_river[action])


def _secret_drop(view: View, action: int) -> float:
    return -float(view.map.to_exit[action])


SCORES = {
    "move-pick": _move_pick, "move-step": _move_step, "after-move": _after_move,
    "shoot-push": _push, "lair-pick": _lair, "dinosaur-pick": _dinosaur_pick,
    "dinosaur-step": _dinosaur_step, "lava-place": _lava, "lava-lift": _lava_lift,
    "pteranodon-pick": _ptera_pick, "pteranodon-drop": _ptera_drop,
    "fall-pick": _fall_pick, "fall-drop": _fall_drop, "escape-pick": _own_first,
    "escape-drop": _placed, "fight-pick": _own_first, "fight-drop": _placed,
    "water-pick": _water_pick, "water-step": _water_step, "secret-drop": _secret_drop,
}


def choose(observation: Observation, legal_actions: Sequence[int], rng: random.Random,
           risk: float) -> int:
    """The legal action the heuristic scores best (ties broken by ``rng``)."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    score = SCORES.get(observation["phase"])
    if score is None:
        return rng.choice(list(legal_actions))
    view = View(observation, risk)
    return max(legal_actions, key=lambda action: (score(view, action), rng.random()))
