"""Red team, round 17: attacks on the sandbox that earlier rounds left open, played for real
(bot hosts in bubblewrap and in the fallback)."""

from __future__ import annotations

import errno
import re
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


def waker_duel(when: str, sandbox: str) -> MatchResult:
    limits = Limits(isolation="process", sandbox=sandbox,  # type: ignore[arg-type]
                    move_seconds=5.0, bank_seconds=0.0, startup_seconds=10.0)
    slow = SeatSpec("slow", "zoo-waker", {"when": "never", "think": 0.2})
    return play_match(spec(SeatSpec("w", "zoo-waker", {"when": when}), slow, limits=limits))


def ran_while_stopped(output: str) -> float:
    return max(float(seconds) for seconds in re.findall(r"RAN WHILE STOPPED ([0-9.]+) s",
                                                         output))


def test_a_host_cannot_have_its_output_pipe_wake_it_while_stopped(sandbox: str) -> None:
    """A host is held stopped (``SIGSTOP``) between its turns, until a ``SIGCONT``; the red
    team's had the kernel send it one: its output pipe set to signal the host when read
    (``O_ASYNC``, ``F_SETOWN``) with ``SIGCONT`` (``F_SETSIG``), and a thread writing a byte
    every millisecond, and a byte left at each answer that the drain read after the stop (it
    pauses after a piece of output). The thread ran 0.9 to 2.9 s of the others' time in a
    match, in bubblewrap and in the fallback. The filter now refuses ``F_SETSIG``
    (``EPERM``): the host stays stopped, and the match goes on."""
    result = waker_duel("read", sandbox)
    assert result.statuses == ("ok", "ok"), result.errors
    output = result.outputs[0]
    assert f"ARMED refused {errno.EPERM}" in output, output[:300]
    assert result.actions > 2 and ran_while_stopped(output) == 0.0, output[-300:]
