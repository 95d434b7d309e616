"""A game that is not one of the shipped three, written from the README's *Writing a game*
alone (``tests/hidden_nim.py``): what the README promises a game author holds for it, and
what the README did not say, which its author ran into, is said now."""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from hidden_nim import HiddenNim, NimState

from arena.adapters.pettingzoo import ArenaEnv
from arena.testing import check_game

README = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())


def test_a_hidden_hand_game_of_a_stranger_passes_check_game_with_every_optional_part() -> None:
    """state_from_observation (a sampled hidden card), observation_tensor and render_for are
    all checked, with no warning that a check was skipped."""
    check_game(HiddenNim(), rebuild=True)


class FewIds(HiddenNim):
    num_distinct_actions = 4  # the decisions' ids only: the die's 4 and 5 are outside


def test_chance_outcome_ids_count_in_num_distinct_actions_as_the_readme_says() -> None:
    """The author first gave num_distinct_actions = 4, the decisions' ids (OpenSpiel counts
    chance outcomes apart): check_game refused 'an id outside [0, 4)', which the README
    and the contract's docstrings did not explain."""
    assert "the ids of chance outcomes too" in README
    with pytest.raises(AssertionError, match=re.escape(
            "chance_outcomes() has an id outside [0, 4): num_distinct_actions counts every "
            "id, the chance outcomes' too")):
        check_game(FewIds(), games=1)


class NeverTies(HiddenNim):
    draw_probability: ClassVar[float] = 0.0


def test_a_draw_probability_trueskill_cannot_use_is_refused_by_check_game() -> None:
    """0.0 (a game 'that never ties') was rated with 0.1 by arena run without a word, and
    saved as 0.0 by arena play --save, whose folder arena leaderboard then said had none."""
    assert "strictly between 0 and 1" in README
    with pytest.raises(AssertionError, match=r"draw_probability 0\.0 is not a number strictly "
                                             r"between 0 and 1"):
        check_game(NeverTies(), games=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_plays_a_game_object_of_a_stranger(players: int) -> None:
    """ArenaEnv takes a Game as well as a name: the tensor's length is the game's own
    (2 + 4 + 2n), the mask the legal actions, and the rewards add up to 0. The README named
    env(), which takes an installed game's name only; it names ArenaEnv for a Game now."""
    assert "`ArenaEnv(MyGame(), num_players)` a `Game` not installed" in README
    table = ArenaEnv(HiddenNim(), num_players=players)
    table.reset(seed=3)
    rng = np.random.default_rng(3)
    total = 0.0
    for _agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        total += reward
        assert observation["observation"].shape == (6 + 2 * players,)
        if termination or truncation:
            table.step(None)
            continue
        state = table.unwrapped.state
        assert isinstance(state, NimState)
        assert np.flatnonzero(observation["action_mask"]).tolist() == state.legal_actions()
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert total == pytest.approx(0.0)


def test_mcts_plays_the_shipped_games_only_as_the_readme_now_says() -> None:
    """The README said a game without state_from_observation could not be played by mcts,
    which its author read as: with it, mcts plays it. mcts names the shipped games, so a
    config seating it at Hidden Nim is refused ('does not play'); the README says so."""
    from arena_bot_mcts import MCTSBot

    from arena.plugins import registry

    shipped = {name for name, entry in registry().games.items()
               if entry.cls is not None and entry.cls.__module__.startswith("engines.")}
    assert set(MCTSBot.games) == shipped
    assert "The shipped `mcts` plays the three shipped games only" in README
