"""Rulings challenged against the rulebook's plainest reading (engines/dinosaurs/RULINGS.md).

Each test quotes the rulebook sentence (rules/lost-valley-of-the-dinosaurs.txt) a checker
reading the rulebook alone would rest on, and checks the reading RULINGS.md now takes where
an earlier one was changed or a situation had no ruling yet.
"""

from __future__ import annotations

from test_dinosaurs_helpers import (
    BOARD,
    card,
    dice,
    die,
    dinosaur,
    draw_now,
    explorer,
    moving,
    names,
    phase,
    play,
    put,
    space,
    started,
    to_move,
)

from arena.game import CHANCE, TERMINAL
from engines.dinosaurs import actions as A
from engines.dinosaurs import cards as C
from engines.dinosaurs.cards import COUNTS, DECK_SIZE
from engines.dinosaurs.table import DEAD, OUTSIDE


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


def test_kept_cards_are_not_shuffled_back_with_the_discards() -> None:
    """"In the event the adventure cards are depleted, reshuffle the discard pile and continue
    to use them as the new draw deck." Kept cards are not on the discard pile (ruling 4)."""
    state = started()
    state.guns[0] = state.secret_paths[1] = 1
    state.deck = [0] * len(state.deck)
    state.deck[C.GUN] = 1  # the last card: the second gun
    state.discards = list(COUNTS)  # everything else: one secret path, no gun
    state.discards[C.GUN], state.discards[C.SECRET_PATH] = 0, 1
    play(state, card("You Have Found a Gun"), explorer(0), die(1), space("a5"))
    assert phase(state) == "draw" and state.guns[0] == 2
    assert state.deck[C.GUN] == 0 and state.deck[C.SECRET_PATH] == 1
    assert sum(state.deck) == DECK_SIZE - 3 and not any(state.discards)


def test_the_winner_ends_the_match_mid_round_with_nothing_after() -> None:
    """"The first player to bring the required number of treasure coins out of the valley is
    the hero of the adventure and wins the game." At once: no bullets after the move, and the
    seats after it in the round get no last turn (ruling 14)."""
    state = put(started(3), 1, "k5")
    state.carrying[1] = True
    state.guns[0], state.bullets[0], state.bullet_supply = 1, 3, 9
    moving(1, "k5", 4, state)
    play(state, A.EXIT)
    assert state.current_player() == TERMINAL and state.end_reason == "coins"
    assert state.winner == 0 and state.bullets[0] == 3 and state.legal_actions() == []


def test_explorers_left_count_captives_and_those_outside() -> None:
    """"if several players have the same number of coins, the player with the most explorers
    left is the winner": a captive in a lair and an explorer outside the valley are left, the
    dead are not (ruling 26)."""
    state = started()
    state.explorers[0:4] = [space("b1"), OUTSIDE, DEAD, DEAD]
    state.explorers[4:8] = [space("e3"), DEAD, DEAD, DEAD]
    assert state.ranking() == [0, 1]
    state.explorers[4:8] = [space("e3"), space("e4"), DEAD, DEAD]
    assert state.ranking() == [0, 0]


def test_a_lone_seat_plays_on_and_may_still_win() -> None:
    """"If the game ends because all explorers have died ...": all of them. While one seat has
    explorers left it plays on alone, and bringing a coin out still wins (ruling 26)."""
    state = put(started(2), 1, "k5")
    state.explorers[4:8] = [DEAD] * 4
    play(to_move(state), explorer(0), die(1), space("a5"))
    assert state.player == 0 and phase(state) == "draw"
    state.carrying[1] = True
    state.temple_coins -= 1
    moving(1, "k5", 3, state)
    play(state, A.EXIT)
    assert state.end_reason == "coins" and state.winner == 0


def test_a_dinosaur_does_not_come_back_to_where_it_started() -> None:
    """"Three Dinosaurs move 2 spaces each." and "Dinosaurs may move BY EXACT COUNT into any
    lair": a dinosaur moving 2 does not step out of its lair and straight back in, nor end
    where it stood; another free lair two steps away it may enter (ruling 20)."""
    state = draw_now(started(), "Restless Dinosaurs")
    play(state, dinosaur(0), space("c1"))
    assert state.steps_left == 1 and space("b1") not in state.legal_actions()
    assert names(state.legal_actions()) == ["b0", "c0", "c2", "d0", "d1"]
    state = started()
    state.dinosaurs[0] = space("e3")
    draw_now(state, "Restless Dinosaurs")
    play(state, dinosaur(0), space("e4"))
    assert space("e3") not in state.legal_actions()


def test_a_freed_captive_does_not_walk_back_onto_its_footprint() -> None:
    """"They may go in any direction, but never into a space already traveled into that
    turn." Dinosaurs Fight: "move your explorer onto one of the footprint spaces at the
    entrance, then roll the dice to move as normal": the footprint was travelled into this
    turn, so the move that follows may not come back to it (ruling 9)."""
    state = put(started(), 1, "d5")
    draw_now(state, "Dinosaurs Fight")
    play(state, explorer(1), space("d6"))
    assert state.walked[1] == 1 << space("d6")
    play(state, explorer(1), die(2), space("d7"))
    assert space("d6") not in state.legal_actions()
    assert names(state.legal_actions()) == ["c7", "c8", "d8", "e7", "e8"]


def test_after_the_water_run_the_move_does_not_go_back_over_it() -> None:
    """"never into a space already traveled into that turn": the Short of Water run ("one of
    your explorers rolls two dice and must reach the river on this turn") is travel of that
    turn, so the same explorer's move does not step back onto it (ruling 9)."""
    state = put(started(), 0, "b6")
    draw_now(state, "Your Expedition is Short")
    play(state, explorer(0), dice(2), space("b7"), space("c8"))  # a crossing: dry land
    assert phase(state) == "move-pick" and state.explorers[0] == space("c8")
    play(state, explorer(0), die(1))
    assert space("b7") not in state.legal_actions() and space("c7") in state.legal_actions()


def test_the_secret_path_traveller_does_not_walk_back_into_the_temple() -> None:
    """"You may use this card as an additional action to go directly to the Temple": the
    explorer has travelled into the temple this turn, so its move out may not enter it again
    ("never into a space already traveled into that turn", ruling 9)."""
    state = put(started(), 0, "e1")
    draw_now(state, "Discovered a Secret Path")
    play(state, A.SECRET + 0, explorer(0), dice(2), space("f5"))
    assert BOARD.temple not in state.legal_actions()
    assert state.observation(0)["now"]["walked"][0] == [BOARD.temple]


def test_a_flight_is_not_travel_the_explorer_may_come_back() -> None:
    """"They may go in any direction, but never into a space already traveled into that turn":
    an explorer the pteranodon carries (or a card places) has not travelled into the space it
    is set down on, which its move may come back to, as to any start (ruling 9)."""
    state = started()
    draw_now(state, "Pteranodon Swoops")
    play(state, explorer(0), space("e3"))
    assert state.walked[0] == 0
    play(state, explorer(0), die(2), space("e4"))
    assert space("e3") in state.legal_actions()
