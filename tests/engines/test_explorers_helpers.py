"""Helpers for the Explorers of the Lost Valley tests: exact situations by naming chance.

Every test builds its situation from the initial state by applying explicit
chance outcomes (first player, trail tokens, setup discards, the row's
cards, dice), so the position it checks is exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.explorers import actions as A
from engines.explorers.cards import SPECIES, default_cards
from engines.explorers.game import ExplorersGame
from engines.explorers.state import ExplorersState

CARDS = default_cards()

# Cards used as neutral setup discards unless a test names its own.
FILLER = ("Megalosaurus hesperis", "Plesiosaurus brachypterygius", "Iguanodon galvensis",
          "Megalosaurus bucklandii", "Plesiosaurus macrocephalus")


def card(name: str) -> int:
    """The id of the card called ``name`` in the shipped deck."""
    return CARDS.index(name)


def draw(name: str) -> int:
    """The chance action drawing the card called ``name``."""
    return A.DRAW + card(name)


def roll(total: int) -> int:
    """The chance action of a two-dice throw totalling ``total``."""
    return A.ROLL + total


def die(face: int) -> int:
    """The chance action of one die showing ``face``."""
    return A.DIE + face


def trail(species: str) -> int:
    """The decision to discard a trail token of ``species`` and steal."""
    return A.STEAL + SPECIES.index(species)


def ask(seat: int) -> int:
    """The thief's decision to ask ``seat`` for a dinosaur."""
    return A.STEAL_FROM + seat


def steal(name: str) -> int:
    """The decision to steal the dinosaur called ``name``."""
    return A.STEAL_CARD + card(name)


CAMP = (A.BASE_CAMP, A.END_TURN)
"""A whole turn spent going back to the base camp (no extra action bought after it)."""


def new_state(players: int = 3, advanced: bool = False) -> ExplorersState:
    return ExplorersGame().new_initial_state(players, {"advanced": advanced})


def setup(players: int = 3, row: Sequence[str] = ("Pterodactylus antiquus", "Iguanodon mantelli"),
          *, first: int = 0, discards: Sequence[str] | None = None,
          trails: Sequence[Sequence[str]] | None = None) -> ExplorersState:
    """A state at the first turn of the first adventure, set up exactly as asked.

    ``trails`` (one pair of species per seat) makes it an advanced game.
    """
    state = new_state(players, advanced=trails is not None)
    state.apply_action(A.FIRST_PLAYER + first)
    for pair in trails or ():
        for species in pair:
            state.apply_action(A.TRAIL_DEAL + SPECIES.index(species))
    count = {2: 3, 3: 2, 4: 1}[players]
    chosen = list(discards) if discards is not None else [
        name for name in FILLER if name not in row][:count]
    play(state, *(draw(name) for name in chosen), *(draw(name) for name in row))
    return state


def play(state: ExplorersState, *actions: int) -> ExplorersState:
    """Apply ``actions`` in order (decisions and chance outcomes alike)."""
    for action in actions:
        state.apply_action(action)
    return state


def reveal(state: ExplorersState, name: str) -> ExplorersState:
    """Refill the row with the card called ``name``."""
    return play(state, draw(name))


def points(name: str) -> int:
    """The printed points of the dinosaur card called ``name``."""
    return CARDS.points[card(name)]


def end_turn(state: ExplorersState) -> ExplorersState:
    """The seat on move ends its turn without buying an extra action, if it is offered one."""
    if state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]:
        play(state, A.END_TURN)
    return state


def capture(state: ExplorersState, slot: int, refill: str) -> ExplorersState:
    """The seat on move hunts row[slot] with a throw of 12, the row is refilled, and the
    turn ends."""
    return end_turn(play(state, A.TAKE + slot, roll(12), draw(refill)))


def abandon_all(state: ExplorersState) -> ExplorersState:
    """The turn on move ends, then everyone still in the adventure abandons it, ending it."""
    adventure = state.adventure
    end_turn(state)
    while state.adventure == adventure and not state.is_terminal():
        play(state, A.ABANDON)
    return state
