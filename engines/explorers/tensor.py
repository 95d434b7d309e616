"""The observation as a flat vector of numbers (``State.observation_tensor``), for learning
agents: a fixed length per player count, built from :func:`engines.explorers.observation.build`.

Seats are *relative* to the observer: block 0 is the observer, block 1 the seat after it.
The layout, in order (``n`` players, ``C`` cards in the card table, 18 in the shipped data):

- phase, one-hot over ``phases.NAMES`` (16);
- seat on move: one-hot over the ``n`` relative seats, then chance, then game over (n + 2);
- first player, one-hot relative (n);
- adventure, turn, cards left in the deck, ammunition in the centre, actions left, and the
  flags turn passes, extra action bought, discard locked, steal locked, next discard
  locked, next steal locked, advanced game (12);
- the hunt: under way (0/1), rolls, ammunition used, last roll, throw bonus (5); the steal
  victim, one-hot relative (n); the steal roll (0 when none); a hound card revealed (0/1);
- per relative seat: exploration tokens, ammunition, trophies, the trail tokens held of
  each species (pterodactylus, iguanodon, plesiosaurus, megalosaurus: 0..2 each), throw
  bonus, abandoned (0/1), points this adventure, points of past adventures (11 each);
- per card id: in the row, in the deck, discarded, hunted now, revealed by the hound, then
  held by each relative seat (5 + n each).

Length: 16 + (n + 2) + n + 12 + 5 + n + 2 + 11n + C(5 + n); with 18 cards 127 + 32n:
191 for two players, 223 for three, 255 for four.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.explorers import phases
from engines.explorers.cards import SPECIES

FLAGS = ("turn_passes", "extra_action_bought", "discard_locked", "steal_locked",
         "next_discard_locked", "next_steal_locked", "advanced")


def one_hot(index: int, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (none when it is out of range)."""
    return [1.0 if i == index else 0.0 for i in range(size)]


def encode(observation: Mapping[str, Any]) -> list[float]:
    """The vector described in the module docstring, from one seat's observation."""
    n, seat = observation["num_players"], observation["seat"]

    def relative(other: int | None) -> int:
        return -1 if other is None or other < 0 else (other - seat) % n

    current = observation["current_player"]
    mover = relative(current) if current >= 0 else n + (0 if current == -1 else 1)
    vector = one_hot(phases.NAMES.index(observation["phase"]), len(phases.NAMES))
    vector += one_hot(mover, n + 2) + one_hot(relative(observation["first_player"]), n)
    vector += [float(observation[key]) for key in
               ("adventure", "turn", "deck_count", "center_ammunition", "actions_left")]
    vector += [float(bool(observation[flag])) for flag in FLAGS]
    hunt = observation["hunt"] or {}
    vector += [float(bool(hunt)), float(hunt.get("rolls", 0)),
               float(hunt.get("ammunition_used", 0)), float(hunt.get("last_roll") or 0),
               float(hunt.get("bonus", 0))]
    vector += one_hot(relative(observation["steal_victim"]), n)
    vector += [float(observation["steal_roll"] or 0), float(observation["hound_card"] is not None)]
    players = observation["players"]
    for offset in range(n):
        player = players[(seat + offset) % n]
        vector += [float(player["exploration_tokens"]), float(player["ammunition"]),
                   float(player["trophies"]),
                   *(float(player["trail_tokens"].count(species)) for species in SPECIES),
                   float(player["throw_bonus"]), float(bool(player["abandoned"])),
                   float(player["points"]), float(player["total_points"])]
    return vector + _cards(observation, players, relative)


def _cards(observation: Mapping[str, Any], players: list[dict[str, Any]],
           relative: Any) -> list[float]:
    n = observation["num_players"]
    row = {card["id"] for card in observation["row"] if card is not None}
    deck, discards = set(observation["deck"]), set(observation["discards"])
    hunted = (observation["hunt"] or {}).get("card", -1)
    holder = {card: relative(player["seat"]) for player in players
              for card in (*player["dinosaurs"], *player["advantages"])}
    vector: list[float] = []
    for card in range(len(observation["cards"]["name"])):
        vector += [float(card in row), float(card in deck), float(card in discards),
                   float(card == hunted), float(card == observation["hound_card"])]
        vector += one_hot(holder.get(card, -1), n)
    return vector
