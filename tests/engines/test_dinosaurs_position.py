"""Setting up a position: ``Game.state_from_observation`` on an observation, edited or not.

The README's "Setting up a position" promises: any observation rebuilds (a chance node's
too), an edited one rebuilds the position it describes, and one the rules cannot reach is
refused with a ``ValueError`` naming what is wrong.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_dinosaurs_helpers import GAME, card, space

from arena.game import CHANCE, sample_chance
from engines.dinosaurs.state import DinosaursState

Obs = dict[str, Any]


def _edited(state: DinosaursState, edit: Callable[[Obs], None]) -> DinosaursState:
    obs = json.loads(json.dumps(state.observation(0)))
    edit(obs)
    return GAME.state_from_observation(obs, random.Random(0))


def _draw_node(players: int = 2) -> DinosaursState:
    state = GAME.new_initial_state(players)
    state.apply_action(225)  # seat 0 goes first
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_node_rebuilds_exactly_chance_nodes_included(players: int) -> None:
    rng = random.Random(players)
    state = GAME.new_initial_state(players, {"coins": 3})
    rebuilt = 0
    while not state.is_terminal() and rebuilt < 2000:
        twin = GAME.state_from_observation(json.loads(json.dumps(state.observation(0))), rng)
        for seat in range(players):
            assert twin.observation(seat) == state.observation(seat)
        assert twin.current_player() == state.current_player()
        assert twin.legal_actions() == state.legal_actions()
        assert twin.chance_outcomes() == state.chance_outcomes()
        rebuilt += 1
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_draw_node_rebuilds_so_a_card_meets_a_set_position() -> None:
    """A chance node used to be refused: a test had to play a whole turn to reach a draw."""
    def edit(obs: Obs) -> None:
        ring = obs["board"]["swamp_ring"]
        obs["swamp_monster"] = ring[0]
        obs["players"][1]["explorers"][2] = ring[1]
    state = _edited(_draw_node(), edit)
    assert state.current_player() == CHANCE
    state.apply_action(card("The Swamp Monster"))
    assert state.observation(0)["players"][1]["explorers"][2] == -2


def test_derived_counts_are_worked_out_again() -> None:
    def edit(obs: Obs) -> None:
        obs["players"][0]["explorers"][0] = -2      # "alive" left at 4
        obs["deck"]["volcano"] -= 1                 # "deck_count" left at 54
        obs["discards"]["volcano"] += 1
        obs["current_player"] = 1                   # derived from phase and player
    obs = _edited(_draw_node(), edit).observation(0)
    assert obs["players"][0]["alive"] == 3 and obs["deck_count"] == 53
    assert obs["current_player"] == CHANCE


def _carry(obs: Obs) -> None:
    obs["players"][0]["explorers"][0] = space("e3")
    obs["players"][0]["carrying"][0] = True


def _lava(spaces: list[int], placed: int) -> Callable[[Obs], None]:
    def edit(obs: Obs) -> None:
        obs["lava"], obs["lava_placed"] = spaces, placed
    return edit


def _set(path: str, value: Any) -> Callable[[Obs], None]:
    def edit(obs: Obs) -> None:
        *keys, last = path.split(".")
        target: Any = obs
        for key in keys:
            target = target[int(key) if key.isdigit() else key]
        target[int(last) if last.isdigit() else last] = value
    return edit


SLOPE = [10, 9, 21, 22, 34, 33]  # A-F on the shipped board; G is d9 (44)
REFUSED: list[tuple[str, Callable[[Obs], None], str]] = [
    ("space off the board", _set("players.0.explorers.0", 500), "not a space of the board"),
    ("two dinosaurs", _set("dinosaurs.1", 12), "two dinosaurs share a space"),
    ("dinosaur in the swamp", _set("dinosaurs.0", 107), "no dinosaur enters"),
    ("explorer with a dinosaur", lambda o: (_set("players.0.explorers.0", 52)(o),
                                            _set("dinosaurs.0", 52)(o)), "outside a lair"),
    ("monster on land", _set("swamp_monster", 52), "not on the swamp ring"),
    ("a coin made", _carry, "not the game's 12"),
    ("carrier outside", lambda o: (_set("players.0.carrying.0", True)(o),
                                   _set("temple_coins", 11)(o)), "carries a coin but is outside"),
    ("a card made", _set("players.1.guns", 1), "not the rulebook's 2"),
    ("a bullet made", _set("players.0.bullets", 2), "not the sheet's 12"),
    ("lava count", _lava(SLOPE[:2], 3), "lava_placed is 3"),
    ("lava skips A", _lava(SLOPE[1:3], 2), "first 2 space(s)"),
    ("lava adrift", _lava([*SLOPE, 44, 100], 8), "not joined to G"),
    ("lava without G", _lava([*SLOPE, 45], 7), "without G"),
    ("explorer under lava", lambda o: (_lava([*SLOPE, 44], 7)(o),
                                       _set("players.1.explorers.3", 44)(o)), "slope or lava"),
    ("unknown phase", _set("phase", "lunch"), "not one of"),
    ("player off the table", _set("player", 2), "not a seat"),
]


@pytest.mark.parametrize(("what", "edit", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_an_unreachable_position_is_refused_and_named(what: str, edit: Callable[[Obs], None],
                                                       message: str) -> None:
    with pytest.raises(ValueError, match="state_from_observation") as refused:
        _edited(_draw_node(), edit)
    assert message in str(refused.value), what


def test_the_readme_example_runs() -> None:
    """The engine README's "Setting up a position" example, run as written."""
    readme = (Path(__file__).parents[2] / "engines" / "dinosaurs" / "README.md").read_text()
    section = readme.split("## Setting up a position", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})  # our own documentation, run as written
