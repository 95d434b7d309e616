"""The adventure deck and every card's effect."""

from __future__ import annotations

from test_dinosaurs_helpers import (
    BOARD,
    GAME,
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

from arena.game import CHANCE
from engines.dinosaurs import actions as A
from engines.dinosaurs.cards import COUNTS, DECK_SIZE, NAMES
from engines.dinosaurs.state import DinosaursState
from engines.dinosaurs.table import DEAD, OUTSIDE

RULEBOOK_COUNTS = {
    "Volcano Erupts!": 7, "Pteranodon Swoops!": 6, "The Swamp Monster is Disturbed!": 6,
    "One Member Falls into the Swamp!": 6, "Escape from the Swamp!": 1,
    "Restless Dinosaurs!": 6, "Expedition Disturbs the Undergrowth!": 5,
    "Encounter Grazing Dinosaurs!": 4, "Danger Ahead!": 3, "Dinosaur Attack!": 1,
    "Dinosaurs Fight!": 3, "Your Expedition is Short of Water!": 2,
    "Discovered a Secret Path to the Temple!": 2, "You Have Found a Gun!": 2,
}


# ------------------------------------------------------------------ the deck

def test_the_54_adventure_cards_with_the_rulebooks_counts() -> None:
    """"54 Adventure Cards" - Volcano Erupts! (7x in the game), Pteranodon Swoops! (6x) ..."""
    assert dict(zip(NAMES, COUNTS, strict=True)) == RULEBOOK_COUNTS
    assert DECK_SIZE == 54


def test_a_draw_is_a_chance_node_over_what_is_left() -> None:
    """Each draw is sampled when it happens, from the cards still in the deck."""
    state = GAME.new_initial_state(2)
    play(state, A.FIRST_PLAYER + 1)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[card("Volcano")] == 7 / 54 and outcomes[card("Dinosaur Attack")] == 1 / 54
    play(state, card("Dinosaur Attack"))
    state.start_turn()
    assert card("Dinosaur Attack") not in dict(state.chance_outcomes())
    assert dict(state.chance_outcomes())[card("Volcano")] == 7 / 53


def test_an_empty_deck_takes_back_its_discards() -> None:
    """"In the event the adventure cards are depleted, reshuffle the discard pile and continue
    to use them as the new draw deck.\""""
    state = started()
    state.deck = [0] * len(COUNTS)
    state.deck[1] = 1  # one Pteranodon left
    state.discards[2], state.discards[0] = 4, 3
    play(state, card("Pteranodon"), A.DONE, explorer(0), die(1), space("a5"))
    assert phase(state) == "draw" and state.current_player() == CHANCE
    assert state.deck[:3] == [3, 1, 4] and sum(state.deck) == 8 and not any(state.discards)


def test_kept_cards_are_not_discarded() -> None:
    state = draw_now(started(), "You Have Found a Gun")
    assert state.guns[0] == 1 and state.discards[13] == 0
    state = draw_now(started(), "Discovered a Secret Path")
    assert state.secret_paths[0] == 1 and state.discards[12] == 0


# ------------------------------------------------------------------ volcano

def erupt(state: DinosaursState, times: int = 1) -> DinosaursState:
    for _ in range(times):
        draw_now(state, "Volcano")
    return state


def test_lava_runs_down_the_slope_one_piece_per_card() -> None:
    """"One piece is placed (per turn) down the slope until reaching the valley" / "The first
    lava piece (A) is placed in the tip of the volcanic cone, then the next 5 pieces (B -
    F).\""""
    state = started()
    for count in range(1, 7):
        erupt(state)
        assert [at for at in BOARD.volcano_slope if state.lava[at]] == \
            list(BOARD.volcano_slope[:count])
        assert phase(state) == "move-pick" and state.lava_placed == count


def test_the_seventh_eruption_puts_G_alone() -> None:
    """"One piece is placed (per turn) down the slope until reaching the valley, at which time
    three pieces are placed." / "The first piece to touch the valley is (G), the 3 (H) pieces
    can be split..." G is one piece per card like A-F; the three H pieces are the next card."""
    state = erupt(started(), 7)
    assert state.lava[BOARD.lava_start]
    assert state.lava_placed == 7 and phase(state) == "move-pick"


def test_a_dinosaur_on_G_dams_the_flow_until_G_is_covered() -> None:
    """Ruling 15: a dinosaur standing on G keeps the lava in the cone; the next eruption after
    it has gone puts G, still alone."""
    state = put_dinosaur(erupt(started(), 6), 0, "d9")
    erupt(state)
    assert not state.lava[BOARD.lava_start] and state.lava_placed == 6
    put_dinosaur(state, 0, "b1")
    erupt(state)
    assert state.lava[BOARD.lava_start] and state.lava_placed == 7
    assert phase(state) == "move-pick"


def test_in_the_valley_three_pieces_each_next_to_lava() -> None:
    """"...until reaching the valley, at which time three pieces are placed." / "Lava must
    always be placed on spaces adjacent to previously laid lava.\""""
    state = erupt(started(), 8)
    assert phase(state) == "lava-place" and state.lava_left == 3
    assert names(state.legal_actions()) == ["c9", "d8", "d10", "e9", "e10"]
    play(state, space("d8"))
    assert "c8" in names(state.legal_actions()) and "c9" in names(state.legal_actions())
    play(state, space("c8"), space("c9"))
    assert phase(state) == "move-pick" and state.lava_placed == 10
    erupt(state)
    assert phase(state) == "lava-place" and state.lava_left == 3


def test_lava_never_covers_the_swamp_or_a_dinosaur() -> None:
    """"One piece of lava occupies 1 space, and can occupy any space EXCEPT the swamp.\""""
    state = put_dinosaur(erupt(started(), 7), 0, "d10")
    erupt(state)
    assert phase(state) == "lava-place" and space("d10") not in state.legal_actions()
    assert all(BOARD.terrain[at] not in (4, 5) for at in BOARD.lava_spaces)


def test_lava_kills_the_explorers_it_covers() -> None:
    """"If lava is placed on a space with an explorer, they die and are removed from the
    game.\""""
    state = put(put(erupt(started(), 6), 0, "d9"), 5, "e9")
    state.carrying[5] = True
    erupt(state)
    assert state.explorers[0] == DEAD
    erupt(state)
    play(state, space("e9"))
    assert state.explorers[5] == DEAD and state.coins[space("e9")] == 1


def test_no_one_lands_on_or_passes_over_lava() -> None:
    """"No explorer or dinosaur may land on, or pass over a space occupied by lava.\""""
    state = started()
    state.lava[space("b6")] = True
    moving(0, "b5", 3, state)
    assert space("b6") not in state.legal_actions()
    state = started()
    state.lava[space("c6")] = True
    put_dinosaur(state, 0, "c5")
    draw_now(state, "Encounter Grazing")
    play(state, dinosaur(0))
    assert space("c6") not in state.legal_actions()


def _full_flow(state: DinosaursState, valley: list[str]) -> DinosaursState:
    for at in BOARD.volcano_slope:
        state.lava[at] = True
    for name in valley:
        state.lava[space(name)] = True
    state.lava_placed = 30
    return state


def test_after_thirty_pieces_three_may_be_repositioned_keeping_one_structure() -> None:
    """"When all 30 pieces of lava have been placed on the board, you may then reposition
    three pieces of lava on empty spaces adjacent to other lava pieces (each time you draw a
    "volcano erupts" card). The lava must always remain a coherent structure.\""""
    state = erupt(_full_flow(started(), ["d9", "e9", "f9"]))
    assert phase(state) == "lava-lift"
    assert state.legal_actions() == [space("f9"), A.DONE]  # e9 holds the flow together
    play(state, space("f9"))
    assert phase(state) == "lava-drop" and space("f9") not in state.legal_actions()
    assert space("d10") in state.legal_actions() and space("g9") not in state.legal_actions()
    play(state, space("d10"))
    assert state.lava[space("d10")] and not state.lava[space("f9")]
    assert phase(state) == "lava-lift" and state.lava_left == 2 and state.lava_placed == 30
    play(state, A.DONE)
    assert phase(state) == "move-pick"


def test_repositioned_lava_goes_only_on_empty_spaces() -> None:
    state = put(_full_flow(started(), ["d9", "e9", "f9"]), 4, "d10")
    erupt(state)
    play(state, space("f9"))
    assert space("d10") not in state.legal_actions()


# ------------------------------------------------------------------ pteranodon

def test_pteranodon_rescues_your_own_explorer_to_a_safe_space() -> None:
    """"you may use it to EITHER move one of your explorers (even from outside the valley) to
    a legal safe space" / "It can rescue explorers from the swamp, from guarded or unguarded
    dinosaur lairs\""""
    state = put(put(started(), 1, "b1"), 4, "b5")
    draw_now(state, "Pteranodon")
    legal = state.legal_actions()
    assert A.DONE in legal and explorer(0) in legal and explorer(1) in legal
    play(state, explorer(1))
    targets = names(state.legal_actions())
    assert "b6" in targets and "b5" not in targets  # occupied
    assert not [at for at in state.legal_actions() if BOARD.terrain[at] in (4, 5, 6)]
    assert "a8" in targets  # a river with no dinosaur about is safe (ruling 16)
    play(state, space("b6"))
    assert state.explorers[1] == space("b6") and phase(state) == "move-pick"


def test_pteranodon_puts_your_own_explorer_nowhere_dangerous() -> None:
    """"a legal safe space" for your own, "an empty dangerous space" for an opponent's: dry
    land next to a dinosaur is dangerous (ruling 16), so it is not safe."""
    state = put(started(), 1, "b6")
    draw_now(state, "Pteranodon")
    play(state, explorer(1))
    targets = names(state.legal_actions())
    assert "b0" not in targets and "e2" in targets  # next to the dinosaur on b1, or not


def test_pteranodon_drops_an_opponent_onto_an_empty_dangerous_space() -> None:
    """"OR move an opponent to an empty dangerous space." / "It can place an opposing explorer
    on one of the four separate inner swamp spaces." / "It can't place an explorer on an
    occupied space, or in the dinosaur's lair.\""""
    state = put(put(started(), 4, "b5"), 5, "i2")
    draw_now(state, "Pteranodon")
    assert explorer(6) not in state.legal_actions()  # outside the valley
    play(state, explorer(4))
    targets = names(state.legal_actions())
    assert {"i3", "j1", "j2", "h3"} <= set(targets)
    assert "i2" not in targets and "h2" not in targets  # an explorer, the monster
    assert not [name for name in targets if BOARD.terrain[space(name)] == 6]
    assert "b0" in targets and "e2" not in targets  # next to a dinosaur (b1), or not
    assert "g6" not in targets  # a river is dangerous only next to a dinosaur (ruling 16)
    play(state, space("i3"))
    assert state.explorers[4] == space("i3")


def test_carried_off_by_the_pteranodon_the_coin_stays() -> None:
    """"If an explorer ... is carried off by the Pteranodon, the coin is abandoned and left on
    the space they were occupying.\""""
    state = put(started(), 4, "b5")
    state.carrying[4] = True
    draw_now(state, "Pteranodon")
    play(state, explorer(4), space("i3"))
    assert state.coins[space("b5")] == 1 and not state.carrying[4]


def test_the_pteranodon_may_be_left_in_its_nest() -> None:
    state = draw_now(started(), "Pteranodon")
    play(state, A.DONE)
    assert phase(state) == "move-pick" and state.discards[1] == 1


# ------------------------------------------------------------------ the swamp

def test_the_swamp_monster_moves_clockwise_and_eats() -> None:
    """"The swamp monster moves 1 space in a clockwise motion (on the grey arrows). If the
    Monster lands on a space with an explorer, they are eaten and removed from play.\""""
    state = put(started(), 4, "h3")
    draw_now(state, "The Swamp Monster")
    assert state.monster == space("h3") and state.explorers[4] == DEAD
    for name in ("i4", "j3", "k3", "k2", "k1", "j0", "i1", "h1", "h2"):
        draw_now(state, "The Swamp Monster")
        assert state.monster == space(name)


def test_falling_into_the_swamp_lands_on_any_grey_arrow_but_the_monsters() -> None:
    """"Players can risk the explorer by placing them closer than 3 spaces from the monster
    (so they can occupy a blue exit arrow space)." Closer is the optional risk, so the
    normal placement, 3 or more spaces away, is allowed too: any ring space but the
    monster's own."""
    state = put(put(started(), 0, "b5"), 1, "b1")
    state.carrying[0] = True
    draw_now(state, "One Member Falls")
    assert state.legal_actions() == [explorer(0)]
    play(state, explorer(0))
    legal = names(state.legal_actions())
    assert sorted(legal) == sorted(set(names(list(BOARD.swamp_ring))) - {"h2"})
    assert {"k2", "k3", "j0"} <= set(legal)  # 4 and 5 grey arrows from h2, and an exit
    play(state, space("i4"))
    assert state.explorers[0] == space("i4") and state.coins[space("b5")] == 1


def test_falling_closer_than_3_is_a_distance_either_way() -> None:
    """"closer than 3 spaces from the monster" is a distance, not "ahead of it": i1 is one
    grey arrow behind the monster on h1."""
    state = put(started(), 0, "b5")
    state.monster = space("h1")
    draw_now(state, "One Member Falls")
    play(state, explorer(0))
    assert "i1" in names(state.legal_actions()) and "h1" not in names(state.legal_actions())


def test_falling_reaches_an_explorer_in_the_temple() -> None:
    """"This card does NOT permit you to take an explorer out of a dinosaur's lair." The lair
    is the only exception named: an explorer in the temple may fall in."""
    state = put(started(), 0, "f6")
    state.carrying[0], state.temple_coins = True, 11  # it took one from the roof
    draw_now(state, "One Member Falls")
    assert phase(state) == "fall-pick" and state.legal_actions() == [explorer(0)]
    play(state, explorer(0), space("k2"))
    assert state.explorers[0] == space("k2") and state.temple_coins == 12  # coin left there


def test_falling_never_takes_an_explorer_out_of_a_lair() -> None:
    """"This card does NOT permit you to take an explorer out of a dinosaur's lair.\""""
    state = draw_now(put(started(), 0, "b1"), "One Member Falls")
    assert phase(state) == "move-pick" and state.explorers[0] == space("b1")


def test_escape_from_the_swamp_beyond_the_nearest_exit() -> None:
    """"The player may place an explorer on any space beyond his nearest exit from the
    swamp.\""""
    state = put(put(started(), 0, "k2"), 1, "i2")
    draw_now(state, "Escape from the Swamp")
    assert state.legal_actions() == [A.DONE, explorer(0), explorer(1)]
    play(state, explorer(0))
    assert names(state.legal_actions()) == ["i0"]  # j0 is two arrows away, i4 three
    play(state, space("i0"))
    assert state.explorers[0] == space("i0")
    state = put(started(), 1, "i3")
    draw_now(state, "Escape from the Swamp")
    play(state, explorer(1))
    assert names(state.legal_actions()) == ["h4", "i5", "j4"]


# ------------------------------------------------------------------ dinosaur cards

def _pick_and_walk(state: DinosaursState, number: int, *steps: str) -> None:
    play(state, dinosaur(number), *(space(name) for name in steps))


def test_restless_dinosaurs_three_move_two_spaces() -> None:
    """"Restless Dinosaurs! (6x in the game) Three Dinosaurs move 2 spaces each.\""""
    state = draw_now(started(), "Restless")
    _pick_and_walk(state, 0, "c1", "c2")
    assert dinosaur(0) not in state.legal_actions()
    _pick_and_walk(state, 1, "c5", "c4")
    _pick_and_walk(state, 2, "d12", "d11")
    assert phase(state) == "move-pick"
    assert names(state.dinosaurs[:3]) == ["c2", "c4", "d11"]


def test_undergrowth_all_dinosaurs_move_one_space() -> None:
    """"Expedition Disturbs the Undergrowth! (5x in the game) All the Dinosaurs move 1 space
    each.\""""
    state = draw_now(started(), "Expedition Disturbs")
    for number, name in enumerate(("c1", "c5", "d12", "f10", "i7", "j13")):
        _pick_and_walk(state, number, name)
    assert phase(state) == "move-pick"
    assert names(state.dinosaurs) == ["c1", "c5", "d12", "f10", "i7", "j13"]


def test_grazing_three_dinosaurs_move_one_space() -> None:
    """"Encounter Grazing Dinosaurs! (4x in the game) Three Dinosaurs move 1 space each.\""""
    state = draw_now(started(), "Encounter Grazing")
    for left, (number, name) in enumerate(((5, "k12"), (3, "g11"), (0, "b0"))):
        assert state.dinosaur_moves == (1,) * (3 - left)
        _pick_and_walk(state, number, name)
    assert phase(state) == "move-pick"
    assert names([state.dinosaurs[number] for number in (0, 3, 5)]) == ["b0", "g11", "k12"]


def test_danger_ahead_three_move_two_and_three_move_one() -> None:
    """"Danger Ahead! (3x in the game) Three Dinosaurs move 2 spaces, and three move 1 space
    each.\""""
    state = draw_now(started(), "Danger Ahead")
    assert state.dinosaur_moves == (2, 2, 2, 1, 1, 1)
    _pick_and_walk(state, 0, "c1", "c2")
    _pick_and_walk(state, 1, "c5", "c4")
    _pick_and_walk(state, 2, "d12", "d11")
    _pick_and_walk(state, 3, "f10")
    assert state.steps_left == 0 and phase(state) == "dinosaur-pick"
    _pick_and_walk(state, 4, "i7")
    _pick_and_walk(state, 5, "j13")
    assert phase(state) == "move-pick"


def test_dinosaur_attack_eats_the_captives_in_the_lair() -> None:
    """"Dinosaur Attack! (1x in the game) One Dinosaur moves 3 spaces, and three move 1 space
    each. Each captured explorer (and the Dinosaur) are taken to any unoccupied lair. All
    captured explorers there are eaten alive! (including any already in the lair).\""""
    state = put(put(started(), 4, "c3"), 5, "b1")
    put_dinosaur(state, 0, "a1")  # lair b1 is unguarded, explorer 5 sits there
    draw_now(state, "Dinosaur Attack")
    assert state.dinosaur_moves == (3, 1, 1, 1)
    _pick_and_walk(state, 1, "c5", "c4", "c3")
    assert phase(state) == "lair-pick"
    play(state, space("b1"))
    assert state.explorers[4] == DEAD and state.explorers[5] == DEAD
    assert state.dinosaurs[1] == space("b1") and phase(state) == "dinosaur-pick"


def test_dinosaurs_fight_frees_your_own_captive_first() -> None:
    """"When drawn, one explorer can escape from any lair by moving one space outside." /
    "Drawing a "Dinosaur Fight" card - move your explorer onto one of the footprint spaces at
    the entrance, then roll the dice to move as normal.\""""
    state = put(put(started(), 1, "d5"), 4, "b1")
    draw_now(state, "Dinosaurs Fight")
    assert state.legal_actions() == [explorer(1)]
    play(state, explorer(1))
    assert names(state.legal_actions()) == ["c5", "d6"]
    play(state, space("d6"))
    assert state.explorers[1] == space("d6") and phase(state) == "move-pick"
    play(state, explorer(1), die(1), space("e6"))
    assert state.explorers[1] == space("e6")


def test_dinosaurs_fight_frees_an_opponent_when_you_have_no_captive() -> None:
    """"If you draw this card and none of your explorers are in a lair, then you must move an
    opponent's explorer out of a lair.\""""
    state = put(started(), 4, "b1")
    draw_now(state, "Dinosaurs Fight")
    assert state.legal_actions() == [explorer(4)]
    play(state, explorer(4), space("c1"))
    assert state.explorers[4] == space("c1")


def test_dinosaurs_fight_frees_no_opponent_while_you_have_a_captive() -> None:
    """"If you draw this card and none of your explorers are in a lair, then you must move an
    opponent's explorer out of a lair." Seat 0's explorer in lair d13 cannot get out (both
    footprints under lava): the card frees no one, not seat 1's captive in b1."""
    state = put(put(started(), 0, "d13"), 4, "b1")
    state.lava[space("d12")] = state.lava[space("e13")] = True
    draw_now(state, "Dinosaurs Fight")
    assert phase(state) == "move-pick" and state.explorers[4] == space("b1")
    assert state.discards[10] == 1


def test_dinosaurs_fight_is_ignored_without_captives() -> None:
    """"If no player has any explorers in the Dino lair, then ignore the effects and
    discard.\""""
    state = draw_now(started(), "Dinosaurs Fight")
    assert phase(state) == "move-pick" and state.discards[10] == 1


# ------------------------------------------------------------------ short of water

def test_short_of_water_reach_a_river_or_die() -> None:
    """"If you draw this card, one of your explorers rolls two dice and must reach the river on
    this turn or they die and are removed from the game (you do not have to arrive by an
    exact count).\""""
    state = put(started(), 0, "e2")
    draw_now(state, "Your Expedition is Short")
    play(state, explorer(0), dice(4))
    play(state, space("f2"), space("g2"))
    # wading in: "their turn ends in the water" (ruling 23), the next seat draws
    assert state.explorers[0] == space("g2") and phase(state) == "draw" and state.player == 1
    state = put(started(), 0, "a1")
    state.carrying[0] = True
    draw_now(state, "Your Expedition is Short")
    play(state, explorer(0), dice(2), space("a2"), space("a3"))
    assert state.explorers[0] == DEAD
    assert state.coins[space("a3")] == 1  # "the treasure is left on the last space"


def test_short_of_water_any_living_explorer_outside_too() -> None:
    """"one of your explorers rolls two dice": any of them, those outside the valley too (they
    enter by an arrow as a move does), and a captive (ruling 23), which in a guarded lair
    cannot get out and dies."""
    state = put(started(), 1, "b1")
    draw_now(state, "Your Expedition is Short")
    assert state.legal_actions() == [explorer(0), explorer(1), explorer(2), explorer(3)]
    play(state, explorer(1), dice(12))
    assert state.explorers[1] == DEAD and phase(state) == "move-pick"
    state = put(started(), 2, "g6")
    draw_now(state, "Your Expedition is Short")
    play(state, explorer(2))
    assert phase(state) == "move-pick" and state.explorers[2] == space("g6")


# ------------------------------------------------------------------ kept cards

def test_the_secret_path_leads_from_a_cave_to_the_temple_once() -> None:
    """"To use this card an explorer must be at the entrance space of one of the caves. You
    may use this card as an additional action to go directly to the Temple (or leave the
    Temple through the secret passage). Travel is one way only, discard after using.\""""
    state = put(put(started(), 0, "e1"), 1, "b5")
    draw_now(state, "Discovered a Secret Path")
    assert A.SECRET + 0 in state.legal_actions()
    play(state, A.SECRET + 0)
    assert state.explorers[0] == BOARD.temple and state.carrying[0]
    assert state.secret_paths[0] == 0 and state.discards[12] == 1
    assert explorer(0) in state.legal_actions()  # an additional action: it may move too (ruling 24)
    play(state, explorer(1), die(1), space("b6"))
    assert state.player == 1


def test_the_secret_path_leads_out_of_the_temple_to_a_cave() -> None:
    state = put(started(), 0, "f6")
    state.carrying[0] = True
    draw_now(state, "Discovered a Secret Path")
    play(state, A.SECRET + 0)
    assert names(state.legal_actions()) == ["e1", "j10"]
    play(state, space("j10"))
    assert state.explorers[0] == space("j10") and state.carrying[0]


def test_a_gun_holder_takes_bullets_at_an_ammunition_dump() -> None:
    """"Once drawn, bullets can now be taken when you land on an ammo dump space.\""""
    state = moving(0, "b5", 2)  # holds the gun drawn to start the move
    play(state, space("b4"), space("b3"))
    assert state.bullets[0] == 3 and state.bullet_supply == 9


def _armed(state: DinosaursState, bullets: int = 3) -> DinosaursState:
    state.guns[0], state.bullets[0] = 1, bullets
    state.bullet_supply -= bullets
    return state


def test_a_bullet_frightens_a_dinosaur_one_space() -> None:
    """"Explorers use bullets to frighten away a Dinosaur (one space / per bullet used)." /
    "Bullets can be used before or after you move an explorer.\""""
    state = to_move(_armed(put_dinosaur(started(), 0, "b5")))
    assert A.SHOOT + 0 in state.legal_actions()
    play(state, A.SHOOT + 0)
    assert phase(state) == "shoot-push" and space("b6") in state.legal_actions()
    play(state, space("b6"))
    assert state.dinosaurs[0] == space("b6") and state.bullets[0] == 2
    assert phase(state) == "move-pick"
    play(state, explorer(0), die(1), space("a5"))
    assert phase(state) == "after-move" and A.DONE in state.legal_actions()
    play(state, A.SHOOT + 0, space("b7"))
    assert phase(state) == "after-move"
    play(state, A.DONE)
    assert state.player == 1


def test_bullets_may_be_spent_together_or_saved() -> None:
    """"A player may use 1 or all of their bullets on one turn, or save some for a later
    turn.\""""
    state = to_move(_armed(put_dinosaur(started(), 0, "b5"), 2))
    play(state, A.SHOOT + 0, space("b6"), A.SHOOT + 0, space("b7"))
    assert state.bullets[0] == 0
    assert not [a for a in state.legal_actions() if A.SHOOT <= a < A.SECRET]


def test_a_bullet_can_push_a_dinosaur_onto_an_explorer() -> None:
    """"You can use a bullet to move a Dinosaur onto a space occupied by another explorer,
    resulting in their capture (and being taken to its lair).\""""
    state = to_move(_armed(put(put_dinosaur(started(), 0, "b5"), 4, "b6")))
    play(state, A.SHOOT + 0, space("b6"))
    assert phase(state) == "lair-pick" and names(state.legal_actions()) == ["b1"]
    play(state, space("b1"))
    assert state.explorers[4] == space("b1") and phase(state) == "move-pick"
    assert state.explorers[0] == OUTSIDE


def test_lava_can_maroon_dinosaurs_and_cut_off_lairs() -> None:
    """"Lava can maroon dinosaurs and explorers, cut off river crossings, dinosaur lairs,
    etc.\""""
    state = started()
    state.lava[space("d12")] = state.lava[space("e13")] = True  # both footprints of d13
    draw_now(state, "Encounter Grazing")
    assert dinosaur(2) not in state.legal_actions()  # d13's dinosaur has nowhere to go
    play(state, dinosaur(0), space("c1"))
    assert phase(state) == "dinosaur-pick" and state.dinosaurs[2] == space("d13")


def test_the_pteranodon_rescues_an_explorer_cut_off_by_lava() -> None:
    """"It can rescue explorers ... from spaces which have been cut off by the lava flow.\""""
    state = put(started(), 0, "a1")
    state.lava[space("a2")] = True
    put_dinosaur(state, 0, "b0")
    draw_now(state, "Pteranodon")
    assert explorer(0) in state.legal_actions()
    play(state, explorer(0), space("e6"))
    assert state.explorers[0] == space("e6")


def test_two_bullets_can_move_two_dinosaurs_one_space_each() -> None:
    """"E.g.: Three bullets can be used to move a dinosaur 3 spaces OR two bullets can move two
    dinosaurs away 1 space each.\""""
    state = to_move(_armed(put_dinosaur(put_dinosaur(started(), 0, "b5"), 1, "c5"), 3))
    play(state, A.SHOOT + 0, space("b6"), A.SHOOT + 1, space("c4"))
    assert names(state.dinosaurs[:2]) == ["b6", "c4"] and state.bullets[0] == 1
    play(state, A.SHOOT + 0, space("b7"))
    assert state.bullets[0] == 0 and state.bullet_supply == 12
