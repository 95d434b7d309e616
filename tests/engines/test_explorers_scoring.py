"""End of an adventure, scoring, trophies, the next adventure and the end of the match."""

from __future__ import annotations

import pytest
from test_explorers_helpers import (
    CAMP,
    CARDS,
    abandon_all,
    capture,
    draw,
    end_turn,
    play,
    points,
    roll,
    setup,
)

from arena.game import competition_ranking
from engines.explorers import actions as A
from engines.explorers.scoring import ranking_keys
from engines.explorers.table import MAX_ADVENTURES, MAX_TURNS_PER_ADVENTURE

KOCHI, ANTIQUUS = "Pterodactylus kochi", "Pterodactylus antiquus"
MANTELLI, GALVENSIS = "Iguanodon mantelli", "Iguanodon galvensis"





def test_the_adventure_ends_when_a_taken_card_cannot_be_replaced() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the adventure
    ends." Ruling: a discarded card counts too, as the row must ALWAYS hold two cards; the
    last card of the deck itself is revealed normally."""
    state = setup(3)
    while state.deck:
        if A.DISCARD in state.legal_actions():
            end_turn(play(state, A.DISCARD, A.DRAW + state.deck[0]))
        else:
            play(state, *CAMP)
    assert state.adventure == 1 and state.observation(0)["phase"] == "turn"
    seat = state.current_player()
    play(state, A.TAKE if A.DISCARD not in state.legal_actions() else A.DISCARD)
    if state.adventure == 1:        # a hunt: resolve it as a success
        play(state, roll(12))
    assert state.adventure == 2 and len(state.history) == 1, seat


def test_the_adventure_ends_when_everybody_abandoned() -> None:
    """"The adventure also ends if all the players have abandoned it.\""""
    state = setup(3)
    play(state, A.ABANDON, A.ABANDON)
    assert state.adventure == 1 and state.current_player() == 2
    play(state, *CAMP)
    assert state.current_player() == 2                   # the last one plays on alone
    play(state, A.ABANDON)
    assert state.adventure == 2 and len(state.history) == 1


def test_captured_dinosaurs_score_their_points_and_a_lone_species_doubles() -> None:
    """"Each captured dinosaur will give you as many points as indicated on its card." /
    "If a player is the only one that has a certain dinosaur species, then all the members of
    that species will score double."
    """
    state = setup(3, row=(KOCHI, MANTELLI))
    capture(state, 0, ANTIQUUS)                       # seat 0: kochi
    capture(state, 0, GALVENSIS)                      # seat 1: antiquus
    capture(state, 1, "Allies")                       # seat 2: mantelli
    capture(state, 0, "Hound")                        # seat 0: galvensis
    abandon_all(state)
    assert state.history[0] == [points(KOCHI) + points(GALVENSIS), points(ANTIQUUS),
                                points(MANTELLI)]


def test_a_lone_species_doubles_for_all_its_members() -> None:
    """"then all the members of that species will score double.\""""
    state = setup(2, row=(KOCHI, ANTIQUUS))
    capture(state, 0, "Allies")
    play(state, *CAMP)
    capture(state, 1, "Hound")                  # the Hound is not taken
    abandon_all(state)
    assert state.history[0] == [2 * (points(KOCHI) + points(ANTIQUUS)), 0]


def test_an_abandoned_players_dinosaurs_still_count_for_doubling() -> None:
    """"he will score like everyone else... and can be declared winner!" His dinosaurs are
    still his, so another player holding the species is not alone with it."""
    state = setup(2, row=(KOCHI, ANTIQUUS))
    capture(state, 0, "Allies")
    play(state, *CAMP, A.ABANDON)
    capture(state, 1, "Hound")
    abandon_all(state)
    assert state.history[0] == [points(KOCHI), points(ANTIQUUS)]


def test_ammunition_and_advantages_subtract_a_point_each() -> None:
    """"Each ammunition token you have at the end of the adventure subtracts 1 point." /
    "Each advantage card you have at the end of the adventure subtracts 1 point."
    """
    state = setup(2, row=(GALVENSIS, "Allies"))
    play(state, A.TAKE + 1, draw("Haven of Peace"))              # Allies: one more action
    play(state, A.TAKE, roll(2), A.REROLL, roll(12), draw(KOCHI), A.END_TURN)
    play(state, *CAMP, A.TAKE + 1, draw("Hound"))
    abandon_all(state)
    assert state.history[0] == [2 * points(GALVENSIS) - 1 - 2, 0]


def test_most_points_takes_the_trophy() -> None:
    """"The player with the most points takes a trophy token.\""""
    state = setup(3, row=(KOCHI, MANTELLI))
    capture(state, 1, ANTIQUUS)
    abandon_all(state)
    assert state.trophies == [1, 0, 0] and state.trophy_history == [[0]]
    assert state.observation(2)["players"][0]["trophies"] == 1


def test_a_tie_goes_to_the_most_exploration_tokens() -> None:
    """"In case of a tie, only the player with more exploration tokens takes the trophy\""""
    state = setup(3)
    state.exploration_tokens = [6, 5, 6]
    play(state, A.ABANDON, A.ABANDON)
    state.exploration_tokens[2] = 4
    play(state, A.ABANDON)
    assert state.trophies == [1, 0, 0]


def test_a_persisting_tie_gives_every_tied_player_a_trophy() -> None:
    """"(if the tie persists, all the tied players win a trophy token)\""""
    state = setup(3)
    state.exploration_tokens = [6, 5, 6]
    abandon_all(state)
    assert state.trophies == [1, 0, 1] and state.final_tokens == [6, 5, 6]


def test_the_next_adventure_starts_from_the_very_beginning() -> None:
    """"Now, each player takes up to 6 exploration tokens and puts back all the used
    ammunition tokens at the center of the table. Shuffle all the cards together and start a
    new adventure from the very beginning."
    """
    state = setup(3, row=(GALVENSIS, MANTELLI))
    play(state, A.TAKE, roll(2), A.REROLL, roll(12), draw(KOCHI))
    abandon_all(state)
    assert state.adventure == 2
    assert state.exploration_tokens == [6, 6, 6]
    assert state.ammunition == [0, 0, 0] and state.center_ammunition == 7
    assert state.dinosaurs == [[], [], []] and state.discards == []
    assert len(state.deck) == CARDS.size and state.row == [-1, -1]
    assert state.observation(0)["phase"] == "setup-discard"


def test_the_last_player_of_the_last_adventure_goes_first() -> None:
    """"The player who goes last in the last adventure will go first in this one."

    Ruling: "goes last" is a place in the turn order (the seat before the first player), not
    whoever happened to play the final turn."""
    state = setup(3, first=1, row=(KOCHI, MANTELLI))
    play(state, A.ABANDON)                      # seat 1
    capture(state, 0, ANTIQUUS)                 # seat 2 wins the adventure
    abandon_all(state)
    play(state, draw("Hound"), draw("Allies"), draw(KOCHI), draw(MANTELLI))
    assert state.first_player == 0 and state.current_player() == 0
    capture(state, 1, ANTIQUUS)                 # seat 0 wins the adventure
    abandon_all(state)
    play(state, draw("Hound"), draw("Allies"), draw(KOCHI), draw(MANTELLI))
    assert state.first_player == 2 and state.current_player() == 2


def test_two_trophies_win_the_match() -> None:
    """"The first player to have two trophies is the absolute winner of the game.\""""
    state = setup(2, row=(KOCHI, MANTELLI))
    capture(state, 0, ANTIQUUS)
    abandon_all(state)
    assert not state.is_terminal() and state.trophies == [1, 0]
    play(state, draw("Hound"), draw("Allies"), draw("Haven of Peace"), draw(KOCHI),
         draw(MANTELLI))
    assert state.current_player() == 1
    play(state, A.ABANDON)
    capture(state, 0, ANTIQUUS)
    play(state, A.ABANDON)
    assert state.is_terminal()
    assert state.scores() == [2.0, 0.0]
    assert state.ranking() == [0, 1]
    assert state.legal_actions() == []


def test_simultaneous_second_trophies_tie_the_match() -> None:
    """"The first player to have two trophies is the absolute winner of the game." Ruling 27:
    players reaching two trophies together are all first."""
    state = setup(2)
    abandon_all(state)                          # tie: both take a trophy
    assert state.trophies == [1, 1]
    play(state, draw(KOCHI), draw(ANTIQUUS), draw(MANTELLI), draw(GALVENSIS), draw("Hound"))
    abandon_all(state)
    assert state.is_terminal() and state.scores() == [2.0, 2.0]
    assert state.ranking() == [0, 0]


def test_players_reaching_two_trophies_together_all_win_whatever_their_points() -> None:
    """"The first player to have two trophies is the absolute winner of the game." Ruling 27:
    two explorers taking their second trophy in the same adventure are both first to two, so
    both are absolute winners; the match's points do not separate them (the rulebook names
    no such tie-break), they only order the places below."""
    state = setup(3, row=(KOCHI, MANTELLI))
    play(state, A.ABANDON)
    capture(state, 0, ANTIQUUS)                  # seat 1 wins adventure 1
    abandon_all(state)
    play(state, draw("Hound"), draw("Allies"), draw(KOCHI), draw(MANTELLI))
    assert state.current_player() == 2
    play(state, A.ABANDON)
    capture(state, 1, GALVENSIS)                 # seat 0 wins adventure 2, more points
    abandon_all(state)
    assert state.trophies == [1, 1, 0]
    play(state, draw("Hound"), draw("Allies"), draw(KOCHI), draw(MANTELLI))
    abandon_all(state)                           # everybody tied: a trophy each
    assert state.is_terminal() and state.trophies == [2, 2, 1]
    totals = [sum(past[seat] for past in state.history) for seat in range(3)]
    assert totals == [2 * points(MANTELLI), 2 * points(KOCHI), 0]
    assert totals[0] != totals[1]
    assert state.ranking() == [0, 0, 2]


def test_match_ranking_below_the_winners_then_points_then_exploration_tokens() -> None:
    """Ruling 27 (no rule): below the winners, places go by trophies, then the total of
    adventure points, then the exploration tokens left at the end of the last adventure;
    still tied players share a place. Winners share first place whatever those say."""
    keys = ranking_keys([2, 1, 1, 1], [[0, 3, 3, 9], [1, 1, 1, 0]], [0, 5, 6, 6])
    assert competition_ranking(keys) == [0, 3, 2, 1]
    keys = ranking_keys([2, 2, 1, 0], [[0, 9, 0, 0]], [0, 6, 6, 6])
    assert competition_ranking(keys) == [0, 0, 2, 3]


def test_safety_cap_ends_an_endless_adventure() -> None:
    """Ruling (no rule): explorers could go back to the base camp forever, so an adventure is
    scored as ended once MAX_TURNS_PER_ADVENTURE turns were played."""
    state = setup(2)
    for _ in range(MAX_TURNS_PER_ADVENTURE - 1):
        play(state, *CAMP)
    assert state.adventure == 1 and state.turns == MAX_TURNS_PER_ADVENTURE
    play(state, *CAMP)
    assert state.adventure == 2 and state.trophies == [1, 1]


def test_a_match_needs_at_most_one_adventure_more_than_players() -> None:
    """Ruling: every adventure gives at least one trophy, so after players + 1 adventures
    someone holds two; the cap MAX_ADVENTURES is only a guard."""
    assert MAX_ADVENTURES > 4 + 1


def test_the_trophy_supply_is_not_limited() -> None:
    """"5 trophy tokens" in the box, but "if the tie persists, all the tied players win a
    trophy token": four explorers tied twice take eight (ruling 3)."""
    state = setup(4)
    abandon_all(state)
    assert state.trophies == [1, 1, 1, 1]
    play(state, draw(KOCHI), draw(ANTIQUUS), draw(MANTELLI))
    abandon_all(state)
    assert state.is_terminal() and state.trophies == [2, 2, 2, 2]
    assert sum(state.scores()) == 8 > 5


def test_the_token_tie_break_looks_only_at_the_tied_players() -> None:
    """"In case of a tie, only the player with more exploration tokens takes the trophy":
    among those tied on the most points; the best score may be negative (ruling 24)."""
    state = setup(3, row=("Haven of Peace", "Allies"))
    play(state, A.TAKE, draw("Hound"), A.END_TURN)                   # seat 0: -1
    play(state, A.TAKE + 1, draw("Ammunition Box"), A.TAKE + 1, draw(KOCHI),
         A.END_TURN)                                                 # seat 1: -2
    play(state, A.EXTRA_ACTION, A.TAKE, draw(ANTIQUUS), A.HOUND_RELEASE,
         A.ABANDON)                                                  # seat 2: -1, 4 tokens
    play(state, A.TAKE + 1, roll(2), A.STOP_HUNT)                    # seat 0: 5 tokens
    play(state, A.ABANDON, A.ABANDON)
    assert state.history[0] == [-1, -2, -1] and state.final_tokens == [5, 6, 4]
    assert state.trophy_history == [[0]]


def test_a_base_camp_leaves_another_player_alone_with_a_species() -> None:
    """"If a player is the only one that has a certain dinosaur species": dinosaurs
    discarded at the base camp no longer count for anyone."""
    state = setup(2, row=(KOCHI, ANTIQUUS))
    capture(state, 0, "Allies")                             # seat 0: kochi
    capture(state, 1, "Hound")                              # seat 1: antiquus
    assert state.points_now() == [points(KOCHI), points(ANTIQUUS)]
    play(state, *CAMP)                                      # seat 0 discards kochi
    assert state.points_now() == [0, 2 * points(ANTIQUUS)]
    abandon_all(state)
    assert state.history[0] == [0, 2 * points(ANTIQUUS)]


def test_an_explorer_who_abandoned_first_can_take_the_trophy() -> None:
    """"A player that abandons the adventure will stop playing ... at the end, he will score
    like everyone else... and can be declared winner!\""""
    state = setup(3, row=(KOCHI, MANTELLI))
    capture(state, 0, ANTIQUUS)                             # seat 0: kochi
    play(state, *CAMP, *CAMP, A.ABANDON)                    # seat 0 out first
    for _ in range(3):
        play(state, *CAMP, *CAMP)                           # the others play on
    play(state, A.ABANDON, A.ABANDON)
    assert state.history[0] == [2 * points(KOCHI), 0, 0] and state.trophies == [1, 0, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_adventure_is_set_up_again_for_the_player_count(players: int) -> None:
    """"Shuffle all the cards together and start a new adventure from the very beginning."
    / "The player who goes last in the last adventure will go first in this one." The setup
    discards and the centre's ammunition follow the player count again, abandons are over,
    and the seat before the last first player starts (ruling 6)."""
    discards = {2: 3, 3: 2, 4: 1}[players]
    state = setup(players, first=1, row=(KOCHI, MANTELLI))
    play(state, A.TAKE, roll(2), A.REROLL, roll(2), A.STOP_HUNT)   # seat 1: 1 ammunition
    abandon_all(state)
    assert state.adventure == 2 and state.center_ammunition == {2: 6, 3: 7, 4: 8}[players]
    assert state.abandoned == [False] * players
    cards = [draw(name) for name in (KOCHI, ANTIQUUS, MANTELLI, GALVENSIS, "Hound")]
    for action in cards[:discards]:
        assert state.observation(0)["phase"] == "setup-discard"
        play(state, action)
    assert state.observation(0)["phase"] == "reveal"
    play(state, *cards[discards:discards + 2])
    assert len(state.discards) == discards and len(state.deck) == CARDS.size - discards - 2
    assert state.first_player == 0 and state.current_player() == 0
    assert state.exploration_tokens == [6] * players
