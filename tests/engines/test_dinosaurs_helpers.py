"""Helpers for the Lost Valley of the Dinosaurs tests: exact situations on the shipped board.

A test starts from a match whose first player is chosen, puts the pieces it
needs where it needs them (by space name), then applies explicit card draws,
dice and decisions, so the position it checks is exact.
"""

from __future__ import annotations

from engines.dinosaurs import actions as A
from engines.dinosaurs.board import default_board
from engines.dinosaurs.cards import NAMES
from engines.dinosaurs.game import DinosaursGame
from engines.dinosaurs.phases import DRAW
from engines.dinosaurs.phases import NAMES as PHASES
from engines.dinosaurs.state import DinosaursState
from engines.dinosaurs.table import OUTSIDE

BOARD = default_board()
GAME = DinosaursGame()
PARK = ("b1", "d5", "d13", "f11", "j7", "j12")
"""The six lairs, where the dinosaurs start."""


def space(name: str) -> int:
    """The id of the space called ``name`` on the shipped board."""
    return BOARD.index(name)


def names(spaces: list[int]) -> list[str]:
    return [BOARD.names[at] for at in spaces]


def card(name: str) -> int:
    """The chance action drawing the card whose name starts with ``name``."""
    kind = next(kind for kind, full in enumerate(NAMES) if full.startswith(name))
    return A.CARD + kind


def die(face: int) -> int:
    return A.DIE + face


def dice(total: int) -> int:
    return A.DICE + total


def explorer(number: int) -> int:
    """The decision choosing explorer ``number`` (seat * 4 + k)."""
    return A.EXPLORER + number


def dinosaur(number: int) -> int:
    return A.DINOSAUR + number


def go(*spaces: str) -> list[int]:
    """The space decisions for the named spaces, in order."""
    return [space(name) for name in spaces]


def started(players: int = 2, coins: int = 1, first: int = 0) -> DinosaursState:
    """A match at its first draw, ``first`` on move."""
    state = GAME.new_initial_state(players, {"coins": coins})
    state.apply_action(A.FIRST_PLAYER + first)
    return state


def put(state: DinosaursState, number: int, name: str | None) -> DinosaursState:
    """Stand explorer ``number`` on the space called ``name`` (None: outside the valley)."""
    state.explorers[number] = OUTSIDE if name is None else space(name)
    return state


def put_dinosaur(state: DinosaursState, number: int, name: str) -> DinosaursState:
    state.dinosaurs[number] = space(name)
    return state


def play(state: DinosaursState, *actions: int) -> DinosaursState:
    """Apply ``actions`` in order (decisions and chance outcomes alike)."""
    for action in actions:
        state.apply_action(action)
    return state


def phase(state: DinosaursState) -> str:
    return PHASES[state.phase]


def stack(state: DinosaursState, *cards: str) -> DinosaursState:
    """Leave only the named cards in the deck (one each), so a test can draw them in turn."""
    for kind in range(len(state.deck)):
        state.deck[kind] = 0
    for name in cards:
        state.deck[card(name) - A.CARD] += 1
    return state


def to_move(state: DinosaursState) -> DinosaursState:
    """Draw a card with no effect on the board (a gun, kept; one is added to the deck first
    so that any number of turns can start this way), reaching the move."""
    state.deck[card("You Have Found a Gun") - A.CARD] += 1
    return play(state, card("You Have Found a Gun"))


def moving(number: int, at: str | None, roll: int | None = None,
           state: DinosaursState | None = None) -> DinosaursState:
    """Explorer ``number`` of seat 0 stands on ``at`` and starts its move (with ``roll``)."""
    state = put(state or started(), number, at)
    play(to_move(state), explorer(number))
    if roll is not None:
        play(state, die(roll) if roll <= 6 and not state.carrying[number] else dice(roll))
    return state


def draw_now(state: DinosaursState, name: str) -> DinosaursState:
    """Start a fresh turn of the seat on move and draw the card called ``name`` (one is added
    to the deck first)."""
    if state.phase != DRAW:
        state.start_turn()
    state.deck[card(name) - A.CARD] += 1
    return play(state, card(name))
