"""Lost Valley of the Dinosaurs, eighth rulebook pass: the readings earlier passes left open.

Each scenario is built through the documented public surface only (engines/dinosaurs/README.md):
the registry's ``Game``, action ids, ``observation`` and ``Game.state_from_observation`` on an
edited observation. No engine module is imported. Each test quotes the rulebook sentence
(rules/lost-valley-of-the-dinosaurs.txt) it checks; tests/engines/RULES-COVERAGE-dinosaurs.md
names them in its rows, and RULINGS.md ("Eighth pass") gives the readings.
"""

from __future__ import annotations

import pytest
from test_dinosaurs_blackbox import CARD, NAME, Obs, dice, die, phase, put, view
from test_dinosaurs_rulebook_pass3 import DONE, PATH, SHOOT, at_draw, pick
from test_dinosaurs_rulebook_pass4 import armed, spot

from arena.game import CHANCE, Game
from arena.plugins import require_registry


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def only_g_coin_left(o: Obs) -> None:
    """Every coin but one brought out (a game of 7, seats 0 and 1 at 6 and 5, any others at 0),
    the last one lying on G (d9) with the slope A-F out of the cone: the next eruption puts G
    on it."""
    board = o["board"]
    o["coins_to_win"] = 7
    o["players"][0]["coins_out"], o["players"][1]["coins_out"] = 6, 5
    o["temple_coins"] = 0
    o["coins"] = [[board["lava_start"], 1]]
    o["lava"], o["lava_placed"] = list(board["volcano_slope"]), 6
    put(o, 0, 0, spot(o, "b6"))


# --- "impossible to claim any more treasure coins" ------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_coin_buried_under_g_ends_the_match_as_no_coin_left(game: Game, players: int) -> None:
    """'If the game ends because all explorers have died or it's impossible to claim any more
    treasure coins, ... the winner is the player with the most coins'. G is the first piece to
    touch the valley and is never repositioned (ruling 15): a coin lying under it can never be
    landed on ('No explorer ... may land on, or pass over a space occupied by lava'), so with it
    the last one, claiming any more is impossible and the match ends when the turn does."""
    state = at_draw(game, only_g_coin_left, players=players)
    state.apply_action(CARD["volcano"])                     # G falls on the last coin
    o = view(state)
    assert o["board"]["lava_start"] in o["lava"] and o["coins"] == [[o["board"]["lava_start"], 1]]
    assert phase(state) == "move-pick"
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    state.apply_action(spot(o, "b7"))
    end = view(state)
    assert state.is_terminal()
    assert (end["end_reason"], end["winner"]) == ("no-coins", 0)
    assert list(state.scores()) == [6, 5] + [0] * (players - 2)
    assert list(state.ranking()) == [0, 1] + [2] * (players - 2)  # the rest tie: 0 coins, 4 alive


def test_a_draw_with_only_a_coin_under_g_left_is_refused(game: Game) -> None:
    """The same sentence, at the position check (README, 'Setting up a position': a draw needs a
    coin still to be brought out): a coin under the lava on G is none, and the refusal says so;
    the same coin beside G, on d10 under lava that may still be lifted, is one."""
    def buried(o: Obs) -> None:
        only_g_coin_left(o)
        o["lava"].append(o["board"]["lava_start"])
        o["lava_placed"] = 7
    with pytest.raises(ValueError, match="no coin is left to bring out"):
        at_draw(game, buried)

    def beside(o: Obs) -> None:
        buried(o)
        o["coins"] = [[spot(o, "d10"), 1]]
        o["lava"].append(spot(o, "d10"))
        o["lava_placed"] = 8
    state = at_draw(game, beside)
    assert state.current_player() == CHANCE and not state.is_terminal()



# 23 valley pieces joined to G (d9), the last one, d12, at the flow's end: all 30 are out.
FLOW = ("c9", "d8", "d10", "e9", "e10", "b8", "b9", "c8", "d7", "e8", "d11", "e11", "f8", "f9",
        "f10", "a8", "a9", "b7", "c7", "d6", "e7", "f7", "d12")


def test_a_coin_under_lava_that_may_be_repositioned_is_claimed_once_it_moves(game: Game) -> None:
    """The other side of the same reading: 'When all 30 pieces of lava have been placed on the
    board, you may then reposition three pieces of lava', so a coin under a piece other than G
    is not lost for good. With all 30 out and a coin under d12, an eruption lifts d12 away, and
    explorer 0 beside it lands on the coin by exact count ('An explorer may claim abandoned
    treasure by landing on it by exact count')."""
    def edit(o: Obs) -> None:
        board = o["board"]
        o["lava"] = [*board["volcano_slope"], board["lava_start"], *(spot(o, n) for n in FLOW)]
        o["lava_placed"] = 30
        o["coins"] = [[spot(o, "d12"), 1]]
        o["temple_coins"] -= 1
        put(o, 0, 0, spot(o, "e12"))
    state = at_draw(game, edit)
    o = view(state)
    assert len(o["lava"]) == 30
    state.apply_action(CARD["volcano"])
    assert phase(state) == "lava-lift" and spot(o, "d12") in state.legal_actions()
    assert o["board"]["lava_start"] not in state.legal_actions()   # G never moves
    state.apply_action(spot(o, "d12"))
    drop = next(space for space in state.legal_actions() if space != spot(o, "d12"))
    state.apply_action(drop)
    state.apply_action(DONE)                                        # no more repositioning
    assert phase(state) == "move-pick" and view(state)["coins"] == [[spot(o, "d12"), 1]]
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    state.apply_action(spot(o, "d12"))
    after = view(state)
    assert after["players"][0]["carrying"][0] is True and after["coins"] == []

# --- the secret path into the temple (ruling 24) --------------------------------------------------

def test_arriving_in_the_temple_by_the_secret_path_ends_nothing(game: Game) -> None:
    """'An exact dice roll isn't needed to enter, but your turn will end' is said of the walk in
    from an arrow (the roll it spares); 'You may use this card as an additional action to go
    directly to the Temple'. Explorer 0 walks onto the cave e1 by count, takes the path after the
    move, arrives in the temple with a coin from the roof, and its seat may still fire the
    bullet it holds: the arrival did not end the turn (walking in would have)."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "e2"))
        armed(o, 0, 1)
        o["deck"]["secret-path"] -= 1
        o["players"][0]["secret_paths"] = 1
    state = at_draw(game, edit)
    state.apply_action(CARD["escape-swamp"])                # nobody in the swamp: nothing
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    o = view(state)
    state.apply_action(spot(o, "e1"))
    assert phase(state) == "after-move" and PATH + 0 in state.legal_actions()
    state.apply_action(PATH + 0)
    after = view(state)
    assert after["players"][0]["explorers"][0] == o["board"]["temple"]
    assert after["players"][0]["carrying"][0] is True and after["temple_coins"] == 11
    assert phase(state) == "after-move" and after["turn"] == 0
    assert any(SHOOT <= action < SHOOT + 6 for action in state.legal_actions())
    assert DONE in state.legal_actions()


# --- Short of Water and the turn's move (ruling 23) -----------------------------------------------

def test_the_water_run_is_the_cards_and_the_turns_move_still_follows(game: Game) -> None:
    """'Each turn always consists of two parts: Take a card ... and follow the instructions' /
    'EITHER move any ONE of your explorers'. The run is the card's instruction, the first part;
    the move is the second and stays compulsory ('done' is not offered while an explorer can
    move), by any of the drawer's explorers: in three players, seat 1's runner reaches the
    crossing c8, and its explorer outside the valley may make the move on a die instead."""
    def edit(o: Obs) -> None:
        put(o, 1, 0, spot(o, "b6"))
    state = at_draw(game, edit, players=3, starter=1)
    state.apply_action(CARD["short-of-water"])
    state.apply_action(pick(1, 0))
    state.apply_action(dice(6))
    o = view(state)
    state.apply_action(spot(o, "b7"))
    state.apply_action(spot(o, "c8"))
    assert phase(state) == "move-pick" and view(state)["player"] == 1
    legal = state.legal_actions()
    assert DONE not in legal
    assert {pick(1, k) for k in range(4)} <= set(legal)
    state.apply_action(pick(1, 2))
    assert sorted(dict(state.chance_outcomes())) == [die(face) for face in range(1, 7)]


# --- Escape from the Swamp (ruling 19) ------------------------------------------------------------

def test_escape_puts_the_explorer_only_on_the_dry_land_just_beyond_its_nearest_exit(
        game: Game) -> None:
    """'The player may place an explorer on any space beyond his nearest exit from the swamp.'
    'beyond' ties the spaces to that exit: the dry land an explorer steps onto from it ('until
    they reach dry land beyond the blue arrows'), 'any' of those; not anywhere in the valley.
    In four players seat 2's explorer on k3 is two grey arrows from the exit i4 and three from
    j0: h4 and i5 are offered, j4 (a dinosaur on it) and every space further on are not, and
    the opponent on the ring is not the drawer's to take out."""
    def edit(o: Obs) -> None:
        put(o, 2, 0, spot(o, "k3"))
        put(o, 3, 0, spot(o, "k2"))
        o["dinosaurs"][4] = spot(o, "j4")
    state = at_draw(game, edit, players=4, starter=2)
    state.apply_action(CARD["escape-swamp"])
    assert sorted(state.legal_actions()) == [DONE, pick(2, 0)]
    state.apply_action(pick(2, 0))
    o = view(state)
    assert sorted(state.legal_actions()) == sorted([spot(o, "h4"), spot(o, "i5")])
    state.apply_action(spot(o, "i5"))
    assert view(state)["players"][2]["explorers"][0] == spot(o, "i5")
    assert phase(state) == "move-pick"


def test_the_dinosaur_on_the_exits_land_closes_it_and_the_card_does_nothing(game: Game) -> None:
    """The same sentence with every space beyond the nearest exit held: from i1, one grey arrow
    from j0, the only dry land beyond j0 is i0; a dinosaur there leaves nowhere 'beyond his
    nearest exit' (the farther exit i4 is not his nearest), so the card offers only to decline."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "i1"))
        o["dinosaurs"][0] = spot(o, "i0")
    state = at_draw(game, edit)
    state.apply_action(CARD["escape-swamp"])
    assert phase(state) == "move-pick"
    assert view(state)["players"][0]["explorers"][0] == spot(view(state), "i1")
    assert pick(0, 0) in state.legal_actions()        # the move: one grey arrow, no dice
