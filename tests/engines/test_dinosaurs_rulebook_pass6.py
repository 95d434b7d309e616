"""Lost Valley of the Dinosaurs, sixth rulebook pass: the open readings, the sentences no test
checked directly, and the rulebook's own examples.

The first part checks the three readings the fifth pass left open, each on the most literal
reading of its sentence (RULINGS.md 15, 23, 25): Short of Water may send in an explorer
outside the valley, lava flows onto a coin and leaves it lying under it, and an explorer the
pteranodon puts on an ammunition dump has landed there. The second
part gives every rule sentence or clause that had no direct test one of its own, and the
third reproduces the rulebook's worked examples (the lava figure A-F, G, H; the bullets'
"E.g."). Everything goes through the documented public surface only
(engines/dinosaurs/README.md): the registry's ``Game``, action ids, ``observation`` and
``Game.state_from_observation`` on an edited observation. No engine module is imported. Each
test quotes the rulebook sentence (rules/lost-valley-of-the-dinosaurs.txt) it checks;
tests/engines/RULES-COVERAGE-dinosaurs.md names them in its rows.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from test_dinosaurs_blackbox import CARD, NAME, Obs, dice, die, dino, phase, put, view
from test_dinosaurs_rulebook_pass3 import SHIPPED_BOARD, SHOOT, at_draw, finish_turn, pick
from test_dinosaurs_rulebook_pass4 import armed, spot

from arena.game import CHANCE, Game, State
from arena.plugins import require_registry


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def at(state: State, seat: int, k: int) -> int:
    return int(view(state)["players"][seat]["explorers"][k])


def names(o: Obs, spaces: list[int]) -> list[str]:
    return sorted(o["board"]["names"][s] for s in spaces)


def lava_to_g(o: Obs, *valley: str) -> None:
    """Lava out of the cone: the slope A-F, G, then the valley spaces named (each joined)."""
    board = o["board"]
    o["lava"] = [*board["volcano_slope"], board["lava_start"], *(spot(o, n) for n in valley)]
    o["lava_placed"] = len(o["lava"])


def gun_holder(o: Obs, seat: int) -> None:
    """Hand ``seat`` a gun from the deck, with no bullets yet."""
    armed(o, seat, 0)


def moving(game: Game, edit: Callable[[Obs], None]) -> State:
    """Seat 0 to pick its move: its card (Escape from the Swamp, nobody in the swamp) did
    nothing."""
    state = at_draw(game, edit)
    state.apply_action(CARD["escape-swamp"])
    assert phase(state) == "move-pick"
    return state


# --- the open readings --------------------------------------------------------------------------

def test_an_explorer_already_outside_the_valley_may_be_the_one_short_of_water(game: Game) -> None:
    """'If you draw this card, one of your explorers rolls two dice and must reach the river on
    this turn or they die': 'one of your explorers' excepts no one, so an explorer that has
    already brought its coin out (the long game) may be the one: it enters by an arrow, as a
    move does, and wading into the river it reaches ends the turn (ruling 23)."""
    def edit(o: Obs) -> None:
        o["players"][0]["coins_out"] = 1
        o["temple_coins"] -= 1
        put(o, 0, 1, spot(o, "e3"))
    state = at_draw(game, edit, options={"coins": 3})
    state.apply_action(CARD["short-of-water"])
    assert sorted(state.legal_actions()) == [pick(0, k) for k in range(4)]
    state.apply_action(pick(0, 0))
    state.apply_action(dice(3))
    o = view(state)
    assert sorted(state.legal_actions()) == sorted(o["board"]["entries"])
    state.apply_action(spot(o, "f0"))
    state.apply_action(spot(o, "g1"))
    state.apply_action(spot(o, "g2"))                # the river, on its last point: saved
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == spot(o, "g2")
    assert obs["players"][0]["alive"] == 4 and obs["players"][0]["coins_out"] == 1
    assert (obs["phase"], obs["player"]) == ("draw", 1)   # 'their turn ends in the water'


def test_an_explorer_outside_that_falls_short_of_water_dies_in_the_valley(game: Game) -> None:
    """'... must reach the river on this turn or they die and are removed from the game': the
    run from outside the valley counts its step onto the arrow; two points from the arrow
    a5 reach no water, and the explorer dies on the last space of its run."""
    state = at_draw(game, lambda o: None)
    state.apply_action(CARD["short-of-water"])
    state.apply_action(pick(0, 3))
    state.apply_action(dice(2))
    o = view(state)
    state.apply_action(spot(o, "a5"))
    state.apply_action(spot(o, "a4"))
    obs = view(state)
    assert obs["players"][0]["explorers"][3] == -2 and obs["players"][0]["alive"] == 3
    assert obs["phase"] == "move-pick"


def test_an_explorer_outside_with_every_arrow_blocked_dies_of_thirst(game: Game) -> None:
    """'They may not move into a space occupied by a dinosaur' with '... must reach the river
    on this turn or they die': chosen for the run with a dinosaur on each of the four entry
    arrows, the explorer outside cannot take a step, and dies where it stands."""
    def edit(o: Obs) -> None:
        for d, entry in enumerate(o["board"]["entries"]):
            o["dinosaurs"][d] = entry
    state = at_draw(game, edit)
    state.apply_action(CARD["short-of-water"])
    state.apply_action(pick(0, 1))
    state.apply_action(dice(12))
    obs = view(state)
    assert obs["players"][0]["explorers"][1] == -2 and obs["players"][0]["alive"] == 3


def test_lava_may_flow_onto_a_coin_and_leaves_it_lying_under_the_lava(game: Game) -> None:
    """'One piece of lava occupies 1 space, and can occupy any space EXCEPT the swamp': a space
    where an abandoned coin lies is no exception, and no sentence takes the coin away; it lies
    under the lava ('No explorer ... may land on, or pass over a space occupied by lava'), still
    a coin of the game (ruling 15), so the match goes on."""
    def edit(o: Obs) -> None:
        lava_to_g(o)
        o["coins"] = [[spot(o, "d10"), 1]]
        o["temple_coins"] -= 1
        put(o, 0, 0, spot(o, "d11"))
    state = at_draw(game, edit)
    state.apply_action(CARD["volcano"])
    o = view(state)
    assert spot(o, "d10") in state.legal_actions()
    state.apply_action(spot(o, "d10"))
    state.apply_action(spot(o, "e10"))
    state.apply_action(spot(o, "c9"))
    obs = view(state)
    assert spot(o, "d10") in obs["lava"] and obs["coins"] == [[spot(o, "d10"), 1]]
    assert obs["phase"] == "move-pick" and obs["end_reason"] is None
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    assert spot(o, "d10") not in state.legal_actions()   # nobody lands on it


def test_the_pteranodon_dropping_your_explorer_on_an_ammo_dump_gives_bullets(game: Game) -> None:
    """'Once drawn, bullets can now be taken when you land on an ammo dump space': the
    pteranodon moves your explorer 'to a legal safe space', and put down on the dump it has
    landed there (no count is asked, as it is for treasure: 'by exact count'). The gun
    holder takes its bullets (ruling 25: three, from the sheet)."""
    state = at_draw(game, lambda o: gun_holder(o, 0))
    state.apply_action(CARD["pteranodon"])
    state.apply_action(pick(0, 0))                    # from outside the valley
    o = view(state)
    assert spot(o, "b3") in state.legal_actions()
    state.apply_action(spot(o, "b3"))
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == spot(o, "b3")
    assert obs["players"][0]["bullets"] == 3 and obs["bullet_supply"] == 9


def test_an_opponent_dropped_on_an_ammo_dump_beside_a_dinosaur_takes_its_bullets(
        game: Game) -> None:
    """'OR move an opponent to an empty dangerous space' / 'bullets can now be taken when you
    land on an ammo dump space': the dump beside a dinosaur is dangerous; the opponent's
    explorer lands there, and its seat, holding a gun, takes the bullets (not the drawer)."""
    def edit(o: Obs) -> None:
        o["deck"]["gun"] -= 2
        o["players"][0]["guns"] = o["players"][1]["guns"] = 1
        o["dinosaurs"][0] = spot(o, "a3")
        put(o, 1, 0, spot(o, "e3"))
    state = at_draw(game, edit)
    state.apply_action(CARD["pteranodon"])
    state.apply_action(pick(1, 0))
    o = view(state)
    assert spot(o, "b3") in state.legal_actions()
    state.apply_action(spot(o, "b3"))
    obs = view(state)
    assert obs["players"][1]["bullets"] == 3 and obs["players"][0]["bullets"] == 0


def test_escaping_the_swamp_onto_an_ammo_dump_is_landing_there(game: Game,
                                                               tmp_path: Path) -> None:
    """'The player may place an explorer on any space beyond his nearest exit from the swamp'
    with 'bullets can now be taken when you land on an ammo dump space': placed on a dump
    beyond the exit, the explorer has landed there. The shipped board has no dump beside an
    exit; a board file (the ``board`` option) with one beside the exit i4 has."""
    board = tmp_path / "dump-by-the-swamp.toml"
    board.write_text(SHIPPED_BOARD.read_text("utf-8").replace(
        '{ id = "h4", terrain = "land"', '{ id = "h4", terrain = "ammo-dump"'), "utf-8")

    def edit(o: Obs) -> None:
        gun_holder(o, 0)
        put(o, 0, 0, spot(o, "i4"))                   # on a blue exit arrow
    state = at_draw(game, edit, options={"board": str(board)})
    state.apply_action(CARD["escape-swamp"])
    state.apply_action(pick(0, 0))
    o = view(state)
    assert o["board"]["terrain"][spot(o, "h4")] == "ammo-dump"
    assert spot(o, "h4") in state.legal_actions()
    state.apply_action(spot(o, "h4"))
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == spot(o, "h4")
    assert obs["players"][0]["bullets"] == 3 and obs["bullet_supply"] == 9


# --- sentences with no direct test before ------------------------------------------------------

def test_dinosaurs_move_freely_on_water_spaces(game: Game) -> None:
    """'Dinosaurs can move freely on all land or water spaces': from the dump j8 a dinosaur
    may step into either river beside it and onto the crossing, as onto land."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = spot(o, "j8")
    state = at_draw(game, edit)
    state.apply_action(CARD["grazing"])
    state.apply_action(dino(0))
    o = view(state)
    assert names(o, state.legal_actions()) == ["i8", "i9", "j9", "k8", "k9"]
    state.apply_action(spot(o, "i9"))                 # a river
    assert view(state)["dinosaurs"][0] == spot(o, "i9")


def test_dinosaurs_never_leave_the_valley(game: Game) -> None:
    """'but they can't ... leave the valley': a dinosaur standing on the entry arrow k5 is
    offered its neighbours only, never the step out (160) an explorer there has."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = spot(o, "k5")
    state = at_draw(game, edit)
    state.apply_action(CARD["grazing"])
    state.apply_action(dino(0))
    o = view(state)
    assert names(o, state.legal_actions()) == ["j4", "j5", "k4", "k6"]
    assert 160 not in state.legal_actions()


def test_bullets_are_taken_only_on_landing_after_the_gun_is_drawn(game: Game) -> None:
    """'Once drawn, bullets can now be taken when you land on an ammo dump space': an explorer
    already standing on the dump when the gun is drawn takes nothing then; landing on it by its
    move (out and back: its start was not travelled into that turn, ruling 9) it does."""
    state = at_draw(game, lambda o: put(o, 0, 0, spot(o, "b3")))
    state.apply_action(CARD["gun"])
    obs = view(state)
    assert obs["players"][0]["guns"] == 1 and obs["players"][0]["bullets"] == 0
    state.apply_action(pick(0, 0))
    state.apply_action(die(2))
    o = view(state)
    state.apply_action(spot(o, "a3"))
    state.apply_action(spot(o, "b3"))
    obs = view(state)
    assert obs["players"][0]["bullets"] == 3 and obs["bullet_supply"] == 9


@pytest.mark.parametrize("kind", ["restless", "undergrowth", "grazing", "danger-ahead",
                                  "dinosaur-attack"])
def test_every_dinosaur_card_takes_captive_and_captor_to_any_unoccupied_lair(
        game: Game, kind: str) -> None:
    """'Each captured explorer (and the Dinosaur) are taken to any unoccupied lair.' (the same
    sentence under each of the five dinosaur cards): the first dinosaur chosen steps onto an
    opponent's explorer, and the drawer may take both to either lair no dinosaur holds (its
    own, left empty, or one it never stood in). Dinosaur Attack then eats the captive ('All
    captured explorers there are eaten alive!')."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = spot(o, "e3")
        o["dinosaurs"][1] = spot(o, "a2")                 # d5 is left empty
        put(o, 1, 0, spot(o, "e4"))
    state = at_draw(game, edit)
    state.apply_action(CARD[kind])
    state.apply_action(dino(0))
    o = view(state)
    state.apply_action(spot(o, "e4"))
    assert phase(state) == "lair-pick"
    assert names(o, state.legal_actions()) == ["b1", "d5"]
    state.apply_action(spot(o, "d5"))
    obs = view(state)
    assert obs["dinosaurs"][0] == spot(o, "d5")
    expected = -2 if kind == "dinosaur-attack" else spot(o, "d5")
    assert obs["players"][1]["explorers"][0] == expected


def test_freed_by_dinosaurs_fight_the_explorer_then_rolls_and_moves_as_normal(
        game: Game) -> None:
    """'2. Drawing a "Dinosaur Fight" card - move your explorer onto one of the footprint
    spaces at the entrance, then roll the dice to move as normal.': freed onto a footprint of
    its guarded lair, the explorer is the seat's to move that turn, on its die."""
    state = at_draw(game, lambda o: put(o, 0, 0, o["dinosaurs"][1]))   # captive in d5, guarded
    state.apply_action(CARD["dinosaurs-fight"])
    state.apply_action(pick(0, 0))
    o = view(state)
    assert names(o, state.legal_actions()) == ["c5", "d6"]
    state.apply_action(spot(o, "d6"))
    assert phase(state) == "move-pick" and pick(0, 0) in state.legal_actions()
    state.apply_action(pick(0, 0))
    assert state.current_player() == CHANCE
    assert sorted(dict(state.chance_outcomes())) == [die(face) for face in range(1, 7)]
    state.apply_action(die(1))
    assert spot(o, "d5") not in state.legal_actions()   # the guarded lair: never back in


def test_lava_can_cut_off_a_river_crossing(game: Game) -> None:
    """'Lava can maroon dinosaurs and explorers, cut off river crossings, dinosaur lairs,
    etc.': with lava on the crossing c8, an explorer beside it cannot step onto it."""
    def edit(o: Obs) -> None:
        lava_to_g(o, "d8", "c8")
        put(o, 0, 0, spot(o, "c7"))
    state = moving(game, edit)
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    o = view(state)
    assert spot(o, "c8") not in state.legal_actions()
    assert spot(o, "b7") in state.legal_actions()


def test_captives_leave_an_unguarded_lair_by_its_footprints(game: Game) -> None:
    """'Explorers may escape from a lair by following the footprint spaces.': out of the lair
    d5 with its dinosaur away, the first step is onto one of its footprints."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][1] = spot(o, "a2")
        put(o, 0, 0, spot(o, "d5"))
    state = moving(game, edit)
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    o = view(state)
    marks = o["board"]["footprints"][o["board"]["lairs"].index(spot(o, "d5"))]
    assert sorted(state.legal_actions()) == sorted(marks)


def test_the_pteranodon_never_drops_an_explorer_into_a_lair_even_an_empty_one(
        game: Game) -> None:
    """'It can't place an explorer on an occupied space, or in the dinosaur's lair.': the lair
    d5, its dinosaur away beside it, is neither safe for your own nor a danger to drop an
    opponent into."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][1] = spot(o, "d6")
        put(o, 1, 0, spot(o, "e3"))
    state = at_draw(game, edit)
    state.apply_action(CARD["pteranodon"])
    mine = state.clone()
    mine.apply_action(pick(0, 0))
    o = view(state)
    lairs = set(o["board"]["lairs"])
    assert not lairs & set(mine.legal_actions())
    state.apply_action(pick(1, 0))
    assert not lairs & set(state.legal_actions())
    assert spot(o, "c7") in state.legal_actions()        # land beside the dinosaur


# --- the rulebook's worked examples ------------------------------------------------------------

def test_the_lava_figure_a_to_f_then_g_then_three_h_pieces_split(game: Game) -> None:
    """'The first lava piece (A) is placed in the tip of the volcanic cone, then the next 5
    pieces (B - F). In the valley, the lava pieces must connect to adjacent lava pieces. The
    first piece to touch the valley is (G), the 3 (H) pieces can be split as long as they are
    adjacent to other pieces': seven eruptions lay A to F and G one each; the eighth lays the
    three H pieces, here on two sides of G, apart from each other."""
    state = at_draw(game, lambda o: None)
    board = view(state)["board"]
    for count in range(1, 8):
        state.apply_action(CARD["volcano"])
        o = view(state)
        laid = [*board["volcano_slope"], board["lava_start"]][:count]
        assert o["lava"] == sorted(laid) and o["lava_placed"] == count
        finish_turn(state)
        state.apply_action(CARD["swamp-monster" if count < 7 else "pteranodon"])  # seat 1's
        finish_turn(state)
    o = view(state)                                     # all seven cards are out: one of
    o["deck"]["volcano"], o["discards"]["volcano"] = 1, 6   # them reshuffled into the deck
    state = game.state_from_observation(o, random.Random(0))
    state.apply_action(CARD["volcano"])
    o = view(state)
    assert phase(state) == "lava-place" and o["now"]["lava_left"] == 3
    assert names(o, state.legal_actions()) == ["c9", "d10", "d8", "e10", "e9"]
    state.apply_action(spot(o, "c9"))
    state.apply_action(spot(o, "d10"))                 # not next to c9: split
    assert spot(o, "d10") not in o["board"]["neighbors"][spot(o, "c9")]
    state.apply_action(spot(o, "e10"))
    obs = view(state)
    assert obs["lava_placed"] == 10 and obs["phase"] == "move-pick"


def test_three_bullets_move_one_dinosaur_three_spaces(game: Game) -> None:
    """'E.g.: Three bullets can be used to move a dinosaur 3 spaces': three shots at the same
    dinosaur, one space each, and the bullets go back to the sheet."""
    def edit(o: Obs) -> None:
        armed(o, 0, 3)
        o["dinosaurs"][0] = spot(o, "e3")
    state = moving(game, edit)
    o = view(state)
    path = ["e4", "e5", "e6"]
    for name in path:
        state.apply_action(SHOOT + 0)
        assert spot(o, name) in state.legal_actions()
        state.apply_action(spot(o, name))
    obs = view(state)
    assert obs["dinosaurs"][0] == spot(o, "e6")
    assert obs["players"][0]["bullets"] == 0 and obs["bullet_supply"] == 12
    assert phase(state) == "move-pick" and not [a for a in state.legal_actions()
                                                if SHOOT <= a < SHOOT + 6]


# --- the documented interface ------------------------------------------------------------------

def test_lava_is_listed_by_index_and_set_up_in_any_order(game: Game) -> None:
    """README: the observation's ``lava`` lists the covered spaces by increasing index, not in
    the order laid ('The first lava piece (A) is placed in the tip of the volcanic cone, then
    the next 5 pieces (B - F)': A is not first in it), and a position takes them in any
    order. The README said ``lava`` lists 'the first ones on volcano_slope in its order'."""
    def edit(o: Obs) -> None:
        lava_to_g(o, "d8")
        o["lava"].reverse()
    state = at_draw(game, edit)
    o = view(state)
    board = o["board"]
    laid = [*board["volcano_slope"], board["lava_start"], spot(o, "d8")]
    assert o["lava"] == sorted(laid) and o["lava"] != laid
    assert o["lava_placed"] == 8
