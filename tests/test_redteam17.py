"""Red team, round 17: attacks on the sandbox that earlier rounds left open, played for real
(bot hosts in bubblewrap and in the fallback)."""

from __future__ import annotations

import errno
import re

from helpers import spec

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec


def waker_duel(when: str, sandbox: str) -> MatchResult:
    limits = Limits(isolation="process", sandbox=sandbox,  # type: ignore[arg-type]
                    move_seconds=5.0, bank_seconds=0.0, startup_seconds=10.0)
    slow = SeatSpec("slow", "zoo-waker", {"when": "never", "think": 0.3})
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
    assert result.actions > 2 and ran_while_stopped(output) < 0.05, output[-300:]


def test_a_host_that_wakes_itself_while_stopped_is_illegal(sandbox: str) -> None:
    """The same host's children, started with ``SIGCONT`` as the signal their end sends their
    parent (``clone``'s exit signal), each waiting for the host to stop and then exiting
    before the sweep came: a thread of it ran on between its turns, 2.2 to 4.5 s of the
    others' time in a match in bubblewrap (the sweep's second stop caught some). The
    referee now reads the host's CPU time once it is stopped and again before its next
    request: one that ran meanwhile is ``illegal``, and its opponent plays on. (A host not
    woken in a match plays it out.)"""
    result = waker_duel("exit", sandbox)
    assert result.statuses[1] == "ok" and result.actions > 2, result.errors
    assert result.statuses[0] in ("ok", "illegal"), result.errors
    if result.statuses[0] == "illegal":
        assert "it woke itself" in str(result.errors[0]) and result.ranking == (1, 0)
    assert "CHILD" in result.outputs[0], result.outputs[0][:300]
    assert ran_while_stopped(result.outputs[0]) < 0.05, result.outputs[0][-300:]
