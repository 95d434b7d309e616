"""Fourth rulebook pass over Explorers of the Lost Valley: adversarial black-box scenarios.

Written from the rulebook (``rules/explorers-of-the-lost-valley.txt``), the engine's README
and RULINGS.md only, through the public API (the helpers of ``test_explorers_blackbox.py``:
chance outcomes named by their ``action_to_string``, the README's action ids, positions set
up with ``Game.state_from_observation``). Each test quotes the rule it checks and aims at a
corner the earlier passes left open: two rules meeting (an abandoned explorer and the
trophy's tie-break, the last card's damage and the tie-break, the Hound and exhaustion), a
turn something cuts short, scores below zero, and positions no game can hold.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_explorers_blackbox import (
    ABANDON,
    ALLIES,
    ASK_SEAT_FIRST,
    BASE_CAMP,
    BUY_ACTION,
    DISCARD,
    HAVEN,
    HOUND,
    HOUND_CAPTURE,
    IGUA_5,
    IGUA_7,
    MEGA_9,
    MEGA_10,
    PLES_7,
    PLES_9,
    PTERO_4,
    PTERO_5,
    PTERO_6,
    STEAL_WITH,
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

# --- the end of an adventure ------------------------------------------------------------------


def test_base_camp_and_abandoning_with_an_empty_deck_do_not_end_the_adventure() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the adventure
    ends. The adventure also ends if all the players have abandoned it." Going back to the base
    camp and abandoning take no card from the row: with the deck empty the adventure goes on
    until a card leaves the row (or the last explorer abandons)."""
    state = rebuild(start(2), lambda table: set_deck(table, []))
    state.apply_action(BASE_CAMP)
    assert phase(state) == "turn-end" and obs(state)["adventure"] == 1
    state.apply_action(TURN_END)
    assert state.current_player() == 1
    state.apply_action(ABANDON)
    assert state.current_player() == 0 and obs(state)["adventure"] == 1
    assert obs(state)["row"][0] is not None and obs(state)["deck_count"] == 0
    state.apply_action(DISCARD[0])  # a card leaves the row and cannot be replaced
    assert state.current_player() == CHANCE and obs(state, 0)["adventure"] == 2
    assert len(obs(state, 0)["history"]) == 1


def test_the_last_captures_success_damage_counts_in_the_trophys_tie_break() -> None:
    """"If you are successful, you have captured the dinosaur. Inflict yourself as much damage
    as necessary ... and take the dinosaur card" and "In case of a tie, only the player with
    more exploration tokens takes the trophy". The capture of the deck's last card ends the
    adventure with its damage taken: seat 0 ties seat 1 on points (a lone megalosaurus and a
    lone plesiosaurus, 5 doubled each) but falls from 6 tokens to 3, below seat 1's 4."""

    def position(table: dict[str, Any]) -> None:
        give(table, 1, PLES_9)
        table["players"][1]["exploration_tokens"] = 4
        set_deck(table, [])

    state = rebuild(start(2, row=(MEGA_9, IGUA_7)), position)
    hunt(state, 0, 9)  # difficulty 9: captured, 3 damage
    points, winners = last_adventure(state)
    assert points == [10, 10]
    assert winners == [1]
    assert obs(state, 0)["players"][0]["trophies"] == 0


def test_the_trophy_goes_to_the_least_negative_score() -> None:
    """"The player with the most points takes a trophy token" and "Each ammunition token you
    have at the end of the adventure subtracts 1 point. Each advantage card you have at the end
    of the adventure subtracts 1 point." Every score below zero: -1 beats -2, whatever the
    exploration tokens (seat 1 has more)."""

    def position(table: dict[str, Any]) -> None:
        table["players"][0].update(ammunition=1, exploration_tokens=2)
        table["players"][1].update(ammunition=1)
        table["center_ammunition"] -= 2
        give(table, 1, HAVEN)
        set_deck(table, [])

    state = rebuild(start(2), position)
    state.apply_action(DISCARD[0])
    assert last_adventure(state) == ([-1, -2], [0])


def test_an_abandoned_explorers_tokens_break_the_trophys_tie() -> None:
    """"He will be ignored for the rest of the adventure but, at the end, he will score like
    everyone else... and can be declared winner!" and "In case of a tie, only the player with
    more exploration tokens takes the trophy". Seats 0 and 1 tie on a pterodactylus each (a
    shared species, not doubled); seat 1 abandoned with 4 tokens beats seat 0, still in with 3;
    seat 2, with 6 tokens and no points, is not among the tied."""

    def position(table: dict[str, Any]) -> None:
        give(table, 0, PTERO_5)
        give(table, 1, PTERO_4)
        table["players"][0]["exploration_tokens"] = 3
        table["players"][1].update(exploration_tokens=4, abandoned=True)
        set_deck(table, [])

    state = rebuild(start(3, row=(PTERO_6, IGUA_7)), position)
    state.apply_action(DISCARD[0])
    assert last_adventure(state) == ([1, 1, 0], [1])


def test_an_explorer_who_abandoned_with_no_tokens_plays_the_next_adventure_with_six() -> None:
    """"When a player has no exploration tokens left, he has to decide immediately between
    going back to the base camp or abandoning the adventure." and "Now, each player takes up
    to 6 exploration tokens ... and start a new adventure from the very beginning." Seat 0,
    exhausted by a failed hunt, abandons with 0 tokens; seat 1 ends the adventure, takes the
    trophy on the tie-break (6 tokens to 0) and, as the seat before seat 0, opens the next
    adventure, in which seat 0 is back with 6 tokens."""

    def position(table: dict[str, Any]) -> None:
        table["players"][0]["exploration_tokens"] = 1
        set_deck(table, [])

    state = rebuild(start(2, row=(MEGA_10, IGUA_7)), position)
    hunt(state, 0, 2)
    state.apply_action(STOP_HUNT)  # 5 damage on a failure
    assert phase(state) == "exhausted" and player(state, 0)["exploration_tokens"] == 0
    state.apply_action(ABANDON)
    assert state.current_player() == 1
    state.apply_action(DISCARD[0])
    assert last_adventure(state) == ([0, 0], [1])
    for name in (PTERO_4, PTERO_5, PTERO_6, IGUA_5, IGUA_7):  # three setup discards, the row
        chance(state, name)
    table = obs(state)
    assert table["adventure"] == 2 and table["current_player"] == table["first_player"] == 1
    seat0 = table["players"][0]
    assert seat0["exploration_tokens"] == 6 and not seat0["abandoned"]


# --- a turn cut short ---------------------------------------------------------------------------


def test_abandoning_with_the_allies_action_left_ends_the_turn() -> None:
    """"If you take the allies, you will gain an additional action this turn." and "A player
    that abandons the adventure will stop playing." Abandoning as the first action loses the
    Allies' action: the next seat plays, and nothing is asked of seat 0 any more."""
    state = start(2, row=(ALLIES, IGUA_7))
    state.apply_action(TAKE[0])
    chance(state, PTERO_4)
    assert obs(state)["actions_left"] == 1 and state.current_player() == 0
    state.apply_action(ABANDON)
    table = obs(state)
    assert table["current_player"] == 1 and table["turn"] == 2
    assert table["players"][0]["abandoned"]
    assert table["players"][0]["advantages"] == [card_id(state, ALLIES)]


def test_the_hound_capture_deals_no_damage_even_to_an_explorer_with_one_token() -> None:
    """"If you take the hound, reveal the next card of the deck. If it's a dinosaur, you can
    capture it without making a hunt throw and without receiving any damage." With one
    exploration token the explorer captures a megalosaurus (3 damage on a success) and keeps
    the token: no exhaustion; the Hound costs its point and the lone species doubles."""
    state = rebuild(start(2, row=(HOUND, IGUA_7), discards=(PTERO_5, PTERO_6, PLES_7)),
                    lambda table: table["players"][0].update(exploration_tokens=1))
    state.apply_action(TAKE[0])
    chance(state, MEGA_9)
    assert phase(state) == "hound-capture"
    state.apply_action(HOUND_CAPTURE)
    assert phase(state) != "exhausted"
    chance(state, PTERO_4)  # the Hound's place in the row
    me = player(state, 0)
    assert me["exploration_tokens"] == 1
    assert me["dinosaurs"] == [card_id(state, MEGA_9)]
    assert me["points"] == 2 * 5 - 1
    assert state.current_player() == 1  # 1 token buys no extra action


def test_back_from_the_base_camp_an_explorer_who_bought_the_extra_action_buys_no_second() -> None:
    """"The same player can only win one extra action per turn, no matter how many exploration
    tokens he has." Seat 0 buys the extra action with 3 tokens, is exhausted by the capture's
    damage and comes back from the base camp with 6: the bought action is still due, but a
    second one is not for sale, neither before it nor once it is spent."""
    state = rebuild(start(2, row=(IGUA_5, IGUA_7)),
                    lambda table: table["players"][0].update(exploration_tokens=3))
    state.apply_action(BUY_ACTION)
    hunt(state, 0, 12)  # captured, 1 damage: 0 tokens left
    assert phase(state) == "exhausted"
    state.apply_action(BASE_CAMP)
    chance(state, PTERO_4)
    table = obs(state)
    assert table["players"][0]["exploration_tokens"] == 6 and table["actions_left"] == 1
    assert table["extra_action_bought"] and BUY_ACTION not in state.legal_actions()
    state.apply_action(DISCARD[0])
    chance(state, PTERO_5)
    assert state.current_player() == 1  # no turn-end question: nothing left to buy


def test_a_discard_locks_the_next_explorer_out_even_when_a_failed_hunt_ends_the_turn() -> None:
    """"When a player takes this action, the next one in the turn order will NOT be able to
    choose it." and "If, after all, you still fail, inflict yourself as much damage as
    necessary ... and pass the turn." The discard was made before the failed hunt passed the
    turn: seat 1 may not discard."""
    state = start(2, row=(PTERO_6, IGUA_7))
    state.apply_action(BUY_ACTION)
    state.apply_action(DISCARD[1])
    chance(state, PTERO_4)
    hunt(state, 0, 2)
    state.apply_action(STOP_HUNT)
    assert state.current_player() == 1 and player(state, 0)["exploration_tokens"] == 2
    assert obs(state)["discard_locked"]
    assert not set(DISCARD) & set(state.legal_actions())


# --- advanced game -------------------------------------------------------------------------------


TRAILS = {0: ("pterodactylus", "iguanodon"), 1: ("plesiosaurus", "iguanodon"),
          2: ("pterodactylus", "megalosaurus")}


def test_an_abandoned_explorer_keeps_the_trail_tokens_bonus() -> None:
    """"Each token you keep at the end of the adventure will give you extra points: If you
    have a pterodactylus trail token, each pterodactylus you captured will give you +1 point"
    and an abandoned player "won't discard any cards ... at the end, he will score like
    everyone else". Seat 0 abandons with a pterodactylus (shared with seat 1, not doubled) and
    scores 1 + 1; seat 1, without the token, scores 1."""

    def position(table: dict[str, Any]) -> None:
        give(table, 0, PTERO_4)
        give(table, 1, PTERO_5)
        set_deck(table, [])

    state = rebuild(start(2, advanced=True, trails=TRAILS, row=(PTERO_6, IGUA_7)), position)
    state.apply_action(ABANDON)
    assert state.current_player() == 1
    state.apply_action(DISCARD[0])
    assert last_adventure(state) == ([2, 1], [0])


def test_a_steal_that_gets_nothing_still_locks_the_next_explorer_out() -> None:
    """"If the chosen player doesn't have any dinosaur with that value (or less), you get
    nothing." and "When a player decides to discard a trail token, the next one CAN'T choose
    this action." The lock-out comes with the decision to discard the token, not with what the
    steal brings: seat 1 may not steal in its next turn, seat 2 may."""
    state = start(3, advanced=True, trails=TRAILS)
    state.apply_action(STEAL_WITH["iguanodon"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    chance(state, "die 6")  # seat 1 holds no dinosaur
    assert player(state, 0)["dinosaurs"] == [] and player(state, 0)["trail_tokens"] == [
        "pterodactylus"]
    state.apply_action(TURN_END)
    assert state.current_player() == 1 and obs(state)["steal_locked"]
    assert not set(STEAL_WITH.values()) & set(state.legal_actions())
    state.apply_action(BASE_CAMP)
    state.apply_action(TURN_END)
    assert state.current_player() == 2 and not obs(state)["steal_locked"]
    assert {STEAL_WITH["pterodactylus"], STEAL_WITH["megalosaurus"]} <= set(
        state.legal_actions())


# --- positions no game can hold -----------------------------------------------------------------


@pytest.mark.parametrize(("change", "field"), [
    (lambda t: t["players"][0].update(throw_bonus=1), "throw_bonus"),  # Allies in the deck
    (lambda t: t["players"][0].update(throw_bonus=2), "throw_bonus"),
    (lambda t: (give(t, 0, ALLIES), t["players"][0].update(throw_bonus=1),
                t["players"][1].update(throw_bonus=1)), "throw_bonus"),
    (lambda t: (give(t, 1, ALLIES), t["players"][0].update(throw_bonus=1)), "throw_bonus"),
    (lambda t: t["players"][1].update(exploration_tokens=0), "exploration_tokens"),
])
def test_a_throw_bonus_without_its_allies_or_an_explorer_left_with_no_tokens_is_refused(
        change: Any, field: str) -> None:
    """"Allies: ... you will gain +1 in all your future hunt throws (until the adventure
    ends)": there is one Allies card, so one explorer at most has the +1, the one who took it
    from the row (it is in their advantages, or in the discards after their base camp). "When
    a player has no exploration tokens left, he has to decide immediately between going back to
    the base camp or abandoning the adventure": an explorer still in the adventure holds a
    token, but for the one deciding (phase ``exhausted``)."""
    with pytest.raises(ValueError, match=field):
        rebuild(start(3), change)


def test_the_positions_the_allies_and_exhaustion_allow_are_accepted() -> None:
    """The positions the rules can reach around the same two rules are set up as documented:
    the +1 with the Allies held or discarded at the base camp, an abandoned explorer with no
    tokens, the explorer on move exhausted."""
    held = rebuild(start(3), lambda t: (give(t, 0, ALLIES), t["players"][0].update(
        throw_bonus=1)))
    assert player(held, 0)["throw_bonus"] == 1
    camped = rebuild(start(3), lambda t: (set_deck(t, [n for n in t["cards"]["name"]
                                                       if n != ALLIES]),
                                          t["players"][2].update(throw_bonus=1)))
    assert player(camped, 2)["throw_bonus"] == 1
    out = rebuild(start(3), lambda t: t["players"][1].update(exploration_tokens=0,
                                                              abandoned=True))
    assert player(out, 1)["exploration_tokens"] == 0
    exhausted = rebuild(start(3, row=(PLES_7, IGUA_7)), lambda t: t.update(phase="exhausted")
                        or t["players"][0].update(exploration_tokens=0))
    assert exhausted.legal_actions() == [BASE_CAMP, ABANDON]
