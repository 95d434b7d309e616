"""The zoo of hostile bots (``tests/plugins/arena_testzoo.py``) in sandboxed seats.

Each bot plays a real match against ``random`` in a sandboxed host, inside
bubblewrap and in the fallback without it, and ends with the status it has
earned; the other seat plays on unharmed and the match completes. The snoop
must find nothing under bubblewrap; the fallback hides less (it says so in
``arena check``) and is held to what it promises: no secrets in the
environment and no network.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import platform
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import alive, bot_hosts_under, spec, started_here

from arena.match import MAX_ERROR_CHARS, play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.schedule import round_robin
from arena.seats import cgroups, process
from arena.seats import sandbox as sandbox_module
from arena.seats.process import OUTPUT_BYTES, POOL
from arena.seats.sandbox import Confinement, dependency_locations

SANDBOXES = ["required", "fallback"]
"""``required``: bubblewrap (CI installs it; missing, these tests fail, they do not skip)."""


def limits(sandbox: str, **overrides: float) -> Limits:
    values = {"move_seconds": 0.3, "bank_seconds": 0.2, "startup_seconds": 5.0, **overrides}
    return Limits(isolation="process", sandbox=sandbox, memory_mb=512, **values)  # type: ignore[arg-type]


def duel(bot: str | SeatSpec, sandbox: str, **overrides: float) -> MatchResult:
    """``bot`` in seat 0 against ``random`` in seat 1, on the tiny test race."""
    return play_match(spec(bot, "random", limits=limits(sandbox, **overrides)))


def hosts_now() -> set[int]:
    """The bot hosts this test process has running (with their sandboxes and children; Ray's
    workers, also children of this process, and their hosts are not among them)."""
    return bot_hosts_under(os.getpid())


@pytest.fixture(params=SANDBOXES)
def sandbox(request: pytest.FixtureRequest) -> Iterator[str]:
    yield request.param
    POOL.close()


@pytest.mark.parametrize("kind", ["string", "none", "float", "huge", "bool", "list"])
def test_garbage_answers_are_illegal(sandbox: str, kind: str) -> None:
    result = duel(SeatSpec("junk", "zoo-junk", {"kind": kind}), sandbox)
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0)


def test_an_answer_nested_too_deep_to_decode_is_illegal_not_an_engine_failure(
    sandbox: str
) -> None:
    result = duel(SeatSpec("forger", "zoo-forger", {"mode": "deep"}), sandbox)
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0)
    assert "not a JSON object" in str(result.errors[0])


def test_an_error_holding_a_lone_surrogate_is_written_as_a_replacement(sandbox: str) -> None:
    """Half a UTF-16 pair in a bot's error (JSON's ``\\ud800``) is no character: UTF-8 cannot
    write it, and ``arena run``, ``arena check`` and ``arena leaderboard`` raised printing
    it. The referee reads it as U+FFFD."""
    result = duel("zoo-surrogate", sandbox)
    assert result.statuses == ("error", "ok") and result.ranking == (1, 0)
    error = str(result.errors[0])
    assert "half a character: \ufffd \ufffd" in error and error.encode("utf-8")


def test_an_error_a_bot_writes_at_its_start_is_kept_short(sandbox: str) -> None:
    """A host's first message, an error of a megabyte that the bot wrote itself: it was kept
    whole in the match record (a line of matches.jsonl a megabyte long for every match the
    bot failed to start in, four with a longer one) and printed whole by arena run's and
    arena leaderboard's summary of faults."""
    result = duel("zoo-loud-start", sandbox)
    assert result.statuses == ("error", "ok")
    error = str(result.errors[0])
    assert error.startswith("failed to start: ") and "failed failed" in error
    assert len(error) <= MAX_ERROR_CHARS


def test_an_answer_sent_twice_is_illegal_and_said_so(sandbox: str) -> None:
    result = duel(SeatSpec("twice", "zoo-forger", {"mode": "twice"}), sandbox)
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0)
    assert "sent a message nobody asked for" in str(result.errors[0])


def test_a_bot_that_stops_reading_its_requests_is_timed_out(sandbox: str) -> None:
    """It fills its own request pipe and answers from another thread without returning: the
    referee's next request finds the pipe full. Its write waits under the decision's
    deadline, so the seat times out and the match goes on (it waited forever before). A
    fallback host of an arena run as root, a user of its own, may not open its pipe again
    for writing (it is root's): its bot fails there, with its error."""
    result = duel(SeatSpec("pipefill", "zoo-forger", {"mode": "pipefill"}), sandbox)
    if sandbox == "fallback" and sandbox_module.fallback_user():
        assert result.statuses == ("error", "ok") and result.ranking == (1, 0)
        assert "Permission denied" in str(result.errors[0])
        return
    assert result.statuses == ("timeout", "ok") and result.ranking == (1, 0)
    assert "did not read what it was sent" in str(result.errors[0])


def test_a_kept_host_never_plays_a_deal_it_has_played(sandbox: str) -> None:
    """Every seating of a table shares the table's chance seed, and a bot gets the same seed
    at each: a host kept from one seating for the next would remember the deal's cards and
    dice, hidden from it until drawn (the red team's seer knew them in 12 of its 18 matches of
    a tournament). Hosts are still kept for the deals they have not played."""
    entries = [SeatSpec("memory", "zoo-memory"), SeatSpec("random", "random")]
    plan = round_robin(game="tiny-race", options={}, entries=entries, players=2, rounds=2,
                       seed=3, seating="permutations", limits=limits(sandbox))
    said = []
    for match in plan:
        result = play_match(match)
        assert result.statuses == ("ok", "ok"), result.errors
        said.append(result.outputs[[seat.label for seat in match.seats].index("memory")])
    assert not [output for output in said if "DEJA-VU" not in output and "FRESH" not in output]
    assert not [output for output in said if "DEJA-VU" in output], said
    assert ["HOST PLAYED 1 BEFORE" in output for output in said] == [False, False, True, True]


def test_output_written_before_it_is_taken_is_never_lost() -> None:
    """The drain thread reads a chunk and keeps it as one step: a bot's last words, read from
    the pipe but not yet kept when the match took its output, were lost under load (one
    faulted match of four had no outputs file)."""

    class Slow(process.Output):
        def _read(self) -> bytes:
            chunk = super()._read()
            time.sleep(0.05)  # a drain thread descheduled between reading and keeping
            return chunk

    read, write = os.pipe()
    output = Slow(read)
    try:
        os.write(write, b"last words\n")
        deadline = time.monotonic() + 5
        while output.pending.poll(0) and time.monotonic() < deadline:
            time.sleep(0.001)  # the chunk has left the pipe: the thread is keeping it
        assert output.take() == "last words\n"
    finally:
        os.close(write)


def test_a_killed_process_leaves_no_fallback_working_directory_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fallback host's working directory is removed when the seat ends the host, but a process
    killed outright (SIGKILL) cannot: the next process to start a fallback host removes the
    folders of processes that are gone, and only those (11 were left per run of the suite)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    sandbox_module.sweep_workdirs.cache_clear()
    gone = subprocess.Popen(["true"])
    gone.wait()
    prefix = sandbox_module.WORKDIR_PREFIX
    left = tmp_path / f"{prefix}{gone.pid}-abc"
    (left / "sub").mkdir(parents=True)
    (left / "sub" / "file").write_text("x")
    kept = [tmp_path / f"{prefix}1-def", tmp_path / f"{prefix}{os.getpid()}-ghi",
            tmp_path / f"{prefix}xyz", tmp_path / "other-123-x"]
    for path in kept:
        path.mkdir()
    try:
        made = Path(sandbox_module.fallback_workdir())
        assert made.parent == tmp_path and made.name.startswith(f"{prefix}{os.getpid()}-")
        assert not left.exists()
        assert all(path.exists() for path in kept)
        assert sandbox_module.sweep_workdirs() == 1  # once per process: not swept again
    finally:
        sandbox_module.sweep_workdirs.cache_clear()
def test_output_past_what_is_kept_is_thrown_away_unread_and_slowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot that writes without end while it thinks cost the worker half a core for each
    core it wrote on: the drain read every byte into the referee and threw it away there.
    Past a match's share it now goes to ``/dev/null`` inside the kernel, a pipeful at a
    time with a pause after each (the bot's writes wait, in its own time): the red team's
    flood cost the referee 0.03 s of CPU instead of 0.54 s."""
    paused: list[float] = []

    def sleep(seconds: float) -> None:
        paused.append(seconds)
        time.sleep(seconds)

    clock = types.SimpleNamespace(sleep=sleep, perf_counter=time.perf_counter)
    monkeypatch.setattr(process, "time", clock)

    class Counted(process.Output):
        copied = 0

        def _read(self) -> bytes:
            chunk = super()._read()
            Counted.copied += len(chunk)
            return chunk

    read, write = os.pipe()
    output = Counted(read)
    flood = 4 << 20
    try:
        os.write(write, b"x" * OUTPUT_BYTES)
        written = OUTPUT_BYTES
        while written < OUTPUT_BYTES + flood:
            written += os.write(write, b"y" * (1 << 16))
    finally:
        os.close(write)
    output.thread.join(30)
    assert f"[... {flood} more bytes not kept]" in output.take()
    assert Counted.copied <= OUTPUT_BYTES + (1 << 16)
    assert paused.count(process.DISCARD_PAUSE) >= flood // (1 << 20)


@contextlib.contextmanager
def random_hosts(count: int) -> Iterator[list[process.HostProcess]]:
    """``count`` hosts of the ``random`` bot, started for a pool test and killed after it."""
    hosts = [process.HostProcess("arena_bot_random.plugin", ["--bot=random"], Confinement(),
                                 "auto") for _ in range(count)]
    try:
        yield hosts
    finally:
        for host in hosts:
            host.kill()


def test_the_pool_keeps_a_bounded_number_of_idle_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past :data:`MAX_IDLE_HOSTS` the host released longest ago is closed, whatever its bot:
    a stopped host holds its memory, and a tournament of many bots would keep many."""
    monkeypatch.setattr(process, "MAX_IDLE_HOSTS", 2)
    pool = process.HostPool()
    with random_hosts(3) as hosts:
        for key, host in zip(["a", "b", "a"], hosts, strict=True):
            pool.release(key, host)
        assert [host.alive for host in hosts] == [False, True, True]
        assert pool.acquire("a") is hosts[2] and pool.acquire("a") is None
        assert pool.acquire("b") is hosts[1]


def test_the_pool_keeps_idle_hosts_within_a_memory_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Idle hosts hold their memory: past :func:`process.idle_budget` in all, the host
    released longest ago is closed, whatever its bot, though fewer than
    :data:`MAX_IDLE_HOSTS` are kept."""
    monkeypatch.setattr(process.HostProcess, "resident_bytes", lambda self: 100 << 20)
    monkeypatch.setattr(process, "idle_budget", lambda: 250 << 20)
    pool = process.HostPool()
    with random_hosts(3) as hosts:
        for key, host in zip(["a", "b", "c"], hosts, strict=True):
            pool.release(key, host)
        assert [host.alive for host in hosts] == [False, True, True]
        assert pool.acquire("a") is None and pool.acquire("c") is hosts[2]


def test_the_arena_writes_the_bytecode_a_host_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host's binds are read-only and its environment says not to write bytecode, so the
    arena compiles what a host imports (a bot's package, the arena's) where it may: never
    where the user asked for none, and a broken file stops nothing."""
    package = tmp_path / "arena_bot_compiled"
    package.mkdir()
    (package / "__init__.py").write_text("VALUE = 1\n")
    (package / "broken.py").write_text("def (\n")
    single = tmp_path / "single.py"
    single.write_text("VALUE = 2\n")

    def caches() -> list[str]:
        return sorted(path.name for path in tmp_path.rglob("*.pyc"))

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    sandbox_module.compiled.__wrapped__(package, single)
    assert caches() == []
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    sandbox_module.compiled.__wrapped__(package, None, single, tmp_path / "gone")
    assert [name.split(".")[0] for name in caches()] == ["__init__", "single"]


def test_closing_the_pool_ends_every_idle_host_and_closes_each_pipe_once() -> None:
    """The pool lets every host go before it waits for any (one after the other took 15 ms a
    host, two seconds for a full pool at a worker's exit), and a host's pipes are closed
    once: closed twice, the number may by then be another file's."""
    pool = process.HostPool()
    with random_hosts(3) as hosts:
        for host in hosts:
            host.greet(10.0)
        for key, host in zip("abc", hosts, strict=True):
            host.pause()
            pool.release(key, host)
        processes = {host.process.pid for host in hosts}
        pool.close()
        assert not pool.idle and not any(host.alive for host in hosts)
        assert all(host.to_host == host.from_host == -1 for host in hosts)
        assert gone(processes)


def test_idle_hosts_leave_the_user_most_of_the_process_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host that cannot start is its bot's crash: under a process limit (``ulimit -u``) the
    idle hosts of one worker a core take at most half of it; root and no limit: 128."""
    monkeypatch.setattr(process.os, "cpu_count", lambda: 16)
    monkeypatch.setattr(process.os, "geteuid", lambda: 1000)
    count = process.idle_hosts.__wrapped__
    for soft, kept in ((4096, 42), (1_000_000, process.MAX_IDLE_HOSTS), (10, 1)):
        monkeypatch.setattr(process.resource, "getrlimit", lambda _which, soft=soft: (soft, soft))
        assert count() == kept
    monkeypatch.setattr(process.resource, "getrlimit",
                        lambda _which: (process.resource.RLIM_INFINITY,) * 2)
    assert count() == process.MAX_IDLE_HOSTS
    monkeypatch.setattr(process.resource, "getrlimit", lambda _which: (4096, 4096))
    monkeypatch.setattr(process.os, "geteuid", lambda: 0)
    assert count() == process.MAX_IDLE_HOSTS


def test_idle_hosts_hold_at_most_a_cores_share_of_a_quarter_of_the_memory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The idle hosts' budget: a quarter of the memory shared among the cores, the machine's
    or, where smaller, its container's group's; never under 256 MiB."""
    budget = process.idle_budget.__wrapped__
    physical = os.sysconf("SC_PHYS_PAGES") * process.PAGE_BYTES
    cores = os.cpu_count() or 1
    assert process.MIN_IDLE_BYTES <= budget() <= max(process.MIN_IDLE_BYTES,
                                                       physical // (4 * cores))
    limit = tmp_path / "memory.max"
    real = Path

    def limited(place: str) -> Path:
        return limit if place == "/sys/fs/cgroup/memory.max" else real("/nonexistent")

    monkeypatch.setattr(process, "Path", limited)
    limit.write_text(f"{(64 << 30) * cores}\n")
    assert budget() == min(physical, (64 << 30) * cores) // (4 * cores)
    limit.write_text(f"{(2 << 30) * cores}\n")
    assert budget() == max(process.MIN_IDLE_BYTES, min(physical, (2 << 30) * cores) // (4 * cores))
    limit.write_text("max\n")
    assert budget() == max(process.MIN_IDLE_BYTES, physical // (4 * cores))


@pytest.mark.parametrize("kept", [6, 5])
def test_a_bot_at_every_seating_of_a_table_gets_a_host_a_seating_then_reuses_them(
    kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host never plays a deal twice, so a bot seated at the 6 seatings of a three-seat
    table needs 6 hosts; with 6 kept the next table starts none, with 5 it starts one of
    each bot again. Kept by default: one for each seating of a four-seat table, every
    order (a four-seat round robin with 8 kept started about three hosts a match)."""
    assert process.MAX_IDLE_PER_BOT >= 4 * 3 * 2
    monkeypatch.setattr(process, "MAX_IDLE_PER_BOT", kept)
    limits = Limits(isolation="process", move_seconds=5.0, bank_seconds=30.0)
    entries = [SeatSpec("random", "random"), SeatSpec("greedy", "greedy"),
               SeatSpec("bold", "greedy", {"risk": 0.8})]
    plan = list(round_robin(game="explorers-of-the-lost-valley", options={}, entries=entries,
                            players=3, rounds=2, seed=3, seating="permutations",
                            limits=limits))
    POOL.close()
    started = []
    for table in (plan[:6], plan[6:]):
        before = POOL.started
        for match in table:
            result = play_match(match)
            assert result.statuses == ("ok", "ok", "ok"), result.errors
        started.append(POOL.started - before)
    POOL.close()
    assert started == [18, 0 if kept == 6 else 3]


def idle_after_hog_matches(
    params: dict[str, int], limits: Limits
) -> tuple[list[process.HostProcess], list[process.HostProcess]]:
    """Play ``zoo-hog`` (with ``params``) against ``random`` over four deals from an empty
    pool; the idle hosts the pool then keeps, the hog's and random's."""
    POOL.close()
    entries = [SeatSpec("hog", "zoo-hog", params), SeatSpec("random", "random")]
    plan = round_robin(game="tiny-race", options={}, entries=entries, players=2, rounds=2,
                       seed=5, seating="rotations", limits=limits)
    for match in plan:
        result = play_match(match)
        assert result.statuses == ("ok", "ok"), result.errors
    hogs = [host for key, hosts in POOL.idle.items() if "zoo-hog" in key for host in hosts]
    randoms = [host for key, hosts in POOL.idle.items() if '"random"' in key for host in hosts]
    return hogs, randoms


@pytest.mark.parametrize(("grouped", "mode"),
                         [(True, "required"), (False, "required"), (False, "fallback")])
def test_what_idle_hosts_keep_in_their_scratch_folders_counts_against_the_limit(
    grouped: bool, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that fills its scratch folders (memory, but in no process's resident pages) in
    every host it is given: the pool counts them, the files' contents and their inodes (its
    control group's charge, or without one what the folders hold), and keeps one idle host,
    not one per deal (six such hosts of 60 MiB and 300,000 files each held 3 GB while the
    pool saw about 20 MB each). A root arena's fallback host has such folders too."""
    if mode == "fallback" and not sandbox_module.fallback_user():
        pytest.skip("only a root arena's fallback host has scratch folders of its own")
    if not grouped:
        monkeypatch.setattr(cgroups, "create", lambda *args, **kwargs: None)
    tight = Limits(isolation="process", sandbox=mode, memory_mb=256, move_seconds=10.0,
                   bank_seconds=10.0, startup_seconds=20.0)
    try:
        hogs, _ = idle_after_hog_matches({"scratch_mb": 60}, tight)
        held = [host.resident >> 20 for host in hogs]
        assert len(held) <= 1 and all(megabytes > 128 for megabytes in held), held
    finally:
        POOL.close()


def test_the_idle_hosts_of_a_bot_hold_no_more_than_its_memory_limit(sandbox: str) -> None:
    """A bot that keeps 600 MB in every host it is given, under ``memory_mb = 1024``: the pool
    keeps one idle host of it, not one per deal played (up to 8 per worker, a gigabyte each
    under the default limit, held while stopped)."""
    # Time to spare on a loaded machine: what is measured is memory, never time.
    roomy = Limits(isolation="process", sandbox=sandbox, memory_mb=1024, move_seconds=10.0,
                   bank_seconds=10.0, startup_seconds=20.0)
    try:
        hogs, randoms = idle_after_hog_matches({"hold_mb": 600}, roomy)
        assert len(hogs) == 1 and hogs[0].resident > 600 << 20
        assert len(randoms) == 2  # the other bot's hosts, each a deal's, are all kept
    finally:
        POOL.close()


def test_a_forged_end_of_match_answer_leaks_no_host(sandbox: str) -> None:
    before = hosts_now()
    for _ in range(3):
        result = duel(SeatSpec("forger", "zoo-forger", {"mode": "done"}), sandbox)
        assert result.statuses[1] == "ok"
    POOL.close()
    assert gone(hosts_now() - before)


def test_a_kept_host_keeps_only_what_the_referee_reads_of_its_hello(sandbox: str) -> None:
    """Its bot rewrote its host to say hello with a million empty objects (about 70 MB of the
    referee's memory once decoded), kept with each idle host of it: the referee keeps the
    hello's protocol and whether the bot observes, nothing else of it."""
    result = duel("zoo-big-hello", sandbox)
    assert result.statuses == ("ok", "ok"), result.errors
    kept = [host for hosts in POOL.idle.values() for host in hosts
            if b"--bot=zoo-big-hello" in Path(f"/proc/{host.process.pid}/cmdline").read_bytes()]
    assert kept, "the host was not kept"
    assert all(len(repr(host.hello)) < 200 for host in kept), kept[0].hello.keys()


@pytest.fixture
def pool_closed() -> Iterator[None]:
    """The pooled hosts go at the end, even if the test fails."""
    yield
    POOL.close()


def swept_sandboxes() -> list[str]:
    """Where processes a bot leaves running are swept: bubblewrap, and the fallback too where
    a control group holds the host."""
    return SANDBOXES if cgroups.available() is not None else ["required"]


@pytest.mark.usefixtures("pool_closed")
def test_processes_that_hop_to_new_pids_do_not_outrun_the_sweep() -> None:
    # Bubblewrap only: in the fallback the hoppers' orphans go to the machine's init, and
    # this machine's does not reap them, so their zombies fill the group's process count
    # over three matches (the hopper's own fault, but not what this test is about).
    # Time to spare (what is checked is the sweep, not the clock): the hoppers take the CPU
    # from their own bot, and on a loaded machine it missed a 0.3 s answer.
    results = [duel(SeatSpec("hopper", "zoo-forger", {"mode": "hopper"}), "required",
                    move_seconds=2.0, bank_seconds=2.0) for _ in range(3)]
    assert all(result.statuses == ("ok", "ok") for result in results), [
        (result.statuses, result.errors) for result in results]
    late = [int(line.split()[-1]) for result in results
            for line in result.outputs[0].splitlines() if line.startswith("LATE BEATS")]
    assert len(late) >= 6 and sum(late) == 0, late  # no beat after its bot's answer
    POOL.close()


@pytest.mark.usefixtures("pool_closed")
@pytest.mark.parametrize("sandbox_mode", swept_sandboxes())
@pytest.mark.parametrize("mode", ["daemons", "threadfork", "hopper"])
def test_processes_a_bot_leaves_running_are_killed_once_it_answers(
    mode: str, sandbox_mode: str
) -> None:
    def forgers() -> list[int]:
        """Every process on the machine started as this bot's host (daemons that left this
        test's process tree included)."""
        found = []
        for entry in Path("/proc").iterdir():
            with contextlib.suppress(OSError):
                command = (entry / "cmdline").read_bytes()
                if entry.name.isdigit() and b"--bot=zoo-forger" in command and started_here(
                        command):
                    found.append(int(entry.name))
        return found

    # Time to spare: what is checked is the sweep, not the clock (at load 11 the hoppers'
    # bot ran out of the zoo's 0.3 s a move and 0.2 s of bank).
    result = duel(SeatSpec("forger", "zoo-forger", {"mode": mode}), sandbox_mode,
                  move_seconds=2.0, bank_seconds=2.0)
    assert result.statuses == ("ok", "ok"), result.errors
    # Kept for the next match: bubblewrap, its init and the host (or the host alone).
    kept = 3 if sandbox_mode == "required" else 1
    assert len(forgers()) == kept
    time.sleep(0.3)  # nothing that escaped the sweep shows up later either
    assert len(forgers()) == kept
    kept_pids = set(forgers())
    POOL.close()
    assert gone(kept_pids)
    assert not forgers()


@pytest.mark.parametrize("sandbox_mode", SANDBOXES)
def test_a_bot_runs_only_on_its_own_turn(sandbox_mode: str) -> None:
    """Its host is stopped between its answers: a thread it leaves spinning takes no CPU
    while the others think, nor while the host waits for its next match."""
    result = duel(SeatSpec("spinner", "zoo-forger", {"mode": "thread"}), sandbox_mode)
    assert result.statuses == ("ok", "ok")
    before = forger_cpu_seconds()
    time.sleep(1.0)
    assert forger_cpu_seconds() - before < 0.1  # spinning, it would be about 1 s
    POOL.close()


@pytest.mark.usefixtures("pool_closed")
@pytest.mark.parametrize("sandbox_mode", swept_sandboxes())
def test_a_thread_that_forks_in_a_loop_leaves_nothing_running_between_turns(
    sandbox_mode: str
) -> None:
    """A thread of the host forks children without end, each spinning on once the host is
    stopped: the host is stopped before its strays are swept, so no child forked after the
    sweep's last look runs on while the others think or the host waits in the pool (with the
    sweep first, one ran on in 11 of 15 matches, about a core of the machine's)."""
    said = []
    for seed in range(8):  # eight hosts kept, each stopped after its last answer
        result = play_match(spec(SeatSpec("looper", "zoo-forger", {"mode": "forkloop"}),
                                 "random", seed=seed,
                                 limits=limits(sandbox_mode, move_seconds=5.0,
                                               startup_seconds=20.0)))
        assert result.statuses == ("ok", "ok"), result.errors
        said += [line for line in result.outputs[0].splitlines() if line.startswith("RAN ON")]
    assert said == [], said
    before = forger_cpu_seconds()
    time.sleep(1.0)
    assert forger_cpu_seconds() - before < 0.1  # a child spinning on would take about 1 s
    assert gone(set(running("zoo-forger")) - set(sandbox_of("zoo-forger")))


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the attack patches x86-64 code")
def test_a_bot_cannot_make_the_sandboxs_init_spin_between_its_turns() -> None:
    """The bot ptraces bubblewrap's init (pid 1 in the sandbox, same user) and patches it into
    a busy loop: the sweep must keep the init, so it is stopped with the host instead."""
    result = duel(SeatSpec("inithog", "zoo-forger", {"mode": "inithog"}), "required")
    assert result.statuses == ("ok", "ok")
    assert "INITHOG pid 1 now spins" in result.outputs[0], result.outputs[0]
    before = forger_cpu_seconds()
    time.sleep(1.0)
    assert forger_cpu_seconds() - before < 0.1  # spinning, it would be about 1 s
    POOL.close()


def test_a_bot_that_stays_the_sandbox_inits_tracer_is_illegal() -> None:
    """Stopping by signal holds every thread of the init except those of a traced one: a
    bot that stays its tracer could run a thread there between its turns, so it is faulted
    as soon as its turn ends."""
    result = duel(SeatSpec("tracer", "zoo-forger", {"mode": "traceinit"}), "required")
    assert "TRACING True" in result.outputs[0], result.outputs[0]
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0)
    assert "traced the sandbox's init" in str(result.errors[0])


def forger_cpu_seconds() -> float:
    """CPU seconds used so far by this test process's zoo-forger hosts and their sandboxes."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in hosts_now():
        with contextlib.suppress(OSError, ValueError):
            if b"--bot=zoo-forger" in Path(f"/proc/{pid}/cmdline").read_bytes():
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / ticks
    return total


@pytest.mark.parametrize("channel", ["locks", "flock", "inotify", "io_uring", "pagecache",
                                     "machine", "inflight", "pipes", "timers", "mqueue",
                                     "sigpending", "perf", "zerocopy", "aio", "extents",
                                     "ptys"])
def test_two_seats_cannot_signal_each_other_through_shared_files(channel: str) -> None:
    """Both sandboxes see the same read-only files (the bot's own module among them): a lock
    on one, or an inotify watch, passed a secret from one seat to the other (the red team's
    pair passed a 63-bit number with a lock, noiselessly, each turn), and so did which of
    their pages the kernel holds in memory (224 bits a turn without an error: pages
    dropped with fadvise and asked after with mincore). The seccomp filter refuses them, and
    io_uring (kernel work outside the stops); the machine's figures a seat sets by holding
    threads while it is stopped (sysinfo, /proc/loadavg) are refused or empty, and so is
    /proc/timer_list, root's alone, which lists when a timer that one seat armed expires (a
    34-bit number a turn, noiselessly, where the arena runs as root). The bots play on. So
    are the counters of ``/proc/fs``: ext4's count of its extent cache's hits is the machine's,
    and a ``SEEK_DATA`` on a file of the bot's own is one (the red team's pair said a number
    from 1 to 9 a turn through it and heard it right 54 turns in 54). So is the machine's pool
    of pseudo-terminals, which every sandbox's ``/dev/pts`` draws on: one seat held some while
    the other counted how many were left (3 matches in 3): no sandbox opens one."""
    colluders_hear_nothing(channel, "required")


def colluders_hear_nothing(channel: str, sandbox: str) -> None:
    """Two seats of ``zoo-colluder`` trying ``channel`` under ``sandbox``: both play on, are
    refused and hear nothing."""
    colluder = [SeatSpec(label, "zoo-colluder", {"channel": channel}) for label in "ab"]
    result = play_match(spec(*colluder, limits=limits(sandbox)))
    assert result.statuses == ("ok", "ok"), result.errors
    assert not [output for output in result.outputs if "HEARD" in output], result.outputs
    assert all("REFUSED" in output for output in result.outputs), result.outputs


def test_a_root_fallback_host_reads_no_timer_of_the_machine() -> None:
    """A root arena's fallback host keeps ``CAP_DAC_READ_SEARCH``, which reads root's own files
    of ``/proc``: in a tournament the red team's bot heard, through ``/proc/timer_list``, the
    number a bot of its author in another match said (39 times in 8 matches). Its mount
    namespace has an empty file over each."""
    if not sandbox_module.fallback_user():
        pytest.skip("a fallback host runs as the arena's own user, which is not root here")
    colluders_hear_nothing("timers", "fallback")


def test_a_root_fallback_host_opens_no_pseudo_terminal() -> None:
    """A root arena's fallback host opened the machine's own ``/dev/ptmx``, whose pool is every
    pseudo-terminal of the machine, the reserve kept for root's logins included: a channel
    between two seats, and a bot whose idle hosts held them all (64 each) refused a terminal
    to everyone. Its mount namespace has an empty file over it."""
    if not sandbox_module.fallback_user():
        pytest.skip("a fallback host runs as the arena's own user, which is not root here")
    colluders_hear_nothing("ptys", "fallback")


def test_a_bot_holds_no_memory_in_sockets_of_the_network() -> None:
    """Data sent over TCP and never read is the kernel's memory, which a control group of
    cgroup v1 does not count: the red team's bot held 95 MiB so in a host whose group
    counted 9 (every host of it, kept idle in the pool, as much again, past ``memory_mb`` and
    the pool's budget; and past ``tcp_mem`` every TCP connection of the machine, Ray's too,
    fails). The count of all that memory, in ``/proc/net/sockstat`` of any network
    namespace, was also a channel between two seats. A sandbox has no network: sockets of
    the Internet's families are refused (``EAFNOSUPPORT``), and of ``AF_VSOCK``, which
    reaches a virtual machine's host past any network namespace."""
    result = duel(SeatSpec("hog", "zoo-hog", {"sockets_mb": 64}), "required")
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SOCKETS REFUSED Address family not supported" in result.outputs[0], result.outputs
    assert "VSOCK REFUSED Address family not supported" in result.outputs[0], result.outputs


@pytest.mark.parametrize("sandbox_mode", SANDBOXES)
def test_a_bot_cannot_tell_which_process_started_its_host(sandbox_mode: str) -> None:
    """A host inherited its starter's descriptor numbers, niceness and blocked signals: a
    bot read ``--fds=38,41``, niceness 15 and SIGINT blocked under a tournament's Ray worker,
    and ``--fds=3,6``, 0 and nothing under ``arena check``, and could behave only when
    checked. Started from this process and from one holding 40 more descriptors, nicer and
    blocking SIGINT (as a worker is), it tells the same."""
    match = spec("zoo-teller", "random", limits=limits(sandbox_mode))
    here = play_match(match).outputs[0]
    script = ("import os, pickle, signal, sys\n"
              "held = [os.open(os.devnull, os.O_RDONLY) for _ in range(40)]\n"
              "os.nice(3)\n"
              "signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])\n"
              "from arena.match import MAX_ERROR_CHARS, play_match\n"
              "print(play_match(pickle.loads(bytes.fromhex(sys.argv[1]))).outputs[0])\n")
    there = subprocess.run([sys.executable, "-c", script, pickle.dumps(match).hex()],
                           capture_output=True, text=True, check=True, timeout=120).stdout
    told = [line.strip() for line in here.splitlines() if "TELL" in line]
    assert told and told == [line.strip() for line in there.splitlines() if "TELL" in line]


@pytest.mark.skipif(not sandbox_module.nested_namespaces_refused(),
                    reason="bubblewrap older than 0.8.0 has no --disable-userns")
def test_a_bot_makes_no_user_namespace_of_its_own() -> None:
    """In a user namespace of its own a bot could mount a tmpfs of any size (memory past its
    scratch folders' 64 MiB and its address space, which only a control group would count)
    and reach kernel code no bot needs; bubblewrap refuses it one."""
    result = duel(SeatSpec("nest", "zoo-forger", {"mode": "nest"}), "required")
    assert result.statuses == ("ok", "ok"), result.errors
    assert "NEST REFUSED" in result.outputs[0] and "NESTED" not in result.outputs[0]


def test_memory_kept_in_memory_files_is_bounded(sandbox: str) -> None:
    result = duel(SeatSpec("hoarder", "zoo-forger", {"mode": "memfd"}), sandbox)
    assert result.statuses == ("ok", "ok")
    line, = [line for line in result.outputs[0].splitlines() if line.startswith("MEMFD")]
    assert int(line.split()[1]) < 64 and line.endswith("over 16 MiB: False"), line


needs_cgroups = pytest.mark.skipif(cgroups.available() is None,
                                   reason="this machine lets the arena make no control group")


@needs_cgroups
@pytest.mark.parametrize("sandbox_mode", SANDBOXES)
def test_a_bots_processes_share_one_memory_bound(sandbox_mode: str) -> None:
    """Six children of 150 MiB each, every one under the address-space limit (512 MiB):
    together they are held to the bot's group, memory_mb plus its scratch folders."""
    result = duel(SeatSpec("hog", "zoo-forger", {"mode": "forkhog"}), sandbox_mode,
                  move_seconds=10.0)
    line, = [line for line in result.outputs[0].splitlines() if line.startswith("STARTED")]
    started, alive = int(line.split()[1]), int(line.split()[3])
    assert started == 6 and alive <= 3, line  # (512 + 80) MiB hold three at most
    assert result.statuses[1] == "ok"


@needs_cgroups
@pytest.mark.parametrize("sandbox_mode", SANDBOXES)
def test_a_bots_processes_are_counted_even_as_root(sandbox_mode: str) -> None:
    result = duel(SeatSpec("forks", "zoo-forger", {"mode": "manyforks"}), sandbox_mode,
                  move_seconds=10.0)
    line, = [line for line in result.outputs[0].splitlines() if line.startswith("STARTED")]
    assert int(line.split()[1]) <= 64, line  # processes = 64, the sandbox's own aside
    assert result.statuses == ("ok", "ok")


def test_the_sandboxs_scratch_memory_is_bounded() -> None:
    result = duel(SeatSpec("filler", "zoo-forger", {"mode": "fill"}), "required")
    assert result.statuses == ("ok", "ok")
    filled = dict(line.split()[1:3] for line in result.outputs[0].splitlines()
                  if line.startswith("FILLED"))
    assert int(filled["/tmp"]) <= 64 and int(filled["/dev/shm"]) <= 16, filled
    assert filled["/dev"] == "0"  # read-only: no tmpfs of the machine's size to fill
    # Nor is its root, bubblewrap's tmpfs (half the machine's memory), nor the folders
    # made in it: the red team's bot wrote 96 MiB in each, past its scratch folders' bounds.
    assert filled["/"] == "0" and filled["/etc"] == "0", filled


@pytest.mark.parametrize("bot", ["zoo-python-loop", "zoo-native-loop"])
def test_a_bot_that_never_answers_times_out(sandbox: str, bot: str) -> None:
    before = hosts_now()
    result = duel(bot, sandbox)
    assert result.statuses == ("timeout", "ok")
    assert result.think_seconds[0] < 3
    POOL.close()
    assert gone(hosts_now() - before)  # killed, not left spinning


def test_a_bot_that_never_finishes_starting_times_out(sandbox: str) -> None:
    # 4 s: the other seat, random, must start within it too (at load 8 it took over 1 s).
    result = duel("zoo-slow-start", sandbox, startup_seconds=4.0)
    assert result.statuses == ("timeout", "ok")
    assert "start-up" in str(result.errors[0])


def test_os_exit_is_a_crash_with_its_exit_code(sandbox: str) -> None:
    result = duel("zoo-exit", sandbox)
    assert result.statuses == ("crash", "ok")
    assert "code 3" in str(result.errors[0])


@pytest.mark.parametrize("params", [{"code": 168}, {"signal": 40}])
def test_an_exit_status_or_signal_without_a_name_is_still_the_bots_crash(
    sandbox: str, params: dict[str, int]
) -> None:
    """Exit status 168 (bubblewrap's 128 + 40) or real-time signal 40: ``signal.Signals(40)``
    raised, the match was recorded as an engine failure and the bot's loss vanished."""
    result = duel(SeatSpec("exiter", "zoo-exit", params), sandbox)
    assert result.statuses == ("crash", "ok") and result.ranking == (1, 0)
    assert "signal 40" in str(result.errors[0]) or "code 168" in str(result.errors[0])


def test_a_segfault_is_a_crash_naming_the_signal(sandbox: str) -> None:
    result = duel("zoo-segfault", sandbox)
    assert result.statuses == ("crash", "ok")
    assert "SIGSEGV" in str(result.errors[0])


def test_a_memory_hog_hits_its_limit(sandbox: str) -> None:
    result = duel("zoo-hog", sandbox)
    assert result.statuses == ("error", "ok")
    assert "MemoryError" in str(result.errors[0])


def test_what_a_bot_prints_is_kept_with_the_match_not_in_the_protocol(sandbox: str) -> None:
    result = duel("zoo-chatty", sandbox)
    assert result.statuses == ("ok", "ok")
    assert "thinking about" in result.outputs[0] and "a word on stderr" in result.outputs[0]


def test_a_flood_of_output_is_truncated_and_the_bot_plays_on(sandbox: str) -> None:
    result = duel("zoo-flood", sandbox, move_seconds=5.0)
    assert result.statuses == ("ok", "ok")
    kept = result.outputs[0]
    assert len(kept) < OUTPUT_BYTES + 100 and "more bytes not kept" in kept


def test_a_forked_child_does_not_outlive_its_host(sandbox: str) -> None:
    POOL.close()
    before = hosts_now()
    result = duel("zoo-forker", sandbox)
    assert result.statuses == ("ok", "ok")
    started = hosts_now() - before
    assert len(started) >= 2  # the two hosts (and their bubblewrap); the child, if it lives
    if sandbox == "required" or cgroups.available() is not None:
        # Swept once its bot answered: only the sandbox and the host are left.
        assert gone(set(running("zoo-forker")) - set(sandbox_of("zoo-forker")))
    POOL.close()
    assert gone(started) and not running("zoo-forker")


def running(bot: str) -> list[int]:
    """Every live process on the machine started as ``bot``'s host (with its bubblewrap,
    and whatever it forked, even out of this test's process tree)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            command = (entry / "cmdline").read_bytes()
            if entry.name.isdigit() and f"--bot={bot}".encode() in command and started_here(
                    command) and alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def sandbox_of(bot: str) -> list[int]:
    """The processes of ``bot``'s pooled hosts themselves: bubblewrap, its init and the host
    (or the host alone), the oldest of its processes."""
    hosts = [host for hosts in POOL.idle.values() for host in hosts
             if f"--bot={bot}".encode() in Path(f"/proc/{host.process.pid}/cmdline").read_bytes()]
    return [pid for host in hosts for pid in (host.process.pid, *(host._sandbox or ()))]


def gone(processes: set[int], seconds: float = 5.0) -> bool:
    """True once none of ``processes`` is alive; killed sandboxes take a moment to exit."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in processes):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_constructor_that_rejects_its_params_is_an_error(sandbox: str) -> None:
    result = duel(SeatSpec("fussy", "zoo-fussy", {"level": 7}), sandbox)
    assert result.statuses == ("error", "ok")
    assert "level must be 1, 2 or 3" in str(result.errors[0])


@pytest.fixture
def listener() -> Iterator[tuple[int, list[object]]]:
    """A port on 127.0.0.1 and the list of connections it accepted."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    accepted: list[object] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join()
    server.close()


def test_the_snoop_finds_nothing(
    sandbox: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    listener: tuple[int, list[object]],
) -> None:
    port, accepted = listener
    secret = tmp_path / "secret.txt"
    secret.write_text("hunter2")
    results, other_bot = tmp_path / "results", tmp_path / "other-bot"
    results.mkdir()
    other_bot.mkdir()
    monkeypatch.setenv("ARENA_TEST_SECRET", "hunter2")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "hunter2")
    params = {"port": port, "targets": [str(results), str(other_bot)],
              "secret_file": str(secret)}
    result = duel(SeatSpec("snoop", "zoo-snoop", params), sandbox)
    assert result.statuses == ("ok", "ok")
    output = result.outputs[0]
    assert "SNOOPED" in output
    found = [line for line in output.splitlines() if line.startswith("FOUND:")]
    assert accepted == []
    assert not [line for line in found if "env " in line or "port" in line]
    if sandbox == "required":
        assert found == []
        assert list(results.iterdir()) == [] and list(other_bot.iterdir()) == []


def test_a_sandbox_sees_of_proc_only_its_processes_and_what_it_is_allowed() -> None:
    """Beside its own processes, a bubblewrap host's ``/proc`` tells only what
    :data:`~arena.seats.sandbox.PROC_KEPT` names: everything else reads empty. The whole
    machine's kernel speaks there to every sandbox alike, in files no list of them foresaw:
    ``fs`` (ext4's count of its extent cache's hits, which a bot moves by a thousand a
    millisecond: a channel between two seats), ``crypto`` (each algorithm's users),
    ``keys`` (the keyrings of the user every sandbox is outside), and, on this project's
    machines, ``program_cpu`` (the name and CPU time of every program the machine ran:
    the red team's bot named itself ``zq-secret-4242`` and found that name there, for any
    sandbox to read)."""
    result = duel(SeatSpec("snoop", "zoo-snoop", {"proc": True}), "required")
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SNOOPED" in result.outputs[0]
    told = {line.split()[1] for line in result.outputs[0].splitlines()
            if line.startswith("PROC ")}
    assert "cpuinfo" in told  # what a library may read of the machine is still there
    assert told <= set(sandbox_module.PROC_KEPT), told - set(sandbox_module.PROC_KEPT)


@pytest.mark.parametrize("mode", ["kill", "net", "write", "cgroup"])
def test_a_bot_kills_no_other_seat_and_neither_connects_nor_writes_out(
    sandbox: str, mode: str, tmp_path: Path, listener: tuple[int, list[object]],
) -> None:
    """Run as root, a fallback host was root: its bot killed the other seat's host (that seat
    crashed, the bot won), joined its referee's network namespace again and connected out,
    wrote into root's folders and could leave its control group. It is now a user of its
    own, as a bubblewrap host is a user of its own namespace."""
    if sandbox == "fallback" and not sandbox_module.fallback_user():
        pytest.skip("a fallback host runs as the arena's own user, which is not root here")
    port, accepted = listener
    params = {"mode": mode, "port": port, "targets": [str(tmp_path)]}
    result = duel(SeatSpec("neighbour", "zoo-neighbour", params), sandbox)
    assert result.statuses == ("ok", "ok"), result.errors
    assert "NEIGHBOURED" in result.outputs[0] and "REACHED" not in result.outputs[0]
    assert accepted == [] and list(tmp_path.iterdir()) == []


def shared_memory_keys() -> set[int]:
    """The keys of the machine's System V shared memory segments."""
    lines = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return {int(line.split()[0]) for line in lines}


def test_a_bot_leaves_nothing_behind_where_any_user_may_write(sandbox: str) -> None:
    """Run as root, a fallback host (a user of its own) still wrote where any user may: the
    red team's bot left 80 MiB in ``/tmp``, 80 MiB in ``/dev/shm`` (memory, outside every
    control group once its own was gone) and a 32 MiB System V shared memory segment, all
    there after its match, its host and the run had ended, as many as it liked. Now its
    mounts are read-only, ``/dev/shm`` is a tmpfs of its own and its IPC objects die with it,
    as in bubblewrap."""
    if sandbox == "fallback" and not sandbox_module.fallback_user():
        pytest.skip("a fallback host runs as the arena's own user, which is not root here")
    name = f"arena-litter-{os.getpid()}-{time.monotonic_ns()}"
    targets = [f"/tmp/{name}", f"/dev/shm/{name}", f"/var/tmp/{name}"]
    key = 0x5A000000 + os.getpid() % 0x10000
    params = {"mode": "litter", "port": key, "targets": targets}
    try:
        result = duel(SeatSpec("neighbour", "zoo-neighbour", params), sandbox)
        POOL.close()
        assert result.statuses == ("ok", "ok"), result.errors
        assert "NEIGHBOURED" in result.outputs[0]
        assert [target for target in targets if os.path.lexists(target)] == []
        assert key not in shared_memory_keys()
    finally:
        for target in targets:
            with contextlib.suppress(OSError):
                os.unlink(target)
        subprocess.run(["ipcrm", "-M", str(key)], capture_output=True, check=False)


def test_a_bots_working_folder_is_bounded(sandbox: str) -> None:
    """A root arena's fallback host wrote 128 MiB on the arena's disk in its working folder
    (files of 16 MiB, as many as it liked): it is now a tmpfs of its own of
    ``SCRATCH_MB``, as bubblewrap's ``/tmp`` is."""
    if sandbox == "fallback" and not sandbox_module.fallback_user():
        pytest.skip("a fallback host runs as the arena's own user, which is not root here")
    result = duel(SeatSpec("neighbour", "zoo-neighbour", {"mode": "scratch"}), sandbox)
    assert result.statuses == ("ok", "ok"), result.errors
    written = [int(line.split()[-1]) for line in result.outputs[0].splitlines()
               if line.startswith("WROTE")]
    assert written and written[0] <= sandbox_module.SCRATCH_MB


def test_a_fallback_host_is_a_user_of_its_own_only_where_root_may_become_one() -> None:
    """The root of a container's user namespace maps a few thousand users: becoming one it
    does not map is refused, and every host would fail to start; its hosts stay root."""
    first, count = sandbox_module.FALLBACK_UIDS, 1 << 30
    assert sandbox_module.covered("         0          0 4294967295\n", first, count)
    assert not sandbox_module.covered("         0     100000      65536\n", first, count)


def test_a_requirement_cannot_bind_a_folder_that_is_not_its_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sandbox binds what a bot's distribution requires (so an editable-installed
    dependency is there), but a requirement whose metadata names a plain folder on the path
    (here ``results``, a namespace package by Python's rules) gets only its real package."""
    for name, requires, top in (("bot-x", "Requires-Dist: helper-y\n", "bot_x"),
                                ("helper-y", "", "results\nhelper_y")):
        info = tmp_path / f"{name.replace('-', '_')}-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n{requires}")
        (info / "top_level.txt").write_text(top + "\n")
    for package in ("bot_x", "helper_y"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "matches.jsonl").write_text("{}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    dependency_locations.cache_clear()
    sandbox_module._distributions.cache_clear()
    try:
        assert dependency_locations("bot_x.plugin") == ((tmp_path / "helper_y").resolve(),)
    finally:
        dependency_locations.cache_clear()
        sandbox_module._distributions.cache_clear()


@pytest.mark.parametrize("channel", ["locks", "flock", "inotify", "io_uring", "pagecache",
                                     "inflight", "pipes", "perf", "aio"])
def test_a_fallback_host_is_refused_what_the_filter_refuses(channel: str) -> None:
    """Without bubblewrap the seccomp filter used to be left out: a fallback host could take
    file locks, watch files, open sockets of the network and use Linux AIO and perf events,
    the channels between two seats the filter closes in bubblewrap. The fallback installs
    the same filter, before the host's own code runs."""
    colluders_hear_nothing(channel, "fallback")


def test_a_fallback_host_opens_no_socket_of_the_network() -> None:
    result = duel(SeatSpec("hog", "zoo-hog", {"sockets_mb": 64}), "fallback")
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SOCKETS REFUSED Address family not supported" in result.outputs[0], result.outputs
    assert "VSOCK REFUSED Address family not supported" in result.outputs[0], result.outputs


@pytest.fixture
def installed_stranger() -> Iterator[str]:
    """A bot distribution installed in the arena's environment as ``pip install ./bot`` puts
    one (not editable: its package in ``site-packages``), holding a secret in its code; its
    name. Removed afterwards."""
    import sysconfig

    from arena.seats import foreign

    site = Path(sysconfig.get_paths()["purelib"])
    package = f"arena_zoo_secret_{os.getpid()}"
    metadata = site / f"{package}-0.1.dist-info"
    try:
        (site / package).mkdir()
        (site / package / "__init__.py").write_text('STRATEGY = "always bluff on 7"\n')
        (site / package / "plugin.py").write_text("")
        metadata.mkdir()
        (metadata / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
        (metadata / "entry_points.txt").write_text(f"[arena]\nsecret = {package}.plugin\n")
        (metadata / "RECORD").write_text(
            f"{package}/__init__.py,,\n{package}/plugin.py,,\n{metadata.name}/METADATA,,\n"
            f"{metadata.name}/RECORD,,\n")
        foreign.foreign_files.cache_clear()
        foreign._providers.cache_clear()
        yield package
    finally:
        import shutil

        shutil.rmtree(site / package, ignore_errors=True)
        shutil.rmtree(metadata, ignore_errors=True)
        foreign.foreign_files.cache_clear()
        foreign._providers.cache_clear()


def test_a_sandbox_reads_nothing_of_another_bots_installed_package(
    installed_stranger: str,
) -> None:
    """Every bot installed in the arena's environment (``pip install ./bot``) has its code and
    data files in ``site-packages``, which every bubblewrap host binds: the zoo's snoop read
    another bot's source there in its match (and a submitted package's build could have
    copied it into its own wheel). Another plugin's files read empty now; its metadata is
    left (``importlib.metadata`` still works in a host)."""
    result = duel(SeatSpec("snoop", "zoo-snoop", {"peek": True}), "required")
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SNOOPED" in result.outputs[0]
    found = [line for line in result.outputs[0].splitlines() if line.startswith("FOUND:")]
    assert found == [], found


def test_a_bot_still_reads_what_it_needs(installed_stranger: str) -> None:
    """Only what a host does not need is hidden: the arena's own distribution (its editable
    install's ``.pth`` included), the bot's own and what it requires stay."""
    from arena.seats import foreign

    roots = tuple(path.resolve() for path in foreign.environment_roots(None))
    for_zoo = foreign.foreign_files("arena_testzoo", roots)
    for_stranger = foreign.foreign_files(f"{installed_stranger}.plugin", roots)
    assert any(path.name == installed_stranger for path in for_zoo)
    assert not any(installed_stranger in str(path) for path in for_stranger)
    assert any("arena_bot_greedy" in path.name for path in for_stranger)
    assert not any("arena_bot_greedy" in path.name
                   for path in foreign.foreign_files("arena_bot_greedy.plugin", roots))
    assert not any("lostvalley_arena" in str(path) for path in for_zoo + for_stranger)


def group_tasks(host: process.HostProcess) -> int:
    """The tasks (processes and threads) in a host's control group, read from the kernel."""
    assert host.cgroup is not None
    for folder in host.cgroup.folders:
        if (folder / "pids.current").exists():
            return int((folder / "pids.current").read_text())
    raise AssertionError("no pids controller")


@pytest.mark.usefixtures("pool_closed")
@pytest.mark.skipif(cgroups.available() is None, reason="no control groups on this machine")
def test_the_idle_hosts_threads_are_held_to_the_pools_share_of_the_machines_tasks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stopped host keeps its threads, each a task of the machine: the zoo's bot kept 60 in
    every host it was given (one deal: a new host each match), and the pool kept them all,
    up to 128 hosts a worker, 8,576 tasks; past the machine's ``pid_max`` nothing forks, and
    in a control group of 340 tasks the other seat's host could not start from the fifth
    match on (``crash``: the bot won). The pool holds them to its share now (lowered
    here)."""
    monkeypatch.setattr(process, "idle_tasks", lambda: 150, raising=False)
    for _ in range(4):
        result = duel(SeatSpec("threads", "zoo-threads"), "required")
        assert result.statuses == ("ok", "ok"), result.errors
        assert "THREADS 61" in result.outputs[0]
    idle = [host for hosts in POOL.idle.values() for host in hosts]
    assert idle and sum(group_tasks(host) for host in idle) <= 150


def fake_distribution(site: Path, name: str, files: dict[str, str], *, plugin: str = "",
                      requires: tuple[str, ...] = ()) -> list[Path]:
    """Install a distribution by hand in ``site`` (its files, a dist-info with a ``RECORD``,
    an ``arena`` entry point to ``plugin`` if given); what to remove afterwards."""
    metadata = site / f"{name}-0.1.dist-info"
    metadata.mkdir()
    made = [metadata]
    for path, text in files.items():
        target = site / path
        if not target.parent.exists():
            target.parent.mkdir(parents=True)
            made.append(target.parent)
        target.write_text(text)
        made.append(target)
    (metadata / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n"
        + "".join(f"Requires-Dist: {need}\n" for need in requires))
    if plugin:
        (metadata / "entry_points.txt").write_text(f"[arena]\n{name} = {plugin}\n")
    (metadata / "RECORD").write_text("".join(f"{path},,\n" for path in files))
    return made


def test_a_folder_shared_with_what_a_bot_needs_hides_only_the_strangers_files() -> None:
    """A namespace package holds files of several distributions: where one the bot needs
    (a library its distribution requires) shares a folder with another bot's, only the
    other bot's files are hidden, not the folder."""
    import shutil
    import sysconfig

    from arena.seats import foreign

    site = Path(sysconfig.get_paths()["purelib"])
    tag = os.getpid()
    made: list[Path] = []
    try:
        made += fake_distribution(site, f"zoo_lib_{tag}", {f"zoo_ns_{tag}/lib.py": "X = 1\n"})
        made += fake_distribution(site, f"zoo_bot_{tag}", {f"zoo_bot_{tag}/plugin.py": ""},
                                  plugin=f"zoo_bot_{tag}.plugin", requires=(f"zoo_lib_{tag}",))
        made += fake_distribution(site, f"zoo_other_{tag}",
                                  {f"zoo_ns_{tag}/secret.py": "S = 2\n",
                                   f"zoo_other_{tag}/plugin.py": ""},
                                  plugin=f"zoo_other_{tag}.plugin")
        foreign.foreign_files.cache_clear()
        foreign._providers.cache_clear()
        roots = tuple(path.resolve() for path in foreign.environment_roots(None))
        hidden = set(foreign.foreign_files(f"zoo_bot_{tag}.plugin", roots))
        assert site / f"zoo_ns_{tag}" / "secret.py" in hidden
        assert site / f"zoo_other_{tag}" in hidden
        assert site / f"zoo_ns_{tag}" not in hidden
        assert site / f"zoo_ns_{tag}" / "lib.py" not in hidden
        assert not {path for path in hidden if f"zoo_bot_{tag}" in str(path)}
    finally:
        for path in reversed(made):
            shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink()
        foreign.foreign_files.cache_clear()
        foreign._providers.cache_clear()


@pytest.mark.usefixtures("pool_closed")
def test_a_host_kept_for_many_matches_is_retired_before_its_cpu_time_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host's CPU time limit (``RLIMIT_CPU``) counts its whole life, and the pool keeps a
    host for up to 500 matches: an honest bot that thinks hard added up its CPU time from
    match to match until the kernel killed its host in the middle of one (``crash``: with
    the limit lowered to 3 s, in its fourth match here; at the default hour, a bot thinking
    a second a decision crashed after some 70 matches of one host). A host past half its
    limit is retired instead of kept."""
    from functools import partial

    from arena.seats import sandbox as sandboxing

    monkeypatch.setattr(sandboxing, "Confinement", partial(Confinement, cpu_seconds=3))
    busy = SeatSpec("busy", "zoo-busy", {"seconds": 0.15})
    roomy = limits("required", move_seconds=3.0, bank_seconds=10.0)
    results = [play_match(spec(busy, "random", seed=seed, limits=roomy)) for seed in range(8)]
    assert [result.statuses for result in results] == [("ok", "ok")] * 8, [
        result.errors for result in results]
