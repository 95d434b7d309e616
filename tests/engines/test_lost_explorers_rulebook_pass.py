"""Lost Explorers: a second rulebook pass, written from the rulebook and the README only.

Each test quotes the sentence of ``rules/lost-explorers.txt`` it checks and sets its
position up the two ways ``engines/lost_explorers/README.md`` documents ("Setting up a
position"): the chance outcomes named one by one from ``new_initial_state``, or a seat's
observation edited and rebuilt with ``LostExplorersGame().state_from_observation``. Ids are
the README's table; nothing here reads the engine's internals.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from test_lost_explorers_blackbox import (  # action ids, as the README's table gives them
    complete,
    equip,
    flip,
    force,
    go,
    retrieve,
)

from arena.game import CHANCE, TERMINAL, State
from engines.lost_explorers.game import LostExplorersGame

GAME = LostExplorersGame()
VEHICLES = ("train", "car", "boat", "airship")
TRAIN, CAR, BOAT, AIRSHIP = range(4)
MASK, CHICHEN, SPHINX, CHURCH, TOTEM, MACHU, WALL, TAJ, MOAI, ANGKOR, PETRA, FUJI = range(12)
MARKERS = (SPHINX, CHICHEN, TAJ, FUJI)  # the shipped file's marker locations
END_PHASE_1, END_TURN = 76, 157
GREEN, ORANGE = 0, 1
# Shipped missions used below (box.missions): 0 train Orthodox Church + Great Wall (green),
# 11 train Orthodox Church + Great Wall + Petra (orange), 20 car African Mask + Petra (green).


def play(state: State, *decisions: int) -> None:
    for action in decisions:
        assert state.current_player() >= 0
        assert action in state.legal_actions(), state.action_to_string(action)
        state.apply_action(action)


STACK = ["train", "car", "boat", "airship"] * 8  # each stack: 8 of each, in this order


def new_game(players: int, first_seat: int = 0) -> State:
    """Setup's chance outcomes named in the README's order; every player flips its boat."""
    state = GAME.new_initial_state(players)
    for location in MARKERS[:{2: 4, 3: 3, 4: 2}[players]]:
        force(state, 166 + location)
    for vehicle in STACK + STACK:
        force(state, 178 + VEHICLES.index(vehicle))
    force(state, 182 + first_seat)
    boat_starts = [m for m, entry in enumerate(state.observation(0)["box"]["missions"])
                   if m >= 64 and entry["vehicle"] == "boat"]
    for turn in range(players):
        play(state, flip(BOAT))
        force(state, 186 + boat_starts[turn])
    return state


def position(edit: Callable[[dict[str, Any]], None], players: int = 2, first_seat: int = 0,
             later: bool = True) -> State:
    """The first player's observation in phase 1, edited, rebuilt."""
    observation = new_game(players, first_seat).observation(first_seat)
    if later:
        observation["turn"] = 2 * players
    edit(observation)
    return GAME.state_from_observation(observation, random.Random(0))


def seat_edit(observation: dict[str, Any], seat: int, *, vehicles: dict[str, int] | None = None,
              missions: list[int] | None = None, on: list[int] | None = None,
              front: int | None = None, total: int | None = None,
              leaders: list[int] | None = None, clues: list[int] | None = None) -> None:
    player = observation["players"][seat]
    if vehicles is not None:
        player["vehicles"] = {v: vehicles.get(v, 0) for v in VEHICLES}
    if missions is not None:
        player["missions"] = [{"id": m} for m in missions]  # the details are not read
    if on is not None:
        for location in observation["locations"]:
            if location["member"] == seat:
                location["member"] = None
        for location in on:
            observation["locations"][location]["member"] = seat
    if total is not None:
        player["members_total"] = total
    if front is not None:
        player["members_in_front"] = front
    elif on is not None:
        player["members_in_front"] = player["members_total"] - len(on)
    if leaders is not None:
        player["leaders"] = leaders
    if clues is not None:
        player["clues"] = len(clues)
        if seat == observation["seat"]:
            observation["my_clues"] = clues
        observation["clue_tiles_left"] = 13 - sum(p["clues"] for p in observation["players"])


def me(state: State, seat: int = 0) -> dict[str, Any]:
    player: dict[str, Any] = state.observation(seat)["players"][seat]
    return player


# --- First turn ----------------------------------------------------------------------------


def test_first_round_limits_with_four_players_go_round_from_the_first_player() -> None:
    """"The first player to play can only use only 1 Expedition Member, the second player
    only 2 Expedition Members. The third and fourth players can use all 3 of their Expedition
    Members. Over the following rounds, all players can use all of their Expedition
    Members." Seat 2 goes first: seats 2, 3, 0, 1 may send 1, 2, 3, 3, then seat 2 sends 3."""
    state = new_game(4, first_seat=2)
    for seat, limit in ((2, 1), (3, 2), (0, 3), (1, 3), (2, 3)):
        assert state.current_player() == seat
        assert state.observation(seat)["can_send"] == limit
        deepest = max(k for k in range(1, 5) if equip(0, k) in state.legal_actions())
        assert deepest == limit
        play(state, END_PHASE_1, END_TURN)


def test_first_player_sends_its_one_member_and_nothing_more() -> None:
    """"The first player to play can only use only 1 Expedition Member": after one member
    goes to an Equipment area, no other Equipment or Expedition action is offered."""
    state = new_game(2)
    play(state, equip(0, 1))
    assert state.legal_actions() == [END_PHASE_1]
    assert state.observation(0)["can_send"] == 0


# --- Phase 1: Equipment action ---------------------------------------------------------------


def test_taking_the_kth_token_brings_the_tokens_below_it_up() -> None:
    """"Move 1, 2, 3 or 4 of your Expedition Members ... to gain respectively the 1st, 2nd,
    3rd or 4th token of the stack." The 3rd token (a boat) goes; the 4th becomes the 3rd."""
    state = position(lambda o: None)
    assert state.observation(0)["stacks"][0]["visible"][:5] == [
        "train", "car", "boat", "airship", "train"]
    play(state, equip(0, 3))
    view = state.observation(1)
    assert view["stacks"][0]["count"] == 31
    assert view["stacks"][0]["visible"][:4] == ["train", "car", "airship", "train"]
    assert view["players"][0]["vehicles"]["boat"] == 1 + 0  # starting boat flipped at setup
    assert view["equipment_areas"] == [3, 0]


def test_a_stack_of_two_tokens_offers_only_its_first_and_second() -> None:
    """"When a stack is empty, you can no longer take a token from that stack": a stack
    holding two tokens has no 3rd or 4th to take."""
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 2, "visible": ["car", "boat"]}
    state = position(edit)
    legal = state.legal_actions()
    assert {equip(0, 1), equip(0, 2), equip(0, 1, 1), equip(0, 2, 1)} <= set(legal)
    assert equip(0, 3) not in legal and equip(0, 3, 1) not in legal
    assert equip(1, 3) in legal


def test_a_vehicle_taken_can_be_used_for_an_expedition_in_the_same_phase() -> None:
    """"You can then use your Expedition Members for the following actions, in any order":
    the car taken by an Equipment action completes the route to Petra (car, train)."""
    def edit(o: dict[str, Any]) -> None:
        seat_edit(o, 0, vehicles={"train": 1})
        o["stacks"][0] = {"count": 3, "visible": ["car", "boat", "boat"]}
    state = position(edit)
    assert not [a for a in state.legal_actions() if 28 <= a < 76]
    play(state, equip(0, 1))
    assert go(PETRA, CAR) in state.legal_actions() and go(PETRA, TRAIN) in state.legal_actions()
    play(state, go(PETRA, TRAIN))
    assert state.observation(0)["locations"][PETRA]["member"] == 0
    assert state.observation(0)["discard"]["train"] == 1


def test_the_mission_of_a_token_taken_mission_side_up_is_drawn_only_then() -> None:
    """"pick up ... Mission tokens (unknown back side)" / "without checking the Mission side
    beforehand": the side is chosen first, then the mission is a chance outcome among the
    unrevealed missions of the token's vehicle, each as likely."""
    state = position(lambda o: None)
    play(state, equip(1, 2, 1))  # stack 1's 2nd token, a car, mission side up
    assert state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    box = state.observation(0)["box"]["missions"]
    assert {a - 186 for a in outcomes} == {m for m in range(64) if box[m]["vehicle"] == "car"}
    assert len(set(outcomes.values())) == 1
    force(state, 186 + 20)
    assert [m["id"] for m in me(state)["missions"]] == [72, 20]
    assert me(state)["vehicles"]["car"] == 1  # the starting car: the new token is a mission


# --- Phase 1: Expedition action ---------------------------------------------------------------


def test_only_the_routes_vehicles_can_be_discarded() -> None:
    """"From the Vehicle tokens you have just used, pick one and discard it": the Orthodox
    Church's route is train, train, car; the boat held is not one of them."""
    state = position(lambda o: seat_edit(o, 0, vehicles={"train": 2, "car": 1, "boat": 1}))
    legal = state.legal_actions()
    assert go(CHURCH, TRAIN) in legal and go(CHURCH, CAR) in legal
    assert go(CHURCH, BOAT) not in legal and go(CHURCH, AIRSHIP) not in legal
    play(state, go(CHURCH, CAR))
    assert me(state)["vehicles"] == {"train": 2, "car": 0, "boat": 1, "airship": 0}
    assert state.observation(0)["discard"]["car"] == 1


def test_a_route_showing_a_vehicle_twice_needs_two_of_it() -> None:
    """"only ... if you have in front of you ALL the Vehicles (2 or 3) shown by the routes":
    one train and one car do not reach the Orthodox Church (train, train, car)."""
    state = position(lambda o: seat_edit(o, 0, vehicles={"train": 1, "car": 1}))
    assert not {go(CHURCH, v) for v in range(4)} & set(state.legal_actions())
    assert go(PETRA, CAR) in state.legal_actions()


def test_a_displaced_member_and_the_vehicle_go_back_to_its_owner_four_players() -> None:
    """"If one of the other players' Expedition Member is already on this Location, take its
    place, give the player their Expedition Member back and your Vehicle token meant for
    discarding (Vehicle side up)." Four players: seat 2 is displaced from Petra."""
    def edit(o: dict[str, Any]) -> None:
        seat_edit(o, 0, vehicles={"train": 1, "car": 1})
        seat_edit(o, 2, vehicles={}, on=[PETRA])
    state = position(edit, players=4)
    discard = dict(state.observation(0)["discard"])
    play(state, go(PETRA, CAR))
    view = state.observation(3)
    assert view["locations"][PETRA]["member"] == 0
    assert view["players"][2]["members_in_front"] == 3
    assert view["players"][2]["vehicles"]["car"] == 1
    assert view["discard"] == discard
    assert view["players"][1]["vehicles"] == view["players"][3]["vehicles"]  # untouched


def test_every_member_on_the_map_may_be_retrieved_at_the_start_of_phase_1() -> None:
    """"When this phase starts, you can choose to retrieve some or all of your Expedition
    Members from Locations of the World Map": all three come back and can be sent again."""
    state = position(lambda o: seat_edit(o, 0, on=[PETRA, MASK, WALL]))
    assert state.observation(0)["can_send"] == 0
    play(state, retrieve(PETRA), retrieve(MASK), retrieve(WALL))
    assert me(state)["members_in_front"] == 3
    assert state.observation(0)["can_send"] == 3
    assert equip(0, 3) in state.legal_actions()


# --- Phase 2 ------------------------------------------------------------------------------


def phase_2(edit: Callable[[dict[str, Any]], None], players: int = 2) -> State:
    state = position(edit, players)
    play(state, END_PHASE_1)
    return state


def test_a_three_location_mission_sends_back_the_member_of_your_choice() -> None:
    """"Retrieve one of your Expedition Members on one of the Locations needed to complete the
    Mission ... You can choose which Expedition Member you retrieve." Mission 11 (Orthodox
    Church, Great Wall, Petra): any of the three; the Leader moves 3 slots."""
    state = phase_2(lambda o: seat_edit(o, 0, missions=[11], on=[CHURCH, WALL, PETRA],
                                        leaders=[1, 1]))
    play(state, complete(11))
    assert state.legal_actions() == [retrieve(CHURCH), retrieve(WALL), retrieve(PETRA)]
    assert state.observation(1)["completing"]["id"] == 11
    play(state, retrieve(WALL))
    player = me(state)
    assert player["leaders"] == [1, 4]
    assert player["members_on_locations"] == [CHURCH, PETRA]
    assert player["members_in_front"] == 1


def test_passing_slot_four_with_the_other_leader_on_it_brings_the_fourth_member() -> None:
    """"BONUS: If both your Expedition Leaders reach the 4th slot of each track, you can take
    the 4th Expedition Member": the orange Leader goes from 3 to 6 with the green one on 4,
    and passes the glass on 5 too."""
    state = phase_2(lambda o: seat_edit(o, 0, missions=[11], on=[CHURCH, WALL, PETRA],
                                        leaders=[4, 3]))
    play(state, complete(11), retrieve(PETRA))
    force(state, 266 + 0)
    player = me(state)
    assert player["leaders"] == [4, 6] and player["clues"] == 1
    assert player["members_total"] == 4 and player["members_in_front"] == 2


def test_the_catch_up_token_may_be_a_vehicle_discarded_this_turn() -> None:
    """"take a token of your choice, Vehicle face up, from the discard area": the car just
    discarded by an Expedition action is there to take back."""
    def edit(o: dict[str, Any]) -> None:
        seat_edit(o, 0, vehicles={"car": 1, "train": 1}, missions=[20], on=[MASK],
                  leaders=[2, 2])
        o["discard"] = {v: 0 for v in VEHICLES}
    state = position(edit)
    play(state, go(PETRA, CAR), END_PHASE_1, complete(20), retrieve(PETRA))
    assert state.current_player() == 0 and state.legal_actions() == [END_TURN]
    assert me(state)["vehicles"]["car"] == 1  # taken back: the one kind there
    assert me(state)["leaders"] == [4, 2]


def test_the_winning_clue_ends_the_game_after_the_catch_up_token_and_the_discard() -> None:
    """"You have gathered the 4 clues? Well done! ... win the game." Ruling 25: the clue tile
    is the mission's last step, after the catch-up token and the mission's discard, so the
    fourth ends the game with the mission done, whether the discard area holds one kind of
    vehicle (taken without a question), several (chosen first) or none. *Changed* in the fifth
    pass: the tile came first and the game ended with the mission in front, no token taken."""
    for discard in ({"car": 1}, {"car": 1, "boat": 1}, {}):
        def edit(o: dict[str, Any], discard: dict[str, int] = discard) -> None:
            seat_edit(o, 0, vehicles={}, missions=[0], on=[CHURCH, WALL], leaders=[4, 8],
                      clues=[1, 2, 3])
            o["discard"] = {v: discard.get(v, 0) for v in VEHICLES}
        state = phase_2(edit)
        play(state, complete(0), retrieve(WALL))
        if len(discard) > 1:
            play(state, 158 + VEHICLES.index("car"))
        assert state.current_player() == CHANCE
        force(state, 266 + 12)
        assert state.is_terminal()
        view = state.observation(1)
        assert view["end"]["winner"] == 0 and view["end"]["clue_sum"] == 1 + 2 + 3 + 13
        expected = {v: discard.get(v, 0) for v in VEHICLES}
        expected["train"] += 1  # the mission (a train token), discarded
        if discard:
            expected["car"] -= 1  # the catch-up token taken
        assert view["discard"] == expected, discard
        assert view["players"][0]["missions"] == [], discard
        assert view["players"][0]["vehicles"]["car"] == int(bool(discard)), discard


def test_a_clue_that_does_not_win_is_followed_by_the_lone_catch_up_token() -> None:
    """Not the winning move: the mission is done (the one kind in the discard area taken, the
    mission discarded, and the 4th member with both Leaders on slot 4 or beyond), then its clue
    tile is drawn (ruling 25)."""
    def edit(o: dict[str, Any]) -> None:
        seat_edit(o, 0, vehicles={}, missions=[0], on=[CHURCH, WALL], leaders=[4, 4])
        o["discard"] = {"train": 0, "car": 1, "boat": 0, "airship": 0}
    state = phase_2(edit)
    play(state, complete(0), retrieve(WALL))
    force(state, 266 + 3)
    assert state.current_player() == 0
    player = me(state)
    assert player["vehicles"]["car"] == 1 and player["missions"] == []
    assert player["leaders"] == [6, 4] and player["clues"] == 1
    assert player["members_total"] == 4
    assert state.observation(0)["discard"] == {"train": 1, "car": 0, "boat": 0, "airship": 0}
    assert state.observation(0)["completing"] is None


# --- End of the game --------------------------------------------------------------------------


def test_empty_stacks_end_a_four_player_game_after_the_second_seats_turn() -> None:
    """"Each turn is played clockwise, one player at a time, until ... both token piles are
    empty." / "each player's least-advanced Expedition Leader is used to establish the
    winner ... If tied, you win if you have fewer tokens in front of you": seat 1 takes the
    last token; seats 2 and 3 get no turn. Rearmost Leaders 3, 3, 4, 2: seat 2 first, seats 0
    and 1 next by their tokens (2 against 3 after seat 1's take), seat 3 last."""
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 0, "visible": []}
        o["stacks"][1] = {"count": 1, "visible": ["boat"]}
        seat_edit(o, 0, vehicles={"car": 2}, missions=[], leaders=[3, 6])
        seat_edit(o, 1, vehicles={"car": 2}, missions=[], leaders=[5, 3])
        seat_edit(o, 2, vehicles={"car": 9}, missions=[], leaders=[4, 4])
        seat_edit(o, 3, vehicles={}, missions=[], leaders=[12, 2])
    state = position(edit, players=4)
    play(state, END_PHASE_1, END_TURN)
    assert state.current_player() == 1
    play(state, equip(1, 1))
    assert not state.is_terminal()
    play(state, END_PHASE_1, END_TURN)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.observation(2)["end"] == {"by": "stacks", "winner": None, "clue_sum": None,
                                          "secret_entrance": None}
    assert state.ranking() == [1, 2, 0, 3]


def test_two_players_equal_on_both_keys_share_first_place() -> None:
    """"If tied, you win if you have fewer tokens in front of you than the other players
    have": equal Leaders and tokens leave the tie where the rulebook leaves it."""
    def edit(o: dict[str, Any]) -> None:
        o["stacks"][0] = {"count": 0, "visible": []}
        o["stacks"][1] = {"count": 1, "visible": ["boat"]}
        seat_edit(o, 0, vehicles={}, missions=[20], leaders=[2, 5])
        seat_edit(o, 1, vehicles={"car": 1, "boat": 1}, missions=[], leaders=[7, 2])
    state = position(edit)
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert me(state, 0)["tokens"] == me(state, 1)["tokens"] == 2
    assert state.ranking() == [0, 0]
    assert state.scores() == [0.0, 0.0]


# --- What a seat sees, and the names of actions ------------------------------------------------


def test_seats_see_the_same_table_but_only_their_own_clue_numbers() -> None:
    """Clue tiles are the one thing a seat holds that the others may not read: the count is
    public, the numbers are their owner's."""
    state = phase_2(lambda o: seat_edit(o, 0, missions=[0], on=[CHURCH, WALL], leaders=[3, 1]))
    play(state, complete(0), retrieve(WALL))
    force(state, 266 + 6)  # tile 7
    mine, theirs = state.observation(0), state.observation(1)
    assert mine["my_clues"] == [7] and theirs["my_clues"] == []
    assert theirs["players"][0]["clues"] == 1 and theirs["clue_tiles_left"] == 12
    for view in (mine, theirs):
        del view["seat"], view["my_clues"]
    assert json.dumps(mine, sort_keys=True, default=dict) == json.dumps(
        theirs, sort_keys=True, default=dict)


def test_action_names_are_stable_and_tell_legal_actions_apart() -> None:
    """``action_to_string`` (DESIGN, "stable, human-readable"): the same name from a copy,
    one name per legal action, through the decisions of a turn."""
    state = position(lambda o: seat_edit(o, 0, vehicles={"train": 2, "car": 2, "boat": 1},
                                         missions=[0], on=[CHURCH], front=2))
    for action in (equip(0, 1), go(PETRA, TRAIN), END_PHASE_1):
        legal = state.legal_actions()
        names = [state.action_to_string(a) for a in legal]
        assert len(set(names)) == len(names)
        copy = state.clone()
        assert [copy.action_to_string(a) for a in legal] == names
        assert all(name and not name.startswith("unknown") for name in names)
        play(state, action)
    assert "Great Wall" in state.action_to_string(complete(0))
    assert state.action_to_string(END_TURN) == "end the turn"


@pytest.mark.parametrize("players", [2, 4])
def test_an_observation_rebuilt_unedited_plays_on_the_same(players: int) -> None:
    """README, "Edit an observation and rebuild it": rebuilt unedited, a position offers the
    same moves and shows every seat the same table."""
    state = new_game(players, first_seat=1)
    play(state, equip(0, 1), END_PHASE_1, END_TURN)
    rebuilt = GAME.state_from_observation(state.observation(state.current_player()),
                                          random.Random(1))
    assert rebuilt.legal_actions() == state.legal_actions()
    for seat in range(players):
        assert (json.dumps(rebuilt.observation(seat), sort_keys=True, default=dict)
                == json.dumps(state.observation(seat), sort_keys=True, default=dict))


# --- Setting up a position: what the README promises ------------------------------------------


def later_observation() -> dict[str, Any]:
    observation = new_game(2).observation(0)
    observation["turn"] = 4
    return observation


def catch_up_without_tokens(o: dict[str, Any]) -> None:
    seat_edit(o, 0, missions=[0], leaders=[3, 3])
    o["phase"], o["completing"] = "catch-up-token", {"id": 0}
    o["discard"] = dict.fromkeys(VEHICLES, 0)


def completing_a_mission_not_held(o: dict[str, Any]) -> None:
    seat_edit(o, 0, missions=[], on=[CHURCH, WALL])
    o["phase"], o["completing"] = "retrieve-member", {"id": 0}


def completing_a_mission_not_fulfilled(o: dict[str, Any]) -> None:
    seat_edit(o, 0, missions=[0], on=[CHURCH])
    o["phase"], o["completing"] = "retrieve-member", {"id": 0}


def flipping_without_a_starting_token(o: dict[str, Any]) -> None:
    seat_edit(o, 0, vehicles={}, missions=[])
    o["phase"], o["turn"] = "flip-starting-token", 0


def an_unknown_vehicle(o: dict[str, Any]) -> None:
    o["players"][0]["vehicles"] = {"car": 2, "plane": 1}


@pytest.mark.parametrize("edit", [catch_up_without_tokens, completing_a_mission_not_held,
                                  completing_a_mission_not_fulfilled,
                                  flipping_without_a_starting_token, an_unknown_vehicle])
def test_a_decision_with_nothing_to_decide_is_refused(
        edit: Callable[[dict[str, Any]], None]) -> None:
    """README: "An edit that no table can show is refused with a ValueError naming the field".
    Each of these was rebuilt into a state with no legal action (or one that failed with
    another error at the next move): a catch-up token with an empty discard area, a member
    to bring back from a mission the player does not hold or has not fulfilled, a starting
    flip with no starting token, a vehicle that is none of the four."""
    observation = later_observation()
    edit(observation)
    with pytest.raises(ValueError, match="state_from_observation"):
        GAME.state_from_observation(observation, random.Random(0))


def test_a_vehicle_left_out_of_an_edited_table_counts_zero() -> None:
    """README: per player ``vehicles`` (``{vehicle: count}``) and ``discard`` are read; a
    vehicle left out of an edited table is none held, not an error."""
    observation = later_observation()
    observation["players"][0]["vehicles"] = {"car": 1, "train": 1}
    observation["discard"] = {"boat": 2}
    state = GAME.state_from_observation(observation, random.Random(0))
    assert me(state)["vehicles"] == {"train": 1, "car": 1, "boat": 0, "airship": 0}
    assert state.observation(1)["discard"] == {"train": 0, "car": 0, "boat": 2, "airship": 0}
    assert go(PETRA, CAR) in state.legal_actions()


def test_a_position_in_the_middle_of_a_mission_plays_on() -> None:
    """A position set up while a member is chosen ("You can choose which Expedition Member you
    retrieve") goes on as in play: the Leader moves by the members needed."""
    observation = later_observation()
    seat_edit(observation, 0, missions=[11], on=[CHURCH, WALL, PETRA], leaders=[1, 1])
    observation["phase"], observation["completing"] = "retrieve-member", {"id": 11}
    state = GAME.state_from_observation(observation, random.Random(0))
    assert state.legal_actions() == [retrieve(CHURCH), retrieve(WALL), retrieve(PETRA)]
    play(state, retrieve(CHURCH))
    assert me(state)["leaders"] == [1, 4] and me(state)["missions"] == []


def test_members_sent_are_in_view_while_a_mission_is_drawn() -> None:
    """What a player may see is in every observation, at a draw in the middle of a turn
    too: the two members just sent to an Equipment area ("Move 1, 2, 3 or 4 of your
    Expedition Members ... to an empty Equipment area") while the token's mission is drawn."""
    state = position(lambda o: None)
    play(state, equip(0, 2, 1))
    assert state.current_player() == CHANCE
    for seat in (0, 1):
        view = state.observation(seat)
        assert view["phase"] == "reveal-mission"
        assert view["sent_this_turn"] == 2 and view["equipment_areas"] == [2, 0]
        assert view["players"][0]["members_in_front"] == 1


def test_the_turn_cap_the_readme_names_ends_a_rebuilt_game() -> None:
    """README: a turn ending at turn 399 or later ends the game by the safety cap (ruling
    23); one before it goes on."""
    for turn, over in ((398, False), (399, True)):
        observation = later_observation()
        observation["turn"] = turn
        state = GAME.state_from_observation(observation, random.Random(0))
        play(state, END_PHASE_1, END_TURN)
        assert state.is_terminal() is over
        if over:
            assert state.observation(0)["end"]["by"] == "turn-limit"
