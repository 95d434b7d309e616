"""The advanced game: trail tokens, their bonuses, and stealing dinosaurs."""

from __future__ import annotations

import pytest
from test_explorers_helpers import (
    CAMP,
    abandon_all,
    ask,
    capture,
    card,
    die,
    draw,
    new_state,
    play,
    points,
    setup,
    steal,
    trail,
)

from arena.game import CHANCE
from engines.explorers import actions as A

KOCHI, ANTIQUUS = "Pterodactylus kochi", "Pterodactylus antiquus"
MANTELLI, GALVENSIS = "Iguanodon mantelli", "Iguanodon galvensis"
DOLICHO, BUCKLANDII = "Plesiosaurus dolichodeirus", "Megalosaurus bucklandii"
MACRO = "Plesiosaurus macrocephalus"

TRAILS = (("pterodactylus", "iguanodon"), ("plesiosaurus", "pterodactylus"),
          ("megalosaurus", "iguanodon"))





def test_two_random_trail_tokens_are_dealt_to_each_player() -> None:
    """"At the beginning of the game, give two random tokens to each player. These tokens
    have to be faced up in front of the players." (4 pterodactylus, 3 iguanodon,
    2 plesiosaurus, 1 megalosaurus.)
    """
    state = play(new_state(3, advanced=True), A.FIRST_PLAYER)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(A.TRAIL_DEAL, 0.4), (A.TRAIL_DEAL + 1, 0.3),
                                       (A.TRAIL_DEAL + 2, 0.2), (A.TRAIL_DEAL + 3, 0.1)]
    play(state, A.TRAIL_DEAL + 3)
    assert [a for a, _ in state.chance_outcomes()] == [A.TRAIL_DEAL, A.TRAIL_DEAL + 1,
                                                       A.TRAIL_DEAL + 2]
    assert state.chance_outcomes()[0][1] == pytest.approx(4 / 9)
    play(state, A.TRAIL_DEAL, A.TRAIL_DEAL, A.TRAIL_DEAL, A.TRAIL_DEAL)
    assert [a for a, _ in state.chance_outcomes()] == [A.TRAIL_DEAL + 1, A.TRAIL_DEAL + 2]
    play(state, A.TRAIL_DEAL + 1)
    assert state.trail_tokens == [[3, 0], [0, 0], [0, 1]]
    assert state.observation(1)["players"][0]["trail_tokens"] == ["megalosaurus",
                                                                   "pterodactylus"]
    assert state.observation(0)["phase"] == "setup-discard"


def test_the_basic_game_has_no_trail_tokens_and_no_steal() -> None:
    state = setup(3)
    assert state.trail_tokens == [[], [], []]
    assert not any(A.STEAL <= action < A.STEAL_CARD for action in state.legal_actions())


def test_trail_bonuses_apply_before_doubling() -> None:
    """"If you have a pterodactylus trail token, each pterodactylus you captured will give you
    +1 point." / "If you are the only player with a certain dinosaur species, you will apply
    the extra points BEFORE doubling the score."
    """
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    capture(state, 0, DOLICHO)                      # seat 0: kochi (alone, +1)
    capture(state, 0, BUCKLANDII)                   # seat 1: dolichodeirus (alone, +2)
    capture(state, 0, ANTIQUUS)                     # seat 2: bucklandii (alone, +2)
    abandon_all(state)
    assert state.history[0] == [2 * (points(KOCHI) + 1), 2 * (points(DOLICHO) + 2),
                                2 * (points(BUCKLANDII) + 2)]


def test_trail_bonus_counts_for_each_captured_dinosaur() -> None:
    """"If you have an iguanodon trail token, each iguanodon you captured will give you +1
    point."
    """
    berni = "Iguanodon bernissartensis"
    state = setup(3, row=(MANTELLI, berni), trails=TRAILS)
    capture(state, 0, KOCHI)                        # seat 0: mantelli
    play(state, *CAMP, *CAMP)
    capture(state, 1, ANTIQUUS)                     # seat 0: bernissartensis
    abandon_all(state)
    assert state.history[0] == [2 * (points(MANTELLI) + 1 + points(berni) + 1), 0, 0]


def test_trail_bonus_on_a_shared_species_is_not_doubled() -> None:
    """"each pterodactylus you captured will give you +1 point" - and a shared species scores
    no double."""
    state = setup(3, row=(KOCHI, ANTIQUUS), trails=TRAILS)
    capture(state, 0, MANTELLI)                     # seat 0: kochi
    capture(state, 1, GALVENSIS)                    # seat 1: antiquus
    abandon_all(state)
    assert state.history[0] == [points(KOCHI) + 1, points(ANTIQUUS) + 1, 0]


def test_identical_trail_tokens_do_not_stack() -> None:
    """"If you have two identical trail tokens, you won't accumulate the extra points.\""""
    trails = (("plesiosaurus", "plesiosaurus"), ("pterodactylus", "pterodactylus"))
    state = setup(2, row=(DOLICHO, KOCHI), trails=trails)
    capture(state, 0, ANTIQUUS)
    abandon_all(state)
    assert state.history[0] == [2 * (points(DOLICHO) + 2), 0]


def test_steal_discards_a_trail_token_and_rolls_one_die() -> None:
    """"In your turn you can, as an action, discard one of your trail tokens. If you do so,
    you can politely ask for a dinosaur... and that means stealing it from another player!" /
    "If you want to steal a dinosaur, throw a die. The result will be the maximum point value
    that dinosaur has to have (count only the printed value)."
    """
    state = setup(3, row=(KOCHI, BUCKLANDII), trails=TRAILS)
    capture(state, 0, MANTELLI)                         # seat 0: kochi
    capture(state, 1, GALVENSIS)                        # seat 1: bucklandii
    assert trail("megalosaurus") in state.legal_actions()
    assert trail("iguanodon") in state.legal_actions()
    play(state, trail("megalosaurus"))                  # seat 2
    assert state.trail_tokens[2] == [1]
    assert state.observation(2)["phase"] == "steal-victim"
    assert state.legal_actions() == [ask(0), ask(1)]
    play(state, ask(1))
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(die(face), 1 / 6) for face in range(1, 7)]
    play(state, die(points(BUCKLANDII)))
    assert state.legal_actions() == [steal(BUCKLANDII)]
    play(state, steal(BUCKLANDII), A.END_TURN)
    assert state.dinosaurs == [[card(KOCHI)], [], [card(BUCKLANDII)]]
    assert state.current_player() == 0


def test_the_die_limits_the_printed_points_of_the_stolen_dinosaur() -> None:
    """"The result will be the maximum point value that dinosaur has to have (count only the
    printed value)." Trail bonuses and doubling do not count."""
    state = setup(3, row=(KOCHI, BUCKLANDII), trails=TRAILS)
    capture(state, 0, MANTELLI)
    capture(state, 1, GALVENSIS)
    play(state, trail("iguanodon"), ask(0), die(points(KOCHI)))
    assert state.legal_actions() == [steal(KOCHI)]
    play(state, steal(KOCHI))
    assert state.dinosaurs[0] == [] and state.dinosaurs[2] == [card(KOCHI)]


def test_steal_gets_nothing_when_no_dinosaur_qualifies() -> None:
    """"If the chosen player doesn't have any dinosaur with that value (or less), you get
    nothing." The steal ends with nothing and the trail token stays discarded."""
    state = setup(3, row=(BUCKLANDII, KOCHI), trails=TRAILS)
    capture(state, 0, MANTELLI)                          # seat 0: bucklandii
    play(state, *CAMP)
    play(state, trail("megalosaurus"), ask(0), die(points(BUCKLANDII) - 1))
    assert state.observation(2)["phase"] == "turn-end"
    play(state, A.END_TURN)
    assert state.current_player() == 0
    assert state.dinosaurs[0] == [card(BUCKLANDII)] and state.trail_tokens[2] == [1]


def test_the_thief_chooses_the_player_before_the_die() -> None:
    """"If the chosen player doesn't have any dinosaur with that value (or less), you get
    nothing." Ruling: the player is chosen before the die (otherwise a thief would never
    choose one without such a dinosaur and the sentence would say nothing), so another
    player's qualifying dinosaur does not help."""
    state = setup(3, row=(KOCHI, BUCKLANDII), trails=TRAILS)
    capture(state, 0, MANTELLI)                         # seat 0: kochi (1 point)
    capture(state, 1, GALVENSIS)                        # seat 1: bucklandii (5 points)
    play(state, trail("megalosaurus"), ask(1))
    assert state.observation(2)["steal_victim"] == 1
    play(state, die(points(KOCHI)))
    assert state.dinosaurs == [[card(KOCHI)], [card(BUCKLANDII)], []]
    assert state.observation(2)["phase"] == "turn-end"
    assert state.observation(2)["steal_victim"] is None


def test_no_stealing_from_an_abandoned_player() -> None:
    """"You can't steal from a player that has abandoned the adventure.\""""
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    capture(state, 0, ANTIQUUS)                          # seat 0: kochi
    play(state, *CAMP)
    capture(state, 0, GALVENSIS)                         # seat 2: antiquus
    play(state, A.ABANDON)                               # seat 0 abandons
    play(state, trail("plesiosaurus"))                   # seat 1 steals
    assert state.legal_actions() == [ask(2)]
    play(state, ask(2), die(6))
    assert state.legal_actions() == [steal(ANTIQUUS)]


def test_a_steal_with_only_abandoned_victims_gets_nothing() -> None:
    """"You can't steal from a player that has abandoned the adventure.\""""
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    capture(state, 0, ANTIQUUS)                          # seat 0: kochi
    play(state, *CAMP, *CAMP, A.ABANDON)
    play(state, trail("plesiosaurus"), ask(2), die(6), A.END_TURN)
    assert state.current_player() == 2 and state.dinosaurs[0] == [card(KOCHI)]


def test_with_no_player_to_ask_the_steal_is_the_discard_alone() -> None:
    """"In your turn you can, as an action, discard one of your trail tokens. If you do so,
    you can politely ask for a dinosaur" and "You can't steal from a player that has abandoned
    the adventure." Ruling 30 (sixth pass): with every other explorer out, the discard is
    still an action; it asks no one, and its lock-out falls on the thief's own next turn."""
    state = setup(2, row=(KOCHI, MANTELLI), trails=TRAILS[:2])
    play(state, *CAMP, A.ABANDON)
    assert state.current_player() == 0 and state.trail_tokens[0]
    held = list(state.trail_tokens[0])
    species = held[0]
    play(state, A.STEAL + species)
    assert state.current_player() == 0 and state.observation(0)["phase"] == "turn-end"
    assert sorted(state.trail_tokens[0] + [species]) == sorted(held)
    play(state, A.END_TURN)
    assert state.current_player() == 0 and state.steal_locked
    assert not any(A.STEAL <= action < A.STEAL_CARD for action in state.legal_actions())


def test_the_next_player_cannot_steal_after_a_steal() -> None:
    """"When a player decides to discard a trail token, the next one CAN'T choose this
    action."
    """
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    play(state, trail("pterodactylus"), ask(1), die(1), A.END_TURN)
    assert state.current_player() == 1
    assert not any(A.STEAL <= action < A.STEAL_CARD for action in state.legal_actions())
    assert state.observation(1)["steal_locked"] is True
    play(state, *CAMP)
    assert trail("iguanodon") in state.legal_actions()


def test_trail_tokens_are_kept_across_adventures_and_never_come_back() -> None:
    """"Remember also that trail tokens are kept from adventure to adventure and, if you
    discard one, there is no way to recover it."
    """
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    play(state, trail("iguanodon"), ask(1), die(1), A.END_TURN)
    play(state, *CAMP)
    abandon_all(state)
    assert state.adventure == 2
    assert state.trail_tokens == [[0], [2, 0], [3, 1]]


def test_trail_tokens_survive_the_base_camp() -> None:
    """"he must discard both his advantages and his captured dinosaurs" - trail tokens are
    neither, so they stay."""
    state = setup(2, row=(KOCHI, ANTIQUUS), trails=TRAILS[:2])
    capture(state, 0, MANTELLI)
    play(state, *CAMP, *CAMP)
    assert state.dinosaurs[0] == [] and state.trail_tokens[0] == [0, 1]


def test_the_steal_lock_out_skips_an_abandoned_player() -> None:
    """"When a player decides to discard a trail token, the next one CAN'T choose this
    action." Ruling 31 (as ruling 9): the next one still in the adventure."""
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    play(state, *CAMP, A.ABANDON)                          # seat 1 abandons
    play(state, *CAMP)
    play(state, trail("pterodactylus"), ask(2), die(1), A.END_TURN)
    assert state.current_player() == 2
    assert not any(A.STEAL <= action < A.STEAL_CARD for action in state.legal_actions())
    assert state.observation(2)["steal_locked"] is True


def test_the_thief_may_steal_again_with_an_extra_action() -> None:
    """"the next one CAN'T choose this action": the lock is on the next one, not on the
    thief's own extra action."""
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    play(state, trail("pterodactylus"), ask(1), die(1), A.EXTRA_ACTION)
    assert trail("iguanodon") in state.legal_actions()
    play(state, trail("iguanodon"), ask(2), die(6))
    assert state.trail_tokens[0] == [] and state.current_player() == 1


def test_the_discard_and_steal_lock_outs_are_separate() -> None:
    """"the next one in the turn order will NOT be able to choose it" / "the next one CAN'T
    choose this action": each lock forbids only the action that was taken."""
    state = setup(3, row=(KOCHI, MANTELLI), trails=TRAILS)
    play(state, A.DISCARD, draw(ANTIQUUS), A.END_TURN)
    assert A.DISCARD not in state.legal_actions()
    assert trail("plesiosaurus") in state.legal_actions()
    play(state, trail("plesiosaurus"), ask(2), die(1), A.END_TURN)
    assert A.DISCARD in state.legal_actions()
    assert not any(A.STEAL <= action < A.STEAL_CARD for action in state.legal_actions())


def test_the_thief_chooses_among_every_dinosaur_the_die_allows() -> None:
    """"The result will be the maximum point value that dinosaur has to have": every
    dinosaur of the chosen player at or under the die may be taken, none above it."""
    state = setup(2, row=(KOCHI, ANTIQUUS), trails=TRAILS[:2])
    capture(state, 0, MACRO)                               # seat 0: kochi (1)
    play(state, *CAMP)
    capture(state, 1, MANTELLI)                            # seat 0: antiquus (1)
    play(state, *CAMP)
    capture(state, 0, DOLICHO)                             # seat 0: macrocephalus (4)
    assert points(MACRO) > 3 >= max(points(KOCHI), points(ANTIQUUS))
    play(state, trail("plesiosaurus"), ask(0), die(3))
    assert state.legal_actions() == sorted([steal(KOCHI), steal(ANTIQUUS)])
    play(state, steal(ANTIQUUS))
    assert state.dinosaurs == [[card(KOCHI), card(MACRO)], [card(ANTIQUUS)]]


def test_a_stolen_dinosaur_scores_for_the_thief_with_the_thiefs_trail_bonus() -> None:
    """"each pterodactylus you captured will give you +1 point": a dinosaur won by a steal
    or from the Hound is the holder's at the end, with the holder's trail bonus; the victim
    loses it, and the species may become someone's alone (ruling 32)."""
    trails = (("iguanodon", "megalosaurus"), ("pterodactylus", "plesiosaurus"))
    state = setup(2, row=(KOCHI, "Hound"), trails=trails)
    capture(state, 0, MANTELLI)                            # seat 0: kochi
    play(state, A.TAKE + 1, draw(ANTIQUUS), A.HOUND_CAPTURE, draw(MACRO), A.END_TURN)
    assert state.dinosaurs == [[card(KOCHI)], [card(ANTIQUUS)]]
    play(state, trail("iguanodon"), ask(1), die(6), steal(ANTIQUUS), A.END_TURN)
    play(state, A.ABANDON, A.ABANDON)
    # Seat 0 holds both pterodactylus alone: printed points, no bonus (its token is an
    # iguanodon's and a megalosaurus'), doubled; seat 1 has only the Hound's -1.
    assert state.history[0] == [2 * (points(KOCHI) + points(ANTIQUUS)), -1]


def test_a_hound_capture_takes_the_trail_bonus() -> None:
    """"each pterodactylus you captured will give you +1 point": the Hound's capture too."""
    trails = (("pterodactylus", "plesiosaurus"), ("iguanodon", "iguanodon"))
    state = setup(2, row=(MACRO, "Hound"), trails=trails)
    play(state, A.TAKE + 1, draw(KOCHI), A.HOUND_CAPTURE, draw(MANTELLI), A.END_TURN)
    play(state, A.ABANDON, A.ABANDON)
    assert state.history[0] == [2 * (points(KOCHI) + 1) - 1, 0]


def test_a_discarded_trail_token_gives_no_bonus() -> None:
    """"Each token you keep at the end of the adventure will give you extra points": a token
    discarded to steal no longer counts; an identical one still kept does."""
    trails = (("iguanodon", "iguanodon"), ("plesiosaurus", "pterodactylus"),
              ("megalosaurus", "pterodactylus"))
    state = setup(3, row=(MANTELLI, DOLICHO), trails=trails)
    capture(state, 0, KOCHI)                               # seat 0: mantelli
    capture(state, 1, ANTIQUUS)                            # seat 1: dolichodeirus
    play(state, *CAMP)
    play(state, trail("iguanodon"), ask(1), die(1), A.END_TURN)
    play(state, A.DISCARD, draw(GALVENSIS), A.END_TURN, *CAMP)
    play(state, A.DISCARD, draw(BUCKLANDII), A.END_TURN)
    play(state, trail("plesiosaurus"), ask(0), die(1), A.END_TURN)
    abandon_all(state)
    assert state.trail_tokens == [[1], [0], [3, 0]]
    assert state.history[0] == [2 * (points(MANTELLI) + 1), 2 * points(DOLICHO), 0]


def test_four_players_are_dealt_eight_of_the_ten_trail_tokens() -> None:
    """"At the beginning of the game, give two random tokens to each player": each token
    is drawn from those left."""
    state = play(new_state(4, advanced=True), A.FIRST_PLAYER)
    for _ in range(4):
        play(state, A.TRAIL_DEAL)                          # the four pterodactylus
    assert [action for action, _ in state.chance_outcomes()] == [
        A.TRAIL_DEAL + 1, A.TRAIL_DEAL + 2, A.TRAIL_DEAL + 3]
    play(state, A.TRAIL_DEAL + 1, A.TRAIL_DEAL + 1, A.TRAIL_DEAL + 1, A.TRAIL_DEAL + 3)
    assert state.observation(0)["phase"] == "setup-discard"
    assert [len(held) for held in state.trail_tokens] == [2, 2, 2, 2]
    assert state.observation(3)["players"][3]["trail_tokens"] == ["iguanodon", "megalosaurus"]


def test_the_steal_lock_out_does_not_carry_into_the_next_adventure() -> None:
    """"the next one CAN'T choose this action" - in this adventure: a steal in the turn that
    ends it locks nobody in the next one (rulings 9 and 31)."""
    state = setup(2, row=(KOCHI, MANTELLI), trails=TRAILS[:2])
    while state.deck:                                      # seat 0 discards, seat 1 waits
        play(state, A.DISCARD, A.DRAW + state.deck[0], A.END_TURN, *CAMP)
    play(state, trail("iguanodon"), ask(1), die(1), A.EXTRA_ACTION, A.DISCARD)
    assert state.adventure == 2
    play(state, *(A.DRAW + c for c in state.deck[:5]))
    assert state.current_player() == 1 and trail("plesiosaurus") in state.legal_actions()
    assert state.observation(1)["steal_locked"] is False
