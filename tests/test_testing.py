"""The conformance kit passes good games and bots and catches broken ones."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from arena_testgame import RaceState, TinyRace

from arena.bot import Bot
from arena.errors import ArenaError
from arena.game import InvalidOptions
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


class TensorGrows(RaceState):
    def observation_tensor(self, seat: int) -> list[float]:
        return [float(p) for p in self.positions] + [0.0] * sum(self.positions)


class TensorNaN(RaceState):
    def observation_tensor(self, seat: int) -> list[float]:
        return [float("nan") if p else 0.0 for p in self.positions]


class TensorShared(RaceState):
    def observation_tensor(self, seat: int) -> list[float]:
        if not hasattr(self, "cached"):
            self.cached = [0.0, 1.0]
        return self.cached


@pytest.mark.parametrize(
    ("state_class", "message"),
    [(Unsorted, "not sorted"), (SharesItsLists, "changing an observation changed the state"),
     (TensorGrows, "observation_tensor\\(\\) changed its length"),
     (TensorNaN, "not a list of finite numbers"),
     (TensorShared, "changing an observation_tensor\\(\\) changed the state")],
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


def test_check_bot_takes_a_game_name_and_says_what_it_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = check_bot(registry().bot("random"), "tiny-race")
    assert (report.bot, report.game, report.players, report.games) == ("random", "tiny-race", 2, 3)
    assert report.decisions > 0 and report.params == {}
    assert capsys.readouterr().out == report.summary() + "\n"
    assert "random passed in tiny-race" in report.summary()
    assert check_bot(registry().bot("random"), registry().game("tiny-race")) == report


def test_check_bot_names_an_unknown_game() -> None:
    with pytest.raises(ArenaError, match="unknown game 'tiny-rice'; did you mean 'tiny-race'"):
        check_bot(registry().bot("random"), "tiny-rice")


def test_check_bot_refuses_a_game_the_bot_does_not_declare() -> None:
    class Elsewhere(Bot):
        name = "elsewhere"
        games = ("explorers-of-the-lost-valley",)

    with pytest.raises(AssertionError, match=r"declares games .* without 'tiny-race'"):
        check_bot(Elsewhere, "tiny-race")


class AdvancedOnly(Bot):
    """Written for Explorers' advanced game: it reads the trail tokens it can discard."""

    name = "advanced-only"
    games = ("explorers-of-the-lost-valley",)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        assert observation["advanced"], "played the basic game"
        return legal_actions[0]


def test_check_bot_plays_the_options_a_config_gives(capsys: pytest.CaptureFixture[str]) -> None:
    # arena check plays the advanced game; a bot's own tests could only play the basic one.
    report = check_bot(AdvancedOnly, "explorers-of-the-lost-valley", options={"advanced": True})
    assert report.options == {"advanced": True} and report.decisions > 0
    assert 'passed in explorers-of-the-lost-valley with options {"advanced": true}: 3 games' in (
        capsys.readouterr().out)
    with pytest.raises(AssertionError, match="played the basic game"):
        check_bot(AdvancedOnly, "explorers-of-the-lost-valley")


class Learner(Bot):
    """Learns between matches in close(), as the contract allows: its class attribute lasts
    as long as the process, so its next match plays other moves."""

    name = "learner"
    closed = 0

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[-1 if type(self).closed else 0]

    def close(self) -> None:
        type(self).closed += 1


def test_check_bot_closes_every_seat_at_the_end_of_each_game_as_a_tournament_does() -> None:
    # close() was never called: a bot that learns there passed check_bot, and in its
    # tournament the same seeds no longer gave the same moves.
    Learner.closed = 0
    with pytest.raises(AssertionError, match="the same seeds gave different moves"):
        check_bot(Learner, "tiny-race")
    assert Learner.closed == 2 * 2  # a game of two seats, played twice from its seed


def test_check_bot_refuses_an_option_the_game_does_not_take() -> None:
    with pytest.raises(InvalidOptions, match="advancd"):
        check_bot(AdvancedOnly, "explorers-of-the-lost-valley", options={"advancd": True})


def test_check_bot_refuses_games_written_as_one_string_as_arena_bots_does() -> None:
    # `("tiny-race")` is a string: `"tiny-race" in games` held, so check_bot passed the bot
    # and only the sandboxed listing refused it, for a "game name '-'".
    from arena_testbroken import OneGame

    with pytest.raises(AssertionError, match=r"OneGame.games is the string 'tiny-race', not a "
                                             r"tuple of game names .*\('tiny-race',\)"):
        check_bot(OneGame, "tiny-race")


def test_check_bot_says_what_a_bot_without_a_constructor_lacks() -> None:
    # "A bot is any class with a name ... and act": without __init__, each seat raised
    # "TypeError: Argless() takes no arguments".
    from arena_testbroken import Argless

    with pytest.raises(AssertionError, match="does not take the keyword arguments game, seat, "
                                             "num_players and seed"):
        check_bot(Argless, "tiny-race")


def test_a_bot_whose_act_lacks_an_argument_is_refused_before_it_plays() -> None:
    """A careless author wrote ``act(self, observation)``: the bot was listed and checked,
    and every decision of every seat failed with Python's ``takes 2 positional arguments
    but 3 were given``; now it is skipped, as a class without the constructor is, saying
    what to define."""
    from arena.classes import bot_problem

    class OneArgument(Bot):
        name = "one-argument"

        def act(self, observation: Mapping[str, Any]) -> int:  # type: ignore[override]
            return 0

    class Flexible(Bot):
        name = "flexible"

        def act(self, *given: Any) -> int:
            return int(given[1][0])

    class Static(Bot):
        name = "static"

        @staticmethod
        def act(observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
            return legal_actions[0]

    with pytest.raises(AssertionError, match=r"OneArgument\.act\(self, observation\W.* does "
                       r"not take the two arguments the referee calls it with: define "
                       r"act\(self, observation, legal_actions\)$"):
        check_bot(OneArgument, "tiny-race")
    assert bot_problem(Flexible) is None and bot_problem(Static) is None
    assert check_bot(Static, "tiny-race").decisions > 0


def test_check_bot_hands_the_observation_over_as_a_sandboxed_bot_gets_it() -> None:
    class TupleState(RaceState):
        def observation(self, seat: int) -> dict[str, Any]:
            return {"positions": tuple(self.positions), "by_seat": {0: "first"}}

    class TupleRace(TinyRace):
        def new_initial_state(self, num_players: int, options: Any = None) -> RaceState:
            return TupleState(num_players, 6)

    class Strict(Bot):
        """Plays only if it sees what the JSON protocol delivers: lists and string keys."""

        name = "strict"

        def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
            decoded = type(observation["positions"]) is list and "0" in observation["by_seat"]
            return legal_actions[0] if decoded else -1

    assert check_bot(Strict, TupleRace()).decisions > 0


class Scribbler(Bot):
    """Notes its moves in the game's read-only table, as a stranger's bot did: check_bot
    passed it (a plain dict there), every tournament seat faulted it (``TypeError``)."""

    name = "scribbler"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        observation["cards"]["mine"] = legal_actions[0]
        return legal_actions[0]


def test_check_bot_gives_the_static_parts_read_only_as_a_tournament_seat_does() -> None:
    with pytest.raises(TypeError, match="read-only"):
        check_bot(Scribbler, "explorers-of-the-lost-valley")


def test_check_bot_gives_a_static_part_as_one_object_for_the_whole_game() -> None:
    seen: set[int] = set()

    class Keeper(Bot):
        name = "keeper"

        def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
            seen.add(id(observation["cards"]))
            assert type(legal_actions) is tuple
            return legal_actions[0]

    check_bot(Keeper, "explorers-of-the-lost-valley", games=1)
    assert len(seen) == 2  # the same object at every decision: one per game, played twice


def test_check_bot_reads_an_int_like_answer_as_the_referee_does() -> None:
    class IntLike:
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    class Indexed(Bot):
        """Answers as a policy network's argmax does (``numpy.int64``): the referee plays it."""

        name = "indexed"

        def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> Any:
            return IntLike(legal_actions[0])

    assert check_bot(Indexed, "tiny-race").decisions > 0


@pytest.mark.parametrize("answer", [True, 1.0, "1"])
def test_check_bot_names_an_answer_that_is_no_action_id(answer: object) -> None:
    class Odd(Bot):
        name = "odd"

        def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> Any:
            return answer

    kind = type(answer).__name__
    with pytest.raises(AssertionError, match=re.escape(
            f"answered {answer!r} (a {kind}), not an action id: act must return one of "
            "legal_actions, an int")):
        check_bot(Odd, "tiny-race")


def test_check_game_refuses_an_observation_that_json_would_change() -> None:
    class TupleState(RaceState):
        def observation(self, seat: int) -> dict[str, Any]:
            return {"positions": tuple(self.positions)}

    class TupleRace(TinyRace):
        def new_initial_state(self, num_players: int, options: Any = None) -> RaceState:
            return TupleState(num_players, 6)

    with pytest.raises(AssertionError, match="holds what JSON does not give back"):
        check_game(TupleRace(), games=1)


@pytest.mark.parametrize("game", ["lost-valley-of-the-dinosaurs", "explorers-of-the-lost-valley"])
def test_check_bot_refuses_a_bot_that_changes_a_static_part_in_place(game: str) -> None:
    """``Static`` refused writes to its keys, not to its lists: a careless bot that pruned
    ``board["neighbors"]`` in place passed ``check_bot``, and in an in-process seat it changed
    the engine's own board, which every seat of the worker reads in every later match. Its
    lists are read-only now too, in ``check_bot`` as in a seat; a bot that got round that
    would still be refused by ``check_bot``'s comparison with the engine's parts."""
    key = "board" if game.startswith("lost-valley") else "cards"

    class Pruner(Bot):
        name = "pruner"

        def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> Any:
            first = next(iter(observation[key].values()))
            if first:
                first.pop()
            return legal_actions[0]

    with pytest.raises(TypeError, match="a static part of an observation is read-only"):
        check_bot(Pruner, game)
