"""The board: loading and checking the graph of spaces (``board.toml``).

Spaces are indices into a :class:`Board`, in file order. The shipped board
is ``board.toml`` beside this module, an assumption designed from the facts
in GAME-DATA.md; the game option ``board`` points to a user's own file,
which is checked here and rejected with :class:`InvalidOptions` naming the
space and the mistake.
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from arena.game import InvalidOptions

TERRAINS = ("land", "entry", "river", "crossing", "swamp", "inner-swamp", "lair", "footprint",
            "temple", "temple-arrow", "cave", "ammo-dump", "slope")
"""Terrain names, indexed by terrain id."""
(LAND, ENTRY, RIVER, CROSSING, SWAMP, INNER_SWAMP, LAIR, FOOTPRINT, TEMPLE, TEMPLE_ARROW, CAVE,
 AMMO_DUMP, SLOPE) = range(len(TERRAINS))

WALKABLE = frozenset({LAND, ENTRY, CROSSING, FOOTPRINT, TEMPLE_ARROW, CAVE, AMMO_DUMP})
"""Dry land an explorer may walk on (rivers are waded; the rest is never entered by choice)."""
SWAMPY = frozenset({SWAMP, INNER_SWAMP})
NO_DINOSAUR = frozenset({SWAMP, INNER_SWAMP, TEMPLE, SLOPE})
"""Terrain a dinosaur never enters ("they can't ... enter the Swamp or the Temple")."""

MAX_SPACES = 160
"""Largest board the action encoding has room for."""
LAIRS = 6
"""One lair per Tyrannosaurus in the box."""
ENTRIES = 4
CAVES = 2
SLOPE_SPACES = 6
"""A-F: lava pieces placed on the volcano before it reaches the valley."""
RIVER_CROSSINGS = (1, 1, 2)
"""Crossings per river, sorted: "two crossings for one river, but only one for the other two"."""

TOP_KEYS = frozenset({"swamp_ring", "swamp_exits", "swamp_monster", "volcano_slope",
                      "lava_start", "lava_spaces", "spaces"})
SPACE_KEYS = frozenset({"id", "terrain", "x", "y", "next", "river", "footprints"})


@dataclass(frozen=True, slots=True)
class Board:
    """A board as parallel tuples indexed by space id, shared by every state of a match."""

    names: tuple[str, ...]
    terrain: tuple[int, ...]
    neighbors: tuple[tuple[int, ...], ...]
    river: tuple[int, ...]
    x: tuple[int, ...]
    y: tuple[int, ...]
    lairs: tuple[int, ...]
    footprints: tuple[tuple[int, ...], ...]
    """Per lair (in the order of ``lairs``), the footprint spaces at its entrance."""
    swamp_ring: tuple[int, ...]
    swamp_exits: tuple[int, ...]
    swamp_monster: int
    volcano_slope: tuple[int, ...]
    lava_start: int
    lava_spaces: frozenset[int]
    entries: tuple[int, ...]
    temple: int
    temple_arrows: tuple[int, ...]
    caves: tuple[int, ...]
    ammo_dumps: tuple[int, ...]
    source: str

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """The id of the space called ``name`` (ValueError if absent)."""
        return self.names.index(name)

    def lair_of(self, footprint: int) -> int:
        """The lair whose entrance ``footprint`` marks, or -1."""
        for lair, marks in zip(self.lairs, self.footprints, strict=True):
            if footprint in marks:
                return lair
        return -1

    def ring_position(self, space: int) -> int:
        """Where ``space`` lies on the swamp ring (clockwise from its first space), or -1."""
        return self.swamp_ring.index(space) if space in self.swamp_ring else -1


class BoardError(InvalidOptions):
    """A board file with a mistake; the message names the space and what is wrong."""


def _fail(source: str, message: str) -> BoardError:
    return BoardError(f"dinosaurs: board file {source}: {message}")


def _names(source: str, index: Mapping[str, int], value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise _fail(source, f"{where} must be a list of space ids")
    unknown = [name for name in value if name not in index]
    if unknown:
        raise _fail(source, f"{where} names unknown spaces {unknown}")
    if len(set(value)) != len(value):
        raise _fail(source, f"{where} names a space twice")
    return [index[name] for name in value]


def _name(source: str, index: Mapping[str, int], value: Any, where: str) -> int:
    if not isinstance(value, str) or value not in index:
        raise _fail(source, f"{where} must be the id of a space, got {value!r}")
    return index[value]


def _int(source: str, where: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(source, f"{where} must be an integer from {low} to {high}, got {value!r}")
    return value


def _space_ids(source: str, spaces: Any) -> dict[str, int]:
    if not isinstance(spaces, list) or not 1 <= len(spaces) <= MAX_SPACES:
        raise _fail(source, f"needs 1 to {MAX_SPACES} spaces in the list `spaces`")
    index: dict[str, int] = {}
    for number, entry in enumerate(spaces):
        if not isinstance(entry, dict):
            raise _fail(source, f"space #{number + 1} must be a table")
        name = entry.get("id")
        if not isinstance(name, str) or not name.strip():
            raise _fail(source, f"space #{number + 1}: id must be a non-empty string")
        if name in index:
            raise _fail(source, f"space {name!r} appears twice")
        index[name] = number
    return index


def _space_fields(source: str, entry: dict[str, Any]) -> tuple[int, int, int, int]:
    """Terrain, river, x and y of one space, checked."""
    name = entry["id"]
    extra = sorted(set(entry) - SPACE_KEYS)
    missing = sorted({"terrain", "x", "y", "next"} - set(entry))
    if extra or missing:
        raise _fail(source, f"space {name!r}: missing keys {missing}, unknown keys {extra}")
    if entry["terrain"] not in TERRAINS:
        raise _fail(source, f"space {name!r}: terrain must be one of {list(TERRAINS)}, "
                            f"got {entry['terrain']!r}")
    terrain = TERRAINS.index(entry["terrain"])
    watery = terrain in (RIVER, CROSSING)
    if watery != ("river" in entry):
        raise _fail(source, f"space {name!r}: rivers and crossings (only) need `river`")
    river = _int(source, f"space {name!r}: river", entry["river"], 1, 9) if watery else 0
    if (terrain == LAIR) != ("footprints" in entry):
        raise _fail(source, f"space {name!r}: lairs (only) need `footprints`")
    x = _int(source, f"space {name!r}: x", entry["x"], 0, 38)
    y = _int(source, f"space {name!r}: y", entry["y"], 0, 20)
    return terrain, river, x, y


def _check_adjacency(source: str, names: tuple[str, ...],
                     neighbors: list[list[int]]) -> None:
    for space, near in enumerate(neighbors):
        if space in near:
            raise _fail(source, f"space {names[space]!r} is listed next to itself")
        for other in near:
            if space not in neighbors[other]:
                raise _fail(source, f"space {names[space]!r} lists {names[other]!r} in `next` "
                                    f"but not the other way round")


def _check_drawing(source: str, names: tuple[str, ...], places: list[tuple[int, int]]) -> None:
    """Spaces are drawn three characters wide at ``2 * x``: two must not overlap."""
    taken: dict[tuple[int, int], str] = {}
    for name, (x, y) in zip(names, places, strict=True):
        for column in (x - 1, x, x + 1):
            if (column, y) in taken:
                raise _fail(source, f"spaces {taken[(column, y)]!r} and {name!r} are drawn on "
                                    f"top of each other (x {column} and {x}, y {y})")
        taken[(x, y)] = name


def _of(terrain: list[int], kind: int) -> tuple[int, ...]:
    return tuple(space for space, value in enumerate(terrain) if value == kind)


def _count(source: str, terrain: list[int], kind: int, low: int, high: int) -> tuple[int, ...]:
    found = _of(terrain, kind)
    if not low <= len(found) <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise _fail(source, f"needs {wanted} {TERRAINS[kind]} spaces, found {len(found)}")
    return found


def _check_rivers(source: str, terrain: list[int], river: list[int]) -> None:
    rivers = sorted({value for value in river if value})
    crossings = sorted(sum(1 for space, value in enumerate(river)
                           if value == number and terrain[space] == CROSSING)
                       for number in rivers)
    if tuple(crossings) != RIVER_CROSSINGS:
        raise _fail(source, f"needs 3 rivers, one with two crossings and two with one; "
                            f"found crossings per river {crossings}")


def _check_lairs(source: str, names: tuple[str, ...], terrain: list[int],
                 neighbors: list[list[int]], footprints: list[list[int]]) -> None:
    for lair, marks in zip(_of(terrain, LAIR), footprints, strict=True):
        if not marks or any(terrain[mark] != FOOTPRINT for mark in marks):
            raise _fail(source, f"lair {names[lair]!r}: footprints must be footprint spaces")
        if sorted(neighbors[lair]) != sorted(marks):
            raise _fail(source, f"lair {names[lair]!r} must be next to its footprints only")
    owners = [mark for marks in footprints for mark in marks]
    for mark in _of(terrain, FOOTPRINT):
        if owners.count(mark) != 1:
            raise _fail(source, f"footprint {names[mark]!r} must mark exactly one lair")


def _check_ring(source: str, names: tuple[str, ...], terrain: list[int],
                neighbors: list[list[int]], ring: list[int]) -> None:
    if len(ring) < 4:
        raise _fail(source, "swamp_ring needs at least 4 spaces")
    if sorted(ring) != sorted(_of(terrain, SWAMP)):
        raise _fail(source, "swamp_ring must list every swamp space, and only those")
    for here, there in zip(ring, ring[1:] + ring[:1], strict=True):
        if there not in neighbors[here]:
            raise _fail(source, f"swamp_ring is not a cycle: {names[here]!r} is not next to "
                                f"{names[there]!r}")
    for inner in _of(terrain, INNER_SWAMP):
        if not any(terrain[other] == SWAMP for other in neighbors[inner]):
            raise _fail(source, f"inner swamp space {names[inner]!r} touches no swamp ring space")


def _check_exits(source: str, names: tuple[str, ...], terrain: list[int],
                 neighbors: list[list[int]], exits: list[int]) -> None:
    if not exits or any(terrain[space] != SWAMP for space in exits):
        raise _fail(source, "swamp_exits must name swamp ring spaces")
    for space in exits:
        if not any(terrain[other] in WALKABLE for other in neighbors[space]):
            raise _fail(source, f"swamp exit {names[space]!r} leads to no dry land")
    for space in _of(terrain, SWAMP) + _of(terrain, INNER_SWAMP):
        if space not in exits and any(terrain[o] not in SWAMPY for o in neighbors[space]):
            raise _fail(source, f"swamp space {names[space]!r} is not an exit but touches "
                                f"land (only the exit arrows lead out of the swamp)")


def _check_volcano(source: str, names: tuple[str, ...], terrain: list[int],
                   neighbors: list[list[int]], slope: list[int], start: int,
                   lava: list[int]) -> None:
    if len(slope) != SLOPE_SPACES or sorted(slope) != sorted(_of(terrain, SLOPE)):
        raise _fail(source, f"volcano_slope must list the {SLOPE_SPACES} slope spaces A-F")
    chain = [*slope, start]
    for here, there in itertools.pairwise(chain):
        if there not in neighbors[here]:
            raise _fail(source, f"volcano_slope: {names[here]!r} is not next to "
                                f"{names[there]!r}")
    if start not in lava or terrain[start] not in WALKABLE | {RIVER}:
        raise _fail(source, "lava_start must be a valley space listed in lava_spaces")
    for space in lava:  # a lair under lava would leave a captor nowhere to go (ruling 1)
        if terrain[space] in NO_DINOSAUR | {LAIR}:
            raise _fail(source, f"lava_spaces: lava never covers {TERRAINS[terrain[space]]} "
                                f"space {names[space]!r}")


def _check_reachable(source: str, names: tuple[str, ...], terrain: list[int],
                     neighbors: list[list[int]], entries: Iterable[int]) -> None:
    ground = WALKABLE | {RIVER}
    seen = set(entries)
    queue = deque(seen)
    while queue:
        for other in neighbors[queue.popleft()]:
            if other not in seen and terrain[other] in ground:
                seen.add(other)
                queue.append(other)
    lost = [names[space] for space, kind in enumerate(terrain) if kind in ground
            and space not in seen]
    if lost:
        raise _fail(source, f"spaces {lost} cannot be reached from an entry")


def _lists(source: str, index: Mapping[str, int], document: dict[str, Any],
           spaces: list[dict[str, Any]]) -> dict[str, Any]:
    """Every space reference in the file, resolved to ids."""
    return {
        "neighbors": [_names(source, index, entry["next"], f"space {entry['id']!r}: next")
                      for entry in spaces],
        "footprints": [_names(source, index, entry["footprints"],
                              f"lair {entry['id']!r}: footprints")
                       for entry in spaces if "footprints" in entry],
        "ring": _names(source, index, document["swamp_ring"], "swamp_ring"),
        "exits": _names(source, index, document["swamp_exits"], "swamp_exits"),
        "monster": _name(source, index, document["swamp_monster"], "swamp_monster"),
        "slope": _names(source, index, document["volcano_slope"], "volcano_slope"),
        "start": _name(source, index, document["lava_start"], "lava_start"),
        "lava": _names(source, index, document["lava_spaces"], "lava_spaces"),
    }


def parse_board(document: dict[str, Any], source: str) -> Board:
    """Check a parsed board file and build its :class:`Board`."""
    missing, extra = sorted(TOP_KEYS - set(document)), sorted(set(document) - TOP_KEYS)
    if missing or extra:
        raise _fail(source, f"missing top-level keys {missing}, unknown ones {extra}")
    index = _space_ids(source, document["spaces"])
    spaces: list[dict[str, Any]] = document["spaces"]
    fields = [_space_fields(source, entry) for entry in spaces]
    names = tuple(index)
    terrain = [field[0] for field in fields]
    refs = _lists(source, index, document, spaces)
    neighbors: list[list[int]] = refs["neighbors"]
    _check_adjacency(source, names, neighbors)
    _count(source, terrain, LAIR, LAIRS, LAIRS)
    entries = _count(source, terrain, ENTRY, ENTRIES, ENTRIES)
    temple = _count(source, terrain, TEMPLE, 1, 1)[0]
    _count(source, terrain, CAVE, CAVES, CAVES)
    _count(source, terrain, AMMO_DUMP, 1, MAX_SPACES)
    if sorted(neighbors[temple]) != sorted(_of(terrain, TEMPLE_ARROW)):
        raise _fail(source, "the temple must be next to every temple-arrow space, and to "
                            "nothing else")
    _check_drawing(source, names, [(field[2], field[3]) for field in fields])
    _check_rivers(source, terrain, [field[1] for field in fields])
    _check_lairs(source, names, terrain, neighbors, refs["footprints"])
    _check_ring(source, names, terrain, neighbors, refs["ring"])
    _check_exits(source, names, terrain, neighbors, refs["exits"])
    if refs["monster"] not in refs["ring"]:
        raise _fail(source, "swamp_monster must start on a swamp ring space")
    _check_volcano(source, names, terrain, neighbors, refs["slope"], refs["start"], refs["lava"])
    _check_reachable(source, names, terrain, neighbors, entries)
    return Board(
        names=names, terrain=tuple(terrain),
        neighbors=tuple(tuple(sorted(near)) for near in neighbors),
        river=tuple(field[1] for field in fields), x=tuple(field[2] for field in fields),
        y=tuple(field[3] for field in fields), lairs=_of(terrain, LAIR),
        footprints=tuple(tuple(marks) for marks in refs["footprints"]),
        swamp_ring=tuple(refs["ring"]), swamp_exits=tuple(refs["exits"]),
        swamp_monster=refs["monster"], volcano_slope=tuple(refs["slope"]),
        lava_start=refs["start"], lava_spaces=frozenset(refs["lava"]), entries=entries,
        temple=temple, temple_arrows=_of(terrain, TEMPLE_ARROW), caves=_of(terrain, CAVE),
        ammo_dumps=_of(terrain, AMMO_DUMP), source=source)


@functools.cache
def default_board() -> Board:
    """The shipped board (``board.toml``), parsed once."""
    text = resources.files(__package__).joinpath("board.toml").read_text("utf-8")
    return parse_board(tomllib.loads(text), "board.toml")


def load_board(path: str) -> Board:
    """The board in ``path``, or the shipped one for an empty path."""
    if not path:
        return default_board()
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
    return parse_board(document, path)
