"""The reaper a run starts beside its own Ray instance (``arena.reaper``): which processes it
ends once the driver is gone, and that it waits for the driver. The whole path, a real run
killed with SIGKILL, is in ``tests/test_cli.py``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import reaper
from tests.helpers import alive

HOLD = "import sys, time; f = open(sys.argv[1], 'a'); time.sleep(60)"
"""A process that holds a file open (as Ray's agents hold their logs) and waits."""


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes]]]:
    processes: list[subprocess.Popen[bytes]] = []
    yield processes
    for process in processes:
        process.kill()
        process.wait()


def _holding(started: list[subprocess.Popen[bytes]], command: list[str],
             where: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([*command, str(where)])
    started.append(process)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(
            target.startswith(str(where)) for target in _open_files(process.pid)):
        time.sleep(0.02)
    return process


def _open_files(pid: int) -> list[str]:
    """What ``pid``'s descriptors name (those it closes meanwhile left out)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return []
    targets = []
    for fd in fds:
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue
    return targets


def test_it_ends_only_the_programs_given_that_hold_a_file_of_the_session(
    tmp_path: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    session, elsewhere = tmp_path / "session", tmp_path / "elsewhere"
    session.mkdir()
    elsewhere.mkdir()
    python = [sys.executable, "-c", HOLD]
    agent = _holding(started, python, session / "agent.log")
    other_run = _holding(started, python, elsewhere / "agent.log")
    # A user following a log of the session with another program.
    (session / "reader.log").touch()
    reader = _holding(started, ["tail", "-f"], session / "reader.log")
    programs = (Path(sys.executable).resolve(),)

    assert reaper.left_behind(session, programs) == [agent.pid]
    assert reaper.reap(session, programs) == [agent.pid]
    agent.wait(timeout=10)
    assert alive(other_run.pid) and alive(reader.pid)
    assert reaper.left_behind(session, programs) == []


def test_it_waits_for_the_driver_then_ends_what_the_session_left(
    tmp_path: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    session = tmp_path / "session"
    session.mkdir()
    agent = _holding(started, [sys.executable, "-c", HOLD], session / "agent.log")
    # A driver (here a plain process) that starts a reaper and then waits.
    driver = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from arena import reaper; reaper.watch(Path(sys.argv[1]), Path(sys.argv[2])); "
         "time.sleep(60)", str(session), str(tmp_path / "ray")])
    started.append(driver)
    time.sleep(2 * reaper.GRACE_SECONDS + 0.5)
    assert alive(agent.pid)  # the driver runs: nothing is touched
    driver.kill()
    driver.wait()
    agent.wait(timeout=10 + reaper.PATIENCE_SECONDS)
    assert agent.returncode is not None


def test_a_driver_that_shut_its_instance_down_lets_its_reaper_go_and_is_spared(
    tmp_path: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    """A process that starts several instances one after the other (a test suite, a
    notebook) does not keep a reaper per instance waiting until it ends; and the reaper it
    lets go spares it, though it still holds a file of the instance it shut down (Ray's
    driver keeps its own logs there): in the suite, a test's release once ended pytest."""
    session = tmp_path / "session"
    session.mkdir()
    driver = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from arena import reaper; held = open(Path(sys.argv[1]) / 'driver.log', 'a'); "
         "reaper.watch(Path(sys.argv[1]), Path(sys.argv[2])); time.sleep(2); "
         "reaper.release(); time.sleep(60)", str(session), str(tmp_path / "ray")])
    started.append(driver)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not _reapers(session):
        time.sleep(0.05)
    [watching] = _reapers(session)
    deadline = time.monotonic() + 10 + reaper.GRACE_SECONDS + reaper.PATIENCE_SECONDS
    while time.monotonic() < deadline and alive(watching):
        time.sleep(0.05)
    assert not alive(watching)
    assert alive(driver.pid)


def _reapers(session: Path) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"arena.reaper" in words and str(session).encode() in words:
            found.add(int(entry.name))
    return found
