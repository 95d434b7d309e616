"""Other plugins' files, hidden from a sandbox that binds a Python environment whole.

A bubblewrap host of an installed bot binds the arena's virtualenv read-only, and with it
every package installed there: ``pip install ./their-bot`` puts a bot's code and data files
(a model, a table of values) in that environment's ``site-packages``, where the host of every
other bot read them (the red team's bot read another bot's source in each match, and a
submitted package's build, sandboxed the same way, could copy it into its own wheel). So
each distribution there that registers ``arena`` plugins is hidden, the files it installed
reading empty and its folders listing nothing, from every sandbox but those of its own bots
and of the bots that require it (a bot of a third-party game that imports the game's
engine names that game's package among its ``dependencies``); and so is each distribution
it requires that the host neither requires nor gets with the arena: a library of the bot's
author may hold its code (the red team's bot read one so). The arena's own distribution
(and what it requires) is never hidden, nor a distribution's metadata (``*.dist-info``: its
name, version and the hashes of its files, which ``importlib.metadata`` reads in every
host).
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
import sys
from collections.abc import Iterable
from pathlib import Path

PLUGIN_GROUP = "arena"
"""The entry point group of the arena's plugins."""

ARENA_DISTRIBUTION = "lostvalley-arena"


def canonical(name: str) -> str:
    """A distribution's name as packaging compares them (``Arena_Bot.X`` is ``arena-bot-x``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def hidden_arguments(plugin: str | None, roots: Iterable[Path]) -> list[str]:
    """bubblewrap's arguments hiding what :func:`foreign_files` finds under ``roots`` (the
    folders the sandbox binds whole): files read empty, folders list nothing, read-only;
    and the bytecode folder beside each module file among them (:func:`bytecode_folders`)."""
    from arena.seats.sandbox import EMPTY_FILE

    found = foreign_files(plugin, tuple(sorted(root.resolve() for root in roots)))
    caches = bytecode_folders(found)
    args: list[str] = []
    for cache in caches:
        args += ["--tmpfs", str(cache)]
        for kept in others_bytecode(cache, found):  # (-try: one removed meanwhile is left)
            args += ["--ro-bind-try", str(kept), str(kept)]
        args += ["--remount-ro", str(cache)]
    for path in found:
        if path.parent in caches:
            continue  # in a folder hidden whole already
        if path.is_dir():
            args += ["--tmpfs", str(path), "--remount-ro", str(path)]
        elif path.is_file():
            args += ["--ro-bind", str(EMPTY_FILE), str(path)]
    return args


def bytecode_folders(found: Iterable[Path]) -> list[Path]:
    """The ``__pycache__`` folders beside the module files of ``found`` (other plugins'
    files): each lists nothing in a sandbox that hides them, whatever it holds or comes to
    hold while the sandbox lives.

    A distribution that is a single module (``py-modules``) puts its file straight in
    ``site-packages``, whose ``__pycache__`` every module installed there shares, and only what
    its installer compiled is in its ``RECORD`` (pip's ``--no-compile`` and uv compile
    nothing): the bytecode the arena writes when it first seats the bot
    (:func:`arena.seats.sandbox.compiled`), or Python when it imports it, was nobody's. The
    red team's bot read another bot's module there, its source reading empty, and found its
    secret strategy in the bytecode (every constant and name of the module is in it, and it
    decompiles). Hiding each such file as it is found would not do: a host lives on in the
    pool, its folders bound live, and reads the bytecode written after it started. The
    bytecode the folder holds of its other modules then is bound back
    (:func:`others_bytecode`); what is written later is not seen."""
    folders: list[Path] = []
    for path in found:
        cache = path.parent / "__pycache__"
        if path.suffix == ".py" and cache not in folders and cache.is_dir():
            folders.append(cache)
    return folders


def others_bytecode(cache: Path, found: Iterable[Path]) -> list[Path]:
    """The bytecode files in the ``__pycache__`` folder ``cache`` now of modules that are not
    among ``found`` (other plugins' files): those of the modules the host may import from
    that folder (the arena's own editable-install finder, at every start), which it would
    compile again at each import instead (6.6 ms for that finder on a loaded machine)."""
    foreign = {path.stem for path in found if path.parent == cache.parent}
    foreign |= {path.name for path in found if path.parent == cache}
    try:
        entries = sorted(cache.iterdir())
    except OSError:
        return []
    return [entry for entry in entries if entry.suffix == ".pyc" and entry.is_file()
            and not entry.is_symlink() and entry.name not in foreign
            and entry.name.split(".", 1)[0] not in foreign]


@functools.cache
def foreign_files(plugin: str | None, roots: tuple[Path, ...]) -> tuple[Path, ...]:
    """The files and top-level folders, under ``roots``, of each installed distribution that
    registers ``arena`` plugins and that the host of ``plugin`` (a plugin module; None: no
    bot, such as a submitted package's build) does not need: not the arena's, not the one
    providing ``plugin``, not one that one requires (read once a process and plugin)."""
    needed = needed_distributions(plugin) if plugin else {ARENA_DISTRIBUTION}
    arenas = _arena_needs()  # what the arena imports, every host may
    foreign: list[importlib.metadata.Distribution] = []
    others: dict[str, importlib.metadata.Distribution] = {}
    common: list[importlib.metadata.Distribution] = []
    kept: set[Path] = set()
    for distribution in importlib.metadata.distributions():
        name = _name(distribution)
        if name in needed:
            kept.update(_entries(distribution))
        elif name and _registers_plugins(distribution):
            foreign.append(distribution)
        elif name in arenas:
            common.append(distribution)
        elif name:
            others.setdefault(name, distribution)
    # What another plugin's distribution requires, and not this host nor the arena, is that
    # bot's too: a bot's author may keep its code in a library of its own, which registers
    # nothing.
    helpers = 0
    wanted = [need for distribution in foreign for need in _requires(distribution)]
    while wanted:
        helper = others.pop(wanted.pop(), None)
        if helper is not None:
            foreign.append(helper)
            helpers += 1
            wanted += _requires(helper)
    if helpers:  # a folder it shares with what the arena imports (a namespace package) stays
        for distribution in common:
            kept.update(_tops(distribution))
    found: list[Path] = []
    for distribution in foreign:
        # A folder shared with what the host needs (a namespace package) has only the
        # foreign distribution's own files in it hidden.
        for path in _installed(distribution, frozenset(kept)):
            if path not in found and any(root in path.parents for root in roots):
                found.append(path)
    return tuple(found)


def needed_distributions(plugin: str) -> set[str]:
    """The arena's distribution, the ones providing ``plugin``'s top-level module, and what
    they require, and so on (canonical names)."""
    top = plugin.partition(":")[0].split(".")[0]
    return {ARENA_DISTRIBUTION} | _closure([canonical(name)
                                            for name in _providers().get(top, [])])


@functools.cache
def _arena_needs() -> frozenset[str]:
    """The arena's distribution and what it requires, and so on (its extras' too)."""
    return frozenset(_closure([ARENA_DISTRIBUTION]))


def _closure(names: list[str]) -> set[str]:
    """The distributions ``names``, what they require, and so on (canonical names)."""
    wanted, found = list(names), set()
    while wanted:
        name = wanted.pop()
        if name in found:
            continue
        found.add(name)
        wanted += _requirements(name)
    return found


@functools.cache
def _providers() -> dict[str, list[str]]:
    return dict(importlib.metadata.packages_distributions())


@functools.cache
def _requirements(distribution: str) -> list[str]:
    try:
        return _requires(importlib.metadata.distribution(distribution))
    except importlib.metadata.PackageNotFoundError:
        return []


def _requires(distribution: importlib.metadata.Distribution) -> list[str]:
    """The canonical names of what ``distribution`` requires (its extras' included)."""
    try:
        needs = distribution.requires or []
    except Exception:  # metadata an installer left broken: nothing to go by
        return []
    return [canonical(re.split(r"[^A-Za-z0-9._-]", need, maxsplit=1)[0]) for need in needs]


def _name(distribution: importlib.metadata.Distribution) -> str:
    """Its canonical name: the ``Name:`` line of its metadata, read as text (parsing each
    distribution's metadata as an e-mail, as ``.metadata`` does, was a third of the time a
    host's start spent here)."""
    try:
        text = distribution.read_text("METADATA") or distribution.read_text("PKG-INFO") or ""
        found = re.search(r"^Name:[ \t]*(\S.*?)[ \t]*$", text.partition("\n\n")[0], re.M)
        if found:
            return canonical(found[1])
        return canonical(distribution.metadata["Name"] or "")
    except Exception:  # no metadata at all: nothing to go by
        return ""


def _registers_plugins(distribution: importlib.metadata.Distribution) -> bool:
    try:
        return any(entry.group == PLUGIN_GROUP for entry in distribution.entry_points)
    except Exception:  # metadata an installer left broken: nothing to go by
        return False


def _installed(distribution: importlib.metadata.Distribution,
               shared: frozenset[Path]) -> list[Path]:
    """What ``distribution`` installed, its metadata folder left out: each top-level entry
    of its ``site-packages`` (a package's folder, a module, a ``.pth`` file), but each file
    of it under one of ``shared``, and each file it put elsewhere (``../../../share/...``).
    Without a ``RECORD``, the top-level modules ``top_level.txt`` and its entry points
    name."""
    base = Path(str(distribution.locate_file(""))).resolve()
    files = distribution.files
    found: list[Path] = []
    if files is None:
        names = set((distribution.read_text("top_level.txt") or "").split())
        names |= {entry.value.partition(":")[0].split(".")[0]
                  for entry in distribution.entry_points}
        for name in sorted(names):
            found += [path for path in (base / name, base / f"{name}.py")
                      if path.exists() and path not in shared]
        return found
    for file in files:
        parts = Path(str(file)).parts
        if not parts or parts[0].endswith((".dist-info", ".egg-info")):
            continue
        path = base / parts[0]
        if parts[0] in ("..", "__pycache__") or path in shared:
            path = (base / Path(str(file))).resolve()  # elsewhere, bytecode, a shared folder
        if path not in found and path != base and (path.exists() or path.is_symlink()):
            found.append(path)
    return found


def _entries(distribution: importlib.metadata.Distribution) -> frozenset[Path]:
    """What :func:`_installed` finds of a distribution a host needs (its top-level entries
    and what it put elsewhere), read from its ``RECORD`` as text and once a process: the
    host of an installed bot needs the arena's requirements, Ray's 18,000 files among them,
    and reading them as ``importlib.metadata`` paths for each bot took 0.8 s of every
    host's start (6 s for ``arena check`` of an unknown bot, which lists the store's)."""
    record = distribution.read_text("RECORD") or ""
    key = (str(distribution.locate_file("")), _name(distribution), hash(record))
    if key not in _ENTRIES:  # a distribution reinstalled in its place is read again
        tops = _tops(distribution, record)
        _ENTRIES[key] = frozenset(
            [path for path in tops if path.exists() or path.is_symlink()] if tops
            else _installed(distribution, frozenset()))  # no RECORD: what else it names
    return _ENTRIES[key]


_ENTRIES: dict[tuple[str, str, int], frozenset[Path]] = {}


def _tops(distribution: importlib.metadata.Distribution, record: str | None = None
          ) -> set[Path]:
    """The top-level entries of ``site-packages`` that ``distribution`` installed in, read
    from its ``RECORD`` as text (quicker than :func:`_installed` for one of many files, as
    Ray's are; ``record``: that text, read already), and each file it put elsewhere."""
    base = Path(str(distribution.locate_file(""))).resolve()
    tops: set[str] = set()
    found: set[Path] = set()
    if record is None:
        record = distribution.read_text("RECORD") or ""
    for line in record.splitlines():
        name = line.rsplit(",", 2)[0]
        top = name.split("/", 1)[0]
        if top in ("..", "__pycache__"):
            found.add((base / name).resolve())
        elif top and not top.endswith((".dist-info", ".egg-info")):
            tops.add(top)  # a path made once a top, not once a file
    return found | {base / top for top in tops}


def environment_roots(environment: Path | None) -> list[Path]:
    """The folders a host binds whole: the base Python installation and the arena's
    virtualenv, or a stored bot's own environment."""
    roots = [Path(sys.base_prefix)]
    roots.append(environment if environment is not None else Path(sys.prefix))
    return roots
