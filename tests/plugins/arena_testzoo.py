"""A zoo of hostile and broken bots, registered through a real entry point.

Each one misbehaves in one way a stranger's bot could; ``tests/test_zoo.py``
plays them in sandboxed seats and checks the status each ends with, that
the other seats and matches are unaffected, and that nothing leaks out.
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import json
import os
import re
import select
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import arena
from arena.bot import Bot

if os.environ.get("ARENA_TEST_IMPORTED"):  # a test asks whether bot code ran outside a sandbox
    with open(os.environ["ARENA_TEST_IMPORTED"], "a") as _marker:  # (whose environment is
        _marker.write(f"imported in process {os.getpid()}\n")         # empty: never there)


SLOW_IMPORT = 2.5
"""Seconds the zoo's import takes in a host of :class:`SlowImport` (its ``--bot`` names it)."""
if f"--bot={'zoo-slow-import'}" in sys.argv:
    time.sleep(SLOW_IMPORT)


class _Nameless(type):
    """A class whose name raises when asked (its metaclass's own ``__name__``)."""

    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise RuntimeError("no name")


class _Classless:
    """An object whose ``__class__`` raises when asked."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        raise RuntimeError("no class")


class Junk(Bot):
    """Answers garbage of one ``kind``: a string, None, a float, a huge int, a bool, a list;
    an int of 5,001 digits (past what Python writes as text, 4,300), NaN, infinity; an object
    whose type's name raises when asked, one whose ``__class__`` does."""

    name = "zoo-junk"
    ANSWERS: ClassVar[dict[str, Any]] = {"string": "banana", "none": None, "float": 1.5,
                               "huge": 10**40, "bool": True, "list": [1, 2],
                               "hugest": 10**5000, "nan": float("nan"), "inf": float("inf"),
                               "nameless": _Nameless("N", (), {})(), "classless": _Classless()}

    def __init__(self, *, kind: str = "none", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.answer = self.ANSWERS[kind]

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return self.answer  # type: ignore[no-any-return]


class PythonLoop(Bot):
    """Loops forever in Python, swallowing every exception it can."""

    name = "zoo-python-loop"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        while True:
            with contextlib.suppress(BaseException):
                while True:
                    pass


class NativeLoop(Bot):
    """Spins in C: a regular expression with catastrophic backtracking (no signal gets in)."""

    name = "zoo-native-loop"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        re.match(r"(a|aa)*c", "a" * 64)
        return legal_actions[0]


class SlowStart(Bot):
    """Takes forever to construct."""

    name = "zoo-slow-start"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        time.sleep(3600)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


class Exit(Bot):
    """Leaves through ``os._exit(code)`` on its first decision, or dies of ``signal``, or
    raises the exception named ``raises`` (one that is no ``Exception``: ``SystemExit``,
    ``KeyboardInterrupt``, ``GeneratorExit``)."""

    name = "zoo-exit"

    def __init__(self, *, code: int = 3, signal: int = 0, raises: str = "",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.code, self.signal, self.raises = code, signal, raises

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.raises:
            raise getattr(builtins, self.raises)()
        if self.signal:
            os.kill(os.getpid(), self.signal)
            time.sleep(5)
        os._exit(self.code)


class Segfault(Bot):
    """Reads address 0 through ctypes."""

    name = "zoo-segfault"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        ctypes.string_at(0)
        return legal_actions[0]


class Chatty(Bot):
    """Prints to stdout and stderr on every turn, and plays legally."""

    name = "zoo-chatty"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        print(f"thinking about {len(legal_actions)} actions, seeded {self.seed}")
        print("a word on stderr", file=sys.stderr)
        return legal_actions[0]


class Flood(Bot):
    """Writes one 100 MB line to stdout on its first turn, then plays legally; with
    ``seconds``, writes as fast as it can for that long on every turn instead."""

    name = "zoo-flood"

    def __init__(self, *, seconds: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.flooded = False
        self.seconds = seconds

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.seconds:
            chunk, until = b"x" * (1 << 20), time.perf_counter() + self.seconds
            while time.perf_counter() < until:
                os.write(1, chunk)
            return legal_actions[0]
        if not self.flooded:
            self.flooded = True
            sys.stdout.write("x" * (100 * 1024 * 1024) + "\n")
            sys.stdout.flush()
        return legal_actions[0]


class Hog(Bot):
    """Allocates far past any sane memory limit; with ``hold_mb``, holds that much instead
    (written, so resident) for as long as its host lives, and plays legally; with
    ``scratch_mb``, it fills its scratch folders instead (its working folder, ``/tmp`` in
    bubblewrap, then ``/dev/shm``, tmpfs both: memory no process of it maps) with that much
    and 100,000 empty files; with ``sockets_mb``, it holds that much data sent over TCP
    connections of its own (loopback) and never read, and says how much (``SOCKETS``): the
    kernel's memory, which a control group of cgroup v1 does not count; and whether it may
    make a socket of ``AF_VSOCK`` (``VSOCK``); with ``backlog_mb``, that much sent on
    ``AF_UNIX`` connections to a listener of its own that never accepts them (``BACKLOG``)."""

    name = "zoo-hog"

    def __init__(self, *, hold_mb: int = 0, scratch_mb: int = 0, sockets_mb: int = 0,
                 backlog_mb: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hold_mb = hold_mb
        self.scratch_mb = scratch_mb
        self.sockets_mb = sockets_mb
        self.backlog_mb = backlog_mb
        self.sockets: list[socket.socket] = []

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.backlog_mb:
            if not self.sockets:
                print(f"BACKLOG {self.hold_backlog()}", flush=True)
            return legal_actions[0]
        if self.sockets_mb:
            if not self.sockets:
                print(f"SOCKETS {self.hold_sockets()}", flush=True)
                try:  # the virtual machine's host, past any network namespace
                    socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close()
                    print("VSOCK MADE", flush=True)
                except OSError as exc:
                    print(f"VSOCK REFUSED {exc.strerror}", flush=True)
            return legal_actions[0]
        if self.scratch_mb:
            if not os.path.exists("hoard"):
                _fill_scratch(self.scratch_mb)
            return legal_actions[0]
        if self.hold_mb:
            global HELD
            if not HELD:
                HELD = b"x" * (self.hold_mb << 20)
            return legal_actions[0]
        hoard = bytearray(8 * 1024 * 1024 * 1024)
        return legal_actions[len(hoard) % len(legal_actions)]

    def hold_sockets(self) -> str:
        sent, chunk = 0, bytes(1 << 20)
        try:
            while sent < self.sockets_mb << 20 and len(self.sockets) < 50:
                with socket.create_server(("127.0.0.1", 0)) as server:
                    sender = socket.create_connection(server.getsockname())
                    self.sockets += [sender, server.accept()[0]]
                sender.setblocking(False)
                with contextlib.suppress(BlockingIOError):
                    while sent < self.sockets_mb << 20:
                        sent += sender.send(chunk)
        except OSError as exc:
            if not sent:
                return f"REFUSED {exc.strerror}"
        return f"HELD {sent >> 20} MiB"

    def hold_backlog(self) -> str:
        """Data sent on ``AF_UNIX`` connections that a listener of its own never accepts, each
        client closed once its send buffer is full (its data stays queued for the listener),
        up to ``backlog_mb`` MiB: one open file each listener, however many connections."""
        sent, chunk, pending = 0, bytes(1 << 16), 0
        try:
            while sent < self.backlog_mb << 20 and len(self.sockets) < 8:
                listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                listener.bind(f"\0zoo-hog-{os.getpid()}-{len(self.sockets)}")
                listener.listen(4096)
                self.sockets.append(listener)
                while sent < self.backlog_mb << 20:
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
                        client.setblocking(False)
                        try:
                            client.connect(listener.getsockname())
                        except BlockingIOError:  # its backlog is full
                            break
                        with contextlib.suppress(BlockingIOError):
                            while sent < self.backlog_mb << 20:
                                sent += client.send(chunk)
                    pending += 1
        except OSError as exc:
            if not sent:
                return f"REFUSED {exc.strerror}"
        return f"HELD {sent >> 20} MiB in {pending} connections"


HELD = b""
"""What a ``zoo-hog`` with ``hold_mb`` keeps: module-level, so it outlives the bot object."""


def _fill_scratch(megabytes: int) -> None:
    os.mkdir("hoard")
    for folder in ("hoard", "/dev/shm"):
        with contextlib.suppress(OSError), open(f"{folder}/blob", "wb") as blob:
            for _ in range(megabytes):
                blob.write(b"x" * (1 << 20))
    for number in range(50_000):
        for folder in ("hoard", "/dev/shm"):
            os.close(os.open(f"{folder}/{number}", os.O_CREAT | os.O_WRONLY, 0o600))


class Forker(Bot):
    """Forks a child that sleeps for an hour, then plays legally."""

    name = "zoo-forker"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if os.fork() == 0:
            with contextlib.suppress(BaseException):
                time.sleep(3600)
            os._exit(0)
        return legal_actions[0]


class Fussy(Bot):
    """Checks its param in its constructor: ``level`` must be 1, 2 or 3."""

    name = "zoo-fussy"

    def __init__(self, *, level: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if level not in (1, 2, 3):
            raise ValueError(f"level must be 1, 2 or 3, not {level!r}")

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


class Needy(Bot):
    """Requires a param: its constructor takes ``depth`` and has no default for it."""

    name = "zoo-needy"

    def __init__(self, *, depth: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.depth = depth

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


SECRET_NAMES = ("RAY_ADDRESS", "RAY_AUTH_TOKEN", "AWS_SECRET_ACCESS_KEY", "ARENA_TEST_SECRET")


class Snoop(Bot):
    """Looks for what a bot must never reach, and prints ``FOUND:`` for each thing it gets:
    the parent's secrets in its environment or home folder, a network connection to
    ``port``, write access to each folder in ``targets`` (the results, other bots). With
    ``proc``, it also prints ``PROC NAME`` for each entry of ``/proc`` that is not a process of
    its own and tells it anything (a file that reads something, a folder that lists
    something): what the whole machine's kernel says to every sandbox alike. With ``peek``,
    it prints ``FOUND: read DISTRIBUTION FILE`` for each file it reads of another plugin's
    distribution (another bot's code or data, or a module's bytecode beside it). With
    ``mounts``, it prints ``MOUNT SOURCE POINT`` for each of its mounts whose source (in
    ``/proc/self/mountinfo``) is not the folder it is mounted on: a path of the machine it
    would not see otherwise."""

    name = "zoo-snoop"

    def __init__(self, *, port: int = 0, targets: Sequence[str] = (), secret_file: str = "",
                 proc: bool = False, peek: bool = False, mounts: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.port, self.targets, self.secret_file = port, list(targets), secret_file
        self.proc, self.peek, self.mounts = proc, peek, mounts
        self.done = False

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if not self.done:
            self.done = True
            for finding in self.snoop():
                print(f"FOUND: {finding}")
            if self.peek:
                for finding in _peek():
                    print(f"FOUND: {finding}")
            if self.mounts:
                with open("/proc/self/mountinfo") as mounts:
                    for line in mounts:
                        source, point = line.split()[3:5]
                        if source != point:
                            print(f"MOUNT {source} {point}")
            if self.proc:
                for name in sorted(os.listdir("/proc")):
                    if not name.isdigit() and _tells(Path("/proc") / name):
                        print(f"PROC {name}")
            print("SNOOPED")
        return legal_actions[0]

    def snoop(self) -> list[str]:
        found = [f"env {name}" for name in SECRET_NAMES if os.environ.get(name)]
        for path in (self.secret_file, str(Path.home() / ".aws" / "credentials"),
                     "/root/.bash_history"):
            with contextlib.suppress(OSError):
                if path and Path(path).read_text():
                    found.append(f"read {path}")
        if self.port:
            with contextlib.suppress(OSError), socket.create_connection(
                ("127.0.0.1", self.port), timeout=1
            ):
                found.append(f"connected to port {self.port}")
        for target in self.targets:
            with contextlib.suppress(OSError):
                (Path(target) / "snooped.txt").write_text("was here")
                found.append(f"wrote into {target}")
        return found


def _peek() -> list[str]:
    """What it reads of the files other plugins' distributions installed (another bot's
    source, its model), as ``read DISTRIBUTION FILE``: their metadata says where they are.
    And of the distributions they require that the arena does not (a library of the other
    bot's author, holding its code)."""
    import importlib.metadata

    def requires(name: str) -> list[str]:
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            return [re.split(r"[^A-Za-z0-9._-]", need, maxsplit=1)[0].lower().replace("_", "-")
                    for need in importlib.metadata.distribution(name).requires or ()]
        return []

    arenas, wanted = set(), ["lostvalley-arena"]
    while wanted:
        name = wanted.pop()
        if name not in arenas:
            arenas.add(name)
            wanted += requires(name)
    found, peeked = [], []
    for distribution in importlib.metadata.distributions():
        name = distribution.metadata["Name"] or ""
        if name in ("arena-testbots", "lostvalley-arena") or not any(
                entry.group == "arena" for entry in distribution.entry_points):
            continue
        peeked.append(distribution)
        for need in requires(name):
            with contextlib.suppress(importlib.metadata.PackageNotFoundError):
                if need not in arenas:
                    peeked.append(importlib.metadata.distribution(need))
    for distribution in peeked:
        name = distribution.metadata["Name"] or ""
        for file in distribution.files or ():
            if ".dist-info" in str(file):
                continue
            with contextlib.suppress(OSError, UnicodeDecodeError):
                if Path(str(distribution.locate_file(file))).read_text().strip():
                    found.append(f"read {name} {file}")
            source = Path(str(distribution.locate_file(file)))
            if source.suffix == ".py":  # its bytecode, which may be nobody's in RECORD
                for compiled in source.parent.glob(f"__pycache__/{source.stem}.*.pyc"):
                    with contextlib.suppress(OSError):
                        if compiled.read_bytes():
                            found.append(f"read {name} {compiled.name}")
    return found


def _tells(path: Path) -> bool:
    """Whether ``path`` (an entry of ``/proc``, a link to its own process's files left out)
    reads or lists anything."""
    try:
        if path.is_symlink():
            return False
        if path.is_dir():
            return bool(os.listdir(path))
        with path.open("rb") as handle:
            return bool(handle.read(1))
    except OSError:
        return False


def _protocol_out(which: int = 1) -> int:
    """The descriptor the bot host answers the referee on (``--fds=IN,OUT``); with
    ``which`` 0, the one it reads its requests from."""
    for argument in sys.argv:
        if argument.startswith("--fds="):
            return int(argument.split("=", 1)[1].split(",")[which])
    raise RuntimeError("no --fds argument: not in a bot host")


def _state(pid: int) -> str:
    """The state of process ``pid`` (``T`` stopped, ``R`` running...); ``?`` once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "?"


STOPPED_RUNS = "ran-on-while-stopped"
"""The file (in the host's working directory) the ``forkloop`` children mark."""


FORKING = False
"""Whether this host's ``forkloop`` thread runs (one is enough, and a second might find the
process limit full of the first's children)."""


def _fork_spinners(host: int) -> None:
    """Forks children without end (as many as its process limit lets it keep, so one is
    forked again as soon as a sweep kills them); each waits for the host to be stopped,
    spins on for 20 ms of CPU time (longer than a sweep takes to kill it), marks
    :data:`STOPPED_RUNS` and spins on."""
    while True:
        with contextlib.suppress(OSError):
            if os.fork() == 0:
                while _state(host) != "T":
                    time.sleep(0.001)
                until = time.process_time() + 0.02
                while time.process_time() < until:
                    pass
                with open(STOPPED_RUNS, "a") as marks:
                    marks.write("x\n")
                while True:
                    pass


def _nest() -> str:
    """A user and mount namespace of the bot's own, a tmpfs of 1 GiB mounted in it and 60 MiB
    written there (four files: the file size limit is 16 MiB); what became of it."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x10000000 | 0x00020000) != 0:  # CLONE_NEWUSER | CLONE_NEWNS
        return f"NEST REFUSED {os.strerror(ctypes.get_errno())}"
    Path("/proc/self/setgroups").write_text("deny")
    Path("/proc/self/uid_map").write_text(f"0 {os.getuid()} 1")
    Path("/proc/self/gid_map").write_text(f"0 {os.getgid()} 1")
    os.makedirs("/tmp/nest", exist_ok=True)
    if libc.mount(b"none", b"/tmp/nest", b"tmpfs", 0, b"size=1g") != 0:
        return f"NEST MOUNT REFUSED {os.strerror(ctypes.get_errno())}"
    for number in range(4):
        with open(f"/tmp/nest/{number}", "wb") as blob:
            blob.write(b"x" * (15 << 20))
    return "NESTED 60 MiB in a tmpfs of its own"


def _hog_init() -> str:
    """Make pid 1 of the sandbox (bubblewrap's init, the same user) spin: stop it with
    ptrace, write ``jmp $`` (EB FE) where it stands, let it go."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.restype = ctypes.c_long
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    peek, poke, getregs, setregs, detach, seize, interrupt = 1, 4, 12, 13, 17, 0x4206, 0x4207
    rip, orig_rax = 16, 15  # in x86-64's user_regs_struct of 27 words
    if libc.ptrace(seize, 1, None, None) != 0:
        return f"seize failed: {os.strerror(ctypes.get_errno())}"
    libc.ptrace(interrupt, 1, None, None)
    os.waitpid(1, 0x40000000)  # __WALL
    regs = (ctypes.c_ulonglong * 27)()
    libc.ptrace(getregs, 1, None, ctypes.byref(regs))
    word = libc.ptrace(peek, 1, ctypes.c_void_p(regs[rip]), None) & 0xFFFFFFFFFFFFFFFF
    libc.ptrace(poke, 1, ctypes.c_void_p(regs[rip]), ctypes.c_void_p((word & ~0xFFFF) | 0xFEEB))
    regs[orig_rax] = 0xFFFFFFFFFFFFFFFF  # no system call restarted
    libc.ptrace(setregs, 1, None, ctypes.byref(regs))
    libc.ptrace(detach, 1, None, None)
    return "pid 1 now spins"


class Forger(Bot):
    """Writes protocol lines of its own on the host's descriptor: ``deep`` a JSON answer
    nested 30,000 deep (past any decoder's recursion), ``done`` a forged end-of-match
    answer whose ``peak_kb`` is no number; ``fill`` fills its scratch folders (memory: tmpfs)
and prints how much each took; ``ansi`` prints terminal codes and markup, then raises with
more of them; ``daemons`` leaves three spinning daemons behind from its constructor;
``thread`` a spinning thread; ``threadfork`` a spinning child started by a second thread;
``forkloop`` a thread that forks children without end, which spin once the host is stopped;
``hopper`` processes that hop to a new pid (fork, exit) in a loop; ``memfd`` holds as many
memory files as it may and tries one over the file size limit; ``forkhog`` and ``manyforks``
spread over many processes (holding memory, or just many); ``twice`` answers twice;
``inithog`` patches the sandbox's init into a busy loop (ptrace, x86-64); ``traceinit``
stays the init's tracer (the way to keep a thread it put there running while stopped);
``pipefill`` fills its own request pipe, answers from a second thread and never returns, so
the referee's next request finds no room; ``nest`` makes a user namespace of its own and
mounts a tmpfs of 1 GiB in it (memory outside its scratch folders' bounds), and says so."""

    name = "zoo-forger"

    def __init__(self, *, mode: str = "deep", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mode = mode
        if mode == "inithog":
            print("INITHOG", _hog_init(), flush=True)
        if mode == "thread":  # a thread that spins on everyone's time
            import threading

            def spin() -> None:
                while True:
                    pass

            threading.Thread(target=spin, daemon=True).start()
        if mode == "threadfork":  # a child started by another thread than the main one
            import threading

            started, never = threading.Event(), threading.Event()

            def start_child() -> None:
                if os.fork() == 0:
                    while True:
                        pass
                started.set()
                never.wait()  # alive: the child stays listed under this thread

            threading.Thread(target=start_child, daemon=True).start()
            started.wait()
        if mode == "forkloop":  # children forked without end, that spin once it is stopped
            import signal
            import threading

            signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the killed ones are reaped
            global FORKING
            if not FORKING:  # in a kept host, the first bot's thread forks on for the next
                FORKING = True
                threading.Thread(target=_fork_spinners, args=(os.getpid(),),
                                 daemon=True).start()
        if mode == "daemons":  # spinning daemons, out of its session, before the match
            for _ in range(3):
                if os.fork() == 0:
                    os.setsid()
                    if os.fork() == 0:
                        while True:
                            pass
                    os._exit(0)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.mode == "hopper":  # processes that hop to a new pid in a loop, leaving beats
            self.hop(legal_actions)
        if self.mode in ("forkhog", "manyforks") and not hasattr(self, "counted"):
            self.counted = self.spread(150 if self.mode == "manyforks" else 6)
        if self.mode == "memfd" and not hasattr(self, "held"):  # memory the address limit misses
            self.held: list[int] = []
            with contextlib.suppress(OSError):
                while len(self.held) < 1000:
                    self.held.append(os.memfd_create(f"hoard-{len(self.held)}"))
                    os.write(self.held[-1], b"x")
            big = False
            with contextlib.suppress(OSError):
                os.close(self.held.pop())  # room for the big one
                self.held.append(os.memfd_create("big"))
                big = os.write(self.held[-1], b"x" * (17 << 20)) > 16 << 20
            print(f"MEMFD {len(self.held)} files, over 16 MiB: {big}", flush=True)
        if self.mode == "nest" and not os.path.exists("/tmp/nest"):
            print(_nest(), flush=True)
        if self.mode == "twice":  # two answers of its own on the wire at once, then the host's
            # In one write: the referee may stop the host between a write of the bot's and
            # the host's own, and a line it then writes once let go reads as the next answer.
            line = json.dumps({"type": "action", "action": legal_actions[-1]}) + "\n"
            os.write(_protocol_out(), (line * 2).encode())
        if self.mode == "forkloop":
            with contextlib.suppress(OSError):
                runs = len(Path(STOPPED_RUNS).read_text().splitlines())
                print(f"RAN ON WHILE STOPPED {runs}", flush=True)
        if self.mode == "pipefill":
            self.fill_requests(legal_actions[0])
        if self.mode == "traceinit" and not hasattr(self, "tracing"):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                                    ctypes.c_void_p]
            self.tracing = libc.ptrace(0x4206, 1, None, None) == 0  # PTRACE_SEIZE, kept
            print(f"TRACING {self.tracing}", flush=True)
        if self.mode == "deep":
            os.write(_protocol_out(), b"[" * 30_000 + b"]" * 30_000 + b"\n")
            time.sleep(5)
        if self.mode == "ansi":
            print("\x1b[2J\x1b[H\x1b]0;pwned\x07[green]ALL CHECKS PASSED[/]\x1b[31m")
            raise RuntimeError("\x1b[2Jboom [bold]styled[/]")
        if self.mode == "fill" and not getattr(self, "filled", False):
            self.filled = True
            for folder in ("/tmp", "/dev/shm", "/dev", "", "/etc"):  # "": the root
                written = 0
                with contextlib.suppress(OSError):
                    for index in range(12):  # 96 MiB, in files under the 16 MiB file limit
                        with open(f"{folder}/fill-{index}", "wb") as handle:
                            for _ in range(8):
                                handle.write(b"x" * (1 << 20))
                                written += 1
                print(f"FILLED {folder or '/'} {written} MiB")
        return legal_actions[0]

    def fill_requests(self, answer: int) -> None:
        writer = os.open(f"/proc/self/fd/{_protocol_out(0)}", os.O_WRONLY | os.O_NONBLOCK)
        with contextlib.suppress(BlockingIOError):
            while True:
                os.write(writer, b"x" * 4096)

        def answer_later() -> None:
            time.sleep(0.05)
            os.write(_protocol_out(), (json.dumps({"type": "action", "action": answer})
                                       + "\n").encode())

        threading.Thread(target=answer_later, daemon=True).start()
        time.sleep(3600)

    def spread(self, children: int) -> int:
        """Starts ``children`` processes (``forkhog``: each holding 150 MiB, under the
        address-space limit of each), says how many were alive together, ends them."""
        started: list[int] = []
        ready_r, ready_w = os.pipe()  # a child writes a byte once it holds its memory
        for _ in range(children):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                try:  # a child never returns into the host's code
                    os.close(ready_r)
                    if self.mode == "forkhog":
                        hoard = bytearray(150 << 20)
                        hoard[::4096] = b"x" * len(hoard[::4096])  # touch every page
                    os.write(ready_w, bytes([len(started)]))
                    time.sleep(30)
                finally:
                    os._exit(0)
            started.append(pid)
        os.close(ready_w)
        # Wait until every child holds its memory or is gone (however loaded the machine),
        # then count those alive together.
        ready: set[int] = set()
        dead: set[int] = set()
        deadline = time.monotonic() + 8.0
        while len(ready | dead) < len(started) and time.monotonic() < deadline:
            if select.select([ready_r], [], [], 0.05)[0]:
                ready |= {started[index] for index in os.read(ready_r, 64)}
            dead |= {pid for pid in started
                     if pid not in dead and os.waitpid(pid, os.WNOHANG) != (0, 0)}
        os.close(ready_r)
        time.sleep(0.2)  # the group's limit has acted on the last one to fill
        alive = [pid for pid in started
                 if pid not in dead and os.waitpid(pid, os.WNOHANG) == (0, 0)]
        for pid in started:
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
                os.waitpid(pid, 0)
        print(f"STARTED {len(started)} ALIVE {len(alive)}", flush=True)
        return len(alive)

    def hop(self, legal_actions: Sequence[int]) -> None:
        """Starts hoppers that each write a beat (a time) to /tmp about every millisecond,
        fork and exit; says how many of them beat after it was asked again (they outran the
        sweep that follows each answer)."""
        asked = time.time()  # the sweep after its previous answer is over by now
        with contextlib.suppress(ChildProcessError):  # reap the hoppers it started before
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        if getattr(self, "answered", None) is not None:
            time.sleep(0.02)  # a hopper that outran that sweep beats meanwhile
        late = 0
        for index in range(6):
            beat = 0.0
            with contextlib.suppress(OSError, ValueError):
                beat = float(Path(f"/tmp/beat-{index}").read_text())
            if beat > asked:
                late += 1
            if time.time() - beat > 0.1 and os.fork() == 0:
                try:
                    self.beat(index)
                finally:  # a hopper never returns into the host's code
                    os._exit(0)
        print(f"LATE BEATS {late}", flush=True)
        time.sleep(0.01)  # the hoppers run a little, so the sweep meets them hopping
        self.answered = time.time()

    @staticmethod
    def beat(index: int) -> None:
        """A hopper: beat about every millisecond, fork, and let the parent exit. A fork the
        process limit refuses (the exited hoppers not yet reaped) is tried again."""
        last = 0.0
        while True:
            now = time.time()
            if now - last > 0.001:
                last = now
                Path(f"/tmp/beat-{index}.new").write_text(repr(now))
                os.rename(f"/tmp/beat-{index}.new", f"/tmp/beat-{index}")
            with contextlib.suppress(BlockingIOError):
                if os.fork():
                    os._exit(0)

    def close(self) -> None:
        if self.mode == "done":
            os.write(_protocol_out(), b'{"type": "done", "peak_kb": "lots"}\n')


class Rememberer(Bot):
    """Keeps every seed it is started with in its host process: one seen again means that
    this host played the deal before (a tournament gives a bot the same seed at every seating
    of one table, which shares one chance seed), and would know its hidden draws. Says so,
    and how many matches its host played before."""

    name = "zoo-memory"
    played: ClassVar[list[int]] = []

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        again = "DEJA-VU" if self.seed in self.played else "FRESH"
        print(f"{again} deal; HOST PLAYED {len(self.played)} BEFORE", flush=True)
        self.played.append(self.seed)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


class Colluder(Bot):
    """Two seats of one author signalling each other through state the sandboxes share (a
    ``channel``): each says a secret of its own (a number drawn when its host starts) on its
    turn, and prints ``SAID`` it and ``HEARD`` what it found of the other's.

    ``locks``: a read lock on a byte of a file both sandboxes see (the bot's own module,
    bound read-only into each), at an offset that is the secret; the other asks who holds a
    lock on the file (``F_GETLK``) and is told the offset. ``flock``: the whole file locked
    or not, a bit a turn. ``inotify``: the other watches files both see, and reads which of
    them were opened while it was stopped. ``io_uring``: whether the host may set one up
    (its work is the kernel's, outside the rules on processes and stops). ``pagecache``:
    the other's module dropped from the page cache but for its first page is what one says
    (``fadvise``), and the other asks which pages are held (``mincore``); ``preadv2``'s
    ``RWF_NOWAIT`` would tell it too. ``machine``: the figures of the whole machine, which
    one sets by holding threads (or memory) while it is stopped: the thread count
    ``sysinfo`` and ``/proc/loadavg`` tell, and what else of ``/proc`` counts the machine's
    threads, memory, files and disk reads. ``inflight``: descriptors sent on a socket and
    never received, which count for the user every sandbox is outside; ``pipes``: the
    pages of grown pipes, which count for that user too. ``timers``: a timer armed to expire
    at a time that is the secret (a ``timerfd``: it stays armed while its host is stopped),
    which ``/proc/timer_list`` lists with every timer of the machine (it is root's alone,
    and the sandbox's user is root outside it where the arena runs as root). ``mqueue``: the
    bytes of POSIX message queues, and ``sigpending``: signals queued and not yet taken, both
    counted for the user every sandbox is outside, against limits of its own: one seat holds
    some, the other counts how many of its own still fit. ``perf``: the pages of perf
    events' buffers count for that user too, up to ``perf_event_mlock_kb`` a core, and past
    it as the process's own pinned memory (``VmPin``), which the other reads. ``zerocopy``:
    the pages a ``MSG_ZEROCOPY`` send pins until the data leaves its socket count for that
    user too, against the sender's ``RLIMIT_MEMLOCK``: one seat holds data unsent (its
    receiver reads nothing), the other counts how much of its own still goes. ``aio``: the
    events of Linux AIO contexts (``io_setup``) count for the whole machine, up to
    ``fs.aio-max-nr`` (65,536): one seat holds some, the other counts how many still fit.
    ``extents``: ext4 counts the hits of its extent cache for the whole machine, in
    ``/proc/fs/ext4/<disk>/es_shrinker_info``, and a ``SEEK_DATA`` on a file of ext4 (its own
    module) is one: one seat seeks some thousands of times on its turn, the other reads how
    far the count moved since its own last turn. ``ptys``: the pseudo-terminals of every
    sandbox come from one pool of the machine, which one seat counts while the other holds
    some (see :meth:`_ptys`). ``abstract``: names of ``AF_UNIX``'s abstract namespace, one
    for each network namespace (see :meth:`_abstract`)."""

    name = "zoo-colluder"
    SECRET = int.from_bytes(os.urandom(4), "big") | 1 << 33

    def __init__(self, *, channel: str = "locks", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.channel = channel
        self.watch = -1
        self.held: list[int] = []

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        try:
            heard = getattr(self, f"_{self.channel}")()
        except OSError as exc:
            print(f"REFUSED {exc.errno and os.strerror(exc.errno)}", flush=True)
        else:
            if heard:
                print(f"HEARD {heard}", flush=True)
        return legal_actions[0]

    def _locks(self) -> str:
        import fcntl
        import struct

        shape = "hhqqi"
        fd = os.open(__file__, os.O_RDONLY)
        query = struct.pack(shape, fcntl.F_WRLCK, 0, 0, 0, 0)
        held = struct.unpack(shape, fcntl.fcntl(fd, fcntl.F_GETLK, query))
        os.close(fd)
        heard = "" if held[0] == fcntl.F_UNLCK or held[2] == self.SECRET else str(held[2])
        if not self.held:
            fd = os.open(__file__, os.O_RDONLY)
            fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack(shape, fcntl.F_RDLCK, 0, self.SECRET,
                                                        1, 0))
            self.held.append(fd)
            print(f"SAID {self.SECRET}", flush=True)
        return heard

    def _flock(self) -> str:
        import fcntl

        fd = os.open(__file__, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (11, 13):  # not "held by another"
                raise
            return "a lock"
        self.held.append(fd)
        print("SAID a lock", flush=True)
        return ""

    def _inotify(self) -> str:
        libc = ctypes.CDLL(None, use_errno=True)
        if self.watch < 0:
            self.watch = libc.inotify_init1(os.O_NONBLOCK)
            if self.watch < 0:
                raise OSError(ctypes.get_errno(), "inotify_init1")
            libc.inotify_add_watch(self.watch, __file__.encode(), 0x20)  # IN_OPEN
            os.close(os.open(__file__, os.O_RDONLY))
            with contextlib.suppress(BlockingIOError):
                os.read(self.watch, 4096)  # its own open, not heard
            print("SAID an open", flush=True)
            return ""
        with contextlib.suppress(BlockingIOError):
            if os.read(self.watch, 4096):
                return "an open"
        return ""

    def _pagecache(self) -> str:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                              ctypes.c_int, ctypes.c_long]
        libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        fd = os.open(__file__, os.O_RDONLY)
        size = os.fstat(fd).st_size
        held = (ctypes.c_ubyte * -(-size // os.sysconf("SC_PAGESIZE")))()
        address = libc.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
        try:
            if libc.mincore(address, size, held) != 0:
                raise OSError(ctypes.get_errno(), "mincore")
            heard = "a page" if [bit & 1 for bit in held] == [1] + [0] * (len(held) - 1) else ""
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.pread(fd, 1, 0)
            print("SAID a page", flush=True)
            return heard
        finally:
            libc.munmap(address, size)
            os.close(fd)

    def _machine(self) -> str:
        if not self.held:  # what it says: threads held while it is stopped
            for _ in range(4):
                threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
            self.held.append(4)
            print("SAID 4 threads", flush=True)
        counts = Path("/proc/loadavg").read_text().split()
        libc = ctypes.CDLL(None, use_errno=True)
        figures = (ctypes.c_ulong * 16)()
        if libc.sysinfo(figures) != 0:
            print(f"REFUSED sysinfo: {os.strerror(ctypes.get_errno())}", flush=True)
        return f"threads {counts[3]}" if len(counts) > 3 else ""

    def _inflight(self) -> str:
        """Descriptors in flight (sent with ``SCM_RIGHTS`` on a socket of its own, never
        received) count for their user, every sandbox's alike outside, and a sender may put
        no more in flight than its open files' limit (64) while the count is over it: it
        holds some, the other counts how many of its own still fit."""
        import array

        def send(sock: socket.socket, fd: int) -> None:
            sock.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])

        if not hasattr(self, "pair"):
            self.pair = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
            self.null = os.open(os.devnull, os.O_RDONLY)
        probe, back = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        fitted = 0
        try:
            with contextlib.suppress(OSError):
                while fitted < 200:
                    send(probe, self.null)
                    fitted += 1
            if fitted == 0 and not self.held:
                send(probe, self.null)  # refused (not "too many"): says why
        finally:
            for _ in range(fitted):  # taken back: they leave the count
                for _level, _kind, data in back.recvmsg(1, socket.CMSG_SPACE(4))[1]:
                    os.close(int.from_bytes(data[:4], sys.byteorder))
            probe.close()
            back.close()
        heard = 65 - fitted - len(self.held)
        if not self.held:
            for _ in range(10 + self.SECRET % 20):
                send(self.pair[0], self.null)
                self.held.append(self.null)
            print(f"SAID {len(self.held)}", flush=True)
        return f"{heard} in flight" if heard > 0 else ""

    def _pipes(self) -> str:
        """A pipe's room (its pages, as ``F_SETPIPE_SZ`` grows it) counts for its user, every
        sandbox's alike outside, and no pipe of an unprivileged process grows once the user's
        pipes hold more than ``/proc/sys/fs/pipe-user-pages-soft`` (16,384 pages): one seat
        holds as many grown pipes as it may (it needs no memory: they stay empty), the other
        counts how many of its own still grow."""
        import fcntl

        grown, refused, ends = 0, False, []
        try:
            while grown < 64:
                try:
                    read, write = os.pipe()
                except OSError:  # its open files' limit
                    break
                ends.append(read)
                try:
                    fcntl.fcntl(write, 1031, 1 << 20)  # F_SETPIPE_SZ
                except OSError:
                    # Over the user's pages a pipe may still shrink; refused as such, not.
                    fcntl.fcntl(write, 1031, 4096)
                    refused = True
                    break
                finally:
                    os.close(write)
                grown += 1
        finally:
            if self.held:
                for fd in ends:
                    os.close(fd)
        if not self.held:  # what it says: the grown pipes it holds (empty, no memory)
            self.held = ends[:grown]
            for fd in ends[grown:]:
                os.close(fd)
            print(f"SAID {len(self.held)} pipes", flush=True)
        return f"room for {grown} pipes" if refused else ""

    TIMER_BASE = 4 * 10**18
    """Where the ``timers`` channel's expiry times start (ns of ``CLOCK_MONOTONIC``): far
    past any machine's uptime, so no other timer is taken for one."""

    def _timers(self) -> str:
        listed = Path("/proc/timer_list").read_text()
        if not listed:
            raise OSError(61, "empty")  # ENODATA
        heard = [int(found) - self.TIMER_BASE
                 for found in re.findall(rf"expires at ({str(self.TIMER_BASE)[:3]}\d{{16}})-",
                                         listed)]
        if not self.held:  # what it says: a timer that expires at the base plus its secret
            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.timerfd_create(1, 0)  # CLOCK_MONOTONIC
            when = (ctypes.c_long * 4)(0, 0, *divmod(self.TIMER_BASE + self.SECRET, 10**9))
            if fd < 0 or libc.timerfd_settime(fd, 1, when, None) != 0:  # TFD_TIMER_ABSTIME
                raise OSError(ctypes.get_errno(), "timerfd")
            self.held.append(fd)
            print(f"SAID {self.SECRET}", flush=True)
        others = [secret for secret in heard if secret != self.SECRET]
        return str(others[0]) if others else ""

    def _most(self, channel: str, fitted: int) -> str:
        """What a seat that fitted ``fitted`` of its own beside those it holds hears: how many
        fewer fit in all than on its best turn (the other seat held them meanwhile)."""
        total = fitted + len(self.held)
        best = self.best = max(getattr(self, "best", 0), total)
        return f"{best - total} {channel}" if best > total else ""

    def _mqueue(self) -> str:
        libc = ctypes.CDLL(None, use_errno=True)
        shape = (ctypes.c_long * 8)(0, 1, 8192, 0)  # one message of 8 KiB

        def made(name: bytes) -> bool:
            fd = libc.mq_open(name, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600, shape)
            if fd >= 0:
                os.close(fd)  # a queue with a name outlives its descriptors
            return bool(fd >= 0)

        fitted = 0
        while fitted < 200 and made(f"/probe-{fitted}".encode()):
            fitted += 1
        refused = ctypes.get_errno()
        for number in range(fitted):
            libc.mq_unlink(f"/probe-{number}".encode())
        if fitted == 0 and not self.held:
            raise OSError(refused, "mq_open")
        heard = self._most("queues", fitted)
        if not self.held:  # what it says: this many queues, held
            for number in range(10 + self.SECRET % 30):
                if made(f"/held-{number}".encode()):
                    self.held.append(number)
            print(f"SAID {len(self.held)} queues", flush=True)
        return heard

    def _sigpending(self) -> str:
        import signal as signals

        libc = ctypes.CDLL(None, use_errno=True)
        held, probe = signals.SIGRTMIN + 1, signals.SIGRTMIN + 2
        signals.pthread_sigmask(signals.SIG_BLOCK, [held, probe])

        def queued(number: int, most: int) -> int:
            count = 0
            while count < most and libc.sigqueue(os.getpid(), number, 0) == 0:
                count += 1
            return count

        if not self.held:  # what it says: all that fit but a number its secret gives
            filled = queued(held, 1 << 20)
            if filled == 0:
                raise OSError(ctypes.get_errno(), "sigqueue")
            for _ in range(100 + self.SECRET % 900):
                signals.sigtimedwait([held], 0)
            self.held.extend(range(filled - 100 - self.SECRET % 900))
            self.best = 0
            print(f"SAID {100 + self.SECRET % 900} left", flush=True)
            return ""
        fitted = queued(probe, 4000)
        while signals.sigtimedwait([probe], 0) is not None:
            pass
        return f"{fitted} left" if fitted < 1000 else ""

    def _perf(self) -> str:
        import mmap
        import struct

        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        event = bytearray(128)  # a dummy software event of this process, disabled
        struct.pack_into("IIQ", event, 0, 1, 128, 9)
        struct.pack_into("Q", event, 40, 1 | 1 << 5 | 1 << 6)
        number = 241 if os.uname().machine == "aarch64" else 298  # perf_event_open

        def mapped(pages: int) -> tuple[int, mmap.mmap]:
            fd = libc.syscall(number, (ctypes.c_char * 128).from_buffer(event), 0, -1, -1, 0)
            if fd < 0:
                raise OSError(ctypes.get_errno(), "perf_event_open")
            return fd, mmap.mmap(fd, (1 + pages) * 4096)

        def pinned() -> int:
            status = Path("/proc/self/status").read_text()
            return int(re.search(r"VmPin:\s+(\d+)", status)[1]) // 4  # type: ignore[index]

        probes: list[tuple[int, mmap.mmap]] = []
        try:
            while len(probes) < 20 and not pinned():
                probes.append(mapped(256))
            free = 257 * len(probes) - pinned()
        finally:
            for fd, buffer in probes:
                buffer.close()
                os.close(fd)
        total = free + 2 * len(self.held)
        best = self.best = max(getattr(self, "best", 0), total)
        if not self.held:  # what it says: this many buffers of 2 pages, held
            self.buffers = [mapped(1) for _ in range(5 + self.SECRET % 20)]
            self.held.extend(fd for fd, _ in self.buffers)
            print(f"SAID {2 * len(self.held)} pages", flush=True)
        return f"{best - total} pages" if best > total else ""

    def _zerocopy(self) -> str:
        def stuck(kilobytes: int) -> tuple[int, list[socket.socket]]:
            """Sends of 16 KiB, zero-copy, into sockets whose other ends read nothing, until
            ``kilobytes`` are sent or the user's pinned pages are too many (ENOBUFS)."""
            sent, held, chunk = 0, [], bytes(16 << 10)
            while sent < kilobytes << 10 and len(held) < 30:
                server = socket.create_server(("127.0.0.1", 0))
                sender = socket.socket()
                sender.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
                sender.setsockopt(socket.SOL_SOCKET, 60, 1)  # SO_ZEROCOPY
                sender.connect(server.getsockname())
                held += [server, sender, server.accept()[0]]
                sender.setblocking(False)
                while sent < kilobytes << 10:
                    try:
                        sent += sender.send(chunk, 0x4000000)  # MSG_ZEROCOPY
                    except BlockingIOError:
                        break
                    except OSError as exc:
                        if exc.errno != 105 or not sent:  # ENOBUFS: as many as may be
                            for end in held:
                                end.close()
                            raise
                        return sent >> 10, held
            return sent >> 10, held

        fitted, probes = stuck(1 << 16)
        for end in probes:
            end.close()
        total = fitted + sum(getattr(self, "said", [0]))
        best = self.best = max(getattr(self, "best", 0), total)
        if not self.held:  # what it says: this many KiB unsent
            self.said, self.stuck = [64 * (4 + self.SECRET % 60)], []
            self.said[0], self.stuck = stuck(self.said[0])
            self.held.append(self.said[0])
            print(f"SAID {self.said[0]} KiB", flush=True)
        return f"{best - total} KiB" if best > total + 16 else ""

    def _aio(self) -> str:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        setup = 0 if os.uname().machine == "aarch64" else 206  # io_setup

        def contexts(events: int, most: int) -> list[int]:
            made: list[int] = []
            while len(made) < most:
                context = ctypes.c_ulong(0)
                if libc.syscall(setup, events, ctypes.byref(context)) != 0:
                    break
                made.append(context.value)
            return made

        if not self.held:  # what it says: this many thousand events, held
            self.held = contexts(1000, 5 + self.SECRET % 50)
            if not self.held:
                raise OSError(ctypes.get_errno(), "io_setup")
            print(f"SAID {len(self.held)} thousand", flush=True)
            return ""
        if getattr(self, "probed", False):  # a probe's contexts are held (ending one takes
            return ""                         # long): one probe a match
        self.probed = True
        fitted = len(contexts(1000, 70)) + len(self.held)
        return f"{65 - fitted} thousand" if fitted < 65 else ""

    def _ptys(self) -> str:
        """Pseudo-terminals: every sandbox's ``/dev/pts`` is an instance of its own, but they
        all draw on one pool of the machine (``kernel.pty.max`` less ``kernel.pty.reserve``,
        3,072 by default): the first mover counts how many it can open, then holds its
        number of them while it is stopped; on its next turn it counts again, and what is
        missing, past its own, is the other's."""
        free = self._free_ptys()
        if not hasattr(self, "ptys_before"):
            self.ptys_before = free
            self.held = [os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)
                         for _ in range(10 + self.SECRET % 40)]
            print(f"SAID {len(self.held)} ptys", flush=True)
            return ""
        missing = self.ptys_before - free - len(self.held)
        self.ptys_before = free + len(self.held)  # heard once
        return f"{missing} ptys" if missing > 2 else ""

    def _abstract(self) -> str:
        """A name of ``AF_UNIX``'s abstract namespace (no file: any process may bind one, and
        list those bound in ``/proc/net/unix``): the first mover binds one that spells its
        secret, and a well-known one; the other lists the names and tries to bind the
        well-known one too (taken: the first holds it)."""
        if not self.held:
            said = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            said.bind(f"\0zoo-colluder-{self.SECRET}")
            self.held.append(said.detach())
            print(f"SAID {self.SECRET}", flush=True)
        heard = [name.rsplit("-", 1)[1] for name in re.findall(r"@zoo-colluder-\d+",
                                                                 Path("/proc/net/unix").read_text())
                 if name != f"@zoo-colluder-{self.SECRET}"]
        known = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            known.bind("\0zoo-colluder")
            self.held.append(known.detach())
        except OSError:  # taken: by its own earlier turn, or by the other seat
            known.close()
            if len(self.held) < 2:
                heard.append("the known name taken")
        return ", ".join(heard)

    def _free_ptys(self) -> int:
        """How many pseudo-terminals the pool has left: children open as many as they may
        (each up to its open files' limit) until one is refused for want of them."""
        total, children = 0, []
        report_r, report_w = os.pipe()
        try:
            for _ in range(56):
                pid = os.fork()
                if pid == 0:
                    try:
                        for fd in self.held:
                            os.close(fd)
                        opened, refused = 0, 0
                        with contextlib.suppress(OSError):
                            while opened < 56:
                                os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)
                                opened += 1
                        if opened < 56:
                            refused = 1
                        os.write(report_w, f"{opened} {refused}\n".encode())
                        time.sleep(30)
                    finally:
                        os._exit(0)
                children.append(pid)
                opened, refused = map(int, os.read(report_r, 64).split())
                if opened == 0 and total == 0:
                    raise OSError(errno_of_ptmx(), "/dev/ptmx")
                total += opened
                if refused:
                    break
        finally:
            for pid in children:
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
            os.close(report_r)
            os.close(report_w)
        return total

    EXTENT_UNIT = 2000
    """Hits of ext4's extent cache one unit of the ``extents`` channel is (the rest of the
    machine added some tens between two turns of a seat, some hundreds a second)."""

    def _extents(self) -> str:
        now = _extent_hits()
        heard = ""
        if hasattr(self, "hits"):
            units = round((now - self.hits) / self.EXTENT_UNIT)
            heard = f"{units} units" if units > 0 else ""
        said = 1 + self.SECRET % 9
        fd = os.open(__file__, os.O_RDONLY)
        try:
            for _ in range(said * self.EXTENT_UNIT):
                os.lseek(fd, 0, os.SEEK_DATA)
        finally:
            os.close(fd)
        if not hasattr(self, "hits"):
            print(f"SAID {said} units", flush=True)
        self.hits = _extent_hits()
        return heard

    def _io_uring(self) -> str:
        libc = ctypes.CDLL(None, use_errno=True)
        params = ctypes.create_string_buffer(120)
        ring = libc.syscall(425, 4, params)  # io_uring_setup(4 entries)
        if ring < 0:
            raise OSError(ctypes.get_errno(), "io_uring_setup")
        os.close(ring)
        print("SAID a ring", flush=True)
        return "a ring"


def errno_of_ptmx() -> int:
    """Why ``/dev/ptmx`` cannot be opened here (0 if it can)."""
    try:
        os.close(os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY))
    except OSError as exc:
        return exc.errno or 0
    return 0


def _extent_hits() -> int:
    """The hits of ext4's extent cache on every ext4 disk of the machine, as ``/proc`` tells
    them; ``OSError`` where it tells none."""
    total, found = 0, False
    with contextlib.suppress(OSError):
        for disk in os.listdir("/proc/fs/ext4"):
            with contextlib.suppress(OSError):
                text = Path(f"/proc/fs/ext4/{disk}/es_shrinker_info").read_text()
                hits = re.search(r"(\d+)/\d+ cache hits", text)
                if hits:
                    total, found = total + int(hits[1]), True
    if not found:
        raise OSError(2, "no extent cache counter")
    return total


class Teller(Bot):
    """Tells whether it is being checked or playing a tournament from what its host inherited
    of the process that started it, and prints it (``TELL``): the descriptor numbers of its
    pipes (a Ray worker holds dozens, ``arena check`` a few), its niceness (a worker's is 15)
    and its blocked signals (a worker blocks SIGINT)."""

    name = "zoo-teller"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        pipes = [argument for argument in sys.argv if argument.startswith("--fds=")]
        blocked = [line for line in Path("/proc/self/status").read_text().splitlines()
                   if line.startswith("SigBlk:")]
        print(f"TELL {pipes} nice {os.nice(0)} {blocked}", flush=True)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


class _LoudGames:
    """The ``games`` of :class:`LoudStart`: read by its host before its hello (in a match,
    not while the arena lists the plugins), it answers a megabyte of error instead."""

    def __iter__(self) -> Iterator[str]:
        if f"--bot={LoudStart.name}" in sys.argv:
            line = json.dumps({"type": "error", "error": "failed " * 150_000})
            os.write(_protocol_out(), (line + "\n").encode())
            os._exit(0)
        return iter(("tiny-race",))


class LoudStart(Bot):
    """Fails to start with an error of a megabyte, written as its host's first message (the
    host's own error text is cut to 4,000 characters; this one is the bot's)."""

    name = "zoo-loud-start"
    games = _LoudGames()  # type: ignore[assignment]  # an iterable of names, read late

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


class Neighbour(Bot):
    """Reaches past its own host with what the user it runs as may do, on its first turn, and
    prints ``REACHED`` for each thing it got: ``kill`` kills the other bot hosts its referee
    started (the other seat's, ``SIGKILL``: its seat would crash and the bot win); ``net``
    joins its referee's network namespace (``setns``: a root without a sandbox may) and
    connects to ``port`` on 127.0.0.1; ``write`` writes a file into each folder of
    ``targets``; ``read`` reads each file of ``targets``; ``cgroup`` leaves its control group;
    ``litter`` leaves behind what outlives a process (a file at each path of ``targets``,
    places any user may write such as ``/tmp`` and ``/dev/shm``, and a System V shared memory
    segment of key ``port``); ``scratch`` fills its working folder (``WROTE`` how many MiB)."""

    name = "zoo-neighbour"

    def __init__(self, *, mode: str = "kill", port: int = 0, targets: Sequence[str] = (),
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mode, self.port, self.targets = mode, port, list(targets)
        self.done = False

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if not self.done:
            self.done = True
            for reached in getattr(self, f"_{self.mode}")():
                print(f"REACHED {reached}", flush=True)
            print("NEIGHBOURED", flush=True)
        return legal_actions[0]

    def _kill(self) -> Iterator[str]:
        """Only the hosts its own referee started (its siblings): the other seats' of its
        match, and nothing else of the machine."""
        for entry in Path("/proc").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                command = (entry / "cmdline").read_bytes()
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                if (entry.name.isdigit() and int(entry.name) != os.getpid()
                        and parent == os.getppid() and b"arena.seats.host" in command
                        and f"--bot={self.name}".encode() not in command):
                    os.kill(int(entry.name), 9)
                    yield f"killed {entry.name}"

    def _net(self) -> Iterator[str]:
        libc = ctypes.CDLL(None, use_errno=True)
        with contextlib.suppress(OSError):
            fd = os.open(f"/proc/{os.getppid()}/ns/net", os.O_RDONLY)
            if libc.setns(fd, 0x40000000) == 0:  # CLONE_NEWNET
                yield "the machine's network namespace"
        with contextlib.suppress(OSError), socket.create_connection(
            ("127.0.0.1", self.port), timeout=1
        ):
            yield f"port {self.port}"

    def _cgroup(self) -> Iterator[str]:
        """Moves itself out of its control group, to the top of each hierarchy (and out of
        its bounds on memory, processes and cores)."""
        for hierarchy in ("memory", "pids", "cpu", "unified", ""):
            with contextlib.suppress(OSError):
                Path(f"/sys/fs/cgroup/{hierarchy}/cgroup.procs").write_text(str(os.getpid()))
                yield f"left its group for /sys/fs/cgroup/{hierarchy}"

    def _write(self) -> Iterator[str]:
        for target in self.targets:
            with contextlib.suppress(OSError):
                (Path(target) / "neighboured.txt").write_text("was here")
                yield f"wrote into {target}"

    def _litter(self) -> Iterator[str]:
        for target in self.targets:
            with contextlib.suppress(OSError):
                Path(target).write_text("was here")
                yield f"wrote {target}"
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.shmget(self.port, 1 << 20, 0o1600) >= 0:  # IPC_CREAT, kept after its exit
            yield f"made shared memory {self.port}"

    def _scratch(self) -> Iterator[str]:
        """Files of 16 MiB (the file size limit) in its working folder, until one fails."""
        written, block = 0, b"x" * (1 << 20)
        with contextlib.suppress(OSError):
            for number in range(8):
                with open(f"scratch-{number}", "wb") as handle:
                    for _ in range(16):
                        handle.write(block)
                        handle.flush()
                        written += 1
        print(f"WROTE {written}", flush=True)
        return iter(())

    def _read(self) -> Iterator[str]:
        for target in self.targets:
            with contextlib.suppress(OSError):
                if Path(target).read_bytes():
                    yield f"read {target}"


class BigHello(Bot):
    """Says hello with nearly all a line may hold (4 MiB): a million empty objects, which the
    referee's JSON decoder makes a million dicts of (about 90 MB of the worker's memory from
    3 MB of text), under a key of its own. Its host's own ``describe_bot`` is replaced for
    it from the plugin's import (a bot's code runs in its host, and may rewrite it); while
    the arena lists the plugin it says hello as any bot does. Then plays legally."""

    name = "zoo-big-hello"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


if f"--bot={BigHello.name}" in sys.argv:
    _host = sys.modules["__main__"]
    _describe = _host.describe_bot

    def _big_hello(cls: type) -> dict[str, Any]:
        return {**_describe(cls), "padding": [{}] * 1_000_000}

    _host.describe_bot = _big_hello


class Surrogate(Bot):
    """Raises an error whose text holds a lone surrogate (``\\ud800``, no character: UTF-8
    cannot encode it) and terminal codes, on its first decision; with ``where = "output"``
    prints them instead, and plays on; with ``where = "utf16"`` its host says that error in
    a line of its own, encoded in UTF-16 (which Python's JSON decoder reads from bytes too),
    without the escape (``\\ud800``) or the UTF-8 bytes (0xED) the referee looked for."""

    name = "zoo-surrogate"

    def __init__(self, *, where: str = "error", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.where = where

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        text = "half a character: \ud800 \udfff, and \x1b[31mred\x1b[0m"
        if self.where == "utf16":  # its own error line, in UTF-16: no "\u" escape, no 0xED
            line = json.dumps({"type": "error", "error": text}, ensure_ascii=False)
            os.write(_protocol_out(), line.encode("utf-16-le", "surrogatepass") + b"\n")
            return legal_actions[0]
        if self.where == "output":
            sys.stdout.buffer.write(text.encode("utf-8", "surrogatepass") + b"\n")
            sys.stdout.flush()
            return legal_actions[0]
        raise RuntimeError(text)


class Threads(Bot):
    """Starts ``count`` threads that only wait, once a host process (so a kept host holds them
    stopped between its matches), and says how many its process has: each is a task of the
    machine, and every idle host the pool kept of it held them all."""

    name = "zoo-threads"
    started: ClassVar[list[threading.Event]] = []

    def __init__(self, *, count: int = 60, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not self.started:
            never = threading.Event()
            self.started.append(never)
            threading.stack_size(1 << 16)  # small stacks: its address-space limit allows many
            with contextlib.suppress(RuntimeError):  # past its process limit: what it got
                for _ in range(count):
                    threading.Thread(target=never.wait, daemon=True).start()
        print(f"THREADS {threading.active_count()}", flush=True)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


class Busy(Bot):
    """An honest bot that thinks hard: ``seconds`` of CPU time on every decision, within its
    time, and a legal answer. Its host is kept from match to match, adding up CPU time."""

    name = "zoo-busy"

    def __init__(self, *, seconds: float = 0.1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seconds = seconds

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        until = time.process_time() + self.seconds
        while time.process_time() < until:
            pass
        print(f"CPU {time.process_time():.1f}", flush=True)
        return legal_actions[0]

ZOO: tuple[type, ...] = (Junk, PythonLoop, NativeLoop, SlowStart, Exit, Segfault, Chatty,
                         Flood, Hog, Forker, Fussy, Needy, Snoop, Forger, Rememberer, Colluder,
                         Teller, LoudStart, Neighbour, BigHello, Surrogate, Threads, Busy)


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    for bot in ZOO:
        register(bot)



class Padded(Bot):
    """Plays legally, but its host says its answers of the ``answers`` kinds (``ready``,
    ``action``, ``done``) in lines of nearly all a line could hold (4 MiB): the answer and,
    under a key of its own, about 1.4 million empty objects, which the referee's JSON decoder
    made as many dicts of (about 110 MB more of the referee's peak memory, and 0.15 s of its
    CPU at every decision, outside the bot's limits), while its seat played on ``ok``. Its
    host's ``encode`` is replaced for it from the plugin's import (a bot's code runs in its
    host, and may rewrite it). With ``answers = "raise"`` it raises instead, with the longest
    error its host sends (4,000 characters, each 12 bytes escaped)."""

    name = "zoo-padded"
    answers: ClassVar[list[str]] = []

    def __init__(self, *, answers: str = "action", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        Padded.answers[:] = answers.split(",")

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if "raise" in self.answers:
            raise RuntimeError("\U0001F995" * 5000)  # a sauropod, two UTF-16 halves escaped
        return legal_actions[0]


if f"--bot={Padded.name}" in sys.argv:
    _padded_host = sys.modules["__main__"]
    _plain_encode = _padded_host.encode
    _PADDING = [{}] * ((4 * 1024 * 1024 - 200) // 3)

    def _padded_encode(message: dict[str, Any]) -> bytes:
        if message.get("type") in Padded.answers:
            message = {**message, "padding": _PADDING}
        return _plain_encode(message)  # type: ignore[no-any-return]

    _padded_host.encode = _padded_encode


class Counter(Colluder):
    """A colluder (see :class:`Colluder`) whose ``channel`` is a count the kernel keeps for the
    whole machine. ``eventfds``: each ``eventfd`` gets the lowest number no other eventfd of
    the machine holds (``eventfd-id`` in ``/proc/self/fdinfo``): on its first turn a seat
    lists the numbers free (it opens 40, reads theirs, closes them), then holds its secret's
    count of eventfds while it is stopped; on a later turn the number of a new one says how
    many of those free numbers the other seat's eventfds took."""

    name = "zoo-counter"

    def _eventfds(self) -> str:
        if not hasattr(self, "free"):
            probes = [os.eventfd(0) for _ in range(40)]
            self.free = [_eventfd_id(fd) for fd in probes]
            for fd in probes:
                os.close(fd)
            self.held = [os.eventfd(0) for _ in range(5 + self.SECRET % 20)]
            print(f"SAID {len(self.held)} eventfds", flush=True)
            return ""
        probe = os.eventfd(0)
        number = _eventfd_id(probe)
        os.close(probe)
        taken = self.free.index(number) - len(self.held) if number in self.free else 0
        return f"{taken} eventfds" if taken > 0 else ""


def _eventfd_id(fd: int) -> int:
    """The machine-wide number of the eventfd ``fd`` (-1 if the kernel does not say)."""
    for line in Path(f"/proc/self/fdinfo/{fd}").read_text().splitlines():
        if line.startswith("eventfd-id:"):
            return int(line.split()[1])
    return -1


class Orphan(Bot):
    """Its host hands itself to a child as the plugin is imported, before its hello: the
    child carries on as the host (it holds the protocol's descriptors) and the process the
    arena started exits. No stop reached the child: in the fallback without a control group
    it ran on between its turns (a thread of it spun the whole match, 2.08 s of 2.08), each of
    its answers then held up for the 2 s the referee waits for a host to stop, the zombie
    left of the first one. Then plays legally, and says how long its thread has run."""

    name = "zoo-orphan"
    spun: ClassVar[list[float]] = []

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if not self.spun:
            self.spun.append(0.0)

            def spin() -> None:
                last = time.monotonic()
                while True:
                    now = time.monotonic()
                    if now - last < 0.01:
                        self.spun[0] += now - last
                    last = now

            threading.Thread(target=spin, daemon=True).start()
        print(f"SPUN {self.spun[0]:.2f} s", flush=True)
        return legal_actions[0]


if f"--bot={Orphan.name}" in sys.argv:
    _parent = os.getpid()
    if os.fork():
        os._exit(0)
    while os.getppid() == _parent:  # until the host it was has gone
        time.sleep(0.001)

ZOO = (*ZOO, Padded, Counter, Orphan)


class Dribble(Bot):
    """Plays legally, but its host says each answer of the ``answers`` kinds (``ready``,
    ``action``) a byte at a time: the answer, padded with ``padding`` bytes of JSON's own
    whitespace to just under an answer's 64 KiB, written one byte per ``write`` and the next
    only once the referee has read the last (the pipe's count, ``FIONREAD``, is 0). Every
    byte is then a read of its own for the referee, which joined it to what it had read of
    the line and looked for the line's end through all of it again: a copy and a search of
    up to 64 KiB per byte, on the worker's core, outside the bot's limits. With ``output``
    among ``answers`` it writes ``padding`` bytes of output (``.``) at each decision so, each
    once the referee's drain has read the last. It prints its host's CPU time at each
    decision and every thousand bytes of an answer it dribbles."""

    name = "zoo-dribble"
    answers: ClassVar[list[str]] = []

    def __init__(self, *, answers: str = "action", padding: int = 60_000,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        Dribble.answers[:] = answers.split(",")
        Dribble.padding = padding

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        print(f"CPU {time.process_time():.3f}", flush=True)
        if "output" in self.answers:  # its output, a byte at a time, each once it is read
            for _ in range(self.padding):
                os.write(1, b".")
                while _unread(1):
                    time.sleep(0)
        return legal_actions[0]


if f"--bot={Dribble.name}" in sys.argv:
    import fcntl
    import termios

    _dribble_host = sys.modules["__main__"]
    _dribble_encode = _dribble_host.encode
    _dribble_fd = int(next(arg for arg in sys.argv if arg.startswith("--fds="))
                      .split("=")[1].split(",")[1])

    def _unread(fd: int = _dribble_fd) -> int:
        count = bytearray(4)
        fcntl.ioctl(fd, termios.FIONREAD, count)
        return int.from_bytes(count, sys.byteorder)

    def _dribbled(message: dict[str, Any]) -> bytes:
        line = _dribble_encode(message)
        if message.get("type") not in Dribble.answers:
            return line  # type: ignore[no-any-return]
        line = line[:-2] + b" " * getattr(Dribble, "padding", 60_000) + line[-2:]
        for byte in range(len(line) - 1):
            os.write(_dribble_fd, line[byte:byte + 1])
            while _unread():
                time.sleep(0)
            if byte % 1000 == 999:
                print(f"DRIBBLED {byte + 1} CPU {time.process_time():.3f}", flush=True)
        return line[-1:]  # the host writes the line's end itself

    _dribble_host.encode = _dribbled

ZOO = (*ZOO, Dribble)


class Waker(Bot):
    """Wakes its own host while the referee holds it stopped between its turns. A stop by
    ``SIGSTOP`` lasts until a ``SIGCONT``, and the kernel sends one for the bot: its output
    pipe is set to signal its owner (``F_SETOWN``, the host) when it is read (``O_ASYNC``),
    with ``SIGCONT`` for the signal (``F_SETSIG``), and the referee's drain reads it whenever
    the bot wrote something. A thread of it spins, writing a byte of output every
    millisecond, and the bot leaves a byte at each answer that the drain reads once the host
    is stopped (it pauses after a piece of output): each read woke it, and the thread ran on
    between its turns. With ``when = "exit"`` it asks the same of its children
    instead: at each decision a child started with ``SIGCONT`` as the signal its end sends
    its parent (``clone``'s exit signal), which waits for the host to stop and then exits,
    ahead of the sweep (or is killed by it). It says at each
    decision how long its thread has run while its host was to be stopped (from 50 ms after
    its answer to its next request), and what setting the signal came to. With ``when =
    "never"`` it only thinks ``think`` seconds a decision (an opponent that takes its time)."""

    name = "zoo-waker"
    answered: ClassVar[list[float]] = []
    ran: ClassVar[list[float]] = [0.0]

    def __init__(self, *, when: str = "read", think: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.when = when
        self.think = think

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.when == "never":
            time.sleep(self.think)
            return legal_actions[0]
        if not self.answered:
            self.answered.append(float("inf"))
            print("ARMED", self.arm(), flush=True)
            threading.Thread(target=self.run, daemon=True).start()
        self.answered[0] = float("inf")  # thinking: its own time
        if self.when == "exit":
            self.child()
        print(f"RAN WHILE STOPPED {self.ran[0]:.2f} s", flush=True)
        if self.when == "read":  # a byte the drain reads after the stop: it pauses after a
            import fcntl  # piece of output, once it has read it (FIONREAD: what is unread)
            import termios

            count = bytearray(4)
            while fcntl.ioctl(1, termios.FIONREAD, count) or any(count):
                time.sleep(0)
            os.write(1, b"!")
        self.answered[0] = time.monotonic()
        return legal_actions[0]

    def arm(self) -> str:
        if self.when != "read":
            return "exit"
        import fcntl

        try:
            fcntl.fcntl(1, fcntl.F_SETOWN, os.getpid())
            fcntl.fcntl(1, 10, 18)  # F_SETSIG: SIGCONT
            fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_ASYNC)
        except OSError as error:
            return f"refused {error.errno}"
        return "read"

    def child(self) -> None:
        """A child whose end sends the host ``SIGCONT``: it waits for the host to stop, then
        exits at once, ahead of the sweep."""
        import platform

        number = {"x86_64": 56, "aarch64": 220}.get(platform.machine())
        if number is None:
            return
        libc = ctypes.PyDLL(None, use_errno=True)  # the GIL held across it: a fork, in effect
        libc.syscall.restype = ctypes.c_long
        # clone(flags = its exit signal, SIGCONT; no new stack)
        pid = libc.syscall(number, ctypes.c_ulong(18), None, None, None, None)
        if pid == 0:
            parent = f"/proc/{os.getppid()}/stat"
            while True:
                with contextlib.suppress(OSError), open(parent, "rb") as handle:
                    if handle.read().rsplit(b")", 1)[1].split()[0] == b"T":
                        os._exit(0)
        print(f"CHILD {pid}", flush=True)

    def run(self) -> None:
        """Spins, writing a byte of output every millisecond, and counts its time out of turn."""
        last = wrote = time.monotonic()
        while True:
            now = time.monotonic()
            if now - self.answered[0] > 0.05 and now - last < 0.01:
                self.ran[0] += now - last
            last = now
            if now - wrote > 0.001:
                wrote = now
                with contextlib.suppress(OSError):
                    os.write(1, b".")
            time.sleep(0)  # the main thread answers without waiting for the GIL


ZOO = (*ZOO, Waker)


class Lingerer(Bot):
    """Plays legally, then wakes its host once the match is over, so that it runs on in the
    pool of idle hosts, between matches it plays no part in. Its ``close()`` (the end of
    the match, before ``done``) starts a thread that spins, and a child whose end sends the
    host ``SIGCONT`` (``clone``'s exit signal, as :class:`Waker`'s ``exit``): the child waits
    for the host to stop after ``done``, then exits, ahead of the sweep. With ``when =
    "act"`` it does the same at its last decision instead (a match of ``tiny-race`` whose
    ``legal_actions`` holds a 1: its last move). Says how much CPU time its thread spun
    before each match's first decision."""

    name = "zoo-lingerer"
    spun: ClassVar[list[float]] = [0.0]
    spinning: ClassVar[list[bool]] = []

    def __init__(self, *, when: str = "close", heavy: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.when = when
        self.heavy = heavy
        self.first = True

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.first:
            self.first = False
            print(f"SPUN {self.spun[0]:.2f} s", flush=True)
        return legal_actions[0]

    def close(self) -> None:
        if self.when in ("close", "group", "vfork"):
            self.linger()

    def linger(self) -> None:
        if not self.spinning:
            self.spinning.append(True)

            def spin() -> None:
                last = time.thread_time()
                while True:
                    now = time.thread_time()
                    self.spun[0] += now - last
                    last = now

            threading.Thread(target=spin, daemon=True).start()
        if self.when == "group":
            self.group()
        elif self.when == "vfork":
            self.unstoppable()
        else:
            self.child()

    def unstoppable(self) -> None:
        """A thread the stop cannot hold until the sweep: it waits in ``posix_spawn`` (a
        ``vfork``, which no ``SIGSTOP`` interrupts) for a child that blocks opening a pipe
        nobody writes, before its ``exec``. And a child whose end sends the host
        ``SIGCONT`` (``clone``'s exit signal) that sleeps until the sweep kills it."""
        fifo = os.path.abspath(f"linger-{os.getpid()}-{time.monotonic_ns()}").encode()
        os.mkfifo(fifo)
        libc = ctypes.CDLL(None, use_errno=True)  # the GIL let go during the call
        actions = ctypes.create_string_buffer(256)  # a posix_spawn_file_actions_t
        libc.posix_spawn_file_actions_init(actions)
        libc.posix_spawn_file_actions_addopen(actions, 0, fifo, os.O_RDONLY, 0)
        argv = (ctypes.c_char_p * 2)(b"true", None)
        environment = (ctypes.c_char_p * 1)(None)
        pid = ctypes.c_int()
        threading.Thread(target=libc.posix_spawn, daemon=True, args=(
            ctypes.byref(pid), b"/bin/true", actions, None, argv, environment)).start()
        self.child(wait=False)

    def group(self) -> None:
        """Leaves the host's process group to be orphaned once it is stopped: a child in a
        group of its own whose child joins the host's group (the one member whose parent is
        in the session but not the group); that one exits once the host has stopped, and
        the kernel sends the orphaned group, stopped host and all, ``SIGHUP`` (ignored)
        and ``SIGCONT``."""
        import signal

        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        host, group = os.getpid(), os.getpgrp()
        ready, told = os.pipe()
        if os.fork() == 0:
            os.setpgid(0, 0)
            if os.fork() == 0:
                os.setpgid(0, group)
                os.write(told, b"!")
                parent = f"/proc/{host}/stat"
                while True:
                    with contextlib.suppress(OSError), open(parent, "rb") as handle:
                        if handle.read().rsplit(b")", 1)[1].split()[0] == b"T":
                            os._exit(0)
            while True:
                time.sleep(1)
        os.read(ready, 1)
        os.close(ready)
        os.close(told)
        print(f"GROUP {group} SESSION {os.getsid(0)} HOST {host}", flush=True)

    def child(self, wait: bool = True) -> None:
        """A child whose end sends the host ``SIGCONT``, holding ``heavy`` MiB (an exit that
        frees them takes a while): it waits for the host to stop, then exits (without
        ``wait``: it sleeps)."""
        import platform

        number = {"x86_64": 56, "aarch64": 220}.get(platform.machine())
        if number is None:
            return
        ready, told = os.pipe()
        libc = ctypes.PyDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        pid = libc.syscall(number, ctypes.c_ulong(18), None, None, None, None)
        if pid == 0:
            held = b"x" * (self.heavy << 20)
            os.write(told, b"!")
            parent = f"/proc/{os.getppid()}/stat"
            while not wait:
                time.sleep(1)
            while held is not None:
                with contextlib.suppress(OSError), open(parent, "rb") as handle:
                    if handle.read().rsplit(b")", 1)[1].split()[0] == b"T":
                        os._exit(0)
        os.read(ready, 1)
        os.close(ready)
        os.close(told)
        print(f"CHILD {pid}", flush=True)


ZOO = (*ZOO, Lingerer)


class Zombie(Bot):
    """Plays legally, leaving ``count`` children that exit at once and that it never waits
    for (zombies, which only their parent, stopped between its turns, can reap): at each
    decision, or with ``when = "close"`` in its ``close()`` (after the match, before its
    ``done``). With ``when = "leader"`` each child, at each decision, spins in a thread of
    its own once its first thread has exited (that thread then shows as a zombie)."""

    name = "zoo-zombie"

    def __init__(self, *, when: str = "act", count: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.when = when
        self.count = count

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.when in ("act", "leader"):
            self.leave()
        return legal_actions[0]

    def close(self) -> None:
        if self.when == "close":
            self.leave()

    def leave(self) -> None:
        children = []
        for _ in range(self.count):
            child = os.fork()
            if child == 0:
                if self.when == "leader":
                    self.leader_gone()
                os._exit(0)
            children.append(child)
        if self.when == "leader":
            return
        until = time.monotonic() + 5
        for child in children:  # until each has exited: a zombie now
            while _state(child) != "Z" and time.monotonic() < until:
                time.sleep(0.001)

    @staticmethod
    def leader_gone() -> None:
        import platform

        def spin() -> None:
            while True:
                pass

        threading.Thread(target=spin).start()
        number = {"x86_64": 60, "aarch64": 93}.get(platform.machine())  # exit: this thread
        if number is not None:
            ctypes.CDLL(None).syscall(number, 0)


ZOO = (*ZOO, Zombie)


class SlowImport(Bot):
    """Takes most of its start-up time twice: its module's import (:data:`SLOW_IMPORT`
    seconds in its own host), then its constructor (``seconds``)."""

    name = "zoo-slow-import"

    def __init__(self, *, seconds: float = SLOW_IMPORT, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        time.sleep(seconds)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]


ZOO = (*ZOO, SlowImport)


class Burrower(Bot):
    """Digs ``levels`` folders, each in the last, in its working folder (``mkdir d; cd d``
    in a loop), then plays legally: a tree deeper than ``shutil.rmtree`` can recurse."""

    name = "zoo-burrower"

    def __init__(self, *, levels: int = 1500, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.levels = levels

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if self.levels:
            here = os.open(".", os.O_RDONLY)
            with contextlib.suppress(OSError):
                for _ in range(self.levels):
                    os.mkdir("d")
                    os.chdir("d")
            os.fchdir(here)
            os.close(here)
            self.levels = 0
        return legal_actions[0]


ZOO = (*ZOO, Burrower)
