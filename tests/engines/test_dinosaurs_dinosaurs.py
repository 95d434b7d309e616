"""Dinosaurs: where they may go, captures, lairs and captives."""

from __future__ import annotations

from test_dinosaurs_helpers import (
    BOARD,
    dinosaur,
    draw_now,
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

from engines.dinosaurs import actions as A
from engines.dinosaurs.state import DinosaursState


def grazing(dinosaurs: dict[int, str],
            explorers: dict[int, str] | None = None) -> DinosaursState:
    """Seat 0 has drawn Encounter Grazing Dinosaurs with the pieces where asked."""
    state = started()
    for number, name in dinosaurs.items():
        put_dinosaur(state, number, name)
    for number, name in (explorers or {}).items():
        put(state, number, name)
    return draw_now(state, "Encounter Grazing")


def test_dinosaur_movement_is_determined_by_the_cards_and_the_drawer_steers() -> None:
    """"Dinosaur movement is always determined by the cards drawn." Ruling: the drawer
    chooses which dinosaurs move and every step they take."""
    state = grazing({})
    assert phase(state) == "dinosaur-pick" and state.current_player() == 0
    assert state.legal_actions() == [dinosaur(number) for number in range(6)]
    play(state, dinosaur(0))
    assert names(state.legal_actions()) == ["b0", "c1"]


def test_dinosaurs_never_enter_lava_the_swamp_or_the_temple() -> None:
    """"Dinosaurs can move freely on all land or water spaces but they can't cross lava, enter
    the Swamp or the Temple, or leave the valley.\""""
    state = grazing({0: "h4"})
    state.lava[space("h5")] = True
    play(state, dinosaur(0))
    assert names(state.legal_actions()) == ["g4", "g5", "i5"]  # i4 swamp, h5 lava
    state = grazing({0: "f3"})
    play(state, dinosaur(0))
    assert BOARD.temple not in state.legal_actions()
    assert space("g3") in state.legal_actions()  # water is fine
    state = grazing({0: "f0"})
    play(state, dinosaur(0))
    assert A.EXIT not in state.legal_actions()


def test_dinosaurs_enter_a_lair_only_by_exact_count() -> None:
    """"Dinosaurs may move BY EXACT COUNT into any lair (only if unoccupied by another dinosaur
    or only occupied by explorers).\""""
    state = started()
    put_dinosaur(state, 0, "c1")  # lair b1 is free now
    draw_now(state, "Restless Dinosaurs")
    play(state, dinosaur(0))
    assert space("b1") not in state.legal_actions()  # two steps to go
    state = grazing({0: "c1"})
    play(state, dinosaur(0))
    assert space("b1") in state.legal_actions()
    state = grazing({0: "c1", 1: "b1"})  # b1 holds another dinosaur
    play(state, dinosaur(0))
    assert space("b1") not in state.legal_actions()


def test_a_dinosaur_moves_its_full_count_when_it_can() -> None:
    """"Restless Dinosaurs! Three Dinosaurs move 2 spaces each." (Ruling 20: a dinosaur moves
    exactly its count if it can.) From a2, a1 is a dead end (b0 holds a dinosaur) while a3
    and b2 lead on: a1 is not offered. A capture on the way ends a move early and counts."""
    state = put_dinosaur(put_dinosaur(started(), 0, "a2"), 1, "b0")
    draw_now(state, "Restless")
    play(state, dinosaur(0))
    assert names(state.legal_actions()) == ["a3", "b2"]
    state = put(put_dinosaur(put_dinosaur(started(), 0, "a2"), 1, "b0"), 4, "a1")
    draw_now(state, "Restless")
    play(state, dinosaur(0))
    assert names(state.legal_actions()) == ["a1", "a3", "b2"]


def test_a_dinosaur_that_cannot_move_is_not_chosen_while_others_can() -> None:
    """"Restless Dinosaurs! Three Dinosaurs move 2 spaces each." The dinosaur in lair d13
    cannot move (both footprints under lava): choosing it would let only two move."""
    state = started()
    state.lava[space("d12")] = state.lava[space("e13")] = True
    draw_now(state, "Restless")
    assert dinosaur(2) not in state.legal_actions() and len(state.legal_actions()) == 5
    boxed = started()
    for marks in BOARD.footprints:  # every lair walled in: no dinosaur can step
        for mark in marks:
            boxed.lava[mark] = True
    draw_now(boxed, "Restless")
    assert boxed.legal_actions() == [dinosaur(number) for number in range(6)]


def test_dinosaurs_never_share_a_space() -> None:
    """"Dinosaurs may never share any space with another dinosaur.\""""
    state = grazing({0: "b5", 1: "b6"})
    play(state, dinosaur(0))
    assert space("b6") not in state.legal_actions()


def test_a_dinosaur_captures_everyone_on_the_space_it_enters() -> None:
    """"A Dinosaur captures all explorers on a space that it enters." / "Captured explorer(s)
    and the Dinosaur go straight to any lair unoccupied by another dinosaur (even if other
    explorers are there!).\""""
    state = grazing({0: "b5", 1: "a1"}, {0: "b6", 4: "b6", 5: "b7", 6: "b1"})
    play(state, dinosaur(0), space("b6"))
    assert phase(state) == "lair-pick" and state.current_player() == 0
    assert names(state.legal_actions()) == ["b1", "d5"]  # the lairs without a dinosaur
    play(state, space("b1"))
    assert state.dinosaurs[0] == space("b1")
    assert state.explorers_at(space("b1")) == [0, 4, 6]
    assert state.explorers[5] == space("b7")
    assert phase(state) == "dinosaur-pick"  # its move ended with the capture


def test_a_captured_carrier_leaves_the_coin_on_its_square() -> None:
    """"If the explorer was carrying a coin, it must remain on the square that they last
    occupied before being captured.\""""
    state = grazing({0: "b5", 1: "a1"}, {4: "b6"})
    state.carrying[4] = True
    play(state, dinosaur(0), space("b6"), space("b1"))
    assert not state.carrying[4] and state.coins[space("b6")] == 1


def test_captives_stay_while_their_dinosaur_guards_the_lair() -> None:
    """"If an explorer has been captured, they cannot leave the lair if a dinosaur occupies
    the same lair (except for a "Dinosaurs Fight!" card).\""""
    state = to_move(put(put(started(), 0, "b1"), 1, "b5"))
    assert explorer(0) not in state.legal_actions()
    assert explorer(1) in state.legal_actions()


def test_captives_walk_out_when_the_dinosaur_is_away() -> None:
    """"Explorers can escape from a lair by either: 1. Rolling the dice and moving when the
    dinosaur is absent.\""""
    state = put_dinosaur(started(), 0, "a1")
    moving(0, "b1", 2, state)
    assert names(state.legal_actions()) == ["b0", "c1"]
    play(state, space("c1"), space("c2"))
    assert state.explorers[0] == space("c2")


def test_a_lair_dinosaur_steps_out_over_its_footprints() -> None:
    state = grazing({})
    play(state, dinosaur(4))
    assert names(state.legal_actions()) == ["i7", "j6"]
