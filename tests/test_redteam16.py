"""Red team, round 16: attacks on the sandbox that earlier rounds left open, played for real
(bot hosts in bubblewrap and in the fallback)."""

from __future__ import annotations

import time

import pytest
from helpers import spec

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.seats import cgroups
from arena.seats import sandbox as sandbox_module


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


@pytest.mark.skipif(cgroups.available() is None, reason="no control group on this machine")
def test_data_queued_on_unix_connections_never_accepted_counts_against_the_group(
    sandbox: str,
) -> None:
    """A listener of the bot's own that never accepts keeps what each connection to it sent,
    after the client has closed: one open file holds up to 4,096 connections' send buffers
    (about 850 MiB), past the 64 open files. It is the kernel's memory, as TCP's is (which a
    control group of cgroup v1 does not count: a sandbox has no TCP), but this kernel charges
    it to the host's group: the red team's host held 550 MiB so in a seat of ``memory_mb =
    512`` (its group's peak 426 MiB at 400), and was killed by the group's limit at 800, where
    the other seat played on."""
    # Time to spare on a loaded machine (the group's kill ends the turn, not the clock).
    limits = Limits(isolation="process", sandbox=sandbox, memory_mb=512,  # type: ignore[arg-type]
                    move_seconds=20.0, bank_seconds=0.0, startup_seconds=20.0)
    result = play_match(spec(SeatSpec("hog", "zoo-hog", {"backlog_mb": 1200}), "random",
                             limits=limits))
    assert result.statuses == ("crash", "ok"), (result.errors, result.outputs)
    assert "SIGKILL" in str(result.errors[0]) and result.ranking == (1, 0)
    assert "BACKLOG HELD" not in result.outputs[0]


def test_output_written_a_byte_at_a_time_costs_its_own_clock_not_the_referee(
    sandbox: str,
) -> None:
    """The same host writing its output a byte at a time, each once the referee's drain had
    read the last, cost the referee a wake-up and a read a byte for the first 64 KiB of each
    match (what is kept), more CPU than the host's own. The drain now pauses after a read
    of less than a pipe's atomic write: the dribbler runs out of its own time, and the
    referee spends little."""
    timed_duel(SeatSpec("d", "zoo-dribble", {"padding": 0}), sandbox, 3.0)  # plugins listed
    honest, baseline = timed_duel(SeatSpec("d", "zoo-dribble", {"padding": 0}), sandbox, 3.0)
    assert honest.statuses == ("ok", "ok"), honest.errors
    result, spent = timed_duel(SeatSpec("d", "zoo-dribble", {"answers": "output"}), sandbox,
                               3.0)
    assert result.statuses == ("timeout", "ok"), result.errors
    assert result.ranking == (1, 0) and result.outputs[0].count(".") > 100
    assert spent - baseline < 0.3, (spent, baseline, len(result.outputs[0]))


def test_two_seats_share_no_abstract_unix_socket_names(sandbox: str) -> None:
    """``AF_UNIX`` sockets are left to a sandbox, and a name of their abstract namespace needs
    no file: any process may bind one and list those bound (``/proc/net/unix``). The names
    are kept apart by network namespace, which each host has of its own (bubblewrap's, or a
    root arena's fallback's): the colluding pair, each binding a name that spells its secret
    and racing for a well-known one, hear nothing of each other and play on."""
    if sandbox == "fallback" and not sandbox_module.fallback_user():
        pytest.skip("a fallback host has a network namespace of its own only as root's")
    limits = Limits(isolation="process", sandbox=sandbox, move_seconds=5.0,  # type: ignore[arg-type]
                    bank_seconds=0.0, startup_seconds=10.0)
    colluders = [SeatSpec(label, "zoo-colluder", {"channel": "abstract"}) for label in "ab"]
    result = play_match(spec(*colluders, limits=limits))
    assert result.statuses == ("ok", "ok"), result.errors
    assert all("SAID" in output for output in result.outputs), result.outputs
    assert not [output for output in result.outputs if "HEARD" in output], result.outputs
