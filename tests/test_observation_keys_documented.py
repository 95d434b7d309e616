"""Each engine README documents what ``act`` receives: a bot author reads only that page.

Random playouts of every shipped game collect every key of every observation (at any depth),
every phase a seat decides in and the names the board and the cards use as values; each must
be named in backticks on the game's README, so a field, phase or value added later without
its documentation fails here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from arena.game import CHANCE, sample_chance
from arena.plugins import require_registry

ROOT = Path(__file__).parent.parent

ENGINES = {
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


def keys(value: Any) -> Iterator[str]:
    """Every key of every dict in ``value``, at any depth (dicts keyed by data left out)."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if key not in VEHICLES and not re.fullmatch(r"[a-z]+(-[a-z]+)+", key):
                yield key
            yield from keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner)


@pytest.mark.parametrize("game_name", sorted(ENGINES))
def test_every_observation_key_and_phase_is_named_on_the_engine_readme(game_name: str) -> None:
    engine, variants = ENGINES[game_name]
    named = named_on(engine)
    found_keys: set[str] = set()
    phases: set[str] = set()
    for options in variants:
        for observation in observations(game_name, options):
            phases.add(observation["phase"])
            found_keys.update(keys({k: v for k, v in observation.items()
                                    if k not in ("board", "cards", "box")}))
        found_keys.update(keys({k: observation[k] for k in ("board", "cards", "box")
                                if k in observation}))
    assert found_keys - named == set(), "observation keys the README does not name"
    assert phases - named == set(), "phases the README does not name"


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


def strings_and_keys(value: Any) -> Iterator[str]:
    """Every key and every string value in ``value``, at any depth."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            yield key
            yield from strings_and_keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from strings_and_keys(inner)
    elif isinstance(value, str):
        yield value


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
    engine, variants = ENGINES[game_name]
    text = (ROOT / "engines" / engine / "README.md").read_text()
    section = text.split("## Observation (what `act` receives)\n")[1].split("\n## ")[0]
    documented = {span.strip() for span in re.findall(r"`([^`]+)`", section)
                  if re.fullmatch(r"[a-z][a-z0-9_]*", span.strip())}
    assert len(documented) > 20
    found: set[str] = set()
    for options in variants:
        for observation in observations(game_name, options):
            found.update(strings_and_keys(observation))
    assert documented - found - NOT_IN_PLAY == set(), "documented, in no observation"
