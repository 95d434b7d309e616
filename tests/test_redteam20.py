"""Red team, round 20: attacks on what a bubblewrap host reads of other bots (their bytecode,
the system Pythons' packages) and on the stop that holds a host between its turns, played
for real (bot hosts in bubblewrap)."""

from __future__ import annotations

import contextlib
import os
import platform
import py_compile
import shutil
import signal
import subprocess
import sysconfig
import tempfile
import threading
from collections.abc import Iterator
from importlib.util import cache_from_source
from pathlib import Path

import pytest
from helpers import spec

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.seats.process import POOL, HostProcess


def duel(bot: SeatSpec, sandbox: str, seed: int = 7, **limits: float) -> MatchResult:
    """``bot`` in seat 0 against ``random`` on the tiny test race."""
    chosen = Limits(isolation="process", sandbox=sandbox,  # type: ignore[arg-type]
                    move_seconds=5.0, bank_seconds=0.0, startup_seconds=10.0, **limits)
    return play_match(spec(bot, "random", limits=chosen, seed=seed))


@pytest.fixture
def single_module_bot() -> Iterator[Path]:
    """A bot distribution of one module (``py-modules``) installed in the arena's environment
    the way pip's ``--no-compile`` or uv install one: its module straight in
    ``site-packages``, its ``RECORD`` naming no bytecode. Its module's file; removed
    afterwards, with its bytecode."""
    from arena.seats import foreign

    site = Path(sysconfig.get_paths()["purelib"])
    name = f"arena_zoo_solo_{os.getpid()}"
    module, metadata = site / f"{name}.py", site / f"{name}-0.1.dist-info"
    caches = (foreign.foreign_files, foreign._providers, foreign._requirements)
    try:
        metadata.mkdir()
        module.write_text('SECRET_STRATEGY = "always bluff on 7"\n')
        (metadata / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
        (metadata / "entry_points.txt").write_text(f"[arena]\nsolo = {name}\n")
        (metadata / "RECORD").write_text(f"{name}.py,,\n{metadata.name}/METADATA,,\n")
        for cached in caches:
            cached.cache_clear()
        yield module
    finally:
        module.unlink(missing_ok=True)
        Path(cache_from_source(str(module))).unlink(missing_ok=True)
        shutil.rmtree(metadata, ignore_errors=True)
        for cached in caches:
            cached.cache_clear()


def compile_module(module: Path) -> None:
    """Write ``module``'s bytecode beside it, as the arena does when it first seats the bot
    (:func:`arena.seats.sandbox.compiled`) or Python when it imports it."""
    py_compile.compile(str(module), cfile=cache_from_source(str(module)), doraise=True)


def peeked(seed: int) -> list[str]:
    """What the snoop read of other plugins' files in a match (``FOUND:`` lines)."""
    result = duel(SeatSpec("snoop", "zoo-snoop", {"peek": True}), "required", seed=seed)
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SNOOPED" in result.outputs[0]
    return [line for line in result.outputs[0].splitlines() if line.startswith("FOUND:")]


@pytest.mark.parametrize("compiled", ["before the match", "while the snoop's host waits"])
def test_a_sandbox_reads_nothing_of_another_bots_module_bytecode(
    single_module_bot: Path, compiled: str
) -> None:
    """Another plugin's distribution is hidden from a bubblewrap host, its files reading
    empty: but a distribution of one module has its file straight in ``site-packages``, and
    its bytecode in the ``__pycache__`` every module there shares, where only what its
    installer compiled is named in its ``RECORD`` (none with pip's ``--no-compile`` or uv).
    The bytecode the arena writes when it first seats such a bot (or Python when it imports
    it) was nobody's: the red team's snoop read its source empty and its bytecode whole, the
    secret strategy in it. Hiding the bytecode found at a host's start would not do: the
    snoop's host, kept in the pool, read what was compiled after it started. That folder
    lists nothing now in a sandbox that hides a module beside it."""
    POOL.close()
    try:
        if compiled == "before the match":
            compile_module(single_module_bot)
            assert peeked(7) == []
        else:
            assert peeked(7) == []
            compile_module(single_module_bot)
            assert POOL.idle, "the snoop's host is kept for its next match"
            assert peeked(8) == []
    finally:
        POOL.close()


def test_a_sandbox_reads_nothing_of_the_system_pythons_packages() -> None:
    """A bubblewrap host binds ``/usr`` whole, and with it the package folders of the
    system's own Pythons (``/usr/lib/python3/dist-packages``, and
    ``/usr/local/lib/python3.X/dist-packages``, where ``pip install`` run as root puts a
    package): where the arena runs on a Python of its own (pyenv, uv, a build in
    ``/opt``), none of them is on its path, and the zoo's snoop read a package there in its
    match (a bot installed there by mistake would be read the same way; round 19 hid the
    base Python's ``site-packages`` alone). They list nothing in a host now, unless the
    host's Python imports from them."""
    import glob
    import sys

    used = {Path(entry).resolve() for entry in sys.path if entry}
    patterns = ("/usr/lib/python3*/*-packages", "/usr/local/lib/python3*/*-packages")
    folders = [Path(entry) for pattern in patterns for entry in sorted(glob.glob(pattern))
               if Path(entry).resolve() not in used]
    files = [path for folder in folders for path in sorted(folder.glob("*/__init__.py"))[:1]]
    if not files:
        pytest.skip("no package of a system Python off the arena's path to read")
    POOL.close()
    try:
        result = duel(SeatSpec("snoop", "zoo-snoop", {"secret_file": str(files[0])}),
                      "required")
    finally:
        POOL.close()
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SNOOPED" in result.outputs[0]
    found = [line for line in result.outputs[0].splitlines() if line.startswith("FOUND:")]
    assert found == [], found


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the attack patches x86-64 code")
def test_a_sandboxs_init_woken_while_stopped_is_the_bots_fault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sandbox's init is stopped with the host between its turns and kept by the sweep,
    and a bot may rewrite its code (``ptrace``: the same user): the zoo's forger patches it
    into a busy loop. A ``SIGCONT`` the kernel sends on a bot's behalf ends a stop (round 17:
    a child whose end sends it, exiting ahead of the sweep), and a host that ran while
    stopped is ``illegal``: but the referee read the host's CPU time alone. With its init
    woken after each stop (the ``SIGCONT`` sent here, as the kernel would), the init ran 0.1
    to 0.2 s of CPU in each of the other seat's turns of 0.3 s (0.78 s in the match, the
    host's time standing still), and the forger played on ``ok``. The init's time counts with
    the host's now: the seat is ``illegal`` at its next request."""
    real = HostProcess.pause

    def woken(self: HostProcess) -> None:
        real(self)
        sandbox = self._sandbox
        with contextlib.suppress(OSError):
            if sandbox and self.alive and b"--bot=zoo-forger" in Path(
                    f"/proc/{self.process.pid}/cmdline").read_bytes():
                os.kill(sandbox[0], signal.SIGCONT)

    monkeypatch.setattr(HostProcess, "pause", woken)
    limits = Limits(isolation="process", sandbox="required", move_seconds=5.0,
                    bank_seconds=0.0, startup_seconds=10.0)
    slow = SeatSpec("slow", "zoo-waker", {"when": "never", "think": 0.3})
    POOL.close()
    try:
        result = play_match(spec(SeatSpec("inithog", "zoo-forger", {"mode": "inithog"}), slow,
                                 limits=limits))
    finally:
        POOL.close()
    assert "INITHOG pid 1 now spins" in result.outputs[0], result.outputs[0][:300]
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0), result.errors
    assert "it woke itself" in str(result.errors[0])


def test_a_working_folder_dug_deeper_than_rmtree_recurses_is_removed() -> None:
    """A fallback host's working folder is the bot's to write in (where the arena runs as a
    user other than root; a root arena gives the host a private tmpfs over it, so here the
    test digs in the referee's view of it, as such a bot would), and the referee removes it
    when it closes the host, and at its first host the folders of earlier referees that
    died. ``shutil.rmtree`` recurses once a level: the red team's bot dug 1,500 folders,
    each in the last, and the referee's removal raised ``RecursionError`` (which its
    ``ignore_errors`` does not catch) as the pool closed the host, leaving the folder
    behind. It is removed now, whatever its depth; and so is a dead referee's."""
    from arena.seats import sandbox as sandboxing

    def dig(folder: Path) -> None:
        here = os.open(".", os.O_RDONLY)
        try:
            os.chdir(folder)
            for _ in range(1500):
                os.mkdir("d")
                os.chdir("d")
        finally:
            os.fchdir(here)
            os.close(here)

    prefix = f"{sandboxing.WORKDIR_PREFIX}{os.getpid()}-"
    before = set(Path(tempfile.gettempdir()).glob(f"{prefix}*"))
    POOL.close()
    try:
        result = duel(SeatSpec("b", "zoo-burrower", {"levels": 0}), "fallback")
        assert result.statuses == ("ok", "ok"), result.errors
        kept = set(Path(tempfile.gettempdir()).glob(f"{prefix}*")) - before
        assert kept  # the pool keeps the two hosts, and their folders
        for folder in kept:
            dig(folder)
    finally:
        POOL.close()
    assert not kept & set(Path(tempfile.gettempdir()).glob(f"{prefix}*"))
    # A referee that died left its host's folder, dug as deep: the next one clears it.
    dead = Path(tempfile.mkdtemp(prefix=f"{sandboxing.WORKDIR_PREFIX}999999999-"))
    dig(dead)
    sandboxing.sweep_workdirs.cache_clear()
    try:
        assert sandboxing.sweep_workdirs() >= 1
    finally:
        sandboxing.sweep_workdirs.cache_clear()
        if dead.exists():  # before the fix: pytest's own removal of it recurses too
            subprocess.run(["rm", "-rf", str(dead)], check=False)
    assert not dead.exists()


def test_what_a_host_wrote_before_its_answer_is_its_matchs_output_however_late_the_drain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host's output is drained by a thread of the referee's; at the end of a match the
    referee waited up to 50 ms for that thread's turn, and on a machine at load 11 it did not
    come: the zoo's bot's line, written in its ``close()`` before its ``done``, was missing
    from its match's output (round 18's test of the woken host failed so) and went to the
    next match's. What the pipe holds is now read by the referee itself. Here the drain
    thread never gets its turn at all."""
    from arena.seats import process

    held = threading.Event()
    monkeypatch.setattr(process.Output, "_drain", lambda self: held.wait(30))
    read, write = os.pipe()
    output = process.Output(read)
    try:
        os.write(write, b"CHILD 1234\n")
        assert output.take() == "CHILD 1234\n"
        os.write(write, b"x" * 40_000)  # within a pipe's 64 KiB: the write does not wait
        assert output.take() == "x" * 40_000
        os.write(write, b"last words")
        os.close(write)
        write = -1
        assert output.take() == "last words"
        assert output.take() == ""  # its end: read, and nothing more
    finally:
        held.set()
        output.thread.join(5)
        if write >= 0:
            os.close(write)
        os.close(read)
