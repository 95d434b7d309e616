"""The observation as a flat vector of numbers (``State.observation_tensor``), for learning
agents: a fixed length per player count, built from
:func:`engines.dinosaurs.observation.build`.

Seats are *relative* to the observer: block 0 is the observer, block 1 the seat after it.
The layout, in order (``n`` players, ``S`` board spaces, 145 on the shipped board, ``K``
card kinds, 14):

- phase, one-hot over ``phases.NAMES`` (26);
- seat on move: one-hot over the ``n`` relative seats, then chance, then game over
  (n + 2); whose turn it is, one-hot relative (n);
- coins to win, turn, lava tiles placed, coins in the temple, cards left in the deck,
  bullets in the supply (6);
- the deck and the discards, cards per kind (2K);
- this turn: the card drawn, one-hot over the kinds (K, all zero when none), the roll,
  steps left, lava left to place, an explorer moving (0/1), a dinosaur moving (0/1) (5);
- per relative seat: coins out, explorers alive, secret paths, guns, bullets, explorers
  carrying a coin, explorers outside the valley, explorers dead (8 each);
- per board space: that seat's explorers on it for each relative seat (n), then dinosaurs,
  the swamp monster, lava, coins, visited (barred to the piece moving: entered this move,
  or by that explorer earlier this turn) (5) (S(n + 5) in all).

Length: 26 + (n + 2) + n + 6 + 2K + K + 5 + 8n + S(n + 5); on the shipped board
806 + 155n: 1116 for two players, 1271 for three, 1426 for four.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.dinosaurs import cards, phases

OUTSIDE, DEAD = -1, -2
"""An explorer's place before it enters the valley, and once it is dead."""


def one_hot(index: int, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (none when it is out of range)."""
    return [1.0 if i == index else 0.0 for i in range(size)]


def encode(observation: Mapping[str, Any]) -> list[float]:
    """The vector described in the module docstring, from one seat's observation."""
    n, seat = observation["num_players"], observation["seat"]

    def relative(other: int) -> int:
        return -1 if other < 0 else (other - seat) % n

    current = observation["current_player"]
    mover = relative(current) if current >= 0 else n + (0 if current == -1 else 1)
    vector = one_hot(phases.NAMES.index(observation["phase"]), len(phases.NAMES))
    vector += one_hot(mover, n + 2) + one_hot(relative(observation["player"]), n)
    vector += [float(observation[key]) for key in ("coins_to_win", "turn", "lava_placed",
                                                   "temple_coins", "deck_count", "bullet_supply")]
    vector += [float(observation["deck"][kind]) for kind in cards.SLUGS]
    vector += [float(observation["discards"][kind]) for kind in cards.SLUGS]
    now = observation["now"]
    card = cards.SLUGS.index(now["card"]) if now["card"] is not None else -1
    vector += one_hot(card, len(cards.SLUGS))
    vector += [float(now["roll"]), float(now["steps_left"]), float(now["lava_left"]),
               float(now["explorer"] >= 0), float(now["dinosaur"] >= 0)]
    players = [observation["players"][(seat + offset) % n] for offset in range(n)]
    for player in players:
        places = player["explorers"]
        vector += [float(player[key]) for key in ("coins_out", "alive", "secret_paths", "guns",
                                                  "bullets")]
        vector += [float(sum(map(bool, player["carrying"]))), float(places.count(OUTSIDE)),
                   float(places.count(DEAD))]
    return vector + _board(observation, players)


def _board(observation: Mapping[str, Any], players: list[dict[str, Any]]) -> list[float]:
    size = len(observation["board"]["names"])
    planes = [[0.0] * size for _ in range(len(players) + 5)]
    for plane, player in zip(planes, players, strict=False):
        for space in player["explorers"]:
            if space >= 0:
                plane[space] += 1.0
    dinosaurs, monster, lava, coins, visited = planes[len(players):]
    for space in observation["dinosaurs"]:
        if space >= 0:
            dinosaurs[space] += 1.0
    if observation["swamp_monster"] >= 0:
        monster[observation["swamp_monster"]] = 1.0
    for space in observation["lava"]:
        lava[space] = 1.0
    for space, count in observation["coins"]:
        coins[space] = float(count)
    for space in observation["now"]["visited"]:
        visited[space] = 1.0
    return [value for plane in planes for value in plane]
