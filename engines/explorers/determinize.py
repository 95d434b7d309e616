"""A state rebuilt from a seat's observation (``Game.state_from_observation``).

Nothing of Explorers of the Lost Valley is hidden but the order of the deck,
and that does not exist until a card is drawn (a chance node), so the state
is rebuilt exactly: no sampling is needed. The bookkeeping no one sees is
derived from what is seen (the trail-token pool from the tokens held, the
setup discards still due from the discards made). The observation must be
one taken while a seat is on move, as a bot receives it: at a chance node it
does not say whose turn it is. It may be edited to set up a position (a rule
test's), within what the components allow (:mod:`engines.explorers.consistency`);
what is derived (``points``, ``total_points``, ``deck_count``) is recomputed.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from engines.explorers import consistency, phases
from engines.explorers.cards import SPECIES, TRAIL_TOKENS, CardSet, default_cards
from engines.explorers.observation import card_columns, cards_from_columns
from engines.explorers.phases import DEAL_TRAIL, SETUP_DISCARD
from engines.explorers.state import ExplorersState
from engines.explorers.table import SETUP_DISCARDS


@functools.cache
def _default_columns() -> dict[str, list[Any]]:
    return {key: list(column) for key, column in card_columns(default_cards())}


def _cards(observation: Mapping[str, Any]) -> CardSet:
    """The shipped card set when the observation shows it (shared, so the engine's caches
    hit), else the card set the observation describes."""
    columns = observation.get("cards")
    if columns is None or columns == _default_columns():
        return default_cards()
    return cards_from_columns(columns)


def rebuild(observation: Mapping[str, Any]) -> ExplorersState:
    """The state behind ``observation`` (taken while a seat is on move)."""
    if observation["current_player"] < 0:
        raise ValueError("explorers: state_from_observation needs an observation taken while "
                         "a seat is on move")
    cards = _cards(observation)
    consistency.check(observation, cards)
    state = ExplorersState(cards, observation["num_players"], observation["advanced"])
    if observation["phase"] not in phases.NAMES:
        raise ValueError(f"explorers: not a position of the game: phase "
                         f"{observation['phase']!r} is none of {list(phases.NAMES)}")
    state.phase = phases.NAMES.index(observation["phase"])
    state.player = observation["current_player"]
    for name in ("first_player", "adventure", "center_ammunition", "actions_left"):
        setattr(state, name, observation[name])
    state.turns = observation["turn"]
    state.deck = sorted(observation["deck"])  # unordered: legal draws come out sorted
    state.row = consistency.row_ids(observation, cards)
    state.discards = list(observation["discards"])
    _players(state, observation["players"])
    _turn(state, observation)
    state.history = [list(points) for points in observation["history"]]
    state.trophy_history = [list(seats) for seats in observation["trophy_history"]]
    return state


def _players(state: ExplorersState, players: list[Mapping[str, Any]]) -> None:
    state.exploration_tokens = [p["exploration_tokens"] for p in players]
    state.final_tokens = state.exploration_tokens[:]  # overwritten when the adventure ends
    state.ammunition = [p["ammunition"] for p in players]
    state.dinosaurs = [list(p["dinosaurs"]) for p in players]
    state.advantages = [list(p["advantages"]) for p in players]
    state.allied = [p["throw_bonus"] > 0 for p in players]
    state.abandoned = [p["abandoned"] for p in players]
    state.trophies = [p["trophies"] for p in players]
    state.trail_tokens = [[SPECIES.index(name) for name in p["trail_tokens"]] for p in players]
    held = [sum(tokens.count(species) for tokens in state.trail_tokens)
            for species in range(len(SPECIES))]
    state.trail_pool = [total - count for total, count in zip(TRAIL_TOKENS, held, strict=True)]
    state.dealt = sum(held) if state.phase == DEAL_TRAIL else 2 * state.num_players


def _turn(state: ExplorersState, observation: Mapping[str, Any]) -> None:
    state.setup_left = (SETUP_DISCARDS[state.num_players] - len(state.discards)
                        if state.phase == SETUP_DISCARD else 0)
    state.extra_bought = observation["extra_action_bought"]
    state.passing = observation["turn_passes"]
    state.discarded = observation["next_discard_locked"]
    state.stole = observation["next_steal_locked"]
    state.discard_locked = observation["discard_locked"]
    state.steal_locked = observation["steal_locked"]
    hound = observation["hound_card"]
    state.revealed = hound if hound is not None else -1
    hunt = observation["hunt"]
    if hunt is not None:
        state.hunt_slot, state.hunt_rolls = hunt["slot"], hunt["rolls"]
        state.hunt_ammunition, state.last_roll = hunt["ammunition_used"], hunt["last_roll"] or 0
    victim = observation["steal_victim"]
    state.steal_victim = victim if victim is not None else -1
    roll = observation["steal_roll"]
    state.steal_roll = roll if roll is not None else 0
