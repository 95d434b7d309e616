"""Setup of Explorers of the Lost Valley: discards, ammunition, row, tokens, first player."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_explorers_helpers import CARDS, card, draw, new_state, play, setup

from arena.game import CHANCE, InvalidOptions
from engines.explorers import actions as A
from engines.explorers.game import ExplorersGame


@pytest.mark.parametrize(("players", "discards"), [(2, 3), (3, 2), (4, 1)])
def test_setup_discards_depend_on_player_count(players: int, discards: int) -> None:
    """"If only two people are going to play, discard three cards. If three people are going
    to play, discard two cards. If four people are going to play, discard only one card."
    """
    state = play(new_state(players), A.FIRST_PLAYER)
    for number in range(discards):
        assert state.observation(0)["phase"] == "setup-discard"
        state.apply_action(state.legal_actions()[number])
    assert state.observation(0)["phase"] == "reveal"
    assert len(state.discards) == discards
    assert len(state.deck) == CARDS.size - discards


def test_setup_discards_are_face_up_and_out_of_the_adventure() -> None:
    """"discard (faced up) a certain number of cards" / "Discarded cards are ignored for the
    rest of the adventure."
    """
    state = setup(3, discards=("Hound", "Allies"))
    observation = state.observation(1)
    assert observation["discards"] == [card("Hound"), card("Allies")]
    assert card("Hound") not in state.deck and card("Allies") not in state.deck
    assert draw("Hound") not in [action for action, _ in state.chance_outcomes()]


@pytest.mark.parametrize(("players", "ammunition"), [(2, 6), (3, 7), (4, 8)])
def test_ammunition_in_the_centre_depends_on_player_count(players: int, ammunition: int) -> None:
    """"If only two people are going to play, use six tokens. If three people are going to
    play, use seven tokens. If four people are going to play, use them all."
    """
    state = setup(players)
    assert state.center_ammunition == ammunition
    assert state.observation(0)["center_ammunition"] == ammunition


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_cards_are_revealed_into_the_row(players: int) -> None:
    """"Now, reveal the first two cards. Put them together, faced up, at the right side of
    the deck."
    """
    discards = ["Hound", "Haven of Peace", "Ammunition Box"][:{2: 3, 3: 2, 4: 1}[players]]
    state = setup(players, row=("Allies", "Iguanodon galvensis"), discards=discards)
    assert state.row == [card("Allies"), card("Iguanodon galvensis")]
    assert [entry["name"] for entry in state.observation(0)["row"]] == [
        "Allies", "Iguanodon galvensis"]
    assert len(state.deck) == CARDS.size - {2: 3, 3: 2, 4: 1}[players] - 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_takes_six_exploration_tokens(players: int) -> None:
    """"Finally, each player takes 6 exploration tokens.\""""
    state = setup(players)
    assert state.exploration_tokens == [6] * players


def test_first_player_is_a_uniform_chance_node() -> None:
    """"Whoever has the thickest moustache goes first (or the one who rolls higher)."

    Ruling: the roll-off is a chance node, every seat equally likely.
    """
    state = new_state(4)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(A.FIRST_PLAYER + seat, 0.25) for seat in range(4)]
    assert setup(4, first=2).current_player() == 2


def test_play_goes_clockwise_from_the_first_player() -> None:
    """"Take the initial player token. Then, play clockwise." (clockwise = next seat index)"""
    state = setup(3, first=1)
    seats = []
    for _ in range(4):
        seats.append(state.current_player())
        play(state, A.BASE_CAMP, A.END_TURN)
    assert seats == [1, 2, 0, 1]


def test_every_draw_is_sampled_from_the_cards_left() -> None:
    """"Shuffle all the cards together." The deck is a multiset: each draw is a chance node
    over the cards still in it, equally likely."""
    state = play(new_state(2), A.FIRST_PLAYER)
    for left in range(CARDS.size, CARDS.size - 5, -1):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left
        assert [probability for _, probability in outcomes] == [pytest.approx(1 / left)] * left
        state.apply_action(outcomes[-1][0])


# ----------------------------------------------------------------- options


@pytest.mark.parametrize("players", [1, 5, 0, "3", True])
def test_bad_player_count_is_rejected(players: object) -> None:
    with pytest.raises(InvalidOptions, match="2 to 4 players"):
        ExplorersGame().new_initial_state(players, {})  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "message"), [
    ({"advance": True}, "unknown option 'advance'"),
    ({"advanced": "yes"}, "option 'advanced' must be true or false"),
    ({"cards": 3}, "option 'cards' must be a str"),
])
def test_bad_options_are_rejected(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        ExplorersGame().new_initial_state(3, options)


def test_default_options_are_the_basic_game_with_the_shipped_cards() -> None:
    game = ExplorersGame()
    assert dict(game.default_options) == {"advanced": False, "cards": ""}
    state = game.new_initial_state(3)
    assert not state.advanced and state.cards is CARDS
    assert CARDS.size == 18
    assert sum(1 for kind in CARDS.kind if kind == 0) == 14


SHIPPED = (Path(__file__).parents[2] / "engines/explorers/dinosaurs.toml").read_text("utf-8")


def test_a_user_card_file_replaces_the_shipped_one(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(SHIPPED.replace('name = "Megalosaurus hesperis"', 'name = "Megalosaurus X"'))
    state = ExplorersGame().new_initial_state(2, {"cards": str(path)})
    assert "Megalosaurus X" in state.cards.names


@pytest.mark.parametrize(("change", "message"), [
    (lambda text: text.replace('species = "iguanodon"', 'species = "raptor"', 1),
     "species must be one of"),
    (lambda text: text.replace("damage_success = 0", "damage_success = 3", 1),
     "damage_success must be an integer from 0 to 1"),
    (lambda text: text.replace("difficulty = 4", "difficulty = 13", 1),
     "difficulty must be an integer from 2 to 12"),
    (lambda text: text.replace('"Pterodactylus kochi"', '"Pterodactylus antiquus"'),
     "card names must be unique"),
    (lambda text: text.replace('effect = "hound"', 'effect = "allies"'),
     "must appear once"),
    (lambda text: text.replace("points = 1\n", "points = 1\ncolour = 'red'\n", 1),
     "unknown keys"),
    (lambda text: text + "[[dinosaurs\n", "not valid TOML"),
])
def test_a_bad_card_file_is_rejected_clearly(tmp_path: Path, change: object,
                                             message: str) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(change(SHIPPED))  # type: ignore[operator]
    with pytest.raises(InvalidOptions, match=message):
        ExplorersGame().new_initial_state(3, {"cards": str(path)})


def test_a_missing_card_file_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptions, match="cannot be read"):
        ExplorersGame().new_initial_state(3, {"cards": str(tmp_path / "nope.toml")})
