"""How a bot host process is started: inside bubblewrap when it is installed, else
confined as far as the kernel allows without it.

With bubblewrap (Debian package ``bubblewrap``) the host sees a private root:
read-only binds of the system's ``/usr``, the Python installation, the
virtualenv, the arena's own packages, the bot's own packages and what it
requires, and nothing else (no home, no results, no other project files); an empty private
``/tmp`` as its working directory (64 MiB, and 16 MiB of ``/dev/shm``: the rest of
``/dev`` is read-only, and no pseudo-terminal opens, :data:`NO_PTYS`); no network; its
own user, PID, IPC and UTS namespaces; of ``/proc`` only its own processes and
:data:`PROC_KEPT`; and it dies with the seat that started it.

Without bubblewrap (the *fallback*) the host gets an empty environment, a
private empty working directory, its resource limits, its own session,
death with its parent and, where the kernel permits, no network; but it can
read what its user can read. Where the arena runs as root, it runs as a user of its own
(:func:`fallback_user`), with its mounts read-only but a tmpfs working directory and
``/dev/shm`` of its own, where the kernel permits. :func:`protections` says which applies.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import importlib.metadata
import importlib.util
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.removal import remove_tree
from arena.seats import foreign, seccomp
from arena.seats.host import OPEN_FILES

SANDBOX_MODES = ("auto", "required", "fallback")
"""``[limits] sandbox``: bubblewrap if installed (else the fallback, said aloud), bubblewrap
or refuse to start, or the fallback even where bubblewrap exists."""

CLEAN_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
             "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
"""The whole environment of a bot host: nothing of the parent's."""

SANDBOX_UID = 65534

FALLBACK_UIDS = 1 << 31
"""Without bubblewrap, an arena run as root starts each host as the user ``FALLBACK_UIDS``
plus the host's pid times 256 plus a random byte (see :func:`fallback_user`): a user of its
own, which no file and no other process belongs to (no two live hosts share a pid, and a
process some earlier host of that pid left running, where no control group swept it, has
one chance in 256 of sharing its user)."""

HOST_NICE = 15
"""The niceness of every bot host, Ray's workers' own: a host inherited its starter's (15 in
a tournament's worker, 0 under ``arena check``), and with it, a bot could tell the two apart
(so could the signals its starter blocked: a worker blocks SIGINT). A starter nicer than
this (a higher value) keeps its own: only root may lower one."""

SCRATCH_MB = 64
"""Size of a sandboxed host's private ``/tmp`` (memory: a tmpfs, which the host's own
memory limit does not count, so it is bounded here); its ``/dev/shm`` gets a quarter."""

ROOTS_PROC = ("timer_list", "slabinfo", "vmallocinfo", "kpagecount", "kpageflags", "kpagecgroup")
"""Files of ``/proc`` only root reads, which tell what other processes of the machine do (every
timer and when it expires, the kernel's objects, its thread stacks, every page of memory):
hidden from every sandbox (:func:`hidden_proc`), the fallback's too, where the kernel gives it
a mount namespace (it keeps ``CAP_DAC_READ_SEARCH``, which reads them)."""

_SET_LIMITS = (
    "import fcntl, os, re, resource as r, signal, sys\n"
    "for which, value in zip((r.RLIMIT_CORE, r.RLIMIT_NOFILE, r.RLIMIT_AS, r.RLIMIT_CPU,"
    " r.RLIMIT_FSIZE), map(int, sys.argv[1:6])):\n"
    "    if value > 0 or which == r.RLIMIT_CORE:\n"
    # Never above the hard limit the arena was given (`ulimit -f 4`): raising it fails, and
    # every host then exited with code 1, every plugin "failed".
    "        hard = r.getrlimit(which)[1]\n"
    "        value = value if hard == r.RLIM_INFINITY else min(value, hard)\n"
    "        r.setrlimit(which, (value, value))\n"
    "for which in (r.RLIMIT_MSGQUEUE, r.RLIMIT_SIGPENDING, r.RLIMIT_MEMLOCK):\n"
    "    r.setrlimit(which, (0, 0))\n"
    "moves = [tuple(map(int, pair.split(':'))) for pair in sys.argv[6].split(',') if pair]\n"
    "copies = [(fcntl.fcntl(old, fcntl.F_DUPFD, 16), new) for old, new in moves]\n"
    "for old, _ in moves:\n"
    "    os.close(old)\n"
    "for copy, new in copies:\n"
    "    os.dup2(copy, new)\n"
    "    os.close(copy)\n"
    "signal.pthread_sigmask(signal.SIG_SETMASK, ())\n"
    f"os.nice(max(0, {HOST_NICE} - os.nice(0)))\n"
    "if sys.argv[7] == '1':\n"
    "    import ctypes\n"
    "    libc = ctypes.CDLL(None, use_errno=True)\n"
    "    def check(result):\n"
    "        if result != 0:\n"
    "            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))\n"
    f"    user = {FALLBACK_UIDS} + (os.getpid() << 8 | os.urandom(1)[0])\n"
    "    libc.unshare(0x40000000)\n"  # CLONE_NEWNET, where permitted (else the arena says so)
    "    os.chown('.', user, user)\n"
    # A mount and an IPC namespace of its own (where permitted): every mount read-only (one
    # mount_setattr, or each mount in turn before Linux 5.12), its working folder and
    # /dev/shm tmpfs of its own, its System V objects gone with it. Nothing is mounted
    # unless its mounts are private first: a mount would otherwise reach the machine's.
    "    if (libc.unshare(0x08020000) == 0\n"  # CLONE_NEWNS | CLONE_NEWIPC
    "            and libc.mount(b'none', b'/', None, 0x44000, None) == 0):\n"  # REC | PRIVATE
    "        read_only = (ctypes.c_uint64 * 4)(1, 0, 0, 0)\n"  # MOUNT_ATTR_RDONLY
    "        if libc.syscall(442, -100, b'/', 0x8000, read_only, 32):\n"  # AT_RECURSIVE
    "            for line in open('/proc/self/mountinfo', encoding='utf-8', errors='replace'):\n"
    "                point = re.sub(r'\\\\([0-7]{3})', lambda m: chr(int(m[1], 8)),\n"
    "                               line.split()[4])\n"
    "                libc.mount(None, point.encode(), None, 0x1021, None)\n"  # REMOUNT|BIND|RDONLY
    "        here = os.getcwd()\n"
    "        own = f'700,uid={user},gid={user}'\n"
    f"        for folder, size, mode in ((here, {SCRATCH_MB << 20}, own),\n"
    f"                                   ('/dev/shm', {SCRATCH_MB << 18}, '1777')):\n"
    "            libc.mount(b'tmpfs', folder.encode(), b'tmpfs', 6,\n"  # MS_NOSUID | MS_NODEV
    "                       f'size={size},mode={mode}'.encode())\n"
    "        os.chdir(here)\n"
    # What CAP_DAC_READ_SEARCH, which it keeps, would read of root's own in /proc (see
    # ROOTS_PROC): an empty file over each.
    f"        for name in {ROOTS_PROC!r}:\n"
    f"            libc.mount({str(Path(__file__).with_name('empty')).encode()!r},\n"
    "                       f'/proc/{name}'.encode(), None, 0x1000, None)\n"  # MS_BIND
    # No pseudo-terminal either (see NO_PTYS): the machine's own /dev/ptmx draws on its
    # whole pool, the reserve kept for root's logins included.
    "        for name in ('/dev/ptmx', '/dev/pts/ptmx'):\n"
    f"            libc.mount({str(Path(__file__).with_name('empty')).encode()!r},\n"
    "                       name.encode(), None, 0x1000, None)\n"  # MS_BIND
    "    for cap in range(64):\n"  # the bounding set: CAP_DAC_READ_SEARCH (2) alone
    "        if cap != 2 and libc.prctl(24, cap, 0, 0, 0) != 0 and ctypes.get_errno() != 22:\n"
    "            check(-1)\n"  # PR_CAPBSET_DROP (EINVAL past the kernel's last capability)
    "    check(libc.prctl(8, 1, 0, 0, 0))\n"  # PR_SET_KEEPCAPS
    "    os.setgroups([])\n"
    "    os.setgid(user)\n"
    "    os.setuid(user)\n"
    "    header = (ctypes.c_uint32 * 2)(0x20080522, 0)\n"  # capability version 3, this process
    "    data = (ctypes.c_uint32 * 6)(4, 4, 4, 0, 0, 0)\n"  # effective, permitted, inheritable
    "    check(libc.capset(header, data))\n"
    "    check(libc.prctl(47, 2, 2, 0, 0))\n"  # PR_CAP_AMBIENT_RAISE: kept through exec
    "    check(libc.prctl(38, 1, 0, 0, 0))\n"  # PR_SET_NO_NEW_PRIVS: no set-user-ID program
    # A fallback host's seccomp filter (bubblewrap installs its own from the same descriptor):
    # installed last, so that nothing the command runs (a stored bot's .pth file first) is
    # free of it; PR_SET_NO_NEW_PRIVS first, which a filter of an unprivileged process needs.
    "if sys.argv[8] != '-':\n"
    "    import ctypes\n"
    "    libc = ctypes.CDLL(None, use_errno=True)\n"
    "    code = os.pread(int(sys.argv[8]), 1 << 16, 0)\n"
    "    os.close(int(sys.argv[8]))\n"
    "    class Program(ctypes.Structure):\n"
    "        _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_char_p)]\n"
    "    program = Program(len(code) // 8, code)\n"
    "    if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(program), 0, 0):\n"
    "        error = ctypes.get_errno()\n"  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
    "        raise OSError(error, f'cannot install the seccomp filter: {os.strerror(error)}')\n"
    "os.execv(sys.argv[9], sys.argv[9:])\n"
)
"""The program of :meth:`Confinement.limited` (its arguments: the limits, the descriptors to
move, whether to become a user of its own, the descriptor of a seccomp filter to install or
``-``, then the command; a limit of 0 is left unset, but for core dumps). It also gives the
command no blocked signals and a niceness of :data:`HOST_NICE`, whatever the process that
started it had; a fallback host of an arena run as root a network namespace of its own and a
user of its own (:func:`fallback_user`); and a fallback host the filter of
:mod:`arena.seats.seccomp`, which bubblewrap installs for the others."""

HOST_FDS = (3, 4)
"""The descriptors a host reads its requests from and writes its answers to, whatever they
were in the process that started it: a Ray worker holds dozens of descriptors and ``arena
check`` a few, so the numbers a host was given (``--fds=38,41`` against ``--fds=3,6``)
told a bot whether it was being checked or playing a tournament."""

SECCOMP_FD = 5
"""The descriptor bubblewrap reads the seccomp filter from (in its command line, which the
sandbox's init shows in ``/proc/1/cmdline``)."""

@dataclass(frozen=True, slots=True)
class Confinement:
    """Resource limits a host applies to itself before any bot code runs."""

    memory_mb: int = 1024
    cpu_seconds: int = 3600
    file_mb: int = 16
    cpus: float = 1.0
    """Cores the host's processes may use at once, together: its control group's CPU quota,
    where the machine allows one (a host applies no such limit to itself)."""
    processes: int = 64
    """RLIMIT_NPROC inside bubblewrap's user namespace. The kernel does not apply it when the
    arena runs as root (the sandbox's processes then belong to root outside): there the
    host's control group counts them, where the machine allows one (:mod:`arena.seats.cgroups`),
    else the pid namespace and the kill at the bot's deadline bound a fork bomb."""

    def arguments(self) -> list[str]:
        return [f"--memory-mb={self.memory_mb}", f"--cpu-seconds={self.cpu_seconds}",
                f"--file-mb={self.file_mb}", f"--processes={self.processes}"]

    def limited(self, command: list[str], moves: Mapping[int, int] | None = None,
                own_user: bool = False, filtered: bool = False) -> list[str]:
        """``command`` started under these limits, set by the arena's own interpreter before
        it becomes ``command``: no code of a stored bot's environment has run yet (a ``.pth``
        file of its wheel, or a runtime module its wheel replaced, runs before the host's own
        :func:`arena.seats.host.confine`, and could disarm it). No POSIX message queue's
        bytes, no queued signal and no locked memory are allowed at all
        (:func:`arena.seats.host.confine` says why); bubblewrap makes the sandbox's user
        namespace under these, so they bound its users' counts outside it too. The process
        limit stays the host's alone (outside a user namespace it would count all the arena
        user's).
        ``moves``: inherited descriptors renumbered first (old -> new; new ones below 16).
        ``own_user``: (root only) ``command`` runs in a network namespace of its own, as a
        user of its own (:data:`FALLBACK_UIDS`), to whom its working directory is given;
        and, where the kernel permits, in mount and IPC namespaces of its own, every mount
        read-only but its working directory and ``/dev/shm``, each a tmpfs of its own
        (:data:`SCRATCH_MB`, a quarter of it).
        ``filtered``: ``command`` runs under the seccomp filter that ``moves`` gives it as
        :data:`SECCOMP_FD` (a fallback host: bubblewrap installs it for the others)."""
        values = [0, OPEN_FILES, self.memory_mb << 20, self.cpu_seconds, self.file_mb << 20]
        renumbered = ",".join(f"{old}:{new}" for old, new in (moves or {}).items())
        return [sys.executable, "-I", "-S", "-c", _SET_LIMITS, *map(str, values), renumbered,
                "1" if own_user else "0", str(SECCOMP_FD) if filtered else "-", *command]


@functools.cache
def bubblewrap() -> str | None:
    """The path of a working ``bwrap``, or None (absent, or the kernel refuses it)."""
    path = shutil.which("bwrap")
    if path is None:
        return None
    probe = [path, "--unshare-all", "--unshare-user", "--die-with-parent", "--ro-bind", "/", "/",
             "--", "/bin/true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return path if done.returncode == 0 else None


@functools.cache
def nested_namespaces_refused() -> list[str]:
    """bubblewrap's ``--disable-userns`` where it has it (0.8.0 on), else nothing. Without it
    a bot may make user namespaces of its own inside the sandbox, and in them mount what it
    likes: a tmpfs of 4 GiB, say, outside its scratch folders' bounds and its address
    space (only a control group, where there is one, counts it), kept while its host waits
    for the next match; and every such namespace reaches kernel code a bot never needs."""
    path = bubblewrap()
    if path is None:
        return []
    probe = [path, "--unshare-all", "--unshare-user", "--disable-userns", "--ro-bind", "/", "/",
             "--", "/bin/true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    return ["--disable-userns"] if done.returncode == 0 else []


def use_bubblewrap(mode: str) -> bool:
    """Whether hosts run in bubblewrap under ``mode``; refuses ``required`` without it."""
    if mode == "fallback":
        return False
    if bubblewrap() is not None:
        return True
    if mode == "required":
        raise ArenaError(
            "[limits] sandbox = \"required\" but bubblewrap is not installed or not permitted: "
            "install the Debian package 'bubblewrap' (apt-get install bubblewrap)"
        )
    return False


def protections(mode: str) -> list[str]:
    """What confines a bot host under ``mode``, in words (for ``arena check`` and runs)."""
    from arena.seats import cgroups

    common = ["empty environment", "memory, CPU, file size and process limits",
              "killed with its whole process group on overrun"]
    if cgroups.available() is not None:
        bounded = "memory, number and CPU" if cgroups.cpu_limited() else "memory and number"
        common.append(f"a control group: the bot's processes' {bounded} together")
    refused = ["no file locks, inotify, keyrings, io_uring, Linux AIO, perf events, "
               "Internet sockets or descriptor passing, no page-cache queries, sysinfo or "
               "eventfds (a seccomp filter)"]
    if seccomp.program() is None:
        refused = [f"no seccomp filter on this machine ({platform.machine()}): file "
                   f"locks, inotify and the page cache can pass signals between seats"]
    if use_bubblewrap(mode):
        nested = ("no user namespaces of its own" if nested_namespaces_refused() else
                  "bubblewrap older than 0.8.0: the bot may make user namespaces and mount in "
                  "them (memory only a control group bounds)")
        return ["bubblewrap: read-only private root, private /tmp, no home, no network, "
                "of /proc only its own processes and the processors, no pseudo-terminals",
                nested,
                "own PID, user and IPC namespaces; dies with its seat", *refused, *common]
    if fallback_user():
        return ["fallback, bubblewrap not used: the filesystem is NOT hidden (readable)",
                "private empty working directory; no network where the kernel permits",
                "a user of its own (the arena runs as root): writes only its working folder "
                "(a 64 MiB tmpfs, its mounts read-only, where the kernel permits), signals "
                "only its own processes, no capability but reading", "dies with its seat",
                *refused, *common]
    return ["fallback, bubblewrap not used: the filesystem is NOT hidden",
            "private empty working directory; no network where the kernel permits",
            "dies with its seat", *refused, *common]


def module_location(module: str) -> Path | None:
    """Where the top-level package (or module file) of ``module`` lives, without importing it."""
    top = module.partition(":")[0].split(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).resolve()
    return Path(spec.origin).resolve() if spec.origin else None


@functools.cache
def dependency_locations(plugin: str) -> tuple[Path, ...]:
    """The other top-level packages of the distribution providing ``plugin``, then those of
    what it requires, and so on (those installed; the arena's own excluded). They are bound
    into the sandbox beside the plugin's own package: a distribution installed in editable
    mode lives outside the virtualenv, and a bot must see what it is made of and depends on
    (and nothing else of the project)."""
    top = plugin.partition(":")[0].split(".")[0]
    own = [name for name in _distributions().get(top, []) if name.lower() != "lostvalley-arena"]
    found: list[Path] = []
    for name in own:
        _add_packages(name, found, besides=module_location(top))
    wanted = [need for name in own for need in _requirements(name)]
    seen = {"lostvalley-arena", *(name.lower() for name in own)}
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        seen.add(name)
        wanted += _requirements(name)
        _add_packages(name, found)
    return tuple(found)


def distribution_parts(plugin: str) -> tuple[Path, ...]:
    """What a run on a cluster ships to its nodes for an installed ``plugin`` besides its own
    package: the other top-level packages of the distribution providing it, and that
    distribution's metadata folder (``*.dist-info``), which tells :func:`dependency_locations`
    on a node what the plugin is made of, so the node's sandbox binds them too. What the
    distribution requires is not shipped: a node needs it installed."""
    top = plugin.partition(":")[0].split(".")[0]
    own = [name for name in _distributions().get(top, []) if name.lower() != "lostvalley-arena"]
    found: list[Path] = []
    for name in own:
        _add_packages(name, found, besides=module_location(top))
        metadata = _metadata_folder(name)
        if metadata is not None and metadata not in found:
            found.append(metadata)
    return tuple(found)


def _metadata_folder(distribution: str) -> Path | None:
    """The installed ``*.dist-info`` (or ``*.egg-info``) folder of ``distribution``."""
    try:
        where = getattr(importlib.metadata.distribution(distribution), "_path", None)
    except importlib.metadata.PackageNotFoundError:
        return None
    if not isinstance(where, str | os.PathLike):
        return None
    folder = Path(where)
    return folder.resolve() if folder.is_dir() else None


def _add_packages(distribution: str, found: list[Path], besides: Path | None = None) -> None:
    """Add to ``found`` the installed top-level packages of ``distribution`` (its
    ``top_level.txt``) that are not ``besides`` nor in it already."""
    try:
        modules = importlib.metadata.distribution(distribution).read_text("top_level.txt") or ""
    except importlib.metadata.PackageNotFoundError:
        return
    for module in modules.split():
        where = _regular_location(module)
        if where is not None and where != besides and where not in found:
            found.append(where)


def _regular_location(module: str) -> Path | None:
    """:func:`module_location` of a regular package or a module file only: a namespace package
    (any folder of that name on ``sys.path``, the working directory's ``results`` say) is
    never bound on a requirement's word."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None or not Path(spec.origin).is_file():
        return None
    return module_location(module)


@functools.cache
def _distributions() -> Mapping[str, list[str]]:
    """Top-level module name -> the installed distributions providing it (read once: it
    scans every installed distribution, about 0.1 s)."""
    return importlib.metadata.packages_distributions()


def _requirements(distribution: str) -> list[str]:
    """The names of what ``distribution`` requires (extras' included), if it is installed."""
    try:
        needs = importlib.metadata.distribution(distribution).requires or []
    except importlib.metadata.PackageNotFoundError:
        return []
    return [re.split(r"[^A-Za-z0-9._-]", need, maxsplit=1)[0].lower() for need in needs]


def _system_binds() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives"):
        args += ["--ro-bind-try", name, name]
    return args


def _given_folders(places: tuple[Path, ...]) -> list[str]:
    """The folders holding ``places`` that only ``PYTHONPATH`` puts on this process's
    ``sys.path``, which a host (``python -I``) ignores: where Ray unpacks the parts of a bot's
    distribution that a run on a cluster shipped to this node, each in a folder of its own."""
    given = {str(Path(entry).resolve())
             for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry}
    return [str(place.parent) for place in places if str(place.parent) in given]


def _python_binds(extra: list[Path], environment: Path | None) -> list[str]:
    """Read-only binds of the Python the host runs on: the base installation, and the arena's
    virtualenv with its packages or, for a stored bot, that bot's own environment alone."""
    places = {Path(sys.base_prefix).resolve(), *extra}
    if environment is not None:
        places.add(environment.resolve())
    else:
        places |= {Path(sys.prefix).resolve(), Path(sys.executable).resolve().parent}
        for package in ("arena", "engines"):
            where = module_location(package)
            if where is not None:
                places.add(where)
    args: list[str] = []
    for place in sorted(places):
        if not any(other != place and other in place.parents for other in places):
            args += ["--ro-bind", str(place), str(place)]
    for place in sorted(places):  # each bound above or under a folder bound above
        for name in SETTINGS_HIDDEN:
            if (place / name).is_file():
                args += ["--ro-bind", str(EMPTY_FILE), str(place / name)]
    for folder in unused_base_packages(environment):
        if not any(folder == place or folder in place.parents for place in places):
            args += ["--tmpfs", str(folder), "--remount-ro", str(folder)]
    return args


SYSTEM_PACKAGES = ("/usr/lib/python3*/*-packages", "/usr/local/lib/python3*/*-packages")
"""Where the Pythons of the system (in ``/usr``, which every sandbox binds whole) keep their
packages: the distribution's own (``dist-packages``) and what ``pip install`` put there as
root (``/usr/local/...``)."""


def unused_base_packages(environment: Path | None) -> list[Path]:
    """The package folders (``site-packages``, ``dist-packages``) that the host's interpreter
    does not import from: the base Python installation's, for a virtualenv (the arena's, or
    a stored bot's ``environment``) made without its base's packages; and those of every
    other Python of the system (:data:`SYSTEM_PACKAGES`) where the arena runs on another.
    The base installation and ``/usr`` are bound whole, and with them everything ``pip
    install`` put in those folders (a bot installed with the base Python's pip or the
    system's instead of the virtualenv's, another project's code): no other bot's files are
    hidden there, as none of them is on the arena's path to be found, and the red team's
    bot read what was there (the base's, then, the arena running on a Python of its own,
    the system Python's). They list nothing in the sandbox now."""
    import site

    bases = [Path(entry).resolve() for entry in site.getsitepackages([sys.base_prefix])]
    if environment is None:
        # Without a virtualenv the base's packages are the arena's own (and hidden), and on
        # its path like any the virtualenv includes.
        used = {Path(entry).resolve() for entry in sys.path if entry}
    else:
        try:
            settings = (environment / "pyvenv.cfg").read_text(errors="replace")
        except OSError:
            settings = "include-system-site-packages = true"  # unknown: keep the base's
        included = re.search(r"(?m)^\s*include-system-site-packages\s*=\s*true\s*$",
                             settings, re.I)
        used = set(bases) if included else set()
    others = [Path(entry).resolve() for pattern in SYSTEM_PACKAGES
              for entry in sorted(glob.glob(pattern))]
    found: list[Path] = []
    for folder in (*bases, *others):
        if folder.is_dir() and folder not in used and folder not in found:
            found.append(folder)
    return found


SETTINGS_HIDDEN = ("pip.conf", "pip.ini")
"""Files of an installation's own folder (a virtualenv's, the base Python's) that a host's
binds read empty: pip's settings for that installation (its ``site`` file), where a private
package index is named with its user and token (``index-url = https://user:token@...``).
The red team's bot read the arena's virtualenv's ``pip.conf`` in its match; a bot has no
use for it."""


NO_PTYS = ("--tmpfs", "/dev/pts", "--remount-ro", "/dev/pts")
"""An empty, read-only ``/dev/pts`` over the one bubblewrap makes, so no pseudo-terminal opens
(``/dev/ptmx`` leads there): each sandbox's ``/dev/pts`` is an instance of its own, but every
instance draws on one pool of the machine (``kernel.pty.max`` less ``kernel.pty.reserve``,
3,072 by default). One seat opened all 3,071 left in its turn; holding 40 while it was
stopped, it left the other 3,031, so the red team's pair passed a number a turn through the
pool (heard right 3 matches in 3), and the idle hosts of one bot could hold it all (64 each)
for the whole tournament, refusing a terminal to every container of the machine."""

READ_ONLY_ROOT = ("--remount-ro", "/")
"""The last of bubblewrap's mounts: the sandbox's root read-only, once every bind and folder is
made in it. It is a tmpfs of bubblewrap's, of half the machine's memory, and the folders it
makes there (``/etc``, ``/root``, ``/tmp/h-...``'s parents) were the bot's to write: the red
team's wrote 96 MiB in ``/`` and as much in ``/etc``, past the scratch folders' bounds (where
no control group counts it, unbounded, and unseen by the pool's budget)."""

PROC_KEPT = ("cpuinfo", "filesystems", "version", "sysvipc")
"""What a sandboxed host's ``/proc`` tells of the machine: the processors (libraries read their
features), the kinds of file system and the kernel's version; ``sysvipc`` lists the
sandbox's own IPC namespace. Beside these it has its own processes (``self``,
``thread-self``, their numbers, and the links into them such as ``mounts`` and ``net``, of
its own network namespace); every other entry of ``/proc`` reads empty (a file) or lists
nothing (a folder), see :func:`hidden_proc`.

A list of what to keep, not of what to hide: the whole machine's kernel speaks there to every
sandbox alike, and each list of its files to hide missed some. It hid the machine's figures
(``loadavg``, ``stat``, ``meminfo``..., which one seat set by holding threads or memory while
it was stopped and another read on its turn) and root's own files (``timer_list``: every
timer of the machine and when it expires, through which the red team's pair passed a 34-bit
number a turn, noiselessly, where the arena runs as root; ``slabinfo``, ``vmallocinfo``,
``kpage*``), but left ``fs``: ext4 counts the hits of its extent cache for the whole machine
(``fs/ext4/<disk>/es_shrinker_info``) and a ``SEEK_DATA`` on a file of the bot's own is one,
about a microsecond each; the red team's pair said a number from 1 to 9 a turn through it and
heard it right 54 turns in 54. It left ``crypto`` (each algorithm's users), ``keys`` (the
keyrings of the user every sandbox is outside) and whatever a kernel adds: on this project's
machines ``program_cpu`` lists the name and CPU time of every program the machine ran, and a
bot that named itself ``zq-secret-4242`` (``prctl``) found that name there."""


@functools.cache
def hidden_proc() -> tuple[str, ...]:
    """The entries of ``/proc`` a sandboxed host finds empty: all but its processes and
    :data:`PROC_KEPT` (those of this kernel: the names are read from the arena's own
    ``/proc``, which has the same entries as the sandbox's but for the processes)."""
    hidden: list[str] = []
    with contextlib.suppress(OSError):
        for entry in sorted(os.scandir("/proc"), key=lambda entry: entry.name):
            if entry.name.isdigit() or entry.name in PROC_KEPT or entry.is_symlink():
                continue
            hidden.append(entry.name)
    return tuple(hidden)


EMPTY_FILE = Path(__file__).with_name("empty")
"""An empty file of the arena's, bound over each file of :func:`hidden_proc`."""


EMPTY_FD = 6
"""The descriptor (an empty source: ``/dev/null``) bubblewrap reads each file it makes empty in
a host's sandbox from (``--ro-bind-data``), instead of binding :data:`EMPTY_FILE` there."""


def _empty_data(args: list[str]) -> list[str]:
    """bubblewrap's ``args`` with each bind of :data:`EMPTY_FILE` made a file of no data read
    from :data:`EMPTY_FD`. A bind names its source in ``/proc/self/mountinfo``, which a bot
    reads: :data:`EMPTY_FILE` is in the arena's own installation, so a stored bot (which
    runs on a copy of the arena's runtime in its own environment, ``sys.prefix``, in the
    store) read where the organiser keeps the arena, over each entry of ``/proc`` it hides.
    A file of bubblewrap's own shows as ``/bindfile...`` there."""
    found: list[str] = []
    index = 0
    while index < len(args):
        if args[index] == "--ro-bind" and args[index + 1:index + 2] == [str(EMPTY_FILE)]:
            found += ["--ro-bind-data", str(EMPTY_FD), args[index + 2]]
            index += 3
        else:
            found.append(args[index])
            index += 1
    return found


def _hidden_proc() -> list[str]:
    """bubblewrap's arguments hiding :func:`hidden_proc`: files read empty, folders are
    empty and read-only."""
    args: list[str] = []
    for name in hidden_proc():
        path = Path("/proc") / name
        if path.is_dir():
            args += ["--tmpfs", str(path), "--remount-ro", str(path)]
        elif path.exists():
            args += ["--ro-bind", str(EMPTY_FILE), str(path)]
    return args


def fallback_user() -> bool:
    """Whether a fallback host runs as a user of its own (:data:`FALLBACK_UIDS`), in a
    network namespace of its own: where the arena runs as root. It keeps one capability,
    ``CAP_DAC_READ_SEARCH`` (it reads what root reads: the Python it runs on may be in
    ``/root``), none of the others, and may gain none (``no_new_privs``).

    A fallback host ran as root before: its bot wrote where it liked (the results, the
    arena's own code), killed the other seat's host with ``SIGKILL`` (that seat crashed and
    the bot won the match) and, root having every capability, joined its referee's network
    namespace again (``setns``) and connected out. As a user of its own it writes only in
    its working directory, signals no process but its own and cannot leave its network
    namespace. As a user of its own alone it still wrote wherever any user may (``/tmp``,
    ``/dev/shm``, System V shared memory), and what it left there outlived it (memory in
    ``/dev/shm`` and the segments, outside every control group once its own was gone): its
    mounts are now read-only, its working directory and ``/dev/shm`` tmpfs of its own, and
    its IPC namespace its own, where the kernel permits (see :meth:`Confinement.limited`).

    Only where every user of :data:`FALLBACK_UIDS` is one this root may become: a root of a
    container's user namespace, which maps a few thousand users, keeps its hosts as root
    (an unmapped user is refused, and the host could not start)."""
    return os.geteuid() == 0 and _users_mapped(FALLBACK_UIDS, 1 << 30)


@functools.cache
def _users_mapped(first: int, count: int) -> bool:
    """Whether users ``first`` to ``first + count`` exist in this process's user namespace."""
    try:
        return covered(Path("/proc/self/uid_map").read_text(), first, count)
    except (OSError, ValueError):
        return False


def covered(uid_map: str, first: int, count: int) -> bool:
    """Whether one line of ``uid_map`` (``/proc/PID/uid_map``'s text) maps users ``first`` to
    ``first + count``."""
    for line in uid_map.splitlines():
        inside, _, length = (int(field) for field in line.split())
        if inside <= first and first + count <= inside + length:
            return True
    return False


WORKDIR_PREFIX = "arena-host-"
"""A fallback host's working directory: ``arena-host-<pid of the seat's process>-<random>``
in the temporary folder."""


def fallback_workdir() -> str:
    """A new private, empty working directory for a fallback host. The seat removes it when the
    host ends; one left behind by a process that was killed outright is removed by the next
    process that starts a fallback host (see :func:`sweep_workdirs`)."""
    sweep_workdirs()
    return tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-")


@functools.cache
def sweep_workdirs() -> int:
    """Remove, once per process, the fallback working directories of this user whose process
    is gone; how many."""
    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}*-*"):
        owner = path.name[len(WORKDIR_PREFIX):].split("-", 1)[0]
        try:
            made = path.lstat().st_uid  # a host run as a user of its own was given its folder
            ours = made == os.getuid() or (os.getuid() == 0 and made >= FALLBACK_UIDS)
            if not owner.isdigit() or not ours or path.is_symlink():
                continue
        except OSError:
            continue
        if int(owner) == os.getpid() or _running(int(owner)):
            continue
        remove_tree(path)  # a bot's working folder: of any depth
        removed += not path.exists()
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def host_command(
    plugin: str, role: list[str], fds: tuple[int, int], confinement: Confinement, mode: str,
    environment: Path | None = None, seccomp_fd: int | None = None, empty_fd: int | None = None,
) -> tuple[list[str], str | None]:
    """The command line of a host for ``plugin`` (``role``: ``--bot NAME`` or ``--catalog``)
    and the private working directory made for it (None under bubblewrap). ``fds``: the
    request and answer descriptors, which the host gets as :data:`HOST_FDS`. ``environment``:
    a stored bot's own virtualenv (its Python and packages) instead of the arena's.
    ``seccomp_fd``: a descriptor the host inherits holding :mod:`arena.seats.seccomp`'s
    filter, which bubblewrap installs (for the fallback, :meth:`Confinement.limited`).
    ``empty_fd``: a descriptor the host inherits reading nothing (``/dev/null``), from which
    bubblewrap makes the files it hides empty (see :func:`_empty_data`)."""
    location = None if environment is not None else module_location(plugin)
    paths = [] if location is None else [str(location.parent)]
    if environment is None:
        paths += [path for path in _given_folders(dependency_locations(plugin))
                  if path not in paths]
    interpreter = sys.executable if environment is None else str(environment / "bin" / "python")
    moves = dict(zip(fds, HOST_FDS, strict=True))
    if seccomp_fd is not None:
        moves[seccomp_fd] = SECCOMP_FD
    python = [interpreter, "-I", "-m", "arena.seats.host", f"--fds={HOST_FDS[0]},{HOST_FDS[1]}",
              f"--plugin={plugin}", *role, *confinement.arguments(),
              *(f"--path={path}" for path in paths)]
    if not use_bubblewrap(mode):
        # Outside a user namespace RLIMIT_NPROC would count every process of the arena's
        # user (Ray's included), so the fallback leaves it unset.
        # As a user of its own (root's fallback), only the host's processes count.
        own_user = fallback_user()
        if not own_user:
            python = [arg for arg in python if not arg.startswith("--processes=")]
        return (confinement.limited([*python, "--fallback"], moves, own_user,
                                    filtered=seccomp_fd is not None),
                fallback_workdir())
    bwrap = bubblewrap()
    assert bwrap is not None
    # A package is bound alone; a single-file module with the folder it sits in (its siblings
    # are what it can import, as on the host's sys.path).
    extra = [] if location is None else [location.parent if location.is_file() else location]
    if environment is None:
        extra += dependency_locations(plugin)
        compiled(module_location("arena"), module_location("engines"))  # once a process
        compiled(location, *dependency_locations(plugin))  # once a plugin
    command = [bwrap, "--unshare-all", "--unshare-user", *nested_namespaces_refused(),
               "--uid", str(SANDBOX_UID),
               "--gid", str(SANDBOX_UID), "--die-with-parent", "--new-session",
               "--cap-drop", "ALL", "--hostname", "bot", "--clearenv",
               *(arg for key, value in CLEAN_ENV.items() for arg in ("--setenv", key, value)),
               *(() if seccomp_fd is None else ("--seccomp", str(SECCOMP_FD))),
               "--proc", "/proc", *_hidden_proc(), "--dev", "/dev", *NO_PTYS,
               "--size", str(SCRATCH_MB << 18), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
               "--size", str(SCRATCH_MB << 20), "--tmpfs", "/tmp", "--chdir", "/tmp",
               *_system_binds(), *_python_binds(extra, environment),
               *foreign.hidden_arguments(plugin, foreign.environment_roots(environment)),
               *READ_ONLY_ROOT, "--", *python]
    if empty_fd is not None:
        moves[empty_fd] = EMPTY_FD
        command = _empty_data(command)
    return confinement.limited(command, moves), None


@functools.cache
def compiled(*places: Path | None) -> None:
    """Write the bytecode of the Python files at ``places`` (package folders or module files)
    where it is missing or stale, once a process, as importing them here would.

    A host cannot: its binds are read-only and its environment says not to. So a module
    that only a host imports (the host's own, a bot's, in an editable install where pip
    compiled nothing) was compiled again at every host start: 25 ms of a `greedy` host's
    98 (``benchmarks/bench_seats.py`` (f)). Only compiled, never run; nothing is written
    where bytecode is not wanted (``PYTHONDONTWRITEBYTECODE``, ``python -B``) or cannot be
    (a folder that is not writable is left as it is)."""
    if sys.dont_write_bytecode:
        return
    import compileall

    for place in places:
        if place is None:
            continue
        try:
            if place.is_dir():
                compileall.compile_dir(place, maxlevels=8, quiet=2)
            elif place.suffix == ".py":
                compileall.compile_file(place, quiet=2)
        except Exception:  # bytecode is a saving, never a reason to fail
            continue


def sandboxed(
    argv: list[str], readable: list[Path], writable: list[Path], mode: str = "auto",
    scratch_mb: int = SCRATCH_MB,
) -> list[str] | None:
    """``argv`` (a command of the arena's own Python) run inside bubblewrap as a bot host is,
    for running a stranger's package code that is not a bot, such as the build of a submitted
    package: ``readable`` bound read-only, ``writable`` (files made beforehand) read-write,
    nothing else of the machine writable (so the file size limit bounds what it can leave on
    the disk), a private ``/tmp`` of ``scratch_mb`` (memory) as its working directory, no
    network and an empty environment. None where bubblewrap is not used."""
    if not use_bubblewrap(mode):
        return None
    bwrap = bubblewrap()
    assert bwrap is not None
    binds = [*(arg for place in readable for arg in ("--ro-bind", str(place), str(place))),
             *(arg for place in writable for arg in ("--bind", str(place), str(place)))]
    return [bwrap, "--unshare-all", "--unshare-user", *nested_namespaces_refused(),
            "--uid", str(SANDBOX_UID),
            "--gid", str(SANDBOX_UID), "--die-with-parent", "--new-session",
            "--cap-drop", "ALL", "--hostname", "bot", "--clearenv",
            *(arg for key, value in CLEAN_ENV.items() for arg in ("--setenv", key, value)),
            "--setenv", "PIP_NO_CACHE_DIR", "1", "--setenv", "PIP_NO_INDEX", "1",
            "--proc", "/proc", "--dev", "/dev", "--size", str(scratch_mb << 20),
            "--tmpfs", "/tmp", *_system_binds(), *_python_binds([], None),
            *foreign.hidden_arguments(None, foreign.environment_roots(None)), *binds,
            *READ_ONLY_ROOT, "--chdir", "/tmp", "--", *argv]
