"""The referee: determinism, replays, and every kind of seat fault, with the bots in
sandboxed host processes and in-process alike."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from helpers import ISOLATION, outcome, spec

from arena.match import EngineError, faulty_last, play_match, replay
from arena.records import Limits, MatchResult, SeatSpec


@pytest.fixture(autouse=True, params=["process", "inprocess"])
def isolation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs once with each kind of seat."""
    ISOLATION["default"] = request.param
    yield request.param
    ISOLATION["default"] = "process"


def test_same_spec_gives_the_same_match() -> None:
    first = play_match(spec("random", "random", "random"))
    second = play_match(spec("random", "random", "random"))
    assert outcome(first) == outcome(second)
    assert first.statuses == ("ok", "ok", "ok")


def test_another_chance_seed_gives_another_match() -> None:
    histories = {play_match(spec("random", "random", seed=s)).history for s in range(8)}
    assert len(histories) > 1


def test_replaying_the_history_reproduces_the_result() -> None:
    match = spec("random", "random", "random", game="explorers-of-the-lost-valley")
    result = play_match(match)
    state = replay(match, result.history)
    assert state.is_terminal()
    assert tuple(state.scores()) == result.scores


def test_result_survives_a_json_round_trip() -> None:
    result = play_match(spec("random", "crasher"))
    assert MatchResult.from_json(result.to_json()) == result


def test_a_bot_that_raises_is_marked_error_ranked_last_and_replaced() -> None:
    result = play_match(spec("crasher", "random", "random"))
    assert result.statuses == ("error", "ok", "ok")
    assert str(result.errors[0]).endswith("RuntimeError: boom")
    assert result.ranking[0] == 2
    assert sorted(result.ranking[1:]) in ([0, 1], [0, 0])


def test_close_runs_once_at_the_end_of_a_match_its_seat_finished_and_not_after_a_fault(
    isolation: str,
) -> None:
    """The optional ``close()`` hook: called once the match is over for a seat that played
    it to the end; after a fault a sandboxed host is killed, so an in-process seat skips it
    too (it was called there, and not in the sandbox)."""
    from arena_testbots import Closer

    Closer.closed.clear()
    finished = play_match(spec("closer", "random"))
    faulted = play_match(spec(SeatSpec("closer-0", "closer", {"fail": True}), "random"))
    assert (finished.statuses[0], faulted.statuses[0]) == ("ok", "error")
    if isolation == "process":
        assert finished.outputs[0].count("CLOSED seat 0") == 1
        assert "CLOSED" not in faulted.outputs[0]
    else:
        assert Closer.closed == [0]


@pytest.mark.parametrize("game", ["explorers-of-the-lost-valley", "lost-valley-of-the-dinosaurs",
                                  "lost-explorers"])
def test_every_seat_gets_the_observation_types_the_readme_promises(
    game: str, isolation: str
) -> None:
    """README, *What a bot sees*: decoded JSON, the static part a read-only Static that stays
    the same object, the legal actions a tuple, an int-like answer played as its value."""
    from arena_testbots import Typist

    from arena.testing import check_bot

    result = play_match(spec("typist", "random", game=game))
    assert result.statuses == ("ok", "ok"), result.errors
    if isolation == "process":  # the kit seats the bot in this process either way: once
        assert check_bot(Typist, game, games=1).decisions > 0


def test_a_bot_that_sorts_a_static_list_changes_no_later_match(isolation: str) -> None:
    """README: a static part is read-only, and a match is fully determined by its config. Its
    lists were not read-only: a bot in the referee's process that sorted Explorers' ``cards``
    columns (``.sort()`` where it meant ``sorted()``) played on ``ok``, and every later
    match of that process saw the cards sorted: greedy played otherwise (three matches of
    three changed their histories, two their winners), so results depended on which worker
    had played the buggy bot before. Sorting raises now, there and in a sandboxed seat
    alike, and the seat ends ``error``."""
    game = "explorers-of-the-lost-valley"
    later = spec("greedy", "random", "greedy", game=game, seed=5)
    before = outcome(play_match(later))
    buggy = play_match(spec("sorter", "random", game=game, seed=1))
    assert buggy.statuses == ("error", "ok"), buggy.errors
    assert "read-only" in str(buggy.errors[0])
    assert outcome(play_match(later)) == before


def test_an_illegal_action_is_marked_illegal() -> None:
    result = play_match(spec("random", "cheater"))
    assert result.statuses == ("ok", "illegal")
    assert "not among the legal actions" in str(result.errors[1])
    assert result.ranking == (0, 1)


def test_garbage_answers_are_marked_illegal() -> None:
    result = play_match(spec("garbage", "random"))
    assert result.statuses == ("illegal", "ok")
    assert "'banana'" in str(result.errors[0])


def test_a_hanging_bot_is_interrupted_and_marked_timeout(isolation: str) -> None:
    limits = Limits(move_seconds=0.05, bank_seconds=0.05, isolation=isolation)
    sleeper = SeatSpec("sleeper", "sleeper", {"seconds": 60.0})
    started = time.perf_counter()
    result = play_match(spec(sleeper, "random", limits=limits))
    assert time.perf_counter() - started < 5  # interrupted, not waited out
    assert result.statuses == ("timeout", "ok")
    assert result.ranking == (1, 0)


def test_the_bank_absorbs_overruns_until_it_is_spent(isolation: str) -> None:
    # 30 ms per move against 10 ms per move: 20 ms a move comes out of a 50 ms bank,
    # so the third slow move overdraws it.
    limits = Limits(move_seconds=0.01, bank_seconds=0.05, isolation=isolation)
    sleeper = SeatSpec("sleeper", "sleeper", {"seconds": 0.03})
    result = play_match(spec(sleeper, "random", limits=limits, options={"goal": 50}))
    assert result.statuses[0] == "timeout"
    assert result.think_seconds[0] >= 0.05
    assert result.max_move_seconds[0] >= 0.03


def test_a_bot_whose_constructor_fails_is_marked_error() -> None:
    bad = SeatSpec("bad", "random", {"no_such_param": 1})
    result = play_match(spec(bad, "random"))
    assert result.statuses == ("error", "ok")
    assert "TypeError" in str(result.errors[0]) and "no_such_param" in str(result.errors[0])


def test_an_engine_exception_is_an_engine_error_not_a_seat_fault() -> None:
    with pytest.raises(EngineError, match="exploded"):
        play_match(spec("random", "random", options={"explode_after": 3}))


def test_faulty_seats_share_the_last_place() -> None:
    assert faulty_last([0, 1, 2, 3], ["ok", "error", "ok", "timeout"]) == (0, 2, 1, 2)
    assert faulty_last([1, 0, 0], ["ok", "ok", "ok"]) == (2, 0, 0)
    assert faulty_last([0, 1], ["illegal", "crash"]) == (0, 0)


def test_an_answer_whose_index_or_repr_raises_is_still_just_illegal() -> None:
    from arena.match import Referee

    class Nasty:
        def __index__(self) -> int:
            raise ValueError("no")

        def __repr__(self) -> str:
            raise RuntimeError("nor this")

    match = spec("random", "random")
    from arena.plugins import registry

    state = registry().game("tiny-race").new_initial_state(2)
    referee = Referee(match)
    action = referee._checked(state, 0, Nasty(), state.legal_actions())
    referee.close(None)
    assert action in state.legal_actions()
    assert referee.statuses[0] == "illegal"
    assert referee.errors[0] == ("answered an object of type Nasty, not an action id: act must "
                                 "return one of legal_actions, an int")


@pytest.mark.parametrize(("answer", "said"), [
    ("1", "answered '1' (a str)"), (1.0, "answered 1.0 (a float)"),
    (True, "answered True (a bool)"), (None, "answered None,")])
def test_an_answer_of_another_type_says_its_type_and_what_to_answer(
        answer: object, said: str) -> None:
    """A careless author's bot returned its action as a string; the fault said "answered
    '1', not an action id", which reads like a legal-looking id refused for no reason."""
    from arena.match import Referee
    from arena.plugins import registry

    state = registry().game("tiny-race").new_initial_state(2)
    referee = Referee(spec("random", "random"))
    referee._checked(state, 0, answer, state.legal_actions())
    referee.close(None)
    assert referee.statuses[0] == "illegal"
    assert referee.errors[0].startswith(said)
    assert referee.errors[0].endswith("act must return one of legal_actions, an int")
