"""The ``mcts`` bot's race policy for Lost Valley of the Dinosaurs (arena_bot_mcts.dinosaurs and
arena_bot_mcts.turns): its turn tables checked by hand, that it reads only the observation,
and its whole moves."""

from __future__ import annotations

import copy
import json
import random
import sys
from typing import Any

import pytest
from arena_bot_mcts import MCTSBot
from arena_bot_mcts import dinosaurs as race_policy
from arena_bot_mcts.dinosaurs import EXIT, Race, choose, race_values
from arena_bot_mcts.rollouts import PairedRollouts
from arena_bot_mcts.turns import ONE_DIE, OUTSIDE, TWO_DICE, Plan, turn_table
from test_dinosaurs_helpers import GAME, card, moving, play, put, put_dinosaur, space, started

from arena.game import CHANCE, TERMINAL, sample_chance
from engines.dinosaurs import actions as A


def test_the_turn_tables_count_turns_and_let_the_goal_be_overshot() -> None:
    """E[d] = 1 + sum over rolls r < d of P(r) E[d - r]: by hand for one die and two dice."""
    one = turn_table(ONE_DIE, 3)
    assert one[0] == 0 and one[1] == 1  # any roll covers one step
    assert one[2] == pytest.approx(1 + 1 / 6)  # a 1 leaves one step: 7/6
    assert one[3] == pytest.approx(1 + (1 + 1 / 6) / 6 + 1 / 6)  # 49/36
    two = turn_table(TWO_DICE, 3)
    assert two[2] == 1  # two dice always cover two steps
    assert two[3] == pytest.approx(1 + 1 / 36)  # only double one falls short, by one step


SMALL = {
    # 0 entry - 1 land - 2 land - 3 temple arrow - 4 temple; 5 a river beside 1;
    # 6, 7, 8 the swamp ring, 6 its exit arrow next to 2; 9 a lair with footprint 10 next to 0
    "terrain": ["entry", "land", "land", "temple-arrow", "temple", "river", "swamp", "swamp",
                "swamp", "lair", "footprint"],
    "neighbors": [[1, 10], [0, 2, 5], [1, 3, 6], [2, 4], [3], [1], [2, 7, 8], [6, 8], [6, 7],
                  [10], [0, 9]],
    "names": [str(k) for k in range(11)],
    "temple": 4, "entries": [0], "lairs": [9], "footprints": [[10]],
    "swamp_ring": [6, 7, 8], "swamp_exits": [6], "caves": [],
}


def test_a_small_board_gives_the_turns_by_hand() -> None:
    plan = Plan(SMALL)
    assert plan.to_temple[:5] == [4, 3, 2, 1, 0]
    assert plan.to_exit[:5] == [1, 2, 3, 4, 5]  # to the entry, then the step out
    assert plan.to_temple[5] == 3 + 3  # out of the river costs a wade
    assert plan.to_temple[9] == 6  # a lair is left by its footprint
    assert plan.entry_to_temple == 5  # the step onto the entry, then four
    one, two = turn_table(ONE_DIE, 5), turn_table(TWO_DICE, 5)
    assert plan.fetch_turns(OUTSIDE) == pytest.approx(one[5] + two[5])
    assert plan.fetch_turns(2) == pytest.approx(one[2] + two[5])
    assert plan.carry_turns(1) == pytest.approx(two[2])
    assert plan.swamp_out[6] == (1, 2) and plan.swamp_out[7] == (2, 2)
    assert plan.carry_turns(7) == pytest.approx(2 + two[3])  # two turns out, then carry


def _at(name: str) -> Any:
    """Seat 0 on move at its first draw, explorer 0 on ``name``, the others outside."""
    return put(started(), 0, name)


def test_danger_comes_from_the_deck_the_observation_shows() -> None:
    """Next to a dinosaur an explorer may be caught by the next draw of the other seat: with
    dinosaur cards in the deck the seat needs more turns; with none left, no more."""
    state = put_dinosaur(_at("e5"), 0, "e4")
    near = Race(state.observation(0))
    spared, chance, hit = near.explorer_turns(0)
    assert 0 < chance < 1 and hit > spared
    for kind in ("Restless", "Expedition Disturbs", "Encounter Grazing", "Danger Ahead",
                 "Dinosaur Attack"):
        state.deck[card(kind) - A.CARD] = 0
    calm = Race(state.observation(0))
    assert calm.explorer_turns(0) == (spared, 0.0, spared)
    assert calm.seat_turns(0) < near.seat_turns(0)


def test_a_lone_explorer_in_the_valley_risks_the_swamp_a_decoy_takes_it() -> None:
    state = _at("e5")
    alone = Race(state.observation(0)).seat_turns(0)
    put(state, 1, "a1")  # a second explorer in the valley: Falls into the Swamp takes it
    assert Race(state.observation(0)).seat_turns(0) < alone


def test_the_policy_reads_only_the_observation_and_leaves_it_alone() -> None:
    """The same answer from the observation and from its JSON copy (what a sandboxed seat
    gets), and the observation unchanged after it, at every decision of a match."""
    state, rng, decisions = GAME.new_initial_state(2), random.Random(3), 0
    while state.current_player() != TERMINAL:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
            continue
        observation, legal = state.observation(seat), state.legal_actions()
        kept = copy.deepcopy({k: v for k, v in observation.items() if k != "board"})
        decoded = json.loads(json.dumps(observation))
        answer = choose(observation, legal, random.Random(decisions))
        assert answer == choose(decoded, legal, random.Random(decisions))
        assert {k: v for k, v in observation.items() if k != "board"} == kept
        state.apply_action(answer)
        decisions += 1
    assert decisions > 10


def test_a_carrier_on_an_entry_leaves_the_valley() -> None:
    state = put(started(), 0, "b5")
    state.carrying[0] = True
    moving(0, "b5", 7, state=state)
    play(state, space("a5"))  # onto the entry arrow, points to spare
    assert EXIT in state.legal_actions()
    assert choose(state.observation(0), state.legal_actions(), random.Random(0)) == EXIT


def test_a_roll_that_reaches_the_temple_is_walked_into_it() -> None:
    """Two steps from the temple with a roll of 5: the whole move ends in the temple, coin
    taken, even though the first step alone gains no more than others."""
    state = moving(0, "e5", 5)
    while state.current_player() == 0 and state.explorers[0] != state.board.temple:
        play(state, choose(state.observation(0), state.legal_actions(), random.Random(0)))
    assert state.explorers[0] == state.board.temple and state.carrying[0]


def test_race_values_favour_the_seat_nearer_its_coin() -> None:
    state = put(_at("e5"), 4, None)
    values = race_values(state)
    assert values[0] > 0.5 > values[1]
    assert values[0] + values[1] == pytest.approx(1.0)


def test_dinosaurs_searches_with_its_own_policy_without_the_greedy_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "arena_bot_greedy", None)  # import fails as if absent
    bot = MCTSBot(game=GAME.name, seat=0, num_players=2, seed=0, iterations=8)
    assert isinstance(bot.search, PairedRollouts)
    assert bot.search.policy is race_policy.policy
    state = moving(0, "e5", 3)
    # moving() drew a gun it first added to the deck; put the deck back to the rulebook's
    # count, as the bot rebuilds states only from positions a game can hold.
    state.deck[card("You Have Found a Gun") - A.CARD] -= 1
    assert bot.act(state.observation(0), state.legal_actions()) in state.legal_actions()
    assert bot.search.stats.iterations == 8



def test_the_pteranodon_drops_the_policy_weighs_are_the_engines() -> None:
    """The policy asks the engine where the pteranodon may put an explorer (RULINGS.md 16, as
    the fifth pass read it): a river away from the dinosaurs is safe for our own explorer and
    no danger for an opponent's. The bot's own copy of the rulings had every river dangerous
    and none safe."""
    state = put(started(), 4, "e3")
    play(state, card("Pteranodon"))
    race = Race(state.observation(0))
    far_river = space("a8")
    mine, theirs = race_policy._drops(race, 0), race_policy._drops(race, 4)
    assert far_river in mine and far_river not in theirs
    for number, drops in ((0, mine), (4, theirs)):
        trial = state.clone()
        play(trial, A.EXPLORER + number)
        assert drops == trial.legal_actions()


def test_the_water_run_odds_follow_the_engines_ruling() -> None:
    """Short of Water (RULINGS.md 23): an explorer outside the valley may be chosen and must
    enter and reach water on two dice (no sure thing); one in the swamp moves a single space,
    so away from water it dies; a captive in a guarded lair cannot get out."""
    state = put(put(started(), 1, "j3"), 2, "d5")       # the ring (no water beside), a lair
    race = Race(state.observation(0))
    assert 0 < race_policy._water_chance(race, 0) < 1   # outside
    assert race_policy._water_chance(race, 1) == 0.0
    assert race_policy._water_chance(race, 2) == 0.0
    put(state, 3, "b7")                                  # beside the river: two dice always do
    assert race_policy._water_chance(Race(state.observation(0)), 3) == pytest.approx(1.0)
