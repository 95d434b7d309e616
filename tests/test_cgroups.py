"""A control group per bot host (``arena.seats.cgroups``), made for real where the machine
allows it (root with cgroup v1 here); the zoo's tests show what it bounds."""

from __future__ import annotations

import os
import subprocess
import sys
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
needs_cpu_groups = pytest.mark.skipif(not cgroups.cpu_limited(),
                                      reason="this machine lets the arena bound no group's CPU")

SPINNERS = """
import os, resource, time
def spin(until):
    while time.monotonic() < until:
        pass
until = time.monotonic() + 1.0
children = []
for _ in range(2):
    pid = os.fork()
    if pid == 0:
        spin(until)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime)
"""
"""Two processes that each burn a core for one second of wall time; prints their CPU time."""


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


@needs_cpu_groups
def test_a_group_bounds_the_cores_its_processes_use_together() -> None:
    """A bot that thinks on two processes gets no more CPU per second than its ``cpus``: a
    tenth of a core here, where the two spinners alone would burn up to two seconds."""
    group = cgroups.create(256, 10, 80, cpus=0.1)
    assert group is not None
    try:
        quotas = {path.name: path.read_text().split() for folder in group.folders
                  for path in folder.iterdir()
                  if path.name in ("cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.max")}
        assert quotas in ({"cpu.cfs_quota_us": ["10000"], "cpu.cfs_period_us": ["100000"]},
                          {"cpu.max": ["10000", "100000"]})
        burnt = float(subprocess.run([*group.prefix(), sys.executable, "-c", SPINNERS],
                                     capture_output=True, text=True, check=True).stdout)
        assert burnt < 0.4
    finally:
        group.end()


@needs_cpu_groups
def test_a_seat_gives_its_host_the_tournaments_cores() -> None:
    """``[limits] cpus`` reaches the group of every sandboxed host of a match, and a pooled
    host started under other limits is not reused for it."""
    POOL.close()
    one_core = Limits(move_seconds=1.0, bank_seconds=1.0, isolation="process")
    assert play_match(spec("random", "random", limits=one_core)).statuses == ("ok", "ok")
    seen: list[str] = []
    real = cgroups.create

    def create(*args: object, **kwargs: object) -> cgroups.Cgroup | None:
        group = real(*args, **kwargs)  # type: ignore[arg-type]
        assert group is not None
        seen.extend(path.read_text().split()[0] for folder in group.folders
                    for path in folder.iterdir() if path.name in ("cpu.cfs_quota_us", "cpu.max"))
        return group

    patch = pytest.MonkeyPatch()
    patch.setattr(cgroups, "create", create)
    try:
        half = Limits(move_seconds=1.0, bank_seconds=1.0, isolation="process", cpus=0.5)
        assert play_match(spec("random", "random", limits=half)).statuses == ("ok", "ok")
    finally:
        patch.undo()
        POOL.close()
    assert seen == ["50000", "50000"]


@needs_cgroups
def test_the_groups_of_processes_gone_before_are_swept(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    layout = cgroups.available()
    assert layout is not None
    stale = [base / f"arena-{gone.pid}-7" for base in cgroups._bases(layout)]
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


@needs_cgroups
def test_the_processes_of_a_group_whose_maker_is_gone_are_ended() -> None:
    """A bot's process that outlived its host's maker (stopped, say, so it did not die with
    its parent) is killed when the groups are reaped (arena run does it when its Ray stops)."""
    maker = ("import os, signal, subprocess, sys, time\n"
             "from arena.seats import cgroups\n"
             "group = cgroups.create(256, 10, 80)\n"
             "left = subprocess.Popen([*group.prefix(), sys.executable, '-c', "
             "'import time; time.sleep(600)'], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL, start_new_session=True)\n"
             "time.sleep(0.3)\n"
             "print(left.pid, flush=True)\n"
             "os._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", maker], capture_output=True, text=True,
                          check=True, timeout=60)
    left = int(done.stdout.split()[0])
    assert cgroups.process_alive(left)
    assert cgroups.reap_orphans() >= 1
    assert not cgroups.process_alive(left)


@needs_cgroups
def test_the_pools_share_of_tasks_follows_the_control_group_the_arena_runs_in(
    tmp_path: Path,
) -> None:
    """A container bounds its tasks with ``pids.max``, which may be far below the machine's
    ``pid_max``: the idle hosts' share of tasks is taken from whichever is fewer."""
    layout = cgroups.available()
    assert layout is not None
    group = layout.pids / f"arena-test-limit-{os.getpid()}"
    group.mkdir()
    try:
        (group / "pids.max").write_text("4000")
        script = ("import os, sys\n"
                  f"open({str(group / 'cgroup.procs')!r}, 'w').write(str(os.getpid()))\n"
                  "from arena.seats import cgroups, process\n"
                  "print(cgroups.own_tasks_limit(), process.idle_tasks())\n")
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              check=True)
        limit, share = map(int, done.stdout.split())
        assert limit == 4000
        assert share == max(64, 4000 // (4 * (os.cpu_count() or 1)))
    finally:
        group.rmdir()
