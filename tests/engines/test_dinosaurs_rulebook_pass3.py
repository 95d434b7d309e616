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

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.game import CHANCE, Game, State
from arena.plugins import require_registry

NAME = "lost-valley-of-the-dinosaurs"
KINDS = ("volcano", "pteranodon", "swamp-monster", "falls-into-swamp", "escape-swamp",
         "restless", "undergrowth", "grazing", "danger-ahead", "dinosaur-attack",
         "dinosaurs-fight", "short-of-water", "secret-path", "gun")
RULEBOOK_COUNTS = dict(zip(KINDS, (7, 6, 6, 6, 1, 6, 5, 4, 3, 1, 3, 2, 2, 2), strict=True))
CARD = {kind: 194 + i for i, kind in enumerate(KINDS)}
LEAVE, DONE, PICK, DINO, SHOOT, PATH = 160, 161, 162, 178, 184, 190
DRY = frozenset({"land", "entry", "crossing", "footprint", "temple-arrow", "cave", "ammo-dump"})
SWAMPY = frozenset({"swamp", "inner-swamp"})
NO_DINOSAUR = frozenset({"swamp", "inner-swamp", "temple", "slope"})

Obs = dict[str, Any]


def die(face: int) -> int:
    return 207 + face


def dice(total: int) -> int:
    return 212 + total


def first(seat: int) -> int:
    return 225 + seat


def pick(seat: int, k: int) -> int:
    return PICK + seat * 4 + k


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def view(state: State, seat: int = 0) -> Obs:
    """The observation as decoded JSON, as a bot receives it (and free to edit)."""
    return json.loads(json.dumps(state.observation(seat)))


def at_draw(game: Game, edit: Callable[[Obs], None], players: int = 2, starter: int = 0,
            options: dict[str, Any] | None = None) -> State:
    """``starter``'s card is to be drawn, in the position ``edit`` sets on the observation."""
    state = game.new_initial_state(players, options)
    state.apply_action(first(starter))
    obs = view(state, starter)
    edit(obs)
    return game.state_from_observation(obs, random.Random(0))


def put(obs: Obs, seat: int, k: int, space: int, carrying: bool = False) -> None:
    obs["players"][seat]["explorers"][k] = space
    if carrying:
        obs["players"][seat]["carrying"][k] = True
        obs["temple_coins"] -= 1


def where(state: State, seat: int, k: int) -> int:
    return int(state.observation(0)["players"][seat]["explorers"][k])


def phase(state: State) -> str:
    return str(state.observation(0)["phase"])


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
