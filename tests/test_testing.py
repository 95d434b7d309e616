"""The conformance kit passes good games and bots and catches broken ones."""

from __future__ import annotations

from typing import Any

import pytest
from arena_testgame import RaceState, TinyRace

from arena.plugins import registry
from arena.testing import check_bot, check_game


@pytest.mark.parametrize("name", ["tiny-race", "explorers-of-the-lost-valley"])
def test_the_installed_games_pass(name: str) -> None:
    check_game(registry().game(name), games=3)


def test_the_explorers_advanced_game_passes() -> None:
    check_game(registry().game("explorers-of-the-lost-valley"), options={"advanced": True}, games=3)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_builtin_bots_pass(bot: str) -> None:
    game = registry().game("explorers-of-the-lost-valley")
    check_bot(registry().bot(bot), game, players=3)


class Unsorted(RaceState):
    def legal_actions(self) -> list[int]:
        return list(reversed(super().legal_actions()))


class SharesItsLists(RaceState):
    def observation(self, seat: int) -> dict[str, Any]:
        return {"positions": self.positions}


@pytest.mark.parametrize(
    ("state_class", "message"),
    [(Unsorted, "not sorted"), (SharesItsLists, "changing an observation changed the state")],
)
def test_a_broken_game_is_caught(state_class: type, message: str) -> None:
    class Broken(TinyRace):
        def new_initial_state(self, num_players: int, options: Any = None) -> RaceState:
            state: RaceState = state_class(num_players, 6)
            return state

    with pytest.raises(AssertionError, match=message):
        check_game(Broken(), games=2)


def test_a_bot_answering_illegally_is_caught() -> None:
    with pytest.raises(AssertionError, match="answered"):
        check_bot(registry().bot("cheater"), registry().game("tiny-race"))
