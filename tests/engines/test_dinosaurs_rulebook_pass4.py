"""Lost Valley of the Dinosaurs, fourth rulebook pass: adversarial black-box scenarios.

Corners a careless implementation gets wrong: the long game's coins and the exact moment a
match ends, how it is scored and ranked (ties, eliminated seats, 3 and 4 players), the last
piece of a supply (the last free lair, every entry blocked), the order of effects inside a
card, the Short of Water run against the movement rules, and a board file's swamp (the
README's ``board`` option). Everything goes through the documented public surface only
(engines/dinosaurs/README.md): the registry's ``Game``, action ids, ``observation`` and
``Game.state_from_observation`` on an edited observation. No engine module is imported.
Each test quotes the rulebook sentence (rules/lost-valley-of-the-dinosaurs.txt) or the
ruling (RULINGS.md) it checks; tests/engines/RULES-COVERAGE-dinosaurs.md names them in its
rows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_dinosaurs_blackbox import CARD, NAME, Obs, dice, die, dino, kill, phase, put, view
from test_dinosaurs_rulebook_pass3 import (
    DONE,
    LEAVE,
    SHOOT,
    _refused,
    _slope_beside,
    at_draw,
    finish_turn,
    grow_flow,
    pick,
)

from arena.game import Game, InvalidOptions, State
from arena.plugins import require_registry


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def spot(o: Obs, name: str) -> int:
    """The index of the space called ``name`` (board.names)."""
    return int(o["board"]["names"].index(name))


def armed(o: Obs, seat: int, bullets: int) -> None:
    """Hand ``seat`` a gun from the deck and ``bullets`` from the sheet."""
    o["deck"]["gun"] -= 1
    o["players"][seat]["guns"] = 1
    o["players"][seat]["bullets"] = bullets
    o["bullet_supply"] -= bullets


def only(o: Obs, seat: int, alive: int) -> None:
    """Kill every explorer of ``seat`` but the first ``alive``."""
    for k in range(alive, 4):
        kill(o, seat, k)


def leave_with_the_coin(state: State, seat: int, k: int) -> None:
    """The drawer's card does nothing (Dinosaurs Fight, nobody in a lair); explorer ``k``,
    a carrier standing on an entry arrow, throws two dice and steps out of the valley."""
    state.apply_action(CARD["dinosaurs-fight"])
    state.apply_action(pick(seat, k))
    state.apply_action(dice(7))
    state.apply_action(LEAVE)


# --- the end of the match: when, scored how, ranked how ------------------------------------

def test_the_third_coin_ends_the_long_game_at_once_losers_by_coins_then_explorers(
        game: Game) -> None:
    """'Long game: To be the first to get 3 treasure coins out of the valley.' / 'The first
    player to bring the required number of treasure coins out of the valley is the hero of the
    adventure and wins the game.' Three players: seat 0's third coin ends the match there and
    then; the two others, one coin each, are placed by explorers left (ruling 26)."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "a5"), carrying=True)
        o["players"][0]["coins_out"], o["players"][1]["coins_out"] = 2, 1
        o["players"][2]["coins_out"] = 1
        o["temple_coins"] -= 4
        only(o, 2, 3)
    state = at_draw(game, edit, players=3, options={"coins": 3})
    leave_with_the_coin(state, 0, 0)
    assert state.is_terminal() and state.legal_actions() == []
    obs = view(state)
    assert (obs["end_reason"], obs["winner"]) == ("coins", 0)
    assert state.scores() == [3.0, 1.0, 1.0]
    assert state.ranking() == [0, 1, 2]


def test_a_coin_out_short_of_the_target_leaves_the_turn_and_the_match_going(
        game: Game) -> None:
    """'They will need to carry it out of the valley, then return to claim another (if you are
    playing the long game).' Seat 0's second coin of three: the match goes on, the rest of the
    turn too ('Bullets can be used before or after you move'), and the explorer, outside again,
    comes back in by any of the four arrows on a later turn."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "a5"), carrying=True)
        o["players"][0]["coins_out"] = 1
        o["temple_coins"] -= 1
        armed(o, 0, 2)
    state = at_draw(game, edit, options={"coins": 3})
    leave_with_the_coin(state, 0, 0)
    obs = view(state)
    assert not state.is_terminal() and obs["winner"] == -1
    assert obs["players"][0]["coins_out"] == 2 and obs["players"][0]["explorers"][0] == -1
    assert obs["phase"] == "after-move" and DONE in state.legal_actions()
    assert any(SHOOT <= a < SHOOT + 6 for a in state.legal_actions())
    state.apply_action(DONE)
    finish_turn(state)                        # seat 1
    state.apply_action(CARD["dinosaurs-fight"])
    assert pick(0, 0) in state.legal_actions()
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    assert state.legal_actions() == sorted(obs["board"]["entries"])


def test_the_last_coin_out_ends_the_match_when_the_turn_ends(game: Game) -> None:
    """'If the game ends because ... it's impossible to claim any more treasure coins, ... the
    winner is the player with the most coins, however if several players have the same number
    of coins, the player with the most explorers left is the winner.' A target out of reach
    (option coins = 7, 6 each once the last coin is out): the match is over when that turn
    ends (ruling 26), not before its bullets, and the tie in coins goes to the seat with more
    explorers left."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "a5"), carrying=True)
        o["players"][0]["coins_out"], o["players"][1]["coins_out"] = 5, 6
        o["temple_coins"] = 0
        armed(o, 0, 1)
        only(o, 1, 3)
    state = at_draw(game, edit, options={"coins": 7})
    leave_with_the_coin(state, 0, 0)
    assert not state.is_terminal() and phase(state) == "after-move"
    state.apply_action(DONE)
    assert state.is_terminal()
    obs = view(state)
    assert (obs["end_reason"], obs["winner"]) == ("no-coins", 0)
    assert state.scores() == [6.0, 6.0] and state.ranking() == [0, 1]


def test_a_seat_already_wiped_out_still_wins_on_coins_when_the_rest_die(game: Game) -> None:
    """'If the game ends because all explorers have died ... the winner is the player with the
    most coins': seat 1 lost its last explorer long ago but brought out two coins; when the
    swamp monster eats the last explorers of seats 0 and 2 together, seat 1 wins, and the two
    others share second place."""
    def edit(o: Obs) -> None:
        arrow = spot(o, "h3")                  # next after the monster's start h2, clockwise
        only(o, 0, 1)
        only(o, 1, 0)
        only(o, 2, 1)
        put(o, 0, 0, arrow)
        put(o, 2, 0, arrow)
        o["players"][1]["coins_out"] = 2
        o["temple_coins"] -= 2
    state = at_draw(game, edit, players=3, options={"coins": 3})
    state.apply_action(CARD["swamp-monster"])
    assert state.is_terminal()
    obs = view(state)
    assert (obs["end_reason"], obs["winner"]) == ("deaths", 1)
    assert state.ranking() == [1, 0, 1] and state.scores() == [0.0, 2.0, 0.0]


def test_all_dead_with_equal_coins_and_no_one_left_is_a_shared_first_place(game: Game) -> None:
    """'... if several players have the same number of coins, the player with the most
    explorers left is the winner': with nobody left at all, four seats with one coin each
    share first place and no winner is named (ruling 26)."""
    def edit(o: Obs) -> None:
        arrow = spot(o, "h3")
        for seat in range(4):
            only(o, seat, 1)
            put(o, seat, 0, arrow)
            o["players"][seat]["coins_out"] = 1
        o["temple_coins"] -= 4
    state = at_draw(game, edit, players=4, options={"coins": 3})
    state.apply_action(CARD["swamp-monster"])
    obs = view(state)
    assert state.is_terminal() and (obs["end_reason"], obs["winner"]) == ("deaths", -1)
    assert obs["turn"] == 1                   # the turn ends there, and counts (README)
    assert state.ranking() == [0, 0, 0, 0]


def test_a_win_mid_round_in_four_players_ranks_the_rest_by_explorers_left(game: Game) -> None:
    """'The first player to bring the required number of treasure coins out of the valley ...
    wins the game' (at once: ruling 14, no last turn for the seats after it). The three
    others, no coin each, are placed by explorers left, equal counts sharing a place."""
    def edit(o: Obs) -> None:
        put(o, 1, 0, spot(o, "k5"), carrying=True)
        only(o, 2, 3)
        only(o, 3, 3)
    state = at_draw(game, edit, players=4, starter=1)
    leave_with_the_coin(state, 1, 0)
    obs = view(state)
    assert state.is_terminal() and (obs["end_reason"], obs["winner"]) == ("coins", 1)
    assert state.ranking() == [1, 0, 2, 2]
    assert obs["turn"] == 0                   # the winning turn is not a finished one (README)


def test_the_hard_bound_ends_the_match_after_the_600th_turn(game: Game) -> None:
    """Ruling 26: after 600 turns (all seats together) the match ends and is scored as the
    rulebook scores an end without a hero ('the winner is the player with the most coins')."""
    def edit(o: Obs) -> None:
        o["turn"] = 599
        o["players"][1]["coins_out"] = 1
        o["temple_coins"] -= 1
    state = at_draw(game, edit, options={"coins": 3})
    finish_turn(state)
    obs = view(state)
    assert state.is_terminal() and (obs["end_reason"], obs["winner"]) == ("bound", 1)
    assert obs["turn"] == 600 and state.ranking() == [1, 0]


# --- eliminated seats, the table going round ------------------------------------------------

def test_a_seat_wiped_out_on_another_turn_is_skipped_and_keeps_its_kept_cards(
        game: Game) -> None:
    """'Play continues to each player in a clockwise direction' (a seat with no explorer left
    takes no turn: ruling 5); 'Place it onto a discard pile unless instructed to keep it'
    (kept cards stay with their holder: ruling 4). Three players: seat 0's swamp monster eats
    seat 1's last explorer; play goes 0, 2, 0, and seat 1 keeps its gun, bullets and secret
    path, which never come back to the deck."""
    def edit(o: Obs) -> None:
        only(o, 1, 1)
        put(o, 1, 0, spot(o, "h3"))
        armed(o, 1, 2)
        o["deck"]["secret-path"] -= 1
        o["players"][1]["secret_paths"] = 1
    state = at_draw(game, edit, players=3)
    state.apply_action(CARD["swamp-monster"])
    obs = view(state)
    assert obs["players"][1]["alive"] == 0 and not state.is_terminal()
    finish_turn(state)
    assert (view(state)["player"], view(state)["turn"]) == (2, 1)
    finish_turn(state)
    obs = view(state)
    assert (obs["player"], obs["turn"]) == (0, 2)
    me = obs["players"][1]
    assert (me["guns"], me["bullets"], me["secret_paths"]) == (1, 2, 1)
    assert obs["deck"]["secret-path"] + obs["discards"]["secret-path"] == 1


def test_an_explorer_outside_with_every_arrow_blocked_cannot_enter(game: Game) -> None:
    """'They may enter or leave the valley by any of the four arrows' / 'They may not move
    into a space occupied by a dinosaur': with a dinosaur on each of the four entry arrows, an
    explorer outside has no way in; a seat with nothing else to move, fire or take just ends
    its turn (ruling 7)."""
    def edit(o: Obs) -> None:
        for d, entry in enumerate(o["board"]["entries"]):
            o["dinosaurs"][d] = entry
        only(o, 0, 1)
    state = at_draw(game, edit)
    state.apply_action(CARD["dinosaurs-fight"])
    obs = view(state)
    assert (obs["phase"], obs["player"], obs["turn"]) == ("draw", 1, 1)
    assert obs["players"][0]["explorers"][0] == -1


# --- dinosaurs: the last free lair, marooned dinosaurs, the order of effects ----------------

def test_a_captor_with_every_other_lair_held_goes_back_to_its_own(game: Game) -> None:
    """'You can use a bullet to move a Dinosaur onto a space occupied by another explorer,
    resulting in their capture (and being taken to its lair)' / 'Captured explorer(s) and the
    Dinosaur go straight to any lair unoccupied by another dinosaur': the five other lairs are
    held, so the only lair offered is the one the captor was shot out of."""
    def edit(o: Obs) -> None:
        put(o, 1, 0, spot(o, "c5"))
        put(o, 0, 0, spot(o, "e3"))
        armed(o, 0, 1)
    state = at_draw(game, edit)
    state.apply_action(CARD["dinosaurs-fight"])
    lair = view(state)["dinosaurs"][1]
    state.apply_action(SHOOT + 1)
    state.apply_action(view(state)["board"]["names"].index("c5"))
    assert phase(state) == "lair-pick" and state.legal_actions() == [lair]
    state.apply_action(lair)
    obs = view(state)
    assert obs["players"][1]["explorers"][0] == lair == obs["dinosaurs"][1]
    assert obs["phase"] == "move-pick"


def test_a_dinosaur_marooned_by_lava_is_chosen_last_and_stays(game: Game) -> None:
    """'Expedition Disturbs the Undergrowth! All the Dinosaurs move 1 space each.' / 'Lava can
    maroon dinosaurs': a dinosaur with lava all round it is not offered while another can
    still move (ruling 20); once the five others have moved it is, counts as moved, and stays
    where it is."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][2] = spot(o, "d10")
        o["lava"] = [*o["board"]["volcano_slope"],
                     *(spot(o, name) for name in ("d9", "e10", "e11", "d11"))]
        o["lava_placed"] = len(o["lava"])
    state = at_draw(game, edit)
    marooned = view(state)["dinosaurs"][2]
    state.apply_action(CARD["undergrowth"])
    for _ in range(5):
        assert dino(2) not in state.legal_actions()
        state.apply_action(state.legal_actions()[0])
        state.apply_action(state.legal_actions()[0])
    assert state.legal_actions() == [dino(2)]
    state.apply_action(dino(2))
    obs = view(state)
    assert obs["phase"] == "move-pick" and obs["dinosaurs"][2] == marooned


def test_dinosaur_attack_eats_every_seats_captives_where_its_captor_lands(game: Game) -> None:
    """'Dinosaur Attack! ... Each captured explorer (and the Dinosaur) are taken to any
    unoccupied lair. All captured explorers there are eaten alive! (including any already in
    the lair).' / 'If the explorer was carrying a coin, it must remain on the square that they
    last occupied before being captured.' Three players: seat 0 sends the captor of seat 2's
    carrier to the lair where seat 1's explorer is held; both are eaten, the coin stays where
    the carrier was taken, and the three one-space dinosaurs are still owed."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][2] = spot(o, "e11")     # out of its lair d13, beside e12
        put(o, 1, 0, spot(o, "d13"))
        put(o, 2, 0, spot(o, "e12"), carrying=True)
    state = at_draw(game, edit, players=3)
    o = view(state)
    state.apply_action(CARD["dinosaur-attack"])
    state.apply_action(dino(2))                # the one to move 3
    state.apply_action(spot(o, "e12"))
    assert phase(state) == "lair-pick"
    state.apply_action(spot(o, "d13"))
    obs = view(state)
    assert obs["players"][1]["explorers"][0] == -2 and obs["players"][2]["explorers"][0] == -2
    assert obs["coins"] == [[spot(o, "e12"), 1]] and obs["dinosaurs"][2] == spot(o, "d13")
    assert obs["phase"] == "dinosaur-pick" and obs["now"]["dinosaur_moves"] == [1, 1, 1]


def test_a_bullet_after_dinosaur_attack_captures_but_eats_no_one(game: Game) -> None:
    """'Dinosaur Attack! ... All captured explorers there are eaten alive!' is the card's
    effect; 'You can use a bullet to move a Dinosaur onto a space occupied by another
    explorer, resulting in their capture (and being taken to its lair)' comes after it, in
    the move's part of the turn. Once the card's four dinosaurs have moved, seat 0 shoots a
    fifth onto seat 1's explorer and takes it to the lair where seat 1's other explorer is
    held: both are captives, alive (ruling 21: 'during this card')."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][5] = spot(o, "e3")
        put(o, 1, 0, spot(o, "e2"))
        put(o, 1, 1, spot(o, "j12"))
        armed(o, 0, 1)
    state = at_draw(game, edit)
    o = view(state)
    state.apply_action(CARD["dinosaur-attack"])
    while phase(state) in ("dinosaur-pick", "dinosaur-step", "lair-pick"):
        state.apply_action(state.legal_actions()[0])
    obs = view(state)
    assert obs["phase"] == "move-pick" and obs["now"]["card"] is None
    assert obs["players"][1]["explorers"][:2] == [spot(o, "e2"), spot(o, "j12")]
    assert obs["dinosaurs"][5] == spot(o, "e3")
    state.apply_action(SHOOT + 5)
    state.apply_action(spot(o, "e2"))
    state.apply_action(spot(o, "j12"))
    obs = view(state)
    assert obs["players"][1]["explorers"][:2] == [spot(o, "j12")] * 2
    assert obs["players"][1]["alive"] == 4 and obs["dinosaurs"][5] == spot(o, "j12")


def test_a_bullet_that_drives_off_the_guard_makes_the_captive_move(game: Game) -> None:
    """'If an explorer has been captured, they cannot leave the lair if a dinosaur occupies
    the same lair' / 'Explorers can escape from a lair by ... Rolling the dice and moving when
    the dinosaur is absent' / 'Bullets can be used before or after you move an explorer.'
    Seat 0's last explorer is held in a guarded lair: it may only shoot or pass; once its
    bullet has pushed the guard out, the captive can move, and must ('EITHER move any ONE of
    your explorers'): no pass any more."""
    def edit(o: Obs) -> None:
        only(o, 0, 1)
        put(o, 0, 0, spot(o, "d5"))
        armed(o, 0, 1)
    state = at_draw(game, edit)
    o = view(state)
    state.apply_action(CARD["escape-swamp"])    # nobody in the swamp: nothing to do
    legal = state.legal_actions()
    assert DONE in legal and pick(0, 0) not in legal and SHOOT + 1 in legal
    state.apply_action(SHOOT + 1)
    state.apply_action(spot(o, "c5"))
    assert state.legal_actions() == [pick(0, 0)]
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    assert state.legal_actions() == [spot(o, "d6")]


def test_lava_buries_a_carrier_and_the_coin_it_stood_on_together(game: Game) -> None:
    """'If lava is placed on a space with an explorer, they die and are removed from the game'
    / 'the coin is abandoned and left on the space they were occupying': the carrier's coin
    joins the abandoned one under the lava (ruling 15), both still in play."""
    def edit(o: Obs) -> None:
        grow_flow(o, 0)
        put(o, 1, 0, spot(o, "d10"), carrying=True)
        o["coins"] = [[spot(o, "d10"), 1]]
        o["temple_coins"] -= 1
    state = at_draw(game, edit)
    o = view(state)
    state.apply_action(CARD["volcano"])
    state.apply_action(spot(o, "d10"))
    obs = view(state)
    assert obs["players"][1]["explorers"][0] == -2
    assert obs["coins"] == [[spot(o, "d10"), 2]] and obs["temple_coins"] == 10
    assert obs["phase"] == "lava-place" and obs["now"]["lava_left"] == 2


def test_dinosaurs_fight_frees_no_opponent_while_your_own_captive_is_walled_in(
        game: Game) -> None:
    """'Dinosaurs Fight! When drawn, one explorer can escape from any lair by moving one space
    outside.' / 'If you draw this card and none of your explorers are in a lair, then you must
    move an opponent's explorer out of a lair.' Seat 0's captive is in a lair whose two
    footprints hold dinosaurs; seat 1's captive could walk out of its unguarded lair. One of
    seat 0's is in a lair, so the card never turns to the opponents, and its own cannot get
    out: the card does nothing (ruling 22, where the rulebook is open)."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][1], o["dinosaurs"][2] = spot(o, "b0"), spot(o, "c1")
        put(o, 0, 0, spot(o, "b1"))
        put(o, 1, 0, spot(o, "d5"))
    state = at_draw(game, edit)
    o = view(state)
    state.apply_action(CARD["dinosaurs-fight"])
    obs = view(state)
    assert obs["phase"] == "move-pick" and obs["discards"]["dinosaurs-fight"] == 1
    assert obs["players"][0]["explorers"][0] == spot(o, "b1")
    assert obs["players"][1]["explorers"][0] == spot(o, "d5")


# --- Short of Water against the movement rules ------------------------------------------------

def water(game: Game, edit: Callable[[Obs], None], roll: int, players: int = 2) -> State:
    """Seat 0 draws Short of Water with its explorer 0 where ``edit`` puts it, picks it and
    throws ``roll`` on two dice."""
    state = at_draw(game, edit, players=players)
    state.apply_action(CARD["short-of-water"])
    state.apply_action(pick(0, 0))
    state.apply_action(dice(roll))
    return state


def test_a_carrier_dying_of_thirst_out_of_the_temple_leaves_its_coin_on_the_last_space(
        game: Game) -> None:
    """'If an explorer dies (with treasure) while trying to get water, the treasure is left on
    the last space of their unsuccessful move': out of the temple and two spaces on, not back
    on the roof; the run may not go back into the temple (ruling 23)."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, o["board"]["temple"], carrying=True)
    state = water(game, edit, 2)
    o = view(state)
    state.apply_action(spot(o, "e6"))
    assert o["board"]["temple"] not in state.legal_actions()
    state.apply_action(spot(o, "e5"))
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == -2
    assert obs["coins"] == [[spot(o, "e5"), 1]] and obs["temple_coins"] == 11


def test_the_water_run_from_the_swamp_is_one_space_whatever_the_dice(game: Game) -> None:
    """'Explorers move only 1 space if they start their turn in a river or the swamp' / 'The
    explorer can only move one space per turn via the grey arrows': on Short of Water an
    explorer on a grey arrow throws two dice (12 here) yet moves one arrow and, not in a
    river, dies there."""
    state = water(game, lambda o: put(o, 0, 0, spot(o, "j3")), 12)
    o = view(state)
    assert state.legal_actions() == sorted([spot(o, "i4"), spot(o, "k3")])
    state.apply_action(spot(o, "i4"))
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == -2 and obs["phase"] == "move-pick"


def test_short_of_water_with_everyone_outside_sends_one_in(game: Game) -> None:
    """'one of your explorers rolls two dice and must reach the river on this turn or they
    die': every explorer of the drawer is outside the valley, and one of them must run all
    the same (sixth pass, ruling 23: 'one of your explorers' excepts no one). It enters by an
    arrow, as a move does, and dies where its points run out short of water."""
    state = at_draw(game, lambda o: None)
    state.apply_action(CARD["short-of-water"])
    assert state.legal_actions() == [pick(0, k) for k in range(4)]
    state.apply_action(pick(0, 2))
    state.apply_action(dice(2))
    o = view(state)
    assert sorted(state.legal_actions()) == sorted(o["board"]["entries"])
    state.apply_action(spot(o, "a5"))
    state.apply_action(spot(o, "a4"))             # two points out, no water: it dies
    obs = view(state)
    assert obs["players"][0]["explorers"][2] == -2 and obs["players"][0]["alive"] == 3
    assert obs["phase"] == "move-pick" and obs["discards"]["short-of-water"] == 1


# --- positions the rules cannot reach (README, "Setting up a position") ------------------

def test_a_dinosaur_standing_on_lava_is_refused(game: Game) -> None:
    """'No explorer or dinosaur may land on, or pass over a space occupied by lava' (and lava
    is never placed on a dinosaur: ruling 15). The README's 'nobody on lava' held for
    explorers only: a dinosaur set on G under lava was accepted and then moved off it."""
    def edit(o: Obs) -> None:
        grow_flow(o, 0)
        o["dinosaurs"][0] = o["board"]["lava_start"]
    _refused(game, edit, "dinosaur 0 stands on lava")


def test_bullets_without_a_gun_are_refused(game: Game) -> None:
    """'Once drawn, bullets can now be taken when you land on an ammo dump space': a seat has
    bullets only once it holds a gun (kept for the match). Bullets handed to a seat with no
    gun were accepted, and fired."""
    def edit(o: Obs) -> None:
        o["players"][0]["bullets"], o["bullet_supply"] = 3, 9
    _refused(game, edit, "no gun")


def test_a_board_whose_inner_swamp_touches_land_is_refused(game: Game, tmp_path: Path) -> None:
    """'It can place an opposing explorer on one of the four separate inner swamp spaces. In
    order to leave the swamp they must be based on an adjacent space with an arrow (exit
    arrow).' / 'The explorer can only move one space per turn via the grey arrows until they
    reach dry land beyond the blue arrows.' A board file (the README's ``board`` option) that
    draws an inner swamp space next to dry land was accepted, and an explorer dropped there
    stepped straight out onto the land; the check (ruling 1: the exits are the only way out
    of the swamp) looked at the grey arrows only. It is refused, naming the space."""
    inner_beside_land = _slope_beside(tmp_path, "i3", "h4")
    with pytest.raises(InvalidOptions, match="'i3' is not an exit but touches land"):
        game.new_initial_state(2, {"board": inner_beside_land})
    grey_beside_land = _slope_beside(tmp_path, "k2", "k4")
    with pytest.raises(InvalidOptions, match="'k2' is not an exit but touches land"):
        game.new_initial_state(2, {"board": grey_beside_land})
