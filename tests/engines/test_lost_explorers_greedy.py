"""The greedy bot on Lost Explorers: legal, clearly better than random, and the shipped
tracks make games between sensible players end by clues."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from arena_bot_greedy import GreedyBot
from arena_bot_greedy.lost_explorers import choose
from arena_bot_random import RandomBot

from arena.bot import Bot
from arena.game import CHANCE, sample_chance
from arena.testing import check_bot
from engines.lost_explorers.game import LostExplorersGame
from engines.lost_explorers.state import LostExplorersState

GAME = LostExplorersGame()
Seat = float | str  # a greedy risk level, or "random"


def make_bot(kind: Seat, seat: int, players: int, seed: int) -> Bot:
    if kind == "random":
        bot: Bot = RandomBot(game=GAME.name, seat=seat, num_players=players, seed=seed)
        return bot
    return GreedyBot(game=GAME.name, seat=seat, num_players=players, seed=seed,
                     risk=float(kind))


def play_match(seated: Sequence[Seat], seed: int) -> LostExplorersState:
    """One match driven like the referee does: bots see observations only."""
    players = len(seated)
    state = GAME.new_initial_state(players)
    bots = [make_bot(kind, seat, players, seed * 10 + seat) for seat, kind in enumerate(seated)]
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
            continue
        legal = state.legal_actions()
        action = bots[seat].act(state.observation(seat), tuple(legal))
        assert action in legal
        state.apply_action(action)
    return state


def wins(kinds: Sequence[Seat], matches: int) -> dict[Seat, float]:
    """Matches each kind wins (shared first places split), seats rotated."""
    won: dict[Seat, float] = dict.fromkeys(kinds, 0.0)
    for match in range(matches):
        shift = match % len(kinds)
        seated = list(kinds[shift:]) + list(kinds[:shift])
        ranking = play_match(seated, match).ranking()
        first = [kind for kind, place in zip(seated, ranking, strict=True) if place == 0]
        for kind in first:
            won[kind] += 1 / len(first)
    return won


def wilson_low(successes: float, trials: int, z: float = 1.96) -> float:
    """The lower end of the 95 % Wilson interval of a proportion."""
    share = successes / trials
    centre = share + z * z / (2 * trials)
    margin = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return (centre - margin) / (1 + z * z / trials)


def test_greedy_beats_random_head_to_head() -> None:
    won = wins([0.5, "random"], 300)
    assert wilson_low(won[0.5], 300) > 0.9, won


def test_greedy_beats_two_random_players() -> None:
    won = wins([0.5, "random", "random"], 150)
    assert wilson_low(won[0.5], 150) > 0.8, won


@pytest.mark.parametrize("players", [2, 3])
def test_games_between_greedy_players_end_by_clues(players: int) -> None:
    """The track lengths and glasses are tuned so sensible players find four clues before
    the stacks run out (RULINGS.md, ruling 2)."""
    ends = [play_match([0.5] * players, seed).observation(0)["end"]["by"] for seed in range(60)]
    assert ends.count("clues") / len(ends) > 0.8, ends


def test_no_risk_level_dominates() -> None:
    won = wins([0.2, 0.8], 200)
    assert 0.3 < won[0.2] / 200 < 0.7, won


@pytest.mark.parametrize("risk", [0.0, 0.5, 1.0])
def test_choose_always_returns_a_legal_action(risk: float) -> None:
    rng = random.Random(risk)
    for seed in range(24):
        state = GAME.new_initial_state(2 + seed % 3)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
                continue
            legal = state.legal_actions()
            action = choose(state.observation(state.current_player()), legal, rng, risk)
            assert action in legal
            # mix in random moves so that rare positions (catch-up choices, displacements) come up
            state.apply_action(action if rng.random() < 0.7 else rng.choice(legal))


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_passes_the_bot_conformance_check(players: int) -> None:
    check_bot(GreedyBot, GAME, players=players, games=2)
