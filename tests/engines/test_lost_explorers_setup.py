"""Setup of Lost Explorers: markers, stacks, clues, first player, members, starting tokens,
and the first round's member limits."""

from __future__ import annotations

import random

import pytest
from test_lost_explorers_helpers import (
    COMPONENTS,
    GAME,
    end_turn,
    play,
    reveal,
    setup,
    stacks,
    starting,
    vehicle,
)

from arena.game import CHANCE, sample_chance
from engines.lost_explorers import actions as A
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import VEHICLES


@pytest.mark.parametrize(("players", "markers"), [(2, 4), (3, 3), (4, 2)])
def test_validated_location_markers_depend_on_player_count(players: int, markers: int) -> None:
    """"Pick 2, 3 or 4 Validated Location markers at random for respectively 4, 3 or 2 players
    and place them on the corresponding Locations' photos."
    """
    state = GAME.new_initial_state(players)
    placed = []
    for left in range(4, 4 - markers, -1):
        assert state.phase == P.VALIDATE and state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left and {p for _, p in outcomes} == {1 / left}
        assert {a - A.VALIDATE for a, _ in outcomes} <= set(COMPONENTS.markers)
        placed.append(outcomes[-1][0] - A.VALIDATE)
        state.apply_action(outcomes[-1][0])
    assert state.phase != P.VALIDATE
    assert [p for p, on in enumerate(state.validated) if on] == sorted(placed)
    observation = state.observation(0)
    assert sum(entry["validated"] for entry in observation["locations"]) == markers


def test_tokens_are_split_into_two_stacks_of_32_vehicle_side_up() -> None:
    """"Shuffle the 64 Vehicle/Mission tokens and divide them equally (32 tokens) between the
    2 Transport areas. Set the tokens, Vehicle side up, so that the type of each token is
    visible."
    """
    state = play(GAME.new_initial_state(3), *(A.VALIDATE + m for m in COMPONENTS.markers[:3]))
    assert state.phase == P.REVEAL
    assert state.chance_outcomes() == [(A.REVEAL + v, 16 / 64) for v in range(4)]
    play(state, *reveal("boat", "boat"))
    assert state.chance_outcomes()[2] == (A.REVEAL + vehicle("boat"), 14 / 62)
    first, second = stacks((("boat", "boat", "car", "train"),
                            ("airship", "airship", "airship", "train")))
    play(state, *reveal(*first[2:]))
    left = [16 - first.count(name) for name in VEHICLES]
    assert state.chance_outcomes() == [(A.REVEAL + v, left[v] / 32) for v in range(4) if left[v]]
    play(state, *reveal(*second[:-1]))
    assert state.chance_outcomes() == [(A.REVEAL + vehicle(second[-1]), 1.0)]
    play(state, *reveal(second[-1]))
    assert state.phase == P.FIRST_PLAYER
    for seat in range(3):
        assert state.observation(seat)["stacks"] == [{"count": 32, "visible": list(first)},
                                                     {"count": 32, "visible": list(second)}]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_token_of_both_stacks_is_in_view_from_setup_on(players: int) -> None:
    """"Set the tokens, Vehicle side up, so that the type of each token is visible." Every
    seat sees the type of all 64 tokens, in order, from its first decision on; nothing about
    the stacks is left to chance after setup."""
    rng = random.Random(players)
    state = GAME.new_initial_state(players)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng))
    assert state.phase == P.FLIP
    views = [state.observation(seat)["stacks"] for seat in range(players)]
    assert all(view == views[0] for view in views)
    assert [len(stack["visible"]) for stack in views[0]] == [32, 32]
    assert [stack["count"] for stack in views[0]] == [32, 32]
    tokens = views[0][0]["visible"] + views[0][1]["visible"]
    assert all(tokens.count(name) == 16 for name in VEHICLES)
    while not state.is_terminal():
        assert state.phase != P.REVEAL
        taken = state.visible[0][:], state.visible[1][:]
        random_step = (sample_chance(state.chance_outcomes(), rng)
                       if state.current_player() == CHANCE else rng.choice(state.legal_actions()))
        state.apply_action(random_step)
        for stack in (0, 1):  # a token taken leaves the others, in order, in view
            assert len(state.visible[stack]) == state.stack_left[stack]
            if state.visible[stack] != taken[stack]:
                assert A.kind(random_step) == "equip"
                area, sent, _ = A.equip_parts(random_step)
                assert area == stack
                assert state.visible[stack] == taken[stack][:sent - 1] + taken[stack][sent:]


def test_thirteen_clue_tiles_are_placed() -> None:
    """"Place the 13 Clue tiles on the "Clue" area." """
    state = setup(3)
    assert state.observation(0)["clue_tiles_left"] == 13 == len(COMPONENTS.clue_numbers)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_player_is_chosen_at_random(players: int) -> None:
    """"Randomly choose the First player." """
    state = GAME.new_initial_state(players)
    while state.phase != P.FIRST_PLAYER:
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.chance_outcomes() == [(A.FIRST_PLAYER + s, 1 / players) for s in range(players)]
    state.apply_action(A.FIRST_PLAYER + players - 1)
    assert state.current_player() == players - 1 and state.phase == P.FLIP


def test_each_player_has_three_members_and_two_leaders_on_the_first_slot() -> None:
    """"Take 3 of the 4 Expedition Members and both Expedition Leaders of your color. The 4th
    Expedition Member of each player is set aside for the moment." / "Put an Expedition
    Leader on the first slot of each track in the Discovery area."
    """
    for seat, player in enumerate(setup(4).observation(0)["players"]):
        assert player["seat"] == seat
        assert player["members_in_front"] == player["members_total"] == 3
        assert player["leaders"] == [1, 1]


def test_each_player_takes_one_starting_token_of_each_type_and_flips_one() -> None:
    """"Take 1 token of each type from the reserve of starting tokens and place them in front
    of you with the Vehicle side visible." / "Flip one starting token of your choice, Mission
    side up."
    """
    state = GAME.new_initial_state(3)
    while state.phase != P.FLIP:
        state.apply_action(state.chance_outcomes()[0][0])
    first = state.current_player()
    assert state.observation(first)["players"][first]["vehicles"] == dict.fromkeys(VEHICLES, 1)
    assert state.legal_actions() == [A.FLIP + v for v in range(4)]
    play(state, A.FLIP + vehicle("boat"))
    assert state.current_player() == CHANCE and state.phase == P.MISSION_DRAW
    boat_starts = COMPONENTS.starting_missions(vehicle("boat"))
    assert state.chance_outcomes() == [(A.MISSION + m, 1 / 4) for m in boat_starts]
    play(state, A.MISSION + boat_starts[2])
    player = state.observation(first)["players"][first]
    assert player["vehicles"] == {"train": 1, "car": 1, "boat": 0, "airship": 1}
    assert [m["id"] for m in player["missions"]] == [boat_starts[2]]
    assert state.current_player() == (first + 1) % 3


def test_flips_go_round_in_turn_order_and_missions_are_not_repeated() -> None:
    """Every player flips in turn order from the first player; a starting mission shown
    once cannot come up again (each starting token is unique)."""
    state = setup(3, first=2, flips=[("car", 0), ("car", 1), ("car", 3)])
    assert state.missions == [[starting("car", 1)], [starting("car", 3)], [starting("car", 0)]]
    assert state.phase == P.PHASE_1 and state.current_player() == 2
    assert state.hidden_missions[4 + vehicle("car")] == [starting("car", 2)]


def _sends(state_players: int, first: int) -> list[int]:
    """Members each seat may send in its first turn, in turn order."""
    state = setup(state_players, first=first)
    allowed = []
    for _ in range(state_players):
        allowed.append(state.observation(state.player)["can_send"])
        end_turn(state)
    return allowed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_round_member_limits(players: int) -> None:
    """"The first player to play can only use only 1 Expedition Member, the second player only
    2 Expedition Members. The third and fourth players can use all 3 of their Expedition
    Members."
    """
    assert _sends(players, first=1) == [1, 2, 3, 3][:players]


def test_the_first_player_sends_one_member_only() -> None:
    """The limit counts members sent to Equipment areas and to locations alike."""
    state = setup(3)
    equip = [a for a in state.legal_actions() if A.kind(a) == "equip"]
    assert {A.equip_parts(a)[1] for a in equip} == {1}
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert state.legal_actions() == [A.END_PHASE_1]


def test_later_rounds_use_every_member() -> None:
    """"Over the following rounds, all players can use all of their Expedition Members." """
    state = setup(2)
    end_turn(end_turn(state))
    assert state.turn == 2 and state.observation(0)["can_send"] == 3
    equip = [a for a in state.legal_actions() if A.kind(a) == "equip"]
    assert {A.equip_parts(a)[1] for a in equip} == {1, 2, 3}


def test_the_remaining_starting_tokens_are_not_used() -> None:
    """"Put away the remaining starting tokens, they will not be used in the game." Only the
    missions flipped at setup ever come from the starting tokens."""
    rng = random.Random(3)
    for seed in range(5):
        state = setup(2, flips=[("boat", seed % 4), ("car", 1)])
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            held = {m for missions in state.missions for m in missions} | set(
                state.hidden_missions[0] + state.hidden_missions[1]
                + state.hidden_missions[2] + state.hidden_missions[3])
            assert not held & (set(COMPONENTS.starting_missions(vehicle("train")))
                               | set(COMPONENTS.starting_missions(vehicle("airship"))))
        assert len(state.hidden_missions[4 + vehicle("boat")]) == 3
