"""The engine contract: clones, determinism, legal actions, chance, observations, text."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import random
from pathlib import Path

import pytest
from test_explorers_helpers import card, draw, play, roll, setup

import engines.explorers
from arena.game import CHANCE, TERMINAL
from engines.explorers import actions as A
from engines.explorers.cards import CardSet
from engines.explorers.game import ExplorersGame
from engines.explorers.observation import cards_from_columns
from engines.explorers.state import ExplorersState
from engines.explorers.table import Table

GAME = ExplorersGame()
VARIANTS = [(players, advanced) for advanced in (False, True) for players in (2, 3, 4)]


def step(state: ExplorersState, rng: random.Random) -> int:
    """One random move: sampled from the chance outcomes, or uniform among the legal actions."""
    if state.current_player() == CHANCE:
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        action: int = rng.choices(actions, weights)[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def playout(players: int, advanced: bool, seed: int) -> tuple[ExplorersState, list[int]]:
    state = GAME.new_initial_state(players, {"advanced": advanced})
    rng, actions = random.Random(seed), []
    while not state.is_terminal():
        actions.append(step(state, rng))
        assert len(actions) < 20_000
    return state, actions


def test_game_class_facts() -> None:
    assert GAME.name == "explorers-of-the-lost-valley"
    assert GAME.title == "Explorers of the Lost Valley"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.num_distinct_actions == A.NUM_ACTIONS == 111


def test_plugin_registers_the_game() -> None:
    from engines.explorers import plugin

    registered: list[type] = []
    plugin.arena_register_games(registered.append)
    assert registered == [ExplorersGame]


@pytest.mark.parametrize(("players", "advanced"), VARIANTS)
def test_random_playouts_terminate(players: int, advanced: bool) -> None:
    for seed in range(40):
        state, _ = playout(players, advanced, seed)
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        assert max(state.trophies) >= 2
        assert sorted(state.ranking())[0] == 0


@pytest.mark.parametrize(("players", "advanced"), VARIANTS)
def test_legal_actions_and_chance_outcomes_are_well_formed(players: int,
                                                          advanced: bool) -> None:
    state = GAME.new_initial_state(players, {"advanced": advanced})
    rng = random.Random(players * 10 + advanced)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        assert all(0 <= action < GAME.num_distinct_actions for action in legal)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert [action for action, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(p > 0 for _, p in outcomes)
        else:
            assert state.chance_outcomes() == []
            assert 0 <= state.current_player() < players
        for action in legal:
            assert state.action_to_string(action)
        step(state, rng)


def test_same_chance_outcomes_give_the_same_match() -> None:
    """Determinism: replaying the recorded actions reproduces the match exactly."""
    first, actions = playout(3, True, 7)
    again = GAME.new_initial_state(3, {"advanced": True})
    for action in actions:
        again.apply_action(action)
    assert again.is_terminal()
    assert again.observation(0) == first.observation(0)
    assert again.scores() == first.scores() and again.ranking() == first.ranking()
    assert playout(3, True, 7)[1] == actions


def test_clone_is_independent() -> None:
    state = setup(3, row=("Iguanodon galvensis", "Allies"), trails=(("pterodactylus",) * 2,
                                                                     ("iguanodon",) * 2,
                                                                     ("plesiosaurus",) * 2))
    before = json.dumps(state.observation(0), sort_keys=True)
    twin = state.clone()
    play(twin, A.TAKE + 1, draw("Hound"), A.TAKE, roll(12), draw("Iguanodon mantelli"),
         A.END_TURN)
    play(twin, A.STEAL + 1, A.STEAL_FROM, A.DIE + 6, A.STEAL_CARD + card("Iguanodon galvensis"))
    assert json.dumps(state.observation(0), sort_keys=True) == before
    assert twin.dinosaurs[1] == [card("Iguanodon galvensis")] and state.dinosaurs[1] == []
    rng = random.Random(3)
    while not twin.is_terminal():
        step(twin, rng)
    assert json.dumps(state.observation(0), sort_keys=True) == before
    assert state.clone().observation(2) == state.observation(2)


def test_illegal_actions_raise_value_error() -> None:
    state = setup(3)
    for action in (A.REROLL, A.DRAW, roll(7), -1, A.NUM_ACTIONS, True, "0"):
        with pytest.raises(ValueError, match="not legal"):
            state.apply_action(action)  # type: ignore[arg-type]
    play(state, A.TAKE)
    with pytest.raises(ValueError):
        state.apply_action(roll(13))
    with pytest.raises(ValueError):
        state.apply_action(A.TAKE)


@pytest.mark.parametrize(("players", "advanced"), VARIANTS)
def test_observations_are_json_and_public(players: int, advanced: bool) -> None:
    state = GAME.new_initial_state(players, {"advanced": advanced})
    rng = random.Random(5)
    while not state.is_terminal():
        for seat in range(players):
            observation = state.observation(seat)
            assert json.loads(json.dumps(observation)) == observation
            assert observation["seat"] == seat
        step(state, rng)
    final = state.observation(0)
    assert final["phase"] == "over" and final["current_player"] == TERMINAL
    assert len(final["history"]) == state.adventure


def test_observation_holds_the_whole_table() -> None:
    state = setup(3, row=("Iguanodon galvensis", "Allies"))
    play(state, A.TAKE, roll(3))
    observation = state.observation(1)
    assert observation["row"][0]["name"] == "Iguanodon galvensis"
    galvensis = card("Iguanodon galvensis")
    assert observation["row"][0]["difficulty"] == state.cards.difficulty[galvensis]
    assert observation["row"][1]["effect"] == "allies"
    assert observation["hunt"] == {"card": card("Iguanodon galvensis"), "slot": 0, "rolls": 1,
                                   "ammunition_used": 0, "last_roll": 3, "bonus": 0}
    assert observation["phase"] == "hunt-reroll" and observation["current_player"] == 0
    assert observation["deck_count"] == len(observation["deck"]) == 14
    assert set(observation["players"][0]) >= {
        "exploration_tokens", "ammunition", "dinosaurs", "advantages", "trophies",
        "trail_tokens", "abandoned", "points"}
    assert observation["cards"]["name"][galvensis] == "Iguanodon galvensis"
    assert len(observation["cards"]["kind"]) == 18 and observation["center_ammunition"] == 7
    assert observation["adventure"] == 1


def test_action_names_are_readable() -> None:
    state = setup(3, row=("Iguanodon galvensis", "Allies"))
    difficulty = state.cards.difficulty[card("Iguanodon galvensis")]
    assert state.action_to_string(A.TAKE) == \
        f"hunt row[0] Iguanodon galvensis (difficulty {difficulty})"
    assert state.action_to_string(A.TAKE + 1) == "take row[1] Allies (advantage)"
    assert state.action_to_string(A.DISCARD + 1) == "discard row[1] Allies (advantage)"
    assert state.action_to_string(A.EXTRA_ACTION).startswith("pay 2 exploration tokens")
    assert state.action_to_string(roll(7)) == "roll 7"
    assert state.action_to_string(A.DIE + 4) == "die 4"
    play(state, A.TAKE + 1)
    assert state.action_to_string(draw("Hound")) == "reveal Hound (advantage)"
    assert state.action_to_string(A.STEAL + 2).startswith("steal: discard a plesiosaurus")


def test_render_shows_the_table() -> None:
    state = setup(3, row=("Iguanodon galvensis", "Allies"), trails=(
        ("pterodactylus", "iguanodon"), ("plesiosaurus", "pterodactylus"),
        ("megalosaurus", "iguanodon")))
    play(state, A.TAKE + 1, draw("Hound"), A.TAKE, roll(2), A.REROLL, roll(12))
    text = state.render()
    for word in ("row", "exploration tokens", "dinosaurs", "advantages", "ammunition",
                 "trophies", "Iguanodon galvensis", "Allies", "Hound", "trail tokens",
                 "megalosaurus"):
        assert word in text
    assert str(state) == text
    play(state, draw("Iguanodon mantelli"), A.END_TURN, A.STEAL + 2, A.STEAL_FROM)
    assert "stealing from seat 0" in state.render()
    state = setup(3, row=("Iguanodon galvensis", "Hound"))
    play(state, A.TAKE + 1, draw("Megalosaurus bucklandii"))
    assert "the Hound revealed" in state.render() and "Megalosaurus bucklandii" in state.render()


def test_every_action_id_has_a_name() -> None:
    state = setup(3, trails=(("pterodactylus", "iguanodon"), ("plesiosaurus", "iguanodon"),
                             ("megalosaurus", "iguanodon")))
    names = [state.action_to_string(action) for action in range(A.NUM_ACTIONS)]
    assert all(names) and len(set(names)) == A.NUM_ACTIONS
    assert state.action_to_string(-1) == "unknown action -1"
    assert state.action_to_string(A.NUM_ACTIONS) == f"unknown action {A.NUM_ACTIONS}"


def _engine_imports(module: Path) -> set[str]:
    """The engine modules ``module`` imports, ``TYPE_CHECKING`` blocks included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "engines.explorers":
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "engines.explorers."):
            found.add(node.module.rsplit(".", 1)[1])  # type: ignore[union-attr]
    return found


def test_the_engine_modules_import_one_another_without_cycles() -> None:
    """Each module of the engine can be read knowing only the ones it imports."""
    folder = Path(engines.explorers.__file__).parent
    graph = {path.stem: _engine_imports(path) for path in folder.glob("*.py")}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' -> '.join((*path, name))}"
        if name in done:
            return
        for imported in graph.get(name, ()):
            visit(imported, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def _mutate(value: object) -> object:
    """A different value of the same shape; lists are changed in place, down to the bottom."""
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            for item in value:
                _mutate(item)
        value.append(value[0] if value else 99)
        return value
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return value


@pytest.mark.parametrize("name", Table.__slots__)
def test_mutating_any_field_of_a_clone_leaves_the_original_unchanged(name: str) -> None:
    """``clone()`` follows the declared fields: a field added later cannot be shared."""
    state, _ = playout(3, True, 11)
    original = copy.deepcopy({field: getattr(state, field) for field in Table.__slots__})
    twin = state.clone()
    value = getattr(twin, name)
    if isinstance(value, CardSet):
        assert value is state.cards          # frozen, shared by reference
        return
    assert isinstance(value, (int, list)), f"{name}: a new kind of field needs a test"
    setattr(twin, name, _mutate(value))
    assert getattr(twin, name) != original[name]
    assert {field: getattr(state, field) for field in Table.__slots__} == original


def test_the_observation_columns_give_back_the_card_set() -> None:
    """A bot can score with the engine's own functions: the observation's ``cards`` columns
    rebuild the very card set the rules use."""
    state = setup(3)
    rebuilt = cards_from_columns(json.loads(json.dumps(state.observation(1)["cards"])))
    assert dataclasses.replace(rebuilt, source=state.cards.source) == state.cards
