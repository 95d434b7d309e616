"""The engine contract's helpers: the one play loop, chance sampling, competition ranking."""

from __future__ import annotations

import random

import pytest
from arena_testgame import RaceState, TinyRace

from arena.game import CHANCE, TERMINAL, NoEnd, State, competition_ranking, drive
from arena.testing import check_game


def test_drive_plays_to_the_end_and_returns_a_history_that_replays_it() -> None:
    asked: list[int] = []

    def decide(state: State, player: int) -> int:
        assert player == state.current_player() >= 0
        asked.append(player)
        return 1  # always gamble: a chance node follows every decision

    state = RaceState(3, goal=6)
    history = drive(state, decide, random.Random(4))
    assert state.current_player() == TERMINAL
    assert len(asked) == len(history) // 2
    replayed = RaceState(3, goal=6)
    for action in history:
        replayed.apply_action(action)
    assert replayed.positions == state.positions


def test_drive_samples_chance_from_the_rng_only() -> None:
    def play(seed: int) -> list[int]:
        return drive(RaceState(2, goal=6), lambda state, player: 1, random.Random(seed))

    assert play(11) == play(11)
    assert any(play(11) != play(seed) for seed in range(12, 20))


def test_drive_shows_every_node_to_watch_chance_included() -> None:
    seen: list[int] = []
    state = RaceState(2, goal=3)
    history = drive(
        state, lambda s, p: 1, random.Random(0), watch=lambda s: seen.append(s.current_player())
    )
    assert len(seen) == len(history) and CHANCE in seen and TERMINAL not in seen


def test_drive_stops_a_game_that_does_not_end() -> None:
    class Endless(RaceState):
        def current_player(self) -> int:
            return 0

    with pytest.raises(NoEnd, match="no end after 50 actions"):
        drive(Endless(2, goal=6), lambda state, player: 0, random.Random(0), max_actions=50)


def test_the_conformance_kit_reports_a_game_that_does_not_end() -> None:
    class Endless(TinyRace):
        def new_initial_state(self, num_players: int, options: object = None) -> RaceState:
            return RaceState(num_players, goal=10**9)

    with pytest.raises(AssertionError, match="no end after 200 actions"):
        check_game(Endless(), games=1, max_actions=200)


def test_competition_ranking_shares_places_and_skips_after_a_tie() -> None:
    assert competition_ranking([3, 5, 3, 1]) == [1, 0, 1, 3]
