"""How far ahead each seat is where a rollout stops before the end, per shipped game.

A rollout that ran ``rollout_depth`` decisions without ending the game asks
the game's evaluation here. Each one scores a seat on the engine's state (the
search's own determinized copy) by the game's goal: trophies and the
adventure's points (Explorers), clues and Expedition Leaders (Lost
Explorers), coins out, coins carried and how far explorers are from the
temple or the way out (Dinosaurs). :func:`shares` turns the scores into
values in [0, 1] comparable with the end of a game: per seat, the mean over
the other seats of a logistic of the score difference.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from typing import Any

from arena.game import State
from engines.dinosaurs.board import RIVER, TEMPLE, WALKABLE, Board
from engines.dinosaurs.table import DEAD, OUTSIDE
from engines.explorers.cards import DINOSAUR

Scorer = Callable[[Any], list[float]]


def shares(scores: list[float], scale: float) -> list[float]:
    """Per seat, the mean over the others of ``1 / (1 + exp(-(mine - theirs) / scale))``."""
    seats = len(scores)
    if seats < 2:
        return [0.5] * seats
    values = []
    for mine in scores:
        total = 0.0
        for theirs in scores:
            total += 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (theirs - mine) / scale))))
        values.append((total - 0.5) / (seats - 1))  # the seat against itself added 0.5
    return values


def explorers(state: Any) -> list[float]:
    """Two trophies win: a trophy is worth most, then this adventure's points (the next
    trophy). A seat still in the adventure adds what it may yet hunt: its share of the
    dinosaurs' points left in the deck and the row, as far as its exploration tokens last
    (a seat that abandons leaves the rest to the others)."""
    cards, points = state.cards, state.points_now()
    left = [card for card in state.deck if cards.kind[card] == DINOSAUR]
    left += [card for card in state.row if card >= 0 and cards.kind[card] == DINOSAUR]
    still_in = state.num_players - sum(state.abandoned) or 1
    share = 0.5 * sum(cards.points[card] for card in left) / still_in
    return [12.0 * state.trophies[seat] + points[seat]
            + (0.0 if state.abandoned[seat]
               else min(share, 1.2 * state.exploration_tokens[seat]))
            for seat in range(state.num_players)]


def lost_explorers(state: Any) -> list[float]:
    """Four clues win; else the rearmost Leader decides, so it counts double. An open mission
    is worth part of what completing it brings (Leader steps, a clue per magnifying glass
    passed): more the more of its locations the seat holds and can reach; past three open
    missions, more of them only cost tokens."""
    return [_expedition(state, seat) for seat in range(state.num_players)]


def _expedition(state: Any, seat: int) -> float:
    components, occupant, validated = state.components, state.occupant, state.validated
    leaders: list[int] = state.leaders[seat]
    held: list[int] = state.vehicles[seat]
    score: float = 4.0 * len(state.clues[seat]) + 1.0 * min(leaders) + 0.5 * max(leaders)
    open_missions = 0
    for mission in state.missions[seat]:
        places = [p for p in components.mission_locations[mission] if not validated[p]]
        if not places:
            continue
        open_missions += 1
        track = components.mission_track[mission]
        before = leaders[track]
        after = min(before + len(places), components.track_length[track])
        gain = (after - before) * (1.0 if before <= leaders[1 - track] else 0.5) + 4.0 * sum(
            1 for slot in components.glasses[track] if before < slot <= after)
        ours = sum(1 for p in places if occupant[p] == seat)
        reachable = sum(1 for p in places if occupant[p] != seat and all(
            held[v] >= count for v, count in enumerate(components.route_needs[p])))
        missing = len(places) - ours
        score += gain * (0.15 + 0.35 * ours / len(places)
                         + (0.2 * reachable / missing if missing else 0.2))
    tokens: int = state.token_count(seat)
    return score - 0.3 * max(0, open_missions - 3) + 0.05 * sum(held) - 0.03 * tokens


_DISTANCES: dict[int, tuple[Board, list[float], list[float]]] = {}
WADING = 3.0
"""What stepping out of a river costs on the way: wading in ends the move."""


def _distances(board: Board) -> tuple[list[float], list[float]]:
    """Explorer steps from every space to the temple and to the way out, kept per board."""
    known = _DISTANCES.get(id(board))
    if known is None or known[0] is not board:
        to_exit = [steps + 1 for steps in _walk(board, list(board.entries))]
        known = _DISTANCES[id(board)] = (board, _walk(board, [board.temple]), to_exit)
    return known[1], known[2]


def _walk(board: Board, targets: list[int]) -> list[float]:
    """Shortest explorer paths to the nearest of ``targets`` (Dijkstra: a river costs more)."""
    far = 4.0 * board.size
    distance = [far] * board.size
    queue = [(0.0, target) for target in targets]
    for target in targets:
        distance[target] = 0.0
    while queue:
        steps, here = heapq.heappop(queue)
        if steps > distance[here]:
            continue
        cost = WADING if board.terrain[here] == RIVER else 1.0
        for near in board.neighbors[here]:
            kind = board.terrain[near]
            if (kind in WALKABLE or kind in (RIVER, TEMPLE)) and steps + cost < distance[near]:
                distance[near] = steps + cost
                heapq.heappush(queue, (steps + cost, near))
    return distance


def dinosaurs(state: Any) -> list[float]:
    """Coins out win, so a seat is scored by how far its two most advanced explorers are from
    bringing a coin out (to the exit with a coin; else to the temple while it holds coins,
    then out), plus something for each explorer alive."""
    to_temple, to_exit = _distances(state.board)
    entry_to_temple = min(to_temple[entry] for entry in state.board.entries) + 1
    temple_to_exit = to_exit[state.board.temple]
    far = 2.0 * state.board.size
    roof = state.temple_coins > 0
    scores = []
    for seat in range(state.num_players):
        steps = []
        alive = 0
        for number in state.own(seat):
            at = state.explorers[number]
            if at == DEAD:
                continue
            alive += 1
            if state.carrying[number]:
                steps.append(to_exit[at])  # never outside: a coin carried out is banked
            elif roof:
                steps.append((entry_to_temple if at == OUTSIDE else to_temple[at])
                             + temple_to_exit)
        steps.sort()
        steps += [far, far]
        scores.append(20.0 * state.coins_out[seat] - 0.5 * steps[0] - 0.15 * steps[1]
                      + 0.5 * alive)
    return scores


SCORERS: dict[str, tuple[Scorer, float]] = {
    "explorers-of-the-lost-valley": (explorers, 3.0),
    "lost-explorers": (lost_explorers, 3.0),
    "lost-valley-of-the-dinosaurs": (dinosaurs, 3.0),
}
"""Per game name: its scorer and the score difference that makes one seat about 73 %
likely to finish ahead of another."""


def evaluation(game: str) -> Callable[[State], list[float]] | None:
    """The evaluation of ``game``, or None (rollouts then run to the end)."""
    found = SCORERS.get(game)
    if found is None:
        return None
    scorer, scale = found
    return lambda state: shares(scorer(state), scale)
