"""Readable names for action ids (``action_to_string``)."""

from __future__ import annotations

from engines.explorers import actions as A
from engines.explorers import phases
from engines.explorers.cards import DINOSAUR, SPECIES, CardSet
from engines.explorers.table import Table

_DRAW_VERBS = {phases.SETUP_DISCARD: "setup discard", phases.REVEAL: "reveal",
               phases.HOUND_REVEAL: "hound reveals"}


def card_label(cards: CardSet, card: int) -> str:
    """A card's name with its difficulty (dinosaurs) or its kind (advantages)."""
    if card < 0 or card >= cards.size:
        return f"card #{card}"
    if cards.kind[card] == DINOSAUR:
        return f"{cards.names[card]} (difficulty {cards.difficulty[card]})"
    return f"{cards.names[card]} (advantage)"


def _row_move(state: Table, action: int) -> str:
    slot = (action - A.TAKE) % 2
    card = state.row[slot]
    if action >= A.DISCARD:
        verb = "discard"
    elif card >= 0 and state.cards.kind[card] == DINOSAUR:
        verb = "hunt"
    else:
        verb = "take"
    if card < 0:
        return f"{verb} row[{slot}]"
    return f"{verb} row[{slot}] {card_label(state.cards, card)}"


def _steal_card(state: Table, card: int) -> str:
    owner = state.steal_victim if state.steal_victim >= 0 else state.owner(card)
    name = state.cards.names[card] if 0 <= card < state.cards.size else f"card #{card}"
    points = state.cards.points[card] if 0 <= card < state.cards.size else 0
    return f"steal {name} ({points} points) from seat {owner}"


def _steal(state: Table, species: int) -> str:
    """The steal names its steps in the rulebook's order: the trail token discarded, then a
    player asked (the die comes after the asking, RULINGS.md ruling 29); with no one left to
    ask, the discard is all it does (ruling 30)."""
    token = f"discard a {SPECIES[species]} trail token"  # "a" as in the trail deal's name
    if state.phase != phases.TURN or state.victims():
        return f"steal: {token} and ask a player for a dinosaur"
    return f"steal: {token} (no player left to ask)"


def describe_action(state: Table, action: int) -> str:
    """A stable, human-readable name of ``action`` in ``state``; anything but an id of the
    game (a malformed move too) is an ``unknown action``."""
    if not isinstance(action, int) or isinstance(action, bool):
        return f"unknown action {action!r}"
    family = A.kind(action)
    if family == "unknown":
        return f"unknown action {action}"
    if family in ("take", "discard"):
        return _row_move(state, action)
    if family == "fixed":
        return A.FIXED_NAMES[action]
    if family == "steal":
        return _steal(state, action - A.STEAL)
    if family == "steal-card":
        return _steal_card(state, action - A.STEAL_CARD)
    if family == "draw":
        verb = _DRAW_VERBS.get(state.phase, "draw")
        return f"{verb} {card_label(state.cards, action - A.DRAW)}"
    if family == "roll":
        return f"roll {action - A.ROLL}"
    if family == "die":
        return f"die {action - A.DIE}"
    if family == "steal-from":
        return f"steal: ask seat {action - A.STEAL_FROM} for a dinosaur"
    if family == "first-player":
        return f"seat {action - A.FIRST_PLAYER} goes first"
    return f"deal a {SPECIES[action - A.TRAIL_DEAL]} trail token to seat {state.dealt // 2}"
