"""A control group per bot host, where the machine lets the arena make one.

Resource limits (``setrlimit``) bound each process of a bot on its own: a bot
that forks twenty children may hold twenty times ``memory_mb``, and the kernel
ignores the process limit when the arena runs as root. A control group bounds
the bot's processes *together*: their memory (resident pages, the sandbox's
tmpfs included), their number and, where the ``cpu`` controller can be used
too, the CPU they burn at once (``cpus`` cores: a bot that thinks on several
processes or native threads gets no more computing time per second of its
clock than one that thinks on one). The arena uses one where it can create
groups: cgroup v1 with writable ``memory`` and ``pids`` hierarchies (the
group is made inside the arena's own, so the machine's limits still apply),
or cgroup v2 whose root enables both controllers (as root). Elsewhere, for
instance a user without delegated groups, it says so (:func:`available`) and
the resource limits are what there is.

A host is started through ``/bin/sh``, which puts itself into the group and
then becomes the host's command (``exec``), so everything the bot ever
starts is inside from its first instruction.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import re
import signal
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
_names = itertools.count()


@dataclass(frozen=True, slots=True)
class Layout:
    """Where this process may make groups: one folder per hierarchy, and its kind."""

    version: int
    memory: Path
    pids: Path
    cpu: Path | None = None
    """Where CPU-limited groups are made (v1: the ``cpu`` hierarchy; v2: the root, as for the
    others); None where the ``cpu`` controller cannot be used."""


@dataclass(frozen=True, slots=True)
class Cgroup:
    """One host's group (a folder per hierarchy)."""

    folders: tuple[Path, ...]

    def prefix(self) -> list[str]:
        """Run a command inside the group: a shell joins it, then becomes the command."""
        joins = " && ".join(f'echo $$ > "{folder / "cgroup.procs"}"' for folder in self.folders)
        return ["/bin/sh", "-c", f'{joins} && exec "$@"', "sh"]

    def processes(self) -> list[int]:
        """The processes in the group now (one read; none if it is gone)."""
        try:
            fd = os.open(_procs_file(self.folders[0]), os.O_RDONLY)
        except OSError:
            return []
        try:
            data = b""
            while chunk := os.read(fd, 1 << 16):
                data += chunk
            return [int(pid) for pid in data.split()]
        except OSError:
            return []
        finally:
            os.close(fd)

    def memory_bytes(self) -> int | None:
        """The memory the group's processes are charged for now: theirs, the files of the
        sandbox's scratch folders and the kernel's memory for them (an empty file's inode
        is about 1 KiB); None where it cannot be read."""
        for folder in self.folders:
            for name in ("memory.usage_in_bytes", "memory.current"):
                with contextlib.suppress(OSError, ValueError):
                    return int((folder / name).read_text())
        return None

    def tasks(self) -> int | None:
        """The group's tasks now (processes and their threads: ``pids.current``); None where
        it cannot be read."""
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                return int((folder / "pids.current").read_text())
        return None

    def kill_all(self) -> None:
        """SIGKILL every process in the group (those that left the host's session too)."""
        for pid in self.processes():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    def remove(self) -> None:
        """Take the group away once its processes are gone (a busy one is left as it is)."""
        for folder in self.folders:
            with contextlib.suppress(OSError):
                folder.rmdir()

    def end(self, tries: int = 50, pause: float = 0.002) -> None:
        """Kill what is left in the group and remove it; the last processes of a sandbox
        may take a moment to go, so it is tried again a few times."""
        for _ in range(tries):
            self.kill_all()
            self.remove()
            if not any(folder.exists() for folder in self.folders):
                return
            time.sleep(pause)


@functools.lru_cache(maxsize=256)
def _procs_file(folder: Path) -> str:
    """The file listing ``folder``'s processes: read after every answer of a bot, and joining
    the path anew cost about a tenth of that read."""
    return os.fspath(folder / "cgroup.procs")


PERIOD_US = 100_000
"""The CPU quota's accounting period: ``cpus`` cores means ``cpus`` times this much CPU time per
period, for all the group's processes together."""


def create(memory_mb: int, processes: int, scratch_mb: int,
           cpus: float | None = None) -> Cgroup | None:
    """A new group bounding a bot's memory to ``memory_mb`` plus its ``scratch_mb`` of
    in-memory folders, its processes to ``processes`` (the sandbox's own included) and, if
    ``cpus`` is given and the machine allows it (:func:`cpu_limited`), its CPU to ``cpus``
    cores; None where groups cannot be made (or a memory or process limit cannot be set:
    then none is used)."""
    layout = available()
    if layout is None:
        return None
    _sweep_stale(layout)
    name = f"arena-{os.getpid()}-{next(_names)}"
    memory_bytes = str((memory_mb + scratch_mb) << 20)
    pids = str(processes)
    made: list[Path] = []
    try:
        if layout.version == 1:
            memory, count = layout.memory / name, layout.pids / name
            for folder in (memory, count):
                folder.mkdir()
                made.append(folder)
            (memory / "memory.limit_in_bytes").write_text(memory_bytes)
            with contextlib.suppress(OSError):  # without swap accounting there is no such file
                (memory / "memory.memsw.limit_in_bytes").write_text(memory_bytes)
            (count / "pids.max").write_text(pids)
            if cpus is not None and layout.cpu is not None:
                with contextlib.suppress(OSError):  # memory and processes still bounded
                    made.append(_cpu_group_v1(layout.cpu / name, cpus))
        else:
            group = layout.memory / name
            group.mkdir()
            made.append(group)
            (group / "memory.max").write_text(memory_bytes)
            with contextlib.suppress(OSError):
                (group / "memory.swap.max").write_text("0")
            (group / "pids.max").write_text(pids)
            if cpus is not None and layout.cpu is not None:
                with contextlib.suppress(OSError):  # memory and processes still bounded
                    (group / "cpu.max").write_text(f"{_quota(cpus)} {PERIOD_US}")
    except OSError:
        Cgroup(tuple(made)).remove()
        return None
    return Cgroup(tuple(made))


def _quota(cpus: float) -> int:
    """CPU time per period for ``cpus`` cores (the kernel takes 1 ms at least)."""
    return max(1000, round(cpus * PERIOD_US))


def _cpu_group_v1(folder: Path, cpus: float) -> Path:
    folder.mkdir()
    try:
        (folder / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (folder / "cpu.cfs_quota_us").write_text(str(_quota(cpus)))
    except OSError:
        with contextlib.suppress(OSError):
            folder.rmdir()
        raise
    return folder


def cpu_limited() -> bool:
    """Whether hosts' groups bound their CPU too (see :func:`create`)."""
    layout = available()
    return layout is not None and layout.cpu is not None


@functools.cache
def _sweep_stale(layout: Layout) -> None:
    """Once a process: :func:`reap_orphans`."""
    reap_orphans()


def reap_orphans() -> int:
    """End the groups that processes gone before left behind, and say how many there were.

    A Ray worker that exits takes its hosts with it (they die with their parent), but not
    their groups; a process of a bot that outlived them is killed here too. ``arena run``
    calls this when its local Ray instance has stopped; every process that makes a group
    calls it once first (which covers a cluster's other machines)."""
    layout = available()
    if layout is None:
        return 0
    by_name: dict[str, list[Path]] = {}
    for base in dict.fromkeys(_bases(layout)):
        with contextlib.suppress(OSError):
            for folder in base.iterdir():
                found = re.fullmatch(r"arena-(\d+)-\d+", folder.name)
                if found and not process_alive(int(found[1])):
                    by_name.setdefault(folder.name, []).append(folder)
    for folders in by_name.values():
        Cgroup(tuple(folders)).end(pause=0.01)
    return len(by_name)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (one of another user's counts; a zombie,
    ended but not yet waited for, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def _bases(layout: Layout) -> tuple[Path, ...]:
    """The folders groups are made in, one per hierarchy (v2 has one for all)."""
    return (layout.memory, layout.pids) + ((layout.cpu,) if layout.cpu is not None else ())


@functools.cache
def available() -> Layout | None:
    """Where groups can be made here, found by making (and removing) one; None if nowhere.
    The ``cpu`` controller is optional: without it groups bound memory and processes."""
    for layout in (_v1(), _v2()):
        if layout is None:
            continue
        if layout.cpu is not None and not _can_make(layout):
            layout = Layout(layout.version, layout.memory, layout.pids)
        if _can_make(layout):
            return layout
    return None


def _v1() -> Layout | None:
    own = _own_groups()
    places = {}
    for controller in ("memory", "pids", "cpu"):
        mount = ROOT / controller
        if (mount / "cgroup.procs").exists() and controller in own:
            places[controller] = mount / own[controller].lstrip("/")
    if "memory" not in places or "pids" not in places:
        return None
    return Layout(1, places["memory"], places["pids"], places.get("cpu"))


def _v2() -> Layout | None:
    try:
        enabled = (ROOT / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    if "memory" not in enabled or "pids" not in enabled:
        return None
    return Layout(2, ROOT, ROOT, ROOT if "cpu" in enabled else None)


def own_tasks_limit() -> int | None:
    """The most tasks this process's own control group (a container's, say) and those above
    it may hold (``pids.max``), cgroup v1 or v2; None where none bounds them."""
    own = _own_groups()
    places = [ROOT / "pids" / own["pids"].lstrip("/")] if "pids" in own else []
    places.append(ROOT / own.get("", "/").lstrip("/"))  # v2: the unified hierarchy
    limits = []
    for place in places:
        for folder in (place, *place.parents):
            if folder == ROOT.parent or ROOT not in (folder, *folder.parents):
                break
            with contextlib.suppress(OSError, ValueError):
                limits.append(int((folder / "pids.max").read_text()))
    return min(limits) if limits else None


def _own_groups() -> dict[str, str]:
    """This process's group per v1 controller (from ``/proc/self/cgroup``)."""
    groups: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(","):
                groups[controller] = path
    return groups


def _can_make(layout: Layout) -> bool:
    probe = f"arena-probe-{os.getpid()}"
    made = []
    try:
        for base in dict.fromkeys(_bases(layout)):
            (base / probe).mkdir()
            made.append(base / probe)
        return True
    except OSError:
        return False
    finally:
        for folder in made:
            with contextlib.suppress(OSError):
                folder.rmdir()
