"""Lost Explorers: a fourth rulebook pass, adversarial black-box scenarios.

Written from the rulebook (``rules/lost-explorers.txt``), the README and RULINGS.md only,
through the public interface (the README's action ids, positions set up by naming chance
outcomes or by editing an observation and rebuilding it with ``state_from_observation``; the
helpers of ``test_lost_explorers_blackbox.py``). Each test quotes the rule it checks and aims
at a corner the earlier passes left open: the vehicles of a route that stay in front, a
completed mission's token coming back as another mission's catch-up token, a displacement and
a mission in one turn, the empty-stacks end decided by the rearmost Leader alone (not clues,
not the foremost Leader), and what a position set up with both Leaders beyond slot 4 brings.
"""

from __future__ import annotations

from typing import Any

from test_lost_explorers_blackbox import (
    AIRSHIP,
    ANGKOR,
    CAR,
    CHURCH,
    END_PHASE_1,
    END_TURN,
    MOAI,
    PETRA,
    TRAIN,
    complete,
    equip,
    go,
    me,
    mid_game,
    obs,
    play,
    rebuilt,
    retrieve,
    set_player,
)

# Shipped missions used below (box.missions): 2 train Orthodox Church + Petra (green),
# 33 boat Taj Mahal + Angkor Wat (orange; Taj Mahal has a marker with 2 players),
# 72 boat Moai + Angkor Wat (a starting mission, green).
CHURCH_PETRA, TAJ_ANGKOR, MOAI_ANGKOR = 2, 33, 72


def last_token(observation: dict[str, Any]) -> None:
    """Stack 0 empty and one train left in stack 1: taking it triggers the end."""
    observation["stacks"] = [{"count": 0, "visible": []}, {"count": 1, "visible": ["train"]}]


def clues_held(observation: dict[str, Any], seat: int, numbers: list[int]) -> None:
    """``seat`` holds clue tiles (numbers in the observer's own), ``clue_tiles_left`` kept."""
    set_player(observation, seat, clues=numbers)
    observation["clue_tiles_left"] = 13 - sum(p["clues"] for p in observation["players"])


def take_the_last_token(state: Any) -> None:
    """The player on move takes the last stack token and ends the turn: the game ends."""
    play(state, equip(1, 1), END_PHASE_1, END_TURN)
    assert obs(state)["end"]["by"] == "stacks"


# --- Phase 1 -------------------------------------------------------------------------------------


def test_the_route_vehicles_not_discarded_stay_and_serve_again() -> None:
    """"You can only do this if you have in front of you ALL the Vehicles (2 or 3) shown by
    the routes ... From the Vehicle tokens you have just used, pick one and discard it" and
    "You can perform this action as many times as you have Expedition Members in front of
    you." The Orthodox Church (train, train, car) costs one train; the other train and the car
    stay in front and take a second member to Petra (car, train), which costs the car."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 2, "car": 1})

    state = mid_game(edit)
    play(state, go(CHURCH, TRAIN))
    assert me(state)["vehicles"] == {"train": 1, "car": 1, "boat": 0, "airship": 0}
    play(state, go(PETRA, CAR))
    assert me(state)["vehicles"] == {"train": 1, "car": 0, "boat": 0, "airship": 0}
    assert obs(state)["discard"] == {"train": 1, "car": 1, "boat": 0, "airship": 0}
    assert sorted(me(state)["members_on_locations"]) == [CHURCH, PETRA]


def test_a_displacement_and_a_mission_on_the_won_location_in_one_turn() -> None:
    """"If one of the other players' Expedition Member is already on this Location, take its
    place, give the player their Expedition Member back and your Vehicle token meant for
    discarding" and, in phase 2, "You must have an Expedition Member on EACH of the Locations
    depicted by the Mission token". Seat 0 takes Petra from seat 1 (seat 1 gets the member and
    the car, the discard area nothing) and completes Orthodox Church + Petra in the same turn."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={"train": 1, "car": 1}, missions=[CHURCH_PETRA],
                   on=[CHURCH], in_front=2)
        set_player(observation, 1, on=[PETRA], in_front=2)

    state = mid_game(edit)
    before = me(state, 1)["vehicles"]["car"]
    play(state, go(PETRA, CAR), END_PHASE_1)
    seat1 = me(state, 1)
    assert seat1["members_in_front"] == 3 and seat1["members_on_locations"] == []
    assert seat1["vehicles"]["car"] == before + 1
    assert obs(state)["discard"]["car"] == 0
    assert complete(CHURCH_PETRA) in state.legal_actions()
    play(state, complete(CHURCH_PETRA), retrieve(PETRA))
    assert me(state)["leaders"] == [3, 1]
    assert obs(state)["locations"][CHURCH]["member"] == 0


# --- Phase 2 -------------------------------------------------------------------------------------


def test_a_completed_missions_token_is_the_next_missions_catch_up_token() -> None:
    """"If you move forward an Expedition Leader whose position was equal or lower to your
    other Expedition Leader's, take a token of your choice, Vehicle face up, from the discard
    area." then "Discard the Mission token in the discard area" and "You can complete several
    missions in one turn." The first mission (the starting boat token) finds the discard area
    empty and takes nothing, then its token is discarded; the second mission's Leader, behind
    the other, takes that boat token back, vehicle side up."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, missions=[MOAI_ANGKOR, TAJ_ANGKOR], on=[MOAI, ANGKOR],
                   in_front=1)

    state = mid_game(edit)
    boats = me(state)["vehicles"]["boat"]
    assert obs(state)["discard"] == {"train": 0, "car": 0, "boat": 0, "airship": 0}
    play(state, END_PHASE_1, complete(MOAI_ANGKOR), retrieve(MOAI))
    assert me(state)["leaders"] == [3, 1] and me(state)["vehicles"]["boat"] == boats
    assert obs(state)["discard"]["boat"] == 1  # the starting token, completed
    play(state, complete(TAJ_ANGKOR))  # Taj Mahal validated: one member, one slot
    assert me(state)["leaders"] == [3, 2]
    assert me(state)["vehicles"]["boat"] == boats + 1
    assert obs(state)["discard"]["boat"] == 1  # now the second mission's token
    assert me(state)["missions"] == [] and me(state)["members_in_front"] == 3


# --- End of the game -----------------------------------------------------------------------------


def test_the_empty_stacks_end_goes_to_the_rearmost_leader_not_to_clues() -> None:
    """"If both token stacks are empty and no player has found the 4 clues, each player's
    least-advanced Expedition Leader is used to establish the winner." Seat 0 holds 3 clues
    (Leaders on 8 and 5), seat 1 only 2 (Leaders on 7 and 6): seat 1's rearmost Leader is
    ahead, so seat 1 wins though ``scores()`` (the clues) are higher for seat 0."""

    def edit(observation: dict[str, Any]) -> None:
        last_token(observation)
        set_player(observation, 0, leaders=[8, 5], total=4, in_front=4)
        set_player(observation, 1, leaders=[7, 6], total=4, in_front=4)
        clues_held(observation, 0, [1, 2, 3])
        clues_held(observation, 1, [9, 10])

    state = mid_game(edit)
    take_the_last_token(state)
    assert state.ranking() == [1, 0]
    assert state.scores() == [3.0, 2.0]
    assert obs(state)["end"]["winner"] is None


def test_the_foremost_leader_does_not_break_a_tie_of_the_rearmost() -> None:
    """"You win the game if that second Expedition Leader is more advanced than that of your
    opponents. If tied, you win if you have fewer tokens in front of you than the other players
    have." Both rearmost Leaders on slot 5: seat 0's other Leader at the end of its track does
    not count; seat 1, with fewer tokens, wins."""

    def edit(observation: dict[str, Any]) -> None:
        last_token(observation)
        set_player(observation, 0, leaders=[12, 5], total=4, in_front=4,
                   vehicles={"car": 1, "boat": 1})
        set_player(observation, 1, leaders=[5, 5], total=4, in_front=4, vehicles={"car": 1})

    state = mid_game(edit)
    take_the_last_token(state)
    tokens = [player["tokens"] for player in obs(state)["players"]]
    assert tokens[1] < tokens[0]
    assert state.ranking() == [1, 0]


def test_three_players_tied_on_both_keys_share_a_place_below_the_winner() -> None:
    """The same sentences with three players: seat 2's rearmost Leader is ahead and it wins;
    seats 0 and 1, equal on the rearmost Leader and on tokens, share the second place."""

    def edit(observation: dict[str, Any]) -> None:
        last_token(observation)
        for seat, leaders, airships in ((0, [3, 4], 1), (1, [4, 3], 2), (2, [5, 4], 1)):
            set_player(observation, seat, leaders=leaders, vehicles={"airship": airships},
                       missions=[])
        set_player(observation, 2, total=4, in_front=4)

    state = mid_game(edit, players=3)
    take_the_last_token(state)  # the train taken goes in front of seat 0
    assert [player["tokens"] for player in obs(state)["players"]] == [2, 2, 1]
    assert state.ranking() == [1, 1, 0]


# --- The 4th member in a position set up -------------------------------------------------------


def test_a_set_up_seat_on_slot_four_without_its_member_gets_it_with_its_next_mission() -> None:
    """"BONUS: If both your Expedition Leaders reach the 4th slot of each track, you can take
    the 4th Expedition Member". In play it comes with the mission that takes the second Leader
    there (RULINGS.md, ruling 21); a scenario may set both Leaders beyond slot 4 and leave
    ``members_total`` at 3 (the earlier scenarios do, to reach an end quickly), and the README
    says what then happens: the member comes with the seat's next completed mission."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, missions=[TAJ_ANGKOR], on=[ANGKOR], in_front=2,
                   leaders=[6, 5])

    state = mid_game(edit)
    assert me(state)["members_total"] == 3
    play(state, END_PHASE_1, complete(TAJ_ANGKOR))
    assert me(state)["leaders"] == [6, 6]
    assert me(state)["members_total"] == 4 and me(state)["members_in_front"] == 4


def test_a_catch_up_choice_before_the_fourth_member_is_accepted() -> None:
    """In play, the one moment both Leaders stand on slot 4 or beyond before the 4th member
    comes: the catch-up token of the mission that took the second Leader there is being chosen
    ("take a token of your choice ... from the discard area", before the bonus). Played to it,
    the observation rebuilds, and the member comes once the token is chosen."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, missions=[CHURCH_PETRA], on=[CHURCH, PETRA], in_front=1,
                   leaders=[2, 4])
        observation["discard"] = {"train": 1, "airship": 1}

    state = mid_game(edit)
    play(state, END_PHASE_1, complete(CHURCH_PETRA), retrieve(PETRA))
    assert obs(state)["phase"] == "catch-up-token"
    assert me(state)["leaders"] == [4, 4] and me(state)["members_total"] == 3
    again = rebuilt(state, lambda observation: None)
    play(again, 158 + AIRSHIP)
    assert me(again)["members_total"] == 4
    assert me(again)["members_in_front"] == 3  # back from Petra, and the 4th member

