"""Red team, round 16: attacks on the sandbox that earlier rounds left open, played for real
(bot hosts in bubblewrap and in the fallback)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from helpers import spec

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.seats.process import POOL

SANDBOXES = ["required", "fallback"]


@pytest.fixture(params=SANDBOXES)
def sandbox(request: pytest.FixtureRequest) -> Iterator[str]:
    POOL.close()
    yield request.param
    POOL.close()


def timed_duel(bot: SeatSpec, sandbox: str, move_seconds: float) -> tuple[MatchResult, float]:
    """``bot`` in seat 0 against ``random`` in seat 1 on the tiny test race, and the CPU time
    the referee (this process) spent on the match."""
    limits = Limits(isolation="process", sandbox=sandbox, memory_mb=512,  # type: ignore[arg-type]
                    move_seconds=move_seconds, bank_seconds=0.0, startup_seconds=10.0)
    before = time.process_time()
    result = play_match(spec(bot, "random", limits=limits))
    return result, time.process_time() - before


def test_an_answer_written_a_byte_at_a_time_costs_its_own_clock_not_the_referee(
    sandbox: str,
) -> None:
    """A host that wrote its answer a byte at a time, each only once the referee had read the
    last, had the referee wake, read and search the line so far for every byte: in the 3 s
    of its clock it wrote 19,000 to 34,000 bytes so, and the referee spent 1.1 to 1.2 s of
    its CPU on it (the host 0.9 to 1.0 s), on the worker's core and outside the bot's limits.
    Now a piece of a line shorter than a pipe's atomic write is read after a pause: the
    dribbler runs out of its own time (``timeout``), the other seat and the match go on, and
    the referee spends about 0.1 s."""
    timed_duel(SeatSpec("d", "zoo-dribble", {"padding": 0}), sandbox, 3.0)  # plugins listed
    honest, baseline = timed_duel(SeatSpec("d", "zoo-dribble", {"padding": 0}), sandbox, 3.0)
    assert honest.statuses == ("ok", "ok"), honest.errors
    result, spent = timed_duel(SeatSpec("d", "zoo-dribble"), sandbox, 3.0)
    assert result.statuses == ("timeout", "ok"), result.errors
    assert "no answer within the time allowed for a decision" in str(result.errors[0])
    assert result.ranking == (1, 0) and result.actions > 0
    assert spent - baseline < 0.3, (spent, baseline, result.outputs[0][-60:])
