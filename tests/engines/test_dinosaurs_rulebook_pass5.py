"""Lost Valley of the Dinosaurs, fifth rulebook pass: the contested rulings and interactions.

The first half checks the readings the fifth pass settled on the most literal reading of the
rulebook (RULINGS.md 13, 16, 23: the Short of Water run that wades in ends the turn and
claims a coin by exact count, a captive may be the one short of water, a river is safe or
dangerous for the pteranodon as land is); the second half goes after interactions: a card
that kills the last explorer in the middle of a turn, a seat eliminated by its own card, four
players' captives, a run over an ammunition dump, the way out of the swamp. Everything goes
through the documented public surface only (engines/dinosaurs/README.md): the registry's
``Game``, action ids, ``observation`` and ``Game.state_from_observation`` on an edited
observation. No engine module is imported. Each test quotes the rulebook sentence
(rules/lost-valley-of-the-dinosaurs.txt) it checks; tests/engines/RULES-COVERAGE-dinosaurs.md
names them in its rows.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_dinosaurs_blackbox import CARD, NAME, Obs, dice, die, phase, put, view
from test_dinosaurs_rulebook_pass3 import DONE, PATH, SHOOT, at_draw, finish_turn, pick
from test_dinosaurs_rulebook_pass4 import armed, only, spot, water

from arena.game import CHANCE, Game, State
from arena.plugins import require_registry


@pytest.fixture(scope="module")
def game() -> Game:
    return require_registry().game(NAME)


def near_dinosaurs(o: Obs) -> set[int]:
    return {n for d in o["dinosaurs"] for n in o["board"]["neighbors"][d]}


def at(state: State, seat: int, k: int) -> int:
    return int(view(state)["players"][seat]["explorers"][k])


# --- Short of Water (ruling 23) ---------------------------------------------------------------

def test_the_water_run_that_wades_in_ends_the_turn(game: Game) -> None:
    """'If an explorer wades across a river, their turn ends in the water regardless of any
    movement points left.' The sentence has no exception for the Short of Water run: wading in
    on it ends the whole turn, with no move, no bullet and no secret path after it."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "b6"))
        put(o, 0, 1, spot(o, "a6"))
        armed(o, 0, 2)
        o["deck"]["secret-path"] -= 1
        o["players"][0]["secret_paths"] = 1
    state = water(game, edit, 5)
    o = view(state)
    state.apply_action(spot(o, "b7"))
    state.apply_action(spot(o, "b8"))           # a river, three points left
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == spot(o, "b8")
    assert (obs["phase"], obs["player"], obs["turn"]) == ("draw", 1, o["turn"] + 1)
    assert obs["players"][0]["bullets"] == 2 and obs["players"][0]["secret_paths"] == 1
    assert obs["discards"]["short-of-water"] == 1 and obs["now"]["card"] is None


def test_a_water_run_reaching_a_crossing_leaves_the_move_and_the_bullets(game: Game) -> None:
    """'Cross at these places with a normal dice-roll': a crossing is dry land, so the run
    that reaches one has waded into nothing; the card is done and the turn's move follows
    ('Each turn always consists of two parts'), on a die, with bullets before it."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "b6"))
        armed(o, 0, 1)
    state = water(game, edit, 6)
    o = view(state)
    state.apply_action(spot(o, "b7"))
    state.apply_action(spot(o, "c8"))
    assert phase(state) == "move-pick" and at(state, 0, 0) == spot(o, "c8")
    assert any(SHOOT <= a < SHOOT + 6 for a in state.legal_actions())
    state.apply_action(pick(0, 0))
    assert state.current_player() == CHANCE
    assert sorted(dict(state.chance_outcomes())) == [die(face) for face in range(1, 7)]


def test_the_water_runs_last_point_on_a_coin_claims_it(game: Game) -> None:
    """'An explorer may claim abandoned treasure by landing on it by exact count.' The run is
    counted out on its two dice ('the last space of their unsuccessful move'): its last point
    landing on a coin in the river claims it; reaching it with a point left does not."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "b6"))
        o["coins"] = [[spot(o, "b8"), 1]]
        o["temple_coins"] -= 1
    exact = water(game, edit, 2)
    o = view(exact)
    exact.apply_action(spot(o, "b7"))
    exact.apply_action(spot(o, "b8"))
    obs = view(exact)
    assert obs["players"][0]["carrying"][0] is True and obs["coins"] == []
    short = water(game, edit, 3)
    short.apply_action(spot(o, "b7"))
    short.apply_action(spot(o, "b8"))
    obs = view(short)
    assert obs["players"][0]["carrying"][0] is False
    assert obs["coins"] == [[spot(o, "b8"), 1]]


def test_a_coin_claimed_on_the_water_runs_crossing_makes_the_move_two_dice(
        game: Game) -> None:
    """'An explorer may claim abandoned treasure by landing on it by exact count' with 'An
    explorer carrying treasure moves on the throw of two dice': the run's last point lands on
    a coin on the crossing, and the turn's move of that explorer is then on two dice."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "b6"))
        o["coins"] = [[spot(o, "c8"), 1]]
        o["temple_coins"] -= 1
    state = water(game, edit, 2)
    o = view(state)
    state.apply_action(spot(o, "b7"))
    state.apply_action(spot(o, "c8"))
    assert view(state)["players"][0]["carrying"][0] is True
    state.apply_action(pick(0, 0))
    assert sorted(dict(state.chance_outcomes())) == [dice(total) for total in range(2, 13)]


def test_a_captive_may_be_the_one_short_of_water(game: Game) -> None:
    """'one of your explorers rolls two dice and must reach the river on this turn or they
    die': one of your explorers, a captive too (the rulebook excepts the lair where it means
    to: 'This card does NOT permit you to take an explorer out of a dinosaur's lair' is the
    Falls card's). With its lair unguarded it walks out ('Rolling the dice and moving when the
    dinosaur is absent') and reaches the river. Those outside the valley may be chosen too
    (sixth pass, ruling 23)."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][1] = spot(o, "a2")     # d5's dinosaur is away
        put(o, 0, 0, spot(o, "d5"))
        put(o, 0, 1, spot(o, "a6"))
    state = at_draw(game, edit)
    state.apply_action(CARD["short-of-water"])
    assert sorted(state.legal_actions()) == [pick(0, k) for k in range(4)]
    state.apply_action(pick(0, 0))
    state.apply_action(dice(3))
    o = view(state)
    assert sorted(state.legal_actions()) == [spot(o, "c5"), spot(o, "d6")]
    for name in ("d6", "d7", "d8"):
        state.apply_action(spot(o, name))
    assert at(state, 0, 0) == spot(o, "d8") and view(state)["player"] == 1


def test_a_captive_in_a_guarded_lair_dies_of_thirst(game: Game) -> None:
    """'If an explorer has been captured, they cannot leave the lair if a dinosaur occupies the
    same lair': chosen for the water run (the others, outside the valley, could be too), the
    captive cannot get out, and dies ('or they die and are removed from the game')."""
    state = at_draw(game, lambda o: put(o, 0, 0, o["dinosaurs"][1]))
    state.apply_action(CARD["short-of-water"])
    assert state.legal_actions() == [pick(0, k) for k in range(4)]
    state.apply_action(pick(0, 0))
    state.apply_action(dice(12))
    obs = view(state)
    assert obs["players"][0]["explorers"][0] == -2 and obs["players"][0]["alive"] == 3
    assert obs["phase"] == "move-pick"             # the move follows: the others may walk in


# --- Pteranodon Swoops (ruling 16) -------------------------------------------------------------

def test_a_river_is_safe_away_from_the_dinosaurs_and_dangerous_beside_one(game: Game) -> None:
    """'move one of your explorers (even from outside the valley) to a legal safe space OR
    move an opponent to an empty dangerous space': a river is no danger in itself, so the same
    river space is a safe one for your own explorer while no dinosaur is next to it, and a
    dangerous one for an opponent once a dinosaur is."""
    def calm(o: Obs) -> None:
        put(o, 1, 0, spot(o, "e2"))
    state = at_draw(game, calm)
    state.apply_action(CARD["pteranodon"])
    state.apply_action(pick(0, 0))               # from outside the valley
    o = view(state)
    assert spot(o, "a8") in state.legal_actions()
    rivers = [s for s, t in enumerate(o["board"]["terrain"]) if t == "river"]
    assert set(rivers) - near_dinosaurs(o) <= set(state.legal_actions())

    def guarded(o: Obs) -> None:
        calm(o)
        o["dinosaurs"][0] = spot(o, "a7")         # beside the river space a8
    state = at_draw(game, guarded)
    state.apply_action(CARD["pteranodon"])
    state.apply_action(pick(1, 0))
    o = view(state)
    offered = state.legal_actions()
    assert spot(o, "a8") in offered and spot(o, "b8") not in offered
    assert all(s in near_dinosaurs(o) for s in offered if o["board"]["terrain"][s] == "river")
    mine = at_draw(game, guarded)
    mine.apply_action(CARD["pteranodon"])
    mine.apply_action(pick(0, 0))
    assert spot(o, "a8") not in mine.legal_actions() and spot(o, "b8") in mine.legal_actions()


def test_an_explorer_the_pteranodon_put_in_a_river_moves_one_space(game: Game) -> None:
    """'OR if you are moving in a river, in the swamp, or exiting water onto land, simply move
    1 space (do not roll the dice).' Flown into a river, your explorer's move is one space."""
    state = at_draw(game, lambda o: None)
    state.apply_action(CARD["pteranodon"])
    state.apply_action(pick(0, 0))
    o = view(state)
    state.apply_action(spot(o, "a8"))
    assert phase(state) == "move-pick"
    state.apply_action(pick(0, 0))
    assert phase(state) == "move-step" and view(state)["now"]["steps_left"] == 1


# --- interactions: the end arriving mid-turn, a seat eliminated mid-turn ---------------------

def test_the_water_run_killing_the_last_explorer_of_all_ends_the_match(game: Game) -> None:
    """'If the game ends because all explorers have died ..., the winner is the player with the
    most coins': the run kills the only explorer left in the game; the match is over there and
    then, and seat 1, wiped out earlier but with a coin out, wins the long game's count."""
    def edit(o: Obs) -> None:
        only(o, 0, 1)
        put(o, 0, 0, spot(o, "a1"))
        only(o, 1, 0)
        o["players"][1]["coins_out"] = 1
        o["temple_coins"] -= 1
    state = at_draw(game, edit, options={"coins": 3})
    for action in (CARD["short-of-water"], pick(0, 0), dice(2)):
        state.apply_action(action)
    o = view(state)
    state.apply_action(spot(o, "a2"))
    state.apply_action(spot(o, "a3"))
    obs = view(state)
    assert state.is_terminal() and (obs["end_reason"], obs["winner"]) == ("deaths", 1)
    assert state.ranking() == [1, 0] and state.scores() == [0.0, 1.0]


def test_a_seat_killed_by_its_own_water_run_ends_its_turn_and_is_skipped(game: Game) -> None:
    """'Play continues to each player in a clockwise direction': seat 0's last explorer dies
    of thirst on its own card; its turn ends there (no move, nobody to make it) and from then
    on seat 1 plays every turn."""
    def edit(o: Obs) -> None:
        only(o, 0, 1)
        put(o, 0, 0, spot(o, "a1"))
    state = water(game, edit, 2)
    o = view(state)
    state.apply_action(spot(o, "a2"))
    state.apply_action(spot(o, "a3"))
    obs = view(state)
    assert (obs["phase"], obs["player"], obs["turn"]) == ("draw", 1, o["turn"] + 1)
    assert obs["players"][0]["alive"] == 0 and not state.is_terminal()
    finish_turn(state)
    assert view(state)["player"] == 1 and phase(state) == "draw"


def test_the_swamp_monster_eating_the_last_explorer_of_all_ends_the_match(game: Game) -> None:
    """'If the Monster lands on a space with an explorer, they are eaten and removed from
    play' with 'If the game ends because all explorers have died': the card ends the match
    at once; no coins and no explorers left on either side is a shared first place."""
    def edit(o: Obs) -> None:
        ring = o["board"]["swamp_ring"]
        ahead = ring[(ring.index(o["swamp_monster"]) + 1) % len(ring)]
        only(o, 0, 1)
        put(o, 0, 0, ahead)
        only(o, 1, 0)
    state = at_draw(game, edit)
    state.apply_action(CARD["swamp-monster"])
    obs = view(state)
    assert state.is_terminal() and (obs["end_reason"], obs["winner"]) == ("deaths", -1)
    assert state.ranking() == [0, 0]


# --- four players, the board's edges, the way out of the swamp --------------------------------

def test_four_players_dinosaurs_fight_frees_any_opponents_captive(game: Game) -> None:
    """'If you draw this card and none of your explorers are in a lair, then you must move an
    opponent's explorer out of a lair': with four players, the captives of two different
    opponents are both offered, and no 'done' (it is a must)."""
    def edit(o: Obs) -> None:
        o["dinosaurs"][0], o["dinosaurs"][1] = spot(o, "a2"), spot(o, "a6")
        put(o, 1, 2, spot(o, "b1"))
        put(o, 3, 0, spot(o, "d5"))
    state = at_draw(game, edit, players=4)
    state.apply_action(CARD["dinosaurs-fight"])
    assert sorted(state.legal_actions()) == [pick(1, 2), pick(3, 0)]
    state.apply_action(pick(3, 0))
    o = view(state)
    assert sorted(state.legal_actions()) == sorted(o["board"]["footprints"][1])


def test_the_water_run_over_an_ammunition_dump_takes_no_bullets(game: Game) -> None:
    """'Once drawn, bullets can now be taken when you land on an ammo dump space': the run
    passes over the dump onto the crossing beyond it; it did not land there."""
    def edit(o: Obs) -> None:
        put(o, 0, 0, spot(o, "i8"))
        armed(o, 0, 0)
    state = water(game, edit, 4)
    o = view(state)
    state.apply_action(spot(o, "j8"))
    assert phase(state) == "water-step"
    state.apply_action(spot(o, "j9"))
    obs = view(state)
    assert obs["phase"] == "move-pick" and obs["players"][0]["bullets"] == 0


def test_an_explorer_already_on_a_crossing_is_safe_and_then_rolls_its_die(game: Game) -> None:
    """'must reach the river on this turn': one standing on a crossing has it, throws no dice
    for the card, and its move is 'a normal dice-roll' ('Cross at these places with a normal
    dice-roll')."""
    state = at_draw(game, lambda o: put(o, 0, 0, spot(o, "c8")))
    state.apply_action(CARD["short-of-water"])
    state.apply_action(pick(0, 0))
    assert phase(state) == "move-pick" and at(state, 0, 0) == spot(view(state), "c8")
    state.apply_action(pick(0, 0))
    assert state.current_player() == CHANCE and phase(state) == "move-roll"


def test_out_of_the_swamp_the_explorer_moves_on_the_dice_at_once(game: Game) -> None:
    """'The explorer can only move one space per turn via the grey arrows until they reach dry
    land beyond the blue arrows' / 'The player may place an explorer on any space beyond his
    nearest exit from the swamp': once Escape from the Swamp has put it on dry land, its move
    that turn is on the die, not one space."""
    def edit(o: Obs) -> None:
        ring = o["board"]["swamp_ring"]
        exit_space = o["board"]["swamp_exits"][0]
        put(o, 0, 0, exit_space if exit_space != o["swamp_monster"] else ring[0])
    state = at_draw(game, edit)
    state.apply_action(CARD["escape-swamp"])
    state.apply_action(pick(0, 0))
    target = state.legal_actions()[0]
    assert view(state)["board"]["terrain"][target] not in ("swamp", "inner-swamp")
    state.apply_action(target)
    state.apply_action(pick(0, 0))
    assert state.current_player() == CHANCE and phase(state) == "move-roll"


def test_the_secret_path_after_a_crossing_run_but_not_after_a_wading_one(game: Game) -> None:
    """'You may use this card as an additional action to go directly to the Temple' against
    'their turn ends in the water': an explorer on a cave may take the path after the water
    run ended on a crossing, and not once a run has waded into a river."""
    def edit(o: Obs, where: str) -> None:
        put(o, 0, 0, spot(o, where))
        put(o, 0, 1, spot(o, "e1"))               # a cave
        o["deck"]["secret-path"] -= 1
        o["players"][0]["secret_paths"] = 1
    dry = water(game, lambda o: edit(o, "b6"), 2)
    o = view(dry)
    dry.apply_action(spot(o, "b7"))
    dry.apply_action(spot(o, "c8"))
    assert PATH + 1 in dry.legal_actions() and DONE not in dry.legal_actions()
    wet = water(game, lambda o: edit(o, "b6"), 2)
    wet.apply_action(spot(o, "b7"))
    wet.apply_action(spot(o, "b8"))
    assert view(wet)["phase"] == "draw" and view(wet)["players"][0]["secret_paths"] == 1



# --- the documented interface (README, "Actions" and "Observation") ---------------------------

README = Path(__file__).resolve().parents[2] / "engines" / "dinosaurs" / "README.md"
CHANCE_IDS = {"first-player": range(225, 229), "draw": range(194, 208),
              "move-roll": range(208, 225), "water-roll": range(214, 225)}
"""Each chance node's ids, as the README's table of actions gives them."""
COUNTS = {"move-step": (1, 12), "water-step": (1, 12), "dinosaur-step": (1, 3),
          "lava-place": (1, 3), "lava-lift": (1, 3), "lava-drop": (1, 3)}
"""Where the README's ``now.steps_left`` (steps) or ``now.lava_left`` (lava) must be counting."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_phase_and_counter_an_observation_shows_is_the_readmes(
        game: Game, players: int) -> None:
    """A tester reads ``phase``, ``now.steps_left`` and ``now.lava_left`` from the README: every
    phase a random match shows is named there (the chance nodes too, with their ids), and the
    counters count what it says while a piece moves or lava is laid."""
    text = README.read_text("utf-8")
    rng = random.Random(players)
    for _ in range(3 - players // 2):
        state = game.new_initial_state(players)
        while not state.is_terminal():
            obs = state.observation(0)
            kind, now = obs["phase"], obs["now"]
            assert f"`{kind}`" in text, kind
            if state.current_player() == CHANCE:
                assert set(state.legal_actions()) <= set(CHANCE_IDS[kind]), kind
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes],
                                               [p for _, p in outcomes])[0])
                continue
            if kind in COUNTS:
                low, high = COUNTS[kind]
                counter = now["lava_left"] if kind.startswith("lava") else now["steps_left"]
                assert low <= counter <= high, (kind, counter)
            state.apply_action(rng.choice(state.legal_actions()))
        assert f"`{state.observation(0)['phase']}`" in text
