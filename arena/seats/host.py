"""The bot host: the process a sandboxed seat's bot lives in.

Run as ``python -I -m arena.seats.host --fds IN,OUT --plugin MODULE --bot NAME``
(see :mod:`arena.seats.protocol` for what it says), or with ``--catalog``
instead of ``--bot`` to report what one plugin module registers and exit.
It applies its own resource limits before it imports any of the plugin's
code, so the bot starts already confined. It runs inside the sandbox that
:mod:`arena.seats.sandbox` builds and trusts nothing it is told by the bot.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib
import inspect
import operator
import os
import resource
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any

from arena.game import Static
from arena.seats.protocol import PROTOCOL, decode, encode

ERROR_LINES = 12
"""How many of a traceback's last lines an ``error`` message keeps."""

_PR_SET_PDEATHSIG = 1
_CLONE_NEWNET = 0x40000000


def _limit(which: int, value: int) -> None:
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(which, (value, value))


OPEN_FILES = 64
"""Open files a host may hold: with the file size limit, this bounds the memory a bot can
keep in memory files (``memfd_create``, which the address-space limit does not count)."""


def confine(memory_mb: int, cpu_seconds: int, file_mb: int, processes: int) -> None:
    """Resource limits on this process (and so on everything it starts).

    No bytes of POSIX message queues (``mq_open``) and no signals queued by ``sigqueue`` or
    a timer: both count for their user, the same one outside every sandbox, up to a limit
    each sandbox's user namespace has too (800 KiB, about 96,000 signals), so one seat held
    queues or queued signals while it was stopped and the other counted how many of its own
    still fit (the red team's pair passed a number up to 98 and up to about 1,000 a turn).
    A signal sent by ``kill`` (what ``multiprocessing`` and the arena send) is not held to
    it. No locked memory (``mlock``) either: the pages a ``MSG_ZEROCOPY`` send pins until its
    data leaves the socket count for that user as well, against the sender's own limit (8
    MiB), and one seat held data unsent while the other counted how much of its own still
    went (a number of KiB up to 7,000 a turn, without an error)."""
    _limit(resource.RLIMIT_CORE, 0)
    _limit(resource.RLIMIT_MSGQUEUE, 0)
    _limit(resource.RLIMIT_SIGPENDING, 0)
    _limit(resource.RLIMIT_MEMLOCK, 0)
    _limit(resource.RLIMIT_NOFILE, OPEN_FILES)
    if memory_mb > 0:
        _limit(resource.RLIMIT_AS, memory_mb * 1024 * 1024)
    if cpu_seconds > 0:
        _limit(resource.RLIMIT_CPU, cpu_seconds)
    if file_mb > 0:
        _limit(resource.RLIMIT_FSIZE, file_mb * 1024 * 1024)
    if processes > 0:
        _limit(resource.RLIMIT_NPROC, processes)


def isolate_fallback() -> None:
    """Without bubblewrap: die with the parent, and leave the network if the kernel lets us."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the parent died before the line above took effect
        os._exit(1)
    libc.unshare(_CLONE_NEWNET)  # fails quietly where not permitted; the arena reports it


MISSING_PACKAGE_FILE = (
    " (a file of the bot's own package that its installed copy lacks: a wheel holds only the"
    " package's modules and the files that pyproject.toml names under"
    " [tool.setuptools.package-data]; see the README, Writing a bot)")
"""Said after a ``FileNotFoundError`` for a path inside the bot's package: it worked from the
folder (``pip install -e``) and fails installed from its wheel (``pip install``, ``arena
submit``)."""


MISSING_REQUIREMENT = (
    " (a module the bot imports that its environment lacks: name the distribution that"
    " provides it under dependencies in the [project] table of the bot's pyproject.toml;"
    " arena submit installs what the bot requires and nothing else)")
"""Said after a ``ModuleNotFoundError`` for a module outside the bot's own package: the bot
found it in the arena's environment and not in its own, made from its requirements."""


def what_to_do(exc: BaseException, package: str | None) -> str:
    """A note for an exception a bot's packaging causes: a file of its ``package`` folder that
    was not installed, or a module it imports without requiring it; else ``""``."""
    if isinstance(exc, ModuleNotFoundError):
        elsewhere = package and exc.name and exc.name.split(".")[0] != os.path.basename(package)
        return MISSING_REQUIREMENT if elsewhere else ""
    missing = getattr(exc, "filename", None) if isinstance(exc, FileNotFoundError) else None
    if package and isinstance(missing, str) and os.path.realpath(missing).startswith(
            package + os.sep):
        return MISSING_PACKAGE_FILE
    return ""


REQUIRED_PARAM = (
    " (the constructor requires a param that it was not given: arena submit and arena play"
    " build the bot with none, arena check and arena run with those given by --params or a"
    " config's params; give it a default)")
"""Said after a ``TypeError`` raised by the call of a bot's constructor itself."""


def _at_the_call(exc: BaseException) -> bool:
    """True if ``exc`` was raised by the call, before any of the bot's own code ran (Python
    binding the arguments): its traceback holds this module's frames only."""
    return all(frame.filename == __file__ for frame in traceback.extract_tb(exc.__traceback__))


def package_folder(module_name: str) -> str | None:
    """The folder of the top-level package that ``module_name`` (``a.b`` or ``a.b:C``) is in,
    if it is an imported package."""
    top = sys.modules.get(module_name.partition(":")[0].split(".")[0])
    folders = list(getattr(top, "__path__", None) or ())
    return os.path.realpath(folders[0]) if folders else None


def _error_text(exc: BaseException, package: str | None = None) -> str:
    """The bot's exception: its last frames (the host's own left out) and the message, with
    what to do when it is a file of the bot's ``package`` folder that was not installed."""
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
              if frame.filename != __file__]
    text = "".join(traceback.format_list(frames[-3:]))
    text += "".join(traceback.format_exception_only(type(exc), exc)).rstrip()
    text += what_to_do(exc, package)
    lines = text.rstrip().splitlines()
    return "\n".join(lines[-ERROR_LINES:])[-4000:]


def load_plugin(module_name: str) -> Any:
    """The plugin module named by an entry point (``module`` or ``module:attribute``)."""
    module_part, _, attribute = module_name.partition(":")
    loaded: Any = importlib.import_module(module_part)
    for name in filter(None, attribute.split(".")):
        loaded = getattr(loaded, name)
    return loaded


def registered(plugin: Any, hook: str) -> list[Any]:
    """What the plugin's ``hook`` registers (nothing if it has no such hook)."""
    function = getattr(plugin, hook, None)
    found: list[Any] = []
    if callable(function):
        function(register=found.append)
    return found


def describe_bot(cls: Any) -> dict[str, Any]:
    from arena.classes import accepted_params

    games = getattr(cls, "games", None)
    return {
        "name": cls.name,
        "games": None if games is None else [str(game) for game in games],
        "observes": bool(getattr(cls, "observes", True)),
        "params": accepted_params(cls),
        "doc": (inspect.getdoc(cls) or "").split("\n\n")[0][:200],
    }


def describe_game(cls: Any) -> dict[str, Any]:
    return {"name": cls.name, "title": getattr(cls, "title", cls.name)}


def catalog(module_name: str) -> dict[str, Any]:
    """What one plugin module registers, as the arena's discovery needs it."""
    from arena.classes import bot_problem, game_problem, hook_problems

    report: dict[str, Any] = {"type": "catalog", "games": [], "bots": [], "problems": []}
    try:
        plugin = load_plugin(module_name)
    except BaseException as exc:
        report["problems"].append(f"failed to load: {type(exc).__name__}: {exc}"
                                  f"{what_to_do(exc, package_folder(module_name))}")
        return report
    hooks, problems = hook_problems(plugin)
    report["problems"].extend(problems)
    for hook, check, key, describe in (
        ("arena_register_games", game_problem, "games", describe_game),
        ("arena_register_bots", bot_problem, "bots", describe_bot),
    ):
        if hook not in hooks:
            continue
        try:
            classes = registered(plugin, hook)
        except BaseException as exc:
            report["problems"].append(f"{hook} raised {exc!r}")
            continue
        for cls in classes:
            problem = check(cls)
            if problem is None:
                report[key].append(describe(cls))
            else:
                report["problems"].append(problem)
    return report


def _close_ignoring_what_it_raises(close: Callable[[], object]) -> None:
    """The bot's ``close()``, whose exception is ignored as the README says: its traceback
    goes to the bot's output (``outputs/<match id>.txt``), and the host still answers
    ``done`` with its peak memory. It answered ``error`` before, and the referee killed a
    host that had played its match to the end, ``arena check`` showing its peak as 0 MB."""
    try:
        close()
    except (Exception, SystemExit):
        traceback.print_exc()


class Host:
    """Answers the arena's messages for one bot class, one match at a time."""

    def __init__(self, bot_class: Any, send: Callable[[dict[str, Any]], None]) -> None:
        self.bot_class = bot_class
        self.bot: Any = None
        self.send = send
        self.static: dict[str, Any] = {}
        """The static parts of this match's observations, by key (protocol 2)."""

    def handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        try:
            if kind == "act":
                self.send({"type": "action", "action": self._act(message)})
            elif kind == "start":
                self.bot = None
                self.static = {}
                self.bot = self.bot_class(
                    game=message["game"], seat=message["seat"],
                    num_players=message["num_players"], seed=message["seed"],
                    **message.get("params", {}),
                )
                self.send({"type": "ready"})
            elif kind == "end":
                close = getattr(self.bot, "close", None)
                self.bot = None
                if callable(close):
                    _close_ignoring_what_it_raises(close)
                for stream in (sys.stdout, sys.stderr):
                    with contextlib.suppress(OSError, ValueError):
                        stream.flush()
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                self.send({"type": "done", "peak_kb": peak})
            else:
                self.send({"type": "error", "error": f"unknown message type {kind!r}"})
        except (Exception, SystemExit) as exc:
            text = _error_text(exc, package_folder(self.bot_class.__module__))
            if kind == "start" and isinstance(exc, TypeError) and _at_the_call(exc) and (
                    "missing" in str(exc)):
                text += REQUIRED_PARAM
            self.send({"type": "error", "error": text})

    def _act(self, message: dict[str, Any]) -> Any:
        if self.bot is None:
            raise RuntimeError("act before start")
        observation = message["observation"]
        for key in message.get("static", ()):
            observation[key] = self.static[key] = Static(observation[key])
        for key in message.get("same", ()):
            observation[key] = self.static[key]
        answer = self.bot.act(observation, tuple(message["legal"]))
        if answer is None or isinstance(answer, (bool, float, str)):
            return answer
        try:  # an int-like answer (numpy.int64, say) counts as its value
            number = operator.index(answer)
        except Exception:
            return {"unreadable": f"{type(answer).__name__}"}
        if number.bit_length() > 64:
            try:
                str(number)
            except ValueError:
                # Too long for Python to write as text (past 4,300 digits): JSON cannot say
                # it, and the seat ended ``error`` (the answer not JSON-able) where an
                # in-process bot answering it is ``illegal``. What it was is said instead.
                return {"unreadable": f"an int of {number.bit_length()} bits"}
        return number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena-bot-host")
    parser.add_argument("--fds", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--bot")
    parser.add_argument("--catalog", action="store_true")
    parser.add_argument("--path", action="append", default=[])
    parser.add_argument("--memory-mb", type=int, default=0)
    parser.add_argument("--cpu-seconds", type=int, default=0)
    parser.add_argument("--file-mb", type=int, default=0)
    parser.add_argument("--processes", type=int, default=0)
    parser.add_argument("--fallback", action="store_true")
    args = parser.parse_args(argv)
    read_fd, write_fd = (int(fd) for fd in args.fds.split(","))
    if args.fallback:
        isolate_fallback()
    confine(args.memory_mb, args.cpu_seconds, args.file_mb, args.processes)
    sys.path[:0] = args.path
    for stream in (sys.stdout, sys.stderr):  # what the bot prints lands in the match it was in
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    def send(message: dict[str, Any]) -> None:
        try:
            line = encode(message)
        except (TypeError, ValueError):
            line = encode({"type": "error", "error": "the answer is not JSON-able"})
        os.write(write_fd, line) if len(line) < 65536 else _write_all(write_fd, line)

    if args.catalog:
        send(catalog(args.plugin))
        return 0
    try:
        plugin = load_plugin(args.plugin)
        matching = [cls for cls in registered(plugin, "arena_register_bots")
                    if getattr(cls, "name", None) == args.bot]
        if not matching:
            raise LookupError(f"{args.plugin} registers no bot named {args.bot!r}")
        bot_class = matching[0]
    except (Exception, SystemExit) as exc:
        send({"type": "error", "error": _error_text(exc, package_folder(args.plugin))})
        return 1
    send({"type": "hello", "protocol": PROTOCOL, **describe_bot(bot_class)})
    host = Host(bot_class, send)
    with os.fdopen(read_fd, "rb") as incoming:
        for line in incoming:
            host.handle(decode(line))
    return 0


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


if __name__ == "__main__":
    sys.exit(main())

