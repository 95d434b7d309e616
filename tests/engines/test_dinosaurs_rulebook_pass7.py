"""Lost Valley of the Dinosaurs, seventh rulebook pass: interactions between rules.

Each scenario is built through the documented public surface only (engines/dinosaurs/README.md):
the registry's ``Game``, action ids, ``observation`` and ``Game.state_from_observation`` on an
edited observation. No engine module is imported. Each test quotes the rulebook sentence
(rules/lost-valley-of-the-dinosaurs.txt) it checks; tests/engines/RULES-COVERAGE-dinosaurs.md
names them in its rows, and RULINGS.md ("Seventh pass") gives the readings.
"""

from __future__ import annotations

import pytest
from test_dinosaurs_blackbox import CARD, LEAVE, NAME, Obs, die, explorer, phase, put, view
from test_dinosaurs_rulebook_pass3 import at_draw
from test_dinosaurs_rulebook_pass4 import spot

from arena.game import Game, State
from arena.plugins import require_registry


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def names(state: State, actions: list[int]) -> list[str]:
    return [state.action_to_string(action) for action in actions]


def moving(game: Game, edit: object) -> State:
    """Seat 0 to pick its move in the position ``edit`` sets: its card (Escape from the Swamp,
    nobody in the swamp) did nothing."""
    state = at_draw(game, edit)  # type: ignore[arg-type]
    state.apply_action(CARD["escape-swamp"])
    assert phase(state) == "move-pick"
    return state


# --- the move and the valley's exit -------------------------------------------------------------

def test_on_an_entry_with_points_left_no_dead_end_step_is_offered_beside_leaving(
        game: Game) -> None:
    """'They don't need an exact die roll to enter the temple, or to exit the valley.' A move
    otherwise uses its whole roll (RULINGS.md 8): a step that leaves points unused is offered
    only when nothing else ends the move properly, and leaving by the arrow does. Explorer 0
    walks from g13 onto the entry f13 with 3 of its 4 points left; every step from there (back
    to g13, or on to the footprint e13) is a dead end among dinosaurs, so leaving is the one
    choice."""
    def edit(o: Obs) -> None:
        for dinosaur, name in enumerate(("d12", "e12", "f12", "g12", "h12", "h13")):
            o["dinosaurs"][dinosaur] = spot(o, name)
        put(o, 0, 0, spot(o, "g13"))
    state = moving(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(4))
    assert names(state, state.legal_actions()) == ["step to f13 (entry)"]
    state.apply_action(spot(view(state), "f13"))
    assert state.legal_actions() == [LEAVE]
    state.apply_action(LEAVE)
    assert view(state)["players"][0]["explorers"][0] == -1


def test_on_an_entry_a_step_that_can_use_the_roll_is_still_offered(game: Game) -> None:
    """The same sentence: leaving needs no exact roll, but it is a choice ('They may enter or
    leave the valley by any of the four arrows'), so a step after which the roll can still be
    used up stays on offer beside it: from f13 with 3 points, e13 then back onto f13 and out,
    or g13 and back."""
    def edit(o: Obs) -> None:
        for dinosaur, name in enumerate(("d12", "e12", "f12", "g12", "h12", "h13")):
            o["dinosaurs"][dinosaur] = spot(o, name)
        put(o, 0, 0, spot(o, "f13"))
    state = moving(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(3))
    assert names(state, state.legal_actions()) == [
        "step to e13 (footprint)", "step to g13 (land)", "leave the valley"]
