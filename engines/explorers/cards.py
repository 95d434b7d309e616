"""The cards: loading and checking the deck's data file.

Card ids are indices into a :class:`CardSet`: the dinosaurs first, in file
order, then the four advantages. The shipped deck is ``dinosaurs.toml``
beside this module; a user may point the game option ``cards`` to their own
file, which is checked here and rejected with :class:`InvalidOptions`.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from arena.game import InvalidOptions

SPECIES = ("pterodactylus", "iguanodon", "plesiosaurus", "megalosaurus")
"""The four species, indexed by species id."""

TRAIL_TOKENS = (4, 3, 2, 1)
"""Trail tokens per species in the advanced game (10 in all)."""

TRAIL_BONUS = (1, 1, 2, 2)
"""Extra points per captured dinosaur of the species on a kept trail token."""

DINOSAUR = 0
HAVEN_OF_PEACE = 1
ALLIES = 2
AMMUNITION_BOX = 3
HOUND = 4
EFFECTS = {"haven-of-peace": HAVEN_OF_PEACE, "allies": ALLIES,
           "ammunition-box": AMMUNITION_BOX, "hound": HOUND}
"""Advantage effects as named in a card file, with their kind ids."""

MAX_CARDS = 32
"""Largest deck the action encoding has room for."""

MIN_DINOSAURS = 4
MAX_DINOSAURS = MAX_CARDS - len(EFFECTS)

DINOSAUR_FIELDS = ("name", "species", "difficulty", "points", "damage_success", "damage_failure")
ADVANTAGE_FIELDS = ("name", "effect")


@dataclass(frozen=True, slots=True)
class CardSet:
    """A deck's cards as parallel tuples indexed by card id (fast to read in the rules)."""

    names: tuple[str, ...]
    kind: tuple[int, ...]
    species: tuple[int, ...]
    difficulty: tuple[int, ...]
    points: tuple[int, ...]
    damage_success: tuple[int, ...]
    damage_failure: tuple[int, ...]
    source: str

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """The id of the card called ``name`` (ValueError if absent)."""
        return self.names.index(name)

    def describe(self, card: int) -> dict[str, Any]:
        """A JSON-able view of one card."""
        if self.kind[card] == DINOSAUR:
            return {"id": card, "name": self.names[card], "type": "dinosaur",
                    "species": SPECIES[self.species[card]],
                    "difficulty": self.difficulty[card], "points": self.points[card],
                    "damage_success": self.damage_success[card],
                    "damage_failure": self.damage_failure[card]}
        effect = next(key for key, value in EFFECTS.items() if value == self.kind[card])
        return {"id": card, "name": self.names[card], "type": "advantage", "effect": effect}


def _fail(source: str, message: str) -> InvalidOptions:
    return InvalidOptions(f"explorers: card file {source}: {message}")


def _int_field(source: str, where: str, entry: dict[str, Any], key: str, low: int,
               high: int) -> int:
    value = entry[key]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(source, f"{where}: {key} must be an integer from {low} to {high}, "
                            f"got {value!r}")
    return value


def _check_fields(source: str, where: str, entry: Any, fields: tuple[str, ...]) -> None:
    if not isinstance(entry, dict):
        raise _fail(source, f"{where} must be a table")
    missing = [key for key in fields if key not in entry]
    extra = sorted(set(entry) - set(fields))
    if missing or extra:
        raise _fail(source, f"{where}: missing keys {missing}, unknown keys {extra}; "
                            f"expected exactly {list(fields)}")
    if not isinstance(entry["name"], str) or not entry["name"].strip():
        raise _fail(source, f"{where}: name must be a non-empty string")


def _dinosaur_row(source: str, number: int, entry: Any) -> tuple[str, int, int, int, int, int]:
    where = f"dinosaur #{number + 1}"
    _check_fields(source, where, entry, DINOSAUR_FIELDS)
    if entry["species"] not in SPECIES:
        raise _fail(source, f"{where}: species must be one of {list(SPECIES)}, "
                            f"got {entry['species']!r}")
    difficulty = _int_field(source, where, entry, "difficulty", 2, 12)
    points = _int_field(source, where, entry, "points", 0, 9)
    failure = _int_field(source, where, entry, "damage_failure", 0, 6)
    success = _int_field(source, where, entry, "damage_success", 0, failure)
    return (entry["name"], SPECIES.index(entry["species"]), difficulty, points, success,
            failure)


def _advantage_kinds(source: str, entries: Any) -> list[tuple[str, int]]:
    if not isinstance(entries, list) or len(entries) != len(EFFECTS):
        raise _fail(source, f"needs exactly {len(EFFECTS)} [[advantages]] tables")
    rows = []
    for number, entry in enumerate(entries):
        _check_fields(source, f"advantage #{number + 1}", entry, ADVANTAGE_FIELDS)
        if not isinstance(entry["effect"], str) or entry["effect"] not in EFFECTS:
            raise _fail(source, f"advantage #{number + 1}: effect must be one of "
                                f"{list(EFFECTS)}, got {entry['effect']!r}")
        rows.append((entry["name"], EFFECTS[entry["effect"]]))
    if len({kind for _, kind in rows}) != len(EFFECTS):
        raise _fail(source, f"each advantage effect {list(EFFECTS)} must appear once")
    return rows


def parse_cards(document: dict[str, Any], source: str) -> CardSet:
    """Check a parsed card file and build its :class:`CardSet`."""
    extra = sorted(set(document) - {"dinosaurs", "advantages"})
    if extra:
        raise _fail(source, f"unknown top-level keys {extra}")
    dinosaurs = document.get("dinosaurs")
    if not isinstance(dinosaurs, list) or not MIN_DINOSAURS <= len(dinosaurs) <= MAX_DINOSAURS:
        raise _fail(source, f"needs {MIN_DINOSAURS} to {MAX_DINOSAURS} [[dinosaurs]] tables")
    rows = [_dinosaur_row(source, number, entry) for number, entry in enumerate(dinosaurs)]
    advantages = _advantage_kinds(source, document.get("advantages"))
    names = tuple(row[0] for row in rows) + tuple(name for name, _ in advantages)
    if len(set(names)) != len(names):
        raise _fail(source, "card names must be unique")
    blanks = (-1,) * len(advantages)
    return CardSet(
        names=names,
        kind=(DINOSAUR,) * len(rows) + tuple(kind for _, kind in advantages),
        species=tuple(row[1] for row in rows) + blanks,
        difficulty=tuple(row[2] for row in rows) + blanks,
        points=tuple(row[3] for row in rows) + (0,) * len(advantages),
        damage_success=tuple(row[4] for row in rows) + (0,) * len(advantages),
        damage_failure=tuple(row[5] for row in rows) + (0,) * len(advantages),
        source=source,
    )


@functools.cache
def default_cards() -> CardSet:
    """The shipped deck (``dinosaurs.toml``), parsed once."""
    text = resources.files(__package__).joinpath("dinosaurs.toml").read_text("utf-8")
    return parse_cards(tomllib.loads(text), "dinosaurs.toml")


def load_cards(path: str) -> CardSet:
    """The deck in ``path``, or the shipped one for an empty path."""
    if not path:
        return default_cards()
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
    return parse_cards(document, path)
