"""Lost Valley of the Dinosaurs, third rulebook pass: black-box scenarios and a checker.

Everything here goes through the documented public surface only (engines/dinosaurs/README.md):
the registry's ``Game``, action ids, ``observation`` and ``Game.state_from_observation`` on an
edited observation. No engine module is imported. Each test quotes the rulebook sentence
(rules/lost-valley-of-the-dinosaurs.txt) or the ruling (RULINGS.md) it checks; the rows of
tests/engines/RULES-COVERAGE-dinosaurs.md name them. The last test is a small independent
checker of the choices cards and turns offer, written from the rulebook and the rulings, run
against the engine over random matches.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_dinosaurs_blackbox import (  # action ids and position helpers, as the README gives them
    CARD,
    KINDS,
    NAME,
    RULEBOOK_COUNTS,
    Obs,
    die,
    first,
    phase,
    put,
    view,
)

from arena.game import CHANCE, Game, State
from arena.plugins import require_registry

PICK, DINO, SHOOT, PATH = 162, 178, 184, 190
LEAVE, DONE = 160, 161
DRY = frozenset({"land", "entry", "crossing", "footprint", "temple-arrow", "cave", "ammo-dump"})
SWAMPY = frozenset({"swamp", "inner-swamp"})
NO_DINOSAUR = frozenset({"swamp", "inner-swamp", "temple", "slope"})


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def pick(seat: int, k: int) -> int:
    return PICK + seat * 4 + k


def at_draw(game: Game, edit: Callable[[Obs], None], players: int = 2, starter: int = 0,
            options: dict[str, Any] | None = None) -> State:
    """``starter``'s card is to be drawn, in the position ``edit`` sets on the observation."""
    state = game.new_initial_state(players, options)
    state.apply_action(first(starter))
    obs = view(state, starter)
    edit(obs)
    return game.state_from_observation(obs, random.Random(0))


def space_named(state: State, name: str) -> int:
    return int(state.observation(0)["board"]["names"].index(name))


# --- setting up a position (README, "Setting up a position") -------------------------------

def test_a_draw_with_the_deck_depleted_takes_back_the_discards(game: Game) -> None:
    """'In the event the adventure cards are depleted, reshuffle the discard pile and continue
    to use them as the new draw deck.' Set up at a draw node, as the README says, with every
    card on the discard pile: the draw is over the discards (it had no outcome at all, a chance
    node nobody could leave)."""
    def depleted(o: Obs) -> None:
        o["discards"] = dict(RULEBOOK_COUNTS)
        o["deck"] = dict.fromkeys(KINDS, 0)
    state = at_draw(game, depleted)
    assert state.current_player() == CHANCE and not state.is_terminal()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {CARD[k]: pytest.approx(n / 54) for k, n in RULEBOOK_COUNTS.items()}
    obs = state.observation(0)
    assert obs["deck"] == RULEBOOK_COUNTS and not any(obs["discards"].values())
    state.apply_action(CARD["swamp-monster"])
    assert state.observation(0)["discards"]["swamp-monster"] == 1


def test_kept_cards_stay_out_of_a_depleted_deck_set_up_at_a_draw(game: Game) -> None:
    """Ruling 4: kept cards stay with their holders and are not shuffled back."""
    def depleted(o: Obs) -> None:
        o["discards"] = dict(RULEBOOK_COUNTS, gun=1)
        o["deck"] = dict.fromkeys(KINDS, 0)
        o["players"][1]["guns"] = 1
    state = at_draw(game, depleted)
    assert dict(state.chance_outcomes())[CARD["gun"]] == pytest.approx(1 / 53)


def _refused(game: Game, edit: Callable[[Obs], None], words: str) -> None:
    state = game.new_initial_state(2)
    state.apply_action(first(0))
    obs = view(state)
    edit(obs)
    with pytest.raises(ValueError, match=words):
        game.state_from_observation(obs, random.Random(0))


def _all_dead(seat: int) -> Callable[[Obs], None]:
    def edit(o: Obs) -> None:
        o["players"][seat]["explorers"] = [-2] * 4
    return edit


def test_a_seat_with_no_explorer_left_is_never_set_to_draw(game: Game) -> None:
    """Ruling 5: 'A seat whose four explorers are all dead takes no more turns (it draws no
    card).' A draw node for such a seat is a position the rules never reach: refused, not
    played (it used to draw a card and play a turn with nobody)."""
    _refused(game, _all_dead(0), "no explorer alive")
    _refused(game, lambda o: (_all_dead(0)(o), _all_dead(1)(o)), "no explorer alive")


def test_a_match_already_won_or_ended_is_not_set_up_as_going_on(game: Game) -> None:
    """'The first player to bring the required number of treasure coins out of the valley ...
    wins the game' (at once, ruling 14); ruling 26 ends the match when no coin is left to bring
    out, or after 600 turns. A draw after any of these is refused (it used to play on)."""
    def won(o: Obs) -> None:
        o["players"][1]["coins_out"] = 1
        o["temple_coins"] -= 1
    _refused(game, won, "the match is over")

    def no_coin(o: Obs) -> None:
        o["coins_to_win"] = 12
        o["players"][0]["coins_out"], o["players"][1]["coins_out"] = 6, 6
        o["temple_coins"] = 0
    _refused(game, no_coin, "no coin is left")

    def bound(o: Obs) -> None:
        o["turn"] = 600
    _refused(game, bound, "600 turns")

    def no_target(o: Obs) -> None:
        o["coins_to_win"] = 0
    _refused(game, no_target, "coins_to_win")


def test_a_coin_is_never_left_lying_in_the_temple(game: Game) -> None:
    """Ruling 13: 'A coin abandoned in the temple ... goes back on the roof'. A coin set down
    on the temple space could never be claimed (arriving takes from the roof): refused, with
    the roof named."""
    def in_temple(o: Obs) -> None:
        o["coins"] = [[o["board"]["temple"], 1]]
        o["temple_coins"] -= 1
    _refused(game, in_temple, "roof")

    def in_lair(o: Obs) -> None:
        o["coins"] = [[o["board"]["lairs"][0], 1]]
        o["temple_coins"] -= 1
    _refused(game, in_lair, "lair")


# --- Volcano Erupts! on a board of your own ---------------------------------------------------

SHIPPED_BOARD = Path(__file__).resolve().parents[2] / "engines" / "dinosaurs" / "board.toml"


def _slope_beside(tmp_path: Path, valley: str, slope: str) -> str:
    """The shipped board with valley space ``valley`` drawn next to slope space ``slope`` (as a
    hex grid would draw them): a board the README's ``board`` option accepts."""
    text = SHIPPED_BOARD.read_text()
    for here, there in ((valley, slope), (slope, valley)):
        head = f'{{ id = "{here}", '
        start = text.index(head)
        close = text.index("] }", start)
        text = text[:close] + f', "{there}"' + text[close:]
    path = tmp_path / "board.toml"
    path.write_text(text)
    return str(path)


def test_valley_lava_spreads_from_g_not_from_the_slope_beside_it(game: Game,
                                                                 tmp_path: Path) -> None:
    """'In the valley, the lava pieces must connect to adjacent lava pieces. The first piece to
    touch the valley is (G)' and 'The lava must always remain a coherent structure.' On a board
    where a valley space also touches slope piece B, lava in the valley still spreads from G:
    that space is not offered (it was, and the flow it made was one the engine's own position
    check refused, so a search bot rebuilding the state failed)."""
    board = _slope_beside(tmp_path, "a9", "a10")

    def at_g(o: Obs) -> None:
        o["lava"] = [*o["board"]["volcano_slope"], o["board"]["lava_start"]]
        o["lava_placed"] = 7
    state = at_draw(game, at_g, options={"board": board})
    state.apply_action(CARD["volcano"])
    names = state.observation(0)["board"]["names"]
    offered = {names[s] for s in state.legal_actions()}
    assert "a9" not in offered and offered == {"c9", "d8", "d10", "e9", "e10"}
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    game.state_from_observation(view(state), random.Random(0))  # the flow is whole


# --- scenarios the earlier passes checked only from inside the engine -------------------------

def finish_turn(state: State) -> None:
    """The seat on move ends its turn: 'done' where offered, else its first choice (an
    explorer outside walks in on a 1)."""
    turn = state.observation(0)["turn"]
    for _ in range(100):
        if state.is_terminal() or state.observation(0)["turn"] > turn:
            return
        if state.current_player() == CHANCE:
            state.apply_action(state.legal_actions()[0])
        else:
            legal = state.legal_actions()
            state.apply_action(DONE if DONE in legal else legal[0])
    raise AssertionError("the turn did not end")


def grow_flow(o: Obs, valley_pieces: int) -> list[int]:
    """Lava out of the cone: the slope A-F, G, then ``valley_pieces`` more joined to G (nearest
    first), never on a dinosaur."""
    board = o["board"]
    allowed = set(board["lava_spaces"]) - set(o["dinosaurs"])
    flow, frontier = [board["lava_start"]], [board["lava_start"]]
    while len(flow) < 1 + valley_pieces:
        here = frontier.pop(0)
        for n in board["neighbors"][here]:
            if n in allowed and n not in flow and len(flow) < 1 + valley_pieces:
                flow.append(n)
                frontier.append(n)
    o["lava"] = [*board["volcano_slope"], *flow]
    o["lava_placed"] = len(o["lava"])
    return flow


def test_the_last_two_lava_pieces_then_repositioning(game: Game) -> None:
    """'30 Red Lava Pieces' / 'at which time three pieces are placed' / 'When all 30 pieces of
    lava have been placed on the board, you may then reposition three pieces': with 28 out an
    eruption has only 2 left to place; the next eruption lifts instead."""
    state = at_draw(game, lambda o: grow_flow(o, 21))
    assert state.observation(0)["lava_placed"] == 28
    state.apply_action(CARD["volcano"])
    for _ in range(2):
        assert phase(state) == "lava-place"
        state.apply_action(state.legal_actions()[0])
    obs = state.observation(0)
    assert obs["phase"] == "move-pick" and obs["lava_placed"] == 30 and len(obs["lava"]) == 30
    finish_turn(state)
    state.apply_action(CARD["volcano"])
    assert phase(state) == "lava-lift" and len(state.observation(0)["lava"]) == 30


def test_at_most_three_pieces_are_repositioned_each_eruption(game: Game) -> None:
    """'you may then reposition three pieces of lava ... (each time you draw a "volcano erupts"
    card)': after the third piece is dropped the eruption is over, the flow still whole and
    still 30 pieces."""
    state = at_draw(game, lambda o: grow_flow(o, 23))
    state.apply_action(CARD["volcano"])
    for _ in range(3):
        assert phase(state) == "lava-lift"
        state.apply_action(state.legal_actions()[0])
        assert phase(state) == "lava-drop"
        state.apply_action(state.legal_actions()[-1])
    obs = view(state)
    assert obs["phase"] == "move-pick" and len(obs["lava"]) == 30
    game.state_from_observation(obs, random.Random(0))  # one coherent structure


def test_lava_with_no_room_next_to_it_stays_in_the_cone(game: Game) -> None:
    """'Lava must always be placed on spaces adjacent to previously laid lava' and no dinosaur
    'may land on' lava: with dinosaurs on every valley space next to G the eruption's three
    pieces stay in the cone (ruling 15)."""
    def boxed(o: Obs) -> None:
        grow_flow(o, 0)
        board = o["board"]
        valley = set(board["lava_spaces"])
        around = [n for n in board["neighbors"][board["lava_start"]] if n in valley]
        o["dinosaurs"][:len(around)] = around
    state = at_draw(game, boxed)
    state.apply_action(CARD["volcano"])
    obs = state.observation(0)
    assert obs["phase"] == "move-pick" and obs["lava_placed"] == 7 and len(obs["lava"]) == 7
    assert obs["discards"]["volcano"] == 1


def test_a_dinosaur_on_g_dams_the_flow_until_it_leaves(game: Game) -> None:
    """'The first piece to touch the valley is (G)' and no dinosaur 'may land on' lava: with a
    dinosaur on G the seventh eruption puts nothing; once it has gone, the next puts G alone
    (ruling 15)."""
    def dammed(o: Obs) -> None:
        o["lava"] = list(o["board"]["volcano_slope"])
        o["lava_placed"] = 6
        o["dinosaurs"][0] = o["board"]["lava_start"]
    state = at_draw(game, dammed)
    state.apply_action(CARD["volcano"])
    obs = view(state)
    assert obs["phase"] == "move-pick" and obs["lava_placed"] == 6
    obs["phase"], obs["now"]["card"] = "draw", None
    obs["dinosaurs"][0] = obs["board"]["lairs"][0]
    state = game.state_from_observation(obs, random.Random(0))
    state.apply_action(CARD["volcano"])
    obs = view(state)
    assert obs["lava_placed"] == 7 and obs["board"]["lava_start"] in obs["lava"]
    assert obs["phase"] == "move-pick"


def _beside_dump(o: Obs) -> tuple[int, int]:
    """An ammunition dump and a plain land space next to it."""
    board = o["board"]
    dump = board["ammo_dumps"][0]
    beside = next(n for n in board["neighbors"][dump] if board["terrain"][n] == "land")
    return dump, beside


def test_bullets_run_out_on_the_sheet(game: Game) -> None:
    """'Bullets' on the press-out sheet (12) / 'bullets can now be taken when you land on an
    ammo dump space' (ruling 3: three, fewer if the supply runs low)."""
    spots: dict[str, int] = {}

    def armed(o: Obs) -> None:
        spots["dump"], spots["beside"] = _beside_dump(o)
        put(o, 0, 0, spots["beside"])
        o["deck"]["gun"] -= 2
        o["players"][0]["guns"] = o["players"][1]["guns"] = 1
        o["players"][1]["bullets"], o["bullet_supply"] = 10, 2
    state = at_draw(game, armed)
    state.apply_action(CARD["dinosaurs-fight"])
    state.apply_action(pick(0, 0))
    state.apply_action(die(1))
    state.apply_action(spots["dump"])
    obs = state.observation(0)
    assert obs["players"][0]["bullets"] == 2 and obs["bullet_supply"] == 0


def test_passing_over_an_ammo_dump_takes_no_bullets(game: Game) -> None:
    """'bullets can now be taken when you land on an ammo dump space': landing, not passing."""
    spots: dict[str, int] = {}

    def armed(o: Obs) -> None:
        spots["dump"], spots["beside"] = _beside_dump(o)
        put(o, 0, 0, spots["beside"])
        o["deck"]["gun"] -= 1
        o["players"][0]["guns"] = 1
    state = at_draw(game, armed)
    state.apply_action(CARD["dinosaurs-fight"])
    state.apply_action(pick(0, 0))
    state.apply_action(die(2))
    state.apply_action(spots["dump"])
    state.apply_action(state.legal_actions()[0])
    obs = state.observation(0)
    assert obs["players"][0]["explorers"][0] != spots["dump"]
    assert obs["players"][0]["bullets"] == 0 and obs["bullet_supply"] == 12


def test_any_number_of_explorers_of_any_seat_in_the_temple(game: Game) -> None:
    """'Any number of explorers may be there at the same time.' One of each seat is inside;
    a third walks in, takes a coin and ends the turn; none is moved out."""
    def crowd(o: Obs) -> None:
        temple = o["board"]["temple"]
        put(o, 1, 0, temple, carrying=True)
        put(o, 0, 1, temple, carrying=True)
        put(o, 0, 0, o["board"]["temple_arrows"][0])
    state = at_draw(game, crowd)
    state.apply_action(CARD["dinosaurs-fight"])
    state.apply_action(pick(0, 0))
    state.apply_action(die(4))
    temple = state.observation(0)["board"]["temple"]
    assert temple in state.legal_actions()
    state.apply_action(temple)
    obs = state.observation(0)
    assert obs["player"] == 1 and obs["phase"] == "draw"
    assert [obs["players"][0]["explorers"][0], obs["players"][0]["explorers"][1],
            obs["players"][1]["explorers"][0]] == [temple] * 3
    assert obs["players"][0]["carrying"][:2] == [True, True] and obs["temple_coins"] == 9


def test_the_pteranodon_carries_one_explorer_and_nothing_else(game: Game) -> None:
    """'It always returns to its nest after use, but never with explorers, dinosaurs, lava,
    etc.': the swoop moves the one explorer chosen; every other piece stays put."""
    def table(o: Obs) -> None:
        grow_flow(o, 3)
        put(o, 1, 2, 52)
        put(o, 0, 3, 53)
    state = at_draw(game, table)
    before = view(state)
    state.apply_action(CARD["pteranodon"])
    state.apply_action(pick(1, 2))
    state.apply_action(state.legal_actions()[0])
    after = view(state)
    assert after["players"][1]["explorers"][2] != 52
    after["players"][1]["explorers"][2] = 52
    for key in ("dinosaurs", "lava", "swamp_monster", "coins", "temple_coins"):
        assert after[key] == before[key], key
    assert [p["explorers"] for p in after["players"]] == \
        [p["explorers"] for p in before["players"]]


def test_dinosaur_attack_by_exact_count_into_a_lair_eats_its_captives(game: Game) -> None:
    """'All captured explorers there are eaten alive! (including any already in the lair).'
    (ruling 21): a dinosaur coming home by exact count, carrying nobody, finds captives of
    both seats in its unguarded lair, and they are eaten."""
    spots: dict[str, int] = {}

    def held(o: Obs) -> None:
        board = o["board"]
        spots["lair"] = lair = board["lairs"][0]
        spots["mark"] = mark = board["footprints"][0][0]
        o["dinosaurs"][0] = mark
        put(o, 0, 1, lair)
        put(o, 1, 0, lair)
    state = at_draw(game, held)
    state.apply_action(CARD["dinosaur-attack"])
    state.apply_action(DINO + 5)  # the one that moves 3, far away
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert phase(state) == "dinosaur-pick"
    state.apply_action(DINO + 0)
    assert spots["lair"] in state.legal_actions()
    state.apply_action(spots["lair"])
    obs = state.observation(0)
    assert obs["players"][0]["explorers"][1] == -2 and obs["players"][1]["explorers"][0] == -2


def test_the_secret_path_is_not_taken_back_the_same_turn(game: Game) -> None:
    """'Travel is one way only, discard after using.' Holding both cards, an explorer that came
    into the temple by the path may not go straight back out by it; another explorer in the
    temple may (ruling 24)."""
    def paths(o: Obs) -> None:
        board = o["board"]
        put(o, 0, 0, board["caves"][0])
        put(o, 0, 1, board["temple"], carrying=True)
        o["deck"]["secret-path"] -= 2
        o["players"][0]["secret_paths"] = 2
    state = at_draw(game, paths)
    state.apply_action(CARD["dinosaurs-fight"])
    assert {PATH + 0, PATH + 1} <= set(state.legal_actions())
    state.apply_action(PATH + 0)
    obs = state.observation(0)
    assert obs["players"][0]["explorers"][0] == obs["board"]["temple"]
    assert obs["players"][0]["carrying"][0] and obs["discards"]["secret-path"] == 1
    assert PATH + 0 not in state.legal_actions() and PATH + 1 in state.legal_actions()


def test_the_monster_and_the_lava_hit_every_seat_on_the_space_together(game: Game) -> None:
    """'If the Monster lands on a space with an explorer, they are eaten' / 'If lava is placed
    on a space with an explorer, they die': explorers of both seats on one space go together,
    and the carriers' coins stay there (ruling 17)."""
    def shared(o: Obs) -> None:
        ring = o["board"]["swamp_ring"]
        o["swamp_monster"] = ring[0]
        put(o, 0, 0, ring[1], carrying=True)
        put(o, 1, 0, ring[1], carrying=True)
    state = at_draw(game, shared)
    state.apply_action(CARD["swamp-monster"])
    obs = state.observation(0)
    ring = obs["board"]["swamp_ring"]
    assert obs["players"][0]["explorers"][0] == obs["players"][1]["explorers"][0] == -2
    assert [ring[1], 2] in obs["coins"]

    spots: dict[str, int] = {}

    def under(o: Obs) -> None:
        grow_flow(o, 0)
        board = o["board"]
        spots["next"] = nxt = next(n for n in board["neighbors"][board["lava_start"]]
                                   if n in board["lava_spaces"])
        put(o, 0, 1, nxt)
        put(o, 1, 1, nxt)
    state = at_draw(game, under)
    state.apply_action(CARD["volcano"])
    state.apply_action(spots["next"])
    obs = state.observation(0)
    assert obs["players"][0]["explorers"][1] == obs["players"][1]["explorers"][1] == -2


def test_lava_maroons_captives_in_an_unguarded_lair(game: Game) -> None:
    """'Lava can maroon dinosaurs and explorers, cut off river crossings, dinosaur lairs':
    a captive whose lair has lava on both footprints cannot walk out, though its dinosaur is
    away ('Rolling the dice and moving when the dinosaur is absent' needs a way out)."""
    def marooned(o: Obs) -> None:
        board = o["board"]
        lair, marks = board["lairs"][0], board["footprints"][0]
        o["dinosaurs"][0] = 52
        near = board["neighbors"]
        allowed = set(board["lava_spaces"]) - set(o["dinosaurs"])
        # the shortest lava path from G to each footprint
        flow = [board["lava_start"]]
        for mark in marks:
            back = {board["lava_start"]: -1}
            todo = [board["lava_start"]]
            while mark not in back:
                here = todo.pop(0)
                for n in near[here]:
                    if n in allowed and n not in back:
                        back[n] = here
                        todo.append(n)
            step = mark
            while step != -1:
                if step not in flow:
                    flow.append(step)
                step = back[step]
        o["lava"] = [*board["volcano_slope"], *flow]
        o["lava_placed"] = len(o["lava"])
        put(o, 0, 0, lair)
    state = at_draw(game, marooned)
    state.apply_action(CARD["swamp-monster"])
    legal = state.legal_actions()
    assert pick(0, 0) not in legal and pick(0, 1) in legal


def test_four_players_play_round_the_table_past_a_seat_with_nobody_left(game: Game) -> None:
    """'Play continues to each player in a clockwise direction.' With four players the last
    seat hands over to the first, and a seat whose explorers are all dead is passed over
    (ruling 5)."""
    def seat_one_gone(o: Obs) -> None:
        o["players"][1]["explorers"] = [-2] * 4
    state = at_draw(game, seat_one_gone, players=4, starter=3)
    order = []
    for _ in range(4):
        order.append(state.observation(0)["player"])
        state.apply_action(CARD["swamp-monster"])
        finish_turn(state)
    assert order == [3, 0, 2, 3]



def test_every_test_the_coverage_map_names_exists() -> None:
    """RULES-COVERAGE-dinosaurs.md maps every rule to the tests that check it, named
    ``<file>::<test>`` for ``test_dinosaurs_<file>.py``: a renamed or deleted test would leave
    its rule unchecked without anyone noticing."""
    here = Path(__file__).resolve().parent
    table = (here / "RULES-COVERAGE-dinosaurs.md").read_text("utf-8")
    named = re.findall(r"\b([a-z_0-9]+)::(test_[A-Za-z_0-9]+|\*)", table)
    assert len(named) > 200
    missing = []
    for file, test in named:
        path = here / f"test_dinosaurs_{file}.py"
        if not path.exists() or (test != "*" and not re.search(
                rf"^def {test}\(", path.read_text("utf-8"), re.MULTILINE)):
            missing.append(f"{file}::{test}")
    assert not missing, missing



def test_an_empty_roof_gives_nothing_until_a_coin_comes_back(game: Game) -> None:
    """'Place all Treasure Coins on the top of the temple roof.' With the roof empty, an
    explorer walking in takes nothing (and its turn still ends); a carrier in the temple who
    falls into the swamp puts its coin back on the roof (ruling 13), where the next explorer
    to walk in takes it."""
    def bare(o: Obs) -> None:
        board = o["board"]
        put(o, 0, 0, board["temple_arrows"][0])
        put(o, 0, 1, board["temple_arrows"][1])
        put(o, 1, 0, board["temple"], carrying=True)
        o["coins"] = [[52, o["temple_coins"]]]
        o["temple_coins"] = 0
    state = at_draw(game, bare)
    temple = state.observation(0)["board"]["temple"]
    state.apply_action(CARD["dinosaurs-fight"])
    state.apply_action(pick(0, 0))
    state.apply_action(die(3))
    state.apply_action(temple)
    obs = state.observation(0)
    assert obs["players"][0]["explorers"][0] == temple and not obs["players"][0]["carrying"][0]
    assert obs["phase"] == "draw" and obs["player"] == 1 and obs["temple_coins"] == 0
    state.apply_action(CARD["falls-into-swamp"])
    state.apply_action(pick(1, 0))
    state.apply_action(state.legal_actions()[0])
    obs = state.observation(0)
    assert obs["temple_coins"] == 1 and not obs["players"][1]["carrying"][0]
    assert obs["players"][0]["carrying"][0] is False  # already inside: it did not arrive
    finish_turn(state)
    state.apply_action(CARD["dinosaurs-fight"])
    state.apply_action(pick(0, 1))
    state.apply_action(die(3))
    state.apply_action(temple)
    obs = state.observation(0)
    assert obs["players"][0]["carrying"][1] and obs["temple_coins"] == 0


# --- an independent checker: the choices a card or a turn offers ------------------------------
#
# Written from the rulebook and RULINGS.md only. The earlier passes check every *space* a piece
# may step to (test_dinosaurs_blackbox); this one checks the other choices: which explorers a
# turn or a card lets the drawer pick, which dinosaurs, which lava pieces may be lifted and where
# they may go, where an escaping explorer lands, the Short of Water run, the caves out of the
# temple, and the bullets and secret paths on offer before and after the move.

class Table:
    """What the checker reads from one observation, worked out once."""

    def __init__(self, o: Obs) -> None:
        self.o, self.board, self.now = o, o["board"], o["now"]
        self.terrain: list[str] = self.board["terrain"]
        self.near: list[list[int]] = self.board["neighbors"]
        self.lava = set(o["lava"])
        self.dinosaurs: list[int] = o["dinosaurs"]
        self.explorers = [at for p in o["players"] for at in p["explorers"]]
        self.seat: int = o["player"]
        self.taken = set(self.explorers) | set(self.dinosaurs) | {o["swamp_monster"]} | self.lava
        self.beside_dinosaurs = {s for d in self.dinosaurs for s in self.near[d]}

    def mine(self) -> list[tuple[int, int]]:
        """The drawer's explorers as (number, space)."""
        return [(self.seat * 4 + k, at)
                for k, at in enumerate(self.o["players"][self.seat]["explorers"])]

    def first_steps(self, here: int, barred: set[int], water_run: bool = False) -> list[int]:
        """'They may not move into a space occupied by a dinosaur or the swamp monster!', nor
        lava, a lair or the swamp; the temple from its arrows (not on the water run); 'via the
        grey arrows' in the swamp."""
        terrain = self.terrain
        spaces = self.board["entries"] if here == -1 else self.near[here]
        in_swamp = here >= 0 and terrain[here] in SWAMPY
        return [s for s in spaces
                if s not in barred and s not in self.lava and s not in self.dinosaurs
                and s != self.o["swamp_monster"]
                and (terrain[s] in DRY or terrain[s] == "river"
                     or (terrain[s] == "temple" and not water_run)
                     or (in_swamp and terrain[s] == "swamp"))]

    def dinosaur_can_go(self, dinosaur: int, count: int) -> bool:
        """'they can't cross lava, enter the Swamp or the Temple'; 'BY EXACT COUNT into any
        lair'; 'may never share any space with another dinosaur'."""
        return any(self.terrain[s] not in NO_DINOSAUR and s not in self.lava
                   and s not in self.dinosaurs and (self.terrain[s] != "lair" or count == 1)
                   for s in self.near[self.dinosaurs[dinosaur]])

    def free_caves(self) -> list[int]:
        return [c for c in self.board["caves"] if c not in self.lava and c not in self.dinosaurs]

    def extras(self) -> list[int]:
        """'Bullets can be used before or after you move an explorer' (one space each), while
        the seat has an explorer to use them; the secret path from a cave, or out of the
        temple to a free cave, not back the same turn."""
        me = self.o["players"][self.seat]
        offered = []
        if me["bullets"] and any(at != -2 for at in me["explorers"]):
            offered += [SHOOT + d for d in range(len(self.dinosaurs)) if self.dinosaur_can_go(d, 1)]
        if me["secret_paths"]:
            for number, at in self.mine():
                if number == self.now["path_explorer"] or at < 0:
                    continue
                if self.terrain[at] == "cave" or (at == self.board["temple"]
                                                  and self.free_caves()):
                    offered.append(PATH + number % 4)
        return offered

    def move_pick(self) -> list[int]:
        """'move any ONE of your explorers': one not dead, not held in a guarded lair, with a
        step to take or standing on an entry arrow to leave by; 'done' only if none can."""
        movers = [PICK + number for number, at in self.mine()
                  if at != -2 and not (at >= 0 and self.terrain[at] == "lair"
                                       and at in self.dinosaurs)
                  and ((at >= 0 and at in self.board["entries"])
                       or self.first_steps(at, set(self.now["walked"][number])))]
        extras = self.extras()
        if movers:
            return movers + extras
        return [DONE, *extras] if extras else []

    def pteranodon_pick(self) -> list[int]:
        """'move one of your explorers (even from outside the valley) to a legal safe space
        OR move an opponent to an empty dangerous space' (you may: 'done')."""
        empty = [s for s in range(len(self.terrain)) if s not in self.taken]
        ground = DRY | {"river"}  # ruling 16: a river is safe or dangerous as land is
        safe = any(self.terrain[s] in ground and s not in self.beside_dinosaurs for s in empty)
        dangerous = any(self.terrain[s] in SWAMPY
                        or (self.terrain[s] in ground and s in self.beside_dinosaurs)
                        for s in empty)
        offered = [DONE]
        for number, at in enumerate(self.explorers):
            if at == -2:
                continue
            if number // 4 == self.seat:
                offered += [PICK + number] if safe else []
            elif at != -1 and dangerous:
                offered.append(PICK + number)
        return offered

    def escape_drop(self, at: int) -> list[int]:
        """'any space beyond his nearest exit from the swamp' (dry land; ring steps, one more
        from an inner space)."""
        ring: list[int] = self.board["swamp_ring"]
        starts, extra = ([s for s in self.near[at] if s in ring], 1) \
            if self.terrain[at] == "inner-swamp" else ([at], 0)

        def steps(a: int, b: int) -> int:
            gap = (ring.index(a) - ring.index(b)) % len(ring)
            return min(gap, len(ring) - gap)
        distance = {e: min(steps(s, e) for s in starts) + extra for e in self.board["swamp_exits"]}
        nearest = min(distance.values())
        return sorted({s for e, d in distance.items() if d == nearest for s in self.near[e]
                       if self.terrain[s] in DRY and s not in self.lava
                       and s not in self.dinosaurs})

    def footprints_out(self, lair: int) -> list[int]:
        marks = self.board["footprints"][self.board["lairs"].index(lair)]
        return [m for m in marks if m not in self.lava and m not in self.dinosaurs]

    def fight_pick(self) -> list[int]:
        """'one explorer can escape from any lair'; 'If you draw this card and none of your
        explorers are in a lair, then you must move an opponent's explorer out' (ruling 22)."""
        held = [n for n, at in enumerate(self.explorers)
                if at >= 0 and self.terrain[at] == "lair"]
        mine = [n for n in held if n // 4 == self.seat]
        return [PICK + n for n in (mine or held) if self.footprints_out(self.explorers[n])]

    def lava_drops(self, lava: set[int], lifted: int) -> list[int]:
        """'reposition ... on empty spaces adjacent to other lava pieces' (in the valley)."""
        valley = set(self.board["lava_spaces"])
        return [s for s in sorted(valley) if s != lifted and s not in self.taken - {lifted}
                and any(n in lava and n in valley and n != lifted for n in self.near[s])]

    def lava_lift(self) -> list[int]:
        """'The lava must always remain a coherent structure': a valley piece (never G) whose
        removal leaves the rest joined to G, and that has somewhere to go."""
        start = self.board["lava_start"]
        valley = self.lava & set(self.board["lava_spaces"])
        offered = []
        for piece in sorted(valley - {start}):
            rest = valley - {piece}
            seen, todo = {start}, [start]
            while todo:
                for n in self.near[todo.pop()]:
                    if n in rest and n not in seen:
                        seen.add(n)
                        todo.append(n)
            if seen == rest and self.lava_drops(self.lava - {piece}, piece):
                offered.append(piece)
        return [*offered, DONE]

    def dinosaur_pick(self) -> list[int]:
        """Different dinosaurs for each count of the card; one that cannot step is chosen only
        if none that can is left (ruling 20)."""
        left = [d for d in range(len(self.dinosaurs)) if d not in self.now["dinosaurs_moved"]]
        count = self.now["dinosaur_moves"][0]
        able = [d for d in left if self.dinosaur_can_go(d, count)]
        return [DINO + d for d in able or left]

    def expected(self) -> list[int] | None:
        kind, mover = self.o["phase"], self.now["explorer"]
        terrain = self.terrain
        choices: dict[str, Callable[[], list[int]]] = {
            "move-pick": self.move_pick,
            "after-move": lambda: [DONE, *self.extras()],
            "pteranodon-pick": self.pteranodon_pick,
            # 'This card does NOT permit you to take an explorer out of a dinosaur's lair.'
            "fall-pick": lambda: [PICK + n for n, at in self.mine()
                                  if at >= 0 and terrain[at] not in SWAMPY | {"lair"}],
            "escape-pick": lambda: [DONE] + [PICK + n for n, at in self.mine()
                                             if at >= 0 and terrain[at] in SWAMPY
                                             and self.escape_drop(at)],
            "escape-drop": lambda: self.escape_drop(self.explorers[mover]),
            "fight-pick": self.fight_pick,
            # ruling 23: any of the drawer's living explorers, captives and those outside too
            "water-pick": lambda: [PICK + n for n, at in self.mine() if at != -2],
            "water-step": lambda: self.first_steps(self.explorers[mover],
                                                   set(self.now["visited"]), water_run=True),
            "dinosaur-pick": self.dinosaur_pick,
            "lava-lift": self.lava_lift,
            "lava-drop": lambda: self.lava_drops(self.lava, self.now["lifted"]),
            "secret-drop": self.free_caves,
        }
        return choices[kind]() if kind in choices else None


def _scattered(o: Obs, rng: random.Random) -> None:
    """A random mid-match table, set up as the README says: explorers anywhere they can be
    (outside, dead, on land, in water, the swamp, the temple, captive), dinosaurs moved out of
    some lairs, a lava flow (half the time all 30 pieces), coins carried and abandoned, kept
    cards and bullets."""
    board = o["board"]
    terrain, near = board["terrain"], board["neighbors"]
    lairs, ring = board["lairs"], board["swamp_ring"]
    o["swamp_monster"] = monster = rng.choice(ring)
    walk = [s for s, t in enumerate(terrain) if t in DRY | {"river"}]
    dinosaurs = list(lairs)
    for d in range(len(dinosaurs)):
        if rng.random() < 0.6:
            dinosaurs[d] = rng.choice([s for s in walk if s not in dinosaurs])
    o["dinosaurs"] = dinosaurs
    blocked = set(dinosaurs) | {monster}
    lava = list(board["volcano_slope"])
    if rng.random() < 0.8:
        flow, size = [board["lava_start"]], rng.choice((0, 6, 23))
        valley = set(board["lava_spaces"]) - set(dinosaurs)
        while len(flow) < 1 + size:
            edge = sorted({n for s in flow for n in near[s] if n in valley and n not in flow})
            flow.append(rng.choice(edge))
        lava += flow if board["lava_start"] not in dinosaurs else []
    else:
        lava = lava[:rng.randrange(7)]
    o["lava"], o["lava_placed"] = lava, len(lava)
    blocked |= set(lava)
    places = [s for s in walk + ring + [board["temple"]] * 3 + board["entries"] * 2
              if s not in blocked] + [s for s, t in enumerate(terrain) if t == "inner-swamp"]
    for player in o["players"]:
        for k in range(4):
            roll = rng.random()
            at = -1 if roll < 0.15 else -2 if roll < 0.2 else \
                rng.choice(lairs) if roll < 0.3 else rng.choice(places)
            player["explorers"][k] = at
            if at >= 0 and terrain[at] != "lair" and rng.random() < 0.3:
                player["carrying"][k] = True
                o["temple_coins"] -= 1
        if rng.random() < 0.5 and o["deck"]["gun"]:
            o["deck"]["gun"] -= 1
            player["guns"] = 1
            player["bullets"] = rng.randrange(4)
            o["bullet_supply"] -= player["bullets"]
        if rng.random() < 0.5 and o["deck"]["secret-path"]:
            o["deck"]["secret-path"] -= 1
            player["secret_paths"] = 1
    if all(at == -2 for at in o["players"][o["player"]]["explorers"]):
        o["players"][o["player"]]["explorers"][0] = -1
    lying = [s for s in walk + ring if s not in dinosaurs and s != board["temple"]]
    for _ in range(rng.randrange(3)):
        o["coins"].append([rng.choice(lying), 1])
        o["temple_coins"] -= 1
    merged: dict[int, int] = {}
    for space, count in o["coins"]:
        merged[space] = merged.get(space, 0) + count
    o["coins"] = [[space, count] for space, count in sorted(merged.items())]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_independent_checker_agrees_on_every_choice_offered(game: Game, players: int) -> None:
    """The choices offered, complete and no more, at every pick of an explorer or a dinosaur,
    lava lift and drop, escape, water run, cave and bullet or secret path before and after the
    move: 100 seeded matches per player count, each from a random table set up through the
    observation and played at random for 12 turns, against the Table reading above."""
    checked: dict[str, int] = {}
    for seed in range(100):
        rng = random.Random(players * 1000 + seed)
        state = at_draw(game, lambda o: _scattered(o, rng), players,  # noqa: B023
                        starter=seed % players)
        start = state.observation(0)["turn"]
        while not state.is_terminal() and state.observation(0)["turn"] < start + 12:
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes],
                                               [p for _, p in outcomes])[0])
                continue
            legal = state.legal_actions()
            obs = state.observation(0)
            expected = Table(obs).expected()
            if expected is not None:
                checked[obs["phase"]] = checked.get(obs["phase"], 0) + 1
                assert sorted(set(expected)) == legal, (seed, obs["phase"], obs["now"])
            state.apply_action(rng.choice(legal))
    assert min(checked.get(kind, 0) for kind in (
        "move-pick", "after-move", "pteranodon-pick", "fall-pick", "escape-pick",
        "escape-drop", "fight-pick", "dinosaur-pick", "lava-lift", "lava-drop", "water-pick",
        "water-step", "secret-drop")) > 0, checked


def test_a_seat_whose_card_killed_its_last_explorer_fires_no_bullets(game: Game) -> None:
    """'Explorers use bullets to frighten away a Dinosaur'. Seat 0 holds a gun and three
    bullets; its own eruption buries its last explorer. With no explorer left it has nobody to
    fire them: the turn ends (it used to be offered all six dinosaurs to shoot, and could push
    one onto an opponent)."""
    spots: dict[str, int] = {}

    def last_one(o: Obs) -> None:
        board = o["board"]
        grow_flow(o, 0)
        spots["next"] = nxt = next(n for n in board["neighbors"][board["lava_start"]]
                                   if n in board["lava_spaces"])
        o["players"][0]["explorers"] = [nxt, -2, -2, -2]
        put(o, 1, 0, 52)
        o["deck"]["gun"] -= 1
        o["players"][0]["guns"], o["players"][0]["bullets"] = 1, 3
        o["bullet_supply"] = 9
    state = at_draw(game, last_one)
    state.apply_action(CARD["volcano"])
    state.apply_action(spots["next"])
    while phase(state) == "lava-place":
        state.apply_action(state.legal_actions()[0])
    obs = state.observation(0)
    assert obs["players"][0]["explorers"] == [-2] * 4
    assert obs["phase"] == "draw" and obs["player"] == 1
    assert obs["players"][0]["bullets"] == 3


def test_a_move_set_up_with_nothing_to_do_ends_the_turn(game: Game) -> None:
    """'follow the instructions if possible' / ruling 7: a seat with no explorer that can move
    and nothing to fire or take just ends its turn. Set up at move-pick, as the README allows,
    with seat 0's last explorer held in a guarded lair: the next seat draws (the rebuilt state
    used to wait for seat 0 with no legal action at all)."""
    state = game.new_initial_state(2)
    state.apply_action(first(0))
    state.apply_action(CARD["dinosaurs-fight"])
    obs = view(state)
    assert obs["phase"] == "move-pick"
    obs["players"][0]["explorers"] = [obs["board"]["lairs"][0], -2, -2, -2]
    state = game.state_from_observation(obs, random.Random(0))
    assert state.current_player() == CHANCE and state.legal_actions()
    obs = view(state)
    assert obs["phase"] == "draw" and obs["player"] == 1 and obs["turn"] == 1
