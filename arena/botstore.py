"""The bot store: the bots submitted with ``arena submit``, each version kept with its wheel,
its own environment and the report of its check.

Layout of a store folder (``--store DIR``, else ``$ARENA_STORE``, else
``$XDG_DATA_HOME/lostvalley-arena/store``, by default under ``~/.local/share``)::

    <package>/<version>/entry.json     what the arena knows of it (no import needed)
    <package>/<version>/<wheel>        the wheel it was built from
    <package>/<version>/env/           its own virtualenv: the wheel, its dependencies and
                                       the arena's bot-host runtime
    <package>/<version>/report.json    the check it passed
    .rejected/<package>-<version>-<time>/report.json   submissions whose check failed
    .staging/<pid>@<host>@<random>/    a submission being built, renamed to
                                       <package>/<version>/ when it is admitted
    .staging/<pid>@<host>@scratch-*/   its scratch work (build, downloaded wheels)

The driver and the Ray workers never import a stored bot: its name, games
and params come from ``entry.json``, written when it was submitted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from arena.classes import name_problem
from arena.errors import ArenaError, unknown_name
from arena.plugins import BotInfo, Entry, Problem, Registry

STORE_VARIABLE = "ARENA_STORE"
ENTRY = "entry.json"
STAGING = ".staging"
"""The store's folder in which ``arena submit`` builds a package version before admitting it
(renaming it into place); readers skip it, as every folder whose name starts with a dot."""


def default_store() -> Path:
    """Where the bot store is unless told otherwise."""
    if os.environ.get(STORE_VARIABLE):
        return Path(os.environ[STORE_VARIABLE])
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "lostvalley-arena" / "store"


@dataclass(frozen=True, slots=True)
class StoredBot:
    """One bot of one stored package version."""

    name: str
    version: str
    package: str
    games: tuple[str, ...] | None
    params: tuple[str, ...] | None
    observes: bool
    module: str
    doc: str
    submitted: str
    """When it was admitted (ISO 8601, UTC)."""
    folder: Path

    @property
    def environment(self) -> Path:
        return self.folder / "env"

    def info(self) -> BotInfo:
        return BotInfo(
            name=self.name, games=self.games, params=self.params, observes=self.observes,
            plugin=f"{self.package} {self.version} (bot store)", module=self.module,
            doc=self.doc, version=self.version, environment=str(self.environment),
        )


def sort_key(version: str) -> tuple[int, Any]:
    """Versions in release order (PEP 440); unparsable ones first, by text."""
    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, version)


DOC_CHARS = 200
"""What the store keeps of a bot's doc (its first paragraph, as a host sends it): the doc is
the bot's to write, and the red team's was 3 MB, kept by every command that read the store."""


def read_entries(store: Path) -> list[StoredBot]:
    """Every stored bot, oldest version first per package; unreadable entries are skipped."""
    bots: list[StoredBot] = []
    for path in sorted(store.glob(f"*/*/{ENTRY}")):
        if path.parent.parent.name.startswith("."):  # .staging: not admitted (yet)
            continue
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            for bot in entry["bots"]:
                games, params = bot.get("games"), bot.get("params")
                if name_problem(bot["name"]) is not None or not (
                        _names(games) and _names(params)):  # an entry edited since: not a bot
                    continue
                bots.append(StoredBot(
                    name=str(bot["name"]), version=str(entry["version"]),
                    package=str(entry["package"]),
                    games=None if games is None else tuple(games),
                    params=None if params is None else tuple(params),
                    observes=bool(bot.get("observes", True)), module=str(bot["module"]),
                    doc=str(bot.get("doc", ""))[:DOC_CHARS], submitted=str(entry["submitted"]),
                    folder=path.parent,
                ))
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            continue  # RecursionError: nested past what json decodes (arena bots raised it)
    bots.sort(key=lambda bot: (bot.name, sort_key(bot.version)))
    return bots


def _names(listed: object) -> bool:
    """Whether an entry's ``games`` or ``params`` are as the arena wrote them: None (all), or
    a list of names. ``[1, 2]``, edited in by hand, was taken, and ``arena bots`` ended in a
    ``TypeError`` traceback joining them (every command that lists the store read it)."""
    return listed is None or (isinstance(listed, list)
                              and all(isinstance(name, str) for name in listed))


def add_to(found: Registry, store: Path) -> None:
    """Register the stored bots in ``found``: ``name`` (the newest version) and ``name@version``.
    A stored name that an installed bot already has is skipped, with a problem."""
    found.store = str(store)
    for bot in read_entries(store):
        installed = found.bots.get(bot.name)
        if installed is not None and installed.info is not None and not installed.info.version:
            found.shadowed[bot.name] = f"{bot.package} {bot.version}"
            found.problems.append(Problem(
                f"{bot.package} {bot.version} (bot store)",
                f"bot name {bot.name!r} is taken by the installed {installed.plugin}",
            ))
            continue
        entry = Entry(None, bot.info().plugin, bot.module, bot.info())
        found.bots[bot.name] = entry  # versions come oldest first: the newest stays
        found.bots[f"{bot.name}@{bot.version}"] = entry


def remove(store: Path, spec: str) -> list[StoredBot]:
    """Take ``NAME`` (every version) or ``NAME@VERSION`` out of the store; what was removed."""
    name, _, version = spec.partition("@")
    stored = read_entries(store)
    chosen = [bot for bot in stored if bot.name == name and (not version or bot.version == version)]
    if not chosen:
        known = sorted({bot.name if not version else f"{bot.name}@{bot.version}" for bot in stored})
        raise unknown_name("stored bot", spec, known)
    for folder in {bot.folder for bot in chosen}:
        shutil.rmtree(folder)
        if not any(folder.parent.iterdir()):
            folder.parent.rmdir()
    return chosen


def require_store(store: Path) -> Path:
    """``store`` as a usable folder, or a clear error."""
    if store.exists() and not store.is_dir():
        raise ArenaError(f"bot store {store} is a file, not a folder")
    return store


SHIPPED_PREFIX = "arena_stored_"
"""The name of the folder in which a run on a cluster ships a stored bot's wheel."""


def _shipped_name(environment: str) -> str:
    """The shipping folder's name for the stored bot of ``environment``: readable, and one
    of its own. The package and version spelt with ``_`` alone were not: package
    ``arena-bot-x-0`` 1.0 and ``arena-bot-x`` 0.1.0 made one folder, and the first one's
    wheel was built for both on the nodes; a digest of the two tells every pair apart."""
    version_folder = Path(environment).parent
    package, version = version_folder.parent.name, version_folder.name
    text = "".join(c if c.isalnum() else "_" for c in f"{package}_{version}")
    digest = hashlib.sha256(f"{package}/{version}".encode()).hexdigest()[:16]
    return f"{SHIPPED_PREFIX}{text}_{digest}"


def file_digest(path: Path) -> str:
    """The SHA-256 of the file at ``path``, in hex."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def admitted_wheel(version_folder: Path) -> Path | None:
    """The wheel a stored version was admitted with, as its ``entry.json`` names it, checked
    against the digest kept there; None for an entry that keeps none (admitted before the
    digest was kept). A wheel that differs is refused: built on a cluster's nodes, it would
    play there, unchecked, while the store's own environment plays here."""
    try:
        entry = json.loads((version_folder / ENTRY).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    name = entry.get("wheel") if isinstance(entry, dict) else None
    digest = entry.get("wheel_sha256") if isinstance(entry, dict) else None
    if not isinstance(name, str) or not isinstance(digest, str):
        return None
    wheel = version_folder / name
    try:
        same = Path(name).name == name and file_digest(wheel) == digest
    except OSError:
        same = False
    if not same:
        raise ArenaError(f"{wheel}: not the wheel this bot was admitted with (its digest is "
                         f"not the one in {version_folder / ENTRY}): the store was changed "
                         f"since; submit the package again")
    return wheel


DEPENDENCIES = "dependencies.json"
"""The file beside a shipped wheel that holds the dependencies its bot was admitted with."""


def admitted_dependencies(version_folder: Path) -> dict[str, str] | None:
    """The dependencies a stored version was admitted with, ``{name: version}``, as its
    ``entry.json`` keeps them; None for an entry that keeps none (admitted before they were
    kept), whose environment is built as the wheel's requirements resolve."""
    try:
        entry = json.loads((version_folder / ENTRY).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return _pins(entry.get("dependencies") if isinstance(entry, dict) else None)


def _pins(value: object) -> dict[str, str] | None:
    if isinstance(value, dict) and all(isinstance(name, str) and isinstance(version, str)
                                       for name, version in value.items()):
        return dict(value)
    return None


def shipping_folder(environment: str, staging: Path) -> Path:
    """A folder under ``staging`` holding the wheel of the stored bot whose environment is
    ``environment``, for a run to ship to its nodes (Ray's ``py_modules``): the wheel it was
    admitted with (:func:`admitted_wheel`, checked every time), and the dependencies it was
    admitted with (:data:`DEPENDENCIES`), to which a node's build is held."""
    version_folder = Path(environment).parent
    admitted = admitted_wheel(version_folder)
    target = staging / _shipped_name(environment)
    if not target.exists():
        target.mkdir(parents=True)
        for wheel in [admitted] if admitted else version_folder.glob("*.whl"):
            shutil.copy2(wheel, target / wheel.name)
        pins = admitted_dependencies(version_folder)
        if pins is not None:
            (target / DEPENDENCIES).write_text(json.dumps(pins, sort_keys=True) + "\n")
    return target


def shipped_dependencies(wheel: Path) -> dict[str, str] | None:
    """The dependencies shipped beside the shipped ``wheel`` (see :func:`shipping_folder`);
    None where none were (a bot admitted before they were kept)."""
    try:
        return _pins(json.loads((wheel.parent / DEPENDENCIES).read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError):
        return None


def shipped_wheel(environment: str, search: list[str]) -> Path | None:
    """On a node, the wheel a run shipped for the stored bot of ``environment``, found on
    the ``search`` path (``sys.path``, where Ray puts shipped folders); None if absent. Only
    a wheel of that bot's package and version is taken (another's would play in its seats)."""
    name = _shipped_name(environment)
    version_folder = Path(environment).parent
    own = f"{version_folder.parent.name}-{version_folder.name}-"
    for entry in search:
        wheels = sorted(wheel for wheel in (Path(entry or ".") / name).glob("*.whl")
                        if wheel.name.startswith(own))
        if wheels:
            return wheels[0]
    return None


def node_environment(environment: str, wheel: Path, pinned: dict[str, str] | None = None
                     ) -> Path:
    """Where a node caches the environment of a stored bot that it built from the shipped
    ``wheel`` and the dependencies ``pinned`` with it: a folder per package, version, wheel
    and dependencies (a digest of the two).

    A cached environment is used as it is, never checked again. Kept per package and version
    alone, it outlived what it was built from: a package taken out of the store (``arena
    store remove``) and another admitted under its name and version (a squatter's name given
    back to its owner, a store of tests and the real one) shipped the new wheel, and the
    nodes played the old package's code in its seats, under the new one's name."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    version_folder = Path(environment).parent
    built = hashlib.sha256(f"{_digest_of(wheel)} {json.dumps(pinned, sort_keys=True)}".encode())
    return (Path(cache) / "lostvalley-arena" / "environments" / version_folder.parent.name
            / version_folder.name / built.hexdigest()[:32] / "env")


def _digest_of(wheel: Path) -> str:
    """:func:`file_digest` of ``wheel``, worked out once per file as it is (every seat of a
    stored bot on a node asks, and a wheel may hold 256 MiB)."""
    info = wheel.stat()
    return _cached_digest(str(wheel), info.st_size, info.st_mtime_ns, info.st_ino)


@functools.lru_cache(maxsize=64)
def _cached_digest(path: str, size: int, mtime: int, inode: int) -> str:
    return file_digest(Path(path))
