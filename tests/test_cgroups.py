"""A control group per bot host (``arena.seats.cgroups``), made for real where the machine
allows it (root with cgroup v1 here); the zoo's tests show what it bounds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import spec

from arena.match import play_match
from arena.records import Limits
from arena.seats import cgroups
from arena.seats.process import POOL, HostProcess
from arena.seats.sandbox import Confinement

needs_cgroups = pytest.mark.skipif(cgroups.available() is None,
                                   reason="this machine lets the arena make no control group")


@needs_cgroups
def test_a_group_holds_what_it_runs_with_its_limits_and_goes_away() -> None:
    group = cgroups.create(256, 10, 80)
    assert group is not None
    inside = subprocess.run([*group.prefix(), "cat", "/proc/self/cgroup"], capture_output=True,
                            text=True, check=True).stdout
    assert all(folder.name in inside for folder in group.folders)
    limits = {path.name: path.read_text().strip() for folder in group.folders
              for path in folder.iterdir() if path.name in ("memory.limit_in_bytes",
                                                            "memory.max", "pids.max")}
    assert limits.get("memory.limit_in_bytes", limits.get("memory.max")) == str(336 << 20)
    assert limits["pids.max"] == "10"
    group.remove()
    assert not any(folder.exists() for folder in group.folders)


@needs_cgroups
def test_the_groups_of_processes_gone_before_are_swept(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    layout = cgroups.available()
    assert layout is not None
    stale = [base / f"arena-{gone.pid}-7" for base in {layout.memory, layout.pids}]
    for folder in stale:
        folder.mkdir()
    subprocess.run([sys.executable, "-c", "from arena.seats import cgroups\n"
                    "cgroups.create(256, 10, 80).remove()"], check=True)
    assert not any(folder.exists() for folder in stale)


def test_without_groups_a_host_runs_on_its_own_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cgroups, "available", lambda: None)
    host = HostProcess("arena_bot_random.plugin", ["--bot=random"], Confinement(), "auto")
    try:
        assert host.cgroup is None
        assert host.greet(10.0)["type"] == "hello"
    finally:
        host.kill()
    POOL.close()
    quick = Limits(move_seconds=1.0, bank_seconds=1.0, isolation="process")
    assert play_match(spec("random", "random", limits=quick)).statuses == ("ok", "ok")
    POOL.close()


def _has_freezer() -> bool:
    group = cgroups.create(256, 10, 80) if cgroups.available() is not None else None
    if group is None:
        return False
    group.remove()
    return group.freeze_file is not None


needs_freezer = pytest.mark.skipif(not _has_freezer(),
                                   reason="this machine has no cgroup freezer the arena may use")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@needs_cgroups
@needs_freezer
def test_a_frozen_group_runs_nothing_whatever_signal_it_is_sent() -> None:
    """Between a bot's turns its group is frozen: a SIGCONT (which an injected thread could
    send to a host that was only stopped) does not wake a frozen task."""
    group = cgroups.create(256, 10, 80)
    assert group is not None and group.freeze_file is not None
    spinner = subprocess.Popen([*group.prefix(), sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        assert group.freeze()
        time.sleep(0.2)
        before = _cpu_seconds(spinner.pid)
        os.kill(spinner.pid, signal.SIGCONT)
        time.sleep(0.5)
        assert _cpu_seconds(spinner.pid) - before < 0.05
        assert group.thaw()
        time.sleep(0.5)
        assert _cpu_seconds(spinner.pid) - before > 0.1
    finally:
        group.kill_all()
        spinner.wait(timeout=10)
        group.remove()


@needs_cgroups
@needs_freezer
def test_a_pooled_host_waits_in_a_frozen_group() -> None:
    quick = Limits(move_seconds=1.0, bank_seconds=1.0, isolation="process")
    assert play_match(spec("random", "random", limits=quick)).statuses == ("ok", "ok")
    hosts = [host for idle in POOL.idle.values() for host in idle]
    assert hosts and all(host.cgroup is not None and host.cgroup.freeze_file is not None
                         for host in hosts)
    states = {host.cgroup.freeze_file.read_text().strip() for host in hosts}  # type: ignore[union-attr]
    assert states <= {"FROZEN", "FREEZING", "1"}, states
    POOL.close()


@needs_cgroups
@needs_freezer
def test_a_frozen_group_is_reaped_when_its_maker_dies_without_a_word() -> None:
    """A frozen task cannot die with its parent; a watchdog left behind by the group's maker
    kills and thaws the group once the maker is gone (a SIGKILLed driver, a Ray worker)."""
    maker = ("import os, subprocess, sys, time\n"
             "from arena.seats import cgroups\n"
             "group = cgroups.create(256, 10, 80)\n"
             "spinner = subprocess.Popen([*group.prefix(), sys.executable, '-c', "
             "'while True: pass'], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL)\n"
             "time.sleep(0.3)\n"
             "group.freeze()\n"
             "print(spinner.pid, flush=True)\n"
             "os._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", maker], capture_output=True, text=True,
                          check=True, timeout=60)
    spinner = int(done.stdout.split()[0])
    for _ in range(50):
        if not cgroups.process_alive(spinner):
            break
        time.sleep(0.1)
    assert not cgroups.process_alive(spinner)
