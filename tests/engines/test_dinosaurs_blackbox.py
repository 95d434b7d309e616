"""Lost Valley of the Dinosaurs, checked as an outside checker would: from the rulebook alone.

Every scenario here is built only through the documented public surface: the registry's
``Game``, ``new_initial_state`` with options, chance outcomes and decisions by their ids
(engines/dinosaurs/README.md), ``observation`` and ``Game.state_from_observation`` to set a
position up from an edited observation. No engine module is imported. Each test quotes the
rulebook sentence it checks (rules/lost-valley-of-the-dinosaurs.txt).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.game import CHANCE, Game, InvalidOptions, State
from arena.plugins import require_registry

NAME = "lost-valley-of-the-dinosaurs"
KINDS = ("volcano", "pteranodon", "swamp-monster", "falls-into-swamp", "escape-swamp",
         "restless", "undergrowth", "grazing", "danger-ahead", "dinosaur-attack",
         "dinosaurs-fight", "short-of-water", "secret-path", "gun")
RULEBOOK_COUNTS = dict(zip(KINDS, (7, 6, 6, 6, 1, 6, 5, 4, 3, 1, 3, 2, 2, 2), strict=True))
CARD = {kind: 194 + i for i, kind in enumerate(KINDS)}
LEAVE, DONE = 160, 161

Obs = dict[str, Any]


def die(n: int) -> int:
    return 207 + n


def dice(total: int) -> int:
    return 212 + total


def first(seat: int) -> int:
    return 225 + seat


def explorer(seat: int, k: int) -> int:
    return 162 + 4 * seat + k


def dino(d: int) -> int:
    return 178 + d


def bullet(d: int) -> int:
    return 184 + d


def path(k: int) -> int:
    return 190 + k


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def view(state: State, seat: int = 0) -> Obs:
    """The observation as decoded JSON, as a bot receives it (and free to edit)."""
    return json.loads(json.dumps(state.observation(seat)))


def phase(state: State) -> str:
    return str(state.observation(0)["phase"])


def begun(game: Game, players: int = 2, starter: int = 0, card: str = "dinosaurs-fight",
          options: dict[str, Any] | None = None) -> State:
    """A new match: ``starter`` goes first and draws ``card`` (Dinosaurs Fight with nobody in a
    lair: "ignore the effects and discard"), so the state waits for its move."""
    state = game.new_initial_state(players, options)
    state.apply_action(first(starter))
    state.apply_action(CARD[card])
    return state


def position(game: Game, edit: Callable[[Obs], None], players: int = 2, starter: int = 0,
             options: dict[str, Any] | None = None) -> State:
    """``starter`` to pick its move in a position set by ``edit`` on the observation."""
    state = begun(game, players, starter, options=options)
    obs = view(state, starter)
    edit(obs)
    return game.state_from_observation(obs, random.Random(0))


def hand_over(state: State) -> None:
    """The seat on move plays its turn out with the first choices (an explorer outside the
    valley entering on a die of 1) until the next seat's card is to be drawn."""
    mover = state.observation(0)["player"]
    for _ in range(200):
        obs = state.observation(0)
        if obs["phase"] == "draw" and obs["player"] != mover:
            return
        if state.current_player() == CHANCE:
            state.apply_action(state.legal_actions()[0])
        else:
            legal = state.legal_actions()
            state.apply_action(DONE if DONE in legal else legal[0])
    raise AssertionError("the turn did not end")


def drawing(game: Game, card: str, edit: Callable[[Obs], None], players: int = 2,
            options: dict[str, Any] | None = None) -> State:
    """Seat 0 has just drawn ``card`` in the position ``edit`` sets (the last seat plays the
    turn before: its explorer 0 walks in on a 1, so leave that one outside)."""
    state = position(game, edit, players, starter=players - 1, options=options)
    hand_over(state)
    assert state.observation(0)["player"] == 0
    state.apply_action(CARD[card])
    return state


def put(obs: Obs, seat: int, k: int, space: int, carrying: bool = False) -> None:
    obs["players"][seat]["explorers"][k] = space
    if carrying:
        obs["players"][seat]["carrying"][k] = True
        obs["temple_coins"] -= 1


def kill(obs: Obs, seat: int, k: int) -> None:
    obs["players"][seat]["explorers"][k] = -2
    obs["players"][seat]["alive"] -= 1


def board(state: State) -> Obs:
    return dict(state.observation(0)["board"])


def where(state: State, seat: int, k: int) -> int:
    return int(state.observation(0)["players"][seat]["explorers"][k])


# Open land in the middle of the valley: e3 (52) and all its neighbours are plain land.
MIDDLE = 52


# --- setup, options, player counts -------------------------------------------------------


def test_setup_matches_game_preparation(game: Game) -> None:
    """'Place one Tyrannosaurus in each lair space. Place the swamp monster on one of the swamp
    spaces marked with a grey arrow. Place all Treasure Coins on the top of the temple roof.
    ... Players place their four explorers next to the entry spaces ... Place all lava pieces
    inside the volcano cone.'"""
    state = game.new_initial_state(2)
    obs = view(state)
    spaces = obs["board"]
    assert sorted(obs["dinosaurs"]) == sorted(spaces["lairs"])
    assert len(spaces["lairs"]) == 6
    assert obs["swamp_monster"] in spaces["swamp_ring"]
    assert obs["temple_coins"] == 12
    assert obs["lava"] == [] and obs["lava_placed"] == 0
    for seat in obs["players"]:
        assert seat["explorers"] == [-1, -1, -1, -1]
        assert seat["coins_out"] == 0 and seat["alive"] == 4
    assert obs["deck"] == RULEBOOK_COUNTS and obs["deck_count"] == 54


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players(game: Game, players: int) -> None:
    """'16 Explorers (4x green; 4x orange; 4x brown; 4x cream)': up to four players."""
    state = game.new_initial_state(players)
    assert len(view(state)["players"]) == players
    assert state.chance_outcomes() == [(first(s), pytest.approx(1 / players))
                                       for s in range(players)]


@pytest.mark.parametrize("players", [0, 1, 5])
def test_player_count_outside_two_to_four_refused(game: Game, players: int) -> None:
    with pytest.raises(InvalidOptions):
        game.new_initial_state(players)


def test_short_and_long_game_options(game: Game) -> None:
    """'Short game: ... 1 treasure coin ... Long game: ... 3 treasure coins'."""
    assert view(game.new_initial_state(2))["coins_to_win"] == 1
    assert view(game.new_initial_state(2, {"coins": 3}))["coins_to_win"] == 3
    for bad in ({"coins": 0}, {"coins": 13}, {"coins": "three"}, {"players": 3}):
        with pytest.raises(InvalidOptions):
            game.new_initial_state(2, bad)


def test_card_draw_follows_the_deck(game: Game) -> None:
    """'Shuffle and place all adventure cards face down': each kind as often as its count."""
    state = game.new_initial_state(3)
    state.apply_action(first(1))
    assert state.current_player() == CHANCE and phase(state) == "draw"
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {CARD[k]: pytest.approx(n / 54) for k, n in RULEBOOK_COUNTS.items()}


# --- the turn ----------------------------------------------------------------------------


def test_a_turn_is_a_card_then_a_move(game: Game) -> None:
    """'Take a card ... Place it onto a discard pile ... EITHER move any ONE of your
    explorers'."""
    state = begun(game, 2, starter=1)
    obs = view(state)
    assert obs["phase"] == "move-pick" and state.current_player() == 1
    assert obs["discards"]["dinosaurs-fight"] == 1 and obs["deck_count"] == 53
    assert state.legal_actions() == [explorer(1, k) for k in range(4)]


def test_play_goes_clockwise(game: Game) -> None:
    """'Play continues to each player in a clockwise direction.'"""
    state = begun(game, 4, starter=2)
    seen = [2]
    for _ in range(4):
        hand_over(state)
        seen.append(state.observation(0)["player"])
    assert seen == [2, 3, 0, 1, 2]


def test_land_move_rolls_one_die(game: Game) -> None:
    """'move ... on land (by rolling 1 die) if you are NOT carrying treasure'."""
    state = position(game, lambda o: put(o, 0, 0, MIDDLE))
    state.apply_action(explorer(0, 0))
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(die(n), pytest.approx(1 / 6)) for n in range(1, 7)]


def test_carrier_rolls_two_dice(game: Game) -> None:
    """'An explorer carrying treasure moves on the throw of two dice.'"""
    state = position(game, lambda o: put(o, 0, 0, MIDDLE, carrying=True))
    state.apply_action(explorer(0, 0))
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == [dice(t) for t in range(2, 13)]
    assert outcomes[dice(7)] == pytest.approx(6 / 36)
    assert outcomes[dice(2)] == pytest.approx(1 / 36)


def test_river_moves_one_space_without_dice(game: Game) -> None:
    """'if you are moving in a river ... simply move 1 space (do not roll the dice)'."""
    state = position(game, lambda o: put(o, 0, 0, 80))
    state.apply_action(explorer(0, 0))
    assert state.current_player() == 0 and phase(state) == "move-step"
    assert view(state)["now"]["steps_left"] == 1
    assert set(state.legal_actions()) <= set(board(state)["neighbors"][80])
    state.apply_action(65)
    assert where(state, 0, 0) == 65
    assert view(state)["player"] == 1


def test_swamp_moves_one_grey_arrow(game: Game) -> None:
    """'The explorer can only move one space per turn via the grey arrows until they reach
    dry land beyond the blue arrows.'"""
    def edit(o: Obs) -> None:
        ring = o["board"]["swamp_ring"]
        o["swamp_monster"] = ring[0]
        put(o, 0, 0, ring[5])
    state = position(game, edit)
    ring = board(state)["swamp_ring"]
    state.apply_action(explorer(0, 0))
    assert state.current_player() == 0
    assert sorted(state.legal_actions()) == sorted([ring[4], ring[6]])


def test_swamp_exit_arrow_leads_onto_dry_land(game: Game) -> None:
    """'In order to leave the swamp they must be based on an adjacent space with an arrow
    (exit arrow)'."""
    state = position(game, lambda o: put(o, 0, 0, 119))
    state.apply_action(explorer(0, 0))
    assert 105 in state.legal_actions()
    state.apply_action(105)
    assert where(state, 0, 0) == 105


def test_entering_the_valley_by_any_arrow(game: Game) -> None:
    """'They may enter or leave the valley by any of the four arrows.'"""
    state = begun(game)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(3))
    assert state.legal_actions() == sorted(board(state)["entries"])


def test_explorer_never_enters_a_dinosaur_space(game: Game) -> None:
    """'They may not move into a space occupied by a dinosaur or the swamp monster!'"""
    def edit(o: Obs) -> None:
        put(o, 0, 0, MIDDLE)
        o["dinosaurs"][0] = 53
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(1))
    assert 53 not in state.legal_actions()
    assert {37, 38, 51, 65, 66} <= set(state.legal_actions())


def test_explorer_never_enters_a_lair_or_the_swamp(game: Game) -> None:
    """'Explorers may not move into a dinosaur's lair or into the swamp.'"""
    def edit(o: Obs) -> None:
        put(o, 0, 0, 24)       # footprint of lair b1 (12), whose dinosaur is away
        put(o, 0, 1, 105)      # next to the swamp's exit j0 (119)
        o["dinosaurs"][0] = 100
    state = position(game, edit)
    for k, barred in ((0, 12), (1, 119)):
        probe = state.clone()
        probe.apply_action(explorer(0, k))
        probe.apply_action(die(1))
        assert barred not in probe.legal_actions()


def test_never_into_a_space_travelled_into_this_turn(game: Game) -> None:
    """'They may go in any direction, but never into a space already traveled into that
    turn.'"""
    state = position(game, lambda o: put(o, 0, 0, MIDDLE))
    state.apply_action(explorer(0, 0))
    state.apply_action(die(3))
    state.apply_action(53)
    state.apply_action(38)
    assert 53 not in state.legal_actions()


def test_lava_blocks_explorers(game: Game) -> None:
    """'No explorer or dinosaur may land on, or pass over a space occupied by lava.'"""
    def edit(o: Obs) -> None:
        spaces = o["board"]
        o["lava"] = [*spaces["volcano_slope"], spaces["lava_start"], 45]
        o["lava_placed"] = 8
        put(o, 0, 0, 59)
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(1))
    assert not {44, 45} & set(state.legal_actions())


def test_wading_into_a_river_ends_the_turn(game: Game) -> None:
    """'If an explorer wades across a river, their turn ends in the water regardless of any
    movement points left.'"""
    state = position(game, lambda o: put(o, 0, 0, 66))
    state.apply_action(explorer(0, 0))
    state.apply_action(die(5))
    assert 80 in state.legal_actions()
    state.apply_action(80)
    assert where(state, 0, 0) == 80
    assert view(state)["phase"] == "draw" and view(state)["player"] == 1


def test_crossing_is_crossed_with_a_normal_roll(game: Game) -> None:
    """'There are two crossings for one river ... Cross at these places with a normal
    dice-roll.'"""
    state = position(game, lambda o: put(o, 0, 0, 66))
    state.apply_action(explorer(0, 0))
    state.apply_action(die(3))
    state.apply_action(81)
    assert phase(state) == "move-step" and view(state)["now"]["steps_left"] == 2
    assert 95 in state.legal_actions()


def test_temple_needs_no_exact_roll_ends_the_turn_and_gives_a_coin(game: Game) -> None:
    """'An exact dice roll isn't needed to enter, but your turn will end.'"""
    state = position(game, lambda o: put(o, 0, 0, 54))
    state.apply_action(explorer(0, 0))
    state.apply_action(die(6))
    state.apply_action(55)
    assert 69 in state.legal_actions()
    state.apply_action(69)
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == 69
    assert obs["players"][0]["carrying"][0] is True
    assert obs["temple_coins"] == 11
    assert obs["phase"] == "draw" and obs["player"] == 1


def test_a_carrier_takes_no_second_coin(game: Game) -> None:
    """'Each explorer may carry only one coin at a time.'"""
    state = position(game, lambda o: put(o, 0, 0, 55, carrying=True))
    state.apply_action(explorer(0, 0))
    state.apply_action(dice(5))
    state.apply_action(69)
    obs = view(state)
    assert obs["temple_coins"] == 11 and obs["players"][0]["carrying"] == [True, False, False,
                                                                         False]


def test_leaving_with_a_coin_wins_the_short_game(game: Game) -> None:
    """'They don't need an exact die roll ... to exit the valley.' 'The first player to bring
    the required number of treasure coins out of the valley ... wins the game.'"""
    state = position(game, lambda o: put(o, 0, 0, 4, carrying=True))
    state.apply_action(explorer(0, 0))
    state.apply_action(dice(12))
    assert LEAVE in state.legal_actions()
    state.apply_action(LEAVE)
    assert state.is_terminal()
    assert state.scores() == [1, 0] and state.ranking() == [0, 1]
    obs = view(state)
    assert obs["winner"] == 0 and obs["end_reason"] == "coins"


def test_exit_reached_mid_roll(game: Game) -> None:
    """'They don't need an exact die roll to enter the temple, or to exit the valley.'"""
    state = position(game, lambda o: put(o, 0, 0, 75, carrying=True))
    state.apply_action(explorer(0, 0))
    state.apply_action(dice(9))
    state.apply_action(76)
    assert LEAVE in state.legal_actions()
    state.apply_action(LEAVE)
    assert state.is_terminal() and state.scores() == [1, 0]


def test_long_game_goes_on_after_one_coin(game: Game) -> None:
    """'Long game: To be the first to get 3 treasure coins out of the valley.' 'They will need
    to carry it out of the valley, then return to claim another'."""
    state = position(game, lambda o: put(o, 0, 0, 4, carrying=True), options={"coins": 3})
    state.apply_action(explorer(0, 0))
    state.apply_action(dice(4))
    state.apply_action(LEAVE)
    assert not state.is_terminal()
    me = view(state)["players"][0]
    assert me["coins_out"] == 1 and me["explorers"][0] == -1 and me["carrying"][0] is False


def test_long_game_third_coin_wins(game: Game) -> None:
    def edit(o: Obs) -> None:
        put(o, 0, 0, 4, carrying=True)
        o["players"][0]["coins_out"] = 2
        o["temple_coins"] -= 2
    state = position(game, edit, options={"coins": 3})
    state.apply_action(explorer(0, 0))
    state.apply_action(dice(4))
    state.apply_action(LEAVE)
    assert state.is_terminal() and state.scores() == [3, 0]


def test_abandoned_coin_claimed_by_exact_count(game: Game) -> None:
    """'An explorer may claim abandoned treasure by landing on it by exact count.'"""
    def edit(o: Obs) -> None:
        put(o, 0, 0, MIDDLE)
        o["coins"] = [[53, 1]]
        o["temple_coins"] = 11
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(1))
    state.apply_action(53)
    obs = view(state)
    assert obs["players"][0]["carrying"][0] is True and obs["coins"] == []


def test_passing_over_an_abandoned_coin_does_not_claim_it(game: Game) -> None:
    def edit(o: Obs) -> None:
        put(o, 0, 0, MIDDLE)
        o["coins"] = [[53, 1]]
        o["temple_coins"] = 11
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(2))
    state.apply_action(53)
    state.apply_action(38)
    obs = view(state)
    assert obs["players"][0]["carrying"][0] is False and obs["coins"] == [[53, 1]]


def test_explorers_share_spaces_but_never_steal(game: Game) -> None:
    """'Explorers may share spaces.' 'If one of your explorers lands on another explorer
    carrying a coin, you may NOT steal it from him.'"""
    def edit(o: Obs) -> None:
        put(o, 0, 0, MIDDLE)
        put(o, 1, 0, 53, carrying=True)
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(1))
    assert 53 in state.legal_actions()
    state.apply_action(53)
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == obs["players"][1]["explorers"][0] == 53
    assert obs["players"][0]["carrying"][0] is False and obs["players"][1]["carrying"][0]


def test_illegal_actions_are_refused(game: Game) -> None:
    state = begun(game)
    for action in (LEAVE, DONE, explorer(1, 0), MIDDLE, die(3), 229, -1):
        with pytest.raises(ValueError):
            state.clone().apply_action(action)
    chance = game.new_initial_state(2)
    with pytest.raises(ValueError):
        chance.apply_action(first(2))


# --- the cards ---------------------------------------------------------------------------


def test_volcano_first_piece_in_the_tip_of_the_cone(game: Game) -> None:
    """'The first lava piece (A) is placed in the tip of the volcanic cone, then the next 5
    pieces (B - F).'"""
    state = drawing(game, "volcano", lambda o: None)
    obs = view(state)
    assert obs["lava"] == [obs["board"]["volcano_slope"][0]] and obs["lava_placed"] == 1


def test_volcano_reaches_the_valley_at_g(game: Game) -> None:
    """'The first piece to touch the valley is (G)'."""
    def edit(o: Obs) -> None:
        o["lava"] = list(o["board"]["volcano_slope"])
        o["lava_placed"] = 6
    obs = view(drawing(game, "volcano", edit))
    assert obs["board"]["lava_start"] in obs["lava"] and obs["lava_placed"] == 7


def _lava_to_g(o: Obs) -> None:
    o["lava"] = [*o["board"]["volcano_slope"], o["board"]["lava_start"]]
    o["lava_placed"] = 7


def test_volcano_in_the_valley_places_three_adjacent_pieces(game: Game) -> None:
    """'In the valley, the lava pieces must connect to adjacent lava pieces. ... the 3 (H)
    pieces can be split as long as they are adjacent to other pieces'. 'One piece of lava
    ... can occupy any space EXCEPT the swamp.'"""
    state = drawing(game, "volcano", _lava_to_g)
    spaces = board(state)
    for _ in range(3):
        assert phase(state) == "lava-place"
        lava = set(view(state)["lava"])
        legal = state.legal_actions()
        assert legal
        for space in legal:
            assert space not in lava and spaces["terrain"][space] not in ("swamp", "inner-swamp")
            assert lava & set(spaces["neighbors"][space])
        state.apply_action(legal[-1])
    assert view(state)["lava_placed"] == 10


def test_lava_kills_an_explorer(game: Game) -> None:
    """'If lava is placed on a space with an explorer, they die and are removed from the
    game.'"""
    def edit(o: Obs) -> None:
        _lava_to_g(o)
        put(o, 1, 1, 45)
    state = drawing(game, "volcano", edit)
    assert 45 in state.legal_actions()
    state.apply_action(45)
    assert where(state, 1, 1) == -2 and view(state)["players"][1]["alive"] == 3


def test_thirty_pieces_out_then_three_may_be_repositioned(game: Game) -> None:
    """'When all 30 pieces of lava have been placed on the board, you may then reposition
    three pieces of lava on empty spaces adjacent to other lava pieces'."""
    def edit(o: Obs) -> None:
        spaces = o["board"]
        lava = [*spaces["volcano_slope"], spaces["lava_start"]]
        reach = set(spaces["lava_spaces"]) - set(o["dinosaurs"])
        frontier = [spaces["lava_start"]]
        while len(lava) < 30:
            here = frontier.pop(0)
            for n in spaces["neighbors"][here]:
                if n in reach and n not in lava and len(lava) < 30:
                    lava.append(n)
                    frontier.append(n)
        o["lava"] = lava
        o["lava_placed"] = 30
    state = drawing(game, "volcano", edit)
    assert phase(state) == "lava-lift"
    assert DONE in state.legal_actions()


def test_pteranodon_is_optional(game: Game) -> None:
    """'you may use it to EITHER move one of your explorers ... OR move an opponent'."""
    state = drawing(game, "pteranodon", lambda o: put(o, 1, 1, MIDDLE))
    assert phase(state) == "pteranodon-pick" and DONE in state.legal_actions()


def test_pteranodon_takes_own_explorer_from_outside_to_a_safe_empty_space(game: Game) -> None:
    """'move one of your explorers (even from outside the valley) to a legal safe space'. 'It
    can't place an explorer on an occupied space, or in the dinosaur's lair.'"""
    state = drawing(game, "pteranodon", lambda o: put(o, 1, 1, MIDDLE))
    assert explorer(0, 0) in state.legal_actions()
    state.apply_action(explorer(0, 0))
    assert phase(state) == "pteranodon-drop"
    obs = view(state)
    terrain = obs["board"]["terrain"]
    legal = state.legal_actions()
    assert MIDDLE not in legal and 37 in legal
    near = {n for d in obs["dinosaurs"] for n in obs["board"]["neighbors"][d]}
    for space in legal:
        assert terrain[space] not in ("lair", "swamp", "inner-swamp", "temple")
        assert space not in obs["dinosaurs"] and space not in near
    state.apply_action(37)
    assert where(state, 0, 0) == 37


def test_pteranodon_drops_an_opponent_into_the_inner_swamp(game: Game) -> None:
    """'It can place an opposing explorer on one of the four separate inner swamp spaces.'"""
    state = drawing(game, "pteranodon", lambda o: put(o, 1, 1, MIDDLE))
    state.apply_action(explorer(1, 1))
    legal = state.legal_actions()
    inner = [i for i, t in enumerate(board(state)["terrain"]) if t == "inner-swamp"]
    assert len(inner) == 4 and set(inner) <= set(legal)
    assert not set(board(state)["lairs"]) & set(legal)
    assert 37 not in legal  # plain land with no dinosaur about is not dangerous
    state.apply_action(inner[0])
    assert where(state, 1, 1) == inner[0]


def test_pteranodon_rescues_from_a_guarded_lair(game: Game) -> None:
    """'It can rescue explorers from the swamp, from guarded or unguarded dinosaur lairs'."""
    state = drawing(game, "pteranodon", lambda o: put(o, 0, 1, o["dinosaurs"][0]))
    state.apply_action(explorer(0, 1))
    state.apply_action(MIDDLE)
    assert where(state, 0, 1) == MIDDLE


def test_pteranodon_victim_abandons_its_coin(game: Game) -> None:
    """'If an explorer ... is carried off by the Pteranodon, the coin is abandoned and left on
    the space they were occupying.'"""
    state = drawing(game, "pteranodon", lambda o: put(o, 1, 1, MIDDLE, carrying=True))
    state.apply_action(explorer(1, 1))
    state.apply_action(107)
    obs = view(state)
    assert obs["players"][1]["carrying"][1] is False and obs["coins"] == [[MIDDLE, 1]]


def test_swamp_monster_moves_clockwise_and_eats(game: Game) -> None:
    """'The swamp monster moves 1 space in a clockwise motion (on the grey arrows). If the
    Monster lands on a space with an explorer, they are eaten and removed from play.'"""
    def edit(o: Obs) -> None:
        ring = o["board"]["swamp_ring"]
        o["swamp_monster"] = ring[3]
        put(o, 1, 2, ring[4])
    state = drawing(game, "swamp-monster", edit)
    ring = board(state)["swamp_ring"]
    obs = view(state)
    assert obs["swamp_monster"] == ring[4]
    assert obs["players"][1]["explorers"][2] == -2 and obs["players"][1]["alive"] == 3


def test_swamp_monster_wraps_round_the_ring(game: Game) -> None:
    def edit(o: Obs) -> None:
        o["swamp_monster"] = o["board"]["swamp_ring"][-1]
    state = drawing(game, "swamp-monster", edit)
    assert view(state)["swamp_monster"] == board(state)["swamp_ring"][0]


def test_falls_into_the_swamp_onto_a_grey_arrow(game: Game) -> None:
    """'One Member Falls into the Swamp!' 'Players can risk the explorer by placing them closer
    than 3 spaces from the monster (so they can occupy a blue exit arrow space).'"""
    state = drawing(game, "falls-into-swamp", lambda o: put(o, 0, 1, MIDDLE))
    assert phase(state) == "fall-pick"
    assert state.legal_actions() == [explorer(0, 1)]
    state.apply_action(explorer(0, 1))
    assert phase(state) == "fall-drop"
    ring = board(state)["swamp_ring"]
    monster = view(state)["swamp_monster"]
    legal = state.legal_actions()
    assert legal and set(legal) <= set(ring) and monster not in legal
    state.apply_action(legal[0])
    assert where(state, 0, 1) == legal[0]


def test_falls_into_the_swamp_not_from_a_lair(game: Game) -> None:
    """'This card does NOT permit you to take an explorer out of a dinosaur's lair.'"""
    def edit(o: Obs) -> None:
        put(o, 0, 1, o["dinosaurs"][0])
        put(o, 0, 2, MIDDLE)
    state = drawing(game, "falls-into-swamp", edit)
    assert phase(state) == "fall-pick" and state.legal_actions() == [explorer(0, 2)]


def test_escape_from_the_swamp_beyond_the_nearest_exit(game: Game) -> None:
    """'The player may place an explorer on any space beyond his nearest exit from the
    swamp.'"""
    def edit(o: Obs) -> None:
        o["swamp_monster"] = 93
        put(o, 0, 1, 133)   # one grey arrow from the exit j0 (119), four from i4 (109)
    state = drawing(game, "escape-swamp", edit)
    assert phase(state) == "escape-pick"
    state.apply_action(explorer(0, 1))
    assert phase(state) == "escape-drop"
    assert state.legal_actions() == [105]
    state.apply_action(105)
    assert where(state, 0, 1) == 105


def _moves(state: State) -> list[int]:
    return sorted(view(state)["now"]["dinosaur_moves"])


@pytest.mark.parametrize(("card", "counts"), [
    ("restless", [2, 2, 2]),
    ("undergrowth", [1, 1, 1, 1, 1, 1]),
    ("grazing", [1, 1, 1]),
    ("danger-ahead", [1, 1, 1, 2, 2, 2]),
    ("dinosaur-attack", [1, 1, 1, 3]),
])
def test_dinosaur_cards_move_the_rulebooks_counts(game: Game, card: str, counts: list[int]
                                                  ) -> None:
    """'Three Dinosaurs move 2 spaces each.' 'All the Dinosaurs move 1 space each.' 'Three
    Dinosaurs move 1 space each.' 'Three Dinosaurs move 2 spaces, and three move 1 space
    each.' 'One Dinosaur moves 3 spaces, and three move 1 space each.'"""
    state = drawing(game, card, lambda o: None)
    assert phase(state) == "dinosaur-pick"
    assert _moves(state) == counts
    assert set(state.legal_actions()) <= {dino(d) for d in range(6)}


def test_each_dinosaur_moves_once_per_card(game: Game) -> None:
    state = drawing(game, "restless", lambda o: None)
    state.apply_action(dino(3))
    assert phase(state) == "dinosaur-step"
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    assert phase(state) == "dinosaur-pick"
    assert dino(3) not in state.legal_actions()
    assert _moves(state) == [2, 2]


def test_dinosaur_captures_and_goes_to_a_free_lair_coin_stays(game: Game) -> None:
    """'A Dinosaur captures all explorers on a space that it enters. Captured explorer(s) and
    the Dinosaur go straight to any lair unoccupied by another dinosaur'. 'If the explorer was
    carrying a coin, it must remain on the square that they last occupied'."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = 100         # lair b1 (12) stands empty
        o["dinosaurs"][3] = 59
        put(o, 1, 1, 60, carrying=True)
        put(o, 1, 2, 60)
    state = drawing(game, "grazing", edit)
    state.apply_action(dino(3))
    state.apply_action(60)
    assert phase(state) == "lair-pick"
    assert state.legal_actions() == [12, 74]
    state.apply_action(12)
    obs = view(state)
    assert obs["dinosaurs"][3] == 12
    assert obs["players"][1]["explorers"][1:3] == [12, 12]
    assert obs["players"][1]["carrying"][1] is False and obs["coins"] == [[60, 1]]


def test_dinosaurs_never_enter_temple_swamp_lava_or_each_other(game: Game) -> None:
    """'they can't cross lava, enter the Swamp or the Temple, or leave the valley.'
    'Dinosaurs may never share any space with another dinosaur.'"""
    def edit(o: Obs) -> None:
        _lava_to_g(o)
        o["dinosaurs"][0] = 55       # a temple arrow, next to the temple (69)
        o["dinosaurs"][1] = 105      # next to the swamp's exit j0 (119)
        o["dinosaurs"][2] = 45       # next to G (44), under lava
        o["dinosaurs"][3] = 46       # next to dinosaur 2
        o["dinosaurs"][4] = 4        # on an entry arrow
    state = drawing(game, "undergrowth", edit)
    for d, barred in ((0, {69}), (1, {119}), (2, {44, 46}), (4, {LEAVE})):
        probe = state.clone()
        probe.apply_action(dino(d))
        assert probe.legal_actions() and not barred & set(probe.legal_actions()), d


def test_dinosaur_enters_a_lair_by_exact_count_only(game: Game) -> None:
    """'Dinosaurs may move BY EXACT COUNT into any lair'."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = 24     # footprint of its own lair b1 (12), now empty
    one = drawing(game, "grazing", edit)
    one.apply_action(dino(0))
    assert 12 in one.legal_actions()
    two = drawing(game, "restless", edit)
    two.apply_action(dino(0))
    assert 12 not in two.legal_actions()


def test_dinosaur_attack_eats_the_captives_in_the_lair(game: Game) -> None:
    """'All captured explorers there are eaten alive! (including any already in the lair).'"""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = 24
        put(o, 1, 1, 12)         # a captive in the unguarded lair b1
    state = drawing(game, "dinosaur-attack", edit)
    for _ in range(4):
        if phase(state) != "dinosaur-pick":
            break
        if view(state)["now"]["dinosaur_moves"][0] == 1 and dino(0) in state.legal_actions():
            state.apply_action(dino(0))
            state.apply_action(12)
            break
        other = next(a for a in state.legal_actions() if a != dino(0))
        state.apply_action(other)
        while phase(state) == "dinosaur-step":
            state.apply_action(state.legal_actions()[0])
    assert view(state)["dinosaurs"][0] == 12
    assert where(state, 1, 1) == -2


def test_captive_stays_while_its_lair_is_guarded(game: Game) -> None:
    """'If an explorer has been captured, they cannot leave the lair if a dinosaur occupies
    the same lair'."""
    state = position(game, lambda o: (put(o, 0, 0, o["dinosaurs"][0]), put(o, 0, 1, MIDDLE)))
    assert explorer(0, 0) not in state.legal_actions()
    assert explorer(0, 1) in state.legal_actions()


def test_captive_walks_out_when_the_dinosaur_is_away(game: Game) -> None:
    """'Explorers can escape from a lair by ... Rolling the dice and moving when the dinosaur
    is absent.'"""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = 100
        put(o, 0, 0, 12)
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    state.apply_action(die(1))
    assert sorted(state.legal_actions()) == [11, 24]


def test_dinosaurs_fight_frees_own_captive_onto_a_footprint(game: Game) -> None:
    """'one explorer can escape from any lair by moving one space outside. Explorers may escape
    from a lair by following the footprint spaces.'"""
    state = drawing(game, "dinosaurs-fight", lambda o: put(o, 0, 2, o["dinosaurs"][0]))
    assert phase(state) == "fight-pick"
    assert state.legal_actions() == [explorer(0, 2)]
    state.apply_action(explorer(0, 2))
    assert phase(state) == "fight-drop"
    assert sorted(state.legal_actions()) == [11, 24]
    state.apply_action(24)
    assert where(state, 0, 2) == 24


def test_dinosaurs_fight_must_free_an_opponent(game: Game) -> None:
    """'If you draw this card and none of your explorers are in a lair, then you must move an
    opponent's explorer out of a lair.'"""
    state = drawing(game, "dinosaurs-fight", lambda o: put(o, 1, 2, o["dinosaurs"][0]))
    assert phase(state) == "fight-pick"
    assert state.legal_actions() == [explorer(1, 2)]
    state.apply_action(explorer(1, 2))
    assert phase(state) == "fight-drop" and DONE not in state.legal_actions()
    state.apply_action(11)
    assert where(state, 1, 2) == 11


def test_dinosaurs_fight_with_nobody_in_a_lair_is_ignored(game: Game) -> None:
    """'If no player has any explorers in the Dino lair, then ignore the effects and
    discard.'"""
    state = drawing(game, "dinosaurs-fight", lambda o: put(o, 1, 2, MIDDLE))
    obs = view(state)
    assert obs["phase"] == "move-pick" and obs["discards"]["dinosaurs-fight"] >= 1


def test_short_of_water_reached(game: Game) -> None:
    """'one of your explorers rolls two dice and must reach the river on this turn or they die
    ... (you do not have to arrive by an exact count).'"""
    state = drawing(game, "short-of-water", lambda o: put(o, 0, 1, MIDDLE))
    assert phase(state) == "water-pick"
    state.apply_action(explorer(0, 1))
    assert state.current_player() == CHANCE
    assert sorted(dict(state.chance_outcomes())) == [dice(t) for t in range(2, 13)]
    state.apply_action(dice(9))
    state.apply_action(66)
    state.apply_action(80)
    obs = view(state)
    assert obs["players"][0]["explorers"][1] == 80 and obs["players"][0]["alive"] == 4
    # 'If an explorer wades across a river, their turn ends in the water' (ruling 23)
    assert obs["phase"] == "draw" and obs["player"] == 1


def test_short_of_water_dies_and_leaves_the_coin_on_its_last_space(game: Game) -> None:
    """'If an explorer dies (with treasure) while trying to get water, the treasure is left on
    the last space of their unsuccessful move.'"""
    state = drawing(game, "short-of-water", lambda o: put(o, 0, 1, 25, carrying=True))
    assert phase(state) == "water-pick"
    state.apply_action(explorer(0, 1))
    state.apply_action(dice(2))
    state.apply_action(37)
    state.apply_action(MIDDLE)
    obs = view(state)
    assert obs["players"][0]["explorers"][1] == -2 and obs["players"][0]["alive"] == 3
    assert obs["coins"] == [[MIDDLE, 1]]


def test_secret_path_is_kept_and_leads_to_the_temple(game: Game) -> None:
    """'Discovered a Secret Path to the Temple! ... an explorer must be at the entrance space of
    one of the caves. You may use this card as an additional action to go directly to the
    Temple'. 'Travel is one way only, discard after using.'"""
    state = drawing(game, "secret-path", lambda o: put(o, 0, 1, 50))
    obs = view(state)
    assert obs["players"][0]["secret_paths"] == 1 and obs["discards"]["secret-path"] == 0
    assert path(1) in state.legal_actions() and path(0) not in state.legal_actions()
    state.apply_action(path(1))
    obs = view(state)
    assert obs["players"][0]["explorers"][1] == 69
    assert obs["players"][0]["secret_paths"] == 0 and obs["discards"]["secret-path"] == 1


def test_gun_is_kept_and_bullets_come_from_an_ammo_dump(game: Game) -> None:
    """'Once drawn, bullets can now be taken when you land on an ammo dump space.'"""
    state = drawing(game, "gun", lambda o: put(o, 0, 1, 13))
    obs = view(state)
    assert obs["players"][0]["guns"] == 1 and obs["players"][0]["bullets"] == 0
    state.apply_action(explorer(0, 1))
    state.apply_action(die(1))
    state.apply_action(14)
    obs = view(state)
    assert obs["players"][0]["bullets"] > 0
    assert obs["bullet_supply"] == 12 - obs["players"][0]["bullets"]


def test_no_bullets_without_a_gun(game: Game) -> None:
    state = position(game, lambda o: put(o, 0, 1, 13))
    state.apply_action(explorer(0, 1))
    state.apply_action(die(1))
    state.apply_action(14)
    assert view(state)["players"][0]["bullets"] == 0


def _armed(o: Obs) -> None:
    me = o["players"][0]
    me["guns"], me["bullets"] = 1, 3
    o["deck"]["gun"] -= 1
    o["bullet_supply"] = 9


def test_a_bullet_pushes_a_dinosaur_one_space(game: Game) -> None:
    """'Explorers use bullets to frighten away a Dinosaur (one space / per bullet used).
    Bullets can be used before or after you move an explorer.'"""
    state = position(game, lambda o: (_armed(o), put(o, 0, 1, MIDDLE)))
    assert {bullet(d) for d in range(6)} <= set(state.legal_actions())
    state.apply_action(bullet(0))
    assert sorted(state.legal_actions()) == [11, 24]
    state.apply_action(24)
    obs = view(state)
    assert obs["dinosaurs"][0] == 24 and obs["players"][0]["bullets"] == 2
    assert obs["phase"] == "move-pick"


def test_a_bullet_can_push_a_dinosaur_onto_an_opponent(game: Game) -> None:
    """'You can use a bullet to move a Dinosaur onto a space occupied by another explorer,
    resulting in their capture (and being taken to its lair).'"""
    def edit(o: Obs) -> None:
        _armed(o)
        put(o, 0, 1, MIDDLE)
        put(o, 1, 0, 24)
    state = position(game, edit)
    state.apply_action(bullet(0))
    state.apply_action(24)
    assert phase(state) == "lair-pick"
    state.apply_action(state.legal_actions()[0])
    obs = view(state)
    assert obs["players"][1]["explorers"][0] in obs["board"]["lairs"]
    assert obs["players"][1]["explorers"][0] == obs["dinosaurs"][0]


def test_bullets_after_the_move(game: Game) -> None:
    """'Bullets can be used before or after you move an explorer.'"""
    state = position(game, lambda o: (_armed(o), put(o, 0, 1, MIDDLE)))
    state.apply_action(explorer(0, 1))
    state.apply_action(die(1))
    state.apply_action(37)
    assert phase(state) == "after-move"
    assert bullet(0) in state.legal_actions() and DONE in state.legal_actions()


def test_empty_deck_reshuffles_the_discards(game: Game) -> None:
    """'In the event the adventure cards are depleted, reshuffle the discard pile and continue
    to use them as the new draw deck.'"""
    def edit(o: Obs) -> None:
        o["discards"] = dict(RULEBOOK_COUNTS)
        o["deck"] = dict.fromkeys(KINDS, 0)
        o["deck_count"] = 0
    state = position(game, edit, starter=1)
    hand_over(state)
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {CARD[k]: pytest.approx(n / 54) for k, n in RULEBOOK_COUNTS.items()}


# --- the end -----------------------------------------------------------------------------


def test_a_seat_with_no_explorers_left_takes_no_turns(game: Game) -> None:
    def edit(o: Obs) -> None:
        for k in range(4):
            kill(o, 1, k)
        put(o, 0, 1, MIDDLE)
    state = position(game, edit)
    state.apply_action(explorer(0, 1))
    state.apply_action(die(1))
    state.apply_action(37)
    obs = view(state)
    assert obs["phase"] == "draw" and obs["player"] == 0 and not state.is_terminal()


def test_all_explorers_dead_ends_the_game_most_coins_wins(game: Game) -> None:
    """'If the game ends because all explorers have died ... the winner is the player with the
    most coins'."""
    def edit(o: Obs) -> None:
        for k in range(4):
            kill(o, 1, k)
        for k in range(3):
            kill(o, 0, k)
        put(o, 0, 3, 25)
        o["players"][1]["coins_out"] = 1
        o["temple_coins"] = 11
    state = position(game, edit, options={"coins": 3})
    state.apply_action(explorer(0, 3))
    state.apply_action(die(1))
    state.apply_action(37)
    state.apply_action(CARD["short-of-water"])
    assert phase(state) == "water-pick"
    state.apply_action(explorer(0, 3))
    state.apply_action(dice(2))
    state.apply_action(MIDDLE)
    state.apply_action(53)
    assert state.is_terminal()
    assert state.scores() == [0, 1] and state.ranking() == [1, 0]
    obs = view(state)
    assert obs["end_reason"] == "deaths" and obs["winner"] == 1


def _last_coin(seat0_out: int, seat1_out: int, seat1_dead: int) -> Callable[[Obs], None]:
    def edit(o: Obs) -> None:
        put(o, 0, 0, 4, carrying=True)
        o["players"][0]["coins_out"] = seat0_out
        o["players"][1]["coins_out"] = seat1_out
        o["temple_coins"] = 0
        for k in range(seat1_dead):
            kill(o, 1, k)
    return edit


def test_no_coin_left_ends_the_game_tie_broken_by_explorers(game: Game) -> None:
    """'If the game ends because ... it's impossible to claim any more treasure coins ... if
    several players have the same number of coins, the player with the most explorers left is
    the winner.'"""
    state = position(game, _last_coin(5, 6, 2), options={"coins": 12})
    state.apply_action(explorer(0, 0))
    state.apply_action(dice(6))
    state.apply_action(LEAVE)
    assert state.is_terminal()
    assert state.scores() == [6, 6] and state.ranking() == [0, 1]
    obs = view(state)
    assert obs["end_reason"] == "no-coins" and obs["winner"] == 0


def test_full_tie_shares_first_place(game: Game) -> None:
    state = position(game, _last_coin(5, 6, 0), options={"coins": 12})
    state.apply_action(explorer(0, 0))
    state.apply_action(dice(6))
    state.apply_action(LEAVE)
    assert state.is_terminal() and state.ranking() == [0, 0]
    assert view(state)["winner"] == -1


def test_random_matches_end_with_coins_or_deaths(game: Game) -> None:
    """Short random matches end, and scores never exceed the coins a seat needs."""
    rng = random.Random(5)
    for players in (2, 4):
        state = game.new_initial_state(players)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                ids, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert max(state.scores()) <= 1 and len(state.ranking()) == players


# --- more corners a checker reaches for ---------------------------------------------------


def test_carrier_in_a_river_still_moves_one_space(game: Game) -> None:
    """'2 dice if you ARE carrying treasure; OR if you are moving in a river ... simply move 1
    space (do not roll the dice).'"""
    state = position(game, lambda o: put(o, 0, 0, 80, carrying=True))
    state.apply_action(explorer(0, 0))
    assert state.current_player() == 0 and view(state)["now"]["steps_left"] == 1


def test_leaving_the_inner_swamp_goes_onto_a_grey_arrow(game: Game) -> None:
    """'It can place an opposing explorer on one of the four separate inner swamp spaces. In
    order to leave the swamp they must be based on an adjacent space with an arrow'."""
    def edit(o: Obs) -> None:
        o["swamp_monster"] = 135
        put(o, 0, 0, 107)
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    ring = set(board(state)["swamp_ring"])
    legal = state.legal_actions()
    assert legal and set(legal) <= ring


def test_swamp_explorer_never_steps_into_the_monster(game: Game) -> None:
    """'They may not move into a space occupied by a dinosaur or the swamp monster!'"""
    def edit(o: Obs) -> None:
        ring = o["board"]["swamp_ring"]
        o["swamp_monster"] = ring[6]
        put(o, 0, 0, ring[5])
    state = position(game, edit)
    ring = board(state)["swamp_ring"]
    state.apply_action(explorer(0, 0))
    assert state.legal_actions() == [ring[4]]


def test_leaving_the_temple_is_a_normal_move(game: Game) -> None:
    """'Any number of explorers may be there at the same time.' The temple is left by its
    arrow spaces."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, 69, carrying=True)
        put(o, 1, 0, 69)
    state = position(game, edit)
    state.apply_action(explorer(0, 0))
    assert state.current_player() == CHANCE
    state.apply_action(dice(2))
    assert set(state.legal_actions()) <= set(board(state)["temple_arrows"])


def test_secret_path_out_of_the_temple_to_a_cave(game: Game) -> None:
    """'Explorers may enter OR leave by a cave (if they have the relevant card).'"""
    def edit(o: Obs) -> None:
        put(o, 0, 0, 69, carrying=True)
        o["players"][0]["secret_paths"] = 1
        o["deck"]["secret-path"] -= 1
    state = position(game, edit)
    state.apply_action(path(0))
    assert sorted(state.legal_actions()) == sorted(board(state)["caves"])
    state.apply_action(129)
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == 129 and obs["players"][0]["carrying"][0]


def test_card_that_cannot_be_followed_is_discarded(game: Game) -> None:
    """'Take a card, read it aloud, and follow the instructions if possible.' With every
    explorer outside the valley, nobody can fall into the swamp or escape from it. (Short of
    Water can be followed: one of them must run, RULINGS.md ruling 23.)"""
    for card in ("falls-into-swamp", "escape-swamp"):
        state = drawing(game, card, lambda o: None)
        obs = view(state)
        assert obs["phase"] == "move-pick" and obs["discards"][card] == 1, card


def test_dinosaurs_move_through_water(game: Game) -> None:
    """'Dinosaurs can move freely on all land or water spaces'."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = 66
    state = drawing(game, "grazing", edit)
    state.apply_action(dino(0))
    assert {80, 81} <= set(state.legal_actions())


def test_dinosaur_may_enter_a_lair_holding_only_explorers(game: Game) -> None:
    """'Dinosaurs may move BY EXACT COUNT into any lair (only if unoccupied by another dinosaur
    or only occupied by explorers).'"""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = 24
        put(o, 1, 1, 12)
    state = drawing(game, "grazing", edit)
    state.apply_action(dino(0))
    assert 12 in state.legal_actions()
    state.apply_action(12)
    obs = view(state)
    assert obs["dinosaurs"][0] == 12 and obs["players"][1]["explorers"][1] == 12


def test_dinosaur_never_enters_a_lair_held_by_another(game: Game) -> None:
    def edit(o: Obs) -> None:
        o["dinosaurs"][1] = 24     # next to lair b1 (12), held by dinosaur 0
    state = drawing(game, "grazing", edit)
    state.apply_action(dino(1))
    assert 12 not in state.legal_actions()


def test_dinosaur_captures_everyone_on_the_space(game: Game) -> None:
    """'A Dinosaur captures all explorers on a space that it enters.'"""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = MIDDLE
        put(o, 0, 1, 53)
        put(o, 1, 1, 53)
    state = drawing(game, "grazing", edit)
    state.apply_action(dino(0))
    state.apply_action(53)
    assert phase(state) == "lair-pick"
    state.apply_action(12)
    obs = view(state)
    assert obs["players"][0]["explorers"][1] == obs["players"][1]["explorers"][1] == 12


def test_captured_explorer_goes_to_a_lair_even_with_other_captives(game: Game) -> None:
    """'Captured explorer(s) and the Dinosaur go straight to any lair unoccupied by another
    dinosaur (even if other explorers are there!).'"""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0] = 100
        put(o, 1, 2, 12)
        o["dinosaurs"][3] = 59
        put(o, 1, 1, 60)
    state = drawing(game, "grazing", edit)
    state.apply_action(dino(3))
    state.apply_action(60)
    assert 12 in state.legal_actions()
    state.apply_action(12)
    assert view(state)["players"][1]["explorers"][1:3] == [12, 12]


def test_fire_several_bullets_in_one_turn(game: Game) -> None:
    """'You can use them singly or all at once in any combination. E.g.: Three bullets can be
    used to move a dinosaur 3 spaces'."""
    state = position(game, lambda o: (_armed(o), put(o, 0, 1, MIDDLE)))
    for _ in range(3):
        state.apply_action(bullet(0))
        state.apply_action(state.legal_actions()[0])
    obs = view(state)
    assert obs["players"][0]["bullets"] == 0 and obs["dinosaurs"][0] not in (12, 11, 24)
    assert not {bullet(d) for d in range(6)} & set(state.legal_actions())


def test_four_players_pteranodon_reaches_the_last_seat(game: Game) -> None:
    """Up to four players: the last seat's explorers are ids 174-177."""
    state = drawing(game, "pteranodon", lambda o: put(o, 3, 3, MIDDLE), players=4)
    assert explorer(3, 3) in state.legal_actions()
    state.apply_action(explorer(3, 3))
    state.apply_action(108)
    assert where(state, 3, 3) == 108


def test_escape_from_the_inner_swamp(game: Game) -> None:
    """'The player may place an explorer on any space beyond his nearest exit from the
    swamp.'"""
    def edit(o: Obs) -> None:
        o["swamp_monster"] = 93
        put(o, 0, 1, 121)   # inner space next to j3 (122), one grey arrow from i4 (109)
    state = drawing(game, "escape-swamp", edit)
    assert phase(state) == "escape-pick"
    state.apply_action(explorer(0, 1))
    legal = state.legal_actions()
    beyond = {n for n in board(state)["neighbors"][109]
              if board(state)["terrain"][n] not in ("swamp", "inner-swamp")}
    assert legal and set(legal) <= beyond


def test_falling_carrier_abandons_its_coin(game: Game) -> None:
    """'If an explorer falls into the swamp ... the coin is abandoned and left on the space they
    were occupying.'"""
    state = drawing(game, "falls-into-swamp", lambda o: put(o, 0, 1, MIDDLE, carrying=True))
    assert phase(state) == "fall-pick"
    state.apply_action(explorer(0, 1))
    state.apply_action(state.legal_actions()[0])
    obs = view(state)
    assert obs["players"][0]["carrying"][1] is False and obs["coins"] == [[MIDDLE, 1]]


def test_walking_over_an_entry_without_leaving(game: Game) -> None:
    """'They may enter or leave the valley by any of the four arrows': leaving is a choice."""
    state = position(game, lambda o: put(o, 0, 0, 75))
    state.apply_action(explorer(0, 0))
    state.apply_action(die(3))
    state.apply_action(76)
    legal = state.legal_actions()
    assert LEAVE in legal and 90 in legal


def test_leaving_without_a_coin(game: Game) -> None:
    state = position(game, lambda o: put(o, 0, 0, 4))
    state.apply_action(explorer(0, 0))
    state.apply_action(die(2))
    state.apply_action(LEAVE)
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == -1 and obs["players"][0]["coins_out"] == 0
    assert not state.is_terminal()


def test_a_seat_that_cannot_move_just_ends_its_turn(game: Game) -> None:
    """'follow the instructions if possible': every explorer held in a guarded lair."""
    def edit(o: Obs) -> None:
        for k in range(4):
            put(o, 0, k, o["dinosaurs"][k])
    state = drawing(game, "gun", edit)
    obs = view(state)
    assert obs["phase"] == "draw" and obs["player"] == 1


def test_fight_freed_explorer_then_moves_as_normal(game: Game) -> None:
    """'Drawing a "Dinosaur Fight" card - move your explorer onto one of the footprint spaces
    at the entrance, then roll the dice to move as normal.'"""
    state = drawing(game, "dinosaurs-fight", lambda o: put(o, 0, 2, o["dinosaurs"][0]))
    assert phase(state) == "fight-pick"
    state.apply_action(explorer(0, 2))
    state.apply_action(24)
    assert phase(state) == "move-pick" and explorer(0, 2) in state.legal_actions()
    state.apply_action(explorer(0, 2))
    assert state.current_player() == CHANCE


def test_secret_path_is_an_additional_action(game: Game) -> None:
    """'You may use this card as an additional action to go directly to the Temple'."""
    def edit(o: Obs) -> None:
        put(o, 0, 1, 50)
        put(o, 0, 2, MIDDLE)
        o["players"][0]["secret_paths"] = 1
        o["deck"]["secret-path"] -= 1
    state = position(game, edit)
    state.apply_action(path(1))
    assert phase(state) == "move-pick" and explorer(0, 2) in state.legal_actions()


def test_pteranodon_drops_an_opponent_next_to_a_dinosaur(game: Game) -> None:
    """'OR move an opponent to an empty dangerous space': beside a dinosaur's jaws."""
    state = drawing(game, "pteranodon", lambda o: put(o, 1, 1, MIDDLE))
    state.apply_action(explorer(1, 1))
    assert 11 in state.legal_actions()   # footprint of lair b1, whose dinosaur is at home


def test_pteranodon_never_drops_on_an_occupied_space(game: Game) -> None:
    """'It can't place an explorer on an occupied space'."""
    def edit(o: Obs) -> None:
        put(o, 1, 1, MIDDLE)
        put(o, 1, 2, 107)
        put(o, 0, 1, 11)
    state = drawing(game, "pteranodon", edit)
    state.apply_action(explorer(1, 1))
    legal = state.legal_actions()
    assert 107 not in legal and 11 not in legal and 108 in legal


def test_bullet_push_onto_a_carrier_leaves_the_coin(game: Game) -> None:
    """'If the explorer was carrying a coin, it must remain on the square that they last
    occupied before being captured.'"""
    def edit(o: Obs) -> None:
        _armed(o)
        put(o, 0, 1, MIDDLE)
        put(o, 1, 0, 24, carrying=True)
    state = position(game, edit)
    state.apply_action(bullet(0))
    state.apply_action(24)
    assert phase(state) == "lair-pick"
    state.apply_action(state.legal_actions()[0])
    obs = view(state)
    assert obs["coins"] == [[24, 1]] and obs["players"][1]["carrying"][0] is False


def test_lava_on_a_carrier_kills_it(game: Game) -> None:
    """'If lava is placed on a space with an explorer, they die and are removed from the
    game.'"""
    def edit(o: Obs) -> None:
        _lava_to_g(o)
        put(o, 1, 1, 45, carrying=True)
    state = drawing(game, "volcano", edit)
    state.apply_action(45)
    obs = view(state)
    assert obs["players"][1]["explorers"][1] == -2 and obs["players"][1]["carrying"][1] is False


def test_no_winner_while_the_game_goes_on(game: Game) -> None:
    state = begun(game)
    obs = view(state)
    assert obs["winner"] == -1 and obs["end_reason"] is None and not state.is_terminal()
    assert state.scores() == [0, 0]


def test_dinosaur_capture_on_its_first_step_of_two(game: Game) -> None:
    """'A Dinosaur captures all explorers on a space that it enters.' 'Captured explorer(s)
    and the Dinosaur go straight to any lair'."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][3] = 59
        put(o, 1, 1, 60)
    state = drawing(game, "restless", edit)
    state.apply_action(dino(3))
    assert 60 in state.legal_actions()
    state.apply_action(60)
    assert phase(state) == "lair-pick" and state.legal_actions() == [74]
    state.apply_action(74)
    assert where(state, 1, 1) == 74 and view(state)["dinosaurs"][3] == 74


def test_swamp_monster_eats_a_carrier_and_the_coin_stays(game: Game) -> None:
    """'If the Monster lands on a space with an explorer, they are eaten': its coin is left
    where it was, as for every other death of a carrier."""
    def edit(o: Obs) -> None:
        ring = o["board"]["swamp_ring"]
        o["swamp_monster"] = ring[3]
        put(o, 1, 2, ring[4], carrying=True)
    state = drawing(game, "swamp-monster", edit)
    ring = board(state)["swamp_ring"]
    obs = view(state)
    assert obs["players"][1]["explorers"][2] == -2 and obs["coins"] == [[ring[4], 1]]


def test_pteranodon_lifts_own_explorer_out_of_the_swamp(game: Game) -> None:
    """'It can rescue explorers from the swamp'."""
    def edit(o: Obs) -> None:
        o["swamp_monster"] = 93
        put(o, 0, 1, 120)
    state = drawing(game, "pteranodon", edit)
    state.apply_action(explorer(0, 1))
    state.apply_action(MIDDLE)
    assert where(state, 0, 1) == MIDDLE


# --- second pass: sentences checked again with fresh eyes ---------------------------------


def at_draw(game: Game, edit: Callable[[Obs], None], players: int = 2,
            options: dict[str, Any] | None = None) -> State:
    """Seat 0 goes first and is about to draw its card, in the position ``edit`` sets (the
    README's way: edit the observation at the draw node, rebuild, then force the card)."""
    state = game.new_initial_state(players, options)
    state.apply_action(first(0))
    obs = view(state)
    edit(obs)
    return game.state_from_observation(obs, random.Random(0))


def _last_two_alive(o: Obs, mine: int, theirs: int) -> None:
    """Every explorer dead but seat 0's explorer 0 on ``mine`` and seat 1's on ``theirs``."""
    for seat in range(2):
        for k in range(1, 4):
            kill(o, seat, k)
    put(o, 0, 0, mine)
    put(o, 1, 0, theirs)


def test_escaping_the_swamp_keeps_the_coin(game: Game) -> None:
    """'If an explorer falls into the swamp, is captured by a dinosaur or is carried off by
    the Pteranodon, the coin is abandoned' names the ways a coin is lost; Escape from the
    Swamp ('The player may place an explorer on any space beyond his nearest exit from the
    swamp') is not one of them: the explorer climbs out with its coin."""
    def edit(o: Obs) -> None:
        o["swamp_monster"] = 93
        put(o, 0, 1, 133, carrying=True)   # on the grey arrow k1, one from the exit j0
    state = at_draw(game, edit)
    state.apply_action(CARD["escape-swamp"])
    state.apply_action(explorer(0, 1))
    state.apply_action(105)
    obs = view(state)
    assert obs["players"][0]["explorers"][1] == 105
    assert obs["players"][0]["carrying"][1] is True and obs["coins"] == []
    state.apply_action(explorer(0, 1))
    assert dict(state.chance_outcomes())[dice(7)] == pytest.approx(6 / 36)  # two dice


def test_the_game_ends_as_soon_as_the_last_explorer_dies_under_lava(game: Game) -> None:
    """'If the game ends because all explorers have died ..., the winner is the player with
    the most coins': once no explorer is left the game is over, even with lava still to
    pour."""
    def edit(o: Obs) -> None:
        _lava_to_g(o)
        _last_two_alive(o, 45, 46)
        o["players"][1]["coins_out"] = 0
    state = at_draw(game, edit)
    state.apply_action(CARD["volcano"])
    state.apply_action(45)                   # the drawer's own last explorer
    assert not state.is_terminal() and phase(state) == "lava-place"
    state.apply_action(46)                   # and the opponent's: nobody is left
    assert state.is_terminal() and state.legal_actions() == []
    obs = view(state)
    assert obs["end_reason"] == "deaths" and obs["winner"] == -1
    assert state.ranking() == [0, 0]


def test_the_game_ends_as_soon_as_dinosaur_attack_eats_the_last_explorers(game: Game
                                                                         ) -> None:
    """'Dinosaur Attack! ... All captured explorers there are eaten alive!' with 'If the game
    ends because all explorers have died': the three dinosaurs still owed do not move."""
    def edit(o: Obs) -> None:
        _last_two_alive(o, 60, 60)
        o["dinosaurs"][3] = 59
        o["players"][0]["coins_out"] = 0
    state = at_draw(game, edit)
    state.apply_action(CARD["dinosaur-attack"])
    state.apply_action(dino(3))              # the one to move 3 spaces
    state.apply_action(60)                   # captures both on its first step
    assert phase(state) == "lair-pick"
    state.apply_action(74)
    assert state.is_terminal()
    obs = view(state)
    assert obs["end_reason"] == "deaths"
    assert [p["alive"] for p in obs["players"]] == [0, 0]


# An independent reading of where pieces may go, from the rulebook (and the README's board
# lists) alone, compared with what the engine offers at every such decision of random matches.
DRY = {"land", "entry", "crossing", "footprint", "temple-arrow", "cave", "ammo-dump"}
NO_DINOSAUR = {"swamp", "inner-swamp", "temple", "slope"}


def _all_explorers(o: Obs) -> list[int]:
    return [at for p in o["players"] for at in p["explorers"]]


def _explorer_steps(o: Obs, here: int, barred: set[int]) -> list[int]:
    """'They may not move into a space occupied by a dinosaur or the swamp monster!' 'No
    explorer ... may land on, or pass over a space occupied by lava.' 'Explorers may not move
    into a dinosaur's lair or into the swamp' (one in the swamp moves 'via the grey arrows')."""
    spaces = o["board"]
    terrain = spaces["terrain"]
    near = spaces["entries"] if here == -1 else spaces["neighbors"][here]
    in_swamp = here >= 0 and terrain[here] in ("swamp", "inner-swamp")
    return [s for s in near
            if s not in barred and s not in o["lava"] and s not in o["dinosaurs"]
            and s != o["swamp_monster"]
            and (terrain[s] in DRY | {"river", "temple"} or (in_swamp and terrain[s] == "swamp"))]


def _explorer_can_end(o: Obs, here: int, barred: set[int], left: int) -> bool:
    """The roll is used up, or the move ends early where the rulebook lets it: the temple
    and the exit need no exact roll, wading ends the turn."""
    if left == 0 or o["board"]["terrain"][here] in ("temple", "river") \
            or here in o["board"]["entries"]:
        return True
    return any(_explorer_can_end(o, s, barred | {s}, left - 1)
               for s in _explorer_steps(o, here, barred))


def _dinosaur_steps(o: Obs, here: int, left: int, barred: set[int]) -> list[int]:
    """'they can't cross lava, enter the Swamp or the Temple, or leave the valley.' 'Dinosaurs
    may move BY EXACT COUNT into any lair' 'Dinosaurs may never share any space'."""
    terrain = o["board"]["terrain"]
    return [s for s in o["board"]["neighbors"][here]
            if s not in barred and terrain[s] not in NO_DINOSAUR and s not in o["lava"]
            and s not in o["dinosaurs"] and (terrain[s] != "lair" or left == 1)]


def _dinosaur_can_end(o: Obs, here: int, barred: set[int], left: int) -> bool:
    if left == 0 or here in _all_explorers(o):   # a capture ends the move
        return True
    return any(_dinosaur_can_end(o, s, barred | {s}, left - 1)
               for s in _dinosaur_steps(o, here, left, barred))


def _whole_count(o: Obs, steps: list[int], left: int, barred: set[int],
                 can_end: Callable[[Obs, int, set[int], int], bool],
                 leaving: bool = False) -> list[int]:
    """The steps after which the whole count can still be moved (all of them if none, unless
    the piece may leave the valley from where it stands: RULINGS.md 8, seventh pass)."""
    if left <= 1:
        return steps
    full = [s for s in steps if can_end(o, s, barred | {s}, left - 1)]
    return full if full or leaving else steps


def _expected_spaces(o: Obs) -> list[int] | None:
    spaces, now, kind = o["board"], o["now"], o["phase"]
    terrain, lava, dinosaurs = spaces["terrain"], set(o["lava"]), o["dinosaurs"]
    explorers = _all_explorers(o)
    if kind == "move-step":
        here, left = explorers[now["explorer"]], now["steps_left"]
        barred = set(now["visited"])
        return _whole_count(o, _explorer_steps(o, here, barred), left, barred, _explorer_can_end,
                            leaving=here in spaces["entries"])
    if kind == "dinosaur-step":
        here, left = dinosaurs[now["dinosaur"]], now["steps_left"]
        barred = set(now["visited"])
        return _whole_count(o, _dinosaur_steps(o, here, left, barred), left, barred,
                            _dinosaur_can_end)
    if kind == "shoot-push":       # 'one space / per bullet used'
        here = dinosaurs[now["dinosaur"]]
        return _dinosaur_steps(o, here, 1, {here})
    if kind == "lair-pick":        # 'any lair unoccupied by another dinosaur'
        return [lair for lair in spaces["lairs"] if lair not in dinosaurs]
    if kind == "lava-place":       # 'adjacent to previously laid lava', never on a dinosaur
        return [s for s in spaces["lava_spaces"] if s not in lava and s not in dinosaurs
                and lava & set(spaces["neighbors"][s])]
    if kind == "fall-drop":        # a grey arrow, the monster's own excepted
        return [s for s in spaces["swamp_ring"] if s != o["swamp_monster"]]
    if kind == "fight-drop":       # 'one of the footprint spaces at the entrance'
        lair = explorers[now["explorer"]]
        marks = spaces["footprints"][spaces["lairs"].index(lair)]
        return [s for s in marks if s not in lava and s not in dinosaurs]
    if kind == "pteranodon-drop":  # 'a legal safe space' / 'an empty dangerous space'
        near = {n for d in dinosaurs for n in spaces["neighbors"][d]}
        empty = [s for s in range(len(terrain)) if s not in lava and s not in dinosaurs
                 and s != o["swamp_monster"] and s not in explorers]
        ground = DRY | {"river"}  # ruling 16: a river is safe or dangerous as land is
        if now["explorer"] // 4 == o["player"]:
            return [s for s in empty if terrain[s] in ground and s not in near]
        return [s for s in empty if terrain[s] in ("swamp", "inner-swamp")
                or (terrain[s] in ground and s in near)]
    return None


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (2, 12), (3, 13), (4, 14), (4, 15)])
def test_every_space_offered_is_one_the_rulebook_allows_and_none_is_missing(
        game: Game, players: int, seed: int) -> None:
    """legal_actions, complete and no more: at each step of an explorer or a dinosaur, bullet
    push, lair, lava piece, fall, freed captive and pteranodon drop of random matches, the
    spaces offered are exactly those an independent reading of the rulebook allows."""
    rng = random.Random(seed)
    state = game.new_initial_state(players)
    checked = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes],
                                           [p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions()
        expected = _expected_spaces(view(state))
        if expected is not None:
            checked += 1
            assert sorted(set(expected)) == [a for a in legal if a < LEAVE], view(state)["now"]
        state.apply_action(rng.choice(legal))
    assert checked > 50


def test_done_is_named_for_what_it_declines(game: Game) -> None:
    """action_to_string is stable and readable: the one 'done' id says what it declines in
    the phase at hand (the pteranodon is optional: 'you may use it')."""
    state = drawing(game, "pteranodon", lambda o: put(o, 1, 1, MIDDLE))
    assert state.action_to_string(DONE) == "done: leave the pteranodon in its nest"
    assert state.action_to_string(DONE) == state.clone().action_to_string(DONE)
    state.apply_action(DONE)
    assert phase(state) == "move-pick"
    assert state.action_to_string(explorer(0, 0)) == "move explorer 0 of seat 0"


def _lava_chain_to(o: Obs, target: int) -> None:
    """Lava down the slope, on G and on a shortest chain of valley spaces from G to
    ``target`` (spaces of the board's ``lava_spaces``)."""
    spaces = o["board"]
    start, allowed = spaces["lava_start"], set(spaces["lava_spaces"]) - set(o["dinosaurs"])
    came = {start: start}
    queue = [start]
    while target not in came:
        here = queue.pop(0)
        for near in spaces["neighbors"][here]:
            if near in allowed and near not in came:
                came[near] = here
                queue.append(near)
    chain = [target]
    while chain[-1] != start:
        chain.append(came[chain[-1]])
    o["lava"] = [*spaces["volcano_slope"], *reversed(chain)]
    o["lava_placed"] = len(o["lava"])


def test_lava_may_cover_any_space_but_the_swamp(game: Game) -> None:
    """'One piece of lava occupies 1 space, and can occupy any space EXCEPT the swamp.' Lava
    that has flowed to h4 (95), beside the swamp's exit arrow i4 (109), may go on i5 (110)
    or the crossing g4 (81), never on the grey arrow."""
    state = at_draw(game, lambda o: _lava_chain_to(o, 95))
    obs = view(state)
    assert obs["lava_placed"] <= 27
    state.apply_action(CARD["volcano"])
    legal = state.legal_actions()
    assert phase(state) == "lava-place"
    assert 109 not in legal and {81, 96, 110} <= set(legal)
    terrain = obs["board"]["terrain"]
    assert not [s for s in legal if terrain[s] in ("swamp", "inner-swamp", "lair", "temple")]


def test_lava_can_cut_off_an_entry(game: Game) -> None:
    """'Lava can maroon dinosaurs and explorers, cut off river crossings, dinosaur lairs,
    etc.': lava on the entry arrow a5 (4) leaves the valley closed there."""
    state = at_draw(game, lambda o: _lava_chain_to(o, 5))
    state.apply_action(CARD["volcano"])
    assert 4 in state.legal_actions()
    state.apply_action(4)
    while phase(state) == "lava-place":
        state.apply_action(next(a for a in state.legal_actions() if a != 4))
    assert phase(state) == "move-pick"
    state.apply_action(explorer(0, 0))
    state.apply_action(die(2))
    assert 4 not in state.legal_actions()
    assert set(state.legal_actions()) == set(board(state)["entries"]) - {4}
