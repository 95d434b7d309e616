"""Finding out what the installed plugins register without running bot code here.

With sandboxed seats, no bot code may run in the driver or a Ray worker, not
even a bot plugin's import. So each plugin module of the ``arena`` entry
point group is loaded on its own in a sandboxed bot host (``--catalog``),
which reports the games and bots it registers. Each host sees only its own
plugin, so a hostile one can lie only about itself. The plugins that
register games and no bots are then imported here, trusted, for their games
(games are the organiser's installs, and their engines run in the referee);
a plugin that registers both, or whose distribution (package) also registers
bots through another entry point, is refused its games, and a game claimed by
two plugins is refused. A bot name claimed by two plugins is refused too,
both times, so that no plugin can pass itself off as another's bot. Each
host has ``CATALOG_SECONDS`` of its own. The result is cached per process.
"""

from __future__ import annotations

import functools
import time
from importlib.metadata import EntryPoint, entry_points

from arena import PROJECT
from arena.classes import name_problem
from arena.plugins import BotInfo, Entry, Problem, Registry, discover, plugin_name
from arena.records import Limits, SeatSpec
from arena.seats import SeatFault
from arena.seats.process import HostProcess
from arena.seats.sandbox import Confinement

CATALOG_SECONDS = 20.0
"""How long one plugin's sandboxed catalog may take (the hosts run side by side)."""
GRACE_SECONDS = 1.0
"""Once another plugin used up the time, how long a host's answer is still waited for."""


def installed_entry_points() -> list[EntryPoint]:
    """The ``arena`` entry points, by name (read from metadata: nothing is imported)."""
    return sorted(entry_points(group=PROJECT), key=lambda ep: ep.name)


def _ask(hosts: list[tuple[EntryPoint, HostProcess]]) -> list[tuple[EntryPoint, dict[str, object]]]:
    """Each host's catalog, or a problem report for a host that failed."""
    reports = []
    deadline = time.perf_counter() + CATALOG_SECONDS
    for entry_point, host in hosts:
        try:
            # The hosts started together: one that answered in time while a slow one was
            # waited for has its answer in its pipe already, read with a short grace.
            report = host.receive(max(deadline, time.perf_counter() + GRACE_SECONDS),
                                  "listing what the plugin registers")
        except SeatFault as fault:
            report = {"problems": [f"its sandboxed catalog failed: {fault}"]}
        finally:
            host.close()
        reports.append((entry_point, report))
    return reports


def catalog(entry_points_: list[EntryPoint] | None = None, sandbox: str = "auto") -> Registry:
    """Games (imported, trusted) and bots (described by sandboxed hosts) of every plugin."""
    found = Registry(sandboxed=True)
    entry_points_ = installed_entry_points() if entry_points_ is None else entry_points_
    hosts = [(ep, HostProcess(ep.value, ["--catalog"], Confinement(), sandbox))
             for ep in entry_points_]
    game_plugins: dict[str, list[EntryPoint]] = {}
    reports = _ask(hosts)
    with_bots = {_distribution(ep) for ep, report in reports
                 if any(isinstance(b, dict) for b in _list(report.get("bots")))}
    claims: dict[str, list[tuple[str, str, dict[object, object]]]] = {}
    for entry_point, report in reports:
        name = plugin_name(entry_point)
        problems = _list(report.get("problems"))
        found.problems.extend(Problem(name, one_line(problem))
                              for problem in problems[:MAX_PROBLEMS])
        if len(problems) > MAX_PROBLEMS:
            found.problems.append(Problem(name, f"and {len(problems) - MAX_PROBLEMS} more "
                                                "problems it reported"))
        games = [g for g in _list(report.get("games")) if isinstance(g, dict)]
        bots = [b for b in _list(report.get("bots")) if isinstance(b, dict)]
        if games and bots:
            found.problems.append(Problem(name, "registers games and bots in one plugin module; "
                                                "its games are not loaded (split the module)"))
        elif games and _distribution(entry_point) in with_bots:
            found.problems.append(Problem(
                name, f"its package {_distribution(entry_point)} also registers bots; games "
                      "from a bot's package are not loaded (bot code never runs in the referee)"))
        elif games:
            for game in games:
                game_plugins.setdefault(str(game.get("name")), []).append(entry_point)
        for bot in bots:
            claims.setdefault(str(bot.get("name")), []).append((name, entry_point.value, bot))
    for bot_name, claimants in claims.items():
        plugins = list(dict.fromkeys(plugin for plugin, _, _ in claimants))
        if len(plugins) > 1:
            found.problems.append(Problem(", ".join(plugins), (
                f"bot name {bot_name!r} is claimed by several plugins; none of them is loaded "
                "(uninstall the one that should not have it)")))
            continue
        for plugin, module, bot in claimants:
            _add_bot(found, plugin, module, bot)
    _load_games(found, game_plugins)
    return found


MAX_PROBLEMS = 10
"""The most problems a plugin's host may report; the host is the plugin's own code, and
whatever it says is printed (``arena bots``, ``arena run``, ``arena submit``)."""


def one_line(problem: object) -> str:
    """A problem a host reported, as one line of at most 300 characters: a line break of its
    own would start a line that reads as another plugin's problem."""
    return " ".join(str(problem).split())[:300]


def _distribution(entry_point: EntryPoint) -> str:
    """The package an entry point comes from (its module if it has no distribution)."""
    dist = entry_point.dist
    return dist.name if dist is not None else entry_point.value


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _add_bot(found: Registry, plugin: str, module: str, bot: dict[object, object]) -> None:
    name = bot.get("name")
    reason = name_problem(name)
    if reason is not None:
        found.problems.append(Problem(plugin, reason))
        return
    assert isinstance(name, str)
    games = bot.get("games")
    if isinstance(games, list):
        for game in games:
            reason = name_problem(game, "game")
            if reason is not None:
                found.problems.append(Problem(plugin, f"bot {name!r}: {reason}"))
                return
    if name in found.bots:
        found.problems.append(Problem(
            plugin, f"name {name!r} already registered by {found.bots[name].plugin}"))
        return
    params = bot.get("params")
    info = BotInfo(
        name=name,
        games=None if not isinstance(games, list) else tuple(str(g) for g in games),
        params=None if not isinstance(params, list) else tuple(str(p) for p in params),
        observes=bool(bot.get("observes", True)),
        plugin=plugin,
        module=module,
        doc=str(bot.get("doc", ""))[:200],
    )
    found.bots[name] = Entry(None, plugin, module, info)


def _load_games(found: Registry, game_plugins: dict[str, list[EntryPoint]]) -> None:
    trusted: list[EntryPoint] = []
    for game, providers in sorted(game_plugins.items()):
        # Two entry points naming one module are one plugin (the module is imported once).
        providers = list({provider.value: provider for provider in providers}.values())
        if len(providers) > 1:
            names = ", ".join(plugin_name(ep) for ep in providers)
            found.problems.append(Problem(names, f"game {game!r} is claimed by several plugins; "
                                                 "none of them is loaded"))
        elif providers[0] not in trusted:
            trusted.append(providers[0])
    loaded = discover(trusted)
    found.games.update(loaded.games)
    found.problems.extend(loaded.problems)


@functools.cache
def sandboxed_registry(sandbox: str = "auto") -> Registry:
    """The process-wide sandboxed catalog, made once."""
    return catalog(sandbox=sandbox)


def probe(seat: SeatSpec, game: str, players: int, limits: Limits) -> str | None:
    """Start ``seat``'s bot once in a sandboxed host with its params; what went wrong, or None."""
    from arena.seats.process import ProcessSeat

    start = {"game": game, "seat": 0, "num_players": players, "seed": 0,
             "params": dict(seat.params)}
    try:
        opened = ProcessSeat(bot=seat.bot.partition("@")[0], plugin=seat.plugin, start=start,
                             confinement=Confinement(memory_mb=limits.memory_mb,
                                                     cpus=limits.cpus),
                             sandbox=limits.sandbox, startup_seconds=limits.startup_seconds,
                             environment=seat.environment)
    except SeatFault as fault:
        return _last_line(str(fault))
    opened.close(None)
    return None


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else text
