"""Lost Explorers: an eighth rulebook pass.

Written from the rulebook (``rules/lost-explorers.txt``), the README and RULINGS.md only,
through the public interface (the README's action ids, positions set up by editing an
observation and rebuilding it with ``state_from_observation``; the helpers of
``test_lost_explorers_blackbox.py``). Each test quotes the sentence it checks.

The pass found one thing the rulebook's text rules out: a user's component file could print
clue numbers whose sum has no QR code on the answer sheet (four tiles adding up to more than
46); such a file is now refused (RULINGS.md, ruling 3). It also pins down two readings a
scenario writer meets: the answer sheet's codes 1 to 9 are never a sum of the shipped tiles
(ruling 3), and a set-up seat's clues are taken as given, not made up from the glasses its
Leaders have passed (ruling 26). The set-up could not fix another seat's clue numbers (drawn
from ``rng``), so a scenario could not say what sum that seat wins with; a set-up may now name
them (``players[i].clue_numbers``, README). Every location of the World Map is checked against
the route the observation shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_lost_explorers_blackbox import (
    CHURCH,
    END_PHASE_1,
    END_TURN,
    GAME,
    MARKER_POOL,
    PETRA,
    VEHICLES,
    WALL,
    clue_tile,
    complete,
    force,
    go,
    me,
    mid_game,
    new_game,
    obs,
    play,
    retrieve,
    set_player,
    take_out_of_stacks,
)

from arena.game import CHANCE, TERMINAL, InvalidOptions

# Shipped missions (box.missions): 0 train Orthodox Church + Great Wall (green, track 0),
# 7 train Great Wall + Petra (orange, track 1).
CHURCH_WALL, WALL_PETRA = 0, 7
GAME_FILE = Path(__file__).parents[2] / "engines" / "lost_explorers" / "components.toml"
SHIPPED_CLUES = "clues = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]"


def component_file(tmp_path: Path, clues: list[int]) -> str:
    """The shipped component file with other clue numbers."""
    shipped = GAME_FILE.read_text(encoding="utf-8")
    assert SHIPPED_CLUES in shipped
    path = tmp_path / "clues.toml"
    path.write_text(shipped.replace(SHIPPED_CLUES, f"clues = {clues!r}"), encoding="utf-8")
    return str(path)


def tile_numbered(number: int) -> int:
    """The index of the (first) clue tile printed with ``number``, from the box."""
    numbers: list[int] = obs(new_game(2))["box"]["clue_numbers"]
    return numbers.index(number)


# --- "46 numbered QR codes (numbered 1 through 46), one per possible sum" ----------------------


def test_clue_numbers_whose_sum_has_no_qr_code_are_refused(tmp_path: Path) -> None:
    """"The final page of the rulebook is a reference sheet of 46 numbered QR codes (numbered 1
    through 46), one per possible sum of Clue-tile numbers." A component file (README,
    "Options") whose four highest clue numbers add up to 47 would let a winner's sum find no
    code: it is refused, naming the numbers and the sheet."""
    with pytest.raises(InvalidOptions, match=r"\[10, 11, 12, 14\] add up to 47.*1 to 46"):
        too_high = component_file(tmp_path, [1] * 9 + [10, 11, 12, 14])
        GAME.new_initial_state(2, {"components": too_high})
    with pytest.raises(InvalidOptions, match=r"add up to 82"):
        GAME.new_initial_state(2, {"components": component_file(tmp_path, list(range(10, 23)))})


def test_clue_numbers_whose_highest_sum_is_the_last_code_are_accepted(tmp_path: Path) -> None:
    """The same sentence: four highest numbers adding up to exactly 46, the sheet's last code,
    are a file the sheet answers in full (tiles may repeat a number)."""
    highest_46 = component_file(tmp_path, [1] * 9 + [10, 11, 12, 13])
    state = GAME.new_initial_state(2, {"components": highest_46})
    assert state.current_player() == CHANCE
    assert state.observation(0)["box"]["clue_numbers"] == [1] * 9 + [10, 11, 12, 13]


@pytest.mark.parametrize(("held", "last"), [([1, 2, 3], 4), ([10, 11, 12], 13)])
def test_the_lowest_and_highest_sums_are_codes_of_the_sheet(held: list[int], last: int) -> None:
    """"Add the 4 numbers written on your Clue tokens and scan the corresponding QR code" and
    "46 numbered QR codes (numbered 1 through 46)". The shipped tiles are numbered 1 to 13
    (RULINGS.md, ruling 3): the four lowest add up to 10, the four highest to 46, the sheet's
    last code; each names the location ruling 3 reads it as. Seat 0 holds three tiles, its
    Leader on the green track one mission short of the glass on slot 5."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[CHURCH_WALL], on=[CHURCH, WALL],
                   in_front=1, leaders=[3, 1], clues=held)
        observation["clue_tiles_left"] = 10

    state = mid_game(edit)
    play(state, END_PHASE_1, complete(CHURCH_WALL), retrieve(CHURCH))
    force(state, clue_tile(tile_numbered(last)))
    end = obs(state, 1)["end"]
    total = sum(held) + last
    names = [place["name"] for place in obs(state)["locations"]]
    assert state.current_player() == TERMINAL
    assert end == {"by": "clues", "winner": 0, "clue_sum": total,
                   "secret_entrance": names[(total - 1) % 12]}
    assert total in (10, 46)


# --- set-up clues are taken as given (ruling 26) ------------------------------------------------


def test_a_set_up_seat_with_clues_its_leaders_never_reached_wins_at_the_next_glass() -> None:
    """"If one of your Expedition Leaders gets to a slot with a magnifying glass, take a "Clue"
    tile." and "You have gathered the 4 clues? ... win the game." A scenario gives seat 0 three
    clues with both Leaders before the first glass (README: clues "not checked against the
    glasses the seat's Leaders have passed, either way"); the position is accepted as given,
    and the first glass its Leader reaches brings the 4th clue, which wins."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[CHURCH_WALL], on=[CHURCH, WALL],
                   in_front=1, leaders=[3, 1], clues=[5, 6, 7])
        observation["clue_tiles_left"] = 10

    state = mid_game(edit)
    assert me(state)["clues"] == 3 and me(state)["leaders"] == [3, 1]
    play(state, END_PHASE_1, complete(CHURCH_WALL), retrieve(WALL))
    assert obs(state)["phase"] == "draw-clue"
    assert len(state.chance_outcomes()) == 10  # the tiles no seat holds
    force(state, clue_tile(tile_numbered(1)))
    end = obs(state)["end"]
    assert (end["by"], end["winner"], end["clue_sum"]) == ("clues", 0, 5 + 6 + 7 + 1)


def test_a_set_up_leader_past_a_glass_without_its_clue_gets_only_the_glasses_ahead() -> None:
    """The same sentence: a Leader "gets to" a glass by moving (RULINGS.md, ruling 19). A
    scenario puts seat 0's green Leader on slot 7, past the glass on 5, with no clue (accepted
    as given, ruling 26); a two-member mission takes it to 9 over the glass on 8: one clue
    tile, not two, and the glass left behind is never paid."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[CHURCH_WALL], on=[CHURCH, WALL],
                   in_front=1, leaders=[7, 1], clues=[])
        observation["clue_tiles_left"] = 13

    state = mid_game(edit)
    glasses = obs(state)["tracks"][0]["glasses"]
    assert [slot for slot in glasses if 7 < slot <= 9] == [8] and 5 in glasses
    play(state, END_PHASE_1, complete(CHURCH_WALL), retrieve(CHURCH))
    assert obs(state)["phase"] == "draw-clue"
    force(state, clue_tile(0))
    assert obs(state)["phase"] == "phase-2"  # one tile only: the next decision comes
    assert me(state)["clues"] == 1 and me(state)["leaders"] == [9, 1]
    assert obs(state)["my_clues"] == [obs(state)["box"]["clue_numbers"][0]]
    assert obs(state)["clue_tiles_left"] == 12


def test_clues_set_up_for_another_seat_leave_the_tiles_to_draw_that_no_one_holds() -> None:
    """"Place the 13 Clue tiles on the "Clue" area." and "take a "Clue" tile": the tiles a
    player takes are those still in the area. Four players: seats 1, 2 and 3 hold three clues
    each by the set-up (their numbers hidden from seat 0, README: "drawn from rng"), seat 0
    none; the glass seat 0's Leader reaches offers the 4 tiles left, none of another seat's."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 0, vehicles={}, missions=[WALL_PETRA], on=[WALL, PETRA],
                   in_front=1, leaders=[1, 3], clues=[])
        for seat in (1, 2, 3):
            set_player(observation, seat, clues=[0, 0, 0])
        observation["clue_tiles_left"] = 4

    state = mid_game(edit, players=4)
    play(state, END_PHASE_1, complete(WALL_PETRA), retrieve(PETRA))
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 4 and all(abs(p - 0.25) < 1e-9 for p in outcomes.values())
    force(state, next(iter(outcomes)))
    assert [me(state, seat)["clues"] for seat in range(4)] == [1, 3, 3, 3]
    assert obs(state)["clue_tiles_left"] == 3


# --- "ALL the Vehicles (2 or 3) shown by the routes", every location ----------------------------


@pytest.mark.parametrize("location", range(12))
def test_every_location_takes_exactly_the_vehicles_its_route_shows(location: int) -> None:
    """"You can only do this if you have in front of you ALL the Vehicles (2 or 3) shown by
    the routes between Venice and the Location you want to go to." and "From the Vehicle
    tokens you have just used, pick one and discard it". Four players (two markers, so every
    location can be left open): seat 0 holds exactly the route the observation shows, and may
    go there discarding any vehicle of it; one token fewer of any of its vehicles, and it may
    not. The vehicle discarded reaches the discard area, the others stay."""
    open_markers = [place for place in MARKER_POOL if place != location][:2]
    route: list[str] = obs(new_game(4))["locations"][location]["route"]
    assert 2 <= len(route) <= 3

    def position(held: dict[str, int]) -> Any:
        def edit(observation: dict[str, Any]) -> None:
            for place in observation["locations"]:
                place["validated"] = place["id"] in open_markers
            set_player(observation, 0, vehicles=held, missions=[])
            take_out_of_stacks(observation, **held)  # the box holds 20 of a vehicle
        return mid_game(edit, players=4)

    full = {name: route.count(name) for name in set(route)}
    state = position(full)
    ids = sorted(go(location, VEHICLES.index(name)) for name in full)
    assert [a for a in state.legal_actions() if 28 + 4 * location <= a < 32 + 4 * location] == ids
    for name in full:
        short = dict(full, **{name: full[name] - 1})
        assert not [a for a in position(short).legal_actions() if a in ids], (route, name)
    discarded = sorted(full)[0]
    play(state, go(location, VEHICLES.index(discarded)))
    assert obs(state)["locations"][location]["member"] == 0
    assert obs(state)["discard"][discarded] == 1
    left = dict(full, **{discarded: full[discarded] - 1})
    held = {name: count for name, count in me(state)["vehicles"].items() if count}
    assert held == {name: count for name, count in left.items() if count}


# --- another seat's clue numbers in a set-up (ruling 26) ----------------------------------------


def seat_one_about_to_win(numbers: list[int]) -> Any:
    """Seat 0 on move with nothing to do; seat 1 holds three clues numbered ``numbers`` (named
    by the set-up), its orange Leader on 3 and members on both locations of Great Wall +
    Petra, a mission that takes it over the glass on 5."""

    def edit(observation: dict[str, Any]) -> None:
        set_player(observation, 1, vehicles={}, missions=[WALL_PETRA], on=[WALL, PETRA],
                   in_front=1, leaders=[1, 3], clues=numbers)
        observation["players"][1]["clue_numbers"] = numbers
        observation["clue_tiles_left"] = 10

    return mid_game(edit)


def test_a_set_up_may_name_another_seats_clue_numbers_and_that_seat_wins_with_their_sum() -> None:
    """"Add the 4 numbers written on your Clue tokens and scan the corresponding QR code": the
    winner's sum is its four tiles'. Seat 1's three tiles cannot be seen from seat 0's
    observation, the one edited while seat 0 is on move; the set-up names them
    (``players[1].clue_numbers``, README): seat 0 passes its turn, seat 1 completes its
    mission, and the tile it draws is one of the 10 no one holds, its sum the four numbers."""
    state = seat_one_about_to_win([4, 5, 6])
    play(state, END_PHASE_1, END_TURN)
    assert obs(state, 1)["my_clues"] == [4, 5, 6] and obs(state, 0)["my_clues"] == []
    play(state, END_PHASE_1, complete(WALL_PETRA), retrieve(WALL))
    numbers = obs(state)["box"]["clue_numbers"]
    left = sorted(numbers[action - 266] for action, _ in state.chance_outcomes())
    assert left == [1, 2, 3, 7, 8, 9, 10, 11, 12, 13]
    force(state, clue_tile(tile_numbered(13)))
    assert obs(state, 0)["end"] == {"by": "clues", "winner": 1, "clue_sum": 4 + 5 + 6 + 13,
                                    "secret_entrance": obs(state)["locations"][27 % 12]["name"]}


def test_clue_numbers_a_set_up_cannot_hold_are_refused_by_name() -> None:
    """"13 Clue tiles": a seat's named numbers are one a clue it holds, tiles of the box that
    no one else holds; the observer's, if named, are its ``my_clues``."""
    state = new_game(2)

    def refused(edit: Any, match: str) -> None:
        def both(observation: dict[str, Any]) -> None:
            set_player(observation, 1, clues=[4, 5])
            observation["clue_tiles_left"] = 11
            edit(observation)

        with pytest.raises(ValueError, match=match):
            mid_game(both)

    def two_for_three(observation: dict[str, Any]) -> None:
        observation["players"][1]["clue_numbers"] = [4]

    def thirteen_twice(observation: dict[str, Any]) -> None:
        set_player(observation, 0, clues=[13])
        observation["players"][1]["clue_numbers"] = [13, 5]
        observation["clue_tiles_left"] = 10

    def not_mine(observation: dict[str, Any]) -> None:
        set_player(observation, 0, clues=[1])
        observation["players"][0]["clue_numbers"] = [2]
        observation["clue_tiles_left"] = 10

    refused(two_for_three, r"seat 1: clue_numbers \[4\]: one number per clue held")
    refused(thirteen_twice, r"more tiles than the box")
    refused(not_mine, r"seat 0: clue_numbers \[2\] and my_clues \[1\] differ")
    assert state.current_player() == 0
