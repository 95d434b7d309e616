"""The engine contract for Lost Explorers: conformance, clones, determinism, hidden
information, action names, rendering, and a checked-in playthrough."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from test_lost_explorers_helpers import (
    COMPONENTS,
    DEFAULT_VIEW,
    GAME,
    end_turn,
    give,
    go,
    play,
    setup,
)

from arena.game import CHANCE, sample_chance
from arena.testing import check_game
from engines.lost_explorers import actions as A
from engines.lost_explorers.game import LostExplorersGame
from engines.lost_explorers.state import LostExplorersState
from engines.lost_explorers.table import SLOTS, Table

PLAYTHROUGH = Path(__file__).parent / "playthroughs" / "lost_explorers.txt"


def random_step(state: LostExplorersState, rng: random.Random) -> int:
    if state.current_player() == CHANCE:
        action = sample_chance(state.chance_outcomes(), rng)
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def test_game_class_facts() -> None:
    assert GAME.name == "lost-explorers" and GAME.title == "Lost Explorers"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.num_distinct_actions == A.NUM_ACTIONS == 279
    assert dict(GAME.default_options) == {"components": ""}


def test_plugin_registers_the_game() -> None:
    from engines.lost_explorers import plugin

    registered: list[type] = []
    plugin.arena_register_games(registered.append)
    assert registered == [LostExplorersGame]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_game_passes(players: int) -> None:
    check_game(GAME, players=[players], games=4, seed=players)


def test_same_actions_give_the_same_game() -> None:
    """Determinism: replaying the recorded actions reproduces the game exactly."""
    rng, state, actions = random.Random(11), GAME.new_initial_state(4), []
    while not state.is_terminal():
        actions.append(random_step(state, rng))
    again = play(GAME.new_initial_state(4), *actions)
    assert again.is_terminal() and again.render() == state.render()
    for seat in range(4):
        assert again.observation(seat) == state.observation(seat)
    assert again.ranking() == state.ranking() and again.scores() == state.scores()


def busy_state() -> LostExplorersState:
    """A state where every list field holds something: members out, tokens, clues."""
    state = setup(3)
    for _ in range(3):
        end_turn(state)
    give(state, 0, vehicles=("car", "car", "train"))
    go(state, "Petra", "car")
    state.clues[1].append(state.clue_pool.pop())
    play(state, A.equip(0, 1, A.MISSION_SIDE))
    return state


def _changed(value: Any) -> Any:
    """A different value of the same kind, for the clone test."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    return None


def test_clone_follows_the_declared_fields() -> None:
    """Every field is listed in SLOTS, the clone copies each, and no list is shared."""
    state = busy_state()
    twin = state.clone()
    assert Table.__slots__ == SLOTS and LostExplorersState.__slots__ == ()
    for name in SLOTS:
        ours, theirs = getattr(state, name), getattr(twin, name)
        assert ours == theirs, name
        if isinstance(ours, list):
            assert ours is not theirs, name
            for inner, twin_inner in zip(ours, theirs, strict=True):
                assert not isinstance(inner, list) or inner is not twin_inner, name


def test_mutating_every_field_of_a_clone_leaves_the_original_alone() -> None:
    state = busy_state()
    before = {name: json.dumps(getattr(state, name), default=repr) for name in SLOTS}
    for name in SLOTS:
        twin = state.clone()
        value = getattr(twin, name)
        if isinstance(value, list):
            for inner in value:
                if isinstance(inner, list):
                    inner.append(99)
            value.append(99)
        else:
            setattr(twin, name, _changed(value))
    after = {name: json.dumps(getattr(state, name), default=repr) for name in SLOTS}
    assert after == before


def test_playing_a_clone_to_the_end_leaves_the_original_alone() -> None:
    state = busy_state()
    frozen = [json.dumps(state.observation(seat), sort_keys=True) for seat in range(3)]
    twin, rng = state.clone(), random.Random(5)
    while not twin.is_terminal():
        random_step(twin, rng)
    assert [json.dumps(state.observation(seat), sort_keys=True) for seat in range(3)] == frozen


def test_the_observation_holds_what_the_readme_lists() -> None:
    """engines/lost_explorers/README.md documents these keys for bot authors."""
    observation = busy_state().observation(2)
    assert set(observation) == {
        "game", "seat", "num_players", "phase", "current_player", "turn", "first_player",
        "can_send", "sent_this_turn", "locations", "stacks", "equipment_areas", "discard",
        "tracks", "players", "my_clues", "clue_tiles_left", "completed_missions", "completing",
        "end", "box"}
    assert set(observation["players"][0]) == {
        "seat", "vehicles", "missions", "members_in_front", "members_total",
        "members_on_locations", "leaders", "clues", "tokens"}
    assert observation["locations"][0] == {"id": 0, "name": "African Mask",
                                           "route": ["car", "car", "boat"], "validated": False,
                                           "member": None}
    assert observation["stacks"] == [{"count": 31, "visible": list(DEFAULT_VIEW[0][1:])},
                                     {"count": 32, "visible": list(DEFAULT_VIEW[1])}]
    assert observation["players"][0]["members_on_locations"] == [10]
    assert observation["players"][1]["clues"] == 1 and observation["my_clues"] == []
    assert observation["tracks"][0] == {"name": "green", "length": 15,
                                       "glasses": [5, 8, 12, 15]}
    box = observation["box"]
    assert set(box) == {"missions", "starting_from", "markers", "clue_numbers"}
    assert len(box["missions"]) == 80 and box["starting_from"] == 64
    assert set(box["missions"][0]) == {"vehicle", "locations", "track"}
    assert sorted(box["clue_numbers"]) == list(range(1, 14))
    assert box is busy_state().observation(0)["box"]  # built once, shared read-only


def test_the_tensor_holds_every_stack_token_in_order() -> None:
    """``observation_tensor`` (tensor.py): per stack its count, then each of its 32 places
    one-hot over train, car, boat, airship; 346 + 42n numbers with the shipped data."""
    state = busy_state()
    tensor = state.observation_tensor(2)
    assert len(tensor) == 346 + 42 * 3
    start = 11 + (3 + 2) + 3 + 3 + 12 * (5 + 3)  # the blocks before the stacks
    for stack, order in enumerate((DEFAULT_VIEW[0][1:], DEFAULT_VIEW[1])):
        block = tensor[start + stack * 129:start + (stack + 1) * 129]
        assert block[0] == len(order)
        places = [block[1 + 4 * k:5 + 4 * k] for k in range(32)]
        assert places[:len(order)] == [[float(name == v) for v in ("train", "car", "boat",
                                                                    "airship")]
                                       for name in order]
        assert places[len(order):] == [[0.0] * 4] * (32 - len(order))


def test_a_rebuilt_state_has_the_stacks_the_seat_sees() -> None:
    """``state_from_observation``: every stack token's type is in the observation, so the
    stacks are rebuilt as they are (no vehicle left to chance); an observation that lacks
    some of them is refused."""
    state = setup(3)
    end_turn(state)
    observation = state.observation(state.current_player())
    twin = GAME.state_from_observation(observation, random.Random(1))
    assert twin.visible == state.visible and twin.stack_left == state.stack_left
    assert twin.unseen_vehicles == [0, 0, 0, 0]
    play(twin, A.equip(1, 2, A.VEHICLE_SIDE))
    assert twin.phase == state.phase and twin.visible[1] == state.visible[1][:1] + \
        state.visible[1][2:]
    observation["stacks"][0]["visible"] = observation["stacks"][0]["visible"][:4]
    with pytest.raises(ValueError, match="every stack token's vehicle"):
        GAME.state_from_observation(observation, random.Random(1))


def test_clue_numbers_are_seen_by_their_owner_only() -> None:
    """Two games that differ only in the clue tile seat 1 drew look the same to the others."""
    first, second = busy_state(), busy_state()
    first.clues[1], second.clues[1] = [0], [5]
    for seat in (0, 2):
        assert first.observation(seat) == second.observation(seat)
    assert first.observation(1)["my_clues"] != second.observation(1)["my_clues"]


def test_the_hidden_side_is_never_stored_in_advance() -> None:
    """What no one can see does not exist yet: the stacks hold their vehicle types (every one
    in view), not their missions, and every unrevealed mission of a kind is still a possible
    outcome."""
    state = busy_state()
    assert state.phase == 3  # the mission of the token just taken is being drawn
    pool = state.hidden_missions[state.reveal_pool]
    assert [a - A.MISSION for a, _ in state.chance_outcomes()] == pool
    assert [len(view) for view in state.visible] == state.stack_left == [31, 32]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_are_json_and_name_the_seat(players: int) -> None:
    rng, state = random.Random(players), GAME.new_initial_state(players)
    while not state.is_terminal():
        for seat in range(players):
            observation = state.observation(seat)
            assert json.loads(json.dumps(observation)) == observation
            assert observation["seat"] == seat
        random_step(state, rng)
    assert state.observation(0)["phase"] == "over" and state.observation(0)["end"]


def _public_part(observation: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in observation.items() if key not in ("seat", "my_clues")}


@pytest.mark.parametrize("players", [2, 4])
def test_every_seat_sees_the_same_table_but_its_own_clue_numbers(players: int) -> None:
    """Everything on the table is in view of all: the World Map, both stacks' vehicle sides
    ("so that the type of each token is visible"), the discard area, every player's tokens
    (missions turned "Mission side up" included), members and Leaders, the number of clues
    each holds. The one thing a player keeps to themselves is the numbers on their clue tiles
    (ruling 20), and no seat sees a mission side still face down: none is drawn before it is
    turned up. So seats' observations differ in ``seat`` and ``my_clues`` only, and those
    are what the seat may know; ``can_send`` is the player on move's, for every seat."""
    rng, state = random.Random(31 + players), GAME.new_initial_state(players)
    while not state.is_terminal():
        views = [state.observation(seat) for seat in range(players)]
        for seat, view in enumerate(views):
            assert _public_part(view) == _public_part(views[0])
            assert len(view["my_clues"]) == view["players"][seat]["clues"]
            assert view["my_clues"] == [COMPONENTS.clue_numbers[t] for t in state.clues[seat]]
        random_step(state, rng)
    assert any(state.clues)  # a clue tile was taken: there was something to keep private


@pytest.mark.parametrize("players", [2, 4])
def test_the_quick_legality_check_agrees_with_legal_actions(players: int) -> None:
    """``apply_action`` checks phase 1 moves without building the list; both must agree."""
    rng = random.Random(players)
    for _ in range(3):
        state = GAME.new_initial_state(players)
        while not state.is_terminal():
            legal = set(state.legal_actions())
            assert {a for a in range(-2, A.NUM_ACTIONS + 2) if state.is_legal(a)} == legal
            random_step(state, rng)


def test_illegal_actions_raise_value_error() -> None:
    state = setup(3)
    for action in (A.END_TURN, A.CLUE, A.equip(0, 2, 0), -1, A.NUM_ACTIONS, True, "76"):
        with pytest.raises(ValueError, match="not legal"):
            state.apply_action(action)  # type: ignore[arg-type]


def test_every_action_id_has_a_distinct_name() -> None:
    state = busy_state()
    names = [state.action_to_string(action) for action in range(A.NUM_ACTIONS)]
    assert all(names) and len(set(names)) == A.NUM_ACTIONS
    assert state.action_to_string(-1) == "unknown action -1"
    assert state.action_to_string(A.expedition(10, 1)) == \
        "send a member to Petra, discarding a car"
    assert state.action_to_string(A.equip(1, 2, 1)) == \
        "2 members to Equipment area 1: take the boat (token 2 of stack 1) mission side up"


def test_render_shows_the_table() -> None:
    """The locations with their routes and markers, every token of the stacks in order (the
    four within reach first), every player's tokens, members and Leaders, and the clues."""
    state = busy_state()
    text = state.render()
    stack = ("stack 0: 31 tokens, within reach: car, boat, airship, train; further down: "
             f"{', '.join(DEFAULT_VIEW[0][5:])}; 1 member on its Equipment area")
    for words in ("African Mask (car, car, boat)", "VALIDATED", "member of seat 0", stack,
                  "discard area: 1 car", "green:", "orange:", "seat 1", "vehicles:",
                  "leaders at 1/1", "clue tiles left: 12", "mission #"):
        assert words in text, words
    assert str(state) == text


def playthrough_text() -> str:
    """One seeded 3-player game of random moves, every action named, then the final table."""
    rng, state, lines = random.Random(2020), GAME.new_initial_state(3), []
    while not state.is_terminal():
        who = state.current_player()
        legal = state.legal_actions()
        action = (sample_chance(state.chance_outcomes(), rng) if who == CHANCE
                  else legal[int(rng.random() * len(legal))])
        actor = "chance" if who == CHANCE else f"seat {who}"
        lines.append(f"{actor}: {state.action_to_string(action)}")
        state.apply_action(action)
    return "\n".join([*lines, "", state.render(), ""])


def test_the_playthrough_has_not_changed() -> None:
    """A rule change that alters play shows up as a diff of the checked-in playthrough.
    Regenerate it deliberately with ``LOST_EXPLORERS_PLAYTHROUGH=write``."""
    text = playthrough_text()
    if os.environ.get("LOST_EXPLORERS_PLAYTHROUGH") == "write":
        PLAYTHROUGH.parent.mkdir(exist_ok=True)
        PLAYTHROUGH.write_text(text, "utf-8")
    assert PLAYTHROUGH.read_text("utf-8") == text


def test_the_rules_coverage_table_names_tests_that_exist() -> None:
    """``RULES-COVERAGE-lost-explorers.md`` maps every rule to its tests; a test renamed or
    removed must not leave the table pointing at nothing."""
    here = Path(__file__).parent
    table = (here / "RULES-COVERAGE-lost-explorers.md").read_text("utf-8")
    named = set(re.findall(r"`(test_\w+)", table))
    defined = {name for path in here.glob("test_lost_explorers_*.py")
               for name in re.findall(r"^def (test_\w+)\(", path.read_text("utf-8"), re.M)}
    assert len(named) > 50 and named <= defined, sorted(named - defined)


def test_an_expedition_needs_the_route_token_by_token_and_discards_one_of_it() -> None:
    """The README: ``route`` names a vehicle once per token it takes (``["car", "car",
    "boat"]``: two cars and a boat), and the Expedition action discards one vehicle of it. A
    bot author could not tell whether a vehicle named twice needed two tokens."""
    vehicles = ("train", "car", "boat", "airship")
    offered = refused = 0
    for seed in range(12):
        state, rng = GAME.new_initial_state(2 + seed % 3), random.Random(seed)
        while not state.is_terminal():
            if state.current_player() != CHANCE:
                observation = state.observation(state.current_player())
                held = observation["players"][observation["seat"]]["vehicles"]
                legal = set(state.legal_actions())
                if observation["phase"] == "phase-1" and observation["can_send"] > 0:
                    for location in observation["locations"]:
                        route = location["route"]
                        ids = {28 + 4 * location["id"] + v for v in range(4)} & legal
                        holds = all(held.get(v, 0) >= route.count(v) for v in route)
                        open_to_me = not location["validated"] and (
                            location["member"] != observation["seat"])
                        assert bool(ids) == (holds and open_to_me)
                        assert {vehicles[(i - 28) % 4] for i in ids} <= set(route)
                        offered += bool(ids)
                        refused += open_to_me and not holds and all(
                            held.get(v, 0) >= 1 for v in route)
            random_step(state, rng)
    assert offered > 50 and refused > 5  # a route held by kind but not by count is refused
