"""The end of Lost Explorers: four clues, empty stacks, the ranking and the secret entrance."""

from __future__ import annotations

import pytest
from test_lost_explorers_helpers import (
    COMPONENTS,
    end_turn,
    give,
    go,
    mission,
    place,
    play,
    setup,
)

from arena.game import TERMINAL
from engines.lost_explorers import actions as A
from engines.lost_explorers import phases as P
from engines.lost_explorers.state import LostExplorersState
from engines.lost_explorers.table import MAX_TURNS

MASK_PETRA = mission("car", "African Mask", "Petra")  # green track, two members


def about_to_find_a_clue(clues_held: int) -> LostExplorersState:
    """Seat 0 (3 players) holding ``clues_held`` clue tiles completes a mission that takes its
    green Leader from 3 to the magnifying glass on slot 5."""
    state = setup(3, flips=[("airship", seat) for seat in range(3)])
    for _ in range(3):
        end_turn(state)
    for tile in range(clues_held):
        state.clue_pool.remove(tile)
        state.clues[0].append(tile)
    give(state, 0, vehicles=("car",) * 4 + ("train",), missions=(MASK_PETRA,))
    state.leaders[0] = [3, 9]
    go(go(state, "African Mask", "car"), "Petra", "car")
    return play(state, A.END_PHASE_1, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))


def test_four_clues_win_at_once() -> None:
    """"You have gathered the 4 clues? Well done! You have discovered the entrance to the lost
    world and win the game." / "until one of the players has gathered 4 clues"
    """
    state = about_to_find_a_clue(3)
    assert state.phase == P.CLUE_DRAW
    play(state, A.CLUE + 12)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.ranking()[0] == 0 and state.scores() == [4.0, 0.0, 0.0]
    assert state.observation(1)["end"]["by"] == "clues"
    assert state.observation(1)["end"]["winner"] == 0


def test_three_clues_do_not_end_the_game() -> None:
    state = about_to_find_a_clue(2)
    play(state, A.CLUE + 12)
    assert not state.is_terminal() and state.phase == P.PHASE_2


def test_the_clue_sum_and_the_secret_entrance_are_shown_at_the_end() -> None:
    """"Add the 4 numbers written on your Clue tokens and scan the corresponding QR code to find
    out where the entrance to the lost world really is." The QR codes' answers are not
    public: the engine reads the sum round the locations (ruling)."""
    state = play(about_to_find_a_clue(3), A.CLUE + 12)
    numbers = COMPONENTS.clue_numbers
    total = numbers[0] + numbers[1] + numbers[2] + numbers[12]
    end = state.observation(2)["end"]
    assert end["clue_sum"] == total == 19
    assert end["secret_entrance"] == COMPONENTS.location_names[(total - 1) % 12]
    assert f"add up to {total}" in state.render()
    assert end["secret_entrance"] in state.render()


def take_every_token(state: LostExplorersState) -> LostExplorersState:
    """Play turns that take the first token of each stack, vehicle side up, until the stacks
    are empty."""
    while any(state.stack_left):
        for area in (0, 1):
            if state.stack_left[area] and state.send_limit() >= 1:
                play(state, A.equip(area, 1, A.VEHICLE_SIDE))
                while state.current_player() < 0 and not state.is_terminal():
                    play(state, state.chance_outcomes()[0][0])
        if any(state.stack_left):
            end_turn(state)
    return state


def test_empty_stacks_trigger_the_end_after_the_turn() -> None:
    """"When the 2 stacks are empty, the end of the game is triggered." The turn that takes the
    last token is played to its end (ruling), then the game is over."""
    state = take_every_token(setup(2))
    assert state.stack_left == [0, 0] and not state.is_terminal()
    assert state.phase == P.PHASE_1 and state.end_triggered
    play(state, A.END_PHASE_1)
    assert not state.is_terminal()
    play(state, A.END_TURN)
    assert state.is_terminal() and state.observation(0)["end"] == {
        "by": "stacks", "winner": None, "clue_sum": None, "secret_entrance": None}


def test_empty_stacks_end_the_game_in_the_middle_of_a_round() -> None:
    """"Each turn is played clockwise, one player at a time, until one of the players has
    gathered 4 clues or both token piles are empty." The round is not played out: the turn
    that empties the second stack is the last, whoever comes after it (ruling 22)."""
    state = setup(4, first=1)
    state.stack_left, state.visible = [1, 0], [state.visible[0][:1], []]
    assert state.current_player() == 1 and state.turn == 0
    play(state, A.equip(0, 1, A.VEHICLE_SIDE), A.END_PHASE_1, A.END_TURN)
    assert state.is_terminal() and state.turn == 0
    assert state.observation(0)["end"]["by"] == "stacks"


def ended_by_stacks(leaders: list[list[int]], extra_tokens: list[int]) -> LostExplorersState:
    state = take_every_token(setup(len(leaders)))
    for seat, slots in enumerate(leaders):
        state.leaders[seat] = slots
    tokens = [state.token_count(seat) for seat in range(len(leaders))]
    for seat, extra in enumerate(extra_tokens):
        state.vehicles[seat][0] += max(tokens) - tokens[seat] + extra
    return play(state, A.END_PHASE_1, A.END_TURN)


def test_the_most_advanced_rearmost_leader_wins() -> None:
    """"If both token stacks are empty and no player has found the 4 clues, each player's
    least-advanced Expedition Leader is used to establish the winner. You win the game if that
    second Expedition Leader is more advanced than that of your opponents."
    """
    state = ended_by_stacks([[9, 4], [6, 5], [3, 12]], [0, 0, 0])
    assert state.ranking() == [1, 0, 2]


def test_ties_go_to_fewer_tokens() -> None:
    """"If tied, you win if you have fewer tokens in front of you than the other players
    have." Seats 1 and 2, level on both, share second place (ruling 24).
    """
    state = ended_by_stacks([[5, 6], [5, 6], [5, 9]], [0, 1, 1])
    assert state.ranking() == [0, 1, 1]
    state = ended_by_stacks([[5, 6], [5, 6], [5, 9]], [1, 0, 2])
    assert state.ranking() == [1, 0, 2]


def test_still_tied_seats_share_their_place() -> None:
    """"You win the game if that second Expedition Leader is more advanced than that of your
    opponents. If tied, you win if you have fewer tokens in front of you than the other
    players have." The rulebook's two keys and no more (ruling 24): seats equal on both share
    their place, whatever their foremost Leaders."""
    state = ended_by_stacks([[5, 6], [6, 5], [5, 7]], [0, 0, 0])
    assert state.ranking() == [0, 0, 0]
    state = ended_by_stacks([[5, 6], [6, 5], [4, 12]], [0, 0, 0])
    assert state.ranking() == [0, 0, 2]


def test_clues_do_not_break_a_tie_the_rulebook_leaves() -> None:
    """"If tied, you win if you have fewer tokens in front of you than the other players
    have." and no further key: a seat tied on the rearmost Leader and the tokens shares the
    win, though it holds more clue tiles or a more advanced foremost Leader (ruling 24)."""
    state = take_every_token(setup(3))
    state.leaders = [[5, 6], [5, 12], [5, 5]]
    state.vehicles = [[2, 2, 2, 2] for _ in range(3)]
    state.clues[2] = [state.clue_pool.pop() for _ in range(3)]
    play(state, A.END_PHASE_1, A.END_TURN)
    assert state.observation(0)["end"]["by"] == "stacks"
    assert [p["tokens"] for p in state.observation(0)["players"]] == [9, 9, 9]
    assert state.ranking() == [0, 0, 0]


def test_a_clue_win_ranks_the_others_by_clues_then_leaders_then_tokens() -> None:
    state = about_to_find_a_clue(3)
    state.clues[2].append(state.clue_pool.pop())
    state.leaders[1] = [1, 2]
    play(state, state.chance_outcomes()[0][0])
    assert state.ranking() == [0, 2, 1]


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_of_passing_ends_at_the_turn_cap(players: int) -> None:
    """Ruling: nothing forces a player to act; a safety cap on turns ends a game nobody
    moves, scored as if the stacks were empty."""
    state = setup(players)
    while not state.is_terminal():
        end_turn(state)
    assert state.turn == MAX_TURNS - 1
    assert state.observation(0)["end"]["by"] == "turn-limit"
    assert sorted(state.ranking()) == [0] * players


def test_a_person_sees_only_their_own_clue_numbers_until_the_end() -> None:
    """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
    "Clue" tile." Ruling 20: tiles are taken face down, the number in its owner's observation
    only. The per-seat view that ``arena play`` shows a person hides the other seats'
    numbers, and the line telling another seat's draw hides which tile it was, until the
    game is over; ``render()`` (replays, spectators) shows everything."""
    state = about_to_find_a_clue(2)  # seat 0 holds tiles 0 and 1, and draws a third now
    numbers = COMPONENTS.clue_numbers
    own = f"clues {numbers[0]}, {numbers[1]}"
    assert own in state.render_for(0) and own in state.render()
    assert own not in state.render_for(1) and "clues 2 (numbers hidden)" in state.render_for(1)
    drawn = A.CLUE + 12
    assert f"(number {numbers[12]})" in state.action_to_string_for(0, drawn)
    assert state.action_to_string_for(1, drawn) == (
        "seat 0 takes a clue tile (its number is hidden)")
    assert state.action_to_string_for(1, A.END_TURN) == state.action_to_string(A.END_TURN)
    finished = play(about_to_find_a_clue(3), A.CLUE + 12)  # the fourth clue ends the game
    assert finished.render_for(1) == finished.render()


def test_four_clues_in_the_last_turn_win_by_clues() -> None:
    """"...until one of the players has gathered 4 clues or both token piles are empty." The
    player who takes the last token plays their turn out (ruling 22) and may still win by
    clues in its phase 2; the empty stacks then decide nothing."""
    state = setup(3, flips=[("airship", seat) for seat in range(3)])
    for _ in range(3):
        end_turn(state)
    for tile in range(3):
        state.clue_pool.remove(tile)
        state.clues[0].append(tile)
    give(state, 0, vehicles=("car",) * 4 + ("train",), missions=(MASK_PETRA,))
    state.leaders[0] = [3, 1]
    state.stack_left, state.visible = [1, 0], [state.visible[0][:1], []]
    go(go(state, "African Mask", "car"), "Petra", "car")
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert state.end_triggered and not state.is_terminal()
    play(state, A.END_PHASE_1, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"), A.CLUE + 9)
    assert state.is_terminal() and state.observation(2)["end"]["by"] == "clues"
    assert state.ranking()[0] == 0 and state.scores()[0] == 4.0


@pytest.mark.parametrize("players", [2, 4])
def test_the_rearmost_leader_decides_with_two_and_four_players(players: int) -> None:
    """"You win the game if that second Expedition Leader is more advanced than that of your
    opponents." With two players and with four."""
    leaders = [[9, 4], [6, 5], [3, 12], [4, 9]][:players]
    state = ended_by_stacks(leaders, [0] * players)
    assert state.ranking() == ([1, 0] if players == 2 else [1, 0, 3, 1])


def test_mission_tokens_count_among_the_tokens_in_front() -> None:
    """"If tied, you win if you have fewer tokens in front of you than the other players
    have." A mission token in front of a player is a token there as much as a vehicle one."""
    state = take_every_token(setup(2))
    state.leaders = [[5, 6], [6, 5]]
    state.vehicles = [[2, 2, 2, 2], [2, 2, 2, 2]]
    assert [len(held) for held in state.missions] == [1, 1]  # the starting missions
    give(state, 1, missions=(MASK_PETRA,))
    play(state, A.END_PHASE_1, A.END_TURN)
    assert [p["tokens"] for p in state.observation(0)["players"]] == [9, 10]
    assert state.ranking() == [0, 1]


def test_clue_tiles_are_not_tokens_in_the_tie_break() -> None:
    """"If tied, you win if you have fewer tokens in front of you": the tokens are the
    Vehicle/Mission tokens; the clue tiles held are not counted against a player (ruling 24):
    two clue tiles leave seat 0 tied with seat 1, not behind it."""
    state = take_every_token(setup(2))
    state.leaders = [[5, 6], [6, 5]]
    state.vehicles = [[2, 2, 2, 2], [2, 2, 2, 2]]
    state.clues[0] = [state.clue_pool.pop(), state.clue_pool.pop()]
    play(state, A.END_PHASE_1, A.END_TURN)
    assert state.ranking() == [0, 0]
