"""Lost Explorers: a fifth rulebook pass, black-box scenarios where rules meet.

Written from the rulebook (``rules/lost-explorers.txt``), the README and RULINGS.md only,
through the public interface (the README's action ids, positions set up by naming chance
outcomes or by editing an observation and rebuilding it with ``state_from_observation``; the
helpers of ``test_lost_explorers_blackbox.py``). Each test quotes the sentences it checks. The
corners: the two phases of a turn (what phase 2 no longer allows, a member sent back by a
mission), the first round's limits meeting a displacement, shared places (a location taken
back and forth, the vehicle that changes hands and so the tie-break), the catch-up token
judged afresh for each mission, and the stacks running out (the last token taken first in the
turn, taken mission side up, or not taken at all because a deeper token was chosen). The last
tests check ruling 25 as this pass changed it to the rulebook's literal order: a mission's clue
tiles are taken last, after its catch-up token and its discard.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_lost_explorers_blackbox import (
    AIRSHIP,
    ANGKOR,
    CAR,
    CHURCH,
    END_PHASE_1,
    END_TURN,
    PETRA,
    TAJ,
    TRAIN,
    WALL,
    catch_up,
    clue_tile,
    complete,
    equip,
    force,
    go,
    me,
    mid_game,
    mission_drawn,
    new_game,
    obs,
    play,
    rebuilt,
    retrieve,
    set_player,
)

# Shipped missions used below (box.missions): 2 train Orthodox Church + Petra (green),
# 7 train Great Wall + Petra (orange), 0 train Orthodox Church + Great Wall (green).
CHURCH_WALL, CHURCH_PETRA, WALL_PETRA = 0, 2, 7
CAR_MISSION = 16  # car Great Wall + Angkor Wat (green)
TAJ_ANGKOR = 33  # boat Taj Mahal + Angkor Wat (orange; Taj Mahal has a marker with 2 players)
PHASE_1_IDS = range(0, 77)  # retrieve, Equipment and Expedition actions, end phase 1


def last_tokens(*stack1: str) -> Any:
    """An edit: stack 0 empty, stack 1 holding ``stack1`` (the 1st first)."""

    def edit(observation: dict[str, Any]) -> None:
        observation["stacks"] = [{"count": 0, "visible": []},
                                 {"count": len(stack1), "visible": list(stack1)}]

    return edit


# --- The two phases of a turn ------------------------------------------------------------------


def test_phase_two_allows_no_phase_one_action_and_a_member_sent_back_waits() -> None:
    """"Each player's turn is divided in two phases: you first send your Expedition Members
    ..., then you complete your missions and retrieve your Expedition Members." and "Retrieve
    one of your Expedition Members on one of the Locations needed to complete the Mission, and
    place it in front of you." Once phase 2 has begun, nothing of phase 1 is offered (no
    member retrieved from the map at will, none sent), not even for the member a completed
    mission sent back; that member is sent in the player's next turn."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 1, "car": 1}, missions=[CHURCH_PETRA],
                   on=[CHURCH, PETRA, WALL], in_front=0)

    state = mid_game(edit)
    play(state, END_PHASE_1)
    assert not set(state.legal_actions()) & set(PHASE_1_IDS)
    play(state, complete(CHURCH_PETRA), retrieve(PETRA))
    assert me(state)["members_in_front"] == 1
    assert state.legal_actions() == [END_TURN]  # Great Wall's member stays, nothing to send
    play(state, END_TURN, END_PHASE_1, END_TURN)  # seat 1 passes
    assert obs(state)["current_player"] == 0 and obs(state)["can_send"] == 1
    assert go(PETRA, CAR) in state.legal_actions()


def test_the_catch_up_token_is_judged_again_for_each_mission_of_a_turn() -> None:
    """"If you move forward an Expedition Leader whose position was equal or lower to your
    other Expedition Leader's, take a token of your choice" and "You can complete several
    missions in one turn." The green Leader (slot 2, behind orange on 3) moves to 4 and takes
    a token; a second green mission then starts from 4, ahead of orange: no token (only the
    clue tile of the glass on slot 5 it passes)."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[CHURCH_PETRA, CHURCH_WALL],
                   on=[CHURCH, PETRA, WALL], in_front=0, leaders=[2, 3])
        observation["discard"] = {"car": 2, "airship": 1}

    state = mid_game(edit)
    play(state, END_PHASE_1, complete(CHURCH_PETRA), retrieve(PETRA))
    assert obs(state)["phase"] == "catch-up-token"
    play(state, catch_up(AIRSHIP))
    assert me(state)["leaders"] == [4, 3]
    assert me(state)["vehicles"]["airship"] == 1
    play(state, complete(CHURCH_WALL), retrieve(WALL))
    assert me(state)["leaders"] == [6, 3]
    force(state, clue_tile(0))  # the glass on slot 5
    assert obs(state)["phase"] == "phase-2"
    assert me(state)["vehicles"] == {"train": 0, "car": 0, "boat": 0, "airship": 1}
    assert obs(state)["discard"] == {"train": 2, "car": 2, "boat": 0, "airship": 0}


def test_a_mission_needs_the_players_own_member_not_another_players() -> None:
    """"You must have an Expedition Member on EACH of the Locations depicted by the Mission
    token you are trying to complete." Seat 1's member on Petra does not count for seat 0's
    Orthodox Church + Petra; once seat 0 takes Petra from it, the mission can be completed."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 1, "car": 1}, missions=[CHURCH_PETRA],
                   on=[CHURCH], in_front=2)
        set_player(observation, 1, on=[PETRA], in_front=2)

    state = mid_game(edit)
    held_on = obs(state)
    assert held_on["locations"][PETRA]["member"] == 1
    without = state.clone()
    play(without, END_PHASE_1)
    assert complete(CHURCH_PETRA) not in without.legal_actions()
    play(state, go(PETRA, TRAIN), END_PHASE_1)
    assert complete(CHURCH_PETRA) in state.legal_actions()


def test_a_token_kept_mission_side_up_is_no_vehicle_for_a_route() -> None:
    """"You can only do this if you have in front of you ALL the Vehicles (2 or 3) shown by the
    routes" and "A token, once set on one side, cannot be flipped on the other side." A car
    token taken mission side up is a mission, not a car: with a train and that token, Petra
    (car, train) cannot be reached; a car taken vehicle side up opens it."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 1}, missions=[], on=[], in_front=3)
        observation["stacks"][0]["visible"] = ["car"] * 8 + ["train"] * 8 + ["boat"] * 8 + [
            "airship"] * 8  # the same 32 tokens, the cars on top

    state = mid_game(edit)
    play(state, equip(0, 1, side=1))
    force(state, mission_drawn(CAR_MISSION))
    assert me(state)["vehicles"]["car"] == 0 and len(me(state)["missions"]) == 1
    assert go(PETRA, TRAIN) not in state.legal_actions()
    play(state, equip(1, 1))  # stack 1's 1st token: a train
    assert go(PETRA, TRAIN) not in state.legal_actions()
    other = mid_game(edit)
    play(other, equip(0, 1))
    assert go(PETRA, TRAIN) in other.legal_actions()


def test_the_discard_area_is_shared_a_vehicle_another_player_gave_up_is_a_catch_up_token(
) -> None:
    """"pick one and discard it in a discard area next to the box" and "take a token of your
    choice, Vehicle face up, from the discard area". Seat 1 sends a member to Petra and gives up
    its car; in seat 0's next turn, completing a mission with its Leader not ahead brings that
    car to seat 0 (the only token there, so no question is asked)."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[CHURCH_WALL], on=[CHURCH, WALL],
                   in_front=1)
        set_player(observation, 1, vehicles={"train": 1, "car": 1}, missions=[], on=[],
                   in_front=3)

    state = mid_game(edit)
    play(state, END_PHASE_1, END_TURN)
    play(state, go(PETRA, CAR), END_PHASE_1, END_TURN)
    assert obs(state)["discard"] == {"train": 0, "car": 1, "boat": 0, "airship": 0}
    play(state, END_PHASE_1, complete(CHURCH_WALL), retrieve(WALL))
    assert me(state)["vehicles"]["car"] == 1
    assert obs(state)["discard"] == {"train": 1, "car": 0, "boat": 0, "airship": 0}


# --- First round and shared places ---------------------------------------------------------------


def test_the_second_player_spending_both_first_turn_members_on_one_token_sends_no_more() -> None:
    """"The first player to play can only use only 1 Expedition Member, the second player only
    2 Expedition Members." and "Move 1, 2, 3 or 4 of your Expedition Members ... to gain
    respectively the 1st, 2nd, 3rd or 4th token". Two players: the second player's two
    members taking the 2nd token of a stack are its whole first turn; its third member stays
    in front, with no Equipment or Expedition action left."""
    state = new_game(2)
    play(state, END_PHASE_1, END_TURN)  # the first player passes
    assert obs(state)["current_player"] == 1 and obs(state)["can_send"] == 2
    play(state, equip(0, 2))
    assert obs(state)["can_send"] == 0 and me(state, 1)["members_in_front"] == 1
    assert state.legal_actions() == [END_PHASE_1]


def test_a_first_round_displacement_gives_the_first_player_all_three_next_turn() -> None:
    """"The first player to play can only use only 1 Expedition Member, the second player only
    2", "If one of the other players' Expedition Member is already on this Location, take its
    place, give the player their Expedition Member back and your Vehicle token meant for
    discarding" and "Over the following rounds, all players can use all of their Expedition
    Members." The first player's one member goes to Petra (car, train: the starting tokens
    left after flipping the boat); the second player takes Petra from it, handing over its
    train; in its second turn the first player has its three members and the two trains."""
    state = new_game(2)
    play(state, go(PETRA, CAR), END_PHASE_1, END_TURN)
    assert obs(state)["discard"]["car"] == 1
    play(state, go(PETRA, TRAIN))
    seat0 = me(state, 0)
    assert obs(state)["locations"][PETRA]["member"] == 1
    assert seat0["members_in_front"] == 3 and seat0["vehicles"]["train"] == 2
    play(state, END_PHASE_1, END_TURN)
    assert obs(state)["current_player"] == 0 and obs(state)["can_send"] == 3
    assert equip(0, 3) in state.legal_actions()


def test_a_place_taken_back_and_forth_passes_the_vehicles_between_players() -> None:
    """"If one of the other players' Expedition Member is already on this Location, take its
    place, give the player their Expedition Member back and your Vehicle token meant for
    discarding (Vehicle side up)." Petra (car, train) changes hands twice: each time the
    member and the vehicle given up go to the player whose member is displaced, and the
    discard area keeps only the train of the first, free, expedition."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 2, "car": 1}, missions=[], on=[],
                   in_front=3)
        set_player(observation, 1, vehicles={"train": 1, "car": 1}, missions=[], on=[],
                   in_front=3)

    state = mid_game(edit)
    play(state, go(PETRA, TRAIN), END_PHASE_1, END_TURN)
    play(state, go(PETRA, CAR))  # seat 1 takes Petra; seat 0 gets the car and its member
    assert me(state, 0)["vehicles"] == {"train": 1, "car": 2, "boat": 0, "airship": 0}
    assert me(state, 0)["members_in_front"] == 3
    play(state, END_PHASE_1, END_TURN)
    play(state, go(PETRA, CAR))  # seat 0 takes it back; seat 1 gets a car and its member
    assert obs(state)["locations"][PETRA]["member"] == 0
    assert me(state, 1)["vehicles"] == {"train": 1, "car": 1, "boat": 0, "airship": 0}
    assert me(state, 1)["members_in_front"] == 3
    assert obs(state)["discard"] == {"train": 1, "car": 0, "boat": 0, "airship": 0}


def test_a_displacement_in_the_last_turn_decides_the_tie_break() -> None:
    """"If one of the other players' Expedition Member is already on this Location, take its
    place, give the player their Expedition Member back and your Vehicle token" with "When the
    2 stacks are empty, the end of the game is triggered" and "If tied, you win if you have
    fewer tokens in front of you than the other players have." Rearmost Leaders equal, three
    vehicles each. Seat 0 takes the last token and takes Petra from seat 1, giving it the car:
    seat 0 ends with 3 tokens, seat 1 with 4, and seat 0 wins. Sent to the Great Wall instead
    (no one there), the car goes to the discard area and the two share first place."""
    three = {"train": 1, "car": 1, "airship": 1}

    def edit(observation: dict[str, Any]) -> None:
        last_tokens("boat")(observation)
        set_player(observation, 0, vehicles=three, missions=[], on=[], in_front=3,
                   leaders=[3, 3])
        set_player(observation, 1, vehicles=three, missions=[], on=[PETRA], in_front=2,
                   leaders=[3, 3])

    state = mid_game(edit)
    elsewhere = state.clone()
    play(state, equip(1, 1), go(PETRA, CAR), END_PHASE_1, END_TURN)
    assert obs(state)["end"]["by"] == "stacks"
    assert [p["tokens"] for p in obs(state)["players"]] == [3, 4]
    assert state.ranking() == [0, 1]
    play(elsewhere, equip(1, 1), go(WALL, CAR), END_PHASE_1, END_TURN)
    assert [p["tokens"] for p in obs(elsewhere)["players"]] == [3, 3]
    assert elsewhere.ranking() == [0, 0]


# --- The stacks running out --------------------------------------------------------------------


def test_the_last_token_taken_first_leaves_the_whole_turn_to_play() -> None:
    """"When the 2 stacks are empty, the end of the game is triggered." and "Each turn is
    played clockwise, one player at a time, until ... both token piles are empty." The first
    Equipment action empties both stacks: the other area has nothing to give, but the player
    still sends members with the vehicle just taken, completes a mission in phase 2, and the
    game ends with the turn, its mission counted."""

    def edit(observation: dict[str, Any]) -> None:
        last_tokens("train")(observation)
        set_player(observation, 0, vehicles={"car": 1}, missions=[CHURCH_PETRA], on=[CHURCH],
                   in_front=3, total=4, leaders=[8, 8])
        set_player(observation, 1, leaders=[8, 8], total=4, in_front=4)

    state = mid_game(edit)
    play(state, equip(1, 1))
    assert [stack["count"] for stack in obs(state)["stacks"]] == [0, 0]
    assert not any(12 <= action < 28 for action in state.legal_actions())
    play(state, go(PETRA, TRAIN), END_PHASE_1)
    assert not state.is_terminal()
    play(state, complete(CHURCH_PETRA), retrieve(PETRA))
    assert me(state)["leaders"] == [10, 8] and not state.is_terminal()
    play(state, END_TURN)
    assert obs(state)["end"]["by"] == "stacks"


def test_the_last_token_taken_mission_side_up_can_be_completed_at_once() -> None:
    """"Place that token in front of you, Vehicle side or Mission side up", "During this phase,
    you can complete Missions" and "When the 2 stacks are empty, the end of the game is
    triggered." The last token, a train, is taken mission side up and turns out to be Great
    Wall + Petra; the player's members are there already, so it is completed in the same (last)
    turn and its Leader's move decides the end."""

    def edit(observation: dict[str, Any]) -> None:
        last_tokens("train")(observation)
        set_player(observation, 0, vehicles={}, missions=[], on=[WALL, PETRA], in_front=2,
                   total=4, leaders=[5, 5])
        set_player(observation, 1, leaders=[6, 6], total=4, in_front=4, vehicles={},
                   missions=[])

    state = mid_game(edit)
    play(state, equip(1, 1, side=1))
    force(state, mission_drawn(WALL_PETRA))
    assert [m["id"] for m in me(state)["missions"]] == [WALL_PETRA]
    play(state, END_PHASE_1, complete(WALL_PETRA), retrieve(WALL), END_TURN)
    assert obs(state)["end"]["by"] == "stacks"
    assert me(state)["leaders"] == [5, 7]
    assert state.ranking() == [1, 0]  # rearmost Leaders 5 and 6: seat 1 wins


def test_a_deeper_token_leaves_the_stack_and_the_game_goes_on() -> None:
    """"Move 1, 2, 3 or 4 of your Expedition Members ... to gain respectively the 1st, 2nd, 3rd
    or 4th token of the stack" and "When the 2 stacks are empty, the end of the game is
    triggered." With stack 0 empty and two tokens in stack 1, two members take the 2nd token;
    the 1st stays, the stacks are not both empty, and the next player plays."""
    state = mid_game(last_tokens("train", "car"))
    play(state, equip(1, 2))
    assert obs(state)["stacks"][1] == {"count": 1, "visible": ["train"]}
    assert me(state)["vehicles"]["car"] >= 1
    play(state, END_PHASE_1, END_TURN)
    assert not state.is_terminal() and obs(state)["current_player"] == 1
    assert equip(1, 2) not in state.legal_actions() and equip(1, 1) in state.legal_actions()


def test_the_catch_up_token_is_taken_in_the_last_turn_and_counts_in_the_tie_break() -> None:
    """"take a token of your choice, Vehicle face up, from the discard area" (no "can": the
    player takes one, there is no declining it) with "If tied, you win if you have fewer tokens
    in front of you". In the last turn seat 0's rearmost Leader (slot 2) catches up with seat
    1's (slot 4): the mission token leaves and a catch-up token, which cannot be declined,
    comes in its place; on equal rearmost Leaders seat 1, with fewer tokens, wins."""

    def edit(observation: dict[str, Any]) -> None:
        last_tokens("boat")(observation)
        set_player(observation, 0, vehicles={}, missions=[CHURCH_PETRA], on=[CHURCH, PETRA],
                   in_front=1, leaders=[2, 5])
        set_player(observation, 1, vehicles={"car": 1}, missions=[], on=[], in_front=3,
                   leaders=[4, 4])
        observation["discard"] = {"car": 1, "airship": 2}

    state = mid_game(edit)
    play(state, equip(1, 1), END_PHASE_1, complete(CHURCH_PETRA), retrieve(PETRA))
    assert obs(state)["phase"] == "catch-up-token"
    assert state.legal_actions() == [catch_up(CAR), catch_up(AIRSHIP)]  # no declining
    play(state, catch_up(AIRSHIP), END_TURN)
    assert obs(state)["end"]["by"] == "stacks"
    assert me(state)["leaders"] == [4, 5]
    assert [p["tokens"] for p in obs(state)["players"]] == [2, 1]
    assert state.ranking() == [1, 0]  # rearmost Leaders 4 and 4: seat 1 has fewer tokens


def test_four_players_a_place_taken_twice_in_the_first_round() -> None:
    """"The first player to play can only use only 1 Expedition Member, the second player only
    2 Expedition Members. The third and fourth players can use all 3", with "take its place,
    give the player their Expedition Member back and your Vehicle token meant for discarding".
    Four players, first round: seat 0 sends its one member to Petra; seat 1 takes it (seat 0
    gets its member and a train back); seat 2 takes it from seat 1 (seat 1 gets a car). The
    discard area holds only seat 0's car, and in the next round seat 0 sends all three."""
    state = new_game(4)
    play(state, go(PETRA, CAR), END_PHASE_1, END_TURN)
    play(state, go(PETRA, TRAIN), END_PHASE_1, END_TURN)
    assert me(state, 0)["members_in_front"] == 3 and me(state, 0)["vehicles"]["train"] == 2
    play(state, go(PETRA, CAR))
    assert obs(state)["locations"][PETRA]["member"] == 2
    assert me(state, 1)["members_in_front"] == 3 and me(state, 1)["vehicles"]["car"] == 2
    assert obs(state)["discard"] == {"train": 0, "car": 1, "boat": 0, "airship": 0}
    play(state, END_PHASE_1, END_TURN, END_PHASE_1, END_TURN)  # seats 2 and 3 end
    assert obs(state)["current_player"] == 0 and obs(state)["can_send"] == 3


# --- The documented way to set up a position ---------------------------------------------------


def test_a_position_set_up_with_both_stacks_empty_is_the_last_turn() -> None:
    """README, "Setting up a position": both ``stacks`` at ``count`` 0 make the turn on move the
    last one ("When the 2 stacks are empty, the end of the game is triggered"): the player
    plays it out and the game ends with it, decided by the rearmost Leaders."""

    def edit(observation: dict[str, Any]) -> None:
        last_tokens()(observation)
        set_player(observation, 1, leaders=[2, 2])

    state = mid_game(edit)
    assert not state.is_terminal()
    play(state, END_PHASE_1, END_TURN)
    assert obs(state)["end"]["by"] == "stacks" and state.ranking() == [1, 0]


def test_a_position_set_up_after_a_member_was_sent_allows_no_retrieving() -> None:
    """README: retrieving (ids 0-11 in phase 1) is allowed "while no member has been sent this
    turn: ``sent_this_turn`` 0" ("When this phase starts, you can choose to retrieve some or all
    of your Expedition Members"). The same table rebuilt with one member on an Equipment area
    and ``sent_this_turn`` 1 offers no retrieving; with 0 and no one there, it does."""

    def fresh(observation: dict[str, Any]) -> None:
        set_player(observation, 0, on=[PETRA], in_front=2)

    def one_sent(observation: dict[str, Any]) -> None:
        set_player(observation, 0, on=[PETRA], in_front=1)
        observation["equipment_areas"] = [1, 0]
        observation["sent_this_turn"] = 1
        observation["stacks"][0]["count"] -= 1
        observation["stacks"][0]["visible"].pop(0)

    assert retrieve(PETRA) in mid_game(fresh).legal_actions()
    later = mid_game(one_sent)
    assert obs(later)["sent_this_turn"] == 1
    assert retrieve(PETRA) not in later.legal_actions()
    assert go(PETRA, TRAIN) not in later.legal_actions()  # own member there (ruling 12)


# --- Ruling 25 read literally: the clue tile is the mission's last step --------------------------


def test_ruling_25_the_catch_up_token_is_chosen_before_the_clue_tile_is_taken() -> None:
    """Phase 2 in the rulebook's order: "move the Expedition Leader forward ... If you move
    forward an Expedition Leader whose position was equal or lower to your other Expedition
    Leader's, take a token of your choice ... from the discard area." "Discard the Mission
    token in the discard area." then "If one of your Expedition Leaders gets to a slot with a
    magnifying glass, take a "Clue" tile." The green Leader moves from 3 to 5 (a glass): the
    catch-up token is chosen, the mission discarded, and only then is the clue tile drawn."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[CHURCH_PETRA], on=[CHURCH, PETRA],
                   in_front=1, leaders=[3, 3])
        observation["discard"] = {"car": 1, "airship": 1}

    state = mid_game(edit)
    play(state, END_PHASE_1, complete(CHURCH_PETRA), retrieve(PETRA))
    table = obs(state)
    assert table["phase"] == "catch-up-token" and table["players"][0]["clues"] == 0
    assert table["completing"]["clue_tiles"] == 1
    play(state, catch_up(CAR))
    table = obs(state)
    assert table["phase"] == "draw-clue" and table["completing"] is None
    assert table["discard"] == {"train": 1, "car": 0, "boat": 0, "airship": 1}
    force(state, clue_tile(4))
    assert me(state)["clues"] == 1 and obs(state)["phase"] == "phase-2"


def test_ruling_25_a_winning_move_ends_with_the_mission_done() -> None:
    """The same order on a winning move, with "You have gathered the 4 clues? Well done! ...
    win the game": seat 0 holds 3 clues; its mission takes the orange Leader from 6 to 8 (a
    glass). The lone kind in the discard area is taken, the mission discarded, and the 4th
    clue then ends the game: the winner holds the catch-up token, not the mission."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[WALL_PETRA], on=[WALL, PETRA],
                   in_front=2, total=4, leaders=[7, 6], clues=[1, 2, 3])
        observation["clue_tiles_left"] = 10
        observation["discard"] = {"boat": 2}

    state = mid_game(edit)
    play(state, END_PHASE_1, complete(WALL_PETRA), retrieve(WALL))
    assert obs(state)["phase"] == "draw-clue"
    force(state, clue_tile(9))
    table = obs(state)
    assert table["end"]["by"] == "clues" and table["end"]["winner"] == 0
    assert table["players"][0]["vehicles"]["boat"] == 1 and table["players"][0]["missions"] == []
    assert table["discard"] == {"train": 1, "car": 0, "boat": 1, "airship": 0}
    assert table["completing"] is None and state.ranking() == [0, 1]


def test_ruling_25_a_set_up_catch_up_choice_with_a_clue_tile_still_due() -> None:
    """README, "Setting up a position": ``completing.clue_tiles`` is read, the clue tiles the
    mission still brings once its catch-up token is chosen. Rebuilt at that choice, the
    position draws the tile after it; more tiles than the glasses its Leader reached are
    refused."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[CHURCH_PETRA], on=[CHURCH, PETRA],
                   in_front=1, leaders=[3, 3])
        observation["discard"] = {"car": 1, "airship": 1}

    state = mid_game(edit)
    play(state, END_PHASE_1, complete(CHURCH_PETRA), retrieve(PETRA))
    again = rebuilt(state, lambda observation: None)
    play(again, catch_up(AIRSHIP))
    assert obs(again)["phase"] == "draw-clue"

    def too_many(observation: dict[str, Any]) -> None:
        observation["completing"]["clue_tiles"] = 2  # one glass (slot 5) reached

    with pytest.raises(ValueError, match="clue_tiles"):
        rebuilt(state, too_many)


def test_readme_a_completed_mission_asks_only_the_questions_it_has() -> None:
    """README, "A completed mission, step by step": with its one member-needing location
    (Taj Mahal validated: "Locations with a Validated Location marker ... do not require any
    Expedition Members") the member comes back with no question, a lone kind in the discard
    area is taken with no question, the 4th member comes, and the glass's clue tile is the
    next (chance) node."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[TAJ_ANGKOR], on=[ANGKOR],
                   in_front=2, leaders=[5, 4])
        observation["discard"] = {"airship": 2}

    state = mid_game(edit)
    assert obs(state)["locations"][TAJ]["validated"]
    play(state, END_PHASE_1, complete(TAJ_ANGKOR))
    table = obs(state)
    assert table["phase"] == "draw-clue" and table["players"][0]["leaders"] == [5, 5]
    assert table["players"][0]["members_in_front"] == 3 + 1  # back from Angkor Wat, the 4th
    assert table["players"][0]["members_total"] == 4  # (both Leaders now on slot 4 or beyond)
    assert table["players"][0]["vehicles"]["airship"] == 1 and table["discard"]["boat"] == 1
    force(state, clue_tile(0))
    assert obs(state)["phase"] == "phase-2"
