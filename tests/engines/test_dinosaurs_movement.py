"""Moving an explorer: dice, steps, what blocks, water, the temple, the valley's edge."""

from __future__ import annotations

import pytest
from test_dinosaurs_helpers import (
    BOARD,
    card,
    dice,
    die,
    explorer,
    moving,
    names,
    phase,
    play,
    put,
    put_dinosaur,
    space,
    started,
    to_move,
)

from arena.game import CHANCE
from engines.dinosaurs import actions as A
from engines.dinosaurs.table import OUTSIDE


def test_one_die_on_land_two_dice_with_treasure() -> None:
    """"EITHER move any ONE of your explorers of your choice on land (by rolling 1 die) if you
    are NOT carrying treasure... 2 dice if you ARE carrying treasure\""""
    state = moving(0, "b5")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(die(face), 1 / 6) for face in range(1, 7)]
    state = put(started(), 1, "b6")
    state.carrying[1] = True
    play(to_move(state), explorer(1))
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == [dice(total) for total in range(2, 13)]
    assert outcomes[dice(7)] == 6 / 36 and outcomes[dice(12)] == 1 / 36


def test_in_a_river_one_space_without_dice() -> None:
    """"OR if you are moving in a river, in the swamp, or exiting water onto land, simply move
    1 space (do not roll the dice).\""""
    state = moving(0, "g6")
    assert phase(state) == "move-step" and state.steps_left == 1
    assert names(state.legal_actions()) == ["f5", "g5", "g7", "h5", "h6"]
    play(state, space("h5"))
    assert state.explorers[0] == space("h5")
    assert phase(state) == "draw" and state.player == 1


def test_explorers_starting_in_the_swamp_move_one_space_along_the_arrows() -> None:
    """"Explorers move only 1 space if they start their turn in a river or the swamp." /
    "The explorer can only move one space per turn via the grey arrows until they reach dry
    land beyond the blue arrows.\""""
    state = moving(0, "h3")  # the monster is on h2, behind it
    assert phase(state) == "move-step"
    assert names(state.legal_actions()) == ["i4"]  # the next grey arrow, an exit
    play(state, space("i4"))
    assert state.player == 1
    state = moving(0, "i4")
    assert names(state.legal_actions()) == ["h3", "h4", "i5", "j3", "j4"]
    play(state, space("h4"))
    assert state.explorers[0] == space("h4") and state.player == 1


def test_explorers_may_share_spaces() -> None:
    """"Explorers may share spaces.\""""
    state = put(put(started(), 4, "b7"), 5, "b7")
    moving(0, "b5", 2, state)
    play(state, space("b6"), space("b7"))
    assert state.explorers_at(space("b7")) == [0, 4, 5]


def test_never_into_a_space_already_traveled_into_that_turn() -> None:
    """"They may go in any direction, but never into a space already traveled into that
    turn." Ruling 9: the start space was not travelled into, so the explorer may come back."""
    state = moving(0, "b5", 3)
    assert space("b6") in state.legal_actions()
    play(state, space("b6"))
    assert space("b5") in state.legal_actions()
    play(state, space("c6"))
    assert space("b6") not in state.legal_actions() and space("b5") in state.legal_actions()
    play(state, space("b5"))
    assert state.explorers[0] == space("b5") and state.player == 1


def test_never_into_a_dinosaur_or_the_swamp_monster() -> None:
    """"They may not move into a space occupied by a dinosaur or the swamp monster!\""""
    state = put_dinosaur(started(), 0, "b6")
    moving(0, "b5", 2, state)
    assert space("b6") not in state.legal_actions()
    state = started()
    state.monster = space("j3")
    moving(0, "i4", state=state)
    assert space("j3") not in state.legal_actions()
    assert space("h3") in state.legal_actions()


def test_enter_and_leave_the_valley_by_the_four_arrows() -> None:
    """"They may enter or leave the valley by any of the four arrows.\""""
    state = moving(0, None, 4)
    assert state.legal_actions() == sorted(BOARD.entries)
    assert names(state.legal_actions()) == ["a5", "f0", "f13", "k5"]
    play(state, space("f0"))
    assert A.EXIT in state.legal_actions()
    play(state, A.EXIT)
    assert state.explorers[0] == OUTSIDE and state.player == 1


def test_no_exact_roll_to_enter_the_temple_and_the_turn_ends() -> None:
    """"They don't need an exact die roll to enter the temple, or to exit the valley." /
    "An exact dice roll isn't needed to enter, but your turn will end.\""""
    state = moving(0, "e5", 5)
    play(state, space("e6"))
    assert BOARD.temple in state.legal_actions()
    play(state, BOARD.temple)
    assert state.explorers[0] == BOARD.temple
    assert phase(state) == "draw" and state.player == 1


def test_entering_the_temple_ends_the_turn_with_no_extras_after_it() -> None:
    """"An exact dice roll isn't needed to enter, but your turn will end." Ruling 12: no
    secret path out of the temple after walking in (nor bullets), in that turn."""
    state = put(started(), 0, "e5")
    state.secret_paths[0] = 1
    state.guns[0], state.bullets[0] = 1, 2
    moving(0, "e5", 5, state)
    play(state, space("e6"), BOARD.temple)
    assert state.carrying[0] and state.secret_paths[0] == 1 and state.bullets[0] == 2
    assert phase(state) == "draw" and state.player == 1


def test_the_temple_may_only_be_entered_from_its_arrows_by_any_number() -> None:
    """"The temple may only be entered by explorers. They may enter on any spaces marked with
    an arrow. Any number of explorers may be there at the same time.\""""
    state = put(put(started(), 4, "f6"), 5, "f6")
    moving(0, "e5", 3, state)
    assert BOARD.temple not in state.legal_actions()  # e5 has no arrow
    play(state, space("f5"), BOARD.temple)
    assert state.explorers_at(BOARD.temple) == [0, 4, 5]


def test_crossings_are_crossed_with_a_normal_roll() -> None:
    """"There are two crossings for one river, but only one for the other two rivers. Cross at
    these places with a normal dice-roll.\""""
    state = moving(0, "f7", 3)
    play(state, space("f8"))
    assert phase(state) == "move-step" and state.steps_left == 2
    play(state, space("f9"), space("f10"))
    assert state.explorers[0] == space("f10") and state.player == 1


def test_wading_into_a_river_ends_the_move() -> None:
    """"If an explorer wades across a river, their turn ends in the water regardless of any
    movement points left.\""""
    state = moving(0, "f2", 4)
    play(state, space("g2"))
    assert state.explorers[0] == space("g2")
    assert phase(state) == "draw" and state.player == 1


def test_never_into_a_lair_or_the_swamp_but_onto_the_flowery_spaces() -> None:
    """"Explorers may not move into a dinosaur's lair or into the swamp. The edge of the swamp
    is marked with grey arrows, so they are safe to move onto the "flowery" spaces just
    outside them.\""""
    state = put_dinosaur(started(), 0, "a1")  # the lair b1 is empty now
    moving(0, "c1", 6, state)
    assert space("b1") not in state.legal_actions()
    state = moving(0, "g1", 2)
    assert space("h0") in state.legal_actions()
    play(state, space("h0"))
    assert not {space("h1"), space("i1")} & set(state.legal_actions())
    assert space("i0") in state.legal_actions()


def test_a_move_uses_the_whole_roll() -> None:
    """Ruling: a move uses the whole roll; there is no stopping short (no "done")."""
    state = moving(0, "b5", 3)
    play(state, space("b6"))
    assert A.DONE not in state.legal_actions() and phase(state) == "move-step"
    play(state, space("b7"))
    assert phase(state) == "move-step"
    play(state, space("c7"))
    assert phase(state) == "draw"


def test_an_explorer_uses_the_whole_roll_when_it_can() -> None:
    """Ruling 8: "A move uses the whole roll". From a2 with 2 points left, a1 is a dead end
    (b0 holds a dinosaur, a2 is travelled) while b2 or a3 lead on: a1 is not offered. A step
    that ends the move early (temple, river, an entry to leave by) still counts as whole."""
    state = put_dinosaur(started(), 0, "b0")
    moving(0, "a3", 3, state)
    play(state, space("a2"))
    assert names(state.legal_actions()) == ["a3", "b2"]
    state = moving(0, "g1", 3)
    play(state, space("h0"))  # i0 is a dead end: j0 is the swamp
    assert names(state.legal_actions()) == ["g0", "g1"]


def test_a_boxed_in_explorer_stops_where_it_is() -> None:
    """Ruling 8: an explorer with points left but nowhere legal to go stops there."""
    state = put_dinosaur(put_dinosaur(put_dinosaur(started(), 0, "b0"), 1, "a3"), 2, "b2")
    moving(0, "a1", 3, state)
    play(state, space("a2"), space("a1"))  # back to its start; a2 is travelled, b0 a dinosaur
    assert state.explorers[0] == space("a1") and state.player == 1


def test_an_explorer_that_cannot_move_is_not_offered() -> None:
    state = put_dinosaur(put_dinosaur(started(), 0, "b0"), 1, "a2")
    put(state, 0, "a1")
    to_move(state)
    assert explorer(0) not in state.legal_actions()
    assert explorer(1) in state.legal_actions()


@pytest.mark.parametrize("where", ["b5", None])
def test_a_seat_moves_only_its_own_explorers(where: str | None) -> None:
    state = to_move(put(started(), 5, "b5"))
    put(state, 0, where)
    assert all(explorer(0) <= action < explorer(4) for action in state.legal_actions())
    play(state, explorer(1), die(1), space("a5"))
    assert state.player == 1
    play(state, card("You Have Found"))
    assert all(explorer(4) <= action < explorer(8) for action in state.legal_actions())
