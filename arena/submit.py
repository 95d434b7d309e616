"""``arena submit PATH``: a stranger's bot package checked and admitted to the bot store.

1. A folder or an sdist is built into a wheel, in the sandbox, bounded in time, memory and
   disk (a wheel is taken as it is); a wheel for another Python is refused.
2. An environment for that bot alone is made in the store: a virtualenv holding the
   arena's bot-host runtime (the ``arena`` and ``engines`` packages and pluggy, installed
   as the ``lostvalley-arena`` distribution the bot depends on: no Ray, no tournament
   machinery), then the bot's wheel and its own dependencies: all resolved and downloaded
   first, each wheel inspected (its size unpacked, its number of files, no files for outside
   its packages) and all bounded together, then installed from those wheels alone (a bot
   needing only the runtime has nothing to resolve). A requirement of a URL is refused.
3. Each of its plugin modules is listed by a sandboxed host running in that environment.
4. ``arena check`` plays it, sandboxed, in every installed game it supports.
5. Only if all of that passes is it admitted; a failed check's report is kept under
   ``.rejected/`` and shown.
"""

from __future__ import annotations

import configparser
import contextlib
import datetime
import email.message
import email.parser
import hashlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name, canonicalize_version

import arena
from arena.botstore import (
    DOC_CHARS,
    ENTRY,
    STAGING,
    add_to,
    file_digest,
    read_entries,
    sort_key,
)
from arena.catalog import MAX_PROBLEMS, one_line
from arena.check import GameReport, check
from arena.classes import name_problem
from arena.errors import ArenaError
from arena.packagecopy import COPY_LIMIT, copy_package
from arena.plugins import BotInfo, Entry, Registry
from arena.records import Limits
from arena.seats import SeatFault, cgroups
from arena.seats.cgroups import process_alive
from arena.seats.process import HostProcess
from arena.seats.sandbox import Confinement, module_location, sandboxed

WHEEL_NAME = re.compile(
    r"^(?P<dist>[A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?)-(?P<version>[A-Za-z0-9][A-Za-z0-9._+!]*)"
    r"(-\d[^-]*)?-(?P<python>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl$"
)
"""A wheel's file name. Its name and version become folders of the store
(``<store>/<name>/<version>``), so each must be a plain name as the wheel format spells them:
a name of ``..`` made that folder the store's parent, which a submission clears of debris."""
RUNTIME = ("arena", "engines", "pluggy")
MAX_UNPACKED = 256 * 1024 * 1024
"""The most a wheel may unpack to, in bytes (the sum of its members' sizes as its zip
directory declares them, which bounds what extracting them writes): a bot and its libraries
fit, a zip bomb does not. Every wheel an environment gets is held to it, the bot's own and
each dependency's."""
MAX_UNPACKED_TOTAL = 1024 * 1024 * 1024
"""The most the bot's wheel and all its dependencies' wheels may unpack to together, in
bytes, checked before any of them is installed: many dependencies each under
``MAX_UNPACKED`` are not a way round it."""
MAX_MEMBERS = 100_000
"""The most files a wheel may hold, and the bot's and its dependencies' wheels together:
each is an inode of the store's disk once installed (a wheel of millions of empty files
would use them up while taking no room); a large library holds some thousands."""
MAX_METADATA = 4 * 1024 * 1024
"""The most a wheel's ``METADATA`` or ``entry_points.txt`` may hold, in bytes: the arena reads
them whole, in its own process (its requirements, its plugin modules), and so does pip. The
red team's wheel of 80 KB held a ``METADATA`` of 33 MB (1.5 million ``Requires-Dist`` lines):
reading its requirements took the arena 29 s and 650 MiB (a wheel may unpack to 256 MiB:
about 4 minutes and 5 GB). A package's README (its long description) is the most of a
``METADATA``; the largest seen are some hundred KB."""
MAX_BOTS = 16
"""Bots one submitted package may register. Each stored name is refused to every other
package, each is checked in every game it plays (about 6 s for three games), and every
command reads them all: the red team's package of 20,000 bots would have squatted 20,000
names, and ``arena bots`` took 23 s and 160 MB instead of 2 s to list its store."""
MAX_LISTED_NAMES = 64
"""Games, and params, one listed bot may name. What a bot's catalog says is the bot's to write
(its code runs in the host that lists it, and may rewrite it), is kept in the store's entry
and read by every command: the red team's listed bot had a 3 MB doc and 100,000 more
objects of its own (a 4.3 MB entry read whole, and the doc kept, by every command)."""
MAX_ENVIRONMENT = 4 * 1024 * 1024 * 1024
"""The most a bot's environment may hold once its dependencies are installed, in bytes: the
second line of defence behind the wheels' inspection (pip also writes bytecode, and what the
zip directories declare is all that was looked at); a large machine-learning library fits,
an environment past it is refused (and deleted)."""
REFUSED_SCHEMES = ("scripts", "data", "headers")
"""The parts of a wheel's ``<name>.data/`` folder pip installs outside site-packages (into the
environment's ``bin``, its root, its include folder): a wheel carrying one is refused, as
its files could replace the environment's interpreter or settings."""


@dataclass(slots=True)
class Submission:
    """What happened to one submitted package."""

    package: str
    version: str
    folder: Path
    bots: list[dict[str, Any]] = field(default_factory=list)
    reports: list[GameReport] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    """Time per step: wheel, environment, listing, check."""
    notes: list[str] = field(default_factory=list)
    """What was cleared on the way: leftovers of killed submissions."""
    dependencies: dict[str, str] = field(default_factory=dict)
    """The dependencies its environment holds, ``{name: version}``: a node that builds the
    environment again from the wheel is held to them."""


def submit(
    path: Path, store: Path, found: Registry, *, pip_options: list[str], sandbox: str = "auto",
    new_version: bool = False,
) -> Submission:
    """Build, install, list and check the package at ``path``; admit it to ``store``.

    It is built in a staging folder of the store (``.staging/``, which the store's readers
    skip) and renamed into place only once admitted, so a submission killed midway blocks
    nothing. A package the store holds at another version is refused unless ``new_version``:
    its bots' bare names would then play the newcomer's code.

    Its scratch work (the build's copy of the package, the wheel, the downloaded
    dependencies) is done in ``.staging/`` too, in a folder named for this process, so the
    next submission clears what a killed one left there (in the system's temporary folder,
    hundreds of MiB a killed submission stayed for ever)."""
    made = [folder for folder in (store, store / STAGING) if not folder.exists()]
    (store / STAGING).mkdir(parents=True, exist_ok=True)
    try:
        return _submit(path, store, found, pip_options, sandbox, new_version)
    finally:
        for folder in reversed(made):  # a refused package leaves no store behind
            with contextlib.suppress(OSError):
                folder.rmdir()


def _submit(path: Path, store: Path, found: Registry, pip_options: list[str], sandbox: str,
            new_version: bool) -> Submission:
    with tempfile.TemporaryDirectory(prefix=f"{_owner()}@scratch-", dir=store / STAGING
                                     ) as scratch:
        began = time.perf_counter()
        wheel = build_wheel(path, Path(scratch), pip_options, sandbox)
        match = WHEEL_NAME.match(wheel.name)
        assert match is not None
        check_python(wheel.name, match["python"], match["abi"])
        inspect_wheel(wheel)
        version = match["version"]
        package = distribution_name(wheel, match["dist"])
        # The store's folder keeps the wheel's spelling; what is said is the author's.
        folder = store / match["dist"] / version
        _refuse_stored(package, version, store, new_version, folder)
        notes = _clear_debris(store, folder)
        staging = store / STAGING / f"{_owner()}@{secrets.token_hex(4)}"
        submission = Submission(package, version, staging, notes=notes)
        submission.seconds["wheel"] = time.perf_counter() - began
        staging.mkdir(parents=True)
        try:
            _admit(submission, wheel, store, found, pip_options, sandbox)
            folder.parent.mkdir(parents=True, exist_ok=True)
            try:
                staging.rename(folder)  # the admission: atomic, and never over another's
            except OSError:
                raise ArenaError(f"{package} {version} was admitted to the bot store by another "
                                 f"submission meanwhile") from None
            submission.folder = folder
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return submission


def _owner() -> str:
    """``<pid>@<host>``: whose a staging folder is (see :func:`_clear_debris`)."""
    return f"{os.getpid()}@{socket.gethostname()}"


def _refuse_stored(package: str, version: str, store: Path, new_version: bool, folder: Path
                   ) -> None:
    """Refuse a package version the store holds, and without ``new_version`` a package it
    holds at another version (names compared as pip does: ``Arena.Bot`` is ``arena-bot``)."""
    key = canonicalize_name(package)
    stored = [bot for bot in read_entries(store) if canonicalize_name(bot.package) == key]
    same = sorted((bot.name, bot.version) for bot in stored
                  if canonicalize_version(bot.version) == canonicalize_version(version))
    if same or (folder / ENTRY).exists():
        name, held = same[0] if same else ("NAME", version)
        raise ArenaError(f"{package} {version} is in the bot store already; submit a new "
                         f"version (or 'arena store remove {name}@{held}' first)")
    if stored and not new_version:
        versions = ", ".join(sorted({bot.version for bot in stored}, key=sort_key))
        names = ", ".join(sorted({bot.name for bot in stored}))
        raise ArenaError(f"{package} is in the bot store already at version {versions}: "
                         f"version {version} would play wherever a config names {names} "
                         f"without @version; if it is a new version of that package, "
                         f"submit it with --new-version")


def _clear_debris(store: Path, folder: Path) -> list[str]:
    """Take out what killed submissions left: ``folder`` without its entry (left by an arena
    that built in place), and staging folders of this machine's processes that have ended.
    What was cleared, said in a line each."""
    notes: list[str] = []
    if folder.exists() and not (folder / ENTRY).exists():
        shutil.rmtree(folder, ignore_errors=True)
        notes.append(f"cleared {folder}: an unfinished submission's leftovers (no {ENTRY})")
    staging = store / STAGING
    for leftover in sorted(staging.glob("*@*@*")) if staging.is_dir() else []:
        pid, host, _ = leftover.name.split("@", 2)
        if host == socket.gethostname() and pid.isdigit() and not process_alive(int(pid)):
            shutil.rmtree(leftover, ignore_errors=True)
            notes.append(f"cleared {leftover}: left by a submission that ended unfinished")
    return notes


def _admit(
    submission: Submission, wheel: Path, store: Path, found: Registry,
    pip_options: list[str], sandbox: str,
) -> None:
    folder = submission.folder
    began = time.perf_counter()
    shutil.copy2(wheel, folder / wheel.name)
    submission.dependencies = make_environment(folder / "env", folder / wheel.name,
                                               pip_options)
    submission.seconds["environment"] = time.perf_counter() - began
    began = time.perf_counter()
    submission.bots = list_bots(folder / wheel.name, folder / "env", sandbox)
    _refuse_taken_names(submission, store, found)
    submission.seconds["listing"] = time.perf_counter() - began
    began = time.perf_counter()
    trial = _with_candidate(found, submission)
    limits = Limits(sandbox=sandbox)
    for bot in submission.bots:
        submission.reports += check(bot["name"], trial, limits)
    submission.seconds["check"] = time.perf_counter() - began
    report = _report(submission)
    if not all(game.ok for game in submission.reports):
        kept = _rejected_folder(store, submission.package, submission.version)
        (kept / "report.json").write_text(json.dumps(report, indent=2) + "\n")
        raise ArenaError(f"the check failed, so {submission.package} {submission.version} was "
                         f"not admitted: {_first_fault(submission)} (report: {kept}/report.json)")
    (folder / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    entry = {"package": submission.package, "version": submission.version,
             "wheel": wheel.name, "wheel_sha256": file_digest(folder / wheel.name),
             "dependencies": submission.dependencies, "bots": submission.bots, "check": "passed",
             "submitted": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}
    (folder / ENTRY).write_text(json.dumps(entry, indent=2) + "\n")


def build_wheel(path: Path, scratch: Path, pip_options: list[str], sandbox: str = "auto"
                ) -> Path:
    """The wheel of the package at ``path`` (a folder, an sdist or a wheel)."""
    if not path.exists():
        raise ArenaError(f"{path}: no such file or folder")
    if path.is_file() and path.name.endswith(".whl"):
        if not WHEEL_NAME.match(path.name):
            raise ArenaError(f"{path.name}: not a wheel file name (name-version-tags.whl)")
        return path
    if path.is_dir() and not any((path / name).exists() for name in ("pyproject.toml", "setup.py")):
        raise ArenaError(f"{path}: not a Python package (no pyproject.toml or setup.py in it)")
    if path.is_file() and not path.name.endswith((".tar.gz", ".zip")):
        raise ArenaError(f"{path}: give a package folder, a wheel (.whl) or an sdist (.tar.gz)")
    out = scratch / "wheel"
    # A build runs the package's own code (setup.py, its build backend): inside the sandbox,
    # on a copy, offline, with the arena's setuptools. Only without bubblewrap does it run
    # here, as the arena's user, as pip would.
    build = scratch / "build"
    build.mkdir()
    copy = build / path.name
    copy_package(path, copy, _not_for_the_build(path))
    out.mkdir()
    # An absolute path: a bare "mybot" would be taken for a project name on the package index.
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
               "-w", str(out), str(copy)]
    try:
        done = _build_sandboxed(copy, out, sandbox)
        inside = done is not None
        if done is None:
            done = subprocess.run(command, capture_output=True, text=True, check=False,
                                  timeout=BUILD_SECONDS)
            if done.returncode != 0:  # a build backend the arena lacks: let pip fetch it
                isolated = [arg for arg in command if arg != "--no-build-isolation"]
                done = subprocess.run([*isolated, *pip_options], capture_output=True,
                                      text=True, check=False, timeout=BUILD_SECONDS)
    except subprocess.TimeoutExpired:
        raise ArenaError(f"{path}: its build ran past {BUILD_SECONDS} s, so it was "
                         f"stopped") from None
    wheels = sorted(out.glob("*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        hint = ("; the build runs sandboxed and offline with the arena's setuptools: for "
                "another build backend, build the wheel yourself (pip wheel) and submit it"
                if inside else "")
        raise ArenaError(f"{path}: the wheel could not be built: "
                         f"{_build_error(done.stderr)}{hint}")
    return wheels[0]


def _not_for_the_build(top: Path) -> Callable[[str, list[str]], set[str]]:
    """What the copy of a package folder leaves out: ``.git``, ``results`` and caches
    anywhere, and at its top what an earlier build left (``build``, ``*.egg-info``), which
    setuptools would build on: modules deleted since would be in the wheel, and edited ones
    as they were (the sandbox's copy gives every file a new time)."""
    anywhere = shutil.ignore_patterns(".git", "results", "__pycache__")

    def ignore(folder: str, names: list[str]) -> set[str]:
        left_out = set(anywhere(folder, names))
        if Path(folder) == top:
            left_out |= {name for name in names
                         if name == "build" or name.endswith(".egg-info")}
        return left_out

    return ignore


BUILD_SECONDS = 300
"""The longest a submitted package's build may run (setuptools takes seconds)."""
BUILD = Confinement(memory_mb=1024, cpu_seconds=BUILD_SECONDS, file_mb=MAX_UNPACKED >> 20)
"""The resource limits of a sandboxed build: its one file on the arena's disk (the wheel)
is held to ``MAX_UNPACKED``."""
BUILD_SCRATCH_MB = COPY_LIMIT >> 20
"""The sandboxed build's private ``/tmp`` (memory): the copy of the package, pip's work, the
wheel and the build's output (768 MiB; the copy made for it outside, on the arena's disk, is
held to as much: :mod:`arena.packagecopy`)."""
_BUILD_SCRIPT = (
    'exec 3>&2 >/tmp/build.log 2>&1\n'
    'mkdir /tmp/source && cp -R "$1" /tmp/source/ &&\n'
    '"$4" -m pip wheel --no-deps --no-build-isolation -q -w /tmp/out '
    '"/tmp/source/${1##*/}" 3>&-\n'
    'status=$?\n'
    'tail -c 2000 /tmp/build.log >&3\n'
    '[ "$status" -eq 0 ] || exit "$status"\n'
    'for wheel in /tmp/out/*.whl; do echo "${wheel##*/}" >> "$2"; cat "$wheel" > "$3"; done\n'
)
"""Inside the sandbox (``sh -c``; ``$1`` the package, ``$2`` and ``$3`` the files for the
wheel's name and contents, ``$4`` the Python): the build, all of it in the private ``/tmp``,
its output kept there too (only its tail comes out, on a descriptor the build does not get)."""


def _build_sandboxed(
    copy: Path, out: Path, sandbox: str
) -> subprocess.CompletedProcess[str] | None:
    """Build the package at ``copy`` into ``out`` in the sandbox, bounded in time
    (``BUILD_SECONDS``), memory, processes and cores (its control group, where there is one; the
    ``BUILD`` limits), and disk (nothing but the wheel's one file, under the file size limit,
    is written outside the sandbox's memory). None where bubblewrap is not used."""
    name, contents = out.parent / "wheel.name", out.parent / "wheel.contents"
    name.touch()
    contents.touch()
    script = ["/bin/sh", "-c", _BUILD_SCRIPT, "sh", str(copy), str(name), str(contents),
              sys.executable]
    inside = sandboxed(BUILD.limited(script), [copy.parent], [name, contents], sandbox,
                       BUILD_SCRATCH_MB)
    if inside is None:
        return None
    # Held to a bot host's cores too: a build's spinning processes had every core of the
    # machine, the running tournament's bots' included.
    group = cgroups.create(BUILD.memory_mb, BUILD.processes, BUILD_SCRATCH_MB, BUILD.cpus)
    try:
        done = subprocess.run([*(group.prefix() if group else ()), *inside], capture_output=True,
                              text=True, check=False, env={"PATH": "/usr/bin:/bin"},
                              start_new_session=True, timeout=BUILD_SECONDS)
    finally:
        if group is not None:
            group.end()
    built = name.read_text(errors="replace").split("\n")
    if done.returncode == 0 and len(built) == 2 and WHEEL_NAME.match(built[0]) \
            and "/" not in built[0] and not built[0].startswith("."):
        contents.rename(out / built[0])
    return done


def check_python(name: str, python: str, abi: str) -> None:
    """Refuse a wheel that this Python cannot install."""
    minor = f"{sys.version_info.major}{sys.version_info.minor}"
    fits = {"py3", f"py{minor}", f"cp{minor}", f"py{sys.version_info.major}"}
    if not fits & set(python.split(".")) or abi not in ("none", "abi3", f"cp{minor}"):
        raise ArenaError(f"{name} is built for {python}-{abi}, not for this Python "
                         f"({sys.version_info.major}.{sys.version_info.minor}); rebuild it here")


def inspect_wheel(wheel: Path) -> tuple[int, int]:
    """Refuse, before pip installs it, a wheel that is no zip archive, unpacks to more than
    ``MAX_UNPACKED`` bytes, holds more than ``MAX_MEMBERS`` files, a ``METADATA`` or
    ``entry_points.txt`` of more than ``MAX_METADATA`` bytes, or carries files pip would put
    outside site-packages. What it unpacks to: (bytes, files)."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise ArenaError(f"{wheel.name}: not a valid wheel (a wheel is a zip archive): "
                         f"{exc}") from None
    unpacked = sum(member.file_size for member in members)
    if unpacked > MAX_UNPACKED:
        raise ArenaError(f"{wheel.name} unpacks to {unpacked / 2**20:,.0f} MiB; a wheel may "
                         f"unpack to {MAX_UNPACKED / 2**20:,.0f} MiB at most")
    if len(members) > MAX_MEMBERS:
        raise ArenaError(f"{wheel.name} holds {len(members):,} files; a wheel may hold "
                         f"{MAX_MEMBERS:,} at most")
    for member in members:
        parts = member.filename.replace("\\", "/").split("/")
        if (len(parts) == 2 and parts[0].endswith(".dist-info")
                and parts[1] in ("METADATA", "entry_points.txt")
                and member.file_size > MAX_METADATA):
            raise ArenaError(f"{wheel.name}: its {member.filename} holds "
                             f"{member.file_size / 2**20:,.1f} MiB; a wheel's {parts[1]} may "
                             f"hold {MAX_METADATA / 2**20:,.0f} MiB at most")
        if len(parts) > 2 and parts[0].endswith(".data") and parts[1] in REFUSED_SCHEMES:
            raise ArenaError(f"{wheel.name} carries {member.filename}: files in a wheel's "
                             f".data/{parts[1]} would be installed outside its packages (over "
                             f"the environment's programs), so it is refused")
    return unpacked, len(members)


def _metadata(wheel: Path) -> email.message.Message:
    """The wheel's ``METADATA`` (bounded by :func:`inspect_wheel`); empty if it has none."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            names = [name for name in archive.namelist()
                     if name.count("/") == 1 and name.endswith(".dist-info/METADATA")]
            text = archive.read(names[0]).decode("utf-8", "replace") if names else ""
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise ArenaError(f"{wheel.name}: not a valid wheel (a wheel is a zip archive): "
                         f"{exc}") from None
    return email.parser.HeaderParser().parsestr(text)


def distribution_name(wheel: Path, dist: str) -> str:
    """The package's name as its author wrote it (``arena-bot-cautious``), from the wheel's
    ``METADATA``: the wheel's file name, ``dist``, spells it normalized (``arena_bot_cautious``),
    a name the author never typed. ``dist`` where ``METADATA`` names another package or no
    valid name."""
    name = str(_metadata(wheel).get("Name") or "").strip()
    if PROJECT_NAME.fullmatch(name) and canonicalize_name(name) == canonicalize_name(dist):
        return name
    return dist


PROJECT_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
"""A valid distribution name (PEP 508)."""


def refuse_direct_requirements(wheel: Path) -> None:
    """Refuse a wheel whose ``METADATA`` requires a distribution from a URL
    (``Requires-Dist: name @ url``): what the URL serves may change after the check, so what
    was admitted would not be what was checked, and pip would fetch it from anywhere."""
    for line in _metadata(wheel).get_all("Requires-Dist") or []:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            raise ArenaError(f"{wheel.name}: its requirement {line.strip()!r} cannot be "
                             f"read") from None
        if requirement.url is not None:
            raise ArenaError(f"{wheel.name} requires {requirement.name} from a URL "
                             f"({requirement.url}); a submitted bot's dependencies must come "
                             f"from the package index or --find-links, by name and version")


def make_environment(environment: Path, wheel: Path, pip_options: list[str],
                     pinned: dict[str, str] | None = None) -> dict[str, str]:
    """A virtualenv with the arena's bot-host runtime, then the bot's wheel and dependencies;
    the dependencies installed, ``{name: version}`` (names as pip normalizes them).

    ``pinned``: the dependencies the bot was admitted with (a cluster's node building a
    stored bot's environment from its wheel): those versions are resolved, and an
    environment that would need another dependency or another version is refused.

    The wheels are resolved and downloaded first, nothing installed (``pip install
    --dry-run`` in the environment, which sees the runtime there, then ``pip download`` of
    what it chose, with ``pip_options``); each is inspected (:func:`inspect_wheel`) and
    together they are held to ``MAX_UNPACKED_TOTAL`` and ``MAX_MEMBERS``; then pip installs
    from that folder alone. A requirement of a URL, the bot's or a dependency's, is refused.

    No program of the environment runs here once anything of the bot's is installed in it:
    a wheel may replace files there (its ``.data/scripts`` go to ``bin``), so what it holds is
    compiled by the arena's own interpreter, under limits (:func:`compile_environment`; pip
    compiles nothing), and an environment whose interpreter or ``pyvenv.cfg`` the install
    changed is refused."""
    inspect_wheel(wheel)
    refuse_direct_requirements(wheel)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(environment)],
                   check=True, capture_output=True)
    python = environment / "bin" / "python"
    purelib = subprocess.run(  # before anything of the bot's is installed
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    install_runtime(Path(purelib))
    made = _interpreter_files(environment)
    # Beside the environment (a submission's staging folder): a killed one's are cleared.
    with tempfile.TemporaryDirectory(prefix=".wheels-", dir=environment.parent) as scratch:
        wheels = Path(scratch) / "wheels"
        dependencies = _download(wheels, python, wheel, pip_options, pinned)
        _inspect_all(wheel, wheels)
        # Wheels only, from the folder inspected and nowhere else (--isolated: no PIP_*
        # variable or pip configuration adds a source); building one would run its code.
        done = subprocess.run(
            [sys.executable, "-m", "pip", "--isolated", "--python", str(python), "install",
             "-q", "--no-warn-script-location", "--only-binary=:all:", "--no-index",
             "--no-compile",
             "--find-links", str(wheels), str(wheels / wheel.name)],
            capture_output=True, text=True, check=False,
        )
    if done.returncode != 0:
        raise ArenaError(f"{wheel.name}: its dependencies could not be installed: "
                         f"{_last_line(done.stderr)}")
    now = _interpreter_files(environment)
    changed = sorted(name for name in made if now.get(name) != made[name])
    if changed:
        raise ArenaError(f"{wheel.name}: installing it or its dependencies replaced the "
                         f"environment's {', '.join(changed)}, so it is refused")
    size = _size(environment)
    if size > MAX_ENVIRONMENT:
        raise ArenaError(f"{wheel.name}: with its dependencies it takes {size / 2**20:.1f} MiB; "
                         f"a bot's environment may take {MAX_ENVIRONMENT / 2**20:.1f} MiB at most")
    compile_environment(Path(purelib))
    return dependencies


COMPILE = Confinement(memory_mb=1024, cpu_seconds=BUILD_SECONDS, file_mb=MAX_UNPACKED >> 20)
"""The limits of the compilation of a stored bot's environment (:func:`compile_environment`)."""


def compile_environment(purelib: Path) -> None:
    """Write the bytecode of everything installed in ``purelib``, the runtime's and the bot's,
    as ``pip install`` would, but under :data:`COMPILE`'s limits.

    Hosts run read-only and never write bytecode, so it is written here, with the arena's
    interpreter (the environment's is the same Python, so the same cache tag; ``-S``: no
    site, so no ``.pth`` file of the bot's runs). Compiling runs none of the bot's code but
    may cost any amount of memory: pip compiled what it installed, outside every limit, and
    the red team's wheel of 6.7 KB (a module of 5 MB, a list of 2.5 million ones) held pip at
    1,925 MiB for 14 s; the 256 MiB that a wheel may unpack to would need about 100 GB. Under
    the limits such a module is left uncompiled (a host compiles it when it imports it, in its
    sandbox), and the rest is compiled."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run(COMPILE.limited([sys.executable, "-I", "-S", "-m", "compileall", "-q",
                                        str(purelib)]),
                       check=False, capture_output=True, timeout=BUILD_SECONDS)


RESOLVE = Confinement(memory_mb=1024, cpu_seconds=BUILD_SECONDS, file_mb=MAX_UNPACKED >> 20)
"""The limits of pip's resolution and download of a submitted bot's dependencies
(:func:`_download`; a time limit of ``BUILD_SECONDS`` too). pip reads each candidate's
``METADATA`` whole before any wheel is inspected, and writes it into its report: the red
team's dependency of 137 KB, a ``METADATA`` of 38 MiB, held pip at 465 MiB for 37 s (47 MiB
and 16 s with an ordinary one) before its inspection refused it, and one of 409 KB (114 MiB)
at 1,274 MiB for 54 s; the 256 MiB a wheel may unpack to would take gigabytes. Under them
pip fails (that one in 6 s) and the bot is refused, saying so."""

MAX_REPORT = 64 * 1024 * 1024
"""The most pip's resolution report may hold, in bytes (the arena reads it whole): each
dependency's ``METADATA`` is in it, at most ``MAX_METADATA`` each once admitted."""


def _pip(command: list[str], what: str, wheel: Path) -> None:
    """Run pip ``command`` under :data:`RESOLVE`'s limits; ``ArenaError`` saying ``what``
    failed if it fails or runs past them."""
    try:
        done = subprocess.run(RESOLVE.limited(command), capture_output=True, text=True,
                              check=False, timeout=BUILD_SECONDS)
    except subprocess.TimeoutExpired:
        raise ArenaError(f"{wheel.name}: its dependencies could not be {what} within "
                         f"{BUILD_SECONDS:.0f} s") from None
    if done.returncode != 0:
        held = (f" (pip ran out of its {RESOLVE.memory_mb} MiB)" if "MemoryError" in done.stderr
                else "")
        raise ArenaError(f"{wheel.name}: its dependencies could not be {what}{held}: "
                         f"{_last_line(done.stderr)}{_missing_hint(done.stderr)}")


def _missing_hint(said: str) -> str:
    """What to do when pip found no wheel of a dependency (offline, or one published as an
    sdist alone): the line said only "No matching distribution found for numpy"."""
    if "No matching distribution found" not in said:
        return ""
    return ("; only wheels are taken, from the package index (unless --no-index) and from "
            "each --find-links DIR: put that dependency's wheel (pip wheel NAME) in a folder "
            "and submit again with --find-links DIR")


def _download(wheels: Path, python: Path, wheel: Path, pip_options: list[str],
              pinned: dict[str, str] | None = None) -> dict[str, str]:
    """Into ``wheels``: ``wheel`` and every wheel of a dependency it needs in the environment
    of ``python``, none installed. ``pip download`` alone would resolve as if the environment
    were empty (and fetch a ``lostvalley-arena`` from the index): the environment's pip
    resolves (``install --dry-run``, which runs nothing of the bot's: only the runtime is
    there yet), then what it chose is downloaded by name and version; with ``pinned``, held
    to those versions (see :func:`make_environment`). What it chose, ``{name: version}``."""
    wheels.mkdir()
    shutil.copy2(wheel, wheels / wheel.name)
    report = wheels.parent / "report.json"
    if _needs_only_the_runtime(wheel):
        return _held_to({}, pinned, wheel)
    constraints: list[str] = []
    if pinned:
        # A constraints file: pip resolves those versions, and no other, where they apply.
        (wheels.parent / "pinned.txt").write_text(
            "".join(f"{name}=={version}\n" for name, version in sorted(pinned.items())))
        constraints = ["-c", str(wheels.parent / "pinned.txt")]
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    _pip([*pip, "install", "-q", "--dry-run", "--report", str(report), "--only-binary=:all:",
          *constraints, *pip_options, str(wheel)], "resolved", wheel)
    if report.stat().st_size > MAX_REPORT:
        raise ArenaError(f"{wheel.name}: the metadata of its dependencies holds "
                         f"{report.stat().st_size / 2**20:,.0f} MiB; "
                         f"{MAX_REPORT / 2**20:,.0f} MiB at most")
    match = WHEEL_NAME.match(wheel.name)
    own = canonicalize_name(match["dist"]) if match else None
    needed: list[str] = []
    for item in json.loads(report.read_text()).get("install", []):
        name, version = item["metadata"]["name"], item["metadata"]["version"]
        if canonicalize_name(name) == own:
            continue
        if item.get("is_direct"):
            raise ArenaError(f"{wheel.name} needs {name} {version} from a URL "
                             f"({item.get('download_info', {}).get('url')}); a submitted bot's "
                             f"dependencies must come from the package index or --find-links, "
                             f"by name and version")
        needed.append(f"{name}=={version}")
    chosen = _held_to(dict(line.split("==", 1) for line in needed), pinned, wheel)
    if needed:
        _pip([*pip, "download", "-q", "--no-deps", "--only-binary=:all:", "--dest", str(wheels),
              *pip_options, *needed], "downloaded", wheel)
    return chosen


def _held_to(chosen: dict[str, str], pinned: dict[str, str] | None, wheel: Path
             ) -> dict[str, str]:
    """``chosen`` (dependencies, ``{name: version}``) with names as pip normalizes them;
    refused unless they are ``pinned``'s, where given.

    A stored bot is admitted with the dependencies resolved at its submission, but a
    cluster's node builds its environment from the wheel alone, later: its requirements
    (``zoolib>=1.0``) were resolved again there, to whatever the package index then held,
    and the red team's dependency, a package of its own, published as 2.0 after its bot
    was admitted, played on the nodes, never checked."""
    chosen = {canonicalize_name(name): version for name, version in chosen.items()}
    if pinned is None:
        return chosen
    wanted = {canonicalize_name(name): version for name, version in pinned.items()}
    if {name: canonicalize_version(version) for name, version in chosen.items()} != {
            name: canonicalize_version(version) for name, version in wanted.items()}:
        differ = sorted(set(chosen.items()) ^ set(wanted.items()))
        shown = ", ".join(f"{name} {version}" for name, version in differ[:4])
        raise ArenaError(f"{wheel.name}: its dependencies here are not the ones it was "
                         f"admitted with ({shown} differ); submit it again")
    return chosen


def _needs_only_the_runtime(wheel: Path) -> bool:
    """Whether every requirement of ``wheel`` that applies here is one the environment's
    runtime meets as it is (``lostvalley-arena`` without extras, ``pluggy``, at versions its
    specifier admits): then nothing is to be resolved or downloaded, and pip's resolution (a
    pip run of about a second, most of a small bot's environment) is skipped. The install
    that follows still checks every requirement, from the bot's wheel alone, so a wrong
    answer here ends in a refusal, never in another environment."""
    import pluggy

    held = {"lostvalley-arena": arena.__version__, "pluggy": pluggy.__version__}
    for line in _metadata(wheel).get_all("Requires-Dist") or []:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            return False
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        version = held.get(canonicalize_name(requirement.name))
        if (version is None or requirement.extras or requirement.url is not None
                or not requirement.specifier.contains(version, prereleases=True)):
            return False
    return True


def _inspect_all(wheel: Path, wheels: Path) -> None:
    """Inspect every wheel in ``wheels`` and hold them together to ``MAX_UNPACKED_TOTAL``
    and ``MAX_MEMBERS``."""
    unpacked = members = 0
    for each in sorted(wheels.iterdir()):
        if not each.name.endswith(".whl"):
            raise ArenaError(f"{wheel.name}: its dependency {each.name} is not a wheel")
        size, count = inspect_wheel(each)
        unpacked, members = unpacked + size, members + count
    if unpacked > MAX_UNPACKED_TOTAL:
        raise ArenaError(f"{wheel.name} and its dependencies unpack to "
                         f"{unpacked / 2**20:,.0f} MiB; together they may unpack to "
                         f"{MAX_UNPACKED_TOTAL / 2**20:,.0f} MiB at most")
    if members > MAX_MEMBERS:
        raise ArenaError(f"{wheel.name} and its dependencies hold {members:,} files; together "
                         f"they may hold {MAX_MEMBERS:,} at most")


def _size(folder: Path) -> int:
    """Bytes of the files under ``folder`` (links not followed)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def _interpreter_files(environment: Path) -> dict[str, str]:
    """What the environment's ``bin/python*`` and ``pyvenv.cfg`` are: a link's target, else
    a file's contents' digest (never following a link, never running anything)."""
    files: dict[str, str] = {}
    for path in [*(environment / "bin").glob("python*"), environment / "pyvenv.cfg"]:
        name = str(path.relative_to(environment))
        if path.is_symlink():
            files[name] = "link to " + os.readlink(path)
        elif path.is_file():
            files[name] = "file " + hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.exists():
            files[name] = "other"
    return files


def install_runtime(site: Path) -> None:
    """Copy what a bot host needs into ``site``: the arena's own packages and pluggy, with
    the metadata that makes the bot's ``lostvalley-arena`` requirement satisfied."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in RUNTIME:
        where = module_location(package)
        if where is None:
            raise ArenaError(f"cannot find the {package!r} package to build a bot environment")
        shutil.copytree(where, site / package, ignore=ignore)
    import pluggy

    pluggy_info = Path(pluggy.__file__).parent.parent / f"pluggy-{pluggy.__version__}.dist-info"
    if pluggy_info.is_dir():
        shutil.copytree(pluggy_info, site / pluggy_info.name, ignore=ignore)
    info = site / f"lostvalley_arena-{arena.__version__}.dist-info"
    info.mkdir()
    games, extras = _runtime_metadata()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: lostvalley-arena\nVersion: {arena.__version__}\n"
        f"Summary: The arena's bot-host runtime (no Ray), for a stored bot's environment.\n"
        f"Requires-Dist: pluggy\n"
        + "".join(f"Provides-Extra: {extra}\n" for extra in sorted({e for e, _ in extras}))
        + "".join(f"Requires-Dist: {requirement}\n" for _, requirement in extras)
    )
    if games:
        (info / "entry_points.txt").write_text(f"[{arena.PROJECT}]\n" + "".join(
            f"{name} = {module}\n" for name, module in games))
    (info / "INSTALLER").write_text("arena-submit\n")
    (info / "RECORD").write_text("")


RUNTIME_EXTRAS = ("pettingzoo",)
"""The arena's extras a stored bot may require (``lostvalley-arena[pettingzoo]``, for a
``PolicyBot``): the runtime's metadata declares them, so pip installs what they need."""


def _runtime_metadata() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """From the arena's own distribution: the games it registers from the runtime's packages
    (``name``, ``module``), so that a stored bot finds the shipped games as an installed arena
    does (``PolicyBot``, ``arena.testing`` look them up by name), and the requirements of
    ``RUNTIME_EXTRAS`` (``extra``, ``Requires-Dist`` line)."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution("lostvalley-arena")
    except PackageNotFoundError:
        return [], []
    games = sorted((ep.name, ep.value) for ep in dist.entry_points
                   if ep.group == arena.PROJECT and ep.value.split(".")[0] in RUNTIME)
    extras: list[tuple[str, str]] = []
    for line in dist.requires or []:
        with contextlib.suppress(InvalidRequirement):
            marker = Requirement(line).marker
            extras.extend((extra, line) for extra in RUNTIME_EXTRAS
                          if marker is not None and marker.evaluate({"extra": extra}))
    return games, extras


def entry_point_modules(wheel: Path) -> list[str]:
    """The plugin modules a wheel declares in the ``arena`` entry point group.

    The file is the package's to write, and pip installs the wheel whatever it holds: one
    that ``configparser`` cannot read (a ``%`` in a value, which it took for an
    interpolation, a section or a name given twice, no section, text not in UTF-8) ended
    ``arena submit`` in a traceback once its environment was built. A ``%`` is now text, as
    in Python's own reading of entry points, and the rest is refused in one line."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        if not names:
            return []
        parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        try:
            parser.read_string(archive.read(names[0]).decode())
        except (configparser.Error, UnicodeDecodeError) as exc:
            raise ArenaError(f"{wheel.name}: its {names[0]} cannot be read: "
                             f"{one_line(exc)[:200]}") from None
    if not parser.has_section(arena.PROJECT):
        return []
    return [value.strip() for _, value in parser.items(arena.PROJECT)]


def _naming_problem(bot: dict[str, Any]) -> str | None:
    """Why a listed bot's name or game names cannot be registered (see
    :func:`arena.classes.name_problem`), or None."""
    games = bot.get("games")
    listed = games if isinstance(games, list) else []
    names = [(bot["name"], "bot")] + [(game, "game") for game in listed]
    return next((reason for name, what in names
                 if (reason := name_problem(name, what)) is not None), None)


def _listing_problem(bot: dict[str, Any]) -> str | None:
    """Why a listed bot's games or params cannot be kept (too many, or no list of names)."""
    for key in ("games", "params"):
        value = bot.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return f"bot {bot['name']!r}: its {key} are not a list of names"
        if len(value) > MAX_LISTED_NAMES:
            return (f"bot {bot['name']!r} names {len(value):,} {key}; a listed bot may name "
                    f"{MAX_LISTED_NAMES} at most")
    return None


def _listed(bot: dict[str, Any]) -> dict[str, Any]:
    """What the store keeps of a listed bot: what the arena reads of it, and no more."""
    return {"name": bot["name"], "games": bot.get("games"), "params": bot.get("params"),
            "observes": bool(bot.get("observes", True)),
            "doc": str(bot.get("doc", ""))[:DOC_CHARS]}


def _problems(problems: object) -> str:
    """What a plugin's catalog reported wrong, as ``arena bots`` shows it: each problem one
    line of at most 300 characters, ten at most (the report is the plugin's own code's, and
    the red team's import error of 3 MB was one line of 3,000,068 characters on the
    terminal)."""
    listed = problems if isinstance(problems, list) else [problems]
    shown = [one_line(problem) for problem in listed[:MAX_PROBLEMS]]
    if len(listed) > MAX_PROBLEMS:
        shown.append(f"and {len(listed) - MAX_PROBLEMS} more problems it reported")
    return "; ".join(shown)


def list_bots(wheel: Path, environment: Path, sandbox: str) -> list[dict[str, Any]]:
    """The bots the package registers, as sandboxed hosts in its environment report them."""
    modules = entry_point_modules(wheel)
    if not modules:
        raise ArenaError(f"{wheel.name} declares no [project.entry-points.arena] plugin module")
    bots: list[dict[str, Any]] = []
    for module in modules:
        host = HostProcess(module, ["--catalog"], Confinement(), sandbox, environment)
        try:
            report = host.receive(time.perf_counter() + 30, "listing the plugin")
        except SeatFault as fault:
            raise ArenaError(f"{module}: listing its bots failed: {fault}") from None
        finally:
            host.close()
        if report.get("problems"):
            raise ArenaError(f"{module}: {_problems(report['problems'])}")
        if report.get("games"):
            raise ArenaError(f"{module} registers games; a submitted package may register bots "
                             "only (games are installed by the organiser)")
        listed = report.get("bots")
        if not isinstance(listed, list) or not all(
                isinstance(bot, dict) and isinstance(bot.get("name"), str) and bot["name"]
                for bot in listed):
            raise ArenaError(f"{module}: its catalog is not a list of named bots")
        if len(bots) + len(listed) > MAX_BOTS:
            raise ArenaError(f"{wheel.name} registers {len(bots) + len(listed):,} bots; a "
                             f"submitted package may register {MAX_BOTS} at most")
        for bot in listed:
            reason = _naming_problem(bot) or _listing_problem(bot)
            if reason is not None:
                raise ArenaError(f"{module}: {reason}")
        bots += [{**_listed(bot), "module": module} for bot in listed]
    names = [bot["name"] for bot in bots]
    if not bots:
        raise ArenaError(f"{wheel.name} registers no bot")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ArenaError(f"{wheel.name} registers two bots named {twice[0]!r}")
    return bots


def _refuse_taken_names(submission: Submission, store: Path, found: Registry) -> None:
    for bot in submission.bots:
        installed = found.bots.get(bot["name"])
        if installed is not None and (installed.info is None or not installed.info.version):
            raise ArenaError(f"bot name {bot['name']!r} is taken by the installed "
                             f"{installed.plugin}; to submit this package instead, "
                             "pip uninstall that one first")
        for stored in read_entries(store):
            if stored.name == bot["name"] and (canonicalize_name(stored.package)
                                               != canonicalize_name(submission.package)):
                raise ArenaError(f"bot name {bot['name']!r} is taken by the stored package "
                                 f"{stored.package} {stored.version}")


def _with_candidate(found: Registry, submission: Submission) -> Registry:
    """``found`` plus the submitted bots, as the check plays them."""
    trial = Registry(games=dict(found.games), bots=dict(found.bots), sandboxed=True)
    for bot in submission.bots:
        info = BotInfo(
            name=bot["name"], games=None if bot.get("games") is None else tuple(bot["games"]),
            params=None if bot.get("params") is None else tuple(bot["params"]),
            observes=bool(bot.get("observes", True)),
            plugin=f"{submission.package} {submission.version} (submitted)",
            module=bot["module"], version=submission.version,
            environment=str(submission.folder / "env"),
        )
        trial.bots[bot["name"]] = Entry(None, info.plugin, info.module, info)
    return trial


def _report(submission: Submission) -> dict[str, Any]:
    return {
        "package": submission.package, "version": submission.version,
        "bots": submission.bots, "seconds": submission.seconds,
        "games": [{"game": game.game, "ok": game.ok, "failures": game.failures,
                   "seats": [asdict(seat) for seat in game.seats]}
                  for game in submission.reports],
    }


def _first_fault(submission: Submission) -> str:
    for game in submission.reports:
        for failure in game.failures:
            return f"{game.game}: {failure}"
        for seat in game.seats:
            if seat.status != "ok":
                return f"{game.game}: {seat.status}: {_last_line(seat.error or '')}"
    return "unknown"


def _build_error(text: str) -> str:
    """The last line of a failed build's output that is not pip's own framing around it."""
    framing = ("note:", "hint:", "error:", "\u00d7", "\u2570\u2500>", "[end of output]", "[notice]")
    lines = [line for line in text.splitlines() if not line.strip().startswith(framing)]
    return _last_line("\n".join(lines))


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


__all__ = ["Submission", "add_to", "submit"]


def _rejected_folder(store: Path, package: str, version: str) -> Path:
    """A new folder for a rejected submission's report, named for it and the time (a second
    rejection within the same second gets a suffix, not a traceback)."""
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S")
    base = store / ".rejected"
    base.mkdir(parents=True, exist_ok=True)
    name, suffix = f"{package}-{version}-{stamp}", 0
    while True:
        kept = base / (f"{name}-{suffix}" if suffix else name)
        try:
            kept.mkdir()
            return kept
        except FileExistsError:
            suffix += 1

