"""The four advantage cards: Haven of Peace, Allies, Ammunition Box, Hound."""

from __future__ import annotations

from test_explorers_helpers import CAMP, CARDS, card, draw, play, reveal, roll, setup

from arena.game import CHANCE
from engines.explorers import actions as A

GALVENSIS = "Iguanodon galvensis"


def test_haven_of_peace_restores_exploration_tokens() -> None:
    """"Haven of Peace: If you take the haven of peace, take up to 6 exploration tokens.\""""
    state = setup(3, row=(GALVENSIS, "Haven of Peace"))
    state.exploration_tokens[0] = 2
    play(state, A.TAKE + 1, draw("Allies"))
    assert state.exploration_tokens[0] == 6
    assert state.advantages[0] == [card("Haven of Peace")]


def test_every_advantage_costs_a_point() -> None:
    """"Each one of these cards has a positive effect, but it also subtracts one point at the
    end of the adventure."
    """
    state = setup(3, row=("Haven of Peace", "Ammunition Box"))
    play(state, A.TAKE, draw("Pterodactylus kochi"), A.END_TURN)
    play(state, A.TAKE + 1, draw("Pterodactylus antiquus"))
    assert state.points_now() == [-1, -1, 0]


def test_allies_give_an_extra_action_this_turn() -> None:
    """"Allies: If you take the allies, you will gain an additional action this turn.\""""
    state = setup(3, row=(GALVENSIS, "Allies"))
    play(state, A.TAKE + 1, draw("Pterodactylus kochi"))
    assert state.current_player() == 0 and state.actions_left == 1
    play(state, *CAMP)
    assert state.current_player() == 1


def test_allies_add_one_to_later_hunt_throws() -> None:
    """"Also, you will gain +1 in all your future hunt throws (until the adventure ends).\""""
    difficulty = CARDS.difficulty[card(GALVENSIS)]
    state = setup(3, row=(GALVENSIS, "Allies"))
    play(state, A.TAKE + 1, draw("Pterodactylus kochi"))
    assert state.observation(0)["players"][0]["throw_bonus"] == 1
    play(state, A.TAKE, roll(difficulty - 1))
    assert state.dinosaurs[0] == [card(GALVENSIS)]
    assert state.observation(0)["players"][0]["advantages"] == [card("Allies")]


def test_allies_keep_their_bonus_after_the_base_camp_until_the_adventure_ends() -> None:
    """"you will gain +1 in all your future hunt throws (until the adventure ends)": going
    back to the base camp discards the card (and its -1 point), not the bonus (ruling 21)."""
    difficulty = CARDS.difficulty[card(GALVENSIS)]
    state = setup(2, row=(GALVENSIS, "Allies"))
    play(state, A.TAKE + 1, draw("Pterodactylus kochi"), *CAMP, *CAMP)
    assert state.advantages[0] == []
    assert state.observation(1)["players"][0]["throw_bonus"] == 1
    play(state, A.TAKE, roll(difficulty - 1))
    assert state.dinosaurs[0] == [card(GALVENSIS)]


def test_the_allies_bonus_ends_with_the_adventure() -> None:
    """Taking the Allies as the deck's last card ends the adventure: the next one starts
    without the bonus."""
    state = setup(2, row=(GALVENSIS, "Allies"))
    state.discards += state.deck
    state.deck = []
    play(state, A.TAKE + 1)
    assert state.adventure == 2
    assert [player["throw_bonus"] for player in state.observation(0)["players"]] == [0, 0]


def test_the_allies_action_does_not_count_toward_the_bought_one() -> None:
    """"The same player can only win one extra action per turn, no matter how many
    exploration tokens he has." Ruling: that limit is on actions bought with tokens; the
    Allies' action comes on top, so a turn may hold three actions."""
    state = setup(3, row=(GALVENSIS, "Allies"))
    play(state, A.EXTRA_ACTION, A.TAKE + 1, draw("Hound"))
    assert state.actions_left == 2
    play(state, A.DISCARD + 1, draw("Pterodactylus kochi"))
    play(state, A.DISCARD + 1, draw("Pterodactylus antiquus"))
    assert state.current_player() == 1

    state = setup(3, row=(GALVENSIS, "Allies"))
    play(state, A.TAKE + 1, draw("Hound"))
    assert A.EXTRA_ACTION in state.legal_actions()


def test_ammunition_box_returns_the_used_ammunition() -> None:
    """"Ammunition Box: If you take the ammunition box, you can put back at the center of the
    table all the ammunition tokens you have used."
    """
    difficulty = CARDS.difficulty[card(GALVENSIS)]
    state = setup(2, row=(GALVENSIS, "Ammunition Box"))
    play(state, A.TAKE, roll(2), A.REROLL, roll(2), A.REROLL, roll(difficulty))
    reveal(state, "Pterodactylus kochi")
    assert state.ammunition[0] == 2 and state.center_ammunition == 4
    play(state, A.END_TURN, *CAMP, A.TAKE + 1)
    assert state.observation(0)["phase"] == "ammunition-box"
    assert state.legal_actions() == [A.RETURN_AMMUNITION, A.KEEP_AMMUNITION]
    play(state, A.RETURN_AMMUNITION, draw("Allies"))
    assert state.ammunition[0] == 0 and state.center_ammunition == 6


def test_ammunition_box_returning_is_a_choice() -> None:
    """"If you take the ammunition box, you can put back at the center of the table all the
    ammunition tokens you have used." Ruling: "you can" is the taker's decision, all the
    tokens or none; the card is taken either way."""
    state = setup(2, row=(GALVENSIS, "Ammunition Box"))
    state.ammunition[0], state.center_ammunition = 2, 4
    play(state, A.TAKE + 1, A.KEEP_AMMUNITION, draw("Allies"))
    assert state.ammunition[0] == 2 and state.center_ammunition == 4
    assert state.advantages[0] == [card("Ammunition Box")]


def test_ammunition_box_without_ammunition_asks_nothing() -> None:
    """"all the ammunition tokens you have used": with none used there is nothing to put
    back, so there is no choice; the row is refilled at once."""
    state = setup(2, row=(GALVENSIS, "Ammunition Box"))
    play(state, A.TAKE + 1)
    assert state.observation(0)["phase"] == "reveal"


def test_ammunition_box_taken_as_the_last_card_works_before_the_adventure_ends() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the adventure
    ends" and "If you take the ammunition box, you can put back at the center of the table
    all the ammunition tokens you have used." Ruling 14: a card's own effect is part of
    taking it, so the last card's effect (here the taker's choice) comes before the end and
    counts in the scoring: the ammunition put back no longer costs its points."""
    state = setup(2, row=(GALVENSIS, "Ammunition Box"))
    state.discards += state.deck
    state.deck = []
    state.ammunition[0], state.center_ammunition = 2, 4
    play(state, A.TAKE + 1)
    assert state.adventure == 1 and state.observation(0)["phase"] == "ammunition-box"
    play(state, A.RETURN_AMMUNITION)
    assert state.adventure == 2 and state.history == [[-1, 0]]


def test_ammunition_box_with_an_empty_centre() -> None:
    """"you can put back at the center of the table all the ammunition tokens you have
    used": an empty centre changes nothing, it is refilled with the taker's tokens."""
    state = setup(2, row=(GALVENSIS, "Ammunition Box"))
    state.ammunition[0], state.center_ammunition = 6, 0
    play(state, A.TAKE + 1, A.RETURN_AMMUNITION, draw("Allies"))
    assert state.ammunition[0] == 0 and state.center_ammunition == 6


def test_hound_captures_the_next_dinosaur_without_a_throw_or_damage() -> None:
    """"Hound: If you take the hound, reveal the next card of the deck. If it's a dinosaur,
    you can capture it without making a hunt throw and without receiving any damage."
    """
    state = setup(3, row=(GALVENSIS, "Hound"))
    play(state, A.TAKE + 1)
    assert state.current_player() == CHANCE
    assert state.observation(0)["phase"] == "hound-reveal"
    play(state, draw("Megalosaurus bucklandii"))
    assert state.observation(0)["phase"] == "hound-capture"
    assert state.observation(0)["hound_card"] == card("Megalosaurus bucklandii")
    assert state.legal_actions() == [A.HOUND_CAPTURE, A.HOUND_RELEASE]
    play(state, A.HOUND_CAPTURE)
    assert state.dinosaurs[0] == [card("Megalosaurus bucklandii")]
    assert state.exploration_tokens[0] == 6
    assert state.observation(0)["phase"] == "reveal"         # then the row is refilled
    reveal(state, "Pterodactylus kochi")
    play(state, A.END_TURN)
    assert state.current_player() == 1


def test_hound_capture_is_a_choice() -> None:
    """"If you take the hound, reveal the next card of the deck. If it's a dinosaur, you can
    capture it without making a hunt throw and without receiving any damage." Ruling 23:
    "you can" is the taker's decision; a dinosaur let go was only revealed, so it is still
    the next card of the deck and is the one that replaces the Hound in the row ("you have
    to replace it with another one from the deck"): nothing else is drawn."""
    state = setup(3, row=(GALVENSIS, "Hound"))
    left = len(state.deck)
    play(state, A.TAKE + 1, draw("Megalosaurus bucklandii"), A.HOUND_RELEASE)
    assert state.dinosaurs[0] == [] and state.advantages[0] == [card("Hound")]
    assert state.row == [card(GALVENSIS), card("Megalosaurus bucklandii")]
    assert card("Megalosaurus bucklandii") not in state.discards
    assert len(state.deck) == left - 1
    assert state.observation(0)["hound_card"] is None
    assert state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]     # no refill to draw


def test_a_dinosaur_the_hound_let_go_on_the_last_card_keeps_the_adventure_going() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the adventure
    ends." Ruling 23: the deck's last card, revealed by the Hound and let go, replaces the
    Hound, so nothing is left unreplaced; captured, it leaves the Hound's place empty and the
    adventure ends (test_hound_takes_the_last_card_then_the_adventure_ends)."""
    state = setup(3, row=(GALVENSIS, "Hound"))
    state.deck = [card("Pterodactylus kochi")]
    play(state, A.TAKE + 1, draw("Pterodactylus kochi"), A.HOUND_RELEASE)
    assert state.adventure == 1 and state.history == []
    assert state.row == [card(GALVENSIS), card("Pterodactylus kochi")] and state.deck == []
    play(state, A.END_TURN, A.DISCARD + 1)                  # the next card out ends it
    assert state.adventure == 2 and state.history == [[-1, 0, 0]]


def test_hound_finding_an_advantage_gives_only_the_penalty() -> None:
    """"If it's an advantage, you will NOT benefit from its effect, but it will subtract one
    point at the end of the adventure."
    """
    state = setup(3, row=(GALVENSIS, "Hound"))
    play(state, A.TAKE + 1, draw("Allies"), draw("Pterodactylus kochi"))
    assert state.advantages[0] == [card("Hound"), card("Allies")]
    assert state.actions_left == 0                           # no Allies' action
    assert state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]
    assert state.points_now()[0] == -2


def test_allies_revealed_by_the_hound_give_no_throw_bonus() -> None:
    """"If it's an advantage, you will NOT benefit from its effect, but it will subtract one
    point at the end of the adventure." Neither the Allies' action nor their +1 to later hunt
    throws: only an Allies taken from the row gives its effects."""
    difficulty = CARDS.difficulty[card(GALVENSIS)]
    state = setup(3, row=(GALVENSIS, "Hound"))
    play(state, A.TAKE + 1, draw("Allies"), draw("Pterodactylus kochi"), A.END_TURN)
    play(state, *CAMP, *CAMP)
    assert state.observation(0)["players"][0]["throw_bonus"] == 0
    play(state, A.TAKE, roll(difficulty - 1))
    assert state.dinosaurs[0] == [] and state.legal_actions() == [A.REROLL, A.STOP_HUNT]
    assert state.observation(0)["hunt"]["bonus"] == 0


def test_hound_with_an_empty_deck_ends_the_adventure() -> None:
    """Ruling: the Hound reveals nothing from an empty deck, and the Hound itself cannot be
    replaced in the row: "When a card is taken and can't be replaced (because the deck is
    empty), the adventure ends."
    """
    state = setup(3, row=(GALVENSIS, "Hound"))
    state.deck = []
    play(state, A.TAKE + 1)
    assert state.adventure == 2 and len(state.history) == 1
    assert state.history[0] == [-1, 0, 0]


def test_hound_takes_the_last_card_then_the_adventure_ends() -> None:
    """Ruling 23: the Hound's reveal comes before the refill; if it takes the deck's last card
    and the dinosaur is captured, the Hound's place in the row cannot be refilled and the
    adventure ends."""
    state = setup(3, row=(GALVENSIS, "Hound"))
    state.deck = [card("Pterodactylus kochi")]
    play(state, A.TAKE + 1, draw("Pterodactylus kochi"), A.HOUND_CAPTURE)
    assert state.history == [[2 * CARDS.points[card("Pterodactylus kochi")] - 1, 0, 0]]


def test_haven_of_peace_never_raises_the_tokens_above_six() -> None:
    """"take up to 6 exploration tokens": an explorer with 6 keeps 6, and still pays the
    card's point."""
    state = setup(3, row=(GALVENSIS, "Haven of Peace"))
    play(state, A.TAKE + 1, draw("Allies"))
    assert state.exploration_tokens[0] == 6 and state.points_now()[0] == -1


def test_hound_revealing_haven_of_peace_restores_nothing() -> None:
    """"If it's an advantage, you will NOT benefit from its effect, but it will subtract one
    point at the end of the adventure.\""""
    state = setup(3, row=(GALVENSIS, "Hound"))
    play(state, A.TAKE, roll(2), A.STOP_HUNT, A.BASE_CAMP, A.END_TURN, A.BASE_CAMP, A.END_TURN)
    tokens = 6 - CARDS.damage_failure[card(GALVENSIS)]
    assert state.current_player() == 0 and state.exploration_tokens[0] == tokens
    play(state, A.TAKE + 1, draw("Haven of Peace"), draw("Pterodactylus kochi"))
    assert state.exploration_tokens[0] == tokens
    assert state.advantages[0] == [card("Hound"), card("Haven of Peace")]
    assert state.points_now()[0] == -2


def test_hound_revealing_the_ammunition_box_returns_nothing() -> None:
    """"If it's an advantage, you will NOT benefit from its effect": no ammunition goes back
    and nothing is asked."""
    state = setup(2, row=(GALVENSIS, "Hound"))
    play(state, A.TAKE, roll(2), A.REROLL, roll(2), A.STOP_HUNT, *CAMP)
    assert state.current_player() == 0 and state.ammunition[0] == 1
    play(state, A.TAKE + 1, draw("Ammunition Box"))
    assert state.observation(0)["phase"] == "reveal"
    play(state, draw("Pterodactylus kochi"))
    assert state.ammunition[0] == 1 and state.center_ammunition == 5
    assert state.points_now()[0] == -3


def test_returned_ammunition_can_be_taken_again_by_anyone() -> None:
    """"you can put back at the center of the table all the ammunition tokens you have used"
    - back in the centre, they serve anyone's later re-roll (ruling 22)."""
    state = setup(2, row=("Iguanodon mantelli", "Ammunition Box"))
    twice_failed = (A.TAKE, roll(2), A.REROLL, roll(2), A.REROLL, roll(2))
    play(state, *twice_failed, *twice_failed, *twice_failed)
    assert state.center_ammunition == 0 and state.ammunition == [4, 2]
    play(state, A.TAKE, roll(2))
    assert state.current_player() == 0                     # no ammunition: no re-roll
    play(state, A.TAKE + 1, A.RETURN_AMMUNITION, draw("Allies"))
    assert state.center_ammunition == 4 and state.ammunition == [0, 2]
    assert state.current_player() == 1                     # 2 tokens: no extra action
    play(state, A.TAKE, roll(2))
    assert state.legal_actions() == [A.REROLL, A.STOP_HUNT]
