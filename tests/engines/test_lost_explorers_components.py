"""The component data: the shipped file's counts and constraints, and the checks that a
replacement file must pass."""

from __future__ import annotations

import copy
import itertools
import random
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from test_lost_explorers_helpers import COMPONENTS, GAME, place

from arena.game import InvalidOptions, sample_chance
from arena.testing import check_game
from engines.lost_explorers.components import (
    MISSIONS,
    TOKENS,
    VEHICLES,
    load_components,
    parse_components,
)

Document = dict[str, Any]


def shipped() -> Document:
    text = resources.files("engines.lost_explorers").joinpath("components.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_the_component_list_is_complete() -> None:
    """"12 Locations connected to Venice" / "64 Vehicle/Mission tokens" / "13 Clue tiles" /
    "4 Validated Location markers" / "16 Vehicle/Mission starting tokens" / "1 Discovery area
    made up of 2 tracks"
    """
    assert len(COMPONENTS.location_names) == 12
    assert len(COMPONENTS.mission_vehicle) == MISSIONS == 80 and TOKENS == 64
    assert len(COMPONENTS.clue_numbers) == 13 and len(COMPONENTS.markers) == 4
    assert len(COMPONENTS.track_names) == 2
    for kind in range(len(VEHICLES)):
        assert len(COMPONENTS.stack_missions(kind)) == 16
        assert len(COMPONENTS.starting_missions(kind)) == 4


def test_routes_show_two_or_three_vehicles_and_the_known_ones_are_kept() -> None:
    """"You can only do this if you have in front of you ALL the Vehicles (2 or 3) shown by the
    routes between Venice and the Location you want to go to." Known routes: African Mask =
    car, car, boat; Chichén Itzá = boat, boat; Sphinx = car, car."""
    assert all(2 <= len(route) <= 3 for route in COMPONENTS.routes)
    names = {"car": 1, "boat": 2}
    assert COMPONENTS.routes[place("African Mask")] == (names["car"], names["car"], names["boat"])
    assert COMPONENTS.routes[place("Chichén Itzá")] == (names["boat"], names["boat"])
    assert COMPONENTS.routes[place("Sphinx")] == (names["car"], names["car"])
    assert "Orthodox Church" in COMPONENTS.location_names
    assert "Totem Pole" in COMPONENTS.location_names


def test_every_mission_is_reachable_with_its_own_vehicle() -> None:
    """"On the back of each Vehicle token, the mission is a unique combination of 2 or 3
    Locations. Each one of these Locations is accessible with at least 1 vehicle of the same
    kind as this token."
    """
    for mission in range(MISSIONS):
        places = COMPONENTS.mission_locations[mission]
        assert 2 <= len(places) <= 3 and len(set(places)) == len(places)
        kind = COMPONENTS.mission_vehicle[mission]
        assert all(kind in COMPONENTS.routes[p] for p in places), mission


def test_missions_are_unique() -> None:
    """"Each Mission token offers a unique combination of Locations." """
    assert len(set(COMPONENTS.mission_locations)) == MISSIONS


def test_no_mission_names_two_marker_locations() -> None:
    """"Missions involving Locations with a Validated Place marker are easier to complete, but
    are worth one fewer point." A mission naming two marker locations would be worth two
    fewer points (or, with two locations, need no member at all)."""
    markers = set(COMPONENTS.markers)
    assert [m for m in range(MISSIONS)
            if len(markers & set(COMPONENTS.mission_locations[m])) > 1] == []


def test_missions_are_coloured_by_track_about_evenly() -> None:
    for kind in range(len(VEHICLES)):
        tracks = [COMPONENTS.mission_track[m] for m in COMPONENTS.stack_missions(kind)]
        assert tracks.count(0) == tracks.count(1) == 8


def test_the_first_magnifying_glass_is_on_the_fifth_slot() -> None:
    assert [glasses[0] for glasses in COMPONENTS.glasses] == [5, 5]
    assert sum(len(glasses) for glasses in COMPONENTS.glasses) >= 4
    assert all(length >= 4 for length in COMPONENTS.track_length)  # the bonus slot exists


def test_four_clue_numbers_add_up_to_one_of_the_46_answers() -> None:
    """"The final page of the rulebook is a reference sheet of 46 numbered QR codes (numbered 1
    through 46), one per possible sum of Clue-tile numbers." """
    sums = {sum(four) for four in itertools.combinations(COMPONENTS.clue_numbers, 4)}
    assert min(sums) == 10 and max(sums) == 46
    assert all(0 <= COMPONENTS.secret_entrance(total) < 12 for total in sums)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _drop(key: str) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        document.pop(key)
    return change


def _few_glasses(document: Document) -> None:
    for track in document["tracks"]:
        track["glasses"] = [5]


BROKEN: list[tuple[str, Callable[[Document], None], str]] = [
    ("missing key", _drop("markers"), "missing keys \\['markers'\\]"),
    ("unknown key", _set(("dice",), 2), "unknown keys \\['dice'\\]"),
    ("vehicles", _set(("vehicles",), ["train", "car", "boat", "plane"]), "vehicles must be"),
    ("eleven locations", lambda d: d["locations"].pop(), "exactly 12 \\[\\[locations\\]\\]"),
    ("one-icon route", _set(("locations", 0, "route"), ["car"]), "route must show 2 or 3"),
    ("unknown vehicle", _set(("locations", 0, "route"), ["car", "horse"]), "route must show"),
    ("same names", _set(("locations", 1, "name"), "African Mask"), "names must be unique"),
    ("location keys", _set(("locations", 2, "photo"), "x"), "location #3 must be a table"),
    ("three markers", _set(("markers",), ["Sphinx", "Moai", "Petra"]), "exactly 4 names"),
    ("unknown marker", _set(("markers",), ["Sphinx", "Moai", "Petra", "Rome"]),
     "unknown: \\['Rome'\\]"),
    ("short track", _set(("tracks", 0, "length"), 3), "length must be an integer from 4"),
    ("glass off track", _set(("tracks", 1, "glasses"), [5, 20]), "glasses must be increasing"),
    ("glass order", _set(("tracks", 1, "glasses"), [9, 5]), "glasses must be increasing"),
    ("too few glasses", _few_glasses, "at least 4 magnifying glasses"),
    ("same track names", _set(("tracks", 1, "name"), "green"), "track names must be unique"),
    ("twelve clues", lambda d: d["clues"].pop(), "clues must list the 13"),
    ("zero clue", _set(("clues", 0), 0), "clues must list the 13"),
    ("63 tokens", lambda d: d["tokens"].pop(), "tokens must list exactly 64"),
    ("17 trains", _set(("tokens", 20), {"vehicle": "train", "track": "green",
                                        "mission": ["Orthodox Church", "Taj Mahal"]}),
     "16 tokens of each vehicle, got 17 train"),
    ("unreachable", _set(("tokens", 0, "mission"), ["Sphinx", "Petra"]),
     "tokens #1: Sphinx cannot be reached with a train"),
    ("one place", _set(("tokens", 0, "mission"), ["Petra"]), "2 or 3 distinct locations"),
    ("unknown place", _set(("starting_tokens", 0, "mission"), ["Petra", "Rome"]),
     "unknown location 'Rome'"),
    ("unknown track", _set(("tokens", 3, "track"), "blue"), "track must be one of"),
    ("token keys", _set(("tokens", 3, "points"), 2), "tokens #4 must be a table"),
    ("duplicate", _set(("tokens", 1, "mission"), ["Orthodox Church", "Great Wall"]),
     "different set of locations"),
    ("15 starting", lambda d: d["starting_tokens"].pop(), "starting_tokens must list exactly 16"),
    ("two markers", _set(("tokens", 0, "mission"), ["Taj Mahal", "Mount Fuji"]),
     "tokens #1: mission names 2 locations with a Validated Location marker "
     "\\(Taj Mahal, Mount Fuji\\); at most one"),
    ("two markers moved", _set(("markers",), ["Orthodox Church", "Great Wall", "Moai", "Petra"]),
     "tokens #1: mission names 2 locations with a Validated Location marker "
     "\\(Orthodox Church, Great Wall\\)"),
]


@pytest.mark.parametrize(("label", "change", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_file_is_rejected_with_a_clear_message(
        label: str, change: Callable[[Document], None], message: str) -> None:
    document = copy.deepcopy(shipped())
    change(document)
    expected = f"lost-explorers: component file mine.toml: .*{message}"
    with pytest.raises(InvalidOptions, match=expected):
        parse_components(document, "mine.toml")


def test_a_users_file_replaces_the_shipped_one(tmp_path: Path) -> None:
    text = resources.files("engines.lost_explorers").joinpath("components.toml").read_text("utf-8")
    path = tmp_path / "box.toml"
    path.write_text(text.replace("length = 12", "length = 15", 1), "utf-8")
    state = GAME.new_initial_state(2, {"components": str(path)})
    assert state.components.track_length[0] == 15
    assert state.observation(0)["tracks"][0]["length"] == 15
    assert load_components("") is COMPONENTS


def test_an_unreadable_or_invalid_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptions, match="cannot be read"):
        GAME.new_initial_state(2, {"components": str(tmp_path / "none.toml")})
    bad = tmp_path / "bad.toml"
    bad.write_text("vehicles = [", "utf-8")
    with pytest.raises(InvalidOptions, match="is not valid TOML"):
        GAME.new_initial_state(2, {"components": str(bad)})


@pytest.mark.parametrize(("players", "options", "message"), [
    (1, None, "takes 2 to 4 players"), (5, None, "takes 2 to 4 players"),
    (True, None, "takes 2 to 4 players"), (2, {"cards": "x"}, "unknown option 'cards'"),
    (2, {"components": 3}, "must be a str"), (2, ["components"], "options must be a table"),
])
def test_bad_players_or_options_are_rejected(players: Any, options: Any, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new_initial_state(players, options)


def test_states_are_rebuilt_from_observations_of_a_users_file(tmp_path: Path) -> None:
    """Search bots rebuild states from the observation (``Game.state_from_observation``): its
    ``box`` carries the missions, markers and clue numbers, so a user's own file is rebuilt
    with its own contents (a renamed location, a longer track, other clue numbers here)."""
    text = resources.files("engines.lost_explorers").joinpath("components.toml").read_text("utf-8")
    shipped_clues = "clues = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]"
    assert shipped_clues in text
    text = (text.replace("Petra", "Petra Nova").replace("length = 12", "length = 15", 1)
            .replace(shipped_clues, "clues = [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]"))
    path = tmp_path / "box.toml"
    path.write_text(text, "utf-8")
    mine = load_components(str(path))
    check_game(GAME, players=[2, 3], options={"components": str(path)}, games=2, rebuild=True)
    rng = random.Random(0)

    def rebuilt(options: dict[str, Any]) -> Any:
        """A state rebuilt from the first decision's observation of a game with ``options``."""
        state = GAME.new_initial_state(2, options)
        while state.current_player() < 0:
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
        return GAME.state_from_observation(state.observation(state.current_player()), rng)

    twin = rebuilt({"components": str(path)})
    assert twin.components is not mine  # rebuilt from the observation alone
    assert "Petra Nova" in twin.components.location_names
    assert twin.components.clue_numbers == mine.clue_numbers == tuple(range(13, 0, -1))
    assert twin.components.mission_locations == mine.mission_locations
    assert twin.components.track_length[0] == 15
    assert rebuilt({}).components is COMPONENTS  # the shipped file's: the shipped set


def test_the_box_views_kept_stay_few_when_each_match_reads_its_file_anew(tmp_path: Path) -> None:
    """A tournament with its own component file loads it for every match: the observation's
    shared ``box`` is built once per load, and only the last few are kept."""
    from engines.lost_explorers import observation

    text = resources.files("engines.lost_explorers").joinpath("components.toml").read_text("utf-8")
    path = tmp_path / "box.toml"
    path.write_text(text, "utf-8")
    for _ in range(20):
        state = GAME.new_initial_state(2, {"components": str(path)})
        assert state.observation(0)["box"] is state.observation(1)["box"]
    assert len(observation._BOXES) <= 4
