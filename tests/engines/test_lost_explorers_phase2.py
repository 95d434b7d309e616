"""Phase 2 of a turn: completing missions, the Discovery tracks, catch-up tokens, the 4th
member, clues, and the end of the turn."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from test_lost_explorers_helpers import (
    COMPONENTS,
    end_turn,
    give,
    go,
    mission,
    place,
    play,
    setup,
    starting,
    vehicle,
)

from arena.game import CHANCE
from engines.lost_explorers import actions as A
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import Components
from engines.lost_explorers.state import LostExplorersState

GREEN, ORANGE = 0, 1
MASK_PETRA = mission("car", "African Mask", "Petra")  # green, 2 places
SPHINX_PETRA = mission("car", "Sphinx", "Petra")  # green, Sphinx validated
MASK_CHURCH_PETRA = mission("car", "African Mask", "Orthodox Church", "Petra")  # green, 3
MASK_CHURCH = mission("car", "African Mask", "Orthodox Church")  # orange, 2


def on_map(*, players: int = 3, missions: tuple[int, ...] = (MASK_PETRA,),
           places: tuple[tuple[str, str], ...] = (("African Mask", "car"), ("Petra", "car")),
           leaders: tuple[int, int] = (1, 1), markers: Sequence[str] | None = None,
           components: Components | None = None) -> LostExplorersState:
    """Seat 0 in its second turn with ``missions``, members sent to ``places`` (location,
    vehicle discarded), in phase 2. Markers: Sphinx, Chichén Itzá, Taj Mahal (3 players)
    unless ``markers`` names others. Every seat flipped its starting airship, whose missions
    lie elsewhere."""
    state = setup(players, flips=[("airship", seat) for seat in range(players)],
                  markers=markers, components=components)
    for _ in range(players):
        end_turn(state)
    give(state, 0, vehicles=("car",) * 6 + ("train",) * 3 + ("boat",), missions=missions)
    state.leaders[0] = list(leaders)
    for location, discard in places:
        go(state, location, discard)
    return play(state, A.END_PHASE_1)


def test_a_mission_needs_a_member_on_each_of_its_locations() -> None:
    """"You must have an Expedition Member on EACH of the Locations depicted by the Mission
    token you are trying to complete."
    """
    state = on_map(places=(("African Mask", "car"),))
    assert A.COMPLETE + MASK_PETRA not in state.legal_actions()
    state = on_map()
    assert state.legal_actions() == [A.COMPLETE + MASK_PETRA, A.END_TURN]


def test_validated_locations_count_by_themselves() -> None:
    """"Locations with a Validated Location marker are Locations that do not require any
    Expedition Members and are automatically validated."
    """
    state = on_map(missions=(SPHINX_PETRA,), places=(("Petra", "car"),))
    assert state.validated[place("Sphinx")]
    play(state, A.COMPLETE + SPHINX_PETRA)
    assert state.missions[0] == [starting("airship")] and state.leaders[0] == [2, 1]


def test_a_mission_on_validated_locations_only_is_complete_by_itself() -> None:
    """"Locations with a Validated Location marker are Locations that do not require any
    Expedition Members and are automatically validated." Ruling 15: no member is retrieved,
    the Leader moves by the members needed (none), so no catch-up token (it did not "move
    forward"), and the token is discarded. The shipped missions hold one marker location at
    most, so the markers are moved here: Orthodox Church and Petra both carry one."""
    church_petra = mission("train", "Orthodox Church", "Petra")
    crafted = dataclasses.replace(COMPONENTS, markers=tuple(
        place(name) for name in ("Orthodox Church", "Petra", "Sphinx", "Moai")))
    state = on_map(players=2, missions=(church_petra,), places=(("African Mask", "car"),),
                   markers=("Orthodox Church", "Petra", "Sphinx", "Moai"), components=crafted)
    assert state.validated[place("Orthodox Church")] and state.validated[place("Petra")]
    assert state.legal_actions() == [A.COMPLETE + church_petra, A.END_TURN]
    front, held, discard = state.members_front[0], state.vehicles[0][:], state.discard[:]
    assert discard[vehicle("car")] == 1  # a catch-up token would be there to take
    play(state, A.COMPLETE + church_petra)
    assert state.phase == P.PHASE_2 and state.completing == -1
    assert state.leaders[0] == [1, 1] and not state.clues[0]
    assert state.members_front[0] == front and state.occupant[place("African Mask")] == 0
    assert state.vehicles[0] == held  # no catch-up token
    assert church_petra not in state.missions[0]
    assert state.discard == [discard[0] + 1, *discard[1:]]  # the train token discarded
    assert church_petra in state.observation(1)["completed_missions"]


def test_a_leader_on_the_last_slot_takes_no_catch_up_token() -> None:
    """"If you move forward an Expedition Leader whose position was equal or lower to your
    other Expedition Leader's, take a token..." A Leader already on its track's last slot
    does not move forward (ruling 17), so it brings no token even when level with the
    other."""
    last = COMPONENTS.track_length[GREEN]
    state = on_map(leaders=(last, last))
    cars = state.vehicles[0][vehicle("car")]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [last, last] and state.phase == P.PHASE_2
    assert state.vehicles[0][vehicle("car")] == cars and MASK_PETRA not in state.missions[0]
    assert state.discard[vehicle("car")] == 3  # 2 discarded + the mission, none taken


def test_one_member_of_the_mission_is_retrieved_by_choice() -> None:
    """"Retrieve one of your Expedition Members on one of the Locations needed to complete the
    Mission, and place it in front of you. You can choose which Expedition Member you
    retrieve."
    """
    state = play(on_map(), A.COMPLETE + MASK_PETRA)
    assert state.phase == P.RETRIEVE_PICK
    assert state.legal_actions() == [A.RETRIEVE + place("African Mask"),
                                     A.RETRIEVE + place("Petra")]
    assert state.observation(0)["completing"]["id"] == MASK_PETRA
    play(state, A.RETRIEVE + place("Petra"))
    assert state.occupant[place("Petra")] == -1 and state.occupant[place("African Mask")] == 0
    assert state.members_front[0] == 2


def test_the_leader_advances_by_the_members_needed() -> None:
    """"In the Discovery area, move the Expedition Leader forward on the color track matching
    the Mission completed, by a number of slots equal to the number of Expedition Members
    needed to complete the Mission."
    """
    state = on_map(missions=(MASK_CHURCH_PETRA,), places=(
        ("African Mask", "car"), ("Orthodox Church", "car"), ("Petra", "car")))
    assert COMPONENTS.mission_track[MASK_CHURCH_PETRA] == GREEN
    play(state, A.COMPLETE + MASK_CHURCH_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [4, 1]
    state = on_map(missions=(MASK_CHURCH,), places=(("African Mask", "car"),
                                                   ("Orthodox Church", "car")))
    play(state, A.COMPLETE + MASK_CHURCH, A.RETRIEVE + place("African Mask"))
    assert state.leaders[0] == [1, 3]


def test_a_validated_location_is_worth_one_fewer_slot() -> None:
    """"Missions involving Locations with a Validated Place marker are easier to complete, but
    are worth one fewer point."
    """
    state = on_map(missions=(SPHINX_PETRA, MASK_PETRA))
    play(state, A.COMPLETE + SPHINX_PETRA)
    assert state.leaders[0] == [2, 1]
    assert state.occupant[place("Petra")] == -1  # the only member it needed came back


def test_a_leader_not_ahead_takes_a_catch_up_token_of_your_choice() -> None:
    """"If you move forward an Expedition Leader whose position was equal or lower to your
    other Expedition Leader's, take a token of your choice, Vehicle face up, from the
    discard area."
    """
    state = on_map(places=(("African Mask", "boat"), ("Petra", "car")))
    assert state.discard == [0, 1, 1, 0]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.phase == P.CATCH_UP
    assert state.legal_actions() == [A.CATCH_UP + vehicle("car"), A.CATCH_UP + vehicle("boat")]
    boats = state.vehicles[0][vehicle("boat")]
    play(state, A.CATCH_UP + vehicle("boat"))
    assert state.vehicles[0][vehicle("boat")] == boats + 1
    assert state.phase == P.PHASE_2


def test_no_catch_up_token_for_the_leader_ahead() -> None:
    """The catch-up token is only for a Leader at or behind the other one."""
    state = on_map(leaders=(2, 1), places=(("African Mask", "boat"), ("Petra", "car")))
    cars = state.vehicles[0][vehicle("car")]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.phase == P.PHASE_2 and state.vehicles[0][vehicle("car")] == cars
    assert state.discard == [0, 2, 1, 0]  # the completed car mission joined the discards


def test_a_single_kind_in_the_discard_area_is_taken_without_asking() -> None:
    """With one vehicle type to choose from, the catch-up token needs no decision."""
    state = on_map()
    cars = state.vehicles[0][vehicle("car")]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.phase == P.PHASE_2 and state.vehicles[0][vehicle("car")] == cars + 1


def test_the_mission_token_is_discarded() -> None:
    """"Discard the Mission token in the discard area next to the box." It is discarded after
    the catch-up token is taken, so it cannot be that token."""
    state = on_map(leaders=(3, 1))
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert MASK_PETRA not in state.missions[0]  # before the glass's clue tile (ruling 25)
    assert state.phase == P.CLUE_DRAW
    assert state.observation(2)["discard"]["car"] == 3
    state = on_map()
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.discard[vehicle("car")] == 2  # 2 discarded, 1 taken back, 1 mission


def test_both_leaders_on_the_fourth_slot_bring_the_fourth_member() -> None:
    """"BONUS: If both your Expedition Leaders reach the 4th slot of each track, you can take
    the 4th Expedition Member that was set aside at the start of the game and place it in
    front of you."
    """
    state = on_map(leaders=(4, 2), missions=(MASK_CHURCH,),
                   places=(("African Mask", "car"), ("Orthodox Church", "car")))
    front = state.members_front[0]
    play(state, A.COMPLETE + MASK_CHURCH, A.RETRIEVE + place("African Mask"))
    assert state.leaders[0] == [4, 4]
    assert state.members_total[0] == 4 and state.members_front[0] == front + 2
    state = on_map(leaders=(3, 2), missions=(MASK_CHURCH,),
                   places=(("African Mask", "car"), ("Orthodox Church", "car")))
    play(state, A.COMPLETE + MASK_CHURCH, A.RETRIEVE + place("African Mask"))
    assert state.members_total[0] == 3


def test_a_magnifying_glass_gives_a_clue_tile() -> None:
    """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
    "Clue" tile."
    """
    assert COMPONENTS.glasses[GREEN][0] == 5
    state = on_map(leaders=(3, 1))
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.current_player() == CHANCE and state.phase == P.CLUE_DRAW
    assert state.chance_outcomes() == [(A.CLUE + tile, 1 / 13) for tile in range(13)]
    play(state, A.CLUE + 6)
    assert state.clues[0] == [6] and state.phase == P.PHASE_2
    mine, theirs = state.observation(0), state.observation(1)
    assert mine["my_clues"] == [COMPONENTS.clue_numbers[6]] and theirs["my_clues"] == []
    assert theirs["players"][0]["clues"] == 1 and theirs["clue_tiles_left"] == 12


def test_passing_a_magnifying_glass_counts_as_reaching_it() -> None:
    """Ruling: a Leader that moves over a glass "gets to" it on the way."""
    state = on_map(leaders=(4, 1), missions=(MASK_CHURCH_PETRA,), places=(
        ("African Mask", "car"), ("Orthodox Church", "car"), ("Petra", "car")))
    play(state, A.COMPLETE + MASK_CHURCH_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [7, 1] and state.phase == P.CLUE_DRAW
    play(state, A.CLUE)
    assert state.phase == P.PHASE_2


def test_a_leader_stops_at_the_end_of_its_track() -> None:
    """Ruling: a Leader never moves past the last slot."""
    last = COMPONENTS.track_length[GREEN]
    state = on_map(leaders=(last - 1, 1), missions=(MASK_CHURCH_PETRA,), places=(
        ("African Mask", "car"), ("Orthodox Church", "car"), ("Petra", "car")))
    play(state, A.COMPLETE + MASK_CHURCH_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [last, 1]
    assert last in COMPONENTS.glasses[GREEN] and state.phase == P.CLUE_DRAW  # reached, capped


def test_several_missions_in_one_turn_each_retrieving_a_member() -> None:
    """"You can complete several missions in one turn. But do not forget to remove your
    Expedition Member from the World Map for every completed mission."
    """
    state = on_map(missions=(MASK_PETRA, SPHINX_PETRA))
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("African Mask"))
    assert state.legal_actions() == [A.COMPLETE + SPHINX_PETRA, A.END_TURN]
    play(state, A.COMPLETE + SPHINX_PETRA)
    assert state.leaders[0] == [4, 1] and state.members_front[0] == 3
    state = on_map(missions=(MASK_PETRA, SPHINX_PETRA))
    play(state, A.COMPLETE + SPHINX_PETRA)  # takes the Petra member back...
    assert A.COMPLETE + MASK_PETRA not in state.legal_actions()  # ...so this one must wait


def test_members_on_equipment_areas_come_back_at_the_end_of_the_turn() -> None:
    """"Finally, retrieve the Expedition Members on Equipment areas and place them in front
    of you."
    """
    state = setup(2)
    end_turn(end_turn(state))
    play(state, A.equip(0, 2, A.VEHICLE_SIDE))
    play(state, A.equip(1, 1, A.VEHICLE_SIDE), A.END_PHASE_1)
    assert state.members_front[0] == 0 and state.observation(1)["equipment_areas"] == [2, 1]
    play(state, A.END_TURN)
    assert state.members_front[0] == 3 and state.area_members == [0, 0]


def test_turns_go_clockwise_one_player_at_a_time() -> None:
    """"Each turn is played clockwise, one player at a time, until one of the players has
    gathered 4 clues or both token piles are empty."
    """
    state = setup(4, first=2)
    seen = []
    for _ in range(6):
        seen.append(state.current_player())
        end_turn(state)
    assert seen == [2, 3, 0, 1, 2, 3]
    assert not state.is_terminal()


MASK_SPHINX_CHURCH = mission("car", "African Mask", "Sphinx", "Orthodox Church")  # green


def test_a_three_location_mission_with_a_marker_needs_two_members_and_is_worth_two() -> None:
    """"Locations with a Validated Location marker are Locations that do not require any
    Expedition Members" / "You can choose which Expedition Member you retrieve." / "...by a
    number of slots equal to the number of Expedition Members needed": three locations, one
    of them validated (Sphinx), two members, a choice between them, two slots."""
    state = on_map(missions=(MASK_SPHINX_CHURCH,), places=(("African Mask", "car"),))
    assert A.COMPLETE + MASK_SPHINX_CHURCH not in state.legal_actions()
    state = on_map(missions=(MASK_SPHINX_CHURCH,),
                   places=(("African Mask", "car"), ("Orthodox Church", "car")))
    play(state, A.COMPLETE + MASK_SPHINX_CHURCH)
    assert state.phase == P.RETRIEVE_PICK
    assert state.legal_actions() == [A.RETRIEVE + place("African Mask"),
                                     A.RETRIEVE + place("Orthodox Church")]
    play(state, A.RETRIEVE + place("Orthodox Church"))
    assert state.leaders[0] == [3, 1] and state.occupant[place("African Mask")] == 0


def test_a_leader_behind_the_other_takes_a_catch_up_token() -> None:
    """"If you move forward an Expedition Leader whose position was equal or lower to your
    other Expedition Leader's, take a token of your choice" (lower, here, not only equal)."""
    state = on_map(leaders=(1, 3))
    cars = state.vehicles[0][vehicle("car")]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [3, 3]
    assert state.vehicles[0][vehicle("car")] == cars + 1


def test_an_empty_discard_area_gives_no_catch_up_token() -> None:
    """"...take a token of your choice, Vehicle face up, from the discard area." With nothing
    there, there is nothing to take (ruling 18); the mission is still completed and its token
    discarded."""
    state = on_map()
    state.discard = [0, 0, 0, 0]  # a test shortcut: as if earlier catch-ups had emptied it
    held = state.vehicles[0][:]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.phase == P.PHASE_2 and state.leaders[0] == [3, 1]
    assert state.vehicles[0] == held and state.discard == [0, 1, 0, 0]


def test_the_fourth_member_comes_beyond_the_fourth_slot_and_only_once() -> None:
    """"BONUS: If both your Expedition Leaders reach the 4th slot of each track, you can take
    the 4th Expedition Member": Leaders on 6 and 5 qualify (ruling 21); a later mission brings
    no fifth member (there is none)."""
    state = on_map(leaders=(6, 3), missions=(MASK_CHURCH, SPHINX_PETRA),
                   places=(("African Mask", "car"), ("Orthodox Church", "car"), ("Petra", "car")))
    front = state.members_front[0]
    play(state, A.COMPLETE + MASK_CHURCH, A.RETRIEVE + place("African Mask"))
    assert state.phase == P.CLUE_DRAW  # the orange Leader reached the glass on 5
    play(state, A.CLUE)
    assert state.leaders[0] == [6, 5]
    assert state.members_total[0] == 4 and state.members_front[0] == front + 2
    play(state, A.COMPLETE + SPHINX_PETRA)
    assert state.leaders[0] == [7, 5]
    assert state.members_total[0] == 4 and state.members_front[0] == front + 3


def test_the_orange_track_gives_clues_too() -> None:
    """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
    "Clue" tile." Either Leader: "follow only one trail or both at the same time"."""
    assert COMPONENTS.glasses[ORANGE][0] == 5
    state = on_map(leaders=(1, 3), missions=(MASK_CHURCH,),
                   places=(("African Mask", "car"), ("Orthodox Church", "car")))
    play(state, A.COMPLETE + MASK_CHURCH, A.RETRIEVE + place("African Mask"))
    assert state.leaders[0] == [1, 5] and state.phase == P.CLUE_DRAW
    play(state, A.CLUE + 3)
    assert state.clues[0] == [3]


def test_a_glass_already_reached_gives_no_second_clue() -> None:
    """A Leader that moves on from a glass it stands on does not "get to" it again (ruling
    19: each glass gives one clue, once)."""
    state = on_map(leaders=(5, 1))
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [7, 1] and state.phase == P.PHASE_2 and not state.clues[0]


def _close_glasses() -> Components:
    """The shipped components with glasses on slots 5 and 6 of the green track."""
    return dataclasses.replace(COMPONENTS, glasses=((5, 6, 12), COMPONENTS.glasses[ORANGE]))


def test_two_glasses_in_one_move_give_two_clue_tiles() -> None:
    """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
    "Clue" tile": a component file with glasses close together can make one move reach two;
    each gives its tile (ruling 19)."""
    state = on_map(leaders=(4, 1), missions=(MASK_CHURCH_PETRA,), components=_close_glasses(),
                   places=(("African Mask", "car"), ("Orthodox Church", "car"),
                           ("Petra", "car")))
    play(state, A.COMPLETE + MASK_CHURCH_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [7, 1] and state.phase == P.CLUE_DRAW
    play(state, A.CLUE + 0)
    assert state.phase == P.CLUE_DRAW and len(state.chance_outcomes()) == 12
    play(state, A.CLUE + 1)
    assert state.clues[0] == [0, 1] and state.phase == P.PHASE_2


def test_the_fourth_clue_ends_the_game_before_a_fifth_is_drawn() -> None:
    """"You have gathered the 4 clues? ... win the game": a move reaching two glasses with
    three clues held wins on the first tile; the second is never drawn."""
    state = on_map(leaders=(4, 1), missions=(MASK_CHURCH_PETRA,), components=_close_glasses(),
                   places=(("African Mask", "car"), ("Orthodox Church", "car"),
                           ("Petra", "car")))
    for tile in (5, 6, 7):
        state.clue_pool.remove(tile)
        state.clues[0].append(tile)
    play(state, A.COMPLETE + MASK_CHURCH_PETRA, A.RETRIEVE + place("Petra"), A.CLUE + 0)
    assert state.is_terminal() and len(state.clues[0]) == 4 and len(state.clue_pool) == 9
    assert state.observation(1)["end"]["winner"] == 0


def test_the_catch_up_token_is_chosen_before_the_clue_tile_is_drawn() -> None:
    """"move the Expedition Leader forward ... If you move forward an Expedition Leader whose
    position was equal or lower ..., take a token of your choice" / "Discard the Mission token"
    / "If one of your Expedition Leaders gets to a slot with a magnifying glass, take a "Clue"
    tile." In the rulebook's order: the catch-up token is chosen, the mission discarded, then
    the clue tile drawn (ruling 25). *Changed* in the fifth pass: the tile used to come first."""
    state = on_map(leaders=(3, 5), places=(("African Mask", "boat"), ("Petra", "car")))
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.leaders[0] == [5, 5] and state.phase == P.CATCH_UP and state.clues[0] == []
    completing = state.observation(0)["completing"]
    assert completing["id"] == MASK_PETRA and completing["clue_tiles"] == 1
    play(state, A.CATCH_UP + vehicle("boat"))
    assert state.phase == P.CLUE_DRAW and MASK_PETRA not in state.missions[0]
    play(state, A.CLUE + 3)
    assert state.phase == P.PHASE_2 and state.clues[0] == [3]


def test_a_fourth_clue_ends_the_game_after_the_catch_up_token() -> None:
    """"You have gathered the 4 clues? Well done! ... win the game." The fourth tile, the
    mission's last step, wins once the catch-up token is taken and the mission discarded
    (ruling 25; *changed* in the fifth pass, when the tile came first and ended the game before
    them)."""
    state = on_map(leaders=(3, 5), places=(("African Mask", "boat"), ("Petra", "car")))
    for tile in (5, 6, 7):
        state.clue_pool.remove(tile)
        state.clues[0].append(tile)
    boats = state.discard[vehicle("boat")]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"),
         A.CATCH_UP + vehicle("boat"), A.CLUE + 0)
    assert state.is_terminal() and state.legal_actions() == []
    assert state.discard[vehicle("boat")] == boats - 1 and MASK_PETRA not in state.missions[0]
    assert state.observation(1)["end"]["winner"] == 0


def test_a_mission_token_taken_this_turn_can_be_completed_in_phase_2() -> None:
    """"During this phase, you can complete Missions": a token taken mission side up in phase
    1 is a mission in front of you like any other."""
    state = setup(2, view=(("car",), ("boat",)), flips=[("airship", 0), ("airship", 1)])
    end_turn(end_turn(state))
    give(state, 0, vehicles=("car",) * 4 + ("train",))
    go(go(state, "African Mask", "car"), "Petra", "car")
    play(state, A.equip(0, 1, A.MISSION_SIDE), A.MISSION + MASK_PETRA)
    assert MASK_PETRA in state.missions[0]
    play(state, A.END_PHASE_1)
    assert A.COMPLETE + MASK_PETRA in state.legal_actions()


def test_the_thirteenth_clue_tile_is_there_for_the_last_clue_of_four_players() -> None:
    """"Place the 13 Clue tiles on the "Clue" area." Four players holding three clues each
    have taken twelve; the thirteenth is the one drawn, for sure, by whoever reaches a glass
    next, and it wins (ruling 4: the tiles never run out)."""
    state = on_map(players=4, leaders=(3, 1))
    for seat in range(4):
        for _ in range(3):
            state.clues[seat].append(state.clue_pool.pop())
    assert state.clue_pool == [0]
    play(state, A.COMPLETE + MASK_PETRA, A.RETRIEVE + place("Petra"))
    assert state.chance_outcomes() == [(A.CLUE + 0, 1.0)]
    play(state, A.CLUE + 0)
    assert state.is_terminal() and state.ranking()[0] == 0 and state.clue_pool == []
