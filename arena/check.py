"""``arena check BOT``: what a bot author runs before submitting a bot.

The bot is loaded through its entry point in a sandboxed host, exactly as a
tournament seats it, and plays a few short matches in every installed game
it supports: against itself and against ``random``, with the fewest and the
most players the game takes, and with each option that is off by default
turned on. No Ray is involved.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from arena.errors import ArenaError, closest, unknown_name
from arena.match import EngineError, refereed
from arena.plugins import Registry
from arena.records import Limits, MatchSpec, SeatSpec
from arena.schedule import derive_seed

OPPONENT = "random"


@dataclass(slots=True)
class SeatReport:
    """How the checked bot did in one seat of one match."""

    match: str
    table: str
    """The match's seats and the options it was played with (``"4 seats, advanced"``)."""
    opponents: str
    status: str
    decisions: int
    think_seconds: float
    worst_seconds: float
    startup_seconds: float
    peak_kb: int
    error: str | None
    output: str


@dataclass(slots=True)
class GameReport:
    game: str
    seed: int = 0
    """The check's seed (``arena check --seed`` plays the same matches again)."""
    seats: list[SeatReport] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and all(seat.status == "ok" for seat in self.seats)


def _matchups(bot: str, players: int, found: Registry) -> list[tuple[str, ...]]:
    """Itself in every seat, then against ``random`` (if installed) in the other seats."""
    lineups = [(bot,) * players]
    if OPPONENT in found.bots and bot != OPPONENT:
        lineups.append((bot,) + (OPPONENT,) * (players - 1))
        lineups.append((OPPONENT,) * (players - 1) + (bot,))
    return lineups


def _tables(game: Any) -> list[tuple[int, dict[str, Any]]]:
    """The seat counts and options a bot is checked with in ``game``: the fewest players
    with no options, the most players, then the fewest with each option that is off by
    default turned on (Explorers' advanced game, with its other actions)."""
    tables: list[tuple[int, dict[str, Any]]] = [(game.min_players, {})]
    if game.max_players > game.min_players:
        tables.append((game.max_players, {}))
    tables += [(game.min_players, {name: True})
               for name, default in dict(getattr(game, "default_options", {})).items()
               if default is False]
    return tables


def _describe(players: int, options: dict[str, Any]) -> str:
    return ", ".join([f"{players} seats", *options])


def games_to_check(bot: str, found: Registry, games: list[str] | None) -> list[str]:
    """The games ``arena check`` plays ``bot`` in: ``games``, each installed and one that the
    bot plays (``arena run`` refuses the others too), else every installed game it plays."""
    info = found.bot_info(bot)
    for name in games or ():
        found.game(name)  # an unknown game: one line, the closest name suggested
        if not info.supports(name):
            raise ArenaError(f"--game {name}: bot {bot!r} does not play it "
                             f"(it plays {', '.join(info.games or ())})")
    names = games or [name for name in sorted(found.games) if info.supports(name)]
    if not names:
        raise ArenaError(plays_nothing(bot, found) or f"bot {bot!r} plays no installed game")
    return names


def plays_nothing(bot: str, found: Registry) -> str | None:
    """What is wrong with ``bot`` when it plays none of the installed games (its ``games``
    misspelt, or games not installed here), with the closest names; else None."""
    info = found.bot_info(bot)
    if any(info.supports(name) for name in found.games):
        return None
    installed = ", ".join(found.games)
    meant = [f"{name!r} (did you mean {' or '.join(repr(c) for c in close)}?)"
             if (close := closest(name, found.games)) else repr(name)
             for name in info.games or ()]
    return (f"bot {bot!r} plays none of the installed games ({installed}): its "
            f"games are {', '.join(meant) or 'none'}")


def check(
    bot: str, found: Registry, limits: Limits, *, params: dict[str, object] | None = None,
    games: list[str] | None = None, seed: int | None = None,
) -> list[GameReport]:
    """Play the short matches of ``arena check`` for every game ``bot`` supports.

    Without a ``seed`` a new one is drawn: the seeds a bot is given then look like a
    tournament's (63-bit, derived like them), so a bot cannot tell it is being checked and
    behave only then. ``GameReport.seed`` says which seed it was.
    """
    if seed is None:
        seed = secrets.randbits(62)
    names = games_to_check(bot, found, games)
    reports = []
    for game_name in names:
        game = found.game(game_name)
        report = GameReport(game_name, seed)
        played = [(players, options, lineup) for players, options in _tables(game)
                  for lineup in _matchups(bot, players, found)]
        for number, (players, options, lineup) in enumerate(played):
            seats = tuple(
                SeatSpec(label=f"{name}#{index}", bot=name,
                         params=dict(params or {}) if name == bot else {},
                         plugin=found.bot_info(name).module,
                         environment=found.bot_info(name).environment)
                for index, name in enumerate(lineup)
            )
            spec = MatchSpec(
                id=f"check-{game_name}-{number}", game=game_name, options=dict(options),
                seats=seats,
                seed=derive_seed(seed, "chance", game_name, number),
                bot_seeds=tuple(derive_seed(seed, "bot", game_name, number, index)
                                for index in range(len(seats))),
                limits=limits, game_plugin=found.games[game_name].module,
            )
            try:
                result, referee = refereed(spec, found)
            except EngineError as exc:
                report.failures.append(str(exc))
                continue
            others = ", ".join(name for name in lineup if name != bot) or "itself"
            for index, name in enumerate(lineup):
                if name != bot:
                    continue
                report.seats.append(SeatReport(
                    match=spec.id, table=_describe(players, options), opponents=others,
                    status=result.statuses[index],
                    decisions=referee.decisions[index],
                    think_seconds=result.think_seconds[index],
                    worst_seconds=result.max_move_seconds[index],
                    startup_seconds=referee.startup[index], peak_kb=referee.peak_kb[index],
                    error=result.errors[index],
                    output=result.outputs[index] if result.outputs else "",
                ))
        reports.append(report)
    return reports


def check_params(
    bot: str, found: Registry, limits: Limits, params: dict[str, object],
    games: list[str] | None = None,
) -> None:
    """Refuse ``params`` before any match, as ``arena run`` refuses them in a config: an
    unknown name (with the closest known one), then what the bot's constructor says when it
    is started once, sandboxed, with them. Given none, the bot is started once all the same:
    a constructor that requires a param (or an import that fails) is one line, not an error
    in every match of the check."""
    from arena.catalog import probe
    from arena.config import refusal

    info = found.bot_info(bot)
    names = games_to_check(bot, found, games)
    for param in params:
        if info.params is not None and param not in info.params:
            raise unknown_name("param", param, info.params, where=f"--params: bot {bot!r}")
    game = found.game(names[0])
    seat = SeatSpec(label=bot, bot=bot, params=dict(params), plugin=info.module,
                    environment=info.environment)
    problem = probe(seat, names[0], game.min_players, limits)
    if problem:
        raise ArenaError(f"{'--params: ' if params else ''}{refusal(bot, params, problem)}")
