"""Phase 1 of a turn: retrieving members, Equipment actions and Expedition actions."""

from __future__ import annotations

from test_lost_explorers_helpers import (
    COMPONENTS,
    end_turn,
    give,
    go,
    place,
    play,
    setup,
    vehicle,
)

from engines.lost_explorers import actions as A
from engines.lost_explorers import phases as P
from engines.lost_explorers.state import LostExplorersState


def second_round(players: int = 2) -> LostExplorersState:
    """Seat 0 on move with all its members: everyone has ended a first, empty turn."""
    state = setup(players)
    for _ in range(players):
        end_turn(state)
    return state


def test_members_on_locations_may_be_retrieved_when_phase_1_starts() -> None:
    """"When this phase starts, you can choose to retrieve some or all of your Expedition
    Members from Locations of the World Map. Any such retrieved Expedition Member is put in
    front of you."
    """
    state = second_round()
    give(state, 0, vehicles=("car", "car", "train", "train"))
    go(go(state, "Petra", "car"), "Orthodox Church", "train")
    end_turn(end_turn(state))
    assert state.player == 0 and state.members_front[0] == 1
    legal = state.legal_actions()
    assert A.RETRIEVE + place("Petra") in legal and A.RETRIEVE + place("Orthodox Church") in legal
    play(state, A.RETRIEVE + place("Petra"))
    assert state.members_front[0] == 2 and state.occupant[place("Petra")] == -1
    assert A.RETRIEVE + place("Orthodox Church") in state.legal_actions()


def test_retrieving_is_only_at_the_start_of_phase_1() -> None:
    """Once a member has been sent this turn, the phase has started: no more retrieving."""
    state = second_round()
    give(state, 0, vehicles=("car", "train"))
    go(state, "Petra", "train")
    end_turn(end_turn(state))
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert not [a for a in state.legal_actions() if A.kind(a) == "retrieve"]


def test_equipment_action_takes_the_token_at_the_depth_of_the_members_sent() -> None:
    """"Move 1, 2, 3 or 4 of your Expedition Members in front of you to an empty "Equipment"
    area to gain respectively the 1st, 2nd, 3rd or 4th token of the stack."
    """
    state = second_round()
    assert state.visible[0][:5] == [vehicle(v) for v in ("train", "car", "boat", "airship",
                                                         "train")]
    play(state, A.equip(0, 3, A.VEHICLE_SIDE))
    assert state.vehicles[0] == [0, 1, 2, 1]
    assert state.members_front[0] == 0 and state.area_members == [3, 0]
    assert state.stack_left[0] == 31 and state.phase == P.PHASE_1  # nothing left to chance
    assert state.visible[0][:4] == [vehicle(v) for v in ("train", "car", "airship", "train")]


def test_four_members_take_the_fourth_token() -> None:
    """The 4th member (the bonus) lets a player reach the 4th token."""
    state = second_round()
    state.members_front[0] = state.members_total[0] = 4
    play(state, A.equip(1, 4, A.VEHICLE_SIDE))
    assert state.vehicles[0][vehicle("train")] == 1 and state.area_members == [0, 4]


def test_the_side_is_chosen_before_the_mission_is_seen() -> None:
    """"Place that token in front of you, Vehicle side or Mission side up, without checking
    the Mission side beforehand."
    """
    state = second_round()
    play(state, A.equip(1, 2, A.MISSION_SIDE))
    assert state.phase == P.MISSION_DRAW and state.missions[0] == [64]
    boat_missions = COMPONENTS.stack_missions(vehicle("boat"))
    assert state.chance_outcomes() == [(A.MISSION + m, 1 / 16) for m in boat_missions]
    play(state, A.MISSION + boat_missions[5])
    assert state.missions[0] == [64, boat_missions[5]]
    assert state.vehicles[0] == [0, 1, 1, 1]


def test_a_token_once_placed_is_never_flipped() -> None:
    """"A token, once set on one side, cannot be flipped on the other side." No action turns
    a token over; a vehicle token's mission is never drawn."""
    state = second_round()
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert state.hidden_missions[vehicle("train")] == COMPONENTS.stack_missions(vehicle("train"))
    families = {A.kind(a) for a in state.legal_actions()}
    assert families <= {"equip", "expedition", "end-phase-1"}


def test_one_token_per_equipment_area_per_turn() -> None:
    """"Once an Equipment area is occupied, you cannot place more Expedition Members there.
    In other words, you can only get a maximum of two tokens per turn, one in each of the
    Equipment areas."
    """
    state = second_round()
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert not [a for a in state.legal_actions() if A.kind(a) == "equip"
                and A.equip_parts(a)[0] == 0]
    play(state, A.equip(1, 1, A.VEHICLE_SIDE))
    assert not [a for a in state.legal_actions() if A.kind(a) == "equip"]
    assert state.members_front[0] == 1


def test_an_empty_stack_gives_no_more_tokens() -> None:
    """"Players can have as many tokens as they want. When a stack is empty, you can no longer
    take a token from that stack."
    """
    state = second_round()
    state.stack_left[0], state.visible[0] = 2, state.visible[0][:2]
    legal = [a for a in state.legal_actions() if A.kind(a) == "equip"]
    assert {A.equip_parts(a)[1] for a in legal if A.equip_parts(a)[0] == 0} == {1, 2}
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert state.stack_left[0] == 1 and state.phase == P.PHASE_1  # no token left to show
    end_turn(end_turn(state))
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert state.stack_left[0] == 0 and state.observation(1)["stacks"][0]["visible"] == []
    end_turn(end_turn(state))
    assert not [a for a in state.legal_actions() if A.kind(a) == "equip"
                and A.equip_parts(a)[0] == 0]
    assert sum(state.vehicles[0]) == 5


def test_an_expedition_needs_every_vehicle_of_the_route() -> None:
    """"Move 1 of your Expedition Members in front of you to a Location of the World Map. You
    can only do this if you have in front of you ALL the Vehicles (2 or 3) shown by the routes
    between Venice and the Location you want to go to."
    """
    state = second_round()
    mask = place("African Mask")  # car, car, boat
    assert not [a for a in state.legal_actions() if A.kind(a) == "expedition"
                and A.expedition_parts(a)[0] == mask]
    give(state, 0, vehicles=("car",))
    legal = [a for a in state.legal_actions() if A.kind(a) == "expedition"
             and A.expedition_parts(a)[0] == mask]
    assert legal == [A.expedition(mask, vehicle("car")), A.expedition(mask, vehicle("boat"))]


def test_one_vehicle_of_the_route_is_discarded() -> None:
    """"From the Vehicle tokens you have just used, pick one and discard it in a discard area
    next to the box."
    """
    state = second_round()
    give(state, 0, vehicles=("car",))
    go(state, "African Mask", "boat")
    assert state.vehicles[0] == [0, 2, 0, 1]
    assert state.observation(1)["discard"] == {"train": 0, "car": 0, "boat": 1, "airship": 0}
    assert state.occupant[place("African Mask")] == 0 and state.members_front[0] == 2
    assert state.observation(1)["locations"][place("African Mask")]["member"] == 0


def test_expeditions_as_many_times_as_members_in_front() -> None:
    """"You can perform this action as many times as you have Expedition Members in front of
    you."
    """
    state = second_round()
    give(state, 0, vehicles=("car",) * 6 + ("train",) * 3)
    go(go(go(state, "Petra", "car"), "Orthodox Church", "car"),
       "Great Wall", "car")
    assert state.members_front[0] == 0
    assert state.legal_actions() == [A.END_PHASE_1]


def test_an_expedition_displaces_another_players_member() -> None:
    """"If one of the other players' Expedition Member is already on this Location, take its
    place, give the player their Expedition Member back and your Vehicle token meant for
    discarding (Vehicle side up)."
    """
    state = second_round()
    give(state, 0, vehicles=("train",))
    go(state, "Petra", "car")
    end_turn(state)
    give(state, 1, vehicles=("car", "train"))
    assert A.expedition(place("Petra"), vehicle("train")) in state.legal_actions()
    go(state, "Petra", "train")
    assert state.occupant[place("Petra")] == 1
    assert state.members_front[0] == 3 and state.vehicles[0][vehicle("train")] == 2
    assert state.discard == [0, 1, 0, 0]  # only seat 0's own discard, from before


def test_no_expedition_onto_your_own_member() -> None:
    """A location holds one member: a player cannot send a second one there (RULINGS.md)."""
    state = second_round()
    give(state, 0, vehicles=("car", "train", "car", "train"))
    go(state, "Petra", "car")
    assert not [a for a in state.legal_actions() if A.kind(a) == "expedition"
                and A.expedition_parts(a)[0] == place("Petra")]


def test_never_onto_a_validated_location() -> None:
    """"Expedition Members can never be moved to a Location that has a Validated Location
    marker!"
    """
    state = second_round()
    give(state, 0, vehicles=("car", "car", "boat", "boat", "train"))
    reachable = {A.expedition_parts(a)[0] for a in state.legal_actions()
                 if A.kind(a) == "expedition"}
    for name in ("Sphinx", "Chichén Itzá", "Taj Mahal", "Mount Fuji"):
        assert state.validated[place(name)] and place(name) not in reachable
    assert place("African Mask") in reachable


def test_a_turn_sends_members_first_then_completes_missions() -> None:
    """"Each player's turn is divided in two phases: you first send your Expedition Members on
    the Equipment areas or on the World Map's Locations, then you complete your missions and
    retrieve your Expedition Members."
    """
    state = second_round()
    give(state, 0, vehicles=("car", "train"))
    go(state, "Petra", "car")  # completes the starting mission Taj Mahal (validated) + Petra
    assert not [a for a in state.legal_actions() if A.kind(a) == "complete"]
    play(state, A.END_PHASE_1)
    assert state.phase == P.PHASE_2
    assert state.legal_actions() == [A.COMPLETE + 64, A.END_TURN]


def test_equipment_and_expedition_actions_in_any_order() -> None:
    """"You can then use your Expedition Members for the following actions, in any order:" """
    state = second_round()
    give(state, 0, vehicles=("car", "train"))
    go(state, "Petra", "car")  # an expedition first...
    church = A.expedition(place("Orthodox Church"), vehicle("train"))  # train, train, car
    assert church not in state.legal_actions()
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))  # ...then a train token...
    assert church in state.legal_actions()
    play(state, church)  # ...then an expedition again
    assert state.members_front[0] == 0 and state.occupant[place("Orthodox Church")] == 0


def test_the_first_round_limit_counts_expeditions_too() -> None:
    """"The first player to play can only use only 1 Expedition Member, the second player only
    2 Expedition Members." An Expedition action uses a member as an Equipment action does
    (ruling 9): the first player, sent to a location, may send nobody else; the second, after
    a token and a location, is done though a member is still in front of them."""
    state = setup(3, flips=[("train", 0), ("train", 1), ("train", 2)])
    assert state.vehicles[0] == [0, 1, 1, 1]  # car, boat, airship: Moai is in reach
    go(state, "Moai", "boat")
    assert state.members_front[0] == 2 and state.legal_actions() == [A.END_PHASE_1]
    end_turn(state)
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))  # the 1st token of stack 0: a train
    go(state, "Angkor Wat", "car")  # airship, car, boat
    assert state.members_front[1] == 1 and state.legal_actions() == [A.END_PHASE_1]
    end_turn(state)
    assert state.observation(2)["can_send"] == 3


def test_every_member_may_be_retrieved_and_sent_again_in_the_same_turn() -> None:
    """"When this phase starts, you can choose to retrieve some or all of your Expedition
    Members from Locations of the World Map. Any such retrieved Expedition Member is put in
    front of you." / "You can then use your Expedition Members for the following actions":
    a member brought back is one to use this very turn."""
    state = second_round()
    give(state, 0, vehicles=("car", "car", "train", "train", "car", "train"))
    go(go(state, "Petra", "car"), "Orthodox Church", "train")
    end_turn(end_turn(state))
    play(state, A.RETRIEVE + place("Petra"), A.RETRIEVE + place("Orthodox Church"))
    assert state.members_front[0] == 3 and state.occupant.count(0) == 0
    assert not [a for a in state.legal_actions() if A.kind(a) == "retrieve"]
    assert state.observation(0)["can_send"] == 3
    go(state, "Petra", "train")
    assert state.occupant[place("Petra")] == 0 and state.members_front[0] == 2


def test_a_displaced_member_is_used_again_in_its_owners_next_turn() -> None:
    """"...take its place, give the player their Expedition Member back and your Vehicle token
    meant for discarding (Vehicle side up)." The member is in front of its owner, who sends it
    again in their next turn, with the vehicle received."""
    state = second_round()
    give(state, 0, vehicles=("train",))
    go(state, "Petra", "car")
    end_turn(state)
    give(state, 1, vehicles=("car", "train"))
    go(state, "Petra", "car")
    end_turn(state)
    assert state.player == 0 and state.observation(0)["can_send"] == 3
    assert state.vehicles[0] == [1, 1, 1, 1]  # the car received back from seat 1
    go(state, "Petra", "train")  # and seat 0 takes the place back in turn
    assert state.occupant[place("Petra")] == 0 and state.members_front[1] == 3


def test_players_can_hold_as_many_tokens_as_they_want() -> None:
    """"Players can have as many tokens as they want." No hand limit: a player holding forty
    tokens still takes two more, and keeps them all."""
    state = second_round()
    give(state, 0, vehicles=("train", "car", "boat", "airship") * 10)
    assert state.token_count(0) == 44
    play(state, A.equip(0, 1, A.VEHICLE_SIDE), A.equip(1, 1, A.VEHICLE_SIDE))
    assert state.token_count(0) == 46


def test_one_empty_stack_does_not_end_the_game() -> None:
    """"When the 2 stacks are empty, the end of the game is triggered." With one stack empty
    and a token left in the other, play goes on from that other stack."""
    state = second_round()
    state.stack_left[0], state.visible[0] = 1, state.visible[0][:1]
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert state.stack_left == [0, 32] and not state.end_triggered
    end_turn(state)
    assert not state.is_terminal() and state.player == 1
    areas = {A.equip_parts(a)[0] for a in state.legal_actions() if A.kind(a) == "equip"}
    assert areas == {1}


def test_both_stacks_emptied_in_one_turn_end_the_game_after_it() -> None:
    """"When the 2 stacks are empty, the end of the game is triggered." The two last tokens,
    one from each stack, taken in one turn: the turn is played out, then the game ends."""
    state = second_round()
    for stack in (0, 1):
        state.stack_left[stack], state.visible[stack] = 1, state.visible[stack][:1]
    play(state, A.equip(0, 1, A.VEHICLE_SIDE))
    assert not state.end_triggered
    play(state, A.equip(1, 1, A.VEHICLE_SIDE))
    assert state.end_triggered and state.phase == P.PHASE_1
    play(state, A.END_PHASE_1, A.END_TURN)
    assert state.is_terminal() and state.observation(1)["end"]["by"] == "stacks"
