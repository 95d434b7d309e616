"""Blind rule scenarios for Lost Valley of the Dinosaurs.

Written the way the independent rules team writes them: from the rulebook
(``rules/lost-valley-of-the-dinosaurs.txt``) and ``engines/dinosaurs/README.md`` (with the
rules page it points to) only, through the public interface: ``new_initial_state``, the
README's action and chance ids, ``observation`` and ``Game.state_from_observation`` on an
edited observation. Each test quotes the sentence it checks. Spaces are named from the shipped
board (``board.names``/``terrain``/``neighbors`` in the observation).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.game import CHANCE, Game, State
from arena.plugins import require_registry

GAME = "lost-valley-of-the-dinosaurs"
KINDS = ["volcano", "pteranodon", "swamp-monster", "falls-into-swamp", "escape-swamp",
         "restless", "undergrowth", "grazing", "danger-ahead", "dinosaur-attack",
         "dinosaurs-fight", "short-of-water", "secret-path", "gun"]
STEP_OUT, DONE = 160, 161
OUTSIDE, DEAD = -1, -2


def game() -> Game:
    return require_registry().game(GAME)


def explorer(seat: int, k: int) -> int:
    return 162 + 4 * seat + k


def dinosaur(d: int) -> int:
    return 178 + d


def fire(d: int) -> int:
    return 184 + d


def secret_path(k: int) -> int:
    return 190 + k


def obs(state: State, seat: int = 0) -> dict[str, Any]:
    return state.observation(seat)


def draw(state: State, kind: str) -> None:
    assert obs(state)["phase"] == "draw"
    state.apply_action(194 + KINDS.index(kind))


def die(state: State, face: int) -> None:
    assert state.current_player() == CHANCE, obs(state)["phase"]
    state.apply_action(207 + face)


def dice(state: State, total: int) -> None:
    assert state.current_player() == CHANCE, obs(state)["phase"]
    state.apply_action(212 + total)


def position(players: int = 2, change: Callable[[dict[str, Any]], object] | None = None, *,
             first: int = 0, coins: int = 1) -> State:
    """The first draw of seat ``first``, the table edited by ``change``."""
    state = game().new_initial_state(players, {"coins": coins})
    state.apply_action(225 + first)
    table = obs(state)
    board = table.pop("board")
    edited = copy.deepcopy(table)
    edited["board"] = board
    if change is not None:
        change(edited)
    return game().state_from_observation(edited, random.Random(0))


def phase(state: State) -> str:
    return str(obs(state)["phase"])


def where(state: State, seat: int, k: int) -> int:
    return int(obs(state)["players"][seat]["explorers"][k])


def put(t: dict[str, Any], seat: int, k: int, space: int, carrying: bool = False) -> None:
    t["players"][seat]["explorers"][k] = space
    if carrying:
        t["players"][seat]["carrying"][k] = True
        t["temple_coins"] -= 1


def quiet_card(state: State) -> None:
    """Dinosaurs Fight with no captive anywhere: "ignore the effects and discard"."""
    draw(state, "dinosaurs-fight")


def edits(*changes: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], None]:
    """Several edits of the table, one after the other."""

    def change(t: dict[str, Any]) -> None:
        for one in changes:
            one(t)

    return change


def board() -> dict[str, Any]:
    table: dict[str, Any] = obs(position())["board"]
    return table


BOARD = board()
NAME = {name: i for i, name in enumerate(BOARD["names"])}
LAIRS = list(BOARD["lairs"])
SLOPE = list(BOARD["volcano_slope"])
G = int(BOARD["lava_start"])
TEMPLE = int(BOARD["temple"])


# --- setup ----------------------------------------------------------------------------------


def test_setup() -> None:
    """"Place one Tyrannosaurus in each lair space. Place the swamp monster on one of the
    swamp spaces marked with a grey arrow. Place all Treasure Coins on the top of the temple
    roof. ... Players place their four explorers next to the entry spaces\""""
    t = obs(position(4))
    assert sorted(t["dinosaurs"]) == sorted(LAIRS)
    assert t["swamp_monster"] in BOARD["swamp_ring"]
    assert t["temple_coins"] == 12 and t["coins"] == []
    assert t["deck_count"] == 54 and t["bullet_supply"] == 12 and t["lava_placed"] == 0
    assert all(p["explorers"] == [OUTSIDE] * 4 for p in t["players"])
    assert t["deck"] == {"volcano": 7, "pteranodon": 6, "swamp-monster": 6,
                         "falls-into-swamp": 6, "escape-swamp": 1, "restless": 6,
                         "undergrowth": 5, "grazing": 4, "danger-ahead": 3,
                         "dinosaur-attack": 1, "dinosaurs-fight": 3, "short-of-water": 2,
                         "secret-path": 2, "gun": 2}


def test_the_table_is_the_same_for_every_seat() -> None:
    state = position(3)
    views = [obs(state, s) for s in range(3)]
    for v in views:
        v.pop("seat")
    assert views[0] == views[1] == views[2]


# --- explorer movement ----------------------------------------------------------------------


def test_entering_the_valley_first_step_on_an_entry() -> None:
    """"They may enter or leave the valley by any of the four arrows.\""""
    state = position()
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 3)
    assert sorted(state.legal_actions()) == sorted(BOARD["entries"])


def test_a_carrier_throws_two_dice() -> None:
    """"An explorer carrying treasure moves on the throw of two dice.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b5"], carrying=True))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    assert sorted(a for a, _ in state.chance_outcomes()) == list(range(214, 225))


def test_in_a_river_the_explorer_moves_one_space_without_dice() -> None:
    """"Explorers move only 1 space if they start their turn in a river or the swamp.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b8"]))  # river
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    assert state.current_player() == 0 and phase(state) == "move-step"
    assert obs(state)["now"]["steps_left"] == 1
    state.apply_action(NAME["b7"])
    assert where(state, 0, 0) == NAME["b7"]


def test_wading_into_a_river_ends_the_turn() -> None:
    """"If an explorer wades across a river, their turn ends in the water regardless of any
    movement points left.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["a7"]))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 4)
    assert NAME["a8"] in state.legal_actions()  # river
    state.apply_action(NAME["a8"])
    t = obs(state)
    assert t["phase"] == "draw" and t["player"] == 1
    assert where(state, 0, 0) == NAME["a8"]


def test_a_crossing_is_crossed_with_a_normal_roll() -> None:
    """"Cross at these places with a normal dice-roll.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["c7"]))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 2)
    state.apply_action(NAME["c8"])  # crossing
    assert phase(state) == "move-step" and obs(state)["now"]["steps_left"] == 1
    state.apply_action(NAME["c9"])
    assert where(state, 0, 0) == NAME["c9"]


def test_blocked_spaces_are_never_offered() -> None:
    """"They may not move into a space occupied by a dinosaur" / "No explorer or dinosaur
    may land on, or pass over a space occupied by lava.\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["e9"])
        t["lava"] = [*SLOPE, G]  # G is d9, beside e9
        t["lava_placed"] = 7
        t["dinosaurs"][1] = NAME["e10"]

    state = position(change=change)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 1)
    legal = set(state.legal_actions())
    assert G not in legal and NAME["e10"] not in legal
    assert {NAME["d8"], NAME["e8"], NAME["f8"], NAME["f9"]} <= legal


def test_no_step_into_a_lair_or_the_swamp() -> None:
    """"Explorers may not move into a dinosaur's lair or into the swamp.\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["c5"])  # footprint beside the lair d5
        t["dinosaurs"][1] = NAME["d12"] if NAME["d12"] not in t["dinosaurs"] else 0
        put(t, 0, 1, NAME["i5"])  # beside the swamp's exit arrow i4

    state = position(change=change)
    assert obs(state)["dinosaurs"][1] != NAME["d5"]
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 1)
    assert NAME["d5"] not in state.legal_actions()
    state = position(change=change)
    quiet_card(state)
    state.apply_action(explorer(0, 1))
    die(state, 1)
    assert NAME["i4"] not in state.legal_actions()
    assert NAME["i5"] not in state.legal_actions()


def test_never_into_a_space_already_travelled_into_that_turn() -> None:
    """"They may go in any direction, but never into a space already traveled into that
    turn.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b4"]))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 3)
    state.apply_action(NAME["b5"])
    state.apply_action(NAME["b6"])
    assert NAME["b5"] not in state.legal_actions()


def test_explorers_may_share_spaces() -> None:
    """"Explorers may share spaces.\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["b4"])
        put(t, 1, 0, NAME["b5"])

    state = position(change=change)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 1)
    assert NAME["b5"] in state.legal_actions()


# --- temple and treasure --------------------------------------------------------------------


def test_temple_needs_no_exact_roll_gives_a_coin_and_ends_the_turn() -> None:
    """"An exact dice roll isn't needed to enter, but your turn will end.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["e6"]))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 5)
    state.apply_action(TEMPLE)
    t = obs(state)
    assert t["players"][0]["carrying"][0] and t["temple_coins"] == 11
    assert t["phase"] == "draw" and t["player"] == 1


def test_one_coin_at_a_time() -> None:
    """"Each explorer may carry only one coin at a time.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["e6"], carrying=True))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    dice(state, 5)
    state.apply_action(TEMPLE)
    t = obs(state)
    assert t["temple_coins"] == 11 and t["players"][0]["carrying"] == [True, False, False, False]


def test_the_coin_out_of_the_valley_wins_the_short_game() -> None:
    """"Short game: To be the first to get 1 treasure coin out of the valley." / "They
    don't need an exact die roll ... to exit the valley.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b5"], carrying=True))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    dice(state, 9)
    state.apply_action(NAME["a5"])  # entry
    assert STEP_OUT in state.legal_actions()
    state.apply_action(STEP_OUT)
    assert state.is_terminal()
    t = obs(state)
    assert (t["winner"], t["end_reason"]) == (0, "coins")
    assert t["turn"] == 0  # README: the winning turn is not counted
    assert list(state.scores()) == [1, 0] and list(state.ranking()) == [0, 1]


def test_long_game_needs_three_and_the_explorer_returns() -> None:
    """"They will need to carry it out of the valley, then return to claim another (if you
    are playing the long game).\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["a5"], carrying=True), coins=3)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    dice(state, 4)
    state.apply_action(STEP_OUT)
    assert not state.is_terminal()
    p = obs(state)["players"][0]
    assert (p["coins_out"], p["explorers"][0], p["carrying"][0]) == (1, OUTSIDE, False)


def test_abandoned_coin_is_claimed_by_exact_count_only() -> None:
    """"An explorer may claim abandoned treasure by landing on it by exact count.\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["b4"])
        t["coins"] = [[NAME["b6"], 1]]
        t["temple_coins"] -= 1

    state = position(change=change)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 3)
    state.apply_action(NAME["b5"])
    state.apply_action(NAME["b6"])
    state.apply_action(NAME["b7"])
    t = obs(state)
    assert not t["players"][0]["carrying"][0] and t["coins"] == [[NAME["b6"], 1]]

    state = position(change=change)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 2)
    state.apply_action(NAME["b5"])
    state.apply_action(NAME["b6"])
    t = obs(state)
    assert t["players"][0]["carrying"][0] and t["coins"] == []


def test_no_stealing_a_coin_by_landing_on_its_carrier() -> None:
    """"If one of your explorers lands on another explorer carrying a coin, you may NOT
    steal it from him.\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["b4"])
        put(t, 1, 0, NAME["b6"], carrying=True)

    state = position(change=change)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 2)
    state.apply_action(NAME["b5"])
    state.apply_action(NAME["b6"])
    t = obs(state)
    assert not t["players"][0]["carrying"][0] and t["players"][1]["carrying"][0]


# --- volcano --------------------------------------------------------------------------------


def test_first_eruptions_go_down_the_slope_one_piece_each() -> None:
    """"One piece is placed (per turn) down the slope until reaching the valley" / "The first
    lava piece (A) is placed in the tip of the volcanic cone, then the next 5 pieces (B - F)."""
    state = position()
    draw(state, "volcano")
    assert obs(state)["lava"] == [SLOPE[0]] and obs(state)["lava_placed"] == 1

    def six(t: dict[str, Any]) -> None:
        t["lava"] = list(SLOPE)
        t["lava_placed"] = 6

    state = position(change=six)
    draw(state, "volcano")
    assert sorted(obs(state)["lava"]) == sorted([*SLOPE, G])


def test_valley_eruption_places_three_adjacent_pieces() -> None:
    """"In the valley, the lava pieces must connect to adjacent lava pieces" / "can occupy
    any space EXCEPT the swamp.\""""

    def seven(t: dict[str, Any]) -> None:
        t["lava"] = [*SLOPE, G]
        t["lava_placed"] = 7

    state = position(change=seven)
    draw(state, "volcano")
    for _ in range(3):
        assert phase(state) == "lava-place"
        lava = set(obs(state)["lava"]) - set(SLOPE)
        for space in state.legal_actions():
            assert set(BOARD["neighbors"][space]) & lava
            assert BOARD["terrain"][space] not in ("swamp", "inner-swamp")
        state.apply_action(state.legal_actions()[0])
    assert obs(state)["lava_placed"] == 10


def test_lava_on_an_explorer_kills_it_and_the_coin_stays() -> None:
    """"If lava is placed on a space with an explorer, they die and are removed from the
    game." / treasure is left on the space (README: a coin lying under lava stays)."""

    def change(t: dict[str, Any]) -> None:
        t["lava"] = [*SLOPE, G]
        t["lava_placed"] = 7
        put(t, 1, 0, NAME["d10"], carrying=True)

    state = position(change=change)
    draw(state, "volcano")
    state.apply_action(NAME["d10"])
    t = obs(state)
    assert t["players"][1]["explorers"][0] == DEAD and t["players"][1]["alive"] == 3
    assert [NAME["d10"], 1] in t["coins"]


def test_after_thirty_pieces_three_are_repositioned() -> None:
    """"When all 30 pieces of lava have been placed on the board, you may then reposition
    three pieces of lava on empty spaces adjacent to other lava pieces\""""
    lava = [*SLOPE, G]
    frontier = [G]
    while len(lava) < 30:
        space = frontier.pop(0)
        for n in BOARD["neighbors"][space]:
            if n in BOARD["lava_spaces"] and n not in lava and len(lava) < 30:
                lava.append(n)
                frontier.append(n)

    def change(t: dict[str, Any]) -> None:
        t["lava"] = lava
        t["lava_placed"] = 30
        t["dinosaurs"] = [d for d in t["dinosaurs"]]

    state = position(change=change)
    draw(state, "volcano")
    assert phase(state) in ("lava-lift", "move-pick")
    if phase(state) == "lava-lift":
        assert set(state.legal_actions()) - {DONE} <= set(lava) - set(SLOPE) - {G}
        assert obs(state)["lava_placed"] == 30


# --- swamp ----------------------------------------------------------------------------------


def test_swamp_monster_moves_clockwise_and_eats() -> None:
    """"The swamp monster moves 1 space in a clockwise motion (on the grey arrows). If the
    Monster lands on a space with an explorer, they are eaten\""""
    ring = list(BOARD["swamp_ring"])

    def change(t: dict[str, Any]) -> None:
        i = ring.index(t["swamp_monster"])
        put(t, 1, 2, ring[(i + 1) % len(ring)])

    state = position(change=change)
    before = obs(state)["swamp_monster"]
    draw(state, "swamp-monster")
    t = obs(state)
    assert t["swamp_monster"] == ring[(ring.index(before) + 1) % len(ring)]
    assert t["players"][1]["explorers"][2] == DEAD


def test_falling_into_the_swamp_drops_the_coin_where_it_was() -> None:
    """"If an explorer falls into the swamp ... the coin is abandoned and left on the space
    they were occupying.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b5"], carrying=True))
    draw(state, "falls-into-swamp")
    assert phase(state) == "fall-pick"
    state.apply_action(explorer(0, 0))
    assert phase(state) == "fall-drop"
    drops = state.legal_actions()
    assert drops and all(BOARD["terrain"][s] == "swamp" for s in drops)
    assert obs(state)["swamp_monster"] not in drops
    state.apply_action(drops[0])
    t = obs(state)
    assert t["players"][0]["explorers"][0] == drops[0]
    assert not t["players"][0]["carrying"][0] and t["coins"] == [[NAME["b5"], 1]]


def test_an_explorer_in_the_swamp_moves_one_space_along_the_arrows() -> None:
    """"The explorer can only move one space per turn via the grey arrows until they reach
    dry land beyond the blue arrows.\""""
    ring = list(BOARD["swamp_ring"])
    monster = obs(position())["swamp_monster"]
    spot = next(s for s in ring if s not in BOARD["swamp_exits"] and s != monster
                and ring[(ring.index(s) + 1) % len(ring)] != monster
                and ring[ring.index(s) - 1] != monster)
    state = position(change=lambda t: put(t, 0, 0, spot))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    assert phase(state) == "move-step" and obs(state)["now"]["steps_left"] == 1
    for step in state.legal_actions():
        assert step in ring or step in BOARD["swamp_exits"]


# --- dinosaurs ------------------------------------------------------------------------------


def drive_dinosaurs(state: State, prefer: Callable[[State], int | None] | None = None) -> None:
    """Carry out a dinosaur card: the first legal choice unless ``prefer`` names one."""
    while state.current_player() == 0 and phase(state) in (
            "dinosaur-pick", "dinosaur-step", "lair-pick"):
        choice = prefer(state) if prefer else None
        state.apply_action(choice if choice is not None else state.legal_actions()[0])


def test_grazing_capture_takes_the_explorer_to_a_free_lair_and_drops_the_coin() -> None:
    """"A Dinosaur captures all explorers on a space that it enters. Captured explorer(s)
    and the Dinosaur go straight to any lair unoccupied by another dinosaur" / "If the
    explorer was carrying a coin, it must remain on the square that they last occupied\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 1, 0, NAME["c0"], carrying=True)
        put(t, 1, 1, NAME["c0"])

    state = position(change=edits(change, lambda t: t["dinosaurs"].__setitem__(0, NAME["c1"])))
    draw(state, "grazing")
    assert obs(state)["now"]["dinosaur_moves"] == [1, 1, 1]
    assert phase(state) == "dinosaur-pick"
    state.apply_action(dinosaur(0))
    assert NAME["c0"] in state.legal_actions()
    state.apply_action(NAME["c0"])
    assert phase(state) == "lair-pick"
    free = [lair for lair in LAIRS if lair not in obs(state)["dinosaurs"]]
    assert sorted(state.legal_actions()) == sorted(free) == [NAME["b1"]]
    state.apply_action(NAME["b1"])
    t = obs(state)
    assert t["players"][1]["explorers"][:2] == [NAME["b1"], NAME["b1"]]
    assert t["players"][1]["carrying"][0] is False
    assert t["coins"] == [[NAME["c0"], 1]]
    assert t["dinosaurs"][0] == NAME["b1"]


def test_dinosaurs_never_share_a_space_nor_enter_swamp_or_temple() -> None:
    """"Dinosaurs may never share any space with another dinosaur." / "they can't ... enter
    the Swamp or the Temple\""""

    def change(t: dict[str, Any]) -> None:
        t["dinosaurs"][0] = NAME["e6"]  # temple arrow, beside the temple
        t["dinosaurs"][1] = NAME["e5"]
        t["dinosaurs"][2] = NAME["i5"]  # beside the swamp's arrow i4

    state = position(change=change)
    draw(state, "undergrowth")
    state.apply_action(dinosaur(0))
    assert TEMPLE not in state.legal_actions() and NAME["e5"] not in state.legal_actions()
    state.apply_action(state.legal_actions()[0])
    state.apply_action(dinosaur(2))
    assert NAME["i4"] not in state.legal_actions()


def test_a_dinosaur_enters_a_lair_by_exact_count_only() -> None:
    """"Dinosaurs may move BY EXACT COUNT into any lair (only if unoccupied by another
    dinosaur or only occupied by explorers).\""""

    def change(t: dict[str, Any]) -> None:
        t["dinosaurs"][1] = NAME["c5"]  # footprint of the lair d5, which is left empty

    state = position(change=change)
    draw(state, "restless")  # three dinosaurs, 2 spaces each
    state.apply_action(dinosaur(1))
    assert NAME["d5"] not in state.legal_actions()
    state = position(change=change)
    draw(state, "grazing")
    state.apply_action(dinosaur(1))
    assert NAME["d5"] in state.legal_actions()


def test_a_captive_cannot_leave_while_the_dinosaur_is_home() -> None:
    """"If an explorer has been captured, they cannot leave the lair if a dinosaur occupies
    the same lair" / "Rolling the dice and moving when the dinosaur is absent.\""""
    state = position(change=edits(lambda t: put(t, 0, 0, NAME["b1"]),
                                    lambda t: put(t, 0, 1, NAME["b5"])))
    draw(state, "gun")
    assert phase(state) == "move-pick"
    assert explorer(0, 0) not in state.legal_actions()
    assert explorer(0, 1) in state.legal_actions()

    def away(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["b1"])
        t["dinosaurs"][0] = NAME["d0"]

    state = position(change=away)
    draw(state, "gun")
    assert explorer(0, 0) in state.legal_actions()
    state.apply_action(explorer(0, 0))
    die(state, 1)
    assert set(state.legal_actions()) <= {NAME["b0"], NAME["c1"]}


def test_dinosaur_attack_eats_every_captive_in_the_lair() -> None:
    """"All captured explorers there are eaten alive! (including any already in the
    lair).\""""

    def change(t: dict[str, Any]) -> None:
        t["dinosaurs"][0] = NAME["c0"]  # the lair b1 is empty ...
        put(t, 1, 0, NAME["b1"])  # ... but for an earlier captive
        put(t, 1, 1, NAME["d0"])

    state = position(change=change)
    draw(state, "dinosaur-attack")
    assert obs(state)["now"]["dinosaur_moves"] == [3, 1, 1, 1]
    state.apply_action(dinosaur(5))  # the far one moves 3
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    state.apply_action(dinosaur(0))
    state.apply_action(NAME["d0"])
    assert phase(state) == "lair-pick"
    state.apply_action(NAME["b1"])
    t = obs(state)
    assert t["players"][1]["explorers"][:2] == [DEAD, DEAD]


def test_ordinary_capture_does_not_kill() -> None:
    """Only the Dinosaur Attack eats the captives; other cards take them to a lair."""

    def change(t: dict[str, Any]) -> None:
        t["dinosaurs"][0] = NAME["c0"]
        put(t, 1, 0, NAME["b1"])
        put(t, 1, 1, NAME["d0"])

    state = position(change=change)
    draw(state, "grazing")
    state.apply_action(dinosaur(0))
    state.apply_action(NAME["d0"])
    state.apply_action(NAME["b1"])
    assert obs(state)["players"][1]["explorers"][:2] == [NAME["b1"], NAME["b1"]]


def test_dinosaurs_fight_frees_an_opponent_when_none_of_yours_is_captive() -> None:
    """"If you draw this card and none of your explorers are in a lair, then you must move
    an opponent's explorer out of a lair.\""""
    state = position(change=lambda t: put(t, 1, 0, NAME["b1"]))
    draw(state, "dinosaurs-fight")
    assert phase(state) == "fight-pick"
    assert state.legal_actions() == [explorer(1, 0)]
    state.apply_action(explorer(1, 0))
    assert sorted(state.legal_actions()) == sorted(BOARD["footprints"][0])


def test_dinosaurs_fight_frees_your_own_first() -> None:
    """"one explorer can escape from any lair by moving one space outside.\""""
    state = position(change=edits(lambda t: put(t, 1, 0, NAME["b1"]),
                                    lambda t: put(t, 0, 0, NAME["d5"])))
    draw(state, "dinosaurs-fight")
    assert state.legal_actions() == [explorer(0, 0)]


# --- other cards ----------------------------------------------------------------------------


def test_short_of_water_reaching_a_river_survives() -> None:
    """"one of your explorers rolls two dice and must reach the river on this turn or they
    die ... (you do not have to arrive by an exact count)\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b6"]))
    draw(state, "short-of-water")
    state.apply_action(explorer(0, 0))
    dice(state, 8)
    state.apply_action(NAME["b7"])
    state.apply_action(NAME["b8"])  # river, with 6 points left
    assert where(state, 0, 0) == NAME["b8"]


def test_short_of_water_failing_kills_and_leaves_the_coin_at_the_end() -> None:
    """"If an explorer dies (with treasure) while trying to get water, the treasure is left
    on the last space of their unsuccessful move.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["a1"], carrying=True))
    draw(state, "short-of-water")
    state.apply_action(explorer(0, 0))
    dice(state, 2)
    state.apply_action(NAME["a2"])
    state.apply_action(NAME["a3"])
    t = obs(state)
    assert t["players"][0]["explorers"][0] == DEAD
    assert t["coins"] == [[NAME["a3"], 1]]


def test_secret_path_from_a_cave_to_the_temple_is_used_once() -> None:
    """"To use this card an explorer must be at the entrance space of one of the caves. You
    may use this card as an additional action to go directly to the Temple ... discard after
    using.\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, BOARD["caves"][0])
        put(t, 0, 1, NAME["b5"])
        t["players"][0]["secret_paths"] = 1
        t["deck"]["secret-path"] -= 1

    state = position(change=change)
    quiet_card(state)
    assert secret_path(0) in state.legal_actions()
    assert secret_path(1) not in state.legal_actions()
    state.apply_action(secret_path(0))
    t = obs(state)
    assert t["players"][0]["explorers"][0] == TEMPLE
    assert t["players"][0]["secret_paths"] == 0 and t["discards"]["secret-path"] == 1


def test_gun_bullets_at_the_dump_and_a_bullet_pushes_a_dinosaur() -> None:
    """"Once drawn, bullets can now be taken when you land on an ammo dump space." /
    "Explorers use bullets to frighten away a Dinosaur (one space / per bullet used).\""""
    dump = BOARD["ammo_dumps"][0]
    start = next(n for n in BOARD["neighbors"][dump] if BOARD["terrain"][n] == "land")
    state = position(change=lambda t: put(t, 0, 0, start))
    draw(state, "gun")
    assert obs(state)["players"][0]["guns"] == 1
    state.apply_action(explorer(0, 0))
    die(state, 1)
    state.apply_action(dump)
    t = obs(state)
    assert t["players"][0]["bullets"] > 0
    assert t["bullet_supply"] == 12 - t["players"][0]["bullets"]
    if phase(state) == "after-move":
        assert fire(0) in state.legal_actions()
        before = t["dinosaurs"][0]
        state.apply_action(fire(0))
        assert phase(state) == "shoot-push"
        assert all(s in BOARD["neighbors"][before] for s in state.legal_actions())
        state.apply_action(state.legal_actions()[0])
        t2 = obs(state)
        assert t2["dinosaurs"][0] != before
        assert t2["players"][0]["bullets"] == t["players"][0]["bullets"] - 1


def test_a_bullet_can_push_a_dinosaur_onto_an_opponent() -> None:
    """"You can use a bullet to move a Dinosaur onto a space occupied by another explorer,
    resulting in their capture (and being taken to its lair).\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["guns"] = 1
        t["deck"]["gun"] -= 1
        t["players"][0]["bullets"] = 2
        t["bullet_supply"] -= 2
        put(t, 0, 0, NAME["k12"])
        t["dinosaurs"][0] = NAME["c0"]
        put(t, 1, 0, NAME["d0"])

    state = position(change=change)
    quiet_card(state)
    state.apply_action(fire(0))
    state.apply_action(NAME["d0"])
    assert phase(state) == "lair-pick"
    state.apply_action(NAME["b1"])
    assert where(state, 1, 0) == NAME["b1"]


def test_pteranodon_rescues_your_explorer_to_a_safe_empty_space() -> None:
    """"move one of your explorers (even from outside the valley) to a legal safe space" /
    "It can't place an explorer on an occupied space, or in the dinosaur's lair.\""""
    state = position(change=lambda t: put(t, 1, 0, NAME["b5"]))
    draw(state, "pteranodon")
    assert phase(state) == "pteranodon-pick"
    assert explorer(0, 0) in state.legal_actions()
    state.apply_action(explorer(0, 0))
    drops = set(state.legal_actions()) - {DONE}
    t = obs(state)
    assert drops
    assert NAME["b5"] not in drops
    assert not drops & set(LAIRS) and not drops & set(t["dinosaurs"])
    for s in drops:
        assert BOARD["terrain"][s] not in ("swamp", "inner-swamp", "lair", "slope")


def test_pteranodon_drops_an_opponent_only_on_an_empty_dangerous_space() -> None:
    """"OR move an opponent to an empty dangerous space" / "It can place an opposing
    explorer on one of the four separate inner swamp spaces.\""""
    state = position(change=lambda t: put(t, 1, 0, NAME["b5"]))
    draw(state, "pteranodon")
    state.apply_action(explorer(1, 0))
    drops = set(state.legal_actions()) - {DONE}
    inner = {s for s, k in enumerate(BOARD["terrain"]) if k == "inner-swamp"}
    assert inner <= drops
    assert not drops & set(LAIRS)
    dinos = set(obs(state)["dinosaurs"])
    for s in drops:
        near = set(BOARD["neighbors"][s]) & dinos
        assert BOARD["terrain"][s] in ("swamp", "inner-swamp") or near


# --- the deck, turn order and the end -------------------------------------------------------


def test_an_empty_deck_takes_back_the_discards() -> None:
    """"In the event the adventure cards are depleted, reshuffle the discard pile and
    continue to use them as the new draw deck.\""""

    def change(t: dict[str, Any]) -> None:
        t["discards"] = dict(t["deck"])
        t["deck"] = dict.fromkeys(t["deck"], 0)

    state = position(change=change)
    assert obs(state)["deck_count"] == 54
    draw(state, "gun")
    assert obs(state)["deck_count"] == 53


def neutral_turn(state: State) -> None:
    """A card that changes nothing on the board, then a one-space move into the valley."""
    seat = obs(state)["player"]
    deck = obs(state)["deck"]
    draw(state, next(k for k in ("dinosaurs-fight", "secret-path", "gun") if deck[k]))
    state.apply_action(explorer(seat, 0))
    die(state, 1)
    state.apply_action(state.legal_actions()[0])
    if state.current_player() >= 0 and phase(state) == "after-move":
        state.apply_action(DONE)


def test_four_players_play_clockwise_and_a_dead_seat_is_skipped() -> None:
    """"Play continues to each player in a clockwise direction.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][3]["explorers"] = [DEAD] * 4

    state = position(4, change=change, first=1)
    order = []
    for _ in range(4):
        order.append(obs(state)["player"])
        neutral_turn(state)
    assert order == [1, 2, 0, 1]


def test_when_every_explorer_is_dead_most_coins_then_most_alive_wins() -> None:
    """"If the game ends because all explorers have died ... the winner is the player with
    the most coins, however if several players have the same number of coins, the player with
    the most explorers left is the winner.\""""

    def change(t: dict[str, Any]) -> None:
        t["lava"] = [*SLOPE, G]
        t["lava_placed"] = 7
        t["players"][0]["explorers"] = [NAME["d10"], DEAD, DEAD, DEAD]
        t["players"][1]["explorers"] = [DEAD] * 4
        t["players"][2]["explorers"] = [DEAD] * 4
        t["players"][1]["coins_out"] = 1
        t["temple_coins"] -= 1

    state = position(3, change=change, coins=3)
    draw(state, "volcano")
    state.apply_action(NAME["d10"])
    assert state.is_terminal()
    t = obs(state)
    assert t["end_reason"] == "deaths" and t["winner"] == 1
    assert t["turn"] == 1  # README: a turn whose card kills the last explorer is counted
    assert list(state.ranking()) == [1, 0, 1]


def test_ranking_counts_explorers_alive_when_coins_tie() -> None:
    def change(t: dict[str, Any]) -> None:
        t["lava"] = [*SLOPE, G]
        t["lava_placed"] = 7
        t["players"][0]["explorers"] = [NAME["d10"], OUTSIDE, DEAD, DEAD]
        t["players"][1]["explorers"] = [OUTSIDE, DEAD, DEAD, DEAD]

    state = position(2, change=change)
    draw(state, "volcano")
    state.apply_action(NAME["d10"])
    assert not state.is_terminal()
    assert obs(state)["players"][0]["alive"] == 1


@pytest.mark.parametrize("coins", [0, 13])
def test_coins_option_outside_one_to_twelve_is_refused(coins: int) -> None:
    with pytest.raises(Exception):  # noqa: B017 - the README names no error type
        game().new_initial_state(2, {"coins": coins})


# --- more corners ---------------------------------------------------------------------------


def test_pteranodon_can_rescue_a_guarded_captive() -> None:
    """"It can rescue explorers from the swamp, from guarded or unguarded dinosaur lairs\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b1"]))  # the T-rex is home
    draw(state, "pteranodon")
    assert explorer(0, 0) in state.legal_actions()


def test_falling_into_the_swamp_cannot_take_a_captive() -> None:
    """"This card does NOT permit you to take an explorer out of a dinosaur's lair.\""""
    state = position(change=edits(lambda t: put(t, 0, 0, NAME["b1"]),
                                    lambda t: put(t, 0, 1, NAME["b5"])))
    draw(state, "falls-into-swamp")
    assert phase(state) == "fall-pick"
    assert explorer(0, 0) not in state.legal_actions()
    assert explorer(0, 1) in state.legal_actions()


def test_leaving_the_valley_without_a_coin() -> None:
    """"They may enter or leave the valley by any of the four arrows.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["a5"]))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 3)
    assert STEP_OUT in state.legal_actions()
    state.apply_action(STEP_OUT)
    assert where(state, 0, 0) == OUTSIDE and obs(state)["players"][0]["coins_out"] == 0


def test_secret_path_is_one_way() -> None:
    """"Travel is one way only, discard after using.\""""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, BOARD["caves"][0])
        t["players"][0]["secret_paths"] = 2
        t["deck"]["secret-path"] -= 2

    state = position(change=change)
    quiet_card(state)
    state.apply_action(secret_path(0))
    assert secret_path(0) not in state.legal_actions()
    assert obs(state)["players"][0]["secret_paths"] == 1


def test_a_marooned_explorer_cannot_be_moved() -> None:
    """"Lava can maroon dinosaurs and explorers\""""
    ring = list(BOARD["neighbors"][NAME["d10"]])

    def change(t: dict[str, Any]) -> None:
        lava = [*SLOPE, G]
        for n in ring:
            if n not in lava and n in BOARD["lava_spaces"]:
                lava.append(n)
        t["lava"] = lava
        t["lava_placed"] = len(lava)
        t["players"][0]["explorers"] = [NAME["d10"], DEAD, DEAD, DEAD]

    state = position(change=change)
    assert all(n in obs(state)["lava"] for n in ring)
    quiet_card(state)
    # nothing can move: the turn passes (README: a move-pick with nothing to do ends it)
    assert obs(state)["player"] == 1


def test_escape_from_the_swamp_goes_beyond_the_nearest_exit() -> None:
    """"The player may place an explorer on any space beyond his nearest exit from the
    swamp.\""""
    exits = list(BOARD["swamp_exits"])
    ring = list(BOARD["swamp_ring"])
    monster = obs(position())["swamp_monster"]
    spot = next(s for s in ring if s not in exits and s != monster)
    state = position(change=lambda t: put(t, 0, 0, spot, carrying=True))
    draw(state, "escape-swamp")
    if phase(state) == "escape-pick":
        state.apply_action(explorer(0, 0))
    assert phase(state) == "escape-drop"
    for s in state.legal_actions():
        assert BOARD["terrain"][s] not in ("swamp", "inner-swamp")
        assert set(BOARD["neighbors"][s]) & set(exits)
    state.apply_action(state.legal_actions()[0])
    assert obs(state)["players"][0]["carrying"][0]


def test_no_coin_left_to_claim_ends_the_match_on_coins_then_explorers() -> None:
    """"If the game ends because ... it's impossible to claim any more treasure coins ... the
    winner is the player with the most coins, however if several players have the same
    number of coins, the player with the most explorers left is the winner.\""""

    def change(t: dict[str, Any]) -> None:
        t["lava"] = list(SLOPE)
        t["lava_placed"] = 6
        t["temple_coins"] = 0
        t["players"][0]["coins_out"] = 5
        t["players"][1]["coins_out"] = 5
        t["players"][1]["explorers"][0] = G
        t["players"][1]["carrying"][0] = True
        t["coins"] = [[G, 1]]

    state = position(2, change=change, coins=6)
    draw(state, "volcano")  # the 7th piece lands on G: the carrier dies, both coins under it
    t = obs(state)
    assert G in t["lava"] and t["players"][1]["explorers"][0] == DEAD
    assert not state.is_terminal()
    state.apply_action(explorer(0, 0))
    die(state, 1)
    state.apply_action(state.legal_actions()[0])
    if state.current_player() == 0 and phase(state) == "after-move":
        state.apply_action(DONE)
    assert state.is_terminal()
    t = obs(state)
    assert (t["end_reason"], t["winner"]) == ("no-coins", 0)
    assert list(state.ranking()) == [0, 1]


def test_a_card_moves_three_different_dinosaurs() -> None:
    """"Three Dinosaurs move 1 space each.\""""
    state = position()
    draw(state, "grazing")
    moved = []
    while phase(state) in ("dinosaur-pick", "dinosaur-step"):
        if phase(state) == "dinosaur-pick":
            pick = state.legal_actions()[0]
            assert pick - 178 not in moved
            moved.append(pick - 178)
            state.apply_action(pick)
        else:
            state.apply_action(state.legal_actions()[0])
    assert len(moved) == 3


def test_pteranodon_carrying_off_a_carrier_abandons_the_coin() -> None:
    """"If an explorer ... is carried off by the Pteranodon, the coin is abandoned and left
    on the space they were occupying.\""""
    state = position(change=lambda t: put(t, 0, 0, NAME["b5"], carrying=True))
    draw(state, "pteranodon")
    state.apply_action(explorer(0, 0))
    target = next(s for s in state.legal_actions() if s != DONE)
    state.apply_action(target)
    t = obs(state)
    assert t["players"][0]["explorers"][0] == target and not t["players"][0]["carrying"][0]
    assert t["coins"] == [[NAME["b5"], 1]]


def test_leaving_the_temple_by_its_arrows() -> None:
    """"They may enter on any spaces marked with an arrow.\""""
    state = position(change=lambda t: put(t, 0, 0, TEMPLE))
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 1)
    assert sorted(state.legal_actions()) == sorted(BOARD["temple_arrows"])


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["e9"])
        t["lava"] = [*SLOPE, G]
        t["lava_placed"] = 7

    state = position(change=change)
    with pytest.raises(ValueError):
        state.apply_action(explorer(0, 0))  # a decision at the draw
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    with pytest.raises(ValueError):
        state.apply_action(NAME["e8"])  # a step before the die
    die(state, 1)
    before = obs(state)
    for bad in (G, NAME["a1"], STEP_OUT, 208, 229, -1):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert obs(state) == before


@pytest.mark.parametrize(("words", "edit"), [
    ("coin", lambda t: t["players"][0]["carrying"].__setitem__(0, True)),
    ("bullet", lambda t: t["players"][0].__setitem__("bullets", 2)),
    ("lava", lambda t: (t.__setitem__("lava", [NAME["b5"]]), t.__setitem__("lava_placed", 1))),
    ("swamp", lambda t: t.__setitem__("swamp_monster", NAME["b5"])),
    ("dinosaur", lambda t: t["dinosaurs"].__setitem__(1, t["dinosaurs"][0])),
    ("gun", lambda t: t["players"][0].__setitem__("guns", 1)),
])
def test_impossible_positions_are_refused_saying_what_is_wrong(
        words: str, edit: Callable[[dict[str, Any]], object]) -> None:
    """README: "a position the rules cannot reach is refused with a `ValueError` that names
    what is wrong"."""
    with pytest.raises(ValueError, match=words):
        position(change=edit)


def test_bullets_from_a_nearly_empty_sheet() -> None:
    """The sheet holds 12 bullets: a seat takes what is left (README: `bullet_supply`)."""
    dump = BOARD["ammo_dumps"][0]
    start = next(n for n in BOARD["neighbors"][dump] if BOARD["terrain"][n] == "land")

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, start)
        t["players"][0]["guns"] = 1
        t["deck"]["gun"] -= 1
        t["players"][1]["guns"] = 1
        t["deck"]["gun"] -= 1
        t["players"][1]["bullets"] = 11
        t["bullet_supply"] = 1

    state = position(change=change)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 1)
    state.apply_action(dump)
    t = obs(state)
    assert (t["players"][0]["bullets"], t["bullet_supply"]) == (1, 0)


def test_an_empty_temple_roof_gives_no_coin() -> None:
    """"Place all Treasure Coins on the top of the temple roof": once they are all gone,
    entering the temple brings none."""

    def change(t: dict[str, Any]) -> None:
        put(t, 0, 0, NAME["e6"])
        t["temple_coins"] = 0
        t["coins"] = [[NAME["a1"], 12]]

    state = position(change=change, coins=3)
    quiet_card(state)
    state.apply_action(explorer(0, 0))
    die(state, 2)
    state.apply_action(TEMPLE)
    t = obs(state)
    assert not t["players"][0]["carrying"][0] and t["temple_coins"] == 0
    assert where(state, 0, 0) == TEMPLE
