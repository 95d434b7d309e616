"""The components: loading and checking the data file.

Locations, missions and tracks are ids into a :class:`Components` value:
locations and tracks in file order; missions are the 64 tokens' backs in
file order (ids 0..63), then the 16 starting tokens' (64..79). The shipped
file is ``components.toml`` beside this module; a user may point the game
option ``components`` to their own, which is checked here and rejected with
:class:`InvalidOptions` naming the entry and the field at fault.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from arena.game import InvalidOptions

VEHICLES = ("train", "car", "boat", "airship")
"""The four vehicle types, indexed by vehicle id."""

LOCATIONS = 12
TOKENS_PER_VEHICLE = 16
STARTING_PER_VEHICLE = 4
TOKENS = TOKENS_PER_VEHICLE * len(VEHICLES)
MISSIONS = TOKENS + STARTING_PER_VEHICLE * len(VEHICLES)
MARKERS = 4
CLUE_TILES = 13
TRACKS = 2
MIN_TRACK, MAX_TRACK = 4, 40
CLUES_TO_WIN = 4
ANSWERS = 46
"""The rulebook's answer sheet: "46 numbered QR codes (numbered 1 through 46), one per possible
sum of Clue-tile numbers" (RULINGS.md, ruling 3)."""

TOP_KEYS = ("vehicles", "markers", "clues", "tokens", "starting_tokens", "tracks", "locations")
TOKEN_FIELDS = ("vehicle", "mission", "track")


@dataclass(frozen=True, slots=True, eq=False)
class Components:
    """The printed facts of one box, as tuples indexed by id (fast to read in the rules).

    Compared and hashed by identity: the engine caches tables derived from it.
    """

    location_names: tuple[str, ...]
    routes: tuple[tuple[int, ...], ...]
    """The vehicle ids shown on each location's route, in print order."""
    route_needs: tuple[tuple[int, ...], ...]
    """Per location, how many tokens of each vehicle its route shows."""
    markers: tuple[int, ...]
    """The locations that have a Validated Location marker."""
    mission_vehicle: tuple[int, ...]
    mission_locations: tuple[tuple[int, ...], ...]
    mission_track: tuple[int, ...]
    track_names: tuple[str, ...]
    track_length: tuple[int, ...]
    glasses: tuple[tuple[int, ...], ...]
    clue_numbers: tuple[int, ...]
    source: str

    def stack_missions(self, vehicle: int) -> list[int]:
        """The ids of the missions on the back of the 16 tokens of ``vehicle``."""
        return [m for m in range(TOKENS) if self.mission_vehicle[m] == vehicle]

    def starting_missions(self, vehicle: int) -> list[int]:
        """The ids of the missions on the back of the 4 starting tokens of ``vehicle``."""
        return [m for m in range(TOKENS, MISSIONS) if self.mission_vehicle[m] == vehicle]

    def secret_entrance(self, clue_sum: int) -> int:
        """The location the sum of four clue numbers points to.

        The rulebook's answer sheet is 46 QR codes; which location each one
        shows is not public. The engine reads the sum round the locations in
        file order (sum 1 is the first), an assumption a user cannot see
        through before the end.
        """
        return (clue_sum - 1) % len(self.location_names)


def _fail(source: str, message: str) -> InvalidOptions:
    return InvalidOptions(f"lost-explorers: component file {source}: {message}")


def _names(source: str, where: str, value: Any, count: int | None = None) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _fail(source, f"{where} must be a list of non-empty strings, got {value!r}")
    if count is not None and len(value) != count:
        raise _fail(source, f"{where} must list exactly {count} names, got {len(value)}")
    return value


def _check_vehicles(source: str, value: Any) -> None:
    if value != list(VEHICLES):
        raise _fail(source, f"vehicles must be exactly {list(VEHICLES)}, got {value!r}")


def _locations(source: str, entries: Any) -> tuple[list[str], list[tuple[int, ...]]]:
    if not isinstance(entries, list) or len(entries) != LOCATIONS:
        raise _fail(source, f"needs exactly {LOCATIONS} [[locations]] tables")
    names, routes = [], []
    for number, entry in enumerate(entries):
        where = f"location #{number + 1}"
        if not isinstance(entry, dict) or sorted(entry) != ["name", "route"]:
            raise _fail(source, f"{where} must be a table with exactly the keys name, route")
        if not isinstance(entry["name"], str) or not entry["name"].strip():
            raise _fail(source, f"{where}: name must be a non-empty string")
        route = _names(source, f"{where} ({entry['name']}): route", entry["route"])
        if not 2 <= len(route) <= 3 or any(v not in VEHICLES for v in route):
            raise _fail(source, f"{where} ({entry['name']}): route must show 2 or 3 of "
                                f"{list(VEHICLES)}, got {route!r}")
        names.append(entry["name"])
        routes.append(tuple(VEHICLES.index(v) for v in route))
    if len(set(names)) != len(names):
        raise _fail(source, "location names must be unique")
    return names, routes


def _markers(source: str, value: Any, names: list[str]) -> tuple[int, ...]:
    markers = _names(source, "markers", value, MARKERS)
    unknown = [name for name in markers if name not in names]
    if unknown or len(set(markers)) != MARKERS:
        raise _fail(source, f"markers must name {MARKERS} distinct locations; "
                            f"unknown: {unknown}")
    return tuple(names.index(name) for name in markers)


def _tracks(source: str, entries: Any) -> tuple[list[str], list[int], list[tuple[int, ...]]]:
    if not isinstance(entries, list) or len(entries) != TRACKS:
        raise _fail(source, f"needs exactly {TRACKS} [[tracks]] tables")
    names, lengths, glasses = [], [], []
    for number, entry in enumerate(entries):
        where = f"track #{number + 1}"
        if not isinstance(entry, dict) or sorted(entry) != ["glasses", "length", "name"]:
            raise _fail(source, f"{where} must be a table with exactly the keys "
                                "name, length, glasses")
        length, slots = entry["length"], entry["glasses"]
        if type(length) is not int or not MIN_TRACK <= length <= MAX_TRACK:
            raise _fail(source, f"{where}: length must be an integer from {MIN_TRACK} to "
                                f"{MAX_TRACK}, got {length!r}")
        if (not isinstance(slots, list) or any(type(s) is not int for s in slots)
                or slots != sorted(set(slots)) or any(not 2 <= s <= length for s in slots)):
            raise _fail(source, f"{where}: glasses must be increasing slot numbers from 2 to "
                                f"{length}, got {slots!r}")
        names.append(str(entry["name"]))
        lengths.append(length)
        glasses.append(tuple(slots))
    if len(set(names)) != TRACKS or not all(names):
        raise _fail(source, "track names must be unique non-empty strings")
    for number, slots in enumerate(glasses):
        if len(slots) < CLUES_TO_WIN:
            raise _fail(source, f"track #{number + 1} ({names[number]}) needs at least "
                                f"{CLUES_TO_WIN} magnifying glasses, got {list(slots)!r}: "
                                '"You have a choice: follow only one trail or both", so one '
                                "trail alone must give the clues that win")
    return names, lengths, glasses


def _clues(source: str, value: Any) -> tuple[int, ...]:
    if (not isinstance(value, list) or len(value) != CLUE_TILES
            or any(type(n) is not int or n < 1 for n in value)):
        raise _fail(source, f"clues must list the {CLUE_TILES} positive integers printed on "
                            f"the clue tiles, got {value!r}")
    highest = sorted(value)[-CLUES_TO_WIN:]
    if sum(highest) > ANSWERS:
        raise _fail(source, f"clues: the {CLUES_TO_WIN} highest numbers {highest!r} add up to "
                            f"{sum(highest)}, and the answer sheet has QR codes 1 to {ANSWERS} "
                            '"one per possible sum of Clue-tile numbers" (RULINGS.md, ruling 3)')
    return tuple(value)


class _Names:
    """What a token entry is checked against."""

    def __init__(self, locations: list[str], routes: list[tuple[int, ...]],
                 tracks: list[str], markers: tuple[int, ...]) -> None:
        self.locations, self.routes, self.tracks = locations, routes, tracks
        self.markers = {locations[place] for place in markers}


def _token(source: str, where: str, entry: Any, known: _Names) -> tuple[int, tuple[int, ...], int]:
    if not isinstance(entry, dict) or sorted(entry) != sorted(TOKEN_FIELDS):
        raise _fail(source, f"{where} must be a table with exactly the keys "
                            f"{', '.join(TOKEN_FIELDS)}")
    vehicle, track = entry["vehicle"], entry["track"]
    if vehicle not in VEHICLES:
        raise _fail(source, f"{where}: vehicle must be one of {list(VEHICLES)}, got {vehicle!r}")
    if track not in known.tracks:
        raise _fail(source, f"{where}: track must be one of {known.tracks}, got {track!r}")
    mission = _names(source, f"{where}: mission", entry["mission"])
    if not 2 <= len(mission) <= 3 or len(set(mission)) != len(mission):
        raise _fail(source, f"{where}: mission must name 2 or 3 distinct locations, "
                            f"got {mission!r}")
    kind = VEHICLES.index(vehicle)
    for name in mission:
        if name not in known.locations:
            raise _fail(source, f"{where}: unknown location {name!r}")
        if kind not in known.routes[known.locations.index(name)]:
            raise _fail(source, f"{where}: {name} cannot be reached with a {vehicle} "
                                "(its route does not show one)")
    marked = [name for name in mission if name in known.markers]
    if len(marked) > 1:
        raise _fail(source, f"{where}: mission names {len(marked)} locations with a Validated "
                            f"Location marker ({', '.join(marked)}); at most one is allowed "
                            "(a marker makes a mission worth one fewer point, not more)")
    places = tuple(sorted(known.locations.index(name) for name in mission))
    return kind, places, known.tracks.index(track)


def _tokens(source: str, key: str, entries: Any, per_vehicle: int,
            known: _Names) -> list[tuple[int, tuple[int, ...], int]]:
    count = per_vehicle * len(VEHICLES)
    if not isinstance(entries, list) or len(entries) != count:
        raise _fail(source, f"{key} must list exactly {count} tokens")
    rows = [_token(source, f"{key} #{number + 1}", entry, known)
            for number, entry in enumerate(entries)]
    for vehicle, name in enumerate(VEHICLES):
        found = sum(1 for row in rows if row[0] == vehicle)
        if found != per_vehicle:
            raise _fail(source, f"{key} needs {per_vehicle} tokens of each vehicle, "
                                f"got {found} {name}")
    return rows


def parse_components(document: dict[str, Any], source: str) -> Components:
    """Check a parsed component file and build its :class:`Components`."""
    missing = [key for key in TOP_KEYS if key not in document]
    extra = sorted(set(document) - set(TOP_KEYS))
    if missing or extra:
        raise _fail(source, f"missing keys {missing}, unknown keys {extra}; "
                            f"expected exactly {list(TOP_KEYS)}")
    _check_vehicles(source, document["vehicles"])
    locations, routes = _locations(source, document["locations"])
    tracks, lengths, glasses = _tracks(source, document["tracks"])
    markers = _markers(source, document["markers"], locations)
    known = _Names(locations, routes, tracks, markers)
    rows = (_tokens(source, "tokens", document["tokens"], TOKENS_PER_VEHICLE, known)
            + _tokens(source, "starting_tokens", document["starting_tokens"],
                      STARTING_PER_VEHICLE, known))
    if len({row[1] for row in rows}) != MISSIONS:
        raise _fail(source, "every mission must be a different set of locations")
    return Components(
        location_names=tuple(locations), routes=tuple(routes),
        route_needs=tuple(tuple(route.count(v) for v in range(len(VEHICLES)))
                          for route in routes),
        markers=markers,
        mission_vehicle=tuple(row[0] for row in rows),
        mission_locations=tuple(row[1] for row in rows),
        mission_track=tuple(row[2] for row in rows),
        track_names=tuple(tracks), track_length=tuple(lengths), glasses=tuple(glasses),
        clue_numbers=_clues(source, document["clues"]), source=source,
    )


@functools.cache
def default_components() -> Components:
    """The shipped components (``components.toml``), parsed once."""
    text = resources.files(__package__).joinpath("components.toml").read_text("utf-8")
    return parse_components(tomllib.loads(text), "components.toml")


def load_components(path: str) -> Components:
    """The components in ``path``, or the shipped ones for an empty path."""
    if not path:
        return default_components()
    try:
        text = Path(path).expanduser().read_text("utf-8")
    except OSError as error:
        raise _fail(path, f"cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError as error:  # TOML is UTF-8 text: a binary or Latin-1 file
        raise _fail(path, f"is not UTF-8 text (byte {error.object[error.start]:#04x} at "
                          f"offset {error.start})") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _fail(path, f"is not valid TOML ({error})") from None
    return parse_components(document, path)
