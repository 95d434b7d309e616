"""The four actions of a turn, the discard lock-out, the extra action and the row refill."""

from __future__ import annotations

import pytest
from test_explorers_helpers import CAMP, CARDS, card, draw, play, reveal, roll, setup

from arena.game import CHANCE
from engines.explorers import actions as A


def test_taking_a_dinosaur_starts_a_hunt_and_an_advantage_is_just_taken() -> None:
    """"Choose one of the two cards at the right side of the deck. If it's a dinosaur, you
    will try to "hunt" it. If it's an advantage, just take it."
    """
    state = setup(3, row=("Pterodactylus antiquus", "Haven of Peace"))
    play(state, A.TAKE + 1)
    assert state.advantages[0] == [card("Haven of Peace")]
    reveal(state, "Iguanodon mantelli")
    play(state, A.END_TURN)
    assert state.current_player() == 1
    play(state, A.TAKE)
    assert state.current_player() == CHANCE
    assert state.observation(1)["phase"] == "hunt-roll"


def test_discard_puts_the_card_face_up_and_refills_the_row() -> None:
    """"Discard one of the two cards at the right side of the deck." / "after taking or
    discarding a card, you have to replace it with another one from the deck."
    """
    state = setup(3)
    play(state, A.DISCARD + 1)
    assert state.discards[-1] == card("Iguanodon mantelli")
    assert state.current_player() == CHANCE
    assert sorted(a for a, _ in state.chance_outcomes()) == [A.DRAW + c for c in state.deck]
    reveal(state, "Allies")
    assert state.row == [card("Pterodactylus antiquus"), card("Allies")]
    play(state, A.END_TURN)
    assert state.current_player() == 1


def test_the_next_player_cannot_discard_after_a_discard() -> None:
    """"When a player takes this action, the next one in the turn order will NOT be able to
    choose it." Ruling: "it" is the discard action, for the whole of the next player's turn.
    """
    state = setup(3)
    play(state, A.DISCARD, draw("Allies"), A.END_TURN)
    assert state.current_player() == 1
    legal = state.legal_actions()
    assert A.DISCARD not in legal and A.DISCARD + 1 not in legal
    assert state.observation(1)["discard_locked"] is True
    play(state, A.EXTRA_ACTION)
    assert A.DISCARD not in state.legal_actions()
    play(state, A.BASE_CAMP, A.BASE_CAMP)
    assert state.current_player() == 2
    assert A.DISCARD in state.legal_actions()


def test_the_discard_lock_out_skips_an_abandoned_player() -> None:
    """"the next one in the turn order will NOT be able to choose it": players who abandoned
    are out of the turn order, so the lock falls on the next player still playing."""
    state = setup(3)
    play(state, *CAMP)
    play(state, A.ABANDON)
    play(state, *CAMP)
    play(state, A.DISCARD, draw("Allies"), A.END_TURN)
    assert state.current_player() == 2
    assert A.DISCARD not in state.legal_actions()


def test_go_back_to_the_base_camp() -> None:
    """"A player that goes back to the base camp takes up to 6 exploration tokens. After
    that, he must discard both his advantages and his captured dinosaurs. Also, he will have
    to put all the ammunition he took back at the center of the table."
    """
    state = setup(3, row=("Iguanodon galvensis", "Allies"),
                  discards=("Megalosaurus hesperis", "Hound"))
    play(state, A.TAKE + 1, draw("Iguanodon mantelli"))          # Allies: one more action
    play(state, A.TAKE, roll(2), A.REROLL, roll(7))             # 7 + 1 >= 8: captured
    reveal(state, "Pterodactylus kochi")
    assert state.exploration_tokens[0] == 4 and state.ammunition[0] == 1
    assert state.center_ammunition == 6
    play(state, A.END_TURN, *CAMP, *CAMP)
    assert state.current_player() == 0
    play(state, A.BASE_CAMP)
    assert state.exploration_tokens[0] == 6
    assert state.dinosaurs[0] == [] and state.advantages[0] == []
    assert state.ammunition[0] == 0 and state.center_ammunition == 7
    assert {card("Iguanodon galvensis"), card("Allies")} <= set(state.discards)


def test_abandon_stops_playing_and_keeps_everything() -> None:
    """"A player that abandons the adventure will stop playing. He won't discard any cards
    and he keeps the used ammunition. He will be ignored for the rest of the adventure"
    """
    state = setup(3, row=("Iguanodon mantelli", "Allies"))
    play(state, A.TAKE, roll(3), A.REROLL, roll(5))
    reveal(state, "Pterodactylus kochi")
    play(state, A.END_TURN, A.ABANDON)
    assert state.abandoned == [False, True, False]
    play(state, *CAMP)
    assert state.current_player() == 0
    play(state, A.TAKE, roll(12), draw("Hound"), A.END_TURN, *CAMP)
    assert state.current_player() == 0            # seat 1 is skipped
    play(state, A.ABANDON)
    assert state.dinosaurs[0] == [card("Iguanodon mantelli"), card("Pterodactylus kochi")]
    assert state.ammunition[0] == 1
    assert state.observation(2)["players"][0]["abandoned"] is True


def test_extra_action_for_two_exploration_tokens() -> None:
    """"A player can earn an additional action after discarding two of his own exploration
    tokens. In order to do this, you need, at least, 3 exploration tokens. The same player can
    only win one extra action per turn, no matter how many exploration tokens he has."
    """
    state = setup(3)
    play(state, A.EXTRA_ACTION)
    assert state.exploration_tokens[0] == 4
    assert A.EXTRA_ACTION not in state.legal_actions()
    play(state, A.DISCARD, draw("Allies"))
    assert state.current_player() == 0               # the extra action
    play(state, A.BASE_CAMP)
    assert state.current_player() == 1


def test_extra_action_needs_three_exploration_tokens() -> None:
    """"In order to do this, you need, at least, 3 exploration tokens.\""""
    state = setup(2, row=("Iguanodon mantelli", "Allies"))
    play(state, A.TAKE, roll(2), A.STOP_HUNT, *CAMP)            # failure: 2 damage
    play(state, A.TAKE, roll(2), A.STOP_HUNT, *CAMP)            # seat 0 down to 2
    assert state.current_player() == 0 and state.exploration_tokens[0] == 2
    assert A.EXTRA_ACTION not in state.legal_actions()


def test_extra_action_is_offered_at_three_tokens() -> None:
    """"In order to do this, you need, at least, 3 exploration tokens.\""""
    state = setup(2, row=("Iguanodon galvensis", "Allies"))
    play(state, A.TAKE, roll(2), A.STOP_HUNT, *CAMP)            # failure: 3 damage
    assert state.exploration_tokens[0] == 3
    assert A.EXTRA_ACTION in state.legal_actions()
    play(state, A.EXTRA_ACTION)
    assert state.exploration_tokens[0] == 1


def test_the_extra_action_can_be_bought_after_seeing_the_result() -> None:
    """"In their turn, each player can take one of the following actions: ... A player can
    earn an additional action after discarding two of his own exploration tokens. ... Now,
    it's the next player's turn." Ruling: the rulebook sets no moment, so the explorer may
    buy it before an action or once the last action has resolved, before the turn passes."""
    galvensis = card("Iguanodon galvensis")
    state = setup(3, row=("Iguanodon galvensis", "Allies"))
    play(state, A.TAKE, roll(12), draw("Pterodactylus kochi"))
    assert state.current_player() == 0 and state.observation(0)["phase"] == "turn-end"
    assert state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]
    play(state, A.EXTRA_ACTION)
    assert state.exploration_tokens[0] == 6 - CARDS.damage_success[galvensis] - 2
    assert A.TAKE in state.legal_actions() and A.EXTRA_ACTION not in state.legal_actions()
    play(state, A.DISCARD, draw("Hound"))
    assert state.current_player() == 1                 # once per turn: no second offer


def test_no_extra_action_is_offered_below_three_tokens() -> None:
    """"In order to do this, you need, at least, 3 exploration tokens." An explorer left
    with fewer after their action just passes the turn."""
    state = setup(3)
    state.exploration_tokens[0] = 2
    play(state, A.DISCARD, draw("Allies"))
    assert state.current_player() == 1


@pytest.mark.parametrize("slot", [0, 1])
def test_the_row_is_refilled_after_every_take(slot: int) -> None:
    """"At the right side of the deck, there has to be ALWAYS two cards faced up. That means
    that, after taking or discarding a card, you have to replace it with another one"
    """
    state = setup(3, row=("Haven of Peace", "Allies"))
    play(state, A.TAKE + slot)
    assert state.current_player() == CHANCE and -1 in state.row
    left = len(state.deck)
    reveal(state, "Pterodactylus kochi")
    assert -1 not in state.row and len(state.deck) == left - 1
    assert state.row[slot] == card("Pterodactylus kochi")


def test_a_lone_discarder_locks_their_own_next_turn() -> None:
    """"the next one in the turn order will NOT be able to choose it." Ruling 9: with
    everyone else out, the next one in the turn order is the discarder."""
    state = setup(2)
    play(state, *CAMP, A.ABANDON)
    assert state.current_player() == 0
    play(state, A.DISCARD, draw("Allies"), A.END_TURN)
    assert state.current_player() == 0
    assert A.DISCARD not in state.legal_actions() and A.DISCARD + 1 not in state.legal_actions()
    play(state, *CAMP)
    assert A.DISCARD in state.legal_actions()


def test_the_discarder_may_discard_again_with_an_extra_action() -> None:
    """"When a player takes this action, the next one in the turn order will NOT be able to
    choose it": the lock falls on the next one, not on the discarder's own extra action."""
    state = setup(3)
    play(state, A.DISCARD, draw("Allies"), A.EXTRA_ACTION)
    assert A.DISCARD in state.legal_actions()
    play(state, A.DISCARD, draw("Hound"))
    assert state.discards[-2:] == [card("Pterodactylus antiquus"), card("Allies")]
    assert state.current_player() == 1 and A.DISCARD not in state.legal_actions()


def test_the_discard_lock_does_not_carry_into_the_next_adventure() -> None:
    """"start a new adventure from the very beginning": a discard that ends an adventure
    locks nobody in the next one (ruling 9)."""
    state = setup(2)
    while state.deck:                                  # seat 0 discards, seat 1 waits
        play(state, A.DISCARD, A.DRAW + state.deck[0], A.END_TURN, *CAMP)
    play(state, A.DISCARD)                             # cannot be replaced: the end
    assert state.adventure == 2
    play(state, *(A.DRAW + c for c in state.deck[:5]))
    assert state.current_player() == 1                 # the last one goes first, unlocked
    assert A.DISCARD in state.legal_actions()
    assert state.observation(1)["discard_locked"] is False


def test_discarding_when_the_deck_is_empty_ends_the_adventure() -> None:
    """"there has to be ALWAYS two cards faced up" / "When a card is taken and can't be
    replaced (because the deck is empty), the adventure ends." Ruling 14: a discard counts;
    revealing the deck's last card does not end it."""
    state = setup(2)
    while state.deck:
        play(state, A.DISCARD + 1, A.DRAW + state.deck[-1])
        if state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]:
            play(state, A.END_TURN)
        play(state, *CAMP)
    assert state.adventure == 1 and state.observation(0)["deck_count"] == 0
    assert None not in state.observation(0)["row"]
    play(state, A.DISCARD)
    assert state.adventure == 2 and len(state.history) == 1


def test_the_extra_action_can_be_bought_again_in_a_later_turn() -> None:
    """"The same player can only win one extra action per turn": the limit is per turn."""
    state = setup(2)
    play(state, A.EXTRA_ACTION, A.BASE_CAMP, A.BASE_CAMP)
    assert state.current_player() == 1
    play(state, *CAMP)
    assert state.current_player() == 0 and A.EXTRA_ACTION in state.legal_actions()
    assert state.observation(0)["extra_action_bought"] is False


def test_a_turn_holds_one_action_unless_an_extra_one_is_earned() -> None:
    """"In their turn, each player can take one of the following actions" / "Now, it's the
    next player's turn." After one action the explorer may only buy an extra one or pass."""
    state = setup(3)
    play(state, A.BASE_CAMP)
    assert state.observation(0)["actions_left"] == 0
    assert state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]
    play(state, A.END_TURN)
    assert state.current_player() == 1
