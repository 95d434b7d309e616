"""Red team, round 18: attacks on the sandbox and the referee that earlier rounds left open,
played for real (bot hosts in bubblewrap and in the fallback)."""

from __future__ import annotations

import time

from helpers import spec

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.seats.process import POOL, HostProcess


def duel(bot: SeatSpec, sandbox: str, seed: int = 7, **limits: float) -> MatchResult:
    """``bot`` in seat 0 against ``random`` on the tiny test race."""
    chosen = Limits(isolation="process", sandbox=sandbox,  # type: ignore[arg-type]
                    move_seconds=5.0, bank_seconds=0.0, startup_seconds=10.0, **limits)
    return play_match(spec(bot, "random", limits=chosen, seed=seed))


def idle_hosts(bot: str) -> list[HostProcess]:
    return [host for key, hosts in POOL.idle.items() if bot in key for host in hosts]


def test_a_host_cannot_wake_itself_in_the_pool_after_its_match(sandbox: str) -> None:
    """A host is stopped after its ``done`` and waits so in the pool for its next match. The
    red team's bot, in its ``close()``, started a spinning thread and a child whose end sends
    the host ``SIGCONT`` (``clone``'s exit signal) holding 150 MiB: the child exited once
    the host was stopped, the sweep counted it and stopped the host again, but the child was
    still freeing its memory, and its ``SIGCONT`` came after that stop. The host then ran in
    the pool, between matches it played no part in (0.2 to 0.46 s of CPU a second, in
    bubblewrap and in the fallback), until its next match found it out (``illegal``) or for
    good. The stop after a sweep now waits for the processes swept to have ended."""
    first = duel(SeatSpec("l", "zoo-lingerer", {"heavy": 150}), sandbox)
    assert first.statuses == ("ok", "ok") and "CHILD" in first.outputs[0], first.errors
    (host,) = idle_hosts("zoo-lingerer")
    before = host.cpu_used()
    time.sleep(0.5)
    assert host.cpu_used() - before < 0.02
    second = duel(SeatSpec("l", "zoo-lingerer", {"heavy": 150}), sandbox, seed=8)
    assert second.statuses == ("ok", "ok"), second.errors
