"""Lost Valley of the Dinosaurs, seventh rulebook pass: interactions between rules.

Each scenario is built through the documented public surface only (engines/dinosaurs/README.md):
the registry's ``Game``, action ids, ``observation`` and ``Game.state_from_observation`` on an
edited observation. No engine module is imported. Each test quotes the rulebook sentence
(rules/lost-valley-of-the-dinosaurs.txt) it checks; tests/engines/RULES-COVERAGE-dinosaurs.md
names them in its rows, and RULINGS.md ("Seventh pass") gives the readings.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_dinosaurs_blackbox import CARD, LEAVE, NAME, Obs, die, dino, explorer, phase, put, view
from test_dinosaurs_rulebook_pass3 import at_draw
from test_dinosaurs_rulebook_pass4 import spot

from arena.game import Game, State
from arena.plugins import require_registry


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def names(state: State, actions: list[int]) -> list[str]:
    return [state.action_to_string(action) for action in actions]


def moving(game: Game, edit: Callable[[Obs], None]) -> State:
    """Seat 0 to pick its move in the position ``edit`` sets: its card (Escape from the Swamp,
    nobody in the swamp) did nothing."""
    state = at_draw(game, edit)
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


# --- the swamp and the dinosaurs meeting explorers ----------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_monster_eats_every_seats_explorers_on_a_blue_exit_arrow(game: Game,
                                                                      players: int) -> None:
    """'The swamp monster moves 1 space in a clockwise motion (on the grey arrows). If the
    Monster lands on a space with an explorer, they are eaten and removed from play.' A blue
    exit arrow is on its round: 'Players can risk the explorer by placing them closer than 3
    spaces from the monster (so they can occupy a blue exit arrow space).' One explorer of
    every seat on the exit i4, the monster one grey arrow before it: all are eaten, whatever
    their seat, with 2, 3 or 4 players."""
    def edit(o: Obs) -> None:
        ring, exit_arrow = o["board"]["swamp_ring"], spot(o, "i4")
        o["swamp_monster"] = ring[ring.index(exit_arrow) - 1]
        for seat in range(players):
            put(o, seat, 1, exit_arrow)
    state = at_draw(game, edit, players)
    state.apply_action(CARD["swamp-monster"])
    obs = view(state)
    assert obs["swamp_monster"] == spot(obs, "i4")
    assert [p["explorers"][1] for p in obs["players"]] == [-2] * players
    assert [p["alive"] for p in obs["players"]] == [3] * players


def test_a_dinosaur_captures_an_explorer_on_a_temple_arrow_but_never_enters_the_temple(
        game: Game) -> None:
    """'Dinosaurs can move freely on all land or water spaces but they can't cross lava, enter
    the Swamp or the Temple' and 'A Dinosaur captures all explorers on a space that it enters':
    a temple arrow is land, the temple is not. Grazing Dinosaurs: a dinosaur on e5 beside the
    arrows e6 and f5 may step onto them, not into the temple f6; stepping onto the opponent on
    e6 captures it, and captor and captive go to the one lair no other dinosaur holds, the
    explorer in the temple staying where it is."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][1] = spot(o, "e5")
        put(o, 1, 0, spot(o, "e6"))
        put(o, 1, 1, o["board"]["temple"])
    state = at_draw(game, edit)
    state.apply_action(CARD["grazing"])
    state.apply_action(dino(1))
    offered = names(state, state.legal_actions())
    assert "dinosaur steps to e6 (temple-arrow)" in offered
    assert "dinosaur steps to f5 (temple-arrow)" in offered
    assert not any("(temple)" in name for name in offered)
    state.apply_action(spot(view(state), "e6"))
    assert phase(state) == "lair-pick"
    assert names(state, state.legal_actions()) == ["take the captives to lair d5 (lair)"]
    state.apply_action(spot(view(state), "d5"))
    obs = view(state)
    assert obs["players"][1]["explorers"][:2] == [spot(obs, "d5"), obs["board"]["temple"]]
    assert obs["dinosaurs"][1] == spot(obs, "d5")


def test_an_explorer_outside_the_valley_does_not_fall_into_the_swamp(game: Game) -> None:
    """'One Member Falls into the Swamp!' with 'This card does NOT permit you to take an
    explorer out of a dinosaur's lair.' Kept reading (RULINGS.md 18, seventh pass): only an
    explorer in the valley can fall into the swamp in it; one still outside the valley is not
    offered, and a seat with nobody in the valley but captives has nobody to drop in."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, o["dinosaurs"][0])  # a captive in a guarded lair; the rest outside
    state = at_draw(game, edit)
    state.apply_action(CARD["falls-into-swamp"])
    assert phase(state) == "move-pick"
    assert view(state)["discards"]["falls-into-swamp"] == 1


# --- what a seat reads ------------------------------------------------------------------------

@pytest.mark.parametrize("malformed", ["x", True, 2.0, None])
def test_something_that_is_no_action_id_is_named_unknown_not_a_move(game: Game,
                                                                     malformed: object) -> None:
    """action_to_string names every action id and nothing else: a value apply_action refuses
    (a string, a bool, a float) is 'unknown', never read as a space ('True' is no step to a2)
    and never an error."""
    state = game.new_initial_state(2)
    state.apply_action(225)
    assert state.action_to_string(malformed) == f"unknown action {malformed!r}"  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(malformed)  # type: ignore[arg-type]
