"""Hunting: two dice against the difficulty, ammunition re-rolls, damage and exhaustion."""

from __future__ import annotations

from test_explorers_helpers import CARDS, card, draw, play, reveal, roll, setup

from arena.game import CHANCE
from engines.explorers import actions as A
from engines.explorers.state import ExplorersState

GALVENSIS = "Iguanodon galvensis"
HESPERIS = "Megalosaurus hesperis"


def stats(name: str) -> tuple[int, int, int]:
    """Difficulty, damage on success and damage on failure of a card."""
    cid = card(name)
    return CARDS.difficulty[cid], CARDS.damage_success[cid], CARDS.damage_failure[cid]


def hunting(players: int = 3, name: str = GALVENSIS) -> ExplorersState:
    """Seat 0 has just chosen to hunt ``name`` from row[0]."""
    return play(setup(players, row=(name, "Allies"),
                      discards=("Hound", "Haven of Peace", "Ammunition Box")[:5 - players]),
                A.TAKE)


def test_a_hunt_throw_is_two_dice() -> None:
    """"In order to hunt a dinosaur, you must take your chances and throw the dice."

    The throw is one chance node over the totals of two six-sided dice."""
    state = hunting()
    assert state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    assert outcomes[roll(7)] == 6 / 36 and outcomes[roll(2)] == outcomes[roll(12)] == 1 / 36
    assert sum(outcomes.values()) == 1.0 or abs(sum(outcomes.values()) - 1) < 1e-12


def test_reaching_the_difficulty_captures_the_dinosaur_with_success_damage() -> None:
    """"You have to obtain the difficulty of the dinosaur or more in order to succeed." /
    "If you are successful, you have captured the dinosaur. Inflict yourself as much damage
    as necessary (your damage is taken out of the exploration tokens) and take the dinosaur
    card for yourself."
    """
    difficulty, success, _ = stats(GALVENSIS)
    state = play(hunting(), roll(difficulty))
    assert state.dinosaurs[0] == [card(GALVENSIS)]
    assert state.exploration_tokens[0] == 6 - success
    assert state.current_player() == CHANCE and state.row[0] == -1       # refill follows


def test_a_failed_throw_offers_a_re_roll_with_ammunition() -> None:
    """"After a failed throw, you can try again, taking an ammunition token from the center of
    the table."
    """
    difficulty, _, _ = stats(GALVENSIS)
    state = play(hunting(), roll(difficulty - 1))
    assert state.current_player() == 0
    assert state.legal_actions() == [A.REROLL, A.STOP_HUNT]
    play(state, A.REROLL)
    assert state.ammunition[0] == 1 and state.center_ammunition == 6
    assert state.current_player() == CHANCE
    play(state, roll(difficulty))
    assert state.dinosaurs[0] == [card(GALVENSIS)]


def test_at_most_two_ammunition_tokens_per_dinosaur() -> None:
    """"You can take up to two ammunition tokens per dinosaur (which means that you can throw
    the dice up to three times)." / "If, after all, you still fail, inflict yourself as much
    damage as necessary (taken out of exploration tokens) and pass the turn."
    """
    difficulty, _, failure = stats(GALVENSIS)
    state = play(hunting(), roll(2), A.REROLL, roll(2), A.REROLL, roll(difficulty - 1))
    assert state.ammunition[0] == 2
    assert state.dinosaurs[0] == []
    assert state.exploration_tokens[0] == 6 - failure
    assert state.current_player() == 1


def test_the_ammunition_limit_counts_per_hunt() -> None:
    """"You can take up to two ammunition tokens per dinosaur (which means that you can throw
    the dice up to three times)." Ruling: the limit is per hunt; a dinosaur that survived a
    hunt may be hunted again later, by the same explorer too, with two re-rolls again."""
    state = play(hunting(2), roll(2), A.REROLL, roll(2), A.REROLL, roll(2))
    assert state.current_player() == 1 and state.ammunition[0] == 2
    play(state, A.BASE_CAMP, A.END_TURN)
    play(state, A.TAKE, roll(2))
    assert state.row[0] == card(GALVENSIS) and state.observation(0)["hunt"]["ammunition_used"] == 0
    assert state.legal_actions() == [A.REROLL, A.STOP_HUNT]
    play(state, A.REROLL, roll(2), A.REROLL)
    assert state.ammunition[0] == 4


def test_no_re_roll_when_the_centre_has_no_ammunition() -> None:
    """"Remember that you won't be able to take an ammunition token if there's not one left in
    the center of the table."
    """
    state = hunting()
    state.center_ammunition = 0
    play(state, roll(2))
    assert state.current_player() == 1                       # failed, turn passed
    assert state.ammunition[0] == 0


def test_the_centre_running_out_mid_hunt_stops_the_re_rolls() -> None:
    """"you won't be able to take an ammunition token if there's not one left\""""
    state = hunting()
    state.center_ammunition = 1
    play(state, roll(2), A.REROLL, roll(2))
    assert state.current_player() == 1 and state.ammunition[0] == 1


def test_stopping_the_hunt_takes_the_failure_damage() -> None:
    """"After a failed throw, you can try again" - trying again is optional."""
    _, _, failure = stats(GALVENSIS)
    state = play(hunting(), roll(2), A.STOP_HUNT)
    assert state.exploration_tokens[0] == 6 - failure
    assert state.ammunition[0] == 0 and state.current_player() == 1


def test_a_dinosaur_that_survives_a_failed_hunt_stays_in_the_row() -> None:
    """Ruling: "If, after all, you still fail, ... pass the turn." The rulebook only refills
    the row "after taking or discarding a card"; a failed hunt does neither, so the
    dinosaur stays and no card is drawn."""
    state = play(hunting(), roll(2), A.STOP_HUNT)
    assert state.row[0] == card(GALVENSIS)
    assert state.current_player() == 1
    assert A.TAKE in state.legal_actions()


def test_each_ammunition_token_costs_a_point() -> None:
    """"Remember also that each ammunition token will subtract one point at the end of the
    adventure."
    """
    difficulty, _, _ = stats(GALVENSIS)
    state = play(hunting(), roll(2), A.REROLL, roll(difficulty), draw("Pterodactylus kochi"))
    assert state.points_now()[0] == CARDS.points[card(GALVENSIS)] * 2 - 1


def test_exhaustion_forces_base_camp_or_abandon() -> None:
    """"When a player has no exploration tokens left, he has to decide immediately between
    going back to the base camp or abandoning the adventure."
    """
    state = hunting(name=HESPERIS)
    state.exploration_tokens[0] = stats(HESPERIS)[2]
    play(state, roll(2), A.STOP_HUNT)
    assert state.exploration_tokens[0] == 0
    assert state.current_player() == 0
    assert state.legal_actions() == [A.BASE_CAMP, A.ABANDON]
    assert state.observation(0)["phase"] == "exhausted"
    play(state, A.BASE_CAMP)
    assert state.exploration_tokens[0] == 6 and state.current_player() == 1


def test_exhaustion_after_a_capture_decides_before_the_refill() -> None:
    """"he has to decide immediately": the choice comes before the row is refilled; going
    back to the base camp discards the dinosaur just captured."""
    difficulty, success, _ = stats(HESPERIS)
    state = hunting(name=HESPERIS)
    state.exploration_tokens[0] = success
    play(state, roll(difficulty))
    assert state.legal_actions() == [A.BASE_CAMP, A.ABANDON] and -1 in state.row
    play(state, A.BASE_CAMP)
    assert state.dinosaurs[0] == [] and card(HESPERIS) in state.discards
    assert state.current_player() == CHANCE
    reveal(state, "Pterodactylus kochi")
    play(state, A.END_TURN)
    assert state.current_player() == 1


def test_exhausted_explorer_who_abandons_keeps_the_capture() -> None:
    """"He won't discard any cards and he keeps the used ammunition.\""""
    difficulty, success, _ = stats(HESPERIS)
    state = hunting(name=HESPERIS)
    state.exploration_tokens[0] = success
    play(state, roll(2), A.REROLL, roll(difficulty), A.ABANDON, draw("Pterodactylus kochi"))
    assert state.abandoned[0] and state.dinosaurs[0] == [card(HESPERIS)]
    assert state.ammunition[0] == 1 and state.current_player() == 1


def test_overkill_has_no_penalty() -> None:
    """"If the inflicted damage was superior to the player's current tokens, nothing special
    happens (there is no penalty for the "overkill")."
    """
    state = hunting(name=HESPERIS)
    state.exploration_tokens[0] = 1
    play(state, roll(2), A.STOP_HUNT)
    assert state.exploration_tokens[0] == 0
    play(state, A.BASE_CAMP)
    assert state.exploration_tokens[0] == 6


def test_exhaustion_keeps_a_pending_extra_action() -> None:
    """Ruling: the exhausted explorer's choice is not an action; after a capture and the base
    camp they still play an action they had paid for."""
    difficulty, success, _ = stats(HESPERIS)
    state = setup(3, row=(HESPERIS, "Allies"))
    state.exploration_tokens[0] = 2 + success
    play(state, A.EXTRA_ACTION, A.TAKE, roll(difficulty))
    assert state.legal_actions() == [A.BASE_CAMP, A.ABANDON]
    play(state, A.BASE_CAMP, draw("Pterodactylus kochi"))
    assert state.current_player() == 0 and A.TAKE in state.legal_actions()


def test_back_from_an_exhausted_base_camp_the_extra_action_may_still_be_bought() -> None:
    """"A player can earn an additional action after discarding two of his own exploration
    tokens. In order to do this, you need, at least, 3 exploration tokens." Rulings 7 and 19:
    the exhausted explorer's choice is not an action, so one who captured with their only
    action and went back to the base camp (6 tokens again) may still buy the turn's extra
    action before it passes."""
    difficulty, success, _ = stats(HESPERIS)
    state = setup(3, row=(HESPERIS, "Allies"))
    state.exploration_tokens[0] = success
    play(state, A.TAKE, roll(difficulty))
    assert state.legal_actions() == [A.BASE_CAMP, A.ABANDON]
    play(state, A.BASE_CAMP, draw("Pterodactylus kochi"))
    assert state.dinosaurs[0] == [] and state.exploration_tokens[0] == 6
    assert state.current_player() == 0
    assert state.legal_actions() == [A.EXTRA_ACTION, A.END_TURN]
    play(state, A.EXTRA_ACTION)
    assert state.exploration_tokens[0] == 4 and A.TAKE in state.legal_actions()


def test_a_failed_hunt_passes_the_turn_and_loses_a_bought_action() -> None:
    """"If, after all, you still fail, inflict yourself as much damage as necessary (taken
    out of exploration tokens) and pass the turn." Ruling: the turn passes whatever actions
    were left; an extra action bought before the hunt is lost with its two tokens."""
    _, _, failure = stats(GALVENSIS)
    state = setup(3, row=(GALVENSIS, "Allies"))
    play(state, A.EXTRA_ACTION, A.TAKE, roll(2), A.STOP_HUNT)
    assert state.current_player() == 1
    assert state.exploration_tokens[0] == 6 - 2 - failure

    state = setup(3, row=(GALVENSIS, "Allies"))
    play(state, A.TAKE + 1, draw("Pterodactylus kochi"), A.EXTRA_ACTION)   # 2 actions due
    state.center_ammunition = 0
    play(state, A.TAKE, roll(2))                                        # no ammunition left
    assert state.current_player() == 1


def test_a_failed_hunt_passes_the_turn_after_the_exhausted_choice() -> None:
    """"pass the turn": an exhausted hunter first chooses the base camp or abandoning, then
    the turn passes even with a bought action due."""
    state = setup(3, row=(HESPERIS, "Allies"))
    state.exploration_tokens[0] = 2 + stats(HESPERIS)[2]
    play(state, A.EXTRA_ACTION, A.TAKE, roll(2), A.STOP_HUNT)
    assert state.legal_actions() == [A.BASE_CAMP, A.ABANDON]
    play(state, A.BASE_CAMP)
    assert state.current_player() == 1


def test_exhausted_by_the_adventures_last_capture_still_chooses() -> None:
    """"When a player has no exploration tokens left, he has to decide immediately": also
    when the capture took the deck's last card, before the adventure ends (ruling 14). Here
    going back to the base camp turns -1 point into 0 and 6 tokens, which wins the tie."""
    mantelli = "Iguanodon mantelli"
    state = setup(2, row=(mantelli, "Haven of Peace"))
    for name in ("Allies", "Ammunition Box", "Hound"):
        state.deck.remove(card(name))
        state.advantages[0].append(card(name))
    state.discards += state.deck
    state.deck = []
    state.exploration_tokens[0], state.exploration_tokens[1] = 1, 5
    play(state, A.TAKE, roll(2), A.REROLL, roll(2), A.REROLL,
         roll(CARDS.difficulty[card(mantelli)]))
    assert state.exploration_tokens[0] == 0 and state.adventure == 1
    assert state.observation(0)["phase"] == "exhausted"
    assert state.legal_actions() == [A.BASE_CAMP, A.ABANDON]
    play(state, A.BASE_CAMP)
    assert state.history[0] == [0, 0] and state.trophies == [1, 0]


def test_abandoning_when_exhausted_by_the_last_capture_keeps_it() -> None:
    difficulty, success, _ = stats(HESPERIS)
    state = hunting(name=HESPERIS)
    state.discards += state.deck
    state.deck = []
    state.exploration_tokens[0] = success
    play(state, roll(difficulty))
    assert state.observation(0)["phase"] == "exhausted"
    play(state, A.ABANDON)
    assert state.adventure == 2
    # The lone megalosaurus scores double; no ammunition, no advantage.
    assert state.history[0] == [2 * CARDS.points[card(HESPERIS)], 0, 0]


def test_failure_damage_comes_once_when_the_hunt_is_over() -> None:
    """"If, after all, you still fail, inflict yourself as much damage as necessary": the
    failed throws before the last one cost ammunition, not exploration tokens (ruling 18)."""
    _, _, failure = stats(GALVENSIS)
    state = play(hunting(), roll(2), A.REROLL, roll(2))
    assert state.exploration_tokens[0] == 6 and state.observation(0)["hunt"]["rolls"] == 2
    play(state, A.REROLL, roll(2))
    assert state.exploration_tokens[0] == 6 - failure and state.current_player() == 1


def test_a_throw_above_the_difficulty_also_captures() -> None:
    """"You have to obtain the difficulty of the dinosaur or more in order to succeed.\""""
    difficulty, success, _ = stats(GALVENSIS)
    state = play(hunting(), roll(difficulty + 1))
    assert state.dinosaurs[0] == [card(GALVENSIS)] and state.exploration_tokens[0] == 6 - success

