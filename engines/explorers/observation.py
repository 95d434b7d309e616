"""What a seat sees: everything on the table (only the deck's order is hidden)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from arena.game import Static
from engines.explorers import phases
from engines.explorers.cards import DINOSAUR, EFFECTS, SPECIES, CardSet
from engines.explorers.table import SETUP_DISCARDS, Table


@functools.cache
def card_table(cards: CardSet) -> tuple[dict[str, Any], ...]:
    """Every card's public stats by id, one dict per card (for the row)."""
    return tuple(cards.describe(card) for card in range(cards.size))


@functools.cache
def card_columns(cards: CardSet) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """Every card's stats as columns indexed by card id: compact to copy and to serialise.

    ``kind`` is "dinosaur" or the advantage's effect; ``species`` is "" for advantages.
    """
    table = card_table(cards)
    kinds = tuple(entry.get("effect", "dinosaur") for entry in table)
    columns = {"name": cards.names, "kind": kinds,
               "species": tuple(entry.get("species", "") for entry in table),
               "difficulty": cards.difficulty, "points": cards.points,
               "damage_success": cards.damage_success, "damage_failure": cards.damage_failure}
    return tuple(columns.items())


_CARD_VIEWS: dict[int, tuple[CardSet, Static]] = {}


def card_view(cards: CardSet) -> Static:
    """The observation's ``cards``: the columns of :func:`card_columns` as lists, built once
    per card set and shared by every observation (read-only: see :class:`arena.game.Static`).
    Found by identity: hashing a card set at each decision would cost more than the lookup."""
    kept = _CARD_VIEWS.get(id(cards))
    if kept is None or kept[0] is not cards:
        if len(_CARD_VIEWS) >= 4:  # a card or board file read anew for each match: keep a few
            _CARD_VIEWS.clear()
        kept = _CARD_VIEWS[id(cards)] = (
            cards, Static({key: list(column) for key, column in card_columns(cards)}))
    return kept[1]


def cards_from_columns(columns: Mapping[str, Sequence[Any]]) -> CardSet:
    """The :class:`CardSet` behind an observation's ``cards`` (the inverse of
    :func:`card_columns`), so that a bot can score with :mod:`engines.explorers.scoring`."""
    return CardSet(
        names=tuple(columns["name"]),
        kind=tuple(DINOSAUR if kind == "dinosaur" else EFFECTS[kind] for kind in columns["kind"]),
        species=tuple(SPECIES.index(name) if name else -1 for name in columns["species"]),
        difficulty=tuple(columns["difficulty"]),
        points=tuple(columns["points"]),
        damage_success=tuple(columns["damage_success"]),
        damage_failure=tuple(columns["damage_failure"]),
        source="observation",
    )


def _players(state: Table) -> list[dict[str, Any]]:
    points = state.points_now()
    return [{
        "seat": seat,
        "exploration_tokens": state.exploration_tokens[seat],
        "ammunition": state.ammunition[seat],
        "dinosaurs": state.dinosaurs[seat][:],
        "advantages": state.advantages[seat][:],
        "trophies": state.trophies[seat],
        "trail_tokens": [SPECIES[species] for species in state.trail_tokens[seat]],
        "throw_bonus": state.throw_bonus(seat),
        "abandoned": state.abandoned[seat],
        "points": points[seat],
        "total_points": sum(past[seat] for past in state.history),
    } for seat in range(state.num_players)]


def _hunt(state: Table) -> dict[str, Any] | None:
    if state.hunt_slot < 0:
        return None
    return {"card": state.row[state.hunt_slot], "slot": state.hunt_slot,
            "rolls": state.hunt_rolls, "ammunition_used": state.hunt_ammunition,
            "last_roll": state.last_roll if state.hunt_rolls else None,
            "bonus": state.throw_bonus(state.player)}


def build(state: Table, seat: int) -> dict[str, Any]:
    """The observation of ``seat``: a JSON-able dict of the whole public table."""
    table = card_table(state.cards)
    return {
        "game": "explorers-of-the-lost-valley",
        "seat": seat,
        "num_players": state.num_players,
        "advanced": state.advanced,
        "phase": phases.NAMES[state.phase],
        "current_player": state.current_player(),
        "adventure": state.adventure,
        "turn": state.turns,
        "first_player": state.first_player,
        "row": [dict(table[card]) if card >= 0 else None for card in state.row],
        "deck_count": len(state.deck),
        "deck_count_at_start": state.cards.size - SETUP_DISCARDS[state.num_players]
        - len(state.row),
        "deck": state.deck[:],
        "discards": state.discards[:],
        "center_ammunition": state.center_ammunition,
        "players": _players(state),
        "actions_left": state.actions_left,
        "turn_passes": state.passing,
        "extra_action_bought": state.extra_bought,
        "discard_locked": state.discard_locked,
        "steal_locked": state.steal_locked,
        "next_discard_locked": state.discarded,
        "next_steal_locked": state.stole,
        "hunt": _hunt(state),
        "steal_victim": state.steal_victim if state.steal_victim >= 0 else None,
        "steal_roll": state.steal_roll if state.phase == phases.STEAL_PICK else None,
        "hound_card": state.revealed if state.revealed >= 0 else None,
        "history": [points[:] for points in state.history],
        "trophy_history": [seats[:] for seats in state.trophy_history],
        "cards": card_view(state.cards),
    }
