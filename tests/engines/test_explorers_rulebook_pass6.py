"""Sixth rulebook pass over Explorers of the Lost Valley: sentence by sentence.

Written from the rulebook (``rules/explorers-of-the-lost-valley.txt``), the engine's README
and RULINGS.md only, through the public API (the helpers of ``test_explorers_blackbox.py``:
chance outcomes named by their ``action_to_string``, the README's action ids, positions set
up with ``Game.state_from_observation``). Each test quotes the sentences it checks. The pass
read ruling 30 against its sentence and changed it: the trail-token discard is an action even
with no one left to ask. It also found set-ups that no game can hold taken as given (a seat
with two trophies while the match goes on, the match's ``over`` phase, fewer player entries
than players, a re-roll after a throw that had succeeded) or refused with Python's own
error instead of the field at fault; each is now refused by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from test_explorers_blackbox import (
    ALLIES,
    IGUA_6,
    IGUA_7,
    PTERO_4,
    PTERO_6,
    REROLL,
    STEAL_WITH,
    STOP_HUNT,
    TAKE,
    TURN_END,
    card_id,
    chance,
    hunt,
    obs,
    phase,
    player,
    rebuild,
    start,
)

TRAILS = {0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon"),
          2: ("plesiosaurus", "pterodactylus")}

# --- the rulebook's example card ------------------------------------------------------------


def test_the_rulebooks_example_card_read_as_the_rulebook_reads_it() -> None:
    """"For example, this Iguanodon bernissartensis: The number that you see at the bottom left
    side of the card is the DIFFICULTY ... The white icons at the upper side of the card are
    the POINTS ... The first number (black field) is the damage it inflicts after a successful
    hunt. The second number (red field) is the damage it inflicts after a failed hunt. The
    illustration and the name of the dinosaur is also important, because it indicates its
    SPECIES." The example card, as the observation describes it (its printed values are the
    shipped file's assumption, RULINGS.md ruling 1), is hunted twice: seat 0 throws 5, one
    short of its difficulty, stops, and takes the red field's damage; seat 1 throws exactly its
    difficulty, takes the black field's damage and the card, worth its points doubled as the
    only iguanodon (its name gives the species)."""
    state = start(2, row=(PTERO_6, IGUA_6))
    example = obs(state)["row"][1]
    assert example["name"].split()[0].lower() == example["species"] == "iguanodon"
    difficulty, points = example["difficulty"], example["points"]
    black, red = example["damage_success"], example["damage_failure"]
    hunt(state, 1, difficulty - 1)
    state.apply_action(STOP_HUNT)
    assert player(state, 0)["exploration_tokens"] == 6 - red
    hunt(state, 1, difficulty)
    chance(state, PTERO_4)
    seat1 = player(state, 1)
    assert seat1["dinosaurs"] == [card_id(state, IGUA_6)]
    assert seat1["exploration_tokens"] == 6 - black and seat1["points"] == 2 * points


# --- ruling 30: the trail-token discard is an action, whoever is left to ask ----------------


def test_a_lone_explorer_spends_the_allies_action_on_a_trail_token_without_touching_the_row(
) -> None:
    """"In your turn you can, as an action, discard one of your trail tokens. If you do so, you
    can politely ask for a dinosaur" and "You can't steal from a player that has abandoned the
    adventure." Seats 1 and 2 abandoned; seat 0 takes the Allies (one more action this turn)
    and spends it discarding its pterodactylus token: no one is asked, no die is thrown, the
    row and the deck are as they were, and the turn is over (RULINGS.md, ruling 30)."""

    def alone(table: dict[str, Any]) -> None:
        table["players"][1]["abandoned"] = table["players"][2]["abandoned"] = True

    state = rebuild(start(3, row=(ALLIES, IGUA_7), advanced=True, trails=TRAILS), alone)
    state.apply_action(TAKE[0])
    chance(state, PTERO_4)
    before = obs(state)
    assert before["actions_left"] == 1
    assert STEAL_WITH["pterodactylus"] in state.legal_actions()
    state.apply_action(STEAL_WITH["pterodactylus"])
    after = obs(state)
    assert after["row"] == before["row"] and after["deck_count"] == before["deck_count"]
    assert after["players"][0]["trail_tokens"] == ["megalosaurus"]
    assert after["steal_victim"] is None and phase(state) == "turn-end"
    state.apply_action(TURN_END)
    assert state.current_player() == 0 and obs(state)["steal_locked"]
    assert not set(state.legal_actions()) & set(STEAL_WITH.values())


def test_a_steal_from_explorers_with_no_dinosaur_is_offered_as_before() -> None:
    """Ruling 30 kept its other half: "you can politely ask for a dinosaur" with nobody holding
    one is still a legal steal, which asks and gets nothing ("If the chosen player doesn't
    have any dinosaur with that value (or less), you get nothing")."""
    state = start(3, advanced=True, trails=TRAILS)
    state.apply_action(STEAL_WITH["megalosaurus"])
    assert phase(state) == "steal-victim"
    state.apply_action(107 + 2)  # ask seat 2
    chance(state, "die 6")
    assert player(state, 0)["dinosaurs"] == [] and phase(state) == "turn-end"


# --- set-ups no game can hold, refused by the field at fault --------------------------------


def _trophies(count: int) -> Callable[[dict[str, Any]], None]:
    return lambda t: t["players"][1].update(trophies=count)


def _rerolling(**hunt: Any) -> Callable[[dict[str, Any]], None]:
    def change(table: dict[str, Any]) -> None:
        table["phase"], table["actions_left"] = "hunt-reroll", 0
        table["hunt"] = {"slot": 1, "rolls": 1, "ammunition_used": 0, "last_roll": 2, **hunt}
    return change


REFUSED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    # "The first player to have two trophies is the absolute winner of the game."
    "two trophies while the match goes on": (_trophies(2), r"players\[1\]\.trophies is 2"),
    "a negative trophy count": (_trophies(-1), r"players\[1\]\.trophies is -1"),
    "the match's end": (lambda t: t.update(phase="over"), "phase 'over'"),
    "a player entry missing": (lambda t: t["players"].pop(), "num_players is 3 with 2"),
    "five players": (lambda t: t.update(num_players=5), "num_players is 5"),
    "a history row of two seats": (
        lambda t: t.update(adventure=2, history=[[1, 2]], trophy_history=[[0]]),
        "history row"),
    "a history without its trophies": (
        lambda t: t.update(adventure=2, history=[[1, 2, 0]]), "trophy_history 0"),
    "a trophy to seat 7": (
        lambda t: t.update(adventure=2, history=[[1, 2, 0]], trophy_history=[[7]]),
        "trophy_history row"),
    # "You have to obtain the difficulty of the dinosaur or more in order to succeed."
    "a re-roll after a throw that succeeded": (_rerolling(last_roll=7), r"hunt\.last_roll is 7"),
    "a throw of 13": (_rerolling(last_roll=13), r"hunt\.last_roll is 13"),
    # "You can take up to two ammunition tokens per dinosaur (which means that you can throw
    # the dice up to three times)": each throw after the first takes a token.
    "two throws and no ammunition used": (_rerolling(rolls=2), r"hunt\.rolls is 2"),
    "exploration tokens as a string": (
        lambda t: t["players"][0].update(exploration_tokens="6"),
        r"players\[0\]\.exploration_tokens is '6', not a whole number"),
    "dinosaurs as null": (lambda t: t["players"][0].update(dinosaurs=None),
                          r"players\[0\]\.dinosaurs is None, not a list"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_set_up_no_game_can_hold_is_refused_naming_the_field(case: str) -> None:
    """README, *Setting up a position*: "a position no game can hold is refused with a
    ValueError naming the field at fault". Each of these was taken as given (a seat on two
    trophies played on, the ``over`` phase rebuilt a state, a missing player entry or a short
    history row was rebuilt, a re-roll was offered after a throw at the difficulty) or failed
    with a KeyError or TypeError that named nothing."""
    edit, words = REFUSED[case]
    with pytest.raises(ValueError, match=words):
        rebuild(start(3, row=(PTERO_6, IGUA_7)), edit)


def test_the_set_ups_a_rule_test_needs_are_still_accepted() -> None:
    """The checks refuse only the impossible: a seat on one trophy with the adventure that
    gave it in ``history``, and a re-roll after a throw one short of the difficulty (6 for the
    Iguanodon's 7, the second throw after one ammunition token), rebuild and play."""

    def past(table: dict[str, Any]) -> None:
        table["players"][1]["trophies"] = 1
        table.update(adventure=2, history=[[0, 4, 1]], trophy_history=[[1]])

    assert obs(rebuild(start(3), past))["players"][1]["total_points"] == 4

    def rerolling(table: dict[str, Any]) -> None:
        _rerolling(rolls=2, ammunition_used=1, last_roll=6)(table)
        table["players"][0]["ammunition"] = 1
        table["center_ammunition"] -= 1

    state = rebuild(start(3, row=(PTERO_6, IGUA_7)), rerolling)
    assert state.legal_actions() == [REROLL, STOP_HUNT]
