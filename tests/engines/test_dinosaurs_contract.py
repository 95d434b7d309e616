"""The engine contract: conformance kit, clones, determinism, legality, observations, text."""

from __future__ import annotations

import json
import random

import pytest
from rich.text import Text
from test_dinosaurs_helpers import GAME, card, die, explorer, go, phase, play, put, started

from arena.game import CHANCE, TERMINAL, InvalidOptions, sample_chance
from arena.testing import check_game
from engines.dinosaurs import actions as A
from engines.dinosaurs.game import DinosaursGame
from engines.dinosaurs.state import DinosaursState
from engines.dinosaurs.table import _SLOTS, MAX_TURNS

VARIANTS = [(players, coins) for coins in (1, 3) for players in (2, 3, 4)]


def step(state: DinosaursState, rng: random.Random) -> int:
    """One random move: sampled from the chance outcomes, or uniform among the legal actions."""
    if state.current_player() == CHANCE:
        action = sample_chance(state.chance_outcomes(), rng)
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def playout(players: int, coins: int, seed: int) -> tuple[DinosaursState, list[int]]:
    state = GAME.new_initial_state(players, {"coins": coins})
    rng, actions = random.Random(seed), []
    while not state.is_terminal():
        actions.append(step(state, rng))
    return state, actions


def test_game_class_facts() -> None:
    assert GAME.name == "lost-valley-of-the-dinosaurs"
    assert GAME.title == "Lost Valley of the Dinosaurs"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.num_distinct_actions == A.NUM_ACTIONS == 229
    assert GAME.default_options == {"coins": 1, "board": ""}


def test_plugin_registers_the_game() -> None:
    from engines.dinosaurs import plugin

    registered: list[type] = []
    plugin.arena_register_games(registered.append)
    assert registered == [DinosaursGame]


@pytest.mark.parametrize(("players", "coins"), VARIANTS)
def test_conformance_kit_passes(players: int, coins: int) -> None:
    check_game(GAME, players=[players], options={"coins": coins}, games=3, seed=players)


@pytest.mark.parametrize("options", [{"coins": 0}, {"coins": 13}, {"coins": True},
                                     {"coins": "3"}, {"speed": 2}, {"board": 3}])
def test_bad_options_are_rejected(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions, match="dinosaurs: "):
        GAME.new_initial_state(2, options)


@pytest.mark.parametrize("players", [1, 5, True, "2"])
def test_player_counts_outside_two_to_four_are_rejected(players: object) -> None:
    with pytest.raises(InvalidOptions, match="2 to 4 players"):
        GAME.new_initial_state(players)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "coins"), VARIANTS)
def test_random_playouts_end_within_the_bound(players: int, coins: int) -> None:
    """Every match ends: by coins, by deaths, or at the hard bound of MAX_TURNS turns."""
    for seed in range(6):
        state, _ = playout(players, coins, seed)
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        assert state.turns <= MAX_TURNS
        assert state.end_reason in ("coins", "deaths", "no-coins", "bound")
        assert sorted(state.ranking())[0] == 0


@pytest.mark.parametrize(("players", "coins"), [(2, 1), (4, 3)])
def test_legal_actions_and_chance_outcomes_are_well_formed(players: int, coins: int) -> None:
    state = GAME.new_initial_state(players, {"coins": coins})
    rng = random.Random(players * 10 + coins)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        assert all(0 <= action < GAME.num_distinct_actions for action in legal)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert [action for action, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        else:
            assert state.chance_outcomes() == []
            assert 0 <= state.current_player() < players
        step(state, rng)


def test_the_same_actions_give_the_same_match() -> None:
    """Determinism: replaying the recorded actions reproduces the match exactly."""
    first, actions = playout(3, 3, 11)
    again = GAME.new_initial_state(3, {"coins": 3})
    for action in actions:
        again.apply_action(action)
    assert again.is_terminal()
    assert again.observation(1) == first.observation(1)
    assert again.scores() == first.scores() and again.ranking() == first.ranking()
    assert playout(3, 3, 11)[1] == actions


def _mutate(value: object) -> object:
    """Something different from ``value``, changing lists in place."""
    if isinstance(value, list):
        if value and isinstance(value[0], bool):
            value[0] = not value[0]
        else:
            value.append(7)
        return value
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, tuple):
        return (*value, 7)
    return None


def test_clone_follows_the_declared_fields_and_is_independent() -> None:
    """A clone copies every declared field; changing any field of the clone leaves the
    original alone."""
    state = started(3)
    rng = random.Random(4)
    for _ in range(300):
        step(state, rng)
    before = json.dumps(state.observation(0), sort_keys=True)
    snapshot = {name: repr(getattr(state, name)) for name in _SLOTS}
    twin = state.clone()
    assert {name: repr(getattr(twin, name)) for name in _SLOTS} == snapshot
    for name in _SLOTS:
        setattr(twin, name, _mutate(getattr(twin, name)))
    assert {name: repr(getattr(state, name)) for name in _SLOTS} == snapshot
    assert json.dumps(state.observation(0), sort_keys=True) == before


def test_playing_on_a_clone_leaves_the_original_alone() -> None:
    state = started(2)
    rng = random.Random(9)
    for _ in range(150):
        step(state, rng)
    before = json.dumps(state.observation(1), sort_keys=True)
    twin = state.clone()
    while not twin.is_terminal():
        step(twin, rng)
    assert json.dumps(state.observation(1), sort_keys=True) == before


def test_illegal_actions_raise_value_error() -> None:
    state = started(2)
    for action in (A.DONE, explorer(0), die(3), -1, A.NUM_ACTIONS, True, "0"):
        with pytest.raises(ValueError, match="not legal"):
            state.apply_action(action)  # type: ignore[arg-type]
    play(state, card("Discovered"))
    with pytest.raises(ValueError):
        state.apply_action(explorer(4))  # seat 1's explorer, not the mover's


@pytest.mark.parametrize("players", [2, 4])
def test_observations_are_json_and_public(players: int) -> None:
    state = GAME.new_initial_state(players)
    rng = random.Random(5)
    count = 0
    while not state.is_terminal():
        if count % 11 == 0:
            for seat in range(players):
                observation = state.observation(seat)
                assert json.loads(json.dumps(observation)) == observation
                assert observation["seat"] == seat
                assert observation["current_player"] == state.current_player()
        step(state, rng)
        count += 1
    final = state.observation(0)
    assert final["phase"] == "over" and final["current_player"] == TERMINAL
    assert final["end_reason"] == state.end_reason


def test_observation_holds_the_table_and_the_board() -> None:
    state = put(started(2), 1, "e2")
    state.carrying[1] = True
    play(state, card("Discovered"))
    observation = state.observation(1)
    assert observation["players"][0]["explorers"] == [-1, go("e2")[0], -1, -1]
    assert observation["players"][0]["carrying"] == [False, True, False, False]
    assert observation["players"][0]["secret_paths"] == 1
    assert observation["deck"]["secret-path"] == 1 and observation["deck_count"] == 53
    assert observation["phase"] == "move-pick" and observation["coins_to_win"] == 1
    board = observation["board"]
    assert board["names"][go("e2")[0]] == "e2" and board["terrain"][go("f6")[0]] == "temple"
    assert sorted(board["neighbors"][go("d9")[0]]) == sorted(go("c9", "c10", "d8", "d10",
                                                               "e9", "e10"))
    assert len(board["lairs"]) == 6 and len(board["swamp_ring"]) == 10


def test_every_action_id_has_a_name() -> None:
    state = started(4)
    names = [state.action_to_string(action) for action in range(A.NUM_ACTIONS)]
    assert all(names) and len(set(names)) == A.NUM_ACTIONS
    assert state.action_to_string(-1) == "unknown action -1"
    assert state.action_to_string(card("Volcano")) == "draw Volcano Erupts!"
    assert state.action_to_string(explorer(5)) == "choose explorer 1 of seat 1"


def test_action_names_follow_the_phase() -> None:
    state = put(started(2), 0, "e2")
    play(state, card("Discovered"))
    assert state.action_to_string(explorer(0)) == "move explorer 0 of seat 0"
    play(state, explorer(0), die(2))
    assert phase(state) == "move-step"
    assert state.action_to_string(go("e3")[0]) == "step to e3 (land)"


def test_render_draws_the_valley_in_80_columns_with_a_legend() -> None:
    state = started(4)
    rng = random.Random(2)
    for _ in range(400):
        step(state, rng)
    text = state.render()
    plain = Text.from_markup(text).plain
    assert max(len(line) for line in plain.splitlines()) <= 80
    for word in ("lair", "river", "swamp", "temple", "lava", "dinosaurs", "swamp monster",
                 "coin", "seat 3", "carrying", "bullets"):
        assert word in plain
    assert str(state) == text


@pytest.mark.parametrize(("options", "said"), [
    ({"coins": "3"}, "option 'coins' must be a whole number, got \"3\""),
    ({"coins": True}, "option 'coins' must be a whole number, got true"),
    ({"board": 3}, "option 'board' must be a string, got 3"),
])
def test_a_bad_option_is_named_in_a_config_s_own_words(
    options: dict[str, object], said: str,
) -> None:
    with pytest.raises(InvalidOptions) as raised:
        GAME.new_initial_state(2, options)
    assert said in str(raised.value)


def test_an_explorer_outside_enters_with_its_first_step_onto_an_entry() -> None:
    """The README's action table: an explorer outside the valley (-1) enters with its first
    step, onto one of ``board.entries`` (a bot author found no word on how one comes in)."""
    entered = 0
    for seed in range(8):
        state, rng = GAME.new_initial_state(3), random.Random(seed)
        while not state.is_terminal():
            if state.current_player() != CHANCE:
                observation = state.observation(state.current_player())
                mover = observation["now"]["explorer"]
                if observation["phase"] == "move-step" and observation["players"][
                        mover // 4]["explorers"][mover % 4] == -1:
                    assert state.legal_actions()
                    assert set(state.legal_actions()) <= set(observation["board"]["entries"])
                    entered += 1
            step(state, rng)
    assert entered > 20
