"""Rules the coverage audit found without a scenario of their own (RULES-COVERAGE-dinosaurs.md).

Each test arranges a position through the helpers, plays the actions a seat or chance
would, and asserts what the rulebook sentence in its docstring says must follow.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_dinosaurs_helpers import (
    BOARD,
    card,
    dice,
    die,
    dinosaur,
    draw_now,
    explorer,
    moving,
    names,
    phase,
    play,
    put,
    put_dinosaur,
    space,
    started,
    to_move,
)
from test_dinosaurs_invariants import check

from arena.game import CHANCE, sample_chance
from engines.dinosaurs import actions as A
from engines.dinosaurs.cards import KEPT, NAMES
from engines.dinosaurs.phases import MOVE_PICK, OVER
from engines.dinosaurs.phases import NAMES as PHASE_NAMES
from engines.dinosaurs.state import DinosaursState
from engines.dinosaurs.table import COINS, DEAD, LAVA_PIECES, OUTSIDE


def _armed(state: DinosaursState, bullets: int = 3) -> DinosaursState:
    state.guns[0], state.bullets[0] = 1, bullets
    state.bullet_supply -= bullets
    return state


# ------------------------------------------------------------------ the turn and the move

@pytest.mark.parametrize("kind", range(len(NAMES)))
def test_every_card_is_carried_out_then_discarded_unless_kept(kind: int) -> None:
    """"Take a card, read it aloud, and follow the instructions if possible. Place it onto a
    discard pile unless instructed to keep it." Each kind, carried out with its first
    choices, ends on the pile (or with the drawer) and the move follows."""
    state = put(put(put(started(), 0, "b5"), 1, "h3"), 4, "b1")
    state.deck[kind] += 1
    play(state, A.CARD + kind)
    while phase(state) != "move-pick":
        if state.current_player() == CHANCE:
            play(state, state.chance_outcomes()[0][0])
        else:
            play(state, state.legal_actions()[0])
    assert state.player == 0 and state.card == -1
    if kind in KEPT:
        assert state.discards[kind] == 0 and state.secret_paths[0] + state.guns[0] == 1
    else:
        assert state.discards[kind] == 1 and sum(state.discards) == 1


def test_wading_into_a_river_ends_the_turn_with_nothing_after_it() -> None:
    """"If an explorer wades across a river, their turn ends in the water regardless of any
    movement points left." Ruling 10: the whole turn ends, as "your turn will end" does for
    the temple (ruling 12): no bullet and no secret path after that move."""
    state = _armed(put_dinosaur(put(started(), 1, "e1"), 0, "b5"))
    state.secret_paths[0] = 1  # explorer 1 stands on a cave
    moving(0, "f2", 4, state)
    play(state, space("g2"))
    assert state.explorers[0] == space("g2")
    assert phase(state) == "draw" and state.player == 1
    assert state.bullets[0] == 3 and state.secret_paths[0] == 1


def test_moving_on_in_the_water_does_not_end_the_turn() -> None:
    """"OR if you are moving in a river, in the swamp, or exiting water onto land, simply move
    1 space": that is not wading in, so bullets may still follow the move."""
    state = _armed(put_dinosaur(started(), 0, "b5"))
    moving(0, "g6", state=state)
    play(state, space("h5"))
    assert phase(state) == "after-move" and A.SHOOT + 0 in state.legal_actions()


def test_leaving_the_temple_is_a_normal_move_from_its_arrows() -> None:
    """"They may enter on any spaces marked with an arrow." Ruling 12: leaving is a normal move
    (dice; two for a carrier) whose first step is an arrow space."""
    state = moving(0, "f6", 2)
    assert names(state.legal_actions()) == ["e6", "e7", "f5", "f7"]
    play(state, space("f5"), space("f4"))
    assert state.explorers[0] == space("f4") and state.player == 1
    state = put(started(), 0, "f6")
    state.carrying[0] = True
    play(to_move(state), explorer(0))
    assert sorted(dict(state.chance_outcomes())) == [dice(total) for total in range(2, 13)]


def test_from_an_inner_swamp_space_only_onto_the_grey_arrows() -> None:
    """"It can place an opposing explorer on one of the four separate inner swamp spaces. In
    order to leave the swamp they must be based on an adjacent space with an arrow (exit
    arrow)." From an inner space: one space, onto a grey arrow it touches."""
    state = moving(0, "j1")
    assert phase(state) == "move-step" and state.steps_left == 1
    assert names(state.legal_actions()) == ["i1", "j0", "k1", "k2"]
    play(state, space("j0"))
    assert state.explorers[0] == space("j0") and state.player == 1
    state = moving(0, "j0")  # now on the exit arrow: out onto dry land
    assert "i0" in names(state.legal_actions())


def test_landing_on_abandoned_treasure_while_carrying_leaves_it() -> None:
    """"Each explorer may carry only one coin at a time.\""""
    state = started()
    state.coins[space("b7")] = 1
    state.carrying[0] = True
    moving(0, "b5", 2, state)
    play(state, space("b6"), space("b7"))
    assert state.carrying[0] and state.coins[space("b7")] == 1


def test_a_one_space_water_move_claims_treasure_but_wading_with_points_left_does_not() -> None:
    """"An explorer may claim abandoned treasure by landing on it by exact count." Ruling 13:
    the one-space move out of water is exact; wading in with points left is not."""
    state = started()
    state.coins[space("h5")] = 1
    moving(0, "g6", state=state)
    play(state, space("h5"))
    assert state.carrying[0] and state.coins[space("h5")] == 0
    state = started()
    state.coins[space("g2")] = 1
    moving(0, "f2", 4, state)
    play(state, space("g2"))
    assert not state.carrying[0] and state.coins[space("g2")] == 1
    state = started()
    state.coins[space("g2")] = 1
    moving(0, "f2", 1, state)
    play(state, space("g2"))
    assert state.carrying[0]


def test_a_swamp_explorer_claims_a_coin_by_its_one_space_move() -> None:
    """"An explorer may claim abandoned treasure by landing on it by exact count": in the swamp
    too, where the monster left an eaten carrier's coin."""
    state = put(started(), 0, "h3")
    state.coins[space("i4")], state.temple_coins = 1, COINS - 1
    play(state, card("Pteranodon"), A.DONE, explorer(0), space("i4"))
    assert state.carrying[0] and state.coins[space("i4")] == 0
    check(state)  # the invariants allow a carrier in the swamp


def test_four_players_take_turns_clockwise() -> None:
    """"Play continues to each player in a clockwise direction." With four seats, from seat 2:
    3, 0, 1, 2."""
    state = started(4, first=2)
    order = []
    for seat in (2, 3, 0, 1):
        assert state.player == seat
        play(to_move(state), explorer(4 * seat), die(1), space("a5"))
        order.append(state.player)
    assert order == [3, 0, 1, 2]


# ------------------------------------------------------------------ treasure and the end

def test_the_swamp_monster_eating_a_carrier_leaves_its_coin_on_the_arrow() -> None:
    """"If an explorer falls into the swamp, is captured by a dinosaur ..., the coin is
    abandoned and left on the space they were occupying." Eaten by the monster too."""
    state = put(started(), 4, "h3")
    state.carrying[4] = True
    draw_now(state, "The Swamp Monster")
    assert state.explorers[4] == DEAD and state.coins[space("h3")] == 1


def test_a_coin_still_carried_keeps_the_game_going() -> None:
    """"If the game ends because ... it's impossible to claim any more treasure coins": the
    last coin, still carried, can be brought out, so the match goes on until it is."""
    state = put(started(2, coins=3), 5, "k5")
    state.temple_coins, state.carrying[5] = 0, True
    play(to_move(state), explorer(0), die(1), space("a5"))
    assert not state.is_terminal() and state.player == 1
    play(to_move(state), explorer(5), dice(2), A.EXIT)
    assert state.is_terminal() and state.end_reason == "no-coins"
    assert state.scores() == [0.0, 1.0] and state.winner == 1


def test_four_players_rank_by_coins_then_explorers_left() -> None:
    """"the winner is the player with the most coins, however if several players have the same
    number of coins, the player with the most explorers left is the winner" (four seats):
    seat 0 wins on explorers; seats 1 and 3 stay level."""
    state = started(4, coins=3)
    state.temple_coins, state.coins_out = 0, [1, 1, 0, 1]
    for number in (4, 5, 12, 13):
        state.explorers[number] = DEAD
    play(to_move(state), explorer(0), die(1), space("a5"))
    assert state.is_terminal() and state.end_reason == "no-coins"
    assert state.ranking() == [0, 1, 3, 1] and state.winner == 0
    assert state.observation(2)["winner"] == 0


# ------------------------------------------------------------------ volcano

def _flow(state: DinosaursState, valley: list[str], placed: int) -> DinosaursState:
    for at in BOARD.volcano_slope:
        state.lava[at] = True
    for name in valley:
        state.lava[space(name)] = True
    state.lava_placed = placed
    return state


def test_the_last_lava_pieces_run_out_at_thirty() -> None:
    """"30 Red Lava Pieces" / "When all 30 pieces of lava have been placed on the board, you
    may then reposition three pieces": with 28 out, an eruption places the last 2; the next
    one repositions."""
    state = _flow(started(), ["d9", "d8", "c8", "c9", "e9", "e10", "d10", "c7", "b7", "b8",
                              "b9", "a8", "a9", "a7", "b6", "c6", "d7", "e8", "f8", "f9",
                              "g9", "g8"], 28)
    draw_now(state, "Volcano")
    assert phase(state) == "lava-place" and state.lava_left == 2
    play(state, state.legal_actions()[0])
    play(state, state.legal_actions()[0])
    assert state.lava_placed == LAVA_PIECES and phase(state) == "move-pick"
    draw_now(state, "Volcano")
    assert phase(state) == "lava-lift"


def test_an_eruption_with_no_room_leaves_the_rest_in_the_cone() -> None:
    """"Lava must always be placed on spaces adjacent to previously laid lava." Ruling 15: a
    dinosaur's space takes no lava; with no space left next to the flow the eruption's pieces
    stay in the cone."""
    state = _flow(started(), ["d9"], 7)
    for number, name in enumerate(("c9", "d10", "e9", "e10")):
        put_dinosaur(state, number, name)
    draw_now(state, "Volcano")
    assert phase(state) == "lava-place" and names(state.legal_actions()) == ["d8"]
    state = _flow(started(), ["d9"], 7)
    for number, name in enumerate(("c9", "d10", "e9", "e10", "d8")):
        put_dinosaur(state, number, name)
    draw_now(state, "Volcano")
    assert phase(state) == "move-pick" and state.lava_placed == 7 and state.lava_left == 0


def _whole(state: DinosaursState) -> bool:
    pieces = {at for at in BOARD.lava_spaces if state.lava[at]}
    seen, todo = {BOARD.lava_start}, [BOARD.lava_start]
    while todo:
        for other in BOARD.neighbors[todo.pop()]:
            if other in pieces and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen == pieces


def test_at_most_three_pieces_are_repositioned_and_the_flow_stays_whole() -> None:
    """"you may then reposition three pieces of lava on empty spaces adjacent to other lava
    pieces (each time you draw a "volcano erupts" card). The lava must always remain a
    coherent structure." In a chain only the far end may be lifted."""
    state = _flow(started(), ["d9", "e9", "f9", "g9", "h9"], LAVA_PIECES)
    draw_now(state, "Volcano")
    assert state.legal_actions() == [space("h9"), A.DONE]
    for _ in range(3):
        assert phase(state) == "lava-lift"
        play(state, state.legal_actions()[0])
        play(state, state.legal_actions()[-1])
        assert _whole(state)
    assert phase(state) == "move-pick" and state.lava_placed == LAVA_PIECES
    assert sum(state.lava[at] for at in BOARD.lava_spaces) == 5


# ------------------------------------------------------------------ pteranodon and swamp

def test_the_pteranodon_lifts_your_own_carrier_out_of_the_swamp_leaving_the_coin() -> None:
    """"It can rescue explorers from the swamp" / "If an explorer ... is carried off by the
    Pteranodon, the coin is abandoned and left on the space they were occupying.\""""
    state = put(started(), 0, "k2")
    state.carrying[0] = True
    draw_now(state, "Pteranodon")
    assert explorer(0) in state.legal_actions()
    play(state, explorer(0), space("b5"))
    assert state.explorers[0] == space("b5") and not state.carrying[0]
    assert state.coins[space("k2")] == 1


def test_the_pteranodon_takes_an_opponent_out_of_the_temple_and_the_coin_goes_back() -> None:
    """"OR move an opponent to an empty dangerous space." Ruling 16: from the temple too; the
    coin stays where the explorer was, on the roof."""
    state = put(started(), 4, "f6")
    state.carrying[4], state.temple_coins = True, COINS - 1
    draw_now(state, "Pteranodon")
    play(state, explorer(4), space("i3"))
    assert state.explorers[4] == space("i3") and state.temple_coins == COINS
    assert not state.carrying[4]


def test_four_players_the_pteranodon_may_carry_any_opponent() -> None:
    """"move an opponent to an empty dangerous space": every opponent's explorer in the
    valley, whichever seat."""
    state = put(put(put(started(4), 4, "b5"), 9, "c7"), 14, "h5")
    draw_now(state, "Pteranodon")
    legal = state.legal_actions()
    assert {explorer(4), explorer(9), explorer(14)} <= set(legal)
    assert not {explorer(5), explorer(10), explorer(15)} & set(legal)  # outside the valley
    # "It always returns to its nest after use, but never with explorers, dinosaurs, lava":
    # it carries one explorer, nothing else
    assert all(action == A.DONE or A.EXPLORER <= action < A.DINOSAUR for action in legal)
    before = state.copy()
    play(state, explorer(9), space("i3"))
    assert state.dinosaurs == before.dinosaurs and state.lava == before.lava
    assert [at for number, at in enumerate(state.explorers) if number != 9] == \
        [at for number, at in enumerate(before.explorers) if number != 9]


def test_swamp_cards_with_no_one_to_act_on_are_discarded() -> None:
    """"follow the instructions if possible": Falls into the Swamp with no explorer in the
    valley, Escape from the Swamp with none in the swamp, change nothing."""
    state = draw_now(started(), "One Member Falls")
    assert phase(state) == "move-pick" and state.explorers[:4] == [OUTSIDE] * 4
    state = draw_now(put(started(), 0, "b5"), "Escape from the Swamp")
    assert phase(state) == "move-pick" and state.explorers[0] == space("b5")


def test_escape_from_the_swamp_may_be_declined() -> None:
    """"The player may place an explorer on any space beyond his nearest exit.\""""
    state = draw_now(put(started(), 0, "k2"), "Escape from the Swamp")
    play(state, A.DONE)
    assert state.explorers[0] == space("k2") and phase(state) == "move-pick"


# ------------------------------------------------------------------ dinosaurs

def test_dinosaur_attack_by_exact_count_into_a_lair_eats_its_captives() -> None:
    """"All captured explorers there are eaten alive! (including any already in the lair)."
    Ruling 21: a dinosaur stepping into a lair by exact count during the card eats too."""
    state = put(put_dinosaur(started(), 0, "c1"), 4, "b1")
    draw_now(state, "Dinosaur Attack")
    play(state, dinosaur(1), space("c5"), space("c4"), space("c3"))
    play(state, dinosaur(0))
    assert space("b1") in state.legal_actions()
    play(state, space("b1"))
    assert state.explorers[4] == DEAD and state.dinosaurs[0] == space("b1")


def test_a_dinosaur_entering_a_lair_outside_the_attack_only_guards() -> None:
    """"Dinosaurs may move BY EXACT COUNT into any lair (only if unoccupied by another dinosaur
    or only occupied by explorers)": the captives there stay, now guarded."""
    state = put(put_dinosaur(started(), 0, "c1"), 4, "b1")
    draw_now(state, "Encounter Grazing")
    play(state, dinosaur(0), space("b1"))
    assert state.explorers[4] == space("b1") and state.guarded(space("b1"))


def test_a_bullet_may_push_a_dinosaur_into_a_free_lair() -> None:
    """"Explorers use bullets to frighten away a Dinosaur (one space / per bullet used)."
    Ruling 25: by the dinosaur rules, so into a free lair (one space is its exact count)."""
    state = to_move(_armed(put(put_dinosaur(started(), 0, "c1"), 4, "b1"), 1))
    play(state, A.SHOOT + 0)
    assert space("b1") in state.legal_actions()
    play(state, space("b1"))
    assert state.dinosaurs[0] == space("b1") and state.explorers[4] == space("b1")
    assert phase(state) == "move-pick" and state.bullets[0] == 0


def test_four_players_dinosaurs_fight_may_free_any_opponent() -> None:
    """"If you draw this card and none of your explorers are in a lair, then you must move an
    opponent's explorer out of a lair": with four seats, any opponent's captive."""
    state = put(put(put(started(4), 4, "b1"), 9, "d5"), 14, "j7")
    draw_now(state, "Dinosaurs Fight")
    assert state.legal_actions() == [explorer(4), explorer(9), explorer(14)]
    play(state, explorer(14))
    assert names(state.legal_actions()) == ["i7", "j6"]


def test_the_secret_path_is_not_taken_there_and_back_in_one_turn() -> None:
    """"Travel is one way only, discard after using." Ruling 24: with both cards, an explorer
    that went from a cave to the temple may not come straight back the same turn; another
    explorer may use the second card, and the first may go back on a later turn."""
    state = put(put(started(), 0, "e1"), 1, "f6")
    state.secret_paths[0] = 2
    play(to_move(state), A.SECRET + 0)
    assert state.explorers[0] == BOARD.temple and state.carrying[0]
    assert A.SECRET + 0 not in state.legal_actions() and A.SECRET + 1 in state.legal_actions()
    play(state, explorer(2), die(1), space("a5"))
    assert phase(state) == "after-move" and A.SECRET + 0 not in state.legal_actions()
    play(state, A.DONE)
    play(to_move(state), explorer(4), die(1), space("a5"))
    assert A.SECRET + 0 in to_move(state).legal_actions()


# ------------------------------------------------------------------ water and the gun

def test_short_of_water_in_the_swamp_moves_one_space() -> None:
    """"one of your explorers rolls two dice and must reach the river on this turn or they
    die". Ruling 23: from the swamp it still moves only one space, and dies short of water."""
    state = put(started(), 0, "k2")
    draw_now(state, "Your Expedition is Short")
    play(state, explorer(0), dice(9))
    assert names(state.legal_actions()) == ["k1", "k3"]
    play(state, space("k1"))
    assert state.explorers[0] == DEAD and phase(state) == "move-pick"


def test_short_of_water_is_saved_on_a_crossing_without_exact_count() -> None:
    """"must reach the river on this turn ... (you do not have to arrive by an exact count)."
    Ruling 23: a crossing is on the river; the temple is no way to water."""
    state = put(started(), 0, "f7")
    draw_now(state, "Your Expedition is Short")
    play(state, explorer(0), dice(11))
    assert BOARD.temple not in state.legal_actions()
    play(state, space("f8"))
    assert state.explorers[0] == space("f8") and phase(state) == "move-pick"


def test_short_of_water_boxed_in_dies_and_leaves_its_coin() -> None:
    """"If an explorer dies (with treasure) while trying to get water, the treasure is left on
    the last space of their unsuccessful move": boxed in at once, on its own space."""
    state = put_dinosaur(put_dinosaur(put(started(), 0, "a1"), 0, "b0"), 1, "a2")
    state.carrying[0] = True
    draw_now(state, "Your Expedition is Short")
    play(state, explorer(0), dice(7))
    assert state.explorers[0] == DEAD and state.coins[space("a1")] == 1


def test_bullets_only_for_a_gun_holder_landing_on_the_dump() -> None:
    """"Once drawn, bullets can now be taken when you land on an ammo dump space." No gun, no
    bullets; passing over the dump is not landing; ruling 3: the supply may run short."""
    state = put(started(), 0, "b5")
    play(state, card("Pteranodon"), A.DONE, explorer(0), die(2), space("b4"), space("b3"))
    assert state.guns[0] == 0 and state.bullets[0] == 0
    state = moving(0, "b5", 3)  # the gun drawn to start the move
    play(state, space("b4"), space("b3"), space("a3"))
    assert state.bullets[0] == 0
    state = started()
    state.bullet_supply = 2
    moving(0, "b5", 2, state)
    play(state, space("b4"), space("b3"))
    assert state.bullets[0] == 2 and state.bullet_supply == 0


# ------------------------------------------------------------------ what a seat sees

README = Path(__file__).parents[2] / "engines" / "dinosaurs" / "README.md"


def _random_nodes(players: int, seed: int, every: int) -> Iterator[DinosaursState]:
    """Every ``every``-th node of a seeded random match."""
    rng = random.Random(seed)
    state = started(players)
    count = 0
    while not state.is_terminal():
        if count % every == 0:
            yield state
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            play(state, sample_chance(state.chance_outcomes(), rng))
        else:
            play(state, legal[int(rng.random() * len(legal))])
        count += 1


def test_every_seat_sees_the_same_public_table() -> None:
    """"Take a card, read it aloud": every card drawn and kept is known to all, and every
    piece is on the open board, so no seat knows more than another. The observations of all
    four seats differ only in `seat`; the deck shows only counts (its order does not exist)."""
    for state in _random_nodes(4, 11, 17):
        views = [state.observation(seat) for seat in range(4)]
        for seat, view in enumerate(views):
            assert view.pop("seat") == seat
        assert all(view == views[0] for view in views[1:])
        assert sum(views[0]["deck"].values()) == views[0]["deck_count"] == sum(state.deck)


def test_an_opponent_sees_everything_the_rulebook_makes_public() -> None:
    """Kept cards, bullets, carried and abandoned coins, coins brought out, lava, dinosaurs and
    the swamp monster are on the table: seat 1 sees seat 0's as they are."""
    state = put(put(started(2, coins=3), 0, "b5"), 1, "f6")
    state.carrying[1], state.temple_coins, state.coins[space("c7")] = True, 10, 1
    state.guns[0], state.bullets[0], state.bullet_supply, state.secret_paths[0] = 1, 3, 9, 1
    state.coins_out[0], state.lava[space("d9")] = 1, True
    put_dinosaur(state, 0, "c1")
    draw_now(state, "The Swamp Monster")
    view = state.observation(1)
    mine = view["players"][0]
    assert mine["explorers"] == [space("b5"), space("f6"), OUTSIDE, OUTSIDE]
    assert mine["carrying"] == [False, True, False, False] and mine["coins_out"] == 1
    assert (mine["guns"], mine["bullets"], mine["secret_paths"]) == (1, 3, 1)
    assert view["coins"] == [[space("c7"), 1]] and view["temple_coins"] == 10
    assert view["lava"] == [space("d9")] and view["dinosaurs"][0] == space("c1")
    assert view["swamp_monster"] == space("h3") and view["discards"]["swamp-monster"] == 1
    assert view["bullet_supply"] == 9 and view["coins_to_win"] == 3


def _section(text: str, title: str) -> str:
    start = text.index(title)
    return text[start:text.index("\n## ", start + 1)]


def test_the_readme_documents_every_observation_key() -> None:
    """The engine README's observation list names every key the code puts in it."""
    documented = set(re.findall(r"`([a-z_-]+)`", _section(README.read_text("utf-8"),
                                                         "## Observation (what")))
    view = draw_now(started(), "You Have Found a Gun").observation(0)
    keys = set(view) | set(view["players"][0]) | set(view["now"]) | set(view["board"])
    assert keys - documented == set()
    assert set(view["deck"]) - documented == set()


def test_the_readme_documents_the_action_ids_and_phases() -> None:
    """The README's action table gives the id ranges of actions.py; its phase lists are the
    decision phases of phases.py, then its chance nodes and the end."""
    text = _section(README.read_text("utf-8"), "## Actions")
    rows = re.findall(r"^\| (\d+)(?:\u2013(\d+))? \|", text, re.MULTILINE)
    ranges = [(int(low), int(high or low)) for low, high in rows]
    starts = [A.SPACE, A.EXIT, A.DONE, A.EXPLORER, A.DINOSAUR, A.SHOOT, A.SECRET, A.CARD]
    decisions = [(low, high - 1) for low, high in itertools.pairwise(starts)]
    assert ranges[:len(decisions)] == decisions
    # The chance outcomes, row by row (cards, a die, two dice, the first player), follow on
    # without a gap up to the last id.
    chance = ranges[len(decisions):]
    assert chance[0][0] == A.CARD and chance[-1][1] == A.NUM_ACTIONS - 1
    assert all(low == previous[1] + 1 for previous, (low, _) in itertools.pairwise(chance))
    decided = text[text.index("Phases a seat decides in"):text.index("Chance nodes:")]
    listed = re.findall(r"`([a-z-]+)`", decided)
    assert listed == list(PHASE_NAMES[MOVE_PICK:OVER])
    # the chance nodes, then the end (fifth pass: a tester saw them in `phase`, unnamed)
    chance = re.findall(r"`([a-z-]+)`", text[text.index("Chance nodes:"):])
    assert chance == [*PHASE_NAMES[:MOVE_PICK], PHASE_NAMES[OVER]]


def test_the_readme_says_what_the_turn_and_the_end_hold_when_nothing_is_under_way() -> None:
    """A bot author read `now.card` as always a card kind and `end_reason` as always a reason
    (the README named no other value): both are null for most decisions, and `roll` is 0."""
    text = " ".join(_section(README.read_text("utf-8"), "## Observation (what").split())
    assert "`card` (kind being carried out, `null` while none is" in text
    assert "`roll` (what the die or dice of this turn showed, `0` while none was thrown)" in text
    assert "`bound` once over, `null` while the match goes on)" in text
    state, rng = started(), random.Random(3)
    seen: set[tuple[bool, bool]] = set()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            play(state, sample_chance(state.chance_outcomes(), rng))
            continue
        view = state.observation(state.current_player())
        assert view["end_reason"] is None and view["winner"] == -1
        assert view["now"]["card"] is None or view["now"]["card"] in view["deck"]
        assert 0 <= view["now"]["roll"] <= 12
        seen.add((view["now"]["card"] is None, view["now"]["roll"] == 0))
        play(state, rng.choice(state.legal_actions()))
    assert {(True, True), (True, False), (False, True)} <= seen
    assert state.observation(0)["end_reason"] in ("coins", "deaths", "no-coins", "bound")
