"""The greedy bot on Lost Valley of the Dinosaurs: legal, deterministic, clearly better than
random."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import pytest
from arena_bot_greedy import GreedyBot
from arena_bot_greedy.dinosaurs import choose
from arena_bot_random import RandomBot
from test_dinosaurs_helpers import GAME, card, moving, play, put, space, started, to_move

from arena.bot import Bot
from arena.game import CHANCE, sample_chance
from arena.testing import check_bot
from engines.dinosaurs import actions as A


def make_bot(kind: str, seat: int, players: int, seed: int) -> Bot:
    if kind == "random":
        return RandomBot(game=GAME.name, seat=seat, num_players=players, seed=seed)
    return GreedyBot(game=GAME.name, seat=seat, num_players=players, seed=seed)


def play_match(seated: Sequence[str], seed: int, coins: int = 1) -> list[int]:
    """One match driven like the referee does; returns the ranking."""
    players = len(seated)
    state = GAME.new_initial_state(players, {"coins": coins})
    bots = [make_bot(kind, seat, players, seed * 10 + seat) for seat, kind in enumerate(seated)]
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
        else:
            legal = state.legal_actions()
            action = bots[seat].act(state.observation(seat), tuple(legal))
            assert action in legal
            state.apply_action(action)
    return state.ranking()


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_plays_legal_moves_deterministically(players: int) -> None:
    check_bot(GreedyBot, GAME, players=players, games=2)


def test_greedy_beats_random_heads_up() -> None:
    wins = 0.0
    for match in range(40):
        seated = ["greedy", "random"] if match % 2 == 0 else ["random", "greedy"]
        ranking = play_match(seated, match)
        winners = [kind for kind, place in zip(seated, ranking, strict=True) if place == 0]
        wins += winners.count("greedy") / len(winners)
    assert wins / 40 >= 0.8


def test_greedy_beats_three_randoms_in_the_long_game() -> None:
    wins = 0
    for match in range(12):
        seated = ["random"] * 4
        seated[match % 4] = "greedy"
        ranking = play_match(seated, match, coins=3)
        wins += ranking[match % 4] == 0
    assert wins >= 8


def test_greedy_heads_for_the_temple_and_then_out() -> None:
    rng = random.Random(1)
    state = moving(0, "e5", 2)
    play(state, choose(state.observation(0), state.legal_actions(), rng, 0.5))
    assert state.explorers[0] == space("e6")
    play(state, choose(state.observation(0), state.legal_actions(), rng, 0.5))
    assert state.explorers[0] == state.board.temple and state.carrying[0]
    state = put(to_move(put(started(), 1, "f1")), 0, "e5")
    state.carrying[1] = True
    pick = choose(state.observation(0), state.legal_actions(), rng, 0.5)
    assert pick == A.EXPLORER + 1
    play(state, pick, A.DICE + 5)
    play(state, choose(state.observation(0), state.legal_actions(), rng, 0.5))
    assert choose(state.observation(0), state.legal_actions(), rng, 0.5) == A.EXIT


def test_greedy_drops_an_opposing_carrier_into_the_swamp() -> None:
    state = put(started(), 4, "c3")
    state.carrying[4] = True
    state.deck[card("Pteranodon") - A.CARD] += 1
    play(state, card("Pteranodon"))
    rng = random.Random(2)
    pick = choose(state.observation(0), state.legal_actions(), rng, 0.5)
    assert pick == A.EXPLORER + 4
    play(state, pick)
    drop = choose(state.observation(0), state.legal_actions(), rng, 0.5)
    assert state.board.terrain[drop] == 5  # an inner swamp space


def test_greedy_drops_its_falling_explorer_on_the_exit_away_from_the_monster() -> None:
    """Falling into the swamp it may land on any grey arrow: it takes the exit arrow that the
    monster (on h2, walking clockwise) reaches last."""
    state = put(started(), 0, "b5")
    state.deck[card("One Member Falls") - A.CARD] += 1
    play(state, card("One Member Falls"), A.EXPLORER + 0)
    rng = random.Random(3)
    assert choose(state.observation(0), state.legal_actions(), rng, 0.5) == space("j0")


def test_greedy_reads_the_board_from_the_observation(tmp_path: Path) -> None:
    """On a user's board (here every space renamed) the bot still finds its way: it knows the
    board only through its observation."""
    shipped = resources.files("engines.dinosaurs").joinpath("board.toml").read_text("utf-8")
    mine = tmp_path / "renamed.toml"
    mine.write_text(re.sub(r'"([a-k]\d+)"', r'"space-\1"', shipped))
    wins = 0
    for match in range(6):
        state = GAME.new_initial_state(2, {"board": str(mine)})
        assert state.board.names[0].startswith("space-")
        bots = [make_bot("greedy", 0, 2, match), make_bot("random", 1, 2, match)]
        rng = random.Random(match)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
            else:
                state.apply_action(bots[seat].act(state.observation(seat),
                                                  tuple(state.legal_actions())))
        wins += state.ranking()[0] == 0
    assert wins >= 5


def test_greedy_counts_the_way_in_for_an_explorer_outside_short_of_water() -> None:
    """Short of Water may send in an explorer outside the valley (RULINGS.md 23): greedy
    counts its step onto an entry, so an explorer in the valley nearer water runs instead. It
    read the distance of the board's last space for an explorer outside (position -1), and
    sent one in."""
    state = put(started(), 1, "c3")
    play(state, card("Your Expedition is Short"))
    assert A.EXPLORER + 0 in state.legal_actions()
    rng = random.Random(4)
    assert choose(state.observation(0), state.legal_actions(), rng, 0.5) == A.EXPLORER + 1
