"""The race in turns on one board of Lost Valley of the Dinosaurs (for the ``mcts`` race policy).

A dynamic programme over the distance still to go gives the expected turns
to cover it (:func:`turn_table`: one die empty-handed, two dice carrying; the
temple and the exit need no exact roll, so overshooting counts as arriving),
and :class:`Plan` works out, once per board and from the board the
observation shows, the distances an explorer walks (to the temple, out of
the valley, to water, between any two spaces), the dinosaurs' distances, the
way out of the swamp, and from them the turns an explorer needs to bring a
coin out from anywhere.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

OUTSIDE = -1
FAR = 999
WALKING = frozenset({"land", "entry", "crossing", "footprint", "temple-arrow", "cave",
                     "ammo-dump"})
DINOSAUR_BARRED = frozenset({"swamp", "inner-swamp", "temple", "slope"})
SWAMPY = frozenset({"swamp", "inner-swamp"})
WADING = 3
"""Steps a river space is worth on the way: wading in ends the move, the next is one step."""

ONE_DIE = {roll: 1 / 6 for roll in range(1, 7)}
TWO_DICE = {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}


def turn_table(roll: Mapping[int, float], length: int) -> list[float]:
    """``E[d]`` for ``d`` in ``0..length``: expected turns to cover ``d`` steps when each
    turn moves by ``roll``'s distribution and overshooting the goal counts as arriving."""
    table = [0.0] * (length + 1)
    for d in range(1, length + 1):
        table[d] = 1.0 + sum(p * table[d - r] for r, p in roll.items() if r < d)
    return table


class Plan:
    """What one board says about the race, worked out once per board."""

    def __init__(self, board: Mapping[str, Any]) -> None:
        self.terrain: list[str] = list(board["terrain"])
        self.neighbors: list[list[int]] = [list(near) for near in board["neighbors"]]
        self.size = size = len(self.terrain)
        self.temple: int = board["temple"]
        self.entries: list[int] = list(board["entries"])
        self.lairs: list[int] = list(board["lairs"])
        self.footprints: list[list[int]] = [list(marks) for marks in board["footprints"]]
        self.ring: list[int] = list(board["swamp_ring"])
        self.exits: list[int] = list(board["swamp_exits"])
        self.caves: list[int] = list(board["caves"])
        self.walkable = [kind in WALKING for kind in self.terrain]
        self.one = turn_table(ONE_DIE, 4 * size)
        self.two = turn_table(TWO_DICE, 4 * size)
        self.to_temple = self._walk([self.temple])
        self.to_exit = [steps + 1 for steps in self._walk(self.entries)]
        waters = [at for at in range(size) if self.terrain[at] in ("river", "crossing")]
        self.to_river = self._walk(waters)
        self.steps = [self._explorer_bfs(at) for at in range(size)]
        self.dinosaur_steps = [self._dinosaur_bfs(at) for at in range(size)]
        self.entry_to_temple: int = min(self.to_temple[entry] for entry in self.entries) + 1
        self.carry_from_temple = self.two[min(self.to_exit[self.temple], 4 * size)]
        self.swamp_out = self._swamp_out()

    def _walk(self, targets: Sequence[int]) -> list[int]:
        """Explorer steps from every space to the nearest target (Dijkstra: a river step
        costs :data:`WADING`; a lair and the temple are left, never walked through)."""
        distance = [FAR] * self.size
        queue = [(0, target) for target in targets]
        for target in targets:
            distance[target] = 0
        while queue:
            steps, here = heapq.heappop(queue)
            if steps > distance[here]:
                continue
            for other in self.neighbors[here]:
                kind = self.terrain[other]
                cost = WADING if kind == "river" else 1
                if (kind in WALKING or kind in ("river", "lair", "temple")) and \
                        steps + cost < distance[other]:
                    distance[other] = steps + cost
                    if kind not in ("lair", "temple"):  # left, never walked through
                        heapq.heappush(queue, (steps + cost, other))
        return distance

    def _explorer_bfs(self, start: int) -> list[int]:
        """Steps on dry land from ``start`` to every space (rivers and the temple are ends:
        entering them ends the move, so they are reached, never passed through)."""
        distance = [FAR] * self.size
        distance[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here != start and not self.walkable[here]:
                continue
            for other in self.neighbors[here]:
                kind = self.terrain[other]
                if distance[other] == FAR and (kind in WALKING or kind in ("river", "temple")):
                    distance[other] = distance[here] + 1
                    queue.append(other)
        return distance

    def _dinosaur_bfs(self, start: int) -> list[int]:
        distance = [FAR] * self.size
        distance[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for other in self.neighbors[here]:
                if distance[other] == FAR and self.terrain[other] not in DINOSAUR_BARRED:
                    distance[other] = distance[here] + 1
                    queue.append(other)
        return distance

    def _swamp_out(self) -> dict[int, tuple[int, int]]:
        """Per swamp space: (turns to step out onto dry land, the land space reached: the one
        nearest the temple next to the nearest exit arrow)."""
        ring, size = self.ring, len(self.ring)
        found: dict[int, tuple[int, int]] = {}
        for place, space in enumerate(ring):
            best = (FAR, FAR, -1)
            for out in self.exits:
                k = ring.index(out)
                steps = min((place - k) % size, (k - place) % size)
                for near in self.neighbors[out]:
                    if self.walkable[near]:
                        best = min(best, (steps + 1, self.to_temple[near], near))
            found[space] = (best[0], best[2])
        for space, kind in enumerate(self.terrain):
            if kind == "inner-swamp":
                touching = [found[n] for n in self.neighbors[space] if n in found]
                if touching:
                    turns, out_to = min(touching)
                    found[space] = (turns + 1, out_to)
        return found

    # ---------------------------------------------------------------- turns of one explorer

    def carry_turns(self, at: int) -> float:
        """Expected turns to bring a coin out from ``at``, carrying it."""
        if at in self.swamp_out:
            turns, land = self.swamp_out[at]
            return turns + self.carry_turns(land)
        return self.two[min(self.to_exit[at], 4 * self.size)]

    def fetch_turns(self, at: int) -> float:
        """Expected turns to reach the temple from ``at`` and bring its coin out."""
        if at == OUTSIDE:
            return float(self.one[self.entry_to_temple] + self.carry_from_temple)
        if at in self.swamp_out:
            turns, land = self.swamp_out[at]
            return turns + self.fetch_turns(land)
        return float(self.one[min(self.to_temple[at], 4 * self.size)] + self.carry_from_temple)

    def claim_turns(self, at: int, coins: Sequence[int]) -> float:
        """Expected turns to land on an abandoned coin (exact count: one turn more than the
        walk) and bring it out."""
        if at == OUTSIDE:
            return min(1.0 + self.one[self.steps[entry][coin] + 1] + 1.0
                       + self.carry_turns(coin) for entry in self.entries for coin in coins)
        if at in self.swamp_out:
            turns, land = self.swamp_out[at]
            return turns + self.claim_turns(land, coins)
        return min(self.one[min(self.steps[at][coin], 4 * self.size)] + 1.0
                   + self.carry_turns(coin) for coin in coins)


_PLANS: dict[tuple[Any, ...], Plan] = {}
_LAST: list[tuple[Mapping[str, Any], Plan]] = []


def plan_of(board: Mapping[str, Any]) -> Plan:
    """The plan of ``board``, worked out on first sight and kept (keyed by its contents, so a
    board rebuilt for another match is found again; the object seen last is checked first)."""
    if _LAST and _LAST[0][0] is board:
        return _LAST[0][1]
    key = (tuple(board["names"]), tuple(board["terrain"]),
           tuple(tuple(near) for near in board["neighbors"]))
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) > 8:
            _PLANS.clear()
        found = _PLANS[key] = Plan(board)
    _LAST[:] = [(board, found)]
    return found
