"""Invariants that hold at every node of random matches: the pieces never break the rules."""

from __future__ import annotations

import random

import pytest
from test_dinosaurs_helpers import BOARD, GAME

from arena.game import CHANCE, sample_chance
from engines.dinosaurs.board import LAIR, NO_DINOSAUR, SLOPE, SWAMP, TEMPLE
from engines.dinosaurs.phases import LAIR_PICK, LAVA_DROP
from engines.dinosaurs.state import DinosaursState
from engines.dinosaurs.table import COINS, DEAD, LAVA_PIECES, OUTSIDE


def check(state: DinosaursState) -> None:
    terrain = BOARD.terrain
    dinosaurs = state.dinosaurs
    assert len(set(dinosaurs)) == len(dinosaurs), "two dinosaurs share a space"
    for at in dinosaurs:
        assert terrain[at] not in NO_DINOSAUR and not state.lava[at]
    for number, at in enumerate(state.explorers):
        if at in (OUTSIDE, DEAD):
            assert not state.carrying[number]
            continue
        assert not state.lava[at] and terrain[at] != SLOPE
        assert at != state.monster, "an explorer shares the swamp monster's space"
        if terrain[at] == LAIR:  # a captive dropped its coin (one in the swamp may claim one)
            assert not state.carrying[number]
        if at in dinosaurs and state.phase != LAIR_PICK:  # a capture waits for its lair
            assert terrain[at] == LAIR, "an explorer shares a dinosaur's space outside a lair"
    held = sum(state.carrying) + sum(state.coins) + state.temple_coins + sum(state.coins_out)
    assert held == COINS, "a coin was made or lost"
    lifted = 1 if state.phase == LAVA_DROP else 0  # a piece in the drawer's hand
    assert state.lava_placed == sum(state.lava) + lifted <= LAVA_PIECES
    assert state.bullet_supply + sum(state.bullets) == 12
    assert sum(state.deck) + sum(state.discards) + sum(state.secret_paths) + sum(state.guns) \
        + (1 if state.card >= 0 else 0) == 54
    assert terrain[state.monster] == SWAMP and TEMPLE not in [terrain[at] for at in dinosaurs]


@pytest.mark.parametrize(("players", "coins", "seed"), [(2, 1, 1), (3, 3, 2), (4, 3, 3),
                                                        (4, 1, 4)])
def test_invariants_hold_at_every_node(players: int, coins: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3):
        state = GAME.new_initial_state(players, {"coins": coins})
        while not state.is_terminal():
            check(state)
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        check(state)
