"""Blind rule scenarios for Lost Explorers.

Written the way the independent rules team writes them: from the rulebook
(``rules/lost-explorers.txt``) and ``engines/lost_explorers/README.md`` only, through the
public interface (``new_initial_state``, the README's action and chance ids, ``observation``
and ``Game.state_from_observation``). Each test quotes the sentence it checks.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.game import CHANCE, State
from engines.lost_explorers.game import LostExplorersGame

GAME = LostExplorersGame()
VEHICLES = ["train", "car", "boat", "airship"]
TRAIN, CAR, BOAT, AIRSHIP = range(4)
MASK, CHICHEN, SPHINX, CHURCH, TOTEM, MACHU, WALL, TAJ, MOAI, ANGKOR, PETRA, FUJI = range(12)
END_PHASE_1, END_TURN = 76, 157


def equip(area: int, members: int, side: int = 0) -> int:
    return 12 + 8 * area + 2 * (members - 1) + side


def go(location: int, vehicle: int) -> int:
    return 28 + 4 * location + vehicle


def complete(mission: int) -> int:
    return 77 + mission


def catch_up(vehicle: int) -> int:
    return 158 + vehicle


def marker(location: int) -> int:
    return 166 + location


def first(seat: int) -> int:
    return 182 + seat


def reveal(mission: int) -> int:
    return 186 + mission


def clue(tile: int) -> int:
    return 266 + tile


def obs(state: State, seat: int | None = None) -> dict[str, Any]:
    if seat is None:
        seat = max(state.current_player(), 0)
    return state.observation(seat)


def chance(state: State, action: int) -> None:
    assert state.current_player() == CHANCE
    assert action in dict(state.chance_outcomes()), state.action_to_string(action)
    state.apply_action(action)


def setup(players: int, *, first_seat: int = 0, markers: tuple[int, ...] | None = None,
          stop_before_flips: bool = False) -> State:
    """Markers named (else the first ones offered), tokens in the order first offered, the
    first player named, each seat flipping its train with the first mission offered."""
    state = GAME.new_initial_state(players)
    count = {2: 4, 3: 3, 4: 2}[players]
    pool = list(markers) if markers is not None else None
    for i in range(count):
        assert obs(state)["phase"] == "validate-location"
        chance(state, marker(pool[i]) if pool else state.chance_outcomes()[0][0])
    while obs(state)["phase"] == "reveal-vehicle":
        state.apply_action(state.chance_outcomes()[0][0])
    chance(state, first(first_seat))
    if stop_before_flips:
        return state
    while obs(state)["phase"] in ("flip-starting-token", "reveal-mission"):
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(162 + TRAIN)
    return state


def rebuild(state: State, change: Callable[[dict[str, Any]], object]) -> State:
    table = obs(state)
    box = table.pop("box")
    edited = copy.deepcopy(table)
    edited["box"] = box
    change(edited)
    return GAME.state_from_observation(edited, random.Random(0))


def position(players: int = 2, change: Callable[[dict[str, Any]], object] | None = None,
             *, markers: tuple[int, ...] = (SPHINX, CHICHEN, TAJ, FUJI)) -> State:
    """Seat 0 on move in phase 1, past the first round, with every player's vehicles and
    missions cleared (edit them in)."""
    state = setup(players, markers=markers[: {2: 4, 3: 3, 4: 2}[players]])

    def edit(t: dict[str, Any]) -> None:
        t["turn"] = 2 * players
        for p in t["players"]:
            p["vehicles"] = dict.fromkeys(VEHICLES, 0)
            p["missions"] = []
        if change is not None:
            change(t)

    return rebuild(state, edit)


def stand(t: dict[str, Any], seat: int, *locations: int) -> None:
    for location in locations:
        t["locations"][location]["member"] = seat
        t["players"][seat]["members_in_front"] -= 1


def hold(t: dict[str, Any], seat: int, *missions: int) -> None:
    t["players"][seat]["missions"].extend({"id": m} for m in missions)


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "markers"), [(2, 4), (3, 3), (4, 2)])
def test_validated_markers_by_player_count(players: int, markers: int) -> None:
    """"Pick 2, 3 or 4 Validated Location markers at random for respectively 4, 3 or 2
    players\""""
    t = obs(setup(players))
    assert sum(loc["validated"] for loc in t["locations"]) == markers


def test_setup_gives_each_player_one_of_each_starting_token_one_flipped() -> None:
    """"Take 1 token of each type ... Flip one starting token of your choice, Mission side
    up." / "Take 3 of the 4 Expedition Members and both Expedition Leaders" / "Put an
    Expedition Leader on the first slot of each track"."""
    state = setup(3)
    t = obs(state)
    assert [s["count"] for s in t["stacks"]] == [32, 32]
    for p in t["players"]:
        assert sum(p["vehicles"].values()) == 3 and p["vehicles"]["train"] == 0
        assert len(p["missions"]) == 1 and p["missions"][0]["vehicle"] == "train"
        assert (p["members_in_front"], p["members_total"], p["leaders"]) == (3, 3, [1, 1])


def test_starting_flip_is_the_players_choice_of_type() -> None:
    state = setup(2, stop_before_flips=True)
    assert obs(state)["phase"] == "flip-starting-token"
    assert sorted(state.legal_actions()) == [162, 163, 164, 165]
    state.apply_action(162 + AIRSHIP)
    offered = [a - 186 for a, _ in state.chance_outcomes()]
    box = obs(state, 0)["box"]
    assert offered and all(box["missions"][m]["vehicle"] == "airship" for m in offered)
    assert all(m >= box["starting_from"] for m in offered)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_round_member_limits(players: int) -> None:
    """"The first player to play can only use only 1 Expedition Member, the second player
    only 2 Expedition Members. The third and fourth players can use all 3\""""
    state = setup(players, first_seat=1)
    limits = []
    for _ in range(players):
        t = obs(state)
        limits.append((t["current_player"], t["can_send"]))
        state.apply_action(END_PHASE_1)
        state.apply_action(END_TURN)
    assert limits == [((1 + i) % players, min(i + 1, 3)) for i in range(players)]
    assert obs(state)["can_send"] == 3


def test_first_player_cannot_take_two_tokens_in_the_first_turn() -> None:
    state = setup(2)
    state.apply_action(equip(0, 1))
    legal = state.legal_actions()
    assert not [a for a in legal if 12 <= a <= 75]


# --- phase 1: equipment ---------------------------------------------------------------------


def test_k_members_take_the_kth_token_and_lock_the_area() -> None:
    """"Move 1, 2, 3 or 4 of your Expedition Members ... to gain respectively the 1st, 2nd,
    3rd or 4th token" / "Once an Equipment area is occupied, you cannot place more"."""

    def change(t: dict[str, Any]) -> None:
        t["stacks"][0] = {"count": 32,
                          "visible": ["train", "car", "boat"] + ["train"] * 14 + ["car"] * 15}
        t["stacks"][1] = {"count": 31, "visible": ["airship"] * 16 + ["boat"] * 15}

    state = position(2, change)
    assert equip(0, 4) not in state.legal_actions()  # only 3 members in front
    state.apply_action(equip(0, 3))
    t = obs(state)
    assert t["players"][0]["vehicles"]["boat"] == 1
    assert t["stacks"][0]["count"] == 31 and t["stacks"][0]["visible"][:2] == ["train", "car"]
    assert t["players"][0]["members_in_front"] == 0
    assert t["equipment_areas"] == [3, 0]
    assert not [a for a in state.legal_actions() if 12 <= a <= 27]


def test_equipment_areas_one_token_each_per_turn() -> None:
    """"you can only get a maximum of two tokens per turn, one in each of the Equipment
    areas."""
    state = position(2)
    state.apply_action(equip(0, 1))
    legal = [a for a in state.legal_actions() if 12 <= a <= 27]
    assert legal and all(a >= 20 for a in legal)
    state.apply_action(equip(1, 1))
    assert not [a for a in state.legal_actions() if 12 <= a <= 27]


def test_members_come_back_from_the_equipment_areas_at_the_end_of_the_turn() -> None:
    """"Finally, retrieve the Expedition Members on Equipment areas\""""
    state = position(2)
    state.apply_action(equip(0, 2))
    state.apply_action(END_PHASE_1)
    state.apply_action(END_TURN)
    t = obs(state, 0)
    assert t["players"][0]["members_in_front"] == 3 and t["equipment_areas"] == [0, 0]
    assert t["current_player"] == 1


def test_a_short_stack_offers_only_the_tokens_it_holds() -> None:
    """"When a stack is empty, you can no longer take a token from that stack.\""""

    def change(t: dict[str, Any]) -> None:
        t["stacks"][0] = {"count": 1, "visible": ["train"]}
        t["stacks"][1] = {"count": 0, "visible": []}

    state = position(2, change)
    legal = [a for a in state.legal_actions() if 12 <= a <= 27]
    assert sorted(legal) == [equip(0, 1, 0), equip(0, 1, 1)]


def test_token_taken_mission_side_up_reveals_a_mission_of_its_vehicle() -> None:
    """"Place that token in front of you, Vehicle side or Mission side up, without checking
    the Mission side beforehand.\""""

    def change(t: dict[str, Any]) -> None:
        t["stacks"][0]["visible"][0] = "boat"
        t["stacks"][0]["visible"][-1] = "train"

    state = position(2, change)
    state.apply_action(equip(0, 1, 1))
    assert state.current_player() == CHANCE and obs(state)["phase"] == "reveal-mission"
    box = obs(state)["box"]
    offered = [a - 186 for a, _ in state.chance_outcomes()]
    assert offered and all(box["missions"][m]["vehicle"] == "boat" for m in offered)
    state.apply_action(reveal(offered[0]))
    p = obs(state, 0)["players"][0]
    assert [m["id"] for m in p["missions"]] == [offered[0]]
    assert p["vehicles"]["boat"] == 0 and p["tokens"] == 1


# --- phase 1: expedition --------------------------------------------------------------------


def test_expedition_needs_every_vehicle_of_the_route() -> None:
    """"You can only do this if you have in front of you ALL the Vehicles (2 or 3) shown by
    the routes" (African Mask = car, car, boat)."""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["vehicles"] = {"train": 0, "car": 1, "boat": 1, "airship": 0}

    state = position(2, change)
    assert not {go(MASK, CAR), go(MASK, BOAT)} & set(state.legal_actions())

    def more(t: dict[str, Any]) -> None:
        change(t)
        t["players"][0]["vehicles"]["car"] = 2

    state = position(2, more)
    assert {go(MASK, CAR), go(MASK, BOAT)} <= set(state.legal_actions())
    assert go(MASK, TRAIN) not in state.legal_actions()
    state.apply_action(go(MASK, CAR))
    t = obs(state)
    assert t["players"][0]["vehicles"] == {"train": 0, "car": 1, "boat": 1, "airship": 0}
    assert t["discard"]["car"] == 1
    assert t["locations"][MASK]["member"] == 0
    assert t["players"][0]["members_on_locations"] == [MASK]


def test_vehicles_are_kept_for_several_expeditions() -> None:
    """"From the Vehicle tokens you have just used, pick one and discard it" / "You can
    perform this action as many times as you have Expedition Members in front of you.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["vehicles"] = {"train": 1, "car": 2, "boat": 1, "airship": 1}

    state = position(2, change)
    state.apply_action(go(PETRA, CAR))  # car + train, a car discarded
    state.apply_action(go(WALL, AIRSHIP))  # train + car + airship, the same train and car
    t = obs(state)
    assert t["players"][0]["vehicles"] == {"train": 1, "car": 1, "boat": 1, "airship": 0}
    assert t["players"][0]["members_on_locations"] == [WALL, PETRA]
    assert t["discard"] == {"train": 0, "car": 1, "boat": 0, "airship": 1}


def test_no_member_to_a_validated_location() -> None:
    """"Expedition Members can never be moved to a Location that has a Validated Location
    marker!\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["vehicles"] = {"train": 2, "car": 2, "boat": 2, "airship": 2}

    state = position(2, change)
    validated = [loc["id"] for loc in obs(state)["locations"] if loc["validated"]]
    assert validated
    for location in validated:
        assert not {go(location, v) for v in range(4)} & set(state.legal_actions())


def test_taking_anothers_place_returns_member_and_gives_the_discarded_token() -> None:
    """"take its place, give the player their Expedition Member back and your Vehicle token
    meant for discarding (Vehicle side up)."""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["vehicles"] = {"train": 0, "car": 2, "boat": 1, "airship": 0}
        stand(t, 1, MASK)

    state = position(2, change)
    state.apply_action(go(MASK, BOAT))
    t = obs(state)
    assert t["locations"][MASK]["member"] == 0
    assert t["players"][1]["members_in_front"] == 3
    assert t["players"][1]["vehicles"]["boat"] == 1
    assert t["discard"]["boat"] == 0
    assert t["players"][0]["vehicles"] == {"train": 0, "car": 2, "boat": 0, "airship": 0}


def test_retrieving_from_the_map_only_before_sending() -> None:
    """"When this phase starts, you can choose to retrieve some or all of your Expedition
    Members from Locations\""""

    def change(t: dict[str, Any]) -> None:
        stand(t, 0, MASK, PETRA)

    state = position(2, change)
    assert {MASK, PETRA} <= set(state.legal_actions())
    state.apply_action(MASK)
    assert obs(state)["players"][0]["members_in_front"] == 2
    state.apply_action(equip(0, 1))
    assert PETRA not in state.legal_actions()


def test_cannot_retrieve_another_players_member() -> None:
    state = position(2, lambda t: stand(t, 1, MASK))
    assert MASK not in state.legal_actions()


# --- phase 2 --------------------------------------------------------------------------------


def test_mission_needs_a_member_on_each_location() -> None:
    """"You must have an Expedition Member on EACH of the Locations depicted\""""

    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 32)  # boat: Machu Picchu, Moai
        stand(t, 0, MACHU)
        stand(t, 1, MOAI)

    state = position(2, change)
    state.apply_action(END_PHASE_1)
    assert complete(32) not in state.legal_actions()


def complete_32(extra: Callable[[dict[str, Any]], object] | None = None) -> State:
    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 32)  # boat, Machu Picchu + Moai, track 0
        stand(t, 0, MACHU, MOAI)
        if extra:
            extra(t)

    state = position(2, change)
    state.apply_action(END_PHASE_1)
    state.apply_action(complete(32))
    return state


def test_completing_moves_the_leader_by_members_and_retrieves_one() -> None:
    """"Retrieve one of your Expedition Members ... You can choose which" / "move the
    Expedition Leader forward on the color track matching the Mission completed, by a number
    of slots equal to the number of Expedition Members needed" / "Discard the Mission
    token\""""
    state = complete_32()
    assert obs(state)["phase"] == "retrieve-member"
    assert sorted(state.legal_actions()) == [MACHU, MOAI]
    state.apply_action(MOAI)
    t = obs(state)
    p = t["players"][0]
    assert p["leaders"] == [3, 1]
    assert p["members_on_locations"] == [MACHU] and p["members_in_front"] == 2
    assert p["missions"] == [] and t["completed_missions"] == [32]
    assert t["discard"]["boat"] == 1
    assert t["phase"] == "phase-2"


def test_validated_location_needs_no_member_and_is_worth_one_fewer() -> None:
    """"Locations with a Validated Location marker ... are automatically validated" /
    "Missions involving Locations with a Validated Place marker ... are worth one fewer
    point.\""""

    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 36)  # boat: Chichen Itza (validated) + Angkor Wat, track 0
        stand(t, 0, ANGKOR)

    state = position(2, change)
    assert obs(state)["locations"][CHICHEN]["validated"]
    state.apply_action(END_PHASE_1)
    state.apply_action(complete(36))
    t = obs(state)
    assert t["players"][0]["leaders"] == [2, 1]
    assert t["players"][0]["members_on_locations"] == []


def test_catch_up_token_when_the_leader_was_not_ahead() -> None:
    """"If you move forward an Expedition Leader whose position was equal or lower to your
    other Expedition Leader's, take a token of your choice, Vehicle face up, from the discard
    area.\""""

    def extra(t: dict[str, Any]) -> None:
        t["discard"] = {"train": 1, "car": 0, "boat": 0, "airship": 2}

    state = complete_32(extra)
    state.apply_action(MOAI)
    assert obs(state)["phase"] == "catch-up-token"
    assert sorted(state.legal_actions()) == [catch_up(TRAIN), catch_up(AIRSHIP)]
    state.apply_action(catch_up(AIRSHIP))
    t = obs(state)
    assert t["players"][0]["vehicles"]["airship"] == 1
    assert t["discard"] == {"train": 1, "car": 0, "boat": 1, "airship": 1}


def test_no_catch_up_token_when_the_leader_was_ahead() -> None:
    def extra(t: dict[str, Any]) -> None:
        t["discard"] = {"train": 1, "car": 0, "boat": 0, "airship": 2}
        t["players"][0]["leaders"] = [2, 1]

    state = complete_32(extra)
    state.apply_action(MOAI)
    t = obs(state)
    assert t["phase"] == "phase-2" and t["players"][0]["leaders"] == [4, 1]
    assert sum(t["players"][0]["vehicles"].values()) == 0


@pytest.mark.parametrize(("discard", "phase", "gets"), [
    ({"train": 0, "car": 2, "boat": 0, "airship": 0}, "phase-2", "car"),
    ({"train": 0, "car": 0, "boat": 0, "airship": 0}, "phase-2", None),
])
def test_catch_up_with_one_kind_or_none(discard: dict[str, int], phase: str,
                                        gets: str | None) -> None:
    """README: a lone kind is taken without a question, an empty area gives none."""
    state = complete_32(lambda t: t.__setitem__("discard", discard))
    state.apply_action(MOAI)
    t = obs(state)
    assert t["phase"] == phase
    vehicles = t["players"][0]["vehicles"]
    assert sum(vehicles.values()) == (1 if gets else 0)
    if gets:
        assert vehicles[gets] == 1


def test_both_leaders_on_slot_four_bring_the_fourth_member() -> None:
    """"BONUS: If both your Expedition Leaders reach the 4th slot of each track, you can take
    the 4th Expedition Member\""""

    def extra(t: dict[str, Any]) -> None:
        t["players"][0]["leaders"] = [2, 4]

    state = complete_32(extra)
    state.apply_action(MOAI)
    t = obs(state)
    if t["phase"] == "catch-up-token":
        state.apply_action(state.legal_actions()[0])
        t = obs(state)
    p = t["players"][0]
    assert p["leaders"] == [4, 4]
    assert p["members_total"] == 4 and p["members_in_front"] == 3


def test_magnifying_glass_gives_a_clue_seen_only_by_its_owner() -> None:
    """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
    "Clue" tile." -- which tile is known to its owner only."""

    def extra(t: dict[str, Any]) -> None:
        t["players"][0]["leaders"] = [4, 6]

    state = complete_32(extra)
    state.apply_action(MOAI)
    assert obs(state)["phase"] == "draw-clue"
    chance(state, clue(6))
    mine, theirs = obs(state, 0), obs(state, 1)
    assert mine["players"][0]["clues"] == 1 and mine["my_clues"] == [
        mine["box"]["clue_numbers"][6]]
    assert theirs["players"][0]["clues"] == 1 and theirs["my_clues"] == []
    assert theirs["clue_tiles_left"] == 12


def test_passing_two_glasses_draws_two_clues() -> None:
    """README: a Leader reaching or passing a glass takes a tile (ruling 19)."""

    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 41)  # boat: Mask, Totem, Moai, track 1
        stand(t, 0, MASK, TOTEM, MOAI)
        t["players"][0]["leaders"] = [9, 7]

    state = position(2, change)
    state.apply_action(END_PHASE_1)
    state.apply_action(complete(41))
    state.apply_action(MASK)
    draws = 0
    while obs(state)["phase"] == "draw-clue":
        state.apply_action(state.chance_outcomes()[0][0])
        draws += 1
    assert draws == 1  # 7 -> 10 passes the glass on 8 only
    assert obs(state)["players"][0]["leaders"] == [9, 10]


def test_several_missions_in_one_turn() -> None:
    """"You can complete several missions in one turn. But do not forget to remove your
    Expedition Member from the World Map for every completed mission.\""""

    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 32, 34)  # Machu+Moai (track 0); Machu+Taj (validated), track 0
        stand(t, 0, MACHU, MOAI)
        t["players"][0]["leaders"] = [1, 9]

    state = position(2, change)
    state.apply_action(END_PHASE_1)
    state.apply_action(complete(34))  # one member needed: Machu comes back at once
    t = obs(state)
    assert t["players"][0]["members_on_locations"] == [MOAI]
    assert complete(32) not in state.legal_actions()  # Machu is empty now


# --- end of the game ------------------------------------------------------------------------


def test_fourth_clue_wins_at_once() -> None:
    """"You have gathered the 4 clues? Well done! ... win the game. Add the 4 numbers\""""

    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 32)
        stand(t, 0, MACHU, MOAI)
        t["players"][0]["leaders"] = [3, 1]
        t["players"][0]["clues"] = 3
        t["players"][0]["clue_numbers"] = [1, 2, 3]
        t["my_clues"] = [1, 2, 3]
        t["clue_tiles_left"] = 10

    state = position(2, change)
    state.apply_action(END_PHASE_1)
    state.apply_action(complete(32))
    state.apply_action(MOAI)
    if obs(state)["phase"] == "catch-up-token":
        state.apply_action(state.legal_actions()[0])
    chance(state, clue(12))
    assert state.is_terminal()
    end = obs(state, 1)["end"]
    assert end["by"] == "clues" and end["winner"] == 0 and end["clue_sum"] == 1 + 2 + 3 + 13
    ranking, scores = list(state.ranking()), list(state.scores())
    assert (ranking[0], scores[0]) == (0, 4)


def test_empty_stacks_end_after_the_turn_rearmost_leader_wins() -> None:
    """"If both token stacks are empty and no player has found the 4 clues, each player's
    least-advanced Expedition Leader is used to establish the winner.\""""

    def change(t: dict[str, Any]) -> None:
        t["stacks"] = [{"count": 0, "visible": []}, {"count": 0, "visible": []}]
        t["players"][0]["leaders"] = [12, 3]
        t["players"][1]["leaders"] = [4, 4]
        t["players"][2]["leaders"] = [5, 2]

    state = position(3, change)
    assert not state.is_terminal()
    state.apply_action(END_PHASE_1)
    state.apply_action(END_TURN)
    assert state.is_terminal()
    assert obs(state, 0)["end"]["by"] == "stacks" and obs(state, 0)["end"]["winner"] is None
    assert list(state.ranking()) == [1, 0, 2]


def test_empty_stacks_tie_goes_to_fewer_tokens() -> None:
    """"If tied, you win if you have fewer tokens in front of you than the other players
    have.\""""

    def change(t: dict[str, Any]) -> None:
        t["stacks"] = [{"count": 0, "visible": []}, {"count": 0, "visible": []}]
        t["players"][0]["leaders"] = [6, 6]
        t["players"][1]["leaders"] = [6, 9]
        t["players"][2]["leaders"] = [6, 7]
        t["players"][0]["vehicles"]["car"] = 3
        t["players"][1]["vehicles"]["car"] = 1
        hold(t, 1, 32)
        t["players"][2]["vehicles"]["boat"] = 1

    state = position(3, change)
    state.apply_action(END_PHASE_1)
    state.apply_action(END_TURN)
    assert state.is_terminal()
    assert list(state.ranking()) == [2, 1, 0]


def test_emptying_the_last_stack_plays_the_turn_out() -> None:
    """"When the 2 stacks are empty, the end of the game is triggered." The turn that takes
    the last token goes on (README)."""

    def change(t: dict[str, Any]) -> None:
        t["stacks"] = [{"count": 1, "visible": ["car"]}, {"count": 0, "visible": []}]
        t["players"][0]["vehicles"] = {"train": 0, "car": 1, "boat": 0, "airship": 0}

    state = position(2, change)
    state.apply_action(equip(0, 1))
    assert not state.is_terminal()
    assert go(SPHINX, CAR) not in state.legal_actions()
    assert go(PETRA, CAR) not in state.legal_actions()  # Petra is car + train
    state.apply_action(END_PHASE_1)
    state.apply_action(END_TURN)
    assert state.is_terminal()


def test_play_goes_clockwise_in_four_players() -> None:
    """"Each turn is played clockwise, one player at a time\""""
    state = position(4)
    order = []
    for _ in range(5):
        order.append(state.current_player())
        state.apply_action(END_PHASE_1)
        state.apply_action(END_TURN)
    assert order == [0, 1, 2, 3, 0]


def test_other_players_missions_are_public_but_stack_missions_hidden() -> None:
    """Stack tokens show their vehicle side only (README: `stacks` list vehicles); missions
    in front of players are public."""

    def change(t: dict[str, Any]) -> None:
        hold(t, 1, 32)

    state = position(2, change)
    t = obs(state, 0)
    assert [m["id"] for m in t["players"][1]["missions"]] == [32]
    assert all(set(s) == {"count", "visible"} for s in t["stacks"])


# --- more corners ---------------------------------------------------------------------------


def test_catch_up_when_the_leader_was_behind() -> None:
    """"whose position was equal or lower to your other Expedition Leader's\""""

    def extra(t: dict[str, Any]) -> None:
        t["discard"] = {"train": 0, "car": 0, "boat": 0, "airship": 1}
        t["players"][0]["leaders"] = [1, 3]

    state = complete_32(extra)
    state.apply_action(MOAI)
    t = obs(state)
    assert t["players"][0]["leaders"] == [3, 3]
    assert t["players"][0]["vehicles"]["airship"] == 1


def test_no_sending_in_phase_two_and_no_completing_in_phase_one() -> None:
    """"you first send your Expedition Members ... then you complete your missions\""""

    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 32)
        stand(t, 0, MACHU, MOAI)
        t["players"][0]["vehicles"] = {"train": 1, "car": 1, "boat": 0, "airship": 0}

    state = position(2, change)
    assert complete(32) not in state.legal_actions()
    assert go(PETRA, CAR) in state.legal_actions()
    state.apply_action(END_PHASE_1)
    assert complete(32) in state.legal_actions()
    assert not [a for a in state.legal_actions() if 12 <= a <= 75]


def test_the_fourth_member_can_be_sent_next_turn() -> None:
    """"you can take the 4th Expedition Member ... and place it in front of you.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["leaders"] = [4, 4]
        t["players"][0]["members_total"] = 4
        t["players"][0]["members_in_front"] = 4

    state = position(2, change)
    assert obs(state)["can_send"] == 4
    assert equip(0, 4) in state.legal_actions()
    state.apply_action(equip(0, 4))
    assert obs(state)["players"][0]["members_in_front"] == 0


def test_second_player_first_turn_limit_counts_expeditions_too() -> None:
    """"the second player only 2 Expedition Members\""""
    state = setup(2)
    state.apply_action(END_PHASE_1)
    state.apply_action(END_TURN)

    def change(t: dict[str, Any]) -> None:
        t["players"][1]["vehicles"] = {"train": 2, "car": 2, "boat": 2, "airship": 2}

    state = rebuild(state, change)
    assert obs(state)["can_send"] == 2
    state.apply_action(go(PETRA, CAR))
    state.apply_action(go(MOAI, BOAT))
    assert obs(state)["can_send"] == 0
    assert not [a for a in state.legal_actions() if 12 <= a <= 75]


def test_another_seats_clue_numbers_never_reach_my_observation() -> None:
    """The clue tiles are secret to their owner: two tables that differ only in which tiles
    seat 1 holds look the same to seat 0 (observation and tensor)."""

    def with_tiles(tiles: list[int]) -> State:
        def change(t: dict[str, Any]) -> None:
            t["players"][1]["clues"] = 2
            t["players"][1]["clue_numbers"] = tiles
            t["clue_tiles_left"] = 11

        return position(2, change)

    a, b = with_tiles([1, 2]), with_tiles([12, 13])
    assert obs(a, 1)["my_clues"] != obs(b, 1)["my_clues"]
    assert obs(a, 0) == obs(b, 0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.observation_tensor(1) != b.observation_tensor(1)


def test_a_leader_stops_at_the_end_of_its_track() -> None:
    """The track ends (README: `length`); a Leader moved past it stops on the last slot and
    takes the glass there."""

    def change(t: dict[str, Any]) -> None:
        hold(t, 0, 41)  # 3 locations, track 1
        stand(t, 0, MASK, TOTEM, MOAI)
        t["players"][0]["leaders"] = [1, 14]

    state = position(2, change)
    length = obs(state)["tracks"][1]["length"]
    assert length == 15 and length in obs(state)["tracks"][1]["glasses"]
    state.apply_action(END_PHASE_1)
    state.apply_action(complete(41))
    state.apply_action(MASK)
    draws = 0
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
        draws += 1
    assert obs(state, 0)["players"][0]["leaders"] == [1, 15]
    assert draws == 1 and obs(state, 0)["players"][0]["clues"] == 1


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    def change(t: dict[str, Any]) -> None:
        t["players"][0]["vehicles"] = {"train": 0, "car": 2, "boat": 0, "airship": 0}

    state = position(2, change)
    before = obs(state)
    for bad in (go(SPHINX, CAR), go(MASK, CAR), complete(0), END_TURN, 186, 279, -1):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert obs(state) == before


@pytest.mark.parametrize(("field", "edit"), [
    ("leaders", lambda t: t["players"][0].__setitem__("leaders", [1, 99])),
    ("members", lambda t: t["players"][0].__setitem__("members_in_front", 2)),
    ("validated", lambda t: t["locations"][MASK].__setitem__("validated", True)),
    ("clues", lambda t: t["players"][1].__setitem__("clues", 4)),
    ("stacks", lambda t: t["stacks"][0].__setitem__("count", 33)),
    ("member", lambda t: (t["locations"][SPHINX].__setitem__("member", 1),
                          t["players"][1].__setitem__("members_in_front", 2))),
])
def test_impossible_positions_are_refused_naming_the_field(
        field: str, edit: Callable[[dict[str, Any]], object]) -> None:
    """README: "An edit that no table can show is refused with a `ValueError` naming the
    field"."""
    with pytest.raises(ValueError, match=field):
        position(2, edit)
