"""Game preparation and the start of a match."""

from __future__ import annotations

from test_dinosaurs_helpers import BOARD, GAME, names

from arena.game import CHANCE
from engines.dinosaurs import actions as A
from engines.dinosaurs.cards import DECK_SIZE
from engines.dinosaurs.table import COINS, OUTSIDE


def test_the_table_as_the_rulebook_prepares_it() -> None:
    """"Place one Tyrannosaurus in each lair space. Place the swamp monster on one of the swamp
    spaces marked with a grey arrow. Place all Treasure Coins on the top of the temple roof.
    Shuffle and place all adventure cards face down next to the game board. Players place
    their four explorers next to the entry spaces on the edge of the valley. Place all lava
    pieces inside the volcano cone.\""""
    state = GAME.new_initial_state(4)
    assert state.dinosaurs == list(BOARD.lairs) and len(state.dinosaurs) == 6
    assert state.monster in BOARD.swamp_ring and names([state.monster]) == ["h2"]
    assert state.temple_coins == COINS == 12 and not any(state.coins)
    assert sum(state.deck) == DECK_SIZE == 54 and not any(state.discards)
    assert state.explorers == [OUTSIDE] * 16 and not any(state.carrying)
    assert state.lava_placed == 0 and not any(state.lava)
    assert state.bullet_supply == 12 and state.bullets == [0] * 4


def test_a_starting_player_is_chosen_by_chance() -> None:
    """"Choose a starting player." One chance node, every seat equally likely; the chosen seat
    draws the first card."""
    state = GAME.new_initial_state(3)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(A.FIRST_PLAYER + seat, 1 / 3) for seat in range(3)]
    state.apply_action(A.FIRST_PLAYER + 2)
    assert state.player == 2 and state.current_player() == CHANCE
    assert all(A.CARD <= action < A.DIE + 1 for action in state.legal_actions())


def test_every_turn_starts_with_a_card() -> None:
    """"Each turn always consists of two parts: Take a card, read it aloud, and follow the
    instructions if possible." then move one explorer."""
    state = GAME.new_initial_state(2)
    state.apply_action(A.FIRST_PLAYER)
    state.apply_action(A.CARD + 2)  # the swamp monster moves
    assert names([state.monster]) == ["h3"] and state.discards[2] == 1
    assert state.current_player() == 0
    assert state.legal_actions() == [A.EXPLORER + number for number in range(4)]
