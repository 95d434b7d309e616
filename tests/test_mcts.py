"""The ``mcts`` bot and the engine contract it needs (``Game.state_from_observation``).

Tiny budgets throughout: these check behaviour, never strength or speed
(``benchmarks/bench_mcts.py`` measures those).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from arena_bot_greedy import GreedyBot
from arena_bot_mcts import GAMES, MCTSBot
from arena_bot_mcts import rollouts as rollouts_module
from arena_bot_mcts import search as search_module
from arena_bot_mcts.rollouts import PairedRollouts
from arena_bot_mcts.search import Budget, Search
from arena_testgame import GOAL, RaceState, TinyRace

from arena.game import CHANCE, TERMINAL, Game, State, drive, sample_chance
from arena.seats.sandbox import dependency_locations, module_location
from arena.testing import check_bot, check_game

TINY = {"iterations": 4, "rollout_depth": 2, "determinizations": 2}


def _seat_mcts(game: Game, players: int, seed: int, params: dict[str, Any]) -> list[Any]:
    """``mcts`` in seat 0, uniformly random players in the others."""
    bots: list[Any] = [MCTSBot(game=game.name, seat=0, num_players=players, seed=seed, **params)]
    return bots + [None] * (players - 1)


def _play(game: Game, players: int, seed: int, params: dict[str, Any],
          max_actions: int = 4000) -> tuple[list[int], int]:
    """A match of ``mcts`` (seat 0, observation as a sandboxed seat gets it: JSON decoded)
    against random seats, cut after ``max_actions``; every answer must be legal."""
    rng = random.Random(seed)
    bots = _seat_mcts(game, players, seed, params)
    state = game.new_initial_state(players)
    answers = 0
    history: list[int] = []
    while not state.is_terminal() and len(history) < max_actions:
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            if bots[player] is None:
                action = rng.choice(legal)
            else:
                observation = json.loads(json.dumps(state.observation(player)))
                action = bots[player].act(observation, tuple(legal))
                assert type(action) is int and action in legal, (action, legal)
                answers += 1
        state.apply_action(action)
        history.append(action)
    return history, answers


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_legal_moves_in_every_game_and_player_count(name: str, players: int) -> None:
    _, answers = _play(GAMES[name](), players, seed=players, params=TINY, max_actions=600)
    assert answers > 0


def test_the_same_seed_gives_the_same_game() -> None:
    game = GAMES["explorers-of-the-lost-valley"]()
    first = _play(game, 2, seed=3, params=TINY)
    second = _play(game, 2, seed=3, params=TINY)
    assert first == second


def test_the_conformance_kit_passes_it() -> None:
    """check_bot plays it in every seat, twice from the same seeds."""
    check_bot(MCTSBot, GAMES["lost-explorers"](), players=2, params=TINY, games=1)


def _decision(name: str, players: int = 2, seed: int = 0) -> tuple[State, int]:
    """A state of ``name`` with a seat on move that has a choice, reached by random play."""
    game, rng = GAMES[name](), random.Random(seed)
    state = game.new_initial_state(players)
    for _ in range(40):
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
        elif player != TERMINAL:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.current_player() == CHANCE or len(state.legal_actions()) < 2:
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
        else:
            state.apply_action(state.legal_actions()[0])
    return state, state.current_player()


@pytest.mark.parametrize("iterations", [1, 7, 30])
def test_an_iteration_budget_is_kept_exactly(iterations: int) -> None:
    state, seat = _decision("lost-valley-of-the-dinosaurs")
    bot = MCTSBot(game="lost-valley-of-the-dinosaurs", seat=seat, num_players=2, seed=1,
                  iterations=iterations)
    bot.act(state.observation(seat), state.legal_actions())
    assert bot.search.stats.iterations == iterations


def test_a_time_budget_stops_the_search_once_it_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock that moves 10 ms per reading: a 0.1 s budget allows about ten
    simulations (the clock is read once per simulation), never more."""
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(search_module.time, "perf_counter", lambda: next(ticks) * 0.01)
    state, seat = _decision("explorers-of-the-lost-valley")
    bot = MCTSBot(game="explorers-of-the-lost-valley", seat=seat, num_players=2, seed=1,
                  seconds=0.1)
    bot.act(state.observation(seat), state.legal_actions())
    assert 1 <= bot.search.stats.iterations <= 10


def test_the_first_limit_reached_stops_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(search_module.time, "perf_counter", lambda: next(ticks) * 1e-6)
    state, seat = _decision("lost-explorers")
    bot = MCTSBot(game="lost-explorers", seat=seat, num_players=2, seed=1, iterations=12,
                  seconds=10.0)
    bot.act(state.observation(seat), state.legal_actions())
    assert bot.search.stats.iterations == 12


@pytest.mark.parametrize("params", [{"iterations": 0}, {"seconds": -1.0},
                                    {"rollout": "greedy"}, {"rollout_depth": -1},
                                    {"search": "tree"}, {"candidates": 0},
                                    {"margin": -1.0}])
def test_bad_params_are_refused_with_the_reason(params: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="mcts: "):
        MCTSBot(game="lost-explorers", seat=0, num_players=2, seed=0, **params)


def test_a_seed_decides_every_answer() -> None:
    state, seat = _decision("lost-explorers", players=3, seed=4)
    observation, legal = state.observation(seat), state.legal_actions()
    answers = {MCTSBot(game="lost-explorers", seat=seat, num_players=3, seed=9,
                       iterations=25).act(observation, legal) for _ in range(3)}
    assert len(answers) == 1


class _Spy:
    """Counts the states the bot asks for; the game's own answer is passed through."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.calls = 0

    def state_from_observation(self, observation: Mapping[str, Any],
                               rng: random.Random) -> State:
        self.calls += 1
        return self.game.state_from_observation(observation, rng)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_it_searches_from_its_observation_and_leaves_the_referee_state_alone(name: str) -> None:
    """It gets a decoded copy of the observation (as a sandboxed seat does), builds its own
    states from it, and the referee's state and observations are as they were."""
    state, seat = _decision(name, players=3, seed=2)
    before = [json.dumps(state.observation(s), sort_keys=True) for s in range(3)]
    bot = MCTSBot(game=name, seat=seat, num_players=3, seed=0, **TINY)
    spy = _Spy(bot.search.game)
    bot.search.game = spy  # type: ignore[assignment]
    bot.act(json.loads(before[seat]), tuple(state.legal_actions()))
    assert spy.calls >= 1
    assert [json.dumps(state.observation(s), sort_keys=True) for s in range(3)] == before


def test_the_sandbox_shows_a_bot_the_packages_it_depends_on_and_no_others() -> None:
    """mcts requires the greedy package (its ``greedy`` extra), installed in editable mode
    outside the virtualenv: bubblewrap binds it for mcts, and nothing for greedy itself."""
    assert dependency_locations("arena_bot_mcts.plugin") == (
        module_location("arena_bot_greedy"),)
    assert dependency_locations("arena_bot_greedy.plugin") == ()


def test_it_runs_in_the_sandbox_as_a_tournament_seats_it() -> None:
    """``arena check`` loads it through its entry point in a sandboxed host (in Lost
    Explorers its default search imports the greedy package: the sandbox must show it)."""
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "check", "mcts",
         "--game", "lost-explorers", "--params", json.dumps({"iterations": 3})],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "mcts: all checks passed" in done.stdout


# --------------------------------------------------------------- the search on any game

class SeenRace(TinyRace):
    """tiny-race with state_from_observation: everything is public."""

    def state_from_observation(self, observation: Mapping[str, Any],
                               rng: random.Random) -> State:
        positions = observation["positions"]
        state = RaceState(len(positions), GOAL)  # the observation does not show the goal
        state.positions, state.turn = list(positions), observation["turn"]
        return state


class MisreadRace(SeenRace):
    """A deliberately broken rebuild: it forgets whose turn it is."""

    def state_from_observation(self, observation: Mapping[str, Any],
                               rng: random.Random) -> State:
        state = super().state_from_observation(observation, rng)
        assert isinstance(state, RaceState)
        state.turn = 0
        return state


class SharingRace(SeenRace):
    """A deliberately broken rebuild: the state keeps the observation's list."""

    def state_from_observation(self, observation: Mapping[str, Any],
                               rng: random.Random) -> State:
        state = super().state_from_observation(observation, rng)
        assert isinstance(state, RaceState)
        state.positions = observation["positions"]
        return state


def test_the_search_plays_any_game_that_rebuilds_states() -> None:
    """With no evaluation for the game, rollouts run to the end; the search still answers
    a legal action and prefers the winning step when one step wins."""
    game = SeenRace()
    search = Search(game, budget=Budget(iterations=300), rng=random.Random(0))
    state = RaceState(2, 6)
    state.positions, state.turn = [5, 5], 0
    assert search.choose(state.observation(0), state.legal_actions()) == 0  # step: win now


def _always_gamble(state: State, player: int, legal: list[int], rng: random.Random) -> int:
    """A poor policy for tiny-race: gamble whenever it can."""
    return 1 if 1 in legal else legal[0]


def _level(state: State) -> list[float]:
    return [0.5] * len(state.scores())


@pytest.mark.parametrize(("margin", "expected"), [(0.0, 0), (1e9, 1)])
def test_paired_rollouts_keep_the_policy_move_unless_a_challenger_beats_it(
    margin: float, expected: int,
) -> None:
    """One step from the goal, stepping wins now and gambling wins half the time: with the
    same dice for both, stepping's advantage shows and it replaces the policy's gamble,
    unless the margin asks for more evidence than any sample can give."""
    search = PairedRollouts(SeenRace(), budget=Budget(iterations=40), rng=random.Random(0),
                            policy=_always_gamble, evaluate=_level, margin=margin)
    state = RaceState(2, 6)
    state.positions, state.turn = [5, 5], 0
    assert search.choose(state.observation(0), state.legal_actions()) == expected
    assert search.stats.iterations == 40


@pytest.mark.parametrize("iterations", [1, 7, 30])
def test_paired_rollouts_keep_an_iteration_budget_exactly(iterations: int) -> None:
    state, seat = _decision("lost-explorers", seed=3)
    bot = MCTSBot(game="lost-explorers", seat=seat, num_players=2, seed=1,
                  iterations=iterations)
    assert isinstance(bot.search, PairedRollouts)  # Lost Explorers' default search
    answer = bot.act(state.observation(seat), state.legal_actions())
    assert answer in state.legal_actions()
    assert bot.search.stats.iterations == iterations


@pytest.mark.parametrize("name", ["lost-explorers", "lost-valley-of-the-dinosaurs"])
def test_paired_rollouts_stop_once_their_time_is_spent(
    monkeypatch: pytest.MonkeyPatch, name: str,
) -> None:
    """A fake clock that moves 10 ms per reading, read before every decision of a rollout: a
    0.1 s budget stops the search within a reading of it, inside a rollout if need be (a
    rollout cut short is not compared), so rollouts that are long or slow cannot overrun."""
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(rollouts_module.time, "perf_counter", lambda: next(ticks) * 0.01)
    state, seat = _decision(name, seed=3)
    bot = MCTSBot(game=name, seat=seat, num_players=2, seed=1, seconds=0.1)
    assert isinstance(bot.search, PairedRollouts)
    assert bot.act(state.observation(seat), state.legal_actions()) in state.legal_actions()
    assert bot.search.stats.seconds <= 0.1 + 0.02
    assert bot.search.stats.rollout_actions <= 10  # hence at most ten rollouts counted


def test_paired_rollouts_with_a_slow_clock_compare_whole_rollouts_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With time for a few rollouts of Dinosaurs (1 ms per reading, 0.1 s), every rollout
    counted ran its whole depth or to the end of the game."""
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(rollouts_module.time, "perf_counter", lambda: next(ticks) * 0.001)
    state, seat = _decision("lost-valley-of-the-dinosaurs", seed=3)
    bot = MCTSBot(game="lost-valley-of-the-dinosaurs", seat=seat, num_players=2, seed=1,
                  seconds=0.1)
    bot.act(state.observation(seat), state.legal_actions())
    stats = bot.search.stats
    assert stats.iterations >= 2
    assert stats.rollout_actions <= 8 * (stats.iterations + 1)


def test_paired_rollouts_with_one_candidate_play_the_greedy_policy() -> None:
    state, seat = _decision("lost-explorers", seed=5)
    observation, legal = state.observation(seat), state.legal_actions()
    bot = MCTSBot(game="lost-explorers", seat=seat, num_players=2, seed=1, candidates=1)
    greedy = GreedyBot(game="lost-explorers", seat=seat, num_players=2, seed=1)
    assert bot.act(observation, legal) == greedy.act(observation, legal)
    assert bot.search.stats.iterations == 0


def test_paired_rollouts_without_the_greedy_package_say_what_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Asked for by name, the search says what it needs; by default the bot searches with
    the tree instead, which needs nothing more."""
    monkeypatch.setitem(sys.modules, "arena_bot_greedy", None)  # import fails as if absent
    with pytest.raises(ValueError, match="install its package"):
        MCTSBot(game="lost-explorers", seat=0, num_players=2, seed=0, search="rollouts")
    assert isinstance(MCTSBot(game="lost-explorers", seat=0, num_players=2, seed=0).search,
                      Search)


def test_check_game_passes_a_correct_rebuild() -> None:
    check_game(SeenRace(), games=3, rebuild=True)


@pytest.mark.parametrize(("game", "message"), [
    (MisreadRace(), "gives the seat on move another observation"),
    (SharingRace(), "shares lists or dicts with the observation"),
])
def test_check_game_catches_a_broken_rebuild(game: Game, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        check_game(game, games=3)


def test_check_game_says_when_a_game_cannot_rebuild_states() -> None:
    with pytest.warns(UserWarning, match="state_from_observation is not implemented"):
        check_game(TinyRace(), games=1)
    with pytest.raises(AssertionError, match="state_from_observation is not implemented"):
        check_game(TinyRace(), games=1, rebuild=True)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_shipped_games_rebuild_states_from_observations(name: str) -> None:
    """(Their contract tests run check_game too, with the check on since they implement it.)"""
    check_game(GAMES[name](), players=[3], games=1, rebuild=True)


def test_lost_explorers_samples_only_the_other_seats_clue_tiles() -> None:
    """The others' tile numbers are hidden: rebuilt states differ there, and only there."""
    game = GAMES["lost-explorers"]()
    rng = random.Random(0)
    state = game.new_initial_state(2)
    bots = [GreedyBot(game=game.name, seat=seat, num_players=2, seed=seat) for seat in (0, 1)]
    found: list[State] = []

    def watch(current: Any) -> None:
        seat = current.current_player()
        if seat >= 0 and not found and len(current.clues[1 - seat]) >= 1:
            found.append(current.clone())

    drive(state, lambda s, p: bots[p].act(s.observation(p), s.legal_actions()), rng,
          watch=watch)
    assert found, "a greedy game of two seats takes clues"
    seat = found[0].current_player()
    observation = found[0].observation(seat)
    twins: list[Any] = [game.state_from_observation(observation, random.Random(k))
                        for k in range(20)]
    assert {json.dumps(t.observation(seat), sort_keys=True) for t in twins} == {
        json.dumps(observation, sort_keys=True)}
    assert len({tuple(t.clues[1 - seat]) for t in twins}) > 1
