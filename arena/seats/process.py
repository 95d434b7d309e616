"""Bots that run in a sandboxed host process (``isolation = "process"``, the default).

A :class:`HostProcess` is one bot host (see :mod:`arena.seats.host` and the
protocol in :mod:`arena.seats.protocol`), started in the sandbox of
:mod:`arena.seats.sandbox`. Every wait on it has a deadline; a host that
misses one is killed with its whole process group, one that exits is a
crash, and one that answers out of protocol is illegal. The host's own
stdout and stderr are drained by a thread into a bounded buffer, handed to
the match record per match. Healthy hosts go back to a per-process
:class:`HostPool` and serve the next match of the same bot and params that
is not of a deal they have played; a host that faulted is never reused.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import json
import math
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.game import Static
from arena.removal import remove_tree
from arena.seats import (
    BotCrashed,
    BotIllegal,
    BotRaised,
    BotTimedOut,
    SeatFault,
    cgroups,
    seccomp,
)
from arena.seats.protocol import MAX_ANSWER, MAX_LINE, STATIC_PROTOCOL, decode, encode
from arena.seats.sandbox import CLEAN_ENV, SCRATCH_MB, Confinement, host_command, use_bubblewrap

OUTPUT_BYTES = 64 * 1024
"""How much of a bot's stdout and stderr is kept per match."""

MAX_MATCHES_PER_HOST = 500
"""A host is retired after this many matches, so nothing a bot leaks grows for long."""

CPU_RETIRE = 0.5
"""The share of its CPU time limit past which a host is retired, not kept for another match:
the limit (``RLIMIT_CPU``) counts the host's whole life, and the pool keeps a host for up to
:data:`MAX_MATCHES_PER_HOST` matches, so an honest bot that thinks hard added up its CPU time
until the kernel killed its host in the middle of a match (``crash``: at the limit of an
hour, a bot thinking a second a decision, after some 70 matches of one host; with a limit
of 3 s, the zoo's ``busy`` bot in its fourth match). A match takes far less than half of
it: its seat's clock is ``move_seconds`` a decision and a bank, on ``cpus`` cores."""

MAX_IDLE_PER_BOT = 24
"""Idle hosts the pool keeps per bot, params and limits (the oldest goes past it): a host
never plays a deal twice, so a bot that sits at every seating of a table needs one host a
seating while the table is played (24 for four seats in every order), and each of them
serves the later tables. Together they hold at most the bot's ``memory_mb`` (what one of
them may hold while it plays): a bot that keeps a gigabyte in every host it is given keeps
one idle host, not 24. With 8 (before), a four-seat round robin in every order started
about three hosts a match (``benchmarks/bench_hosts.py``)."""

PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
"""The units of a process's CPU times in ``/proc/PID/stat``."""

INODE_BYTES = 1024
"""What the kernel holds for one file of a scratch folder beyond its contents (measured: 830
bytes an empty file on a tmpfs)."""


def scratch_bytes(pid: int, folder: str) -> int:
    """What a tmpfs ``folder`` of the sandbox whose process ``pid`` is holds in memory: its
    files' contents and their inodes (0 if it cannot be read)."""
    try:
        stats = os.statvfs(f"/proc/{pid}/root/{folder}")
    except OSError:
        return 0
    used_blocks, used_files = stats.f_blocks - stats.f_bfree, stats.f_files - stats.f_ffree
    return used_blocks * stats.f_frsize + used_files * INODE_BYTES

MAX_IDLE_HOSTS = 128
"""Idle hosts the pool keeps in all (the least recently used goes past it), whatever they
hold: each is two processes of the sandbox beside bubblewrap. Fewer where the user may run
few processes (:func:`idle_hosts`)."""

PROCESSES_PER_HOST = 3
"""Processes an idle host is: bubblewrap, the sandbox's init and the host."""


@functools.cache
def idle_hosts() -> int:
    """Idle hosts this process may keep: :data:`MAX_IDLE_HOSTS`, or fewer where the user's
    process limit (``ulimit -u``, which counts every thread of the user) would otherwise be
    half used by the idle hosts of one worker a core: a host that cannot start is its bot's
    crash, so the pool must not be what runs the machine out of processes."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)
    if soft == resource.RLIM_INFINITY or os.geteuid() == 0:  # root is not held to it
        return MAX_IDLE_HOSTS
    share = soft // (2 * PROCESSES_PER_HOST * (os.cpu_count() or 1))
    return max(1, min(MAX_IDLE_HOSTS, share))


IDLE_SHARE = 4
"""Idle hosts of all the workers of a machine hold at most 1 / ``IDLE_SHARE`` of its memory
(:func:`idle_budget`): a stopped host keeps its memory (about 20 MB for the shipped bots),
and a tournament of many bots would otherwise keep up to :data:`MAX_IDLE_PER_BOT` of each
in every worker."""

MIN_IDLE_BYTES = 256 << 20
"""What the idle hosts of a worker may hold on any machine, however small."""


@functools.cache
def idle_budget() -> int:
    """Bytes the idle hosts of this process may hold together: its share (one worker per
    core, as a local tournament has) of a quarter of the machine's memory (or of its
    container's, where a control group bounds it), at least
    :data:`MIN_IDLE_BYTES` (3 GiB a worker on a 2-core machine of 24 GiB, 1 GiB on a
    16-core one of 64 GiB)."""
    memory = os.sysconf("SC_PHYS_PAGES") * PAGE_BYTES
    for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        # A container sees the machine's memory but may use only its group's.
        with contextlib.suppress(OSError, ValueError):
            memory = min(memory, int(Path(limit).read_text()))
    return max(MIN_IDLE_BYTES, memory // (IDLE_SHARE * (os.cpu_count() or 1)))


@functools.cache
def idle_tasks() -> int:
    """Tasks (processes and threads) the idle hosts of this process may hold together: its
    share (one worker per core) of a quarter of what the machine may run at once
    (``kernel.pid_max``, ``kernel.threads-max`` or the ``pids.max`` of the control group
    it runs in, whichever is fewest), at least
    :data:`MIN_IDLE_TASKS`. A stopped host keeps its threads, each a task of the machine
    (every sandbox's tasks have a pid outside it too): the red team's bot kept 60 threads in
    every host it was given, and the pool kept them all (a host may hold 67 tasks: at 128
    hosts a worker, 8,576 by that count, and four workers would pass the 32,768 pids of a
    machine's default ``pid_max``). Past the
    machine's limit no process of it forks: a host that cannot start is its bot's crash, so
    the bot's opponents crashed (shown in a control group of 340 tasks: the other seat's host
    could not start from the fifth match on)."""
    limit = cgroups.own_tasks_limit() or 1 << 22  # a container may run fewer
    for name in ("pid_max", "threads-max"):
        with contextlib.suppress(OSError, ValueError):
            limit = min(limit, int(Path(f"/proc/sys/kernel/{name}").read_text()))
    return max(MIN_IDLE_TASKS, limit // (IDLE_SHARE * (os.cpu_count() or 1)))


MIN_IDLE_TASKS = 64
"""What the idle hosts of a worker may hold in tasks on any machine, however small."""


DISCARD_BYTES = 1 << 20
"""The most one ``splice`` throws away of a bot's output past what is kept."""

DISCARD_PAUSE = 0.005
"""Seconds the drain waits after throwing a pipeful away (the pipe is widened to
:data:`DISCARD_BYTES` once a bot's output passes what is kept): past that, it flows at most
about 200 MB/s, and a bot that writes faster waits on its pipe, in its own time (the worker
drained an endless stream as fast as the bot wrote it: half a core for each core the bot
wrote on)."""

PIECE_PAUSE = 0.002
"""Seconds the referee waits after reading a piece of a line shorter than a pipe's atomic
write (``PIPE_BUF``, 4 KiB) before it reads again. A host writes each message whole; the red
team's wrote its answer a byte at a time, each only once the referee had read the last
(JSON's whitespace pads a line as long as it likes), and every byte cost the referee a
wake-up, a read and a search through the line so far: in 3 s of the bot's clock the referee
spent 1.1 to 1.2 s of its CPU, more than the host's 0.9 to 1.0 s, on the worker's core and
outside the bot's limits. Past the pause a host gets at most 500 such reads a second, in its
own time (the referee then spent about 0.1 s). The drain of a host's output pauses so too,
after any read of less than ``PIPE_BUF``: the same host wrote its output a byte at a time,
each once the drain had read the last, and the referee spent 0.5 s of its CPU in 3 s of the
bot's clock (about 60 KiB, up to the 64 KiB a match keeps; past them the drain throws output
away after :data:`DISCARD_PAUSE`); 0.05 s with the pause."""


TAKE_READS = 64
"""The most reads :meth:`Output.take` makes of what a host's pipe holds (a bot that writes a
byte at a time gets that many of its bytes in; the drain thread takes the rest)."""


@functools.cache
def _null() -> int:
    """A descriptor of ``/dev/null`` for this process, where output that is not kept goes."""
    return os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)


class Output:
    """Drains a host's stdout/stderr pipe on a thread, keeping the first bytes of each match."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.kept = bytearray()
        self.dropped = 0
        self.widened = False
        self.piece = False
        """Whether the last read brought less than ``PIPE_BUF`` (see :data:`PIECE_PAUSE`)."""
        self.lock = threading.Lock()
        self.pending = select.poll()
        self.pending.register(fd, select.POLLIN)
        self.thread = threading.Thread(target=self._drain, daemon=True, name="arena-bot-output")
        self.thread.start()

    def _drain(self) -> None:
        ready = select.poll()
        ready.register(self.fd, select.POLLIN)
        while True:
            ready.poll()  # until there is something to read, or the writers are gone
            # Read and keep under the lock: whoever holds it and finds the pipe empty knows
            # that every byte written so far is kept (a chunk is never between the two).
            with self.lock:
                thrown = self._take_in()
                if thrown is None:  # closed under the lock: take() reads it under the lock
                    with contextlib.suppress(OSError):
                        os.close(self.fd)
                    self.fd = -1
                    break
            if thrown:  # past what is kept: a flood waits (the bot's time, not the worker's)
                time.sleep(DISCARD_PAUSE)
            elif self.piece:  # a small read: what follows comes after a pause, in one read
                time.sleep(PIECE_PAUSE)

    def _take_in(self) -> int | None:
        """Keep the pipe's next chunk, or throw it away once a match's share is kept; how
        many bytes were thrown away (None at the pipe's end). With the lock held."""
        if self.fd < 0:
            return None
        if len(self.kept) >= OUTPUT_BYTES:
            thrown = self._discard()
            if thrown is not None:
                self.dropped += thrown
                return thrown or None
        chunk = self._read()
        if not chunk:
            return None
        self.piece = len(chunk) < select.PIPE_BUF
        room = OUTPUT_BYTES - len(self.kept)
        self.kept += chunk[:room]
        self.dropped += max(0, len(chunk) - room)
        return max(0, len(chunk) - room)

    def _discard(self) -> int | None:
        """Throw away what the pipe holds, without copying it out: it goes to ``/dev/null``
        inside the kernel (``splice``). How many bytes went (0 at the pipe's end); None
        where the kernel cannot splice it (then it is read)."""
        if not self.widened:  # a pipeful a wake-up: a wide pipe wakes the drain less often
            self.widened = True
            with contextlib.suppress(OSError):
                fcntl.fcntl(self.fd, fcntl.F_SETPIPE_SZ, DISCARD_BYTES)
        try:
            return os.splice(self.fd, _null(), DISCARD_BYTES)
        except OSError:
            return None

    def _read(self) -> bytes:
        """The next chunk of the pipe; empty at its end."""
        try:
            return os.read(self.fd, 65536)
        except OSError:
            return b""

    def take(self, wait: float = 0.0) -> str:
        """What was kept since the last call (after ``wait`` seconds for the pipe to close).

        What the pipe holds when it is called, the bot wrote before: it is read here, up to
        what a match keeps, not left to the drain thread's next turn (it waited up to 50 ms
        for that turn, which a machine at load 11 did not give: a line the bot wrote before
        its answer went to its next match's output). A bot that never stops writing gets
        what is in by then."""
        if wait:
            self.thread.join(wait)
        with self.lock:
            for _ in range(TAKE_READS):
                if self.fd < 0 or len(self.kept) >= OUTPUT_BYTES or not self.pending.poll(0):
                    break
                if self._take_in() is None:  # its end: the drain thread closes it
                    break
            return self._taken()

    def _taken(self) -> str:
        """What is kept, emptied (with the lock held)."""
        text = self.kept.decode("utf-8", "replace")
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes not kept]\n"
        self.kept, self.dropped = bytearray(), 0
        return text


class HostProcess:
    """One running bot host and the pipes to it."""

    def __init__(
        self, plugin: str, role: list[str], confinement: Confinement, sandbox: str,
        environment: Path | None = None,
    ) -> None:
        to_host_r, self.to_host = os.pipe()
        self.from_host, from_host_w = os.pipe()
        output_r, output_w = os.pipe()
        # The system calls refused to a host, in bubblewrap or not (file locks and inotify on
        # the files every sandbox shares would be a channel between two seats): see
        # arena.seats.seccomp.
        rules = seccomp.descriptor()
        # What bubblewrap makes the files it hides from (see sandbox._empty_data); bubblewrap
        # closes it before the host starts. None in the fallback, whose host would keep it.
        empty = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC) if use_bubblewrap(sandbox) \
            else None
        extra = tuple(fd for fd in (empty, rules) if fd is not None)
        try:
            command, self.workdir = host_command(
                plugin, role, (to_host_r, from_host_w), confinement, sandbox, environment,
                rules, empty)
        except BaseException:
            for fd in extra:
                os.close(fd)
            raise
        # The bot's processes together, where the machine allows a control group: memory
        # (the scratch folders' too), how many, and the cores they use at once (see
        # arena.seats.cgroups).
        own = 3 if self.workdir is None else 1  # bubblewrap, its init and the host; the host
        self.cgroup = cgroups.create(confinement.memory_mb, confinement.processes + own,
                                     SCRATCH_MB + SCRATCH_MB // 4, confinement.cpus)
        if self.cgroup is not None:
            command = [*self.cgroup.prefix(), *command]
        self.started = time.perf_counter()
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=output_w, stderr=output_w,
                pass_fds=(to_host_r, from_host_w, *extra),
                env=dict(CLEAN_ENV), cwd=self.workdir, start_new_session=True, close_fds=True,
            )
        finally:
            for fd in (to_host_r, from_host_w, output_w, *extra):
                os.close(fd)
        self.output = Output(output_r)
        self.buffer = bytearray()
        """What the host wrote that is not read as a message yet."""
        self.poller = select.poll()
        self.poller.register(self.from_host, select.POLLIN)
        # Writes wait for room in the pipe under the request's deadline: a host that stops
        # reading (or fills its own request pipe) is timed out, not waited for forever.
        os.set_blocking(self.to_host, False)
        self.writable = select.poll()
        self.writable.register(self.to_host, select.POLLOUT)
        self.alive = True
        self.matches = 0
        self.released = 0  # when the pool last took it back (a count), to close the oldest
        self.resident = 0  # its resident bytes when the pool last took it back
        self.tasks = 0  # its tasks (processes and threads) when the pool last took it back
        self.memory_mb = confinement.memory_mb
        self.cpu_seconds = confinement.cpu_seconds
        self.deals: set[int] = set()
        """The chance seeds of the matches it was started for: a host never gets one twice."""
        self.hello: dict[str, Any] = {}
        """What the referee reads of the host's hello, all it keeps of it: ``protocol`` and
        ``observes``."""
        self._sandbox: tuple[int, int] | None = None
        """Inside bubblewrap: the pid (outside) of the sandbox's init and of the host."""
        self._paused = False
        self._dying: list[int] = []
        """The processes the last sweeps killed (see :meth:`pause`)."""
        self._stopped_cpu: float | None = None
        """The host's CPU time once it was last seen stopped (see :meth:`_stayed_stopped`)."""

    def greet(self, seconds: float) -> dict[str, Any]:
        """Wait for the host's first message, its hello; what the referee reads of it.

        Only that is kept, for as long as the host lives (in the pool, too): the hello is
        the bot's to write (its code runs in its host, and may rewrite it), and the red
        team's said hello with a million empty objects (3 MB of text, about 70 MB of the
        worker's memory once decoded) in every host of it, which the pool's budget, counting
        what the hosts hold, never saw: 16 idle hosts held 575 MB of the worker."""
        message = self.receive(time.perf_counter() + seconds, "start-up")
        if message.get("type") == "error":
            self.kill()
            raise BotRaised(f"failed to start: {str(message.get('error', ''))[-4000:]}")
        self.hello = {"type": str(message.get("type"))[:40], "protocol": _protocol(message),
                      "observes": bool(message.get("observes", True))}
        if self.workdir is None:  # bubblewrap: its init (pid 1 inside) runs the host (pid 2)
            self._sandbox = _sandbox_pids(self.process.pid)
        return message

    def end_strays(self, spare: Collection[int] = ()) -> int:
        """Kill every process of the host's sandbox but the host itself (and ``spare``, those
        killed already), and say how many.

        A bot may start processes while it thinks, but none may run on once it has answered:
        they would take the CPU of the seats thinking after it (and, in a host kept for the
        next match, of matches it does not play). With a control group every process the bot
        starts is in it, whatever its parent: one read lists them (either sandbox). Without
        one, inside bubblewrap, every process stays a descendant of the sandbox's init
        (where orphans go) or of the host (any of its threads), so a few reads of ``/proc``
        find them all (about 14 µs); the fallback without a group is not swept."""
        if not self.alive or (self.workdir is None and self._sandbox is None):
            return 0  # bubblewrap, but its tree was not as expected: nothing is known to keep
        if self.cgroup is not None:
            keep = {self.process.pid, *(self._sandbox or ())}
            look = functools.partial(_group_strays, self.cgroup, keep)
        elif self._sandbox is not None:
            look = functools.partial(_tree_strays, *self._sandbox)
        else:
            return 0
        killed = 0
        for _ in range(SWEEPS):
            # Until a look finds none: a process that forks and exits in a loop hops to a
            # new pid between a look and the kill; it is caught on a later look, each kill
            # being quicker than a fork.
            strays = [pid for pid in look() if pid not in spare and not _ended(pid)]
            if not strays:
                break
            while strays:
                pid = strays.pop()
                strays += _children(pid)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                    self._dying.append(pid)
        return killed

    def pause(self) -> None:
        """Stop the host, every thread of it, until it is asked something again: a bot runs
        only on its own turn (no thinking on the others' time, no background spinning while
        they think or while its host waits in the pool). Inside bubblewrap the sandbox's
        init is stopped too: the bot may rewrite its code (it runs as the same user, and
        ``ptrace`` or ``/proc/1/mem`` reach it), and the sweep must leave it alive.

        A stop by signal holds every thread of a process, except that of a process being
        traced: a bot that stays the init's tracer can keep a thread it put there running,
        and wake the host with ``SIGCONT``. So a traced init is the bot's fault
        (``BotIllegal``), found here, before its first turn is over. (Freezing the host's
        control group would hold everything without that check, but costs about 200 µs a
        decision with cgroup v1, and a frozen process cannot die with its parent.)

        The processes the bot started are swept (:meth:`end_strays`) only once the host is
        stopped: a thread of the host that forks in a loop would otherwise start a new one
        between the sweep's last look and the stop, which ran on, spinning, until the bot's
        next turn (the red team's fork loop kept one in 11 of 15 matches).

        A host whose first process has exited (:attr:`process`, bubblewrap inside its
        sandbox) is crashed here: whatever answered for it is a process it left."""
        if self.alive and self.process.poll() is not None:
            # The process the arena started has exited, yet it was answered: by a process it
            # left holding its descriptors, which no stop reaches in the fallback without a
            # control group (it ran on between its turns). That is the host's crash.
            raise self._crashed()
        if self.alive and not self._paused:
            self._paused = True
            for pid in self._own_pids():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGSTOP)
            stopped = _await_stop(self._own_pids()[0])
            if self._sandbox is not None and _traced(self._sandbox[0]):
                self.kill()
                raise BotIllegal("traced the sandbox's init (ptrace), which lets a bot run "
                                 "out of its turn")
            swept = self.end_strays()
            if not stopped:
                # A thread still running may fork after the sweep's last look: once it has
                # stopped, what it forked exists, and is swept too. The stop is sent again
                # first, once what the sweep killed has ended (below): the end of one may
                # have sent SIGCONT, and the red team's host, with a thread held in a
                # ``vfork`` (no stop reaches it until its child execs or ends), was woken so
                # by the sweep and ran for the whole of this wait, 0.8 s of CPU in each
                # match's last stop, after its ``done``, on nobody's clock.
                swept += self._stop_again()
                _await_stop(self._own_pids()[0], LATE_STOP_WAIT)
                swept += self.end_strays()
            if swept:
                swept += self._stop_again()
            # What it has used so far: a host that runs on while stopped has woken itself.
            if swept or not stopped:
                _await_stop(self._own_pids()[0])
            self._dying.clear()
            self._stopped_cpu = self.sandbox_cpu()

    def _stop_again(self) -> int:
        """Stop the host again once every process the sweeps killed has ended; how many
        more the sweep killed meanwhile.

        One of them may have been tracing the host and swallowed its stop. And the end of
        each sends the host its exit signal, which may be ``SIGCONT`` (``clone``'s), or
        orphans a process group with the stopped host in it (the kernel sends ``SIGCONT`` to
        such a group): the stop is sent once each has ended (a zombie or gone), not while
        one is still freeing its memory, which took long enough for the stop to come first
        and the ``SIGCONT`` after it (the red team's host then ran in the pool of idle
        hosts, after its ``done``).

        The sweep goes on while it waits: a host not yet wholly stopped may still fork, and
        what it forks runs once its first thread shows stopped (the red team's fork loop: a
        child spun 20 ms on nobody's clock while this waited, on a loaded machine)."""
        dying, self._dying = list(dict.fromkeys(self._dying)), []
        killed = _await_ended(dying, LATE_STOP_WAIT,
                              functools.partial(self.end_strays, frozenset(dying)))
        for pid in self._own_pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        return killed

    def _stayed_stopped(self) -> None:
        """Refuse a host that ran while it was stopped (``BotIllegal``). A stop by signal
        lasts until a ``SIGCONT``, and the kernel sends one on a bot's behalf in ways no
        sweep prevents: the red team's host started children whose end sends their parent
        ``SIGCONT`` (``clone``'s exit signal), each waiting for the host to stop and then
        exiting before the sweep came, and a thread of it ran 2.3 s of the others' time in a
        match (a process group left orphaned with a stopped member is sent ``SIGCONT`` too;
        a file's readiness could send it before ``F_SETSIG`` was refused). Its CPU time and
        its sandbox's init's (:meth:`sandbox_cpu`), read once it was seen stopped, must not
        have grown by its next request."""
        if self._stopped_cpu is None:
            return
        ran = self.sandbox_cpu() - self._stopped_cpu
        self._stopped_cpu = None
        if ran > WOKEN_CPU:
            self.kill()
            raise BotIllegal(f"ran while stopped between its turns ({ran:.2f} s of CPU): it "
                             f"woke itself")

    def resume(self) -> None:
        if self._paused:
            self._paused = False
            for pid in reversed(self._own_pids()):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGCONT)

    def resident_bytes(self) -> int:
        """Memory the host holds now: its control group's charge where it has one, else the
        resident pages of the host and the sandbox's init (the processes a bot starts are
        gone once it has answered) and what the sandbox's scratch folders hold. Resident
        pages alone missed the scratch folders (memory, though no process maps them): a bot
        that filled its ``/tmp`` with 60 MiB and 300,000 empty files (250 MB of the kernel's
        memory) in every host it was given held 3 GB in six idle hosts seen as about 20 MB each.
        A root arena's fallback host has scratch folders of that kind too (its working folder
        and ``/dev/shm``, tmpfs of its own), counted the same way."""
        charged = None if self.cgroup is None else self.cgroup.memory_bytes()
        if charged is not None:
            return charged
        total = 0
        for pid in self._own_pids():
            with contextlib.suppress(OSError, IndexError, ValueError):
                total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES
        if self._sandbox is not None:
            total += sum(scratch_bytes(self._sandbox[0], folder) for folder in ("tmp", "dev/shm"))
        elif self.workdir is not None and _own_scratch(self.process.pid, self.workdir):
            total += sum(scratch_bytes(self.process.pid, folder.lstrip("/"))
                         for folder in (self.workdir, "dev/shm"))
        return total

    def cpu_used(self) -> float:
        """Seconds of CPU time the host process has used in its life (0 if it cannot be
        read): what its CPU time limit counts."""
        return _cpu_seconds(self._own_pids()[0])

    def sandbox_cpu(self) -> float:
        """Seconds of CPU time the host and (inside bubblewrap) the sandbox's init have used:
        what may not grow while they are stopped (see :meth:`_stayed_stopped`).

        The init is stopped with the host, and kept by the sweep; the bot may rewrite its
        code (``ptrace``, ``/proc/1/mem``: the same user). The check read the host's time
        alone: the red team's bot patched the init into a loop, and with the init woken after
        each stop (by a ``SIGCONT``, which the kernel sends on a bot's behalf), it ran 0.1 to
        0.2 s of CPU in each of the other seat's turns of 0.3 s, 0.78 s in a match, while the
        host's time stood still, and its seat played on ``ok``."""
        return sum(_cpu_seconds(pid) for pid in self._own_pids())

    def task_count(self) -> int:
        """The tasks (processes and threads) the host holds now: its control group's count
        where it has one, else the threads of the host and the sandbox's init, and
        bubblewrap's own process."""
        counted = None if self.cgroup is None else self.cgroup.tasks()
        if counted is not None:
            return counted
        total = 0 if self._sandbox is None else 1
        for pid in self._own_pids():
            with contextlib.suppress(OSError, IndexError, ValueError):
                status = _read(f"/proc/{pid}/status")
                total += int(status.split(b"\nThreads:", 1)[1].split(None, 1)[0])
        return total

    def _own_pids(self) -> list[int]:
        """The host, then (inside bubblewrap) the sandbox's init."""
        if self._sandbox is None:
            return [self.process.pid]
        init, host = self._sandbox
        return [host, init]

    def request(self, message: dict[str, Any], expected: str, deadline: float, what: str) -> Any:
        """Send ``message``; the answer of type ``expected``, or a fault (the host is then dead)."""
        self._nothing_unasked(what)
        self._stayed_stopped()
        self.resume()
        self.send(message, deadline, what)
        answer = self.receive(deadline, what, MAX_ANSWER)
        kind = answer.get("type")
        if kind == expected:
            return answer
        self.kill()
        if kind == "error":
            raise BotRaised(str(answer.get("error", ""))[-4000:])
        raise BotIllegal(f"answered a {str(kind)[:40]!r} message during {what}")

    def _nothing_unasked(self, what: str) -> None:
        """Refuse a host that wrote to the referee when nobody asked (an answer sent twice, or
        ahead of its question, a forged line): one request, one answer."""
        if not self.buffer and not self.poller.poll(0):
            return
        if not self.buffer:
            chunk = os.read(self.from_host, 1 << 16)
            if not chunk:
                raise self._crashed()
            self.buffer += chunk
        line = bytes(self.buffer.split(b"\n", 1)[0])
        self.kill()
        raise BotIllegal(f"sent a message nobody asked for, before {what}: {line[:60]!r}")

    def send(self, message: dict[str, Any], deadline: float, what: str) -> None:
        """Write ``message`` to the host, by ``deadline``: a host that does not read its
        requests (its pipe full) is killed and timed out."""
        view = memoryview(encode(message))
        while view:
            try:
                view = view[os.write(self.to_host, view):]
                continue
            except BlockingIOError:
                pass
            except OSError:
                raise self._crashed() from None
            left = deadline - time.perf_counter()
            if left <= 0 or not self.writable.poll(math.ceil(left * 1000)):
                if time.perf_counter() < deadline:
                    continue
                self.kill()
                raise BotTimedOut(f"did not read what it was sent within the time allowed "
                                  f"for {what}")

    def receive(self, deadline: float, what: str, longest: int = MAX_LINE) -> dict[str, Any]:
        """The next message, due by ``deadline`` (a ``perf_counter`` reading), of ``longest``
        bytes at most (:data:`MAX_ANSWER` for an answer to a request): a longer one is not
        decoded but refused."""
        searched = 0  # how much of the buffer is known to hold no line's end
        while True:
            end = self.buffer.find(b"\n", searched, longest + 1)
            if end < 0 and len(self.buffer) > longest:
                self.kill()
                raise BotIllegal(f"sent a line longer than {longest} bytes during {what}")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                try:
                    return decode(line)
                except ValueError:
                    self.kill()
                    raise BotIllegal(
                        f"sent a line that is not a JSON object: {line[:60]!r}"
                    ) from None
            left = deadline - time.perf_counter()
            if left <= 0 or not self.poller.poll(math.ceil(left * 1000)):
                if time.perf_counter() < deadline:
                    continue
                self.kill()
                raise BotTimedOut(f"no answer within the time allowed for {what}")
            chunk = os.read(self.from_host, 1 << 20)
            if not chunk:
                raise self._crashed()
            searched = len(self.buffer)
            self.buffer += chunk
            if len(chunk) < select.PIPE_BUF and b"\n" not in chunk:
                # A piece of a line: the rest comes after a pause (see PIECE_PAUSE).
                time.sleep(max(0.0, min(PIECE_PAUSE, deadline - time.perf_counter())))

    def _crashed(self) -> SeatFault:
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self.kill()
        if code is None:
            return BotCrashed("the bot host closed its pipe")
        if code < 0:
            return BotCrashed(f"the bot host was killed by {_signal_name(-code)}")
        if code > 128 and code - 128 in signal.valid_signals():
            return BotCrashed(f"the bot host was killed by {_signal_name(code - 128)}")
        return BotCrashed(f"the bot host exited with code {code}")

    def kill(self) -> None:
        """End the host and everything it started."""
        if not self.alive:
            return
        self.alive = False
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        if self.cgroup is not None:
            self.cgroup.kill_all()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        if self.cgroup is not None:
            self.cgroup.end()
        self._hang_up()
        if self.from_host >= 0:
            with contextlib.suppress(OSError):
                os.close(self.from_host)
            self.from_host = -1
        if self.workdir:
            remove_tree(self.workdir)  # the bot's to write in: of any depth

    def _hang_up(self) -> None:
        """Close its input, once: a descriptor closed twice may by then be another file's
        (this process has other threads opening files)."""
        if self.to_host >= 0:
            with contextlib.suppress(OSError):
                os.close(self.to_host)
            self.to_host = -1

    def let_go(self) -> None:
        """The first half of :meth:`close`: let it run and close its input, on which it ends."""
        if self.alive:
            self.resume()
            self._hang_up()

    def close(self, seconds: float = 1.0) -> None:
        """A polite end: close its input and give it ``seconds``, then make sure."""
        if self.alive:
            self.let_go()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=seconds)
        self.kill()


class HostPool:
    """Idle healthy hosts of this process, by bot, params and limits.

    A host keeps what its bot remembers from one match to the next, so it is never handed a
    deal it has played: every seating of a table shares the table's chance seed (the
    duplicate format), and a bot that kept the cards and dice of its first seating would know
    the hidden draws of the next (the order of the deck, what the others hold)."""

    def __init__(self) -> None:
        self.idle: dict[str, list[HostProcess]] = {}
        self._released = 0
        self.started = 0
        """Hosts started for this pool's seats (a count, for benchmarks and tests)."""
        atexit.register(self.close)

    def acquire(self, key: str, deal: int | None = None) -> HostProcess | None:
        """The most recently released host of ``key`` that has not played ``deal``."""
        hosts = self.idle.get(key, [])
        for index in range(len(hosts) - 1, -1, -1):
            if deal is None or deal not in hosts[index].deals:
                return hosts.pop(index)
        return None

    def release(self, key: str, host: HostProcess) -> None:
        if (not host.alive or host.matches >= MAX_MATCHES_PER_HOST
                or host.cpu_used() > CPU_RETIRE * host.cpu_seconds > 0):
            host.close()
            return
        self._released += 1
        host.released = self._released
        host.resident = host.resident_bytes()
        host.tasks = host.task_count()
        hosts = self.idle.setdefault(key, [])
        hosts.append(host)
        budget = host.memory_mb << 20
        while hosts and (len(hosts) > MAX_IDLE_PER_BOT
                         or sum(kept.resident for kept in hosts) > budget):
            hosts.pop(0).close()
        if not hosts:
            del self.idle[key]
        every = [idle for hosts in self.idle.values() for idle in hosts]
        count, held = len(every), sum(idle.resident for idle in every)
        tasks = sum(idle.tasks for idle in every)
        while count > min(MAX_IDLE_HOSTS, idle_hosts()) or (
                count and (held > idle_budget() or tasks > idle_tasks())):
            closed = self._close_oldest()
            held, tasks, count = held - closed.resident, tasks - closed.tasks, count - 1

    def _close_oldest(self) -> HostProcess:
        """Close the idle host released longest ago (each key's list is in release order),
        and return it (what it held is counted on it)."""
        key = min((key for key, hosts in self.idle.items() if hosts),
                  key=lambda key: self.idle[key][0].released)
        oldest = self.idle[key].pop(0)
        oldest.close()
        if not self.idle[key]:
            del self.idle[key]
        return oldest

    def close(self) -> None:
        """End every idle host: all are let go first, then each is waited for (within a
        second in all) and made sure of; one after the other took 15 ms a host."""
        hosts = [host for kept in self.idle.values() for host in kept]
        self.idle.clear()
        for host in hosts:
            host.let_go()
        deadline = time.monotonic() + 1.0
        for host in hosts:
            host.close(max(0.0, deadline - time.monotonic()))


POOL = HostPool()


class ProcessSeat:
    """A seat whose bot lives in a sandboxed host process."""

    def __init__(
        self,
        *,
        bot: str,
        plugin: str,
        start: Mapping[str, Any],
        confinement: Confinement,
        sandbox: str,
        startup_seconds: float,
        environment: str = "",
        deal: int | None = None,
        pool: HostPool = POOL,
    ) -> None:
        """``deal``: the match's chance seed (None: a start that plays no match)."""
        self.key = json.dumps([bot, plugin, start.get("params", {}), confinement.arguments(),
                               confinement.cpus, sandbox, environment], sort_keys=True,
                              default=str)
        self.pool = pool
        self.startup = 0.0
        host = pool.acquire(self.key, deal)
        # A stored bot's environment, built once on a machine that has only its wheel: the
        # arena's work, on no bot's clock (a node's build took 12-14 s at load 8, past the
        # 10 s of start-up the bot was given, and its first match there was a timeout).
        where = _environment(environment) if host is None else None
        began = time.perf_counter()
        try:
            if host is None:
                try:
                    pool.started += 1
                    host = HostProcess(plugin, [f"--bot={bot}"], confinement, sandbox, where)
                except OSError as exc:
                    raise BotCrashed(f"the bot host could not start: {exc}") from None
                host.greet(startup_seconds)
            if deal is not None:
                host.deals.add(deal)
            # One budget for the import and the constructor, as the README says: the start
            # had its own after the hello's, and a bot took twice its start-up time (an
            # import of 0.9 of it, then a constructor of 0.9), out of the other seats' time.
            host.request({"type": "start", **start}, "ready", began + startup_seconds,
                         "start-up")
            host.pause()
        except SeatFault as fault:
            output = host.output.take(wait=0.2) if host is not None else ""
            if host is not None:
                host.kill()
            raise type(fault)(f"{fault}{_tail(output)}", output) from None
        except Exception as exc:  # talking to a host went wrong in a way not foreseen
            if host is not None:
                host.kill()
            raise _unforeseen(exc) from exc
        self.host = host
        self.startup = time.perf_counter() - began
        self.observes = bool(host.hello.get("observes", True))
        self._keeps_static = _protocol(host.hello) >= STATIC_PROTOCOL
        self._sent: dict[str, Any] = {}
        """The static parts of observations this match has sent the host, by key."""
        self.output = ""
        self.peak_kb = 0
        """The host's peak resident memory, as it reports it at the end of a match."""

    def act(
        self,
        observation: Mapping[str, Any],
        legal_actions: Sequence[int],
        started: float,
        budget: float,
    ) -> object:
        if self._keeps_static:
            message = self._without_repeats(observation, legal_actions)
        else:
            message = {"type": "act", "observation": observation, "legal": legal_actions}
        try:
            answer = self.host.request(message, "action", started + budget,
                                       f"a decision ({budget:.3f}s)")
            self.host.pause()
        except SeatFault:
            raise
        except Exception as exc:  # talking to a host went wrong in a way not foreseen
            self.host.kill()
            raise _unforeseen(exc) from exc
        return answer.get("action")

    def _without_repeats(
        self, observation: Mapping[str, Any], legal_actions: Sequence[int]
    ) -> dict[str, Any]:
        """An ``act`` message that sends each static part (:class:`arena.game.Static`) once
        a match: later it is named under ``same`` and the host puts back what it kept."""
        sent = self._sent
        shown: dict[str, Any] = {}
        static: list[str] = []
        same: list[str] = []
        for key, value in observation.items():
            if value.__class__ is Static:
                if sent.get(key) is value:
                    same.append(key)
                    continue
                sent[key] = value
                static.append(key)
            shown[key] = value
        message = {"type": "act", "observation": shown, "legal": legal_actions}
        if static:
            message["static"] = static
        if same:
            message["same"] = same
        return message

    def close(self, outcome: Mapping[str, Any] | None = None) -> str:
        """End the match for the host; returns the bot's output during it."""
        host = self.host
        done = None
        if host.alive and outcome is not None:
            with contextlib.suppress(SeatFault):
                done = host.request({"type": "end", **outcome}, "done",
                                    time.perf_counter() + 2.0, "the end of the match")
        if done is not None:
            with contextlib.suppress(SeatFault):  # a host it kills is not kept
                self.host.pause()
        if done is not None and host.alive:
            self.peak_kb = _kilobytes(done.get("peak_kb"))
            host.matches += 1
            self.output += host.output.take()
            self.pool.release(self.key, host)
            return self.output
        host.kill()
        self.output += host.output.take(wait=0.5)
        return self.output


STOP_WAIT = 0.05
"""Seconds :func:`_await_stop` waits at most for a host's threads to stop."""

WOKEN_CPU = 0.025
"""Seconds of CPU time a stopped host may seem to gain before its next request (the
kernel's count moves in ticks of 10 ms) before it is taken for woken (see
:meth:`HostProcess._stayed_stopped`)."""

LATE_STOP_WAIT = 2.0
"""Seconds a pause waits, after its sweep, for a thread of the host that had not stopped
within :data:`STOP_WAIT`, before it sweeps again: on a loaded machine a thread of a bot
(niced) preempted inside ``fork`` ran again only after the sweep's last look, finished the
fork and then stopped, and its child ran on while the host waited (1 run in 4 of the fork
loop's test beside six busy processes)."""

STOP_YIELDS = 20
"""Looks at a stopping host between which :func:`_await_stop` yields the core, before it
sleeps between looks instead."""


def _await_stop(pid: int, wait: float = 0.0) -> bool:
    """Wait until every thread of process ``pid`` has stopped (or ``wait``, by default
    ``STOP_WAIT``, has passed); whether they all have (or the process is gone).

    A stop signal is delivered when each thread next runs: ``kill`` returns before a thread
    busy on another core has stopped, and one that forks meanwhile starts a child the sweep
    that follows may not see. Once every thread shows ``T`` the children they forked exist
    (a fork is whole before its thread can stop). One read for a process of one thread,
    which is what a host is while its bot starts none.

    Between looks it first yields the core (:data:`STOP_YIELDS` times), then sleeps: the
    stop needs the host to run, often on this very core, and a sleep of 0.2 ms (0.27 with the
    timer's slack) was most of the wait (a third of the stops needed one). Yielding halved
    a sandboxed random-bot match's time, 25 to 12 ms, and took less CPU of the referee
    (``benchmarks/bench_seats.py`` (m))."""
    deadline = time.perf_counter() + (wait or STOP_WAIT)
    looks = 0
    while True:
        try:
            fields = _read(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()
            if fields[0] not in (b"T", b"t"):
                threads = None
            elif fields[17] == b"1":
                return True
            else:
                threads = os.listdir(f"/proc/{pid}/task")
        except (OSError, IndexError):
            return True  # gone, or not readable: nothing to wait for
        if threads is not None and all(_thread_stopped(pid, task) for task in threads):
            return True
        if time.perf_counter() > deadline:
            return False
        looks += 1
        if looks <= STOP_YIELDS:
            os.sched_yield()
        else:
            time.sleep(0.0002)


def _await_ended(pids: list[int], wait: float, sweep: Callable[[], int]) -> int:
    """Wait until every process of ``pids`` has ended, a zombie or gone (or ``wait`` seconds
    have passed): only then has its end sent what it sends (its exit signal to its parent,
    ``SIGCONT`` to a process group it orphans). A process killed frees its memory first,
    which takes a while when it holds much. ``sweep`` runs at each look (what it killed is
    not waited for here); the processes it killed, in all."""
    deadline = time.perf_counter() + wait
    killed = 0
    for pid in pids:
        while True:
            killed += sweep()
            try:
                state = _read(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()[0]
            except (OSError, IndexError):
                break
            if state in (b"Z", b"X") or time.perf_counter() > deadline:
                break
            time.sleep(0.0002)
    return killed


def _cpu_seconds(pid: int) -> float:
    """Seconds of CPU time process ``pid`` has used in its life, all its threads (0 if it
    cannot be read)."""
    try:
        fields = _read(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime
    except (OSError, IndexError, ValueError):
        return 0.0


def _read(path: str) -> bytes:
    """A small file of ``/proc`` in one read (quicker than ``Path.read_bytes``)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 4096)
    finally:
        os.close(fd)


def _thread_stopped(pid: int, task: str) -> bool:
    try:
        stat = _read(f"/proc/{pid}/task/{task}/stat")
    except OSError:
        return True  # it has ended
    return stat.rsplit(b")", 1)[1].split()[0] in (b"T", b"t")


def _traced(pid: int) -> bool:
    """Whether a process traces ``pid`` (its ``TracerPid``); False if it is gone."""
    try:
        status = _read(f"/proc/{pid}/status")  # TracerPid comes well within its first 4 KiB
    except OSError:
        return False
    at = status.find(b"\nTracerPid:")
    tracer = status[at + 11:].split(None, 1) if at >= 0 else []
    return bool(tracer) and tracer[0] != b"0"


def _own_scratch(pid: int, workdir: str) -> bool:
    """Whether the fallback host ``pid`` has its working folder ``workdir`` as a tmpfs of its
    own (a root arena's fallback mounts one in a mount namespace of the host's, where the
    kernel permits): not the folder of the same name on the arena's disk."""
    try:
        return os.stat(f"/proc/{pid}/root/{workdir}").st_dev != os.stat(workdir).st_dev
    except OSError:
        return False


def _unforeseen(exc: Exception) -> BotCrashed:
    """A host that made talking to it fail unforeseen is that seat's crash, never the
    engine's failure (which would void the match for every seat, the bot's losses with it)."""
    return BotCrashed(f"the referee lost the bot host: {type(exc).__name__}: {exc}"[:500])


def _signal_name(number: int) -> str:
    """``SIGKILL`` for 9; ``signal 40`` for a real-time signal, which has no name (the exit
    status is the bot's to choose: it must not make the referee raise)."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


SWEEPS = 200
"""Looks for stray processes after an answer, at most (a normal one takes one)."""


def _children_of_task(pid: int, task: int) -> list[int]:
    """The child processes that thread ``task`` of process ``pid`` started."""
    try:
        fd = os.open(f"/proc/{pid}/task/{task}/children", os.O_RDONLY)
    except OSError:
        return []
    try:
        return [int(child) for child in os.read(fd, 1 << 16).split()]
    except OSError:
        return []
    finally:
        os.close(fd)


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has ended: a zombie (its whole thread group gone, waiting for
    its parent to reap it) or gone. A zombie runs nothing, and a kill does nothing to it, so
    the sweep leaves it: inside bubblewrap without a control group the sandbox's tree lists
    the zombie children of the host (stopped, so it reaps none), and each made the sweep
    look again, all :data:`SWEEPS` times: the red team's bot left 40 in its ``close()``, and
    each match's last stop, after its ``done``, cost the referee 0.15 s of CPU on nobody's
    clock (and every decision after, in a host the pool kept). A thread group whose first
    thread has exited and whose others run on shows that thread a zombie too: it is no
    zombie while it has more than one thread."""
    try:
        fields = _read(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return True
    return fields[0] in (b"Z", b"X") and fields[17:18] == [b"1"]


def _group_strays(group: cgroups.Cgroup, keep: set[int]) -> list[int]:
    """The processes of a host's control group but the sandbox's own."""
    return [pid for pid in group.processes() if pid not in keep]


def _tree_strays(init: int, host: int) -> list[int]:
    """The processes under a bubblewrap sandbox's init but the host."""
    return [pid for pid in _children_of_task(init, init) if pid != host] + _children(host)


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (of each of its threads); none once it is gone."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        found += _children_of_task(pid, int(task))
    return found


def _sandbox_pids(outer: int) -> tuple[int, int] | None:
    """For the bubblewrap process ``outer``: its init inside the sandbox and the host, found
    by its pid inside (2); None if the tree is not that (then nothing is swept)."""
    inits = _children(outer)
    if len(inits) != 1:
        return None
    for child in _children(inits[0]):
        try:
            with open(f"/proc/{child}/status", encoding="ascii", errors="replace") as handle:
                lines = [line for line in handle if line.startswith("NSpid:")]
        except OSError:
            continue
        if lines and lines[0].split()[-1] == "2":
            return inits[0], child
    return None


def _kilobytes(value: object) -> int:
    """The peak memory a host reported: its host code's number, or 0 for anything a bot
    may have forged in its place (a string, infinity, a negative or a huge number)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 40:
        return value
    return 0


def _protocol(hello: Mapping[str, Any]) -> int:
    """The protocol version a host said it speaks (1 if it said nothing readable)."""
    version = hello.get("protocol", 1)
    return version if isinstance(version, int) and not isinstance(version, bool) else 1


def _environment(environment: str) -> Path | None:
    """A stored bot's own virtualenv; None: the arena's. A machine that has the bot's wheel
    (the store's folder, shared or copied) but not its environment builds it once, here."""
    if not environment:
        return None
    path = Path(environment)
    if (path / "bin" / "python").exists():
        return path
    from arena.botstore import (
        admitted_dependencies,
        admitted_wheel,
        node_environment,
        shipped_dependencies,
        shipped_wheel,
    )
    from arena.errors import ArenaError

    try:
        admitted = admitted_wheel(path.parent)
    except ArenaError as exc:
        raise BotCrashed(str(exc)) from None
    wheels = [admitted] if admitted else sorted(path.parent.glob("*.whl"))
    pinned = admitted_dependencies(path.parent)
    if not wheels:  # not the store's folder: a wheel the run shipped, built into a node cache
        shipped = shipped_wheel(environment, sys.path)
        if shipped is None:
            raise BotCrashed(f"the bot's environment {environment} and its wheel are missing "
                             f"on {os.uname()[1]}")
        pinned = shipped_dependencies(shipped)
        wheels, path = [shipped], node_environment(environment, shipped, pinned)
        if (path / "bin" / "python").exists():
            return path
        path.parent.mkdir(parents=True, exist_ok=True)
    from arena.submit import make_environment

    staging = path.parent / f".env-{os.getpid()}-building"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        make_environment(staging, wheels[0], [], pinned)
    except (ArenaError, OSError, subprocess.CalledProcessError) as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise BotCrashed(f"the bot's environment could not be built on {os.uname()[1]}: "
                         f"{exc}") from None
    try:
        staging.rename(path)  # atomic: another worker may have built it meanwhile
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
    return path


def _tail(output: str, lines: int = 6) -> str:
    """The last lines of a bot's output, for an error message."""
    if not output.strip():
        return ""
    return "; its output ends: " + " | ".join(output.strip().splitlines()[-lines:])[-600:]
