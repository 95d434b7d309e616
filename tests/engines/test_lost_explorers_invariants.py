"""Invariants that hold at every node of random matches: nothing is made or lost."""

from __future__ import annotations

import random

import pytest
from arena_bot_greedy.lost_explorers import choose
from test_lost_explorers_helpers import COMPONENTS, GAME

from arena.game import CHANCE, sample_chance
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import TOKENS, VEHICLES
from engines.lost_explorers.state import LostExplorersState
from engines.lost_explorers.table import BONUS_SLOT, BY_CLUES, MEMBERS_AT_START


def _tokens_out(state: LostExplorersState) -> int:
    """Tokens on the table: the stacks, in front of the players, in the discard area, and one
    being turned mission side up (taken, its mission not drawn yet)."""
    held = sum(state.token_count(seat) for seat in range(state.num_players))
    turning = 1 if state.phase == P.MISSION_DRAW else 0
    return sum(state.stack_left) + held + sum(state.discard) + turning


def check(state: LostExplorersState) -> None:
    n = state.num_players
    assert _tokens_out(state) == TOKENS + len(VEHICLES) * n, "a token was made or lost"
    for seat in range(n):
        on_map = state.occupant.count(seat)
        on_areas = sum(state.area_members) if seat == state.player else 0
        assert state.members_front[seat] + on_map + on_areas == state.members_total[seat]
        glasses = sum(1 for track, slot in enumerate(state.leaders[seat])
                      for glass in COMPONENTS.glasses[track] if glass <= slot)
        due = state.clues_due if seat == state.player else 0
        if state.ended != BY_CLUES:  # each glass reached gives one clue (ruling 19)
            assert len(state.clues[seat]) + due == glasses
        if state.completing < 0:  # the 4th member comes with both Leaders on slot 4
            bonus = min(state.leaders[seat]) >= BONUS_SLOT
            assert state.members_total[seat] == MEMBERS_AT_START + bonus
    assert len(state.clue_pool) + sum(len(tiles) for tiles in state.clues) == 13
    assert not any(state.validated[place] for place in range(12)
                   if state.occupant[place] >= 0), "a member on a validated location"


def _step(state: LostExplorersState, rng: random.Random, greedy: bool) -> None:
    if state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng))
    elif greedy:
        seat = state.current_player()
        state.apply_action(choose(state.observation(seat), state.legal_actions(), rng, 0.5))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("greedy", [False, True], ids=["random", "greedy"])
def test_tokens_members_and_clues_are_kept_through_whole_games(players: int,
                                                               greedy: bool) -> None:
    """"Players can have as many tokens as they want" but no token appears or vanishes:
    the 64 of the stacks and each player's 4 starting ones are in a stack, in front of a
    player or in the discard area; each member is in front of its owner, on a location or
    on an Equipment area; each clue is a glass a Leader reached; the 4th member comes with
    the bonus. Random players, and greedy ones who reach the clues and the bonus."""
    rng = random.Random(players)
    state = GAME.new_initial_state(players)
    while state.phase != P.PHASE_1:
        _step(state, rng, greedy)
    while not state.is_terminal():
        check(state)
        _step(state, rng, greedy)
    check(state)
    assert not greedy or max(state.members_total) == 4
