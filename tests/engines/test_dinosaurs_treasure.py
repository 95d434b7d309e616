"""Treasure: taken at the temple, carried out, abandoned, claimed by exact count; the winner."""

from __future__ import annotations

from test_dinosaurs_helpers import (
    BOARD,
    card,
    dice,
    die,
    explorer,
    moving,
    phase,
    play,
    put,
    space,
    started,
    to_move,
)

from arena.game import TERMINAL
from engines.dinosaurs import actions as A
from engines.dinosaurs.table import COINS, DEAD, MAX_TURNS, OUTSIDE


def test_an_explorer_entering_the_temple_takes_a_coin() -> None:
    """"Place all Treasure Coins on the top of the temple roof." An explorer without a coin
    takes one as it enters the temple."""
    state = moving(0, "e5", 2)
    play(state, space("e6"), BOARD.temple)
    assert state.carrying[0] and state.temple_coins == COINS - 1


def test_only_one_coin_at_a_time() -> None:
    """"Each explorer may carry only one coin at a time.\""""
    state = put(started(), 0, "e5")
    state.carrying[0] = True
    moving(0, "e5", 5, state)
    play(state, space("e6"), BOARD.temple)
    assert state.carrying[0] and state.temple_coins == COINS


def test_the_first_to_bring_a_coin_out_wins_the_short_game() -> None:
    """"Short game: To be the first to get 1 treasure coin out of the valley." / "The first
    player to bring the required number of treasure coins out of the valley is the hero of
    the adventure and wins the game.\""""
    state = put(started(3), 1, "k5")
    state.carrying[1] = True
    moving(1, "k5", 9, state)
    play(state, A.EXIT)
    assert state.current_player() == TERMINAL and state.end_reason == "coins"
    assert state.scores() == [1.0, 0.0, 0.0] and state.ranking() == [0, 1, 1]
    assert state.explorers[1] == OUTSIDE and not state.carrying[1]


def test_the_long_game_needs_three_coins_and_the_explorer_returns() -> None:
    """"Long game: To be the first to get 3 treasure coins out of the valley." / "They will
    need to carry it out of the valley, then return to claim another (if you are playing the
    long game).\""""
    state = put(started(2, coins=3), 1, "k5")
    state.carrying[1] = True
    moving(1, "k5", 4, state)
    play(state, A.EXIT)
    assert not state.is_terminal() and state.coins_out == [1, 0] and state.player == 1
    state.coins_out[0] = 2
    play(to_move(state), explorer(4), die(1), space("a5"))  # seat 1 plays
    state.carrying[1] = True
    put(state, 1, "f0")
    play(to_move(state), explorer(1), dice(5), A.EXIT)
    assert state.is_terminal() and state.winner == 0 and state.scores() == [3.0, 0.0]


def test_abandoned_treasure_is_claimed_by_exact_count() -> None:
    """"An explorer may claim abandoned treasure by landing on it by exact count.\""""
    state = started()
    state.coins[space("b7")] = 1
    moving(0, "b5", 2, state)
    play(state, space("b6"), space("b7"))
    assert state.carrying[0] and state.coins[space("b7")] == 0


def test_passing_over_abandoned_treasure_leaves_it() -> None:
    state = started()
    state.coins[space("b7")] = 1
    moving(0, "b5", 3, state)
    play(state, space("b6"), space("b7"), space("c7"))
    assert not state.carrying[0] and state.coins[space("b7")] == 1


def test_landing_on_a_carrier_does_not_steal_the_coin() -> None:
    """"If one of your explorers lands on another explorer carrying a coin, you may NOT steal
    it from him.\""""
    state = put(started(), 4, "b7")
    state.carrying[4] = True
    moving(0, "b5", 2, state)
    play(state, space("b6"), space("b7"))
    assert state.carrying[4] and not state.carrying[0]


def _all_but(state_players: int, alive: dict[int, str]) -> list[int]:
    explorers = [DEAD] * (4 * state_players)
    for number, name in alive.items():
        explorers[number] = space(name)
    return explorers


def test_when_all_explorers_die_most_coins_then_most_explorers_win() -> None:
    """"If the game ends because all explorers have died or it's impossible to claim any more
    treasure coins, the following rules shall apply: the winner is the player with the most
    coins, however if several players have the same number of coins, the player with the
    most explorers left is the winner.\""""
    state = started(3, coins=3)
    state.explorers = _all_but(3, {0: "h2"})  # on the monster's next space... and alone
    state.monster = space("h1")
    state.coins_out = [0, 1, 1]
    play(state, card("The Swamp Monster"))
    assert state.current_player() == TERMINAL and state.end_reason == "deaths"
    assert state.ranking() == [2, 0, 0]
    assert state.observation(0)["winner"] == -1  # first place shared: no single winner


def test_the_sole_leader_is_named_winner_when_all_explorers_die() -> None:
    """"If the game ends because all explorers have died ... the winner is the player with the
    most coins": the observation's `winner` names seat 1."""
    state = started(3, coins=3)
    state.explorers = _all_but(3, {0: "h2"})
    state.monster = space("h1")
    state.coins_out = [0, 2, 1]
    play(state, card("The Swamp Monster"))
    assert state.is_terminal() and state.ranking() == [2, 0, 1]
    assert state.winner == 1 and state.observation(0)["winner"] == 1


def test_explorers_left_break_a_tie_in_coins() -> None:
    state = started(3, coins=3)
    state.coins_out = [1, 1, 0]
    state.explorers = _all_but(3, {0: "b5", 4: "b6", 5: "b7", 8: "c5", 9: "c6", 10: "c7"})
    assert state.ranking() == [1, 0, 2]
    state.explorers[5] = DEAD
    assert state.ranking() == [0, 0, 2]


def test_the_game_ends_when_no_coin_can_be_claimed() -> None:
    """"...or it's impossible to claim any more treasure coins": none on the roof, none
    abandoned, none carried."""
    state = started(2, coins=3)
    state.temple_coins = 0
    state.coins_out = [2, 1]
    play(to_move(state), explorer(0), die(1), space("a5"))
    assert state.is_terminal() and state.end_reason == "no-coins"
    assert state.ranking() == [0, 1] and state.winner == 0


def test_a_hard_bound_ends_every_match() -> None:
    """Ruling: after MAX_TURNS turns (all seats together) the match ends and is ranked."""
    state = started(2)
    state.turns = MAX_TURNS - 1
    play(to_move(state), explorer(0), die(1), space("a5"))
    assert state.is_terminal() and state.end_reason == "bound"
    assert phase(state) == "over" and state.ranking() == [0, 0] and state.winner == -1


def test_play_passes_clockwise_skipping_seats_with_no_explorer_left() -> None:
    """"Play continues to each player in a clockwise direction." Ruling: a seat whose
    explorers are all dead no longer takes turns."""
    state = started(3)
    for number in range(4, 8):
        state.explorers[number] = DEAD
    to_move(state)
    play(state, explorer(0), die(1), space("a5"))
    assert state.player == 2
    play(to_move(state), explorer(8), die(1), space("a5"))
    assert state.player == 0
    assert to_move(state).legal_actions()  # seat 0 again
