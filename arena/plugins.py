"""Discovery of games and bots from the ``arena`` entry point group.

The shipped games and bots are found exactly the way a stranger's package
is: through its distribution's entry points. Entry points are loaded one by
one, and each plugin's hook is called on its own, so a plugin that fails to
import, raises, or registers something broken is recorded as a
:class:`Problem` and skipped; it never stops the program.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, distributions, entry_points
from types import ModuleType
from typing import Any

import pluggy

from arena import PROJECT, hookspecs
from arena.classes import (
    accepted_params,
    bot_problem,
    game_problem,
    hook_problems,
)
from arena.errors import ArenaError, unknown_name
from arena.game import Game
from arena.records import plain


@dataclass(frozen=True, slots=True)
class Problem:
    """A plugin, or a class it registered, that was skipped, and why."""

    plugin: str
    reason: str


@dataclass(frozen=True, slots=True)
class BotInfo:
    """What the arena knows of a bot without running it: enough to check a config."""

    name: str
    games: tuple[str, ...] | None
    """The games it plays; None: every game."""
    params: tuple[str, ...] | None
    """The keyword params its constructor names; None: it takes any."""
    observes: bool
    plugin: str
    """``dist-name version:entry-point`` of the plugin that registered it."""
    module: str
    """The plugin module (the entry point's value) that registers it."""
    doc: str = ""
    version: str = ""
    """For a bot from the bot store: the version of its package."""
    environment: str = ""
    """For a bot from the bot store: its own virtualenv."""

    def supports(self, game: str) -> bool:
        return self.games is None or game in self.games


@dataclass(frozen=True, slots=True)
class Entry:
    """A registered game or bot class and the plugin that provided it. A bot found by a
    sandboxed catalog has no class here (``cls`` is None), only its :class:`BotInfo`."""

    cls: type | None
    plugin: str
    module: str = ""
    info: BotInfo | None = None


@dataclass(slots=True)
class Registry:
    """What discovery found: games and bots by name, and the problems met."""

    games: dict[str, Entry] = field(default_factory=dict)
    bots: dict[str, Entry] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    sandboxed: bool = False
    """True if the bots were found by sandboxed hosts (no bot class was imported here)."""
    store: str = ""
    """The bot store whose bots were added ("" if none was read)."""
    shadowed: dict[str, str] = field(default_factory=dict)
    """Stored bot names that an installed bot already has: name -> the stored package."""

    def game(self, name: str) -> Game:
        """A new instance of the game registered as ``name``."""
        entry = self.games.get(name)
        if entry is None or entry.cls is None:
            raise self._unknown("game", name, self.games)
        game: Game = entry.cls()
        return game

    def bot(self, name: str) -> type:
        """The bot class registered as ``name`` (only where bots were imported, trusted)."""
        entry = self.bots.get(name)
        if entry is None:
            raise self._unknown("bot", name, self.bots)
        if entry.cls is None:
            raise ArenaError(f"bot {name!r} was found by a sandboxed host; its class is not here")
        return entry.cls

    def bot_info(self, name: str) -> BotInfo:
        """What is known of the bot registered as ``name``."""
        entry = self.bots.get(name)
        if entry is None:
            raise self._unknown("bot", name, self.bots)
        if entry.info is not None:
            return entry.info
        cls: Any = entry.cls
        games = getattr(cls, "games", None)
        params = accepted_params(cls)
        return BotInfo(
            name=name, games=None if games is None else tuple(games),
            params=None if params is None else tuple(params),
            observes=bool(getattr(cls, "observes", True)), plugin=entry.plugin,
            module=entry.module, doc=(inspect.getdoc(cls) or "").split("\n\n")[0],
        )

    def _unknown(self, kind: str, name: str, known: dict[str, Entry]) -> ArenaError:
        error = unknown_name(kind, name, known)
        if self.problems:
            error.args = (
                f"{error}; {len(self.problems)} plugin problem(s) were skipped, "
                f"see 'arena {kind}s'",
            )
        if kind == "bot" and self.store:
            error.args = (f"{error}; the bot store read was {self.store} (another: --store "
                          "DIR or ARENA_STORE)",)
        if kind == "bot" and (elsewhere := misgrouped(name)):
            error.args = (f"{error}; {elsewhere}",)
        return error


SCRIPT_GROUPS = ("console_scripts", "gui_scripts")


def misgrouped(name: str) -> str | None:
    """A hint for a bot that is not found: an installed package's entry point of that name, or
    one in a group named like the arena's, that the arena never reads (a bot package whose
    ``pyproject.toml`` says ``[project.entry-points."arena.bots"]`` or ``arena_bots``)."""
    for dist in distributions():
        for entry_point in dist.entry_points:
            group = entry_point.group
            if group == PROJECT or group in SCRIPT_GROUPS:
                continue
            if entry_point.name == name or group.lower().startswith(PROJECT):
                return (f"{dist.metadata['Name']} {dist.version} declares the entry point "
                        f"{entry_point.name} = {entry_point.value} in group {group!r}, which "
                        f"the arena does not read: its group is {PROJECT!r} "
                        f"([project.entry-points.{PROJECT}] in pyproject.toml)")
    return None


def plugin_name(entry_point: EntryPoint) -> str:
    """``dist-name version:entry-point-name``, or just the entry point's name; as plain text
    (a package's metadata is its author's: its entry point's name may hold terminal codes)."""
    dist = entry_point.dist
    if dist is None:
        return plain(entry_point.name)
    return plain(f"{dist.name} {dist.version}:{entry_point.name}")


def _registrar(
    table: dict[str, Entry],
    problems: list[Problem],
    plugin: str,
    check: Callable[[Any], str | None],
    module: str = "",
) -> Callable[[type], None]:
    """The ``register`` callback handed to one plugin's hook."""

    def register(cls: type) -> None:
        reason = check(cls)
        name = getattr(cls, "name", "")
        if reason is None and name in table:
            first = table[name].plugin
            reason = f"name {name!r} already registered by {first}"
            if first != plugin and table[name].cls is not None:
                # Claimed by two plugins: neither may pass itself off as the other's.
                table[name] = Entry(None, f"{first}, {plugin}", "")
                reason = (f"name {name!r} is claimed by several plugins ({first}); none of "
                          "them is loaded")
        if reason is not None:
            problems.append(Problem(plugin, reason))
            return
        table[cls.name] = Entry(cls, plugin, module)  # type: ignore[attr-defined]

    return register


def _load(entry_points_: list[EntryPoint], problems: list[Problem]) -> pluggy.PluginManager:
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(hookspecs)
    for entry_point in entry_points_:
        name = plugin_name(entry_point)
        try:
            module = entry_point.load()
        except Exception as exc:  # a broken plugin must not stop the arena
            problems.append(Problem(name, f"failed to load: {type(exc).__name__}: {exc}"))
            continue
        problems.extend(Problem(name, reason) for reason in hook_problems(module)[1])
        if isinstance(module, ModuleType):
            try:
                manager.register(module, name=name)
            except Exception as exc:
                problems.append(Problem(name, f"failed to load: {type(exc).__name__}: {exc}"))
    return manager


def _call_each(
    manager: pluggy.PluginManager,
    hook_name: str,
    table: dict[str, Entry],
    problems: list[Problem],
    check: Callable[[Any], str | None],
) -> None:
    for impl in getattr(manager.hook, hook_name).get_hookimpls():
        module = getattr(impl.plugin, "__name__", "")
        register = _registrar(table, problems, impl.plugin_name, check, module)
        try:
            impl.function(register=register)
        except Exception as exc:  # one plugin's bug must not hide the others
            problems.append(Problem(impl.plugin_name, f"{hook_name} raised {exc!r}"))


def discover(entry_points_: list[EntryPoint] | None = None) -> Registry:
    """Load every plugin in the ``arena`` entry point group, one by one."""
    if entry_points_ is None:
        entry_points_ = sorted(entry_points(group=PROJECT), key=lambda ep: ep.name)
    registry = Registry()
    manager = _load(entry_points_, registry.problems)
    _call_each(manager, "arena_register_games", registry.games, registry.problems, game_problem)
    _call_each(manager, "arena_register_bots", registry.bots, registry.problems, bot_problem)
    for table in (registry.games, registry.bots):
        for name in [name for name, entry in table.items() if entry.cls is None]:
            del table[name]  # claimed by several plugins
    return registry


@functools.cache
def registry() -> Registry:
    """The process-wide registry, discovered once (in the CLI and in each Ray worker)."""
    return discover()


def require_registry() -> Registry:
    """The registry, or an :class:`ArenaError` if nothing at all is installed."""
    found = registry()
    if not found.games and not found.bots:
        raise nothing_loaded(found)
    return found


def nothing_loaded(found: Registry) -> ArenaError:
    """The error for a discovery that found no game and no bot: nothing installed, or every
    plugin refused (then the first reasons)."""
    if not found.problems:
        return ArenaError("no games or bots are installed (see the README's set-up command)")
    shown = "; ".join(f"{problem.plugin}: {problem.reason}" for problem in found.problems[:3])
    more = f" (and {len(found.problems) - 3} more)" if len(found.problems) > 3 else ""
    return ArenaError(f"no game or bot could be loaded: {len(found.problems)} plugin "
                      f"problem(s): {shown}{more}")


@functools.cache
def trusted_game(module: str, name: str) -> Game:
    """The game ``name`` registered by the plugin ``module``, importing that module alone."""
    found = discover([EntryPoint(name=module, value=module, group=PROJECT)])
    return found.game(name)
