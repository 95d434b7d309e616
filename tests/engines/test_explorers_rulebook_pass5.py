"""Fifth rulebook pass over Explorers of the Lost Valley: rules meeting in one turn, and the
contested rulings.

Written from the rulebook (``rules/explorers-of-the-lost-valley.txt``), the engine's README
and RULINGS.md only, through the public API (the helpers of ``test_explorers_blackbox.py``:
chance outcomes named by their ``action_to_string``, the README's action ids, positions set
up with ``Game.state_from_observation``). Each test quotes the sentences it checks: two
advantages and a bought action in one turn, the Ammunition Box's tokens used again at once,
an action bought before the adventure's last card, who opens the next adventure when that
seat abandoned, and the readings RULINGS.md ("Contested readings") keeps for rulings 17
and 19, each against the literal alternative.
"""

from __future__ import annotations

from typing import Any

from test_explorers_blackbox import (
    ABANDON,
    ALLIES,
    AMMO_BOX,
    BASE_CAMP,
    BOX_PUT_BACK,
    BUY_ACTION,
    DISCARD,
    HAVEN,
    IGUA_7,
    PTERO_4,
    PTERO_5,
    PTERO_6,
    REROLL,
    STOP_HUNT,
    TAKE,
    TURN_END,
    card_id,
    chance,
    give,
    hunt,
    last_adventure,
    obs,
    phase,
    player,
    rebuild,
    set_deck,
    start,
)

from arena.game import CHANCE

# --- several rules in one turn ------------------------------------------------------------------


def test_two_advantages_and_a_bought_action_make_a_turn_of_three_actions() -> None:
    """"Allies: If you take the allies, you will gain an additional action this turn. Also, you
    will gain +1 in all your future hunt throws", "A player can earn an additional action after
    discarding two of his own exploration tokens. In order to do this, you need, at least, 3
    exploration tokens." and "Haven of Peace: If you take the haven of peace, take up to 6
    exploration tokens." Seat 0 takes the Allies, hunts with their action (6 + 1 meets
    difficulty 7), buys a third action with 2 of its 5 tokens (RULINGS.md, ruling 8) and takes
    the Haven of Peace, back to 6; then the turn passes."""
    state = start(2, row=(ALLIES, IGUA_7))
    state.apply_action(TAKE[0])
    chance(state, HAVEN)  # the Allies' place
    assert obs(state)["actions_left"] == 1
    hunt(state, 1, 6)
    chance(state, PTERO_4)  # the Iguanodon's place
    assert player(state, 0)["exploration_tokens"] == 5 and phase(state) == "turn-end"
    state.apply_action(BUY_ACTION)
    assert player(state, 0)["exploration_tokens"] == 3
    state.apply_action(TAKE[0])
    chance(state, PTERO_5)
    me = player(state, 0)
    assert me["exploration_tokens"] == 6
    assert sorted(me["advantages"]) == sorted([card_id(state, ALLIES), card_id(state, HAVEN)])
    assert me["points"] == 2 * 3 - 2  # a lone iguanodon doubled, two advantages
    assert state.current_player() == 1


def test_the_ammunition_box_tokens_serve_a_re_roll_in_the_same_turn() -> None:
    """"Ammunition Box: If you take the ammunition box, you can put back at the center of the
    table all the ammunition tokens you have used." and "Remember that you won't be able to
    take an ammunition token if there's not one left in the center of the table." The centre is
    empty; seat 0 puts its two tokens back with the Box, buys an action and hunts: its failed
    first throw may now be thrown again with one of them."""

    def position(table: dict[str, Any]) -> None:
        table["center_ammunition"] = 0
        table["players"][0]["ammunition"] = 2
        table["players"][1]["ammunition"] = 4

    state = rebuild(start(2, row=(AMMO_BOX, IGUA_7)), position)
    state.apply_action(TAKE[0])
    assert phase(state) == "ammunition-box"
    assert obs(state)["row"][0] is None and obs(state)["deck_count"] > 0  # README: not refilled
    state.apply_action(BOX_PUT_BACK)
    chance(state, PTERO_4)
    assert obs(state)["center_ammunition"] == 2 and player(state, 0)["ammunition"] == 0
    state.apply_action(BUY_ACTION)
    hunt(state, 1, 2)
    assert REROLL in state.legal_actions()
    state.apply_action(REROLL)
    chance(state, "roll 12")
    chance(state, PTERO_5)
    me = player(state, 0)
    assert me["dinosaurs"] == [card_id(state, IGUA_7)] and me["ammunition"] == 1
    assert me["points"] == 2 * 3 - 1 - 1  # doubled iguanodon, the Box, one ammunition token


def test_an_action_bought_before_the_last_card_costs_the_trophys_tie_break() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the adventure
    ends." with "In case of a tie, only the player with more exploration tokens takes the
    trophy". Seat 0 (6 tokens) buys an extra action (4 left) and discards with the deck empty:
    the adventure ends, the bought action is lost with it (RULINGS.md, ruling 14), and the two
    tokens paid give the trophy of a 0-0 tie to seat 1 and its 5 tokens."""

    def position(table: dict[str, Any]) -> None:
        table["players"][1]["exploration_tokens"] = 5
        set_deck(table, [])

    state = rebuild(start(2), position)
    without = state.clone()
    state.apply_action(BUY_ACTION)
    state.apply_action(DISCARD[0])
    assert state.current_player() == CHANCE and obs(state, 0)["adventure"] == 2
    assert last_adventure(state) == ([0, 0], [1])
    without.apply_action(DISCARD[0])
    assert last_adventure(without) == ([0, 0], [0])


def test_the_seat_before_the_first_opens_the_next_adventure_even_if_it_abandoned() -> None:
    """"The player who goes last in the last adventure will go first in this one." and "A player
    that abandons the adventure will stop playing ... He will be ignored for the rest of the
    adventure". Four players, seat 2 first: seat 1 goes last in the turn order. It abandons;
    the adventure ends; it is still seat 1 that opens the next one (RULINGS.md, ruling 6)."""

    def position(table: dict[str, Any]) -> None:
        set_deck(table, [])
        table["players"][1]["abandoned"] = True

    state = rebuild(start(4, first=2), position)
    state.apply_action(DISCARD[0])
    assert obs(state, 0)["adventure"] == 2
    for name in (PTERO_4, PTERO_5, PTERO_6):  # one setup discard, the row
        chance(state, name)
    table = obs(state)
    assert table["first_player"] == table["current_player"] == 1
    assert not table["players"][1]["abandoned"]


# --- the contested rulings, against their literal alternatives ----------------------------------


def test_ruling_17_a_dinosaur_that_survived_two_re_rolls_gets_two_more_from_the_next_hunter(
) -> None:
    """"You can take up to two ammunition tokens per dinosaur (which means that you can throw
    the dice up to three times)." Seat 0 throws three times at the Iguanodon and fails; it stays
    in the row. Read per card ("per dinosaur" alone), seat 1 could not throw at it again with
    ammunition; the parenthesis counts the throws of one hunt, so seat 1 throws three times too
    (RULINGS.md, ruling 17 and "Contested readings")."""
    state = start(2, row=(PTERO_6, IGUA_7))
    hunt(state, 1, 2, 2, 2)
    assert state.current_player() == 1
    assert obs(state)["row"][1]["id"] == card_id(state, IGUA_7)
    assert player(state, 0)["ammunition"] == 2
    hunt(state, 1, 2, 2)
    assert REROLL in state.legal_actions()
    state.apply_action(REROLL)
    chance(state, "roll 12")
    assert player(state, 1)["ammunition"] == 2 and obs(state)["center_ammunition"] == 2
    assert player(state, 1)["dinosaurs"] == [card_id(state, IGUA_7)]


def test_ruling_19_the_capture_that_exhausts_goes_with_the_others_and_the_turn_goes_on() -> None:
    """"If you are successful, you have captured the dinosaur. Inflict yourself as much damage as
    necessary", "When a player has no exploration tokens left, he has to decide immediately" and
    "A player that goes back to the base camp ... must discard both his advantages and his
    captured dinosaurs." Seat 0 (3 tokens, a pterodactylus) buys an action, captures the
    Iguanodon and is left with none: back at the base camp it discards both dinosaurs, the one
    just captured too, and, the choice not being an action, still plays the bought one
    (RULINGS.md, ruling 19 and "Contested readings")."""

    def position(table: dict[str, Any]) -> None:
        table["players"][0]["exploration_tokens"] = 3
        give(table, 0, PTERO_4)

    state = rebuild(start(2, row=(PTERO_6, IGUA_7)), position)
    state.apply_action(BUY_ACTION)
    hunt(state, 1, 12)  # captured, 1 damage: no token left
    assert phase(state) == "exhausted" and obs(state)["row"][1] is None
    state.apply_action(BASE_CAMP)
    chance(state, PTERO_5)
    table = obs(state)
    me = table["players"][0]
    assert me["dinosaurs"] == [] and me["exploration_tokens"] == 6
    assert {card_id(state, PTERO_4), card_id(state, IGUA_7)} <= set(table["discards"])
    assert state.current_player() == 0 and table["actions_left"] == 1


def test_ruling_19_exhausted_by_a_failure_the_turn_passes_whatever_is_chosen() -> None:
    """"If, after all, you still fail, inflict yourself as much damage as necessary (taken out of
    exploration tokens) and pass the turn." and "he has to decide immediately". Exhausted by a
    failed hunt with a bought action left, seat 0 still chooses (abandoning here), and the turn
    passes."""

    def position(table: dict[str, Any]) -> None:
        table["players"][0]["exploration_tokens"] = 4

    state = rebuild(start(2, row=(PTERO_6, IGUA_7)), position)
    state.apply_action(BUY_ACTION)
    hunt(state, 1, 2)
    state.apply_action(STOP_HUNT)  # 3 failure damage on 2 tokens: none left
    assert phase(state) == "exhausted"
    state.apply_action(ABANDON)
    assert state.current_player() == 1 and player(state, 0)["abandoned"]
    assert player(state, 0)["dinosaurs"] == []
    assert TURN_END not in state.legal_actions()
