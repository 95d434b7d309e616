"""Seventh rulebook pass over Explorers of the Lost Valley.

Each test quotes the sentence it checks and builds its position by naming the chance
outcomes (``test_explorers_helpers``). The pass played the rulebook's sentences through
the public API again (the third pass's independent referee of whole matches still agrees
with the engine) and found one thing a rulebook reader would not accept: the steal's
``action_to_string`` promised a die roll first, where the rulebook (and the engine) ask a
player first, and where, with no one left to ask, no die is thrown at all; and a card file
that is not UTF-8 text, or whose advantage effect is a list, escaped as Python's own error,
not a one-line refusal. It also records a
reading the rulebook leaves open (RULINGS.md, "Seventh pass"): an extra action gained (the
Allies', or one bought) is an action of the turn like the first, to be played, not passed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_explorers_helpers import CAMP, ask, draw, play, roll, setup

from arena.game import InvalidOptions
from engines.explorers import actions as A
from engines.explorers.game import ExplorersGame
from engines.explorers.state import ExplorersState

GALVENSIS, KOCHI, MANTELLI = "Iguanodon galvensis", "Pterodactylus kochi", "Iguanodon mantelli"
TRAILS = (("pterodactylus", "iguanodon"), ("iguanodon", "plesiosaurus"),
          ("pterodactylus", "megalosaurus"))
TURN_ACTIONS = [A.TAKE, A.TAKE + 1, A.DISCARD, A.DISCARD + 1, A.BASE_CAMP, A.ABANDON]
""""In their turn, each player can take one of the following actions": the row's two
cards, taken or discarded, the base camp, abandoning."""


def _steal_strings(state: ExplorersState) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()
            if A.STEAL <= action < A.STEAL_CARD]


# --- the steal's name -----------------------------------------------------------------------


def test_the_steal_is_named_by_its_discard_and_the_asking_not_by_a_die() -> None:
    """"In your turn you can, as an action, discard one of your trail tokens. If you do so,
    you can politely ask for a dinosaur ... If you want to steal a dinosaur, throw a die."
    The action is named for what it does first, the discard and the asking; the die comes
    only once a player is asked (ruling 29), so the name promises no throw before it."""
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    names = _steal_strings(state)
    assert names == ["steal: discard a pterodactylus trail token and ask a player for a dinosaur",
                     "steal: discard a iguanodon trail token and ask a player for a dinosaur"]
    play(state, A.STEAL)
    assert state.observation(0)["phase"] == "steal-victim"  # asked first, no die yet
    assert state.action_to_string(ask(1)) == "steal: ask seat 1 for a dinosaur"


def test_with_no_one_left_to_ask_the_steal_says_it_is_the_discard_alone() -> None:
    """"You can't steal from a player that has abandoned the adventure." With every other
    explorer out, the steal is the discard and nothing more (ruling 30): no player is asked,
    no die thrown, and the action's name says so instead of promising a throw."""
    state = setup(2, row=(KOCHI, MANTELLI), trails=TRAILS[:2])
    play(state, *CAMP, A.ABANDON)
    assert state.current_player() == 0
    names = _steal_strings(state)
    assert names and all(name.endswith("trail token (no player left to ask)") for name in names)
    assert not any("die" in name for name in names)
    play(state, A.STEAL)
    assert state.observation(0)["phase"] == "turn-end"  # no die, no one asked


# --- an extra action is one of the turn's actions (seventh pass reading) ----------------------


def test_the_allies_action_is_a_turn_action_to_play_not_to_pass() -> None:
    """"Allies: If you take the allies, you will gain an additional action this turn." and
    "In their turn, each player can take one of the following actions". The additional
    action is one more of the listed actions (RULINGS.md, seventh pass): the explorer on move
    is offered exactly the turn's choices, the extra action they may still buy included, and
    no way to end the turn; once it is played, the turn may end."""
    state = setup(3, row=(GALVENSIS, "Allies"))
    play(state, A.TAKE + 1, draw(KOCHI))
    assert state.current_player() == 0 and state.observation(0)["actions_left"] == 1
    assert state.legal_actions() == [*TURN_ACTIONS, A.EXTRA_ACTION]
    assert A.END_TURN not in state.legal_actions()
    play(state, A.DISCARD, draw(MANTELLI))  # the Allies' action, spent on a discard
    assert state.current_player() == 0 and state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]
    play(state, A.END_TURN)
    assert state.current_player() == 1


def test_a_bought_action_is_played_like_the_turns_own() -> None:
    """"A player can earn an additional action after discarding two of his own exploration
    tokens." Bought before the turn's action, it makes two actions of the list to play: after
    the first, the explorer is offered the list again, and no way to end the turn, nor a
    second purchase ("only win one extra action per turn")."""
    state = setup(3, row=(GALVENSIS, KOCHI))
    play(state, A.EXTRA_ACTION)
    assert state.observation(0)["players"][0]["exploration_tokens"] == 4
    play(state, A.TAKE + 1, roll(12), draw(MANTELLI))  # Kochi captured: damage 0 on a success
    assert state.current_player() == 0
    assert state.legal_actions() == TURN_ACTIONS
    play(state, A.BASE_CAMP)
    assert state.current_player() == 1


# --- bad input --------------------------------------------------------------------------------


def test_a_card_file_that_is_not_utf8_text_is_refused_in_one_line(tmp_path: Path) -> None:
    """Bad input gets a clear one-line message: a card file saved in Latin-1 (or any binary
    file) is refused as the other unreadable files are, with ``InvalidOptions`` naming the
    file and the first byte at fault. It used to escape as Python's ``UnicodeDecodeError``."""
    latin1 = tmp_path / "dinosaurs.toml"
    latin1.write_bytes('[[dinosaurs]]\nname = "Iguanodon bernissartensé"\n'.encode("latin-1"))
    with pytest.raises(InvalidOptions) as refused:
        ExplorersGame().new_initial_state(2, {"cards": str(latin1)})
    message = str(refused.value)
    assert "\n" not in message
    assert str(latin1) in message and "is not UTF-8 text (byte 0xe9 at offset" in message


def test_an_advantage_effect_that_is_not_a_name_is_refused_in_one_line(tmp_path: Path) -> None:
    """A card file whose advantage ``effect`` is a list (``effect = ["hound"]``) is refused
    like an unknown effect name, naming the advantage; it used to escape as Python's
    ``TypeError: unhashable type: 'list'``."""
    shipped = (Path(__file__).parents[2] / "engines" / "explorers" / "dinosaurs.toml")
    text = shipped.read_text("utf-8").replace('effect = "hound"', 'effect = ["hound"]')
    assert 'effect = ["hound"]' in text
    edited = tmp_path / "dinosaurs.toml"
    edited.write_text(text, "utf-8")
    with pytest.raises(InvalidOptions, match=r"advantage #\d: effect must be one of .*"
                                             r"got \['hound'\]"):
        ExplorersGame().new_initial_state(2, {"cards": str(edited)})


@pytest.mark.parametrize("malformed", [None, "3", 3.0, True, [1]])
def test_a_malformed_action_is_named_unknown_not_raised(malformed: object) -> None:
    """``action_to_string`` names anything that is not one of the game's ids an unknown
    action, as it does an id out of range (and as Lost Explorers does): a malformed move
    such as ``"3"`` or ``None`` used to raise ``TypeError`` from a comparison."""
    state = setup(2, row=(KOCHI, MANTELLI))
    assert state.action_to_string(malformed) == f"unknown action {malformed!r}"  # type: ignore[arg-type]
    assert state.action_to_string(10**6) == "unknown action 1000000"
