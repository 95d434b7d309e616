"""Ends what a local Ray instance leaves behind when the run that started it is killed.

A run that starts its own Ray instance shuts it down when it ends, even on Ctrl-C. Killed
outright (``kill -9``, the kernel's out-of-memory killer), it cannot: Ray's head processes
share its fate and go, but the raylet's agents (``ray::DashboardAgent``,
``ray::RuntimeEnvAgent``) live on, orphaned, about 100 MB each, one pair per killed run.

So the driver starts this small process beside the instance (:func:`watch`), in a session
of its own, holding the read end of a pipe whose write end only the driver has. The pipe
ends when the driver does, however it ends, or when the driver has shut the instance down
itself (:func:`release`). The reaper then waits a moment (a run that ended normally has
shut Ray down already, and nothing is left), and stops every process still attached to
the instance: one that runs Ray's Python or one of Ray's own programs and holds a file in
the instance's session folder, but for the driver itself. A process of anyone else, or of
another Ray instance, holds none of its files and is left alone.

    python -m arena.reaper SESSION_FOLDER RAY_PACKAGE_FOLDER   (stdin: the driver's pipe)
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

GRACE_SECONDS = 1.0
"""How long after the driver's end the reaper looks: Ray's own shutdown, when there was one,
has ended its processes by then."""
PATIENCE_SECONDS = 3.0
"""How long a process asked to stop (SIGTERM) has before it is killed."""

_HELD: list[int] = []
"""The write ends of the driver's pipes, open until the driver ends."""


def watch(session: Path, ray_package: Path) -> None:
    """Start a reaper for the Ray instance whose session folder is ``session`` (``ray_package``:
    the folder of Ray's Python package, where its programs live). Nothing is raised: a
    reaper that cannot start only means a killed run may leave Ray's agents behind."""
    read, write = os.pipe()
    try:
        subprocess.Popen(
            [sys.executable, "-m", "arena.reaper", str(session), str(ray_package)],
            stdin=read, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True)
    except OSError:
        os.close(write)
        return
    finally:
        os.close(read)
    _HELD.append(write)  # not inheritable (PEP 446): no child of the driver keeps it open


def release() -> None:
    """Let the reapers go: this process has shut its Ray instance down itself (each then
    finds nothing left and ends)."""
    while _HELD:
        with contextlib.suppress(OSError):
            os.close(_HELD.pop())


def left_behind(session: Path, programs: tuple[Path, ...], spared: int = 0) -> list[int]:
    """The processes other than this one and ``spared`` that run one of ``programs`` (an
    executable, or a folder of them) and hold a file under ``session``."""
    inside = str(session) + os.sep
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) in (os.getpid(), spared):
            continue
        try:
            exe = Path(os.readlink(f"/proc/{entry.name}/exe"))
            if not any(exe == program or program in exe.parents for program in programs):
                continue
            fds = os.listdir(f"/proc/{entry.name}/fd")
            if any(_target(f"/proc/{entry.name}/fd/{fd}").startswith(inside) for fd in fds):
                found.append(int(entry.name))
        except OSError:
            continue  # gone, or not ours to read
    return found


def _target(link: str) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return ""


def reap(session: Path, programs: tuple[Path, ...], spared: int = 0) -> list[int]:
    """Stop what :func:`left_behind` finds: SIGTERM, then SIGKILL after
    :data:`PATIENCE_SECONDS`. The processes found."""
    found = left_behind(session, programs, spared)
    for pid in found:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + PATIENCE_SECONDS
    while time.monotonic() < deadline and left_behind(session, programs, spared):
        time.sleep(0.1)
    for pid in left_behind(session, programs, spared):
        _signal(pid, signal.SIGKILL)
    return found


def _signal(pid: int, number: signal.Signals) -> None:
    with contextlib.suppress(OSError):  # gone already
        os.kill(pid, number)


def main(argv: list[str]) -> int:
    session, ray_package = (Path(arg).resolve() for arg in argv)
    # The driver is spared whatever happens: one that let its reaper go lives on, and may
    # still hold files of the instance it shut down (a test suite, a notebook).
    driver = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver's Ctrl-C is the driver's
    try:
        while os.read(0, 4096):
            pass  # nothing is ever written: the pipe only ends
    except OSError:
        pass
    time.sleep(GRACE_SECONDS)
    reap(session, (Path(sys.executable).resolve(), ray_package), spared=driver)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
