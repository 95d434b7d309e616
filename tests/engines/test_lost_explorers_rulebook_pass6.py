"""Lost Explorers: a sixth rulebook pass, sentence by sentence.

Written from the rulebook (``rules/lost-explorers.txt``), the README and RULINGS.md only,
through the public interface (the README's action ids, positions set up by editing an
observation and rebuilding it with ``state_from_observation``; the helpers of
``test_lost_explorers_blackbox.py``). Each test quotes the sentence it checks. The pass found
two things a literal reader would not accept: a trail followed alone could never give the 4
clues (each shipped track had 3 magnifying glasses), and a set-up position could put more
tokens of a vehicle on the table than the box holds. Both are fixed, and so are set-ups of
the wrong shape (three Leaders, Equipment areas or stacks, a starting flip in mid-game), once
taken as given or refused with Python's own error; the sentences whose tests reached them only
on the way to another rule get a direct test here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_lost_explorers_blackbox import (
    CAR,
    CHURCH,
    END_PHASE_1,
    END_TURN,
    GAME,
    PETRA,
    TRAIN,
    WALL,
    clue_tile,
    complete,
    equip,
    force,
    go,
    me,
    mid_game,
    new_game,
    obs,
    play,
    rebuilt,
    retrieve,
    set_player,
    take_out_of_stacks,
)

from arena.game import TERMINAL, InvalidOptions

# Shipped missions (box.missions): 0 train Orthodox Church + Great Wall (green),
# 2 train Orthodox Church + Petra (green), 7 train Great Wall + Petra (orange).
CHURCH_WALL, CHURCH_PETRA, WALL_PETRA = 0, 2, 7
BOX_PER_VEHICLE = 20  # "64 Vehicle/Mission tokens" and "16 ... starting tokens", 16 + 4 a kind
GAME_FILE = Path(__file__).parents[2] / "engines" / "lost_explorers" / "components.toml"


def on_table(observation: dict[str, Any], name: str) -> int:
    """Tokens of vehicle ``name`` on the table: stacks, in front (either side), discard."""
    box = observation["box"]["missions"]
    return (sum(stack["visible"].count(name) for stack in observation["stacks"])
            + sum(p["vehicles"].get(name, 0) for p in observation["players"])
            + sum(box[m["id"]]["vehicle"] == name
                  for p in observation["players"] for m in p["missions"])
            + observation["discard"].get(name, 0))


# --- "follow only one trail" -------------------------------------------------------------------


@pytest.mark.parametrize("track", [0, 1])
def test_one_trail_followed_alone_gives_the_four_clues(track: int) -> None:
    """"Represented by magnifying glasses, the clues are found by following the footsteps of
    the two explorers. You have a choice: follow only one trail or both at the same time." and
    "You have gathered the 4 clues? Well done! ... win the game." A player who follows one
    trail only (the other Leader never leaves slot 1) gathers the 4 clues on it: its track
    holds 4 magnifying glasses at least. Seat 0's Leader on that track stands one slot short
    of its 4th glass with the 3 clues of the glasses passed; a two-location mission of that
    track takes it there and wins."""
    glasses = obs(new_game(2))["tracks"][track]["glasses"]
    assert len(glasses) >= 4, f"track {track}: {glasses} cannot give 4 clues on its own"
    mission = (CHURCH_WALL, WALL_PETRA)[track]  # green, then orange
    places = [CHURCH, WALL] if track == 0 else [WALL, PETRA]
    leaders = [1, 1]
    leaders[track] = glasses[3] - 2

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[mission], on=places, in_front=1,
                   leaders=leaders, clues=[1, 2, 3])
        observation["clue_tiles_left"] = 10

    state = mid_game(edit)
    play(state, END_PHASE_1, complete(mission), retrieve(places[0]))
    force(state, clue_tile(3))  # the glass on the 4th
    end = obs(state)["end"]
    assert state.current_player() == TERMINAL and end["by"] == "clues" and end["winner"] == 0
    assert me(state)["leaders"][1 - track] == 1  # the other trail never followed
    assert state.scores()[0] == 4


def test_a_component_file_with_three_glasses_on_a_track_is_refused(tmp_path: Any) -> None:
    """The same sentence, for a user's component file (README, "Options"): a track with fewer
    than 4 magnifying glasses leaves a player who follows only that trail no way to the 4
    clues, so the file is refused with a message naming the track."""
    shipped = GAME_FILE.read_text(encoding="utf-8")
    three = shipped.replace("glasses = [5, 8, 12, 15]", "glasses = [5, 8, 12]", 1)
    assert three != shipped
    path = tmp_path / "three.toml"
    path.write_text(three, encoding="utf-8")
    with pytest.raises(InvalidOptions, match=r"track #1 \(green\).*at least 4 magnifying glasses"):
        GAME.new_initial_state(2, {"components": str(path)})


# --- set-ups and the box ------------------------------------------------------------------------


def test_more_tokens_of_a_vehicle_than_the_box_holds_are_refused() -> None:
    """"64 Vehicle/Mission tokens" and "16 Vehicle/Mission starting tokens" (16 and 4 of each
    vehicle, RULINGS.md ruling 1). Four players, the stacks still holding their 16 cars, each
    seat a starting car: handing seat 0 three more cars asks for 23 car tokens, and the
    position is refused with a message that says how many, where, and what the box holds."""
    state = new_game(4)

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 1, "car": 4, "airship": 1})

    with pytest.raises(ValueError, match=r"23 car tokens on the table \(16 in the stacks, 7 "
                                         r"in front .*the box holds 20"):
        rebuilt(state, edit)


def test_the_same_vehicles_with_tokens_taken_out_of_the_stacks_are_accepted() -> None:
    """The position above is one a tester needs (a player with cars for a route): with three of
    the cars taken out of the stacks it is within the box, rebuilt, and played on."""
    state = new_game(4)

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 1, "car": 4, "airship": 1})
        take_out_of_stacks(observation, car=3)

    position = rebuilt(state, edit)
    assert on_table(obs(position), "car") == BOX_PER_VEHICLE
    assert me(position)["vehicles"]["car"] == 4


def test_players_can_hold_every_token_of_the_box() -> None:
    """"Players can have as many tokens as they want." The box is the only limit: seat 0 holds
    every car (16 from the stacks and both starting cars, 18 with two players) and still takes
    two more tokens in a turn."""

    def edit(observation: dict[str, Any]) -> None:
        take_out_of_stacks(observation, car=16)
        set_player(observation, 1, vehicles={"train": 1, "airship": 1})
        set_player(observation, 0, vehicles={"train": 1, "car": 18, "airship": 1})

    state = mid_game(edit)
    assert on_table(obs(state), "car") == 18
    play(state, equip(0, 1), equip(1, 1))
    assert me(state)["tokens"] == 1 + 18 + 1 + 1 + 2  # the starting boat mission and two more


def test_a_stack_with_an_unknown_vehicle_is_refused_by_name() -> None:
    """README, "Setting up a position": "vehicle names only train, car, boat, airship" and "An
    edit that no table can show is refused with a ValueError naming the field". A stack token
    called "plane" is named in the message (it used to fail with Python's own
    ``tuple.index(x): x not in tuple``)."""

    def edit(observation: dict[str, Any]) -> None:
        observation["stacks"][1]["visible"][0] = "plane"

    with pytest.raises(ValueError, match=r"stacks\[1\]\.visible: unknown vehicles \['plane'\]"):
        rebuilt(new_game(2), edit)


def test_a_stack_of_more_than_thirty_two_tokens_is_refused() -> None:
    """"Shuffle the 64 Vehicle/Mission tokens and divide them equally (32 tokens) between the
    2 Transport areas." A Transport area holds 32 tokens at most: a stack of 33 (one token
    moved over from the other) is refused by name."""

    def edit(observation: dict[str, Any]) -> None:
        moved = observation["stacks"][1]["visible"].pop()
        observation["stacks"][1]["count"] -= 1
        observation["stacks"][0]["visible"].append(moved)
        observation["stacks"][0]["count"] += 1

    with pytest.raises(ValueError, match=r"stacks\[0\]\.count 33"):
        rebuilt(new_game(2), edit)


# --- sentences without a direct test before -------------------------------------------------


def test_a_retrieved_member_is_put_in_front_and_serves_an_equipment_action() -> None:
    """"When this phase starts, you can choose to retrieve some or all of your Expedition
    Members from Locations of the World Map. Any such retrieved Expedition Member is put in
    front of you." and "Move 1, 2, 3 or 4 of your Expedition Members in front of you to an
    empty "Equipment" area". Seat 0's three members stand on the map; retrieved, two of them
    go together to an Equipment area for the 2nd token."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, on=[CHURCH, PETRA, WALL], in_front=0)

    state = mid_game(edit)
    assert not any(12 <= a <= 27 for a in state.legal_actions())  # no member in front
    second = obs(state)["stacks"][0]["visible"][1]
    play(state, retrieve(CHURCH), retrieve(PETRA))
    assert me(state)["members_in_front"] == 2
    assert me(state)["members_on_locations"] == [WALL]
    play(state, equip(0, 2))
    assert me(state)["vehicles"][second] == 1 and me(state)["members_in_front"] == 0


def test_the_vehicle_given_back_is_vehicle_side_up_and_serves_its_new_owner() -> None:
    """"If one of the other players' Expedition Member is already on this Location, take its
    place, give the player their Expedition Member back and your Vehicle token meant for
    discarding (Vehicle side up)." Seat 0 takes Petra from seat 1 and gives it the train: the
    train is among seat 1's vehicles (not a mission), nothing reaches the discard area, and in
    its turn seat 1 goes back to Petra with it."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 1, "car": 1})
        set_player(observation, 1, vehicles={"car": 1}, missions=[], on=[PETRA], in_front=2)

    state = mid_game(edit)
    play(state, go(PETRA, TRAIN))
    seat1 = obs(state)["players"][1]
    assert seat1["vehicles"] == {"train": 1, "car": 1, "boat": 0, "airship": 0}
    assert seat1["missions"] == [] and seat1["members_in_front"] == 3
    assert sum(obs(state)["discard"].values()) == 0
    play(state, END_PHASE_1, END_TURN)
    play(state, go(PETRA, CAR))  # seat 1, with the train it was given and its car
    assert obs(state)["locations"][PETRA]["member"] == 1


def _seat0(**fields: Any) -> Any:
    return lambda o: o["players"][0].update(**fields)


FRAME: dict[str, tuple[Any, str]] = {
    # "2 Expedition Leaders per player", "2 Equipment areas", "2 Transport areas"
    "three Leaders": (_seat0(leaders=[1, 1, 1]), r"seat 0: leaders \[1, 1, 1\]: two Leaders"),
    "three Equipment areas": (lambda o: o.update(equipment_areas=[0, 0, 0]),
                              "equipment_areas holds 3 entries"),
    "three stacks": (lambda o: o["stacks"].append({"count": 0, "visible": []}),
                     "stacks holds 3 entries"),
    # members are retrieved "When this phase starts", before any is sent
    "nine members sent": (lambda o: o.update(sent_this_turn=9),
                          "sent_this_turn 9 is more than the 3 members"),
    # "Flip one starting token of your choice" is part of the set up
    "a flip after the first round": (lambda o: o.update(phase="flip-starting-token"),
                                     "turn 6 in phase 'flip-starting-token'"),
    "a Leader's slot as a string": (_seat0(leaders=["1", 1]),
                                    r"seat 0: leaders\[0\] is '1', not a whole number"),
    "a mission id as a string": (_seat0(missions=[{"id": "72"}]),
                                 "seat 0: missions id is '72', not a whole number"),
    "a member of seat 'x'": (lambda o: o["locations"][PETRA].update(member="x"),
                             "location 10: member is 'x', not a whole number"),
    "a vehicle count as a string": (_seat0(vehicles={"car": "2"}),
                                    "each count a whole number, none negative"),
}


@pytest.mark.parametrize("case", sorted(FRAME))
def test_a_set_up_of_the_wrong_shape_is_refused_naming_the_field(case: str) -> None:
    """README, "Setting up a position": "An edit that no table can show is refused with a
    ValueError naming the field". Each of these was rebuilt into a state (three Equipment
    areas or stacks, nine members sent in one turn, a starting flip in the middle of the game)
    or failed with Python's own IndexError or TypeError, which named nothing; a vehicle count
    given as a string was called "a negative count"."""
    edit, words = FRAME[case]

    def later(observation: dict[str, Any]) -> None:
        observation["turn"], observation["sent_this_turn"] = 6, 0
        edit(observation)

    with pytest.raises(ValueError, match=words):
        rebuilt(new_game(3), later)
