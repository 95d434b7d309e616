"""Lost Explorers rule scenarios written from the rulebook and the public docs only.

Each test sets up a position the way an outside checker can (a new state, the chance
outcomes forced one by one, legal actions applied, or a seat's observation edited and
rebuilt with ``Game.state_from_observation``), acts, and checks what the rulebook
(``rules/lost-explorers.txt``) says; the sentence checked is quoted. Ids are the ones
``engines/lost_explorers/README.md`` documents.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.game import CHANCE, TERMINAL, InvalidOptions, State
from engines.lost_explorers.game import LostExplorersGame

GAME = LostExplorersGame()
VEHICLES = ["train", "car", "boat", "airship"]
TRAIN, CAR, BOAT, AIRSHIP = range(4)
# Locations (file order; README: "L location id 0-11").
MASK, CHICHEN, SPHINX, CHURCH, TOTEM, MACHU, WALL, TAJ, MOAI, ANGKOR, PETRA, FUJI = range(12)
MARKER_POOL = (CHICHEN, SPHINX, TAJ, FUJI)
MARKERS_FOR = {2: 4, 3: 3, 4: 2}
END_PHASE_1 = 76
END_TURN = 157


# Action ids, as the README's table gives them.
def retrieve(location: int) -> int:
    return location


def equip(area: int, members: int, side: int = 0) -> int:
    return 12 + 8 * area + 2 * (members - 1) + side


def go(location: int, vehicle: int) -> int:
    return 28 + 4 * location + vehicle


def complete(mission: int) -> int:
    return 77 + mission


def catch_up(vehicle: int) -> int:
    return 158 + vehicle


def flip(vehicle: int) -> int:
    return 162 + vehicle


# Chance outcome ids: the README only says 166-278; these were read off action_to_string.
def marker(location: int) -> int:
    return 166 + location


def stack_token(vehicle: int) -> int:
    return 178 + vehicle


def first(seat: int) -> int:
    return 182 + seat


def mission_drawn(mission: int) -> int:
    return 186 + mission


def clue_tile(index: int) -> int:
    return 266 + index


def force(state: State, outcome: int) -> None:
    """Apply one chance outcome, checking it is possible here."""
    assert state.current_player() == CHANCE
    assert outcome in dict(state.chance_outcomes()), state.action_to_string(outcome)
    state.apply_action(outcome)


def play(state: State, *actions: int) -> None:
    """Apply decisions, each checked legal first."""
    for action in actions:
        assert state.current_player() >= 0
        assert action in state.legal_actions(), state.action_to_string(action)
        state.apply_action(action)


DEFAULT_STACKS = (
    ["train"] * 8 + ["car"] * 8 + ["boat"] * 8 + ["airship"] * 8,
    ["train"] * 8 + ["car"] * 8 + ["boat"] * 8 + ["airship"] * 8,
)


def new_game(
    players: int = 2,
    *,
    first_seat: int = 0,
    markers: tuple[int, ...] = MARKER_POOL,
    stacks: tuple[list[str], list[str]] = DEFAULT_STACKS,
    flips: tuple[tuple[int, int], ...] | None = None,
) -> State:
    """A game past setup, every chance outcome forced: seat ``first_seat`` on move.

    ``flips`` are (vehicle, starting mission) per player in turn order; by default
    each flips its boat token, drawing the boat starting missions 72, 73, ...
    """
    state = GAME.new_initial_state(players)
    for location in markers[: MARKERS_FOR[players]]:
        force(state, marker(location))
    for stack in stacks:
        for vehicle in stack:
            force(state, stack_token(VEHICLES.index(vehicle)))
    force(state, first(first_seat))
    for kind, mission in flips or tuple((BOAT, 72 + seat) for seat in range(players)):
        play(state, flip(kind))
        force(state, mission_drawn(mission))
    return state


def rebuilt(state: State, edit: Callable[[dict[str, Any]], None]) -> State:
    """The seat on move's observation, edited, rebuilt into a state."""
    observation = state.observation(state.current_player())
    edit(observation)
    return GAME.state_from_observation(observation, random.Random(0))


def set_player(
    observation: dict[str, Any],
    seat: int,
    *,
    vehicles: dict[str, int] | None = None,
    missions: list[int] | None = None,
    on: list[int] | None = None,
    in_front: int | None = None,
    total: int | None = None,
    leaders: list[int] | None = None,
    clues: list[int] | None = None,
) -> None:
    """Edit one seat's part of an observation, keeping the derived fields consistent."""
    player = observation["players"][seat]
    box = observation["box"]["missions"]
    if vehicles is not None:
        player["vehicles"] = {v: vehicles.get(v, 0) for v in VEHICLES}
    if missions is not None:
        player["missions"] = [
            {"id": m, "vehicle": box[m]["vehicle"], "locations": list(box[m]["locations"]),
             "track": box[m]["track"]} for m in missions]
    if on is not None:
        for location in observation["locations"]:
            if location["member"] == seat:
                location["member"] = None
        for location in on:
            observation["locations"][location]["member"] = seat
        player["members_on_locations"] = sorted(on)
    if total is not None:
        player["members_total"] = total
    if in_front is not None:
        player["members_in_front"] = in_front
    if leaders is not None:
        player["leaders"] = leaders
    if clues is not None:
        player["clues"] = len(clues)
        if seat == observation["seat"]:
            observation["my_clues"] = clues
    player["tokens"] = sum(player["vehicles"].values()) + len(player["missions"])
    if seat == observation["current_player"] and observation["phase"] == "phase-1":
        observation["can_send"] = player["members_in_front"]


def take_out_of_stacks(observation: dict[str, Any], **vehicles: int) -> None:
    """Take ``vehicles`` tokens (``car=3``) out of the stacks, from the bottom of stack 1 up,
    then of stack 0: room for the vehicles an edit hands a player, the box holding 20 tokens
    of each vehicle (README, "Setting up a position")."""
    for name, count in vehicles.items():
        for stack in reversed(observation["stacks"]):
            while count and name in stack["visible"]:
                del stack["visible"][len(stack["visible"]) - 1 - stack["visible"][::-1].index(name)]
                count -= 1
            stack["count"] = len(stack["visible"])
        assert count == 0, f"not enough {name} tokens in the stacks"


def later_turn(observation: dict[str, Any]) -> None:
    """Past the first round: no first-turn limits."""
    observation["turn"] = 2 * observation["num_players"]
    observation["sent_this_turn"] = 0


def mid_game(edit: Callable[[dict[str, Any]], None], players: int = 2) -> State:
    """Seat 0 at the start of a later turn's phase 1, the table edited by ``edit``."""
    state = new_game(players)

    def both(observation: dict[str, Any]) -> None:
        later_turn(observation)
        edit(observation)
        seat = observation["current_player"]
        observation["can_send"] = observation["players"][seat]["members_in_front"]

    return rebuilt(state, both)


def obs(state: State, seat: int = 0) -> dict[str, Any]:
    return state.observation(seat)


def me(state: State, seat: int = 0) -> dict[str, Any]:
    player: dict[str, Any] = state.observation(seat)["players"][seat]
    return player


# --- Setup ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "markers"), [(2, 4), (3, 3), (4, 2)])
def test_validated_markers_by_player_count(players: int, markers: int) -> None:
    """"Pick 2, 3 or 4 Validated Location markers at random for respectively 4, 3 or 2
    players"."""
    state: State = GAME.new_initial_state(players)
    drawn = 0
    while state.chance_outcomes()[0][0] < stack_token(0):
        force(state, state.chance_outcomes()[0][0])
        drawn += 1
    assert drawn == markers
    state = new_game(players)
    assert sum(loc["validated"] for loc in obs(state)["locations"]) == markers


def test_markers_drawn_at_random_without_repeats() -> None:
    """Markers are picked at random and go on their corresponding Locations."""
    state = GAME.new_initial_state(3)
    outcomes = state.chance_outcomes()
    assert sorted(a for a, _ in outcomes) == sorted(marker(m) for m in MARKER_POOL)
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    force(state, marker(TAJ))
    assert marker(TAJ) not in dict(state.chance_outcomes())


def test_sixty_four_tokens_sixteen_per_vehicle_split_in_two_stacks() -> None:
    """"Shuffle the 64 Vehicle/Mission tokens and divide them equally (32 tokens) between
    the 2 Transport areas"; 16 tokens of each type."""
    state: State = GAME.new_initial_state(2)
    for m in MARKER_POOL:
        force(state, marker(m))
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {stack_token(v): pytest.approx(0.25) for v in range(4)}
    for _ in range(16):
        force(state, stack_token(TRAIN))
    assert stack_token(TRAIN) not in dict(state.chance_outcomes())
    state = new_game(2)
    stacks = obs(state)["stacks"]
    assert [s["count"] for s in stacks] == [32, 32]
    assert all(len(s["visible"]) == 32 for s in stacks)


def test_stack_types_visible_to_every_seat() -> None:
    """"Set the tokens, Vehicle side up, so that the type of each token is visible.\""""
    stacks = (["car"] + ["train"] * 16 + ["car"] * 15, ["boat"] * 16 + ["airship"] * 16)
    state = new_game(2, stacks=stacks)
    for seat in (0, 1):
        visible = obs(state, seat)["stacks"][0]["visible"]
        assert visible[:3] == ["car", "train", "train"]


def test_first_player_equally_likely() -> None:
    """"Randomly choose the First player.\""""
    state = GAME.new_initial_state(4)
    while state.chance_outcomes()[0][0] < first(0):
        force(state, state.chance_outcomes()[0][0])
    assert dict(state.chance_outcomes()) == {first(s): pytest.approx(0.25) for s in range(4)}


def test_each_player_starts_with_three_members_two_leaders_four_tokens() -> None:
    """"Take 3 of the 4 Expedition Members and both Expedition Leaders"; "1 token of each
    type"; "an Expedition Leader on the first slot of each track"."""
    state = new_game(3)
    for player in obs(state)["players"]:
        assert player["members_in_front"] == 3
        assert player["members_total"] == 3
        assert player["leaders"] == [1, 1]
        assert player["tokens"] == 4
        assert player["clues"] == 0
    assert obs(state)["clue_tiles_left"] == 13


def test_starting_flip_turns_the_chosen_token_mission_side_up() -> None:
    """"Flip one starting token of your choice, Mission side up."; its mission is a
    combination of Locations reachable with that vehicle."""
    state = GAME.new_initial_state(2)
    for m in MARKER_POOL:
        force(state, marker(m))
    for stack in DEFAULT_STACKS:
        for vehicle in stack:
            force(state, stack_token(VEHICLES.index(vehicle)))
    force(state, first(1))
    assert state.current_player() == 1  # the first player flips first
    assert state.legal_actions() == [flip(v) for v in range(4)]
    play(state, flip(AIRSHIP))
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {mission_drawn(m): pytest.approx(0.25) for m in (76, 77, 78, 79)}
    force(state, mission_drawn(77))
    player = me(state, 1)
    assert player["vehicles"] == {"train": 1, "car": 1, "boat": 1, "airship": 0}
    assert [m["id"] for m in player["missions"]] == [77]
    assert player["missions"][0]["vehicle"] == "airship"
    assert player["tokens"] == 4
    assert state.current_player() == 0
    play(state, flip(AIRSHIP))
    assert mission_drawn(77) not in dict(state.chance_outcomes())  # each mission is unique


# --- First turn -----------------------------------------------------------------------


def test_first_player_uses_only_one_member() -> None:
    """"The first player to play can only use only 1 Expedition Member\""""
    state = new_game(2)
    assert obs(state)["can_send"] == 1
    assert equip(0, 2) not in state.legal_actions()
    play(state, equip(0, 1))
    assert state.legal_actions() == [END_PHASE_1]


def test_second_player_uses_two_members() -> None:
    """"... the second player only 2 Expedition Members.\""""
    state = new_game(2)
    play(state, equip(0, 1), END_PHASE_1, END_TURN)
    assert state.current_player() == 1
    assert obs(state, 1)["can_send"] == 2
    legal = state.legal_actions()
    assert equip(0, 2) in legal and equip(0, 3) not in legal
    play(state, equip(0, 2))
    assert obs(state, 1)["can_send"] == 0
    assert not any(12 <= a <= 75 for a in state.legal_actions())


def test_third_and_fourth_players_use_three_members() -> None:
    """"The third and fourth players can use all 3 of their Expedition Members.\""""
    state = new_game(4, first_seat=2)
    expected = {2: 1, 3: 2, 0: 3, 1: 3}
    for _ in range(4):
        seat = state.current_player()
        assert obs(state, seat)["can_send"] == expected[seat]
        play(state, END_PHASE_1, END_TURN)
    assert state.current_player() == 2


def test_second_round_first_player_uses_all_members() -> None:
    """"Over the following rounds, all players can use all of their Expedition Members.\""""
    state = new_game(2)
    play(state, END_PHASE_1, END_TURN, END_PHASE_1, END_TURN)
    assert state.current_player() == 0
    assert obs(state)["can_send"] == 3
    assert equip(0, 3) in state.legal_actions()


# --- Equipment action -----------------------------------------------------------------


def test_k_members_take_the_kth_token() -> None:
    """"Move 1, 2, 3 or 4 of your Expedition Members ... to gain respectively the 1st, 2nd,
    3rd or 4th token of the stack.\""""
    stacks = (["car", "boat", "airship", "train"] + ["train"] * 7 + ["car"] * 7
              + ["boat"] * 7 + ["airship"] * 7, list(DEFAULT_STACKS[1]))
    state = new_game(2, stacks=stacks)
    play(state, END_PHASE_1, END_TURN, END_PHASE_1, END_TURN)
    before = me(state)["vehicles"]["airship"]
    play(state, equip(0, 3, 0))
    assert me(state)["vehicles"]["airship"] == before + 1
    assert obs(state)["stacks"][0]["count"] == 31
    assert obs(state)["stacks"][0]["visible"][:3] == ["car", "boat", "train"]
    assert obs(state)["equipment_areas"][0] == 3
    assert me(state)["members_in_front"] == 0


def test_token_taken_mission_side_up_reveals_a_mission_of_its_vehicle() -> None:
    """"Place that token in front of you, Vehicle side or Mission side up, without checking
    the Mission side beforehand.\""""
    state = new_game(2)
    play(state, equip(1, 1, 1))  # stack 1's first token: a train
    assert state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == {mission_drawn(m) for m in range(16)}  # the train missions
    force(state, mission_drawn(5))
    player = me(state)
    assert 5 in [m["id"] for m in player["missions"]]
    assert player["tokens"] == 5
    assert player["vehicles"]["train"] == 1


def test_token_taken_vehicle_side_up_is_a_vehicle() -> None:
    """A token placed Vehicle side up adds a vehicle; nothing is revealed."""
    state = new_game(2)
    play(state, equip(0, 1, 0))
    assert state.current_player() == 0
    assert me(state)["vehicles"]["train"] == 2
    assert me(state)["missions"] == [{"id": 72, "vehicle": "boat", "locations": [8, 9],
                                      "track": 0}]


def test_no_flip_action_exists_after_placing() -> None:
    """"A token, once set on one side, cannot be flipped on the other side.\""""
    state = new_game(2)
    play(state, equip(0, 1, 0), END_PHASE_1)
    assert not any(flip(0) <= a <= flip(3) for a in state.legal_actions())


def test_occupied_equipment_area_is_closed_for_the_turn() -> None:
    """"Once an Equipment area is occupied, you cannot place more Expedition Members
    there.\""""
    state = new_game(2)
    play(state, END_PHASE_1, END_TURN, END_PHASE_1, END_TURN)
    play(state, equip(0, 1))
    legal = state.legal_actions()
    assert not any(equip(0, 1) <= a <= equip(0, 4, 1) for a in legal)
    assert equip(1, 1) in legal and equip(1, 2) in legal
    with pytest.raises(ValueError):
        state.apply_action(equip(0, 1))


def test_at_most_two_tokens_a_turn() -> None:
    """"you can only get a maximum of two tokens per turn, one in each of the Equipment
    areas.\""""
    state = new_game(2)
    play(state, END_PHASE_1, END_TURN, END_PHASE_1, END_TURN)
    play(state, equip(0, 1), equip(1, 1))
    assert me(state)["members_in_front"] == 1
    assert not any(12 <= a <= 27 for a in state.legal_actions())


def test_equipment_members_come_back_at_end_of_turn() -> None:
    """"Finally, retrieve the Expedition Members on Equipment areas and place them in front
    of you.\""""
    state = new_game(2)
    play(state, END_PHASE_1, END_TURN, END_PHASE_1, END_TURN)
    play(state, equip(0, 2), equip(1, 1), END_PHASE_1, END_TURN)
    assert me(state)["members_in_front"] == 3
    assert obs(state)["equipment_areas"] == [0, 0]


def test_cannot_send_more_members_than_in_front() -> None:
    """Members sent come from those in front: three members cannot send four."""
    state = new_game(2)
    play(state, END_PHASE_1, END_TURN, END_PHASE_1, END_TURN)
    assert equip(0, 4) not in state.legal_actions()
    with pytest.raises(ValueError):
        state.apply_action(equip(0, 4))


def test_empty_stack_cannot_be_taken_from() -> None:
    """"When a stack is empty, you can no longer take a token from that stack.\""""
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 0, "visible": []}
        o["stacks"][1] = {"count": 2, "visible": ["boat", "car"]}
    state = mid_game(edit)
    legal = state.legal_actions()
    assert not any(equip(0, 1) <= a <= equip(0, 4, 1) for a in legal)
    assert equip(1, 2) in legal and equip(1, 3) not in legal  # no 3rd token


# --- Expedition action ----------------------------------------------------------------


def test_expedition_needs_every_vehicle_of_the_route() -> None:
    """"You can only do this if you have in front of you ALL the Vehicles (2 or 3) shown
    by the routes": African Mask needs car, car and boat."""
    state = mid_game(lambda o: set_player(o, 0, vehicles={"car": 1, "boat": 1, "train": 3}))
    assert not any(go(MASK, v) in state.legal_actions() for v in range(4))
    with pytest.raises(ValueError):
        state.apply_action(go(MASK, CAR))
    state = mid_game(lambda o: set_player(o, 0, vehicles={"car": 2, "boat": 1}))
    assert go(MASK, CAR) in state.legal_actions()
    assert go(MASK, BOAT) in state.legal_actions()
    assert go(MASK, TRAIN) not in state.legal_actions()  # not on the route


def test_expedition_discards_one_vehicle_of_the_route() -> None:
    """"From the Vehicle tokens you have just used, pick one and discard it\""""
    state = mid_game(lambda o: set_player(o, 0, vehicles={"car": 2, "boat": 1}))
    play(state, go(MASK, BOAT))
    player = me(state)
    assert player["vehicles"] == {"train": 0, "car": 2, "boat": 0, "airship": 0}
    assert player["members_on_locations"] == [MASK]
    assert player["members_in_front"] == 2
    assert obs(state)["discard"] == {"train": 0, "car": 0, "boat": 1, "airship": 0}
    assert obs(state)["locations"][MASK]["member"] == 0


def test_expedition_repeated_per_member() -> None:
    """"You can perform this action as many times as you have Expedition Members in front
    of you.\""""
    def edit(o: dict[str, Any]) -> None:
        set_player(o, 0, vehicles={"car": 6, "train": 6, "boat": 2})
        take_out_of_stacks(o, car=3, train=3)

    state = mid_game(edit)
    play(state, go(PETRA, CAR), go(CHURCH, TRAIN), go(MASK, CAR))
    assert me(state)["members_in_front"] == 0
    assert not any(go(0, 0) <= a <= go(11, 3) for a in state.legal_actions())


def test_never_onto_a_validated_location() -> None:
    """"Expedition Members can never be moved to a Location that has a Validated Location
    marker!\""""
    def edit(o: dict[str, Any]) -> None:
        set_player(o, 0, vehicles={"car": 4, "boat": 4, "train": 4, "airship": 4})
        take_out_of_stacks(o, car=1, boat=2, train=1, airship=1)

    state = mid_game(edit)
    legal = state.legal_actions()
    for location in MARKER_POOL:  # all four are validated with two players
        assert not any(go(location, v) in legal for v in range(4))
        with pytest.raises(ValueError):
            state.apply_action(go(location, CAR))


def test_unvalidated_marker_location_can_be_reached_with_four_players() -> None:
    """Only the drawn markers close a Location: with 4 players two stay open."""
    state = new_game(4, markers=(SPHINX, TAJ))
    assert obs(state)["locations"][CHICHEN]["validated"] is False

    def edit(o: dict[str, Any]) -> None:
        later_turn(o)
        set_player(o, 0, vehicles={"boat": 2, "car": 2})
        take_out_of_stacks(o, boat=2, car=1)
    state = rebuilt(state, edit)
    assert go(CHICHEN, BOAT) in state.legal_actions()
    assert go(SPHINX, CAR) not in state.legal_actions()


def test_displacing_another_players_member() -> None:
    """"If one of the other players' Expedition Member is already on this Location, take
    its place, give the player their Expedition Member back and your Vehicle token meant
    for discarding (Vehicle side up).\""""
    def edit(o: dict[str, Any]) -> None:
        set_player(o, 1, on=[PETRA], in_front=2, vehicles={"car": 1})
        set_player(o, 0, vehicles={"car": 1, "train": 1})
    state = mid_game(edit)
    play(state, go(PETRA, TRAIN))
    table = obs(state)
    assert table["locations"][PETRA]["member"] == 0
    assert table["players"][1]["members_in_front"] == 3
    assert table["players"][1]["members_on_locations"] == []
    assert table["players"][1]["vehicles"] == {"train": 1, "car": 1, "boat": 0, "airship": 0}
    assert table["players"][0]["vehicles"] == {"train": 0, "car": 1, "boat": 0, "airship": 0}
    assert table["discard"]["train"] == 0


def test_cannot_send_a_member_where_your_own_member_is() -> None:
    """Displacement speaks of "the other players'" members (RULINGS.md, ruling 12)."""
    state = mid_game(lambda o: set_player(o, 0, vehicles={"car": 2, "train": 2},
                                          on=[PETRA], in_front=2))
    assert go(PETRA, CAR) not in state.legal_actions()


def test_retrieve_members_only_when_phase_1_starts() -> None:
    """"When this phase starts, you can choose to retrieve some or all of your Expedition
    Members from Locations of the World Map.\""""
    state = mid_game(lambda o: set_player(o, 0, vehicles={"car": 2}, on=[PETRA, MASK],
                                          in_front=1))
    legal = state.legal_actions()
    assert retrieve(PETRA) in legal and retrieve(MASK) in legal
    play(state, retrieve(PETRA))
    assert me(state)["members_in_front"] == 2
    assert obs(state)["locations"][PETRA]["member"] is None
    play(state, equip(0, 1))
    assert retrieve(MASK) not in state.legal_actions()


# --- Phase 2: missions --------------------------------------------------------------------


def mission_position(
    mission: int, on: list[int], leaders: list[int], *, discard: dict[str, int] | None = None,
    clues: list[int] | None = None, in_front: int | None = None, total: int = 3,
    vehicles: dict[str, int] | None = None,
) -> State:
    """Seat 0 holding ``mission`` with members on ``on``, in phase 2."""
    def edit(o: dict[str, Any]) -> None:
        front = total - len(on) if in_front is None else in_front
        set_player(o, 0, missions=[mission], on=on, in_front=front, total=total,
                   leaders=leaders, clues=clues or [], vehicles=vehicles or {})
        if clues:
            o["clue_tiles_left"] = 13 - len(clues)
        if discard is not None:
            o["discard"] = {v: discard.get(v, 0) for v in VEHICLES}
    state = mid_game(edit)
    play(state, END_PHASE_1)
    return state


def test_mission_needs_a_member_on_each_location() -> None:
    """"You must have an Expedition Member on EACH of the Locations depicted by the
    Mission token\": mission 0 is Orthodox Church + Great Wall."""
    state = mission_position(0, [CHURCH], [1, 1], in_front=2)
    assert complete(0) not in state.legal_actions()
    with pytest.raises(ValueError):
        state.apply_action(complete(0))
    state = mission_position(0, [CHURCH, WALL], [1, 1])
    assert complete(0) in state.legal_actions()


def test_completed_mission_moves_leader_by_members_needed() -> None:
    """"move the Expedition Leader forward on the color track matching the Mission
    completed, by a number of slots equal to the number of Expedition Members needed\""""
    state = mission_position(0, [CHURCH, WALL], [1, 1])  # green, 2 locations
    play(state, complete(0), retrieve(WALL))
    assert me(state)["leaders"] == [3, 1]
    state = mission_position(11, [CHURCH, WALL, PETRA], [1, 1])  # orange, 3 locations
    play(state, complete(11), retrieve(PETRA))
    assert me(state)["leaders"] == [1, 4]


def test_validated_location_counts_by_itself_and_is_worth_one_fewer() -> None:
    """"Locations with a Validated Location marker ... are automatically validated";
    "Missions involving Locations with a Validated Place marker ... are worth one fewer
    point.\" Mission 5: Great Wall + Mount Fuji (validated), orange."""
    state = mission_position(5, [WALL], [1, 1])
    assert complete(5) in state.legal_actions()
    play(state, complete(5))
    assert me(state)["leaders"] == [1, 2]
    assert me(state)["members_on_locations"] == []  # the one member came back
    assert me(state)["members_in_front"] == 3


def test_one_member_retrieved_by_choice() -> None:
    """"Retrieve one of your Expedition Members on one of the Locations needed to complete
    the Mission ... You can choose which Expedition Member you retrieve.\""""
    state = mission_position(0, [CHURCH, WALL], [1, 1])
    play(state, complete(0))
    assert state.legal_actions() == [retrieve(CHURCH), retrieve(WALL)]
    play(state, retrieve(CHURCH))
    player = me(state)
    assert player["members_on_locations"] == [WALL]
    assert player["members_in_front"] == 2


def test_completed_mission_is_discarded() -> None:
    """"Discard the Mission token in the discard area next to the box.\""""
    state = mission_position(0, [CHURCH, WALL], [1, 1], vehicles={"car": 1})
    tokens = me(state)["tokens"]
    play(state, complete(0), retrieve(WALL))
    player = me(state)
    assert player["missions"] == []
    assert player["tokens"] == tokens - 1
    assert obs(state)["discard"]["train"] == 1  # mission 0 is a train token
    assert 0 in obs(state)["completed_missions"]


def test_catch_up_token_when_leader_not_ahead() -> None:
    """"If you move forward an Expedition Leader whose position was equal or lower to your
    other Expedition Leader's, take a token of your choice, Vehicle face up, from the
    discard area.\""""
    state = mission_position(0, [CHURCH, WALL], [2, 2], discard={"car": 1, "boat": 2})
    play(state, complete(0), retrieve(WALL))
    assert state.legal_actions() == [catch_up(CAR), catch_up(BOAT)]
    play(state, catch_up(BOAT))
    assert me(state)["vehicles"]["boat"] == 1
    assert obs(state)["discard"]["boat"] == 1 + 0  # 2 - 1 taken; mission went in as train
    assert obs(state)["discard"]["train"] == 1


def test_no_catch_up_token_when_leader_ahead() -> None:
    """A Leader ahead of the other brings no token."""
    state = mission_position(0, [CHURCH, WALL], [2, 1], discard={"car": 1, "boat": 2})
    play(state, complete(0), retrieve(WALL))
    assert me(state)["vehicles"] == {"train": 0, "car": 0, "boat": 0, "airship": 0}
    assert state.current_player() == 0
    assert catch_up(CAR) not in state.legal_actions()


def test_catch_up_from_the_lower_leader() -> None:
    """Lower than the other Leader: a token is due."""
    state = mission_position(11, [CHURCH, WALL, PETRA], [3, 1], discard={"airship": 1})
    play(state, complete(11), retrieve(PETRA))
    # one type in the discard area: no question (ruling 18)
    assert me(state)["vehicles"]["airship"] == 1
    assert obs(state)["discard"]["airship"] == 0


def test_magnifying_glass_gives_a_clue_tile() -> None:
    """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
    'Clue' tile.\" The first glass is on slot 5."""
    state = mission_position(0, [CHURCH, WALL], [3, 3])
    play(state, complete(0), retrieve(WALL))
    assert state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == {clue_tile(i) for i in range(13)}
    force(state, clue_tile(6))
    assert me(state)["clues"] == 1
    assert obs(state)["my_clues"] == [7]
    assert obs(state, 1)["my_clues"] == []
    assert obs(state)["clue_tiles_left"] == 12


def test_passing_over_a_glass_gives_a_clue_tile() -> None:
    """A Leader moving from 4 to 7 passes the glass on 5 (RULINGS.md, ruling 19)."""
    state = mission_position(11, [CHURCH, WALL, PETRA], [6, 4])
    play(state, complete(11), retrieve(PETRA))
    assert state.current_player() == CHANCE
    force(state, clue_tile(0))
    assert me(state)["leaders"] == [6, 7]
    assert me(state)["clues"] == 1


def test_no_clue_without_a_glass() -> None:
    """Slots 2 and 3 hold no magnifying glass."""
    state = mission_position(0, [CHURCH, WALL], [1, 1])
    play(state, complete(0), retrieve(WALL))
    assert state.current_player() == 0
    assert me(state)["clues"] == 0


def test_fourth_member_when_both_leaders_on_slot_four() -> None:
    """"BONUS: If both your Expedition Leaders reach the 4th slot of each track, you can
    take the 4th Expedition Member\""""
    state = mission_position(0, [CHURCH, WALL], [2, 4])
    play(state, complete(0), retrieve(WALL))
    player = me(state)
    assert player["leaders"] == [4, 4]
    assert player["members_total"] == 4
    assert player["members_in_front"] == 3  # 1 + the retrieved one + the 4th


def test_fourth_member_sends_four_to_an_equipment_area() -> None:
    """With 4 members in front, 4 go to an area for the 4th token."""
    state = mid_game(lambda o: set_player(o, 0, in_front=4, total=4, leaders=[4, 4]))
    assert equip(0, 4) in state.legal_actions()


def test_several_missions_in_one_turn() -> None:
    """"You can complete several missions in one turn. But do not forget to remove your
    Expedition Member from the World Map for every completed mission.\""""
    def edit(o: dict[str, Any]) -> None:
        set_player(o, 0, missions=[0, 2], on=[CHURCH, WALL, PETRA], in_front=0,
                   leaders=[1, 1])
    state = mid_game(edit)
    play(state, END_PHASE_1, complete(0), retrieve(WALL))
    assert complete(2) in state.legal_actions()  # Orthodox Church + Petra
    play(state, complete(2))
    assert state.legal_actions() == [retrieve(CHURCH), retrieve(PETRA)]
    play(state, retrieve(PETRA))
    player = me(state)
    assert player["leaders"] == [5, 1] or state.current_player() == CHANCE
    assert player["members_on_locations"] == [CHURCH]


def test_turn_passes_clockwise() -> None:
    """"Each turn is played clockwise, one player at a time\": seat order upwards."""
    state = new_game(3, first_seat=1)
    order = []
    for _ in range(4):
        order.append(state.current_player())
        play(state, END_PHASE_1, END_TURN)
    assert order == [1, 2, 0, 1]


# --- End of the game ------------------------------------------------------------------


def test_four_clues_win_at_once() -> None:
    """"You have gathered the 4 clues? Well done! ... win the game.\""""
    state = mission_position(0, [CHURCH, WALL], [3, 8], clues=[1, 2, 3])
    play(state, complete(0), retrieve(WALL))
    force(state, clue_tile(12))  # tile 13
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.ranking() == [0, 1]
    assert state.scores() == [4, 0]
    end = obs(state)["end"]
    assert end["by"] == "clues" and end["winner"] == 0
    assert end["clue_sum"] == 1 + 2 + 3 + 13


def test_game_goes_on_with_one_stack_empty() -> None:
    """The end comes when "both token piles are empty\"."""
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 0, "visible": []}
        o["stacks"][1] = {"count": 2, "visible": ["boat", "car"]}
    state = mid_game(edit)
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert not state.is_terminal()
    assert state.current_player() == 1


def empty_stacks_position(leaders0: list[int], leaders1: list[int],
                          vehicles0: dict[str, int], vehicles1: dict[str, int]) -> State:
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 0, "visible": []}
        o["stacks"][1] = {"count": 1, "visible": ["boat"]}
        set_player(o, 0, leaders=leaders0, vehicles=vehicles0, missions=[])
        set_player(o, 1, leaders=leaders1, vehicles=vehicles1, missions=[])
    return mid_game(edit)


def test_empty_stacks_end_the_game_after_the_turn() -> None:
    """"When the 2 stacks are empty, the end of the game is triggered.\""""
    state = empty_stacks_position([3, 6], [5, 4], {"car": 1}, {"car": 1})
    play(state, equip(1, 1))
    assert not state.is_terminal()
    play(state, END_PHASE_1, END_TURN)
    assert state.is_terminal()
    assert obs(state)["end"]["by"] == "stacks"


def test_empty_stacks_rearmost_leader_decides() -> None:
    """"each player's least-advanced Expedition Leader is used to establish the winner\":
    seat 1's rearmost Leader (4) beats seat 0's (3) though seat 0's best is further."""
    state = empty_stacks_position([3, 9], [5, 4], {}, {"car": 5})
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert state.ranking() == [1, 0]


def test_empty_stacks_tie_broken_by_fewer_tokens() -> None:
    """"If tied, you win if you have fewer tokens in front of you than the other players
    have.\" Seat 0 takes the last token: 3 tokens against 2."""
    state = empty_stacks_position([4, 6], [6, 4], {"car": 2}, {"car": 2})
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert me(state, 0)["tokens"] == 3 and me(state, 1)["tokens"] == 2
    assert state.ranking() == [1, 0]


def test_empty_stacks_tie_on_both_keys_is_shared() -> None:
    """"You win the game if that second Expedition Leader is more advanced than that of your
    opponents. If tied, you win if you have fewer tokens in front of you than the other
    players have." The rulebook stops there: level on both, the two seats share first
    place, though seat 1's other Leader is further on."""
    state = empty_stacks_position([4, 5], [4, 9], {"car": 1}, {"car": 2})
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert me(state, 0)["tokens"] == me(state, 1)["tokens"] == 2
    assert state.ranking() == [0, 0]


def test_illegal_action_is_refused() -> None:
    """An action outside the legal ones raises ValueError (the Game contract)."""
    state = new_game(2)
    with pytest.raises(ValueError):
        state.apply_action(END_TURN)  # phase 1 must be ended first
    with pytest.raises(ValueError):
        state.apply_action(complete(72))


# --- Players and options --------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four_refused(players: int) -> None:
    """The game is for 2, 3 or 4 players."""
    with pytest.raises(InvalidOptions):
        GAME.new_initial_state(players)


def test_unknown_option_refused() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_initial_state(2, {"advanced": True})


def test_components_option_missing_file_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_initial_state(2, {"components": str(tmp_path / "none.toml")})


def test_components_option_replaces_tracks(tmp_path: Path) -> None:
    """README: "put the printed values in a copy of the file and pass options =
    { components = "/path/to/it.toml" }\"."""
    shipped = Path(__file__).parents[2] / "engines" / "lost_explorers" / "components.toml"
    text = shipped.read_text(encoding="utf-8").replace(
        'name = "green"\nlength = 15\nglasses = [5, 8, 12, 15]',
        'name = "green"\nlength = 10\nglasses = [5, 7, 9, 10]')
    custom = tmp_path / "mine.toml"
    custom.write_text(text, encoding="utf-8")
    state = GAME.new_initial_state(2, {"components": str(custom)})
    while state.current_player() == CHANCE:
        force(state, state.chance_outcomes()[0][0])
    tracks = obs(state, state.current_player())["tracks"]
    assert tracks[0] == {"name": "green", "length": 10, "glasses": [5, 7, 9, 10]}


def test_observation_rebuilt_gives_same_observation() -> None:
    """``state_from_observation`` gives the seat its observation back."""
    state = new_game(3)
    play(state, equip(0, 1, 0), END_PHASE_1, END_TURN)
    seat = state.current_player()
    twin = GAME.state_from_observation(state.observation(seat), random.Random(3))
    assert twin.observation(seat) == state.observation(seat)
    assert twin.legal_actions() == state.legal_actions()


# --- More scenarios -------------------------------------------------------------------


def test_first_round_limit_counts_members_sent_to_locations() -> None:
    """The first player's single member may go to a Location instead, and then no other
    member may go anywhere (RULINGS.md, ruling 9)."""
    flips = ((TRAIN, 64), (TRAIN, 65))
    state = new_game(2, flips=flips)  # boat + airship left: Moai is in reach
    play(state, go(MOAI, BOAT))
    assert state.legal_actions() == [END_PHASE_1]


def test_other_players_member_does_not_count_for_your_mission() -> None:
    """"You must have an Expedition Member on EACH of the Locations": your own members."""
    def edit(o: dict[str, Any]) -> None:
        set_player(o, 0, missions=[0], on=[CHURCH], in_front=2)
        set_player(o, 1, on=[WALL], in_front=2)
    state = mid_game(edit)
    play(state, END_PHASE_1)
    assert complete(0) not in state.legal_actions()


def test_missions_are_completed_in_phase_2_only() -> None:
    """Missions are completed in Phase 2, after the members were sent."""
    state = mid_game(lambda o: set_player(o, 0, missions=[0], on=[CHURCH, WALL], in_front=1))
    assert complete(0) not in state.legal_actions()
    with pytest.raises(ValueError):
        state.apply_action(complete(0))


def test_retrieved_member_can_be_sent_again() -> None:
    """"Any such retrieved Expedition Member is put in front of you" and may be used."""
    state = mid_game(lambda o: set_player(o, 0, on=[PETRA], in_front=2))
    play(state, retrieve(PETRA))
    assert equip(0, 3) in state.legal_actions()


def test_no_catch_up_token_from_an_empty_discard_area() -> None:
    """The token comes "from the discard area": the mission being completed is not yet
    there (RULINGS.md, ruling 18)."""
    state = mission_position(0, [CHURCH, WALL], [1, 1], discard={})
    play(state, complete(0), retrieve(WALL))
    assert state.current_player() == 0
    assert me(state)["vehicles"]["train"] == 0
    assert obs(state)["discard"]["train"] == 1


def test_fourth_member_arrives_only_once() -> None:
    """The 4th member is set aside once: a later mission with both Leaders past slot 4
    brings no 5th."""
    state = mission_position(0, [CHURCH, WALL], [5, 6], total=4)
    play(state, complete(0), retrieve(WALL))
    assert me(state)["members_total"] == 4


def test_leader_stops_on_the_last_slot_and_takes_its_clue() -> None:
    """A Leader cannot leave the track; the glass on its last slot (15) gives a clue."""
    state = mission_position(11, [CHURCH, WALL, PETRA], [3, 14])
    play(state, complete(11), retrieve(PETRA))
    force(state, clue_tile(3))
    assert me(state)["leaders"] == [3, 15]
    assert me(state)["clues"] == 1


def test_clue_drawn_from_the_tiles_left() -> None:
    """A clue tile already taken cannot be drawn again."""
    state = mission_position(0, [CHURCH, WALL], [3, 3], clues=[4, 9])
    play(state, complete(0), retrieve(WALL))
    outcomes = dict(state.chance_outcomes())
    assert clue_tile(3) not in outcomes and clue_tile(8) not in outcomes
    assert len(outcomes) == 11


def test_last_token_taker_can_still_win_by_clues() -> None:
    """Empty stacks trigger the end, but the turn is played out: a 4th clue in phase 2
    wins by clues."""
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 0, "visible": []}
        o["stacks"][1] = {"count": 1, "visible": ["boat"]}
        set_player(o, 0, missions=[0], on=[CHURCH, WALL], in_front=1, leaders=[3, 8],
                   clues=[1, 2, 3])
        o["clue_tiles_left"] = 10
    state = mid_game(edit)
    play(state, equip(1, 1), END_PHASE_1, complete(0), retrieve(WALL))
    force(state, clue_tile(5))
    assert state.is_terminal()
    assert obs(state)["end"]["by"] == "clues"
    assert state.ranking() == [0, 1]


def test_no_turn_after_the_stacks_empty() -> None:
    """"until one of the players has gathered 4 clues or both token piles are empty":
    the next player gets no turn."""
    state = empty_stacks_position([2, 2], [2, 2], {}, {})
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []


def test_empty_stacks_three_players_ranking() -> None:
    """Rearmost Leader first, then fewer tokens, for every seat."""
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 0, "visible": []}
        o["stacks"][1] = {"count": 1, "visible": ["boat"]}
        set_player(o, 0, leaders=[3, 3], vehicles={}, missions=[])   # 1 token after taking
        set_player(o, 1, leaders=[4, 7], vehicles={"car": 3}, missions=[])
        set_player(o, 2, leaders=[9, 4], vehicles={"car": 1}, missions=[])
    state = mid_game(edit, players=3)
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert state.is_terminal()
    assert state.ranking() == [2, 1, 0]


def test_four_clues_end_even_with_more_missions_to_complete() -> None:
    """The winner is known at once: nothing more is played."""
    def edit(o: dict[str, Any]) -> None:
        set_player(o, 0, missions=[0, 2], on=[CHURCH, WALL, PETRA], in_front=0,
                   leaders=[3, 8], clues=[1, 2, 3])
        o["clue_tiles_left"] = 10
    state = mid_game(edit)
    play(state, END_PHASE_1, complete(0), retrieve(WALL))
    force(state, clue_tile(4))
    assert state.is_terminal()
    assert state.scores()[0] == 4


def test_scores_are_clues_held() -> None:
    """README: "scores() are the clues held\"."""
    def edit(o: dict[str, Any]) -> None:
        set_player(o, 0, clues=[2, 5])
        o["players"][1]["clues"] = 1
        o["clue_tiles_left"] = 10
    state = mid_game(edit)
    assert state.scores() == [2, 1]


def test_mission_drawn_is_not_one_already_revealed() -> None:
    """"Each Mission token offers a unique combination of Locations": a revealed mission
    is not drawn again."""
    state = new_game(2)
    play(state, equip(0, 1, 1))
    force(state, mission_drawn(3))
    play(state, END_PHASE_1, END_TURN, equip(0, 1, 1))
    assert mission_drawn(3) not in dict(state.chance_outcomes())
    assert len(state.chance_outcomes()) == 15


# --- Setting up a position by editing an observation (README, "Setting up a position") --


def _bad_members(o: dict[str, Any]) -> None:
    o["locations"][PETRA]["member"] = 0  # still 3 in front: 4 members of 3


def _member_on_validated(o: dict[str, Any]) -> None:
    o["locations"][SPHINX]["member"] = 1
    o["players"][1]["members_in_front"] = 2


def _mission_twice(o: dict[str, Any]) -> None:
    set_player(o, 1, missions=[72])  # seat 0 holds 72 already


def _clues_unmatched(o: dict[str, Any]) -> None:
    o["players"][0]["clues"] = 2  # my_clues left empty


def _clue_tiles_left(o: dict[str, Any]) -> None:
    set_player(o, 0, clues=[3])  # clue_tiles_left still 13


def _leader_off_track(o: dict[str, Any]) -> None:
    o["players"][1]["leaders"] = [16, 1]


def _markers(o: dict[str, Any]) -> None:
    o["locations"][TAJ]["validated"] = False  # 2 players: all four markers are out


def _negative_vehicles(o: dict[str, Any]) -> None:
    o["players"][0]["vehicles"]["car"] = -1


def _completing(o: dict[str, Any]) -> None:
    o["completing"] = {"id": 72, "vehicle": "boat", "track": 0}  # in phase 1


@pytest.mark.parametrize(("edit", "words"), [
    (_bad_members, "members_total"), (_member_on_validated, "validated"),
    (_mission_twice, "twice"), (_clues_unmatched, "my_clues"),
    (_clue_tiles_left, "clue_tiles_left"), (_leader_off_track, "slot 16"),
    (_markers, "validated"), (_negative_vehicles, "negative"), (_completing, "completing"),
])
def test_contradictory_position_refused(edit: Callable[[dict[str, Any]], None],
                                        words: str) -> None:
    """An edited observation that no table can show is refused, naming the field, instead
    of giving a state whose play makes no sense."""
    state = new_game(2)
    with pytest.raises(ValueError, match=words):
        rebuilt(state, edit)


def test_derived_fields_are_not_read() -> None:
    """``tokens`` and ``can_send`` follow from the rest: editing them changes nothing."""
    state = new_game(2)

    def edit(o: dict[str, Any]) -> None:
        o["players"][0]["tokens"] = 9
        o["can_send"] = 3
    twin = rebuilt(state, edit)
    assert twin.observation(0) == state.observation(0)


def test_readme_position_example_runs() -> None:
    """The README's example of setting up a position gives the position it says."""
    readme = Path(__file__).parents[2] / "engines" / "lost_explorers" / "README.md"
    text = readme.read_text(encoding="utf-8").split("## Setting up a position", 1)[1]
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {"LostExplorersGame": LostExplorersGame, "random": random}
    exec(code.replace("state = ...", "state = start"), {**namespace, "start": new_game(2)},
         namespace)
    position: State = namespace["position"]
    assert obs(position)["locations"][PETRA]["member"] == 1
    assert go(MASK, CAR) in position.legal_actions()
    assert obs(position)["can_send"] == 3
