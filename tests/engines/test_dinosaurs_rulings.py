"""Rulings challenged against the rulebook's plainest reading (engines/dinosaurs/RULINGS.md).

Each test quotes the rulebook sentence (rules/lost-valley-of-the-dinosaurs.txt) a checker
reading the rulebook alone would rest on, and checks the reading RULINGS.md now takes where
an earlier one was changed or a situation had no ruling yet.
"""

from __future__ import annotations

from test_dinosaurs_helpers import (
    BOARD,
    dice,
    draw_now,
    explorer,
    phase,
    play,
    put,
    space,
    started,
    to_move,
)

from arena.game import CHANCE
from engines.dinosaurs import actions as A


def test_the_secret_path_is_an_additional_action_for_the_traveller_too() -> None:
    """"You may use this card as an additional action to go directly to the Temple" and
    "EITHER move any ONE of your explorers of your choice": the path comes on top of the move,
    and nothing bars the explorer that took it from making the move (ruling 24)."""
    state = put(started(), 0, "e1")
    draw_now(state, "Discovered a Secret Path")
    play(state, A.SECRET + 0)
    assert state.explorers[0] == BOARD.temple and state.carrying[0]
    assert explorer(0) in state.legal_actions()
    play(state, explorer(0))
    assert state.current_player() == CHANCE
    assert sorted(dict(state.chance_outcomes())) == [dice(total) for total in range(2, 13)]
    play(state, dice(2), space("f5"), space("f4"))
    assert state.explorers[0] == space("f4") and state.carrying[0] and state.player == 1


def test_out_of_the_temple_by_the_path_then_on_from_the_cave() -> None:
    """"(or leave the Temple through the secret passage)" as an additional action: the
    explorer may walk on from the cave in the same turn, but not back by a second card
    ("Travel is one way only")."""
    state = put(started(), 0, "f6")
    state.carrying[0] = True
    state.secret_paths[0] = 1
    play(to_move(state), A.SECRET + 0, space("j10"))
    assert phase(state) == "move-pick" and explorer(0) in state.legal_actions()
    state.secret_paths[0] = 1  # a second card in hand: still no way straight back
    assert A.SECRET + 0 not in state.legal_actions()
    play(state, explorer(0), dice(2))
    assert phase(state) == "move-step" and state.steps_left == 2
    play(state, state.legal_actions()[0])
    assert state.explorers[0] in BOARD.neighbors[space("j10")]
