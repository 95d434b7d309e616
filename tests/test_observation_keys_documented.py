"""Each engine README documents what ``act`` receives: a bot author reads only that page.

Random playouts of every shipped game collect every key of every observation (at any depth),
every phase a seat decides in and the names the board and the cards use as values; each must
be named in backticks on the game's README, so a field, phase or value added later without
its documentation fails here.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arena.game import CHANCE, sample_chance
from arena.plugins import require_registry

ROOT = Path(__file__).parent.parent

ENGINES: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "explorers-of-the-lost-valley": ("explorers", [{"advanced": False}, {"advanced": True}]),
    "lost-valley-of-the-dinosaurs": ("dinosaurs", [{"coins": 1}, {"coins": 3}]),
    "lost-explorers": ("lost_explorers", [{}]),
}
VEHICLES = {"train", "car", "boat", "airship"}
"""Lost Explorers' vehicle names, which are keys of its ``vehicles`` and ``discard`` dicts."""


def named_on(engine: str) -> set[str]:
    """Everything the README writes in backticks, split at commas and spaces."""
    text = (ROOT / "engines" / engine / "README.md").read_text()
    return {word for span in re.findall(r"`([^`]+)`", text) for word in re.split(r"[\s,]+", span)
            if word}


def observations(game_name: str, options: dict[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The observations of the seats on move in random playouts, at every player count."""
    game = require_registry().game(game_name)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(4):
            state, rng = game.new_initial_state(players, options), random.Random(seed)
            while not state.is_terminal():
                if state.current_player() == CHANCE:
                    state.apply_action(sample_chance(state.chance_outcomes(), rng))
                    continue
                yield state.observation(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            yield state.observation(0)


STATIC = ("board", "cards", "box")
"""The parts of an observation that never change in a match: walked once per object."""


@dataclass(frozen=True)
class Seen:
    """What the random playouts of one game showed: keys, phases, and keys with strings."""

    keys: frozenset[str]
    phases: frozenset[str]
    strings: frozenset[str]


@functools.cache
def seen(game_name: str) -> Seen:
    """One pass over every observation of the playouts, shared by the tests below (the
    Dinosaurs playouts alone are some 40,000 observations)."""
    found_keys: set[str] = set()
    phases: set[str] = set()
    strings: set[str] = set()
    static: dict[int, Any] = {}  # held, so that an id is never reused while we look
    for options in ENGINES[game_name][1]:
        for observation in observations(game_name, options):
            phases.add(observation["phase"])
            for part, value in observation.items():
                if part in STATIC:
                    if id(value) in static:
                        continue
                    static[id(value)] = value
                walk({part: value}, found_keys, strings)
    return Seen(frozenset(found_keys), frozenset(phases), frozenset(strings))


def walk(value: Any, found_keys: set[str], strings: set[str]) -> None:
    """Add to ``found_keys`` every key of every dict in ``value`` at any depth (dicts keyed by
    data left out), and to ``strings`` every key and every string value."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            strings.add(key)
            if key not in VEHICLES and not re.fullmatch(r"[a-z]+(-[a-z]+)+", key):
                found_keys.add(key)
            if isinstance(inner, (Mapping, list, str)):
                walk(inner, found_keys, strings)
    elif isinstance(value, list):
        for inner in value:
            if isinstance(inner, (Mapping, list, str)):
                walk(inner, found_keys, strings)
    elif isinstance(value, str):
        strings.add(value)


@pytest.mark.parametrize("game_name", sorted(ENGINES))
def test_every_observation_key_and_phase_is_named_on_the_engine_readme(game_name: str) -> None:
    named = named_on(ENGINES[game_name][0])
    assert seen(game_name).keys - named == set(), "observation keys the README does not name"
    assert seen(game_name).phases - named == set(), "phases the README does not name"


def test_every_terrain_of_the_dinosaurs_board_is_named_on_its_readme() -> None:
    """A bot author reading ``board.terrain`` met 13 names the page did not list (``land``,
    ``crossing``, ``temple-arrow``, ...) and had to print the board to learn them."""
    game = require_registry().game("lost-valley-of-the-dinosaurs")
    terrains = set(game.new_initial_state(2).observation(0)["board"]["terrain"])
    assert len(terrains) == 13
    assert terrains - named_on("dinosaurs") == set()


def test_every_card_kind_and_effect_of_explorers_is_named_on_its_readme() -> None:
    game = require_registry().game("explorers-of-the-lost-valley")
    cards = game.new_initial_state(2).observation(0)["cards"]
    assert set(cards["kind"]) | set(cards["species"]) - {""} <= named_on("explorers") | {
        "pterodactylus", "iguanodon", "plesiosaurus", "megalosaurus"}


NOT_IN_PLAY = {"null", "i", "bound"}
"""Words of the Observation sections that no observation holds: JSON's ``null``, the ``i`` of
Explorers' "``i``-th species", and Dinosaurs' ``end_reason`` ``bound``, the 600-turn bound
that random playouts never reach."""


@pytest.mark.parametrize("game_name", sorted(ENGINES))
def test_every_field_the_engine_readme_documents_is_in_the_observation(game_name: str) -> None:
    """The other way round: a bot author reads a field on the page and finds it in ``act``'s
    observation. Every name the Observation section writes in backticks (a field, or a value
    such as a phase) is a key or a string value of the observations of random playouts, so a
    field renamed or dropped without its documentation fails here (``KeyError`` in the bot)."""
    engine = ENGINES[game_name][0]
    text = (ROOT / "engines" / engine / "README.md").read_text()
    section = text.split("## Observation (what `act` receives)\n")[1].split("\n## ")[0]
    documented = {span.strip() for span in re.findall(r"`([^`]+)`", section)
                  if re.fullmatch(r"[a-z][a-z0-9_]*", span.strip())}
    assert len(documented) > 20
    assert documented - seen(game_name).strings - NOT_IN_PLAY == set(), (
        "documented, in no observation")
