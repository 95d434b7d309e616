"""The ``arena`` command: run tournaments, show leaderboards, list games and bots.

Errors in what the user gave (a config, a name, a path) print one line on
stderr and exit with status 2, without a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shlex
import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from arena.aside import worth_it
from arena.config import TournamentConfig, load, registry_for
from arena.entry import (
    INTERRUPTED,
    NOTHING_WRITTEN,
    Stopped,
    end_quietly,
    output_error,
    stopped_line,
)
from arena.errors import ArenaError
from arena.leaderboard import FORMATS, fault_summary, render
from arena.ledger import rate_run, read_run
from arena.live import LiveBoard
from arena.plugins import Registry
from arena.ratings import DRAW_PROBABILITY, Standing, rate, usable_draw_probability
from arena.records import Limits, MatchResult, plain
from arena.schedule import canonical_ids
from arena.seats.sandbox import SANDBOX_MODES, protections
from arena.store import (
    CONFIG,
    MATCHES,
    FolderLost,
    read_failures,
    read_results,
    results_file,
)

if TYPE_CHECKING:
    from arena.cluster import Connection, Failed
    from arena.runner import RunPlan, Saved

USER_ERROR = 2


class ArenaGroup(click.Group):
    """Turns :class:`ArenaError` into one line on stderr and exit status 2, and Ctrl-C into
    "Interrupted." and status 130."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ArenaError as exc:
            # Plain: an error may quote a bot's words (its terminal codes stay out).
            click.echo(f"arena: error: {plain(str(exc))}", err=True)
            ctx.exit(USER_ERROR)
        except KeyboardInterrupt as exc:
            # Ctrl-C where a command says nothing more of its own (arena run does): click's
            # "Aborted!" and status 1 read as a failure, not as the user's stop.
            # Only a Stopped of its own names a signal here: what an earlier run in this
            # process was sent is no word on this one.
            said, status = stopped_line(exc) if isinstance(exc, Stopped) \
                else ("Interrupted", INTERRUPTED)
            click.echo(f"\n{said}.", err=True)
            ctx.exit(status)
        except OSError as exc:
            # `arena leaderboard RUN | head -3`: the reader has what it wanted (click's own
            # handling ended with status 1, a failure to `set -o pipefail`); `> out.txt` on a
            # full disk was a traceback of the write. Anything else is raised again.
            output_error(exc)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="lostvalley-arena")
def main() -> None:
    """Lost Valley Arena: round-robin tournaments between game-playing bots."""


class _Console(Console):
    """rich's console, ending as the command's other output does when its reader goes away
    (rich's own ends with status 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        end_quietly()


NARROWEST = 20
"""Fewer columns than this (``COLUMNS=0``, which some containers and CI runners set) are no
width to print in: rich printed nothing at 0, status 0, and one letter a line at 1."""


def _console() -> Console:
    console = _Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        # A log or a pipe has no width: rich's 80 columns would cut the leaderboard.
        console.width = 120
    if console.width < NARROWEST:
        console.width = 80 if console.is_terminal else 120
    return console


def _cells(*texts: str) -> list[Text]:
    """Table cells of what plugins and the store say: plain text, no markup, no codes."""
    return [Text(plain(text)) for text in texts]


def _problems(console: Console, found: Registry) -> None:
    if not found.problems:
        return
    console.print("\n[bold yellow]Plugins skipped:[/]")
    for problem in found.problems:
        # A problem quotes what a plugin said: shown as plain text, never as markup.
        console.print(f"  [yellow]{escape(plain(problem.plugin))}[/]: "
                      f"{escape(plain(problem.reason))}", markup=True)


def _unplayable(console: Console, found: Registry) -> None:
    """Installed bots that no installed game takes: listed, and never seated anywhere."""
    from arena.check import plays_nothing

    lines = [line for name in sorted(found.bots) if not found.bot_info(name).version
             and (line := plays_nothing(name, found))]
    if lines:
        console.print("\n[bold yellow]Bots that play no installed game:[/]")
    for line in lines:
        console.print(f"  {escape(plain(line))}", markup=True)


@main.command()
def games() -> None:
    """List the installed games."""
    found = _discovered()
    # The id is what a config needs: never cut; the rest folds onto more lines if it must.
    table = Table(title="Installed games", box=box.SIMPLE_HEAD)
    table.add_column("game", no_wrap=True)
    table.add_column("title", overflow="fold")
    table.add_column("players", no_wrap=True)
    table.add_column("plugin", overflow="fold")
    for name, entry in sorted(found.games.items()):
        cls: Any = entry.cls
        # _cells(): a game's title is its plugin's words, markup and terminal codes and all.
        table.add_row(*_cells(name, str(cls.title), f"{cls.min_players}-{cls.max_players}",
                              entry.plugin))
    console = _console()
    console.print(table)
    _problems(console, found)


STORE_OPTION = click.option(
    "--store", type=click.Path(path_type=Path),
    help="The bot store folder [env ARENA_STORE; else ~/.local/share/lostvalley-arena/store].",
)


def _use_store(store: Path | None) -> Path:
    """The bot store this command uses (``--store`` is passed on as ``ARENA_STORE``)."""
    from arena.botstore import STORE_VARIABLE, default_store, require_store

    if store is not None:
        os.environ[STORE_VARIABLE] = str(store.resolve())
    return require_store(default_store())


@main.command()
@STORE_OPTION
def bots(store: Path | None) -> None:
    """List the installed bots and the stored ones, and the games each plays (found by
    sandboxed hosts and the store's records: no bot code runs)."""
    from arena.botstore import read_entries

    folder = _use_store(store)
    found = _discovered()
    # The names are what a config and `arena check --game` need: folded, never cut (at 40
    # columns every game's name was "explorers-o…").
    table = Table("bot", "games", "plugin", title="Installed bots")
    for column in table.columns:
        column.overflow = "fold"
    for name in sorted(found.bots):
        info = found.bot_info(name)
        if not info.version:
            table.add_row(*_cells(name, ", ".join(info.games) if info.games else "all",
                                  info.plugin))
    console = _console()
    console.print(table)
    _unplayable(console, found)
    stored = read_entries(folder)
    if stored:
        shelf = Table("bot", "versions", "games", "submitted", "check",
                      title=Text(f"Stored bots ({plain(str(folder))})"))
        for column in shelf.columns:
            column.overflow = "fold"
        for name in sorted({bot.name for bot in stored}):
            versions = [bot for bot in stored if bot.name == name]
            newest = versions[-1]
            shelf.add_row(*_cells(name, ", ".join(bot.version for bot in versions),
                                  ", ".join(newest.games) if newest.games else "all",
                                  newest.submitted.replace("T", " ").removesuffix("+00:00"),
                                  "passed"))
        console.print(shelf)
    _problems(console, found)


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@STORE_OPTION
@click.option("--find-links", "find_links", multiple=True,
              help="Also look for the bot's dependencies here (a folder of wheels).")
@click.option("--no-index", is_flag=True, help="Do not use the package index for dependencies.")
@click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default="auto", show_default=True,
              help="For the build, the listing and the check: bubblewrap if installed, "
                   "bubblewrap or refuse, or the fallback.")
@click.option("--new-version", is_flag=True,
              help="The store holds this package at another version, and this is a new version "
                   "of it: admit it, and a config naming its bots without @version plays it.")
def submit(
    path: Path, store: Path | None, find_links: tuple[str, ...], no_index: bool, sandbox: str,
    new_version: bool,
) -> None:
    """Check the bot package at PATH (folder, wheel or sdist) and admit it to the bot store.

    A package the store already holds at another version is refused without --new-version
    (its bots' bare names would then play the new version)."""
    from arena.submit import submit as submit_package

    folder = _use_store(store)
    pip_options = [f"--find-links={link}" for link in find_links]
    if no_index:
        pip_options.append("--no-index")
    console = _console()
    console.print(f"Submitting {path} to the bot store {folder} ...", markup=False,
                  highlight=False)
    done = submit_package(path, folder, _discovered(), pip_options=pip_options, sandbox=sandbox,
                          new_version=new_version)
    for note in done.notes:
        console.print(note, markup=False)
    steps = ", ".join(f"{step} {seconds:.1f}s" for step, seconds in done.seconds.items())
    names = ", ".join(bot["name"] for bot in done.bots)
    console.print(f"[green]Admitted[/] {done.package} {done.version}: {names} ({steps}); "
                  f"the check passed in {len(done.reports)} game(s).")


@main.group("store")
def store_group() -> None:
    """Manage the bot store."""


@store_group.command("remove")
@click.argument("spec", metavar="NAME[@VERSION]")
@STORE_OPTION
def store_remove(spec: str, store: Path | None) -> None:
    """Take a stored bot out of the store: every version, or NAME@VERSION only."""
    from arena.botstore import remove

    removed = remove(_use_store(store), spec)
    for bot in removed:
        click.echo(f"removed {bot.name}@{bot.version} ({bot.package})")


def _not_a_folder(bot: str, found: Registry) -> None:
    """``arena check ./cautious``: the folder of a bot package that no installed or stored bot
    is named after (the journey's ``arena check cautious`` names the bot, not its folder)."""
    folder = Path(bot)
    if bot in found.bots or not any((folder / name).is_file()
                                    for name in ("pyproject.toml", "setup.py")):
        return
    raise ArenaError(f"{plain(bot)!r} is a bot package's folder, not a bot's name: arena check "
                     "takes the name a bot class registers, once the package is installed "
                     f"(pip install {plain(bot)}) or stored (arena submit {plain(bot)}); "
                     "arena bots lists the names")


@main.command("check")
@click.argument("bot")
@click.option("--game", "games", multiple=True, help="Check this game only (repeatable).")
@click.option("--params", help='The bot\'s params: JSON or TOML, e.g. \'{"risk": 0.8}\' or '
              '\'risk = 0.8\'.')
@click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default="auto", show_default=True,
              help="bubblewrap if installed, bubblewrap or refuse, or the fallback.")
@click.option("--seed", type=int, help="The check's seed [a new one, shown].")
@STORE_OPTION
def check_command(bot: str, games: tuple[str, ...], params: str | None, sandbox: str,
                  seed: int | None, store: Path | None) -> None:
    """Check BOT as a tournament would seat it: sandboxed, short matches in every game it plays."""
    from arena.check import check, check_params, games_to_check
    from arena.play import parse_options

    _use_store(store)
    parsed = parse_options(params, flag="--params")
    limits = Limits(sandbox=sandbox)
    found = registry_for(limits)
    _not_a_folder(bot, found)
    games_to_check(bot, found, list(games) or None)  # a game it does not play: one line
    console = _console()
    # escape(): a plugin's name is its package's metadata ("x[/]" raised rich's MarkupError).
    console.print(f"Checking bot [bold]{escape(bot)}[/] "
                  f"(plugin {escape(plain(found.bot_info(bot).plugin))})")
    check_params(bot, found, limits, parsed, list(games) or None)
    for protection in protections(sandbox):
        console.print(f"  protection: {protection}", soft_wrap=True)  # a log: one line
    reports = check(bot, found, limits, params=parsed, games=list(games) or None, seed=seed)
    if reports:
        console.print(f"  seed: {reports[0].seed} (--seed {reports[0].seed} plays these "
                      "matches again)")
    for report in reports:
        verdict = "ok" if report.ok else "FAULTS"
        # The game is in the title: a match is its number, which fits any width (the whole
        # id, check-<game>-<number>, was cut to "check-explorer..." in every row).
        number = {seat.match: seat.match.removeprefix(f"check-{report.game}-")
                  for seat in report.seats}
        table = Table("match", "table", "against", "status", "decisions", "mean ms",
                      "worst ms", "start-up ms", "peak MB", title=f"{report.game}: {verdict}")
        for seat in report.seats:
            mean = 1000 * seat.think_seconds / max(1, seat.decisions)
            table.add_row(number[seat.match], seat.table, seat.opponents, seat.status,
                          str(seat.decisions),
                          f"{mean:.2f}", f"{1000 * seat.worst_seconds:.2f}",
                          f"{1000 * seat.startup_seconds:.0f}", f"{seat.peak_kb / 1024:.0f}")
        console.print(table)
        for seat in report.seats:
            if seat.status != "ok":
                # What the bot wrote is shown without its terminal codes (no cleared screen,
                # no colours, no forged verdict in another colour).
                console.print(f"[red]match {number[seat.match]}: {seat.status}[/]: "
                              f"{escape(plain(str(seat.error)))}", markup=True, highlight=False)
                if seat.output.strip():
                    tail = "\n".join(plain(seat.output).strip().splitlines()[-10:])
                    console.print(f"  its output ends:\n{tail}", markup=False, highlight=False)
        for failure in report.failures:
            console.print(f"[red]engine failure[/]: {escape(plain(str(failure)))}")
    if not all(report.ok for report in reports):
        sys.exit(1)
    console.print(f"[green]{bot}: all checks passed[/]")


@main.command("new-bot")
@click.argument("name")
@click.option("--game", help="The game it plays [every installed game].")
def new_bot(name: str, game: str | None) -> None:
    """Create a ready bot package in ./NAME/: the bot, its entry point, a README, its tests."""
    from arena.scaffold import create, names_for

    names = names_for(name)
    if Path(name).exists():
        raise ArenaError(f"./{name} exists already: new-bot never overwrites; "
                         "remove it or choose another name")
    found = _discovered()
    if name in found.bots:
        plugin = found.bot_info(name).plugin
        raise ArenaError(f"a bot named {name!r} is installed already ({plugin}): a second one "
                         "would be skipped; choose another name")
    if game is not None:
        found.game(game)  # an unknown name is one line, with the closest known one
    installed = {key: entry.cls for key, entry in found.games.items() if entry.cls is not None}
    folder, written = create(name, Path("."), game, installed)
    console = _console()
    console.print(f"Created bot [bold]{name}[/] in ./{folder.name}/ (package {names.package}):",
                  soft_wrap=True)
    for relative in written:
        console.print(f"  {folder.name}/{relative}", markup=False, highlight=False)
    console.print("Next:", highlight=False)
    for step in (f"pip install ./{name}", "arena bots", "pip install pytest", f"pytest {name}",
                 f"arena check {name}", f"arena run {name}/tournament.toml"):
        console.print(f"  {step}", markup=False, highlight=False, soft_wrap=True)


def _discovered() -> Registry:
    """What is installed, found without running any bot code in this process."""
    return registry_for(Limits())


@main.command()
@click.argument("config_path", metavar="CONFIG", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), help="Results folder [results/<name>].")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Parallel matches [all cores / the cluster's CPUs].",
)
@click.option("--address", help="Join this Ray cluster [env RAY_ADDRESS; else start a local one].")
@click.option("--resume", is_flag=True, help="Continue the run in the results folder.")
@STORE_OPTION
def run(
    config_path: Path, out: Path | None, workers: int | None, address: str | None, resume: bool,
    store: Path | None,
) -> None:
    """Play the round robin described by CONFIG (TOML) and show the leaderboard; its bots are
    the installed ones and those of the bot store."""
    _use_store(store)
    console = _console()
    # On a terminal, say what happens from the first second (bots are found by sandboxed
    # hosts, which takes a moment); the line goes once the plan is ready.
    reading = console.status(f"Reading {escape(str(config_path))}: finding the installed bots ...")
    try:
        # ray is imported only by the command that needs it: listing bots stays quick. In
        # here: a stop during its import (a second) is said as a stop later is.
        from arena import runner
        from arena.cluster import ClusterLost

        with runner.stop_signals_caught(), \
                reading if console.is_terminal else contextlib.nullcontext():
            config = load(config_path)
            found = registry_for(config.limits)
            directory = out or Path("results") / config.name
            plan = runner.plan(
                config,
                directory,
                resume=resume,
                draw_probability=runner.game_draw_probability(found, config.game),
            )
    except KeyboardInterrupt as exc:
        # Ctrl-C (or SIGTERM, SIGHUP) while the config is read and its bots are started once:
        # click's "Aborted!" and status 1 (SIGTERM: no word at all) said nothing of the run.
        _stopped(console, exc, NOTHING_WRITTEN)
    click.get_current_context().call_on_close(plan.store.release)
    for warning in [*plan.warnings, *_shadowed(config, found), *_guessable_seed(config, found),
                    *_unusable_draw_probability(config.game, found)]:
        # escape(), plain(): a warning may quote a results file (a match id, a label).
        console.print(f"[yellow]warning:[/] {escape(plain(warning))}", soft_wrap=True)
    labels = [bot.label for bot in config.bots]
    title = f"{config.name}: {config.game}"
    again = _run_again(config_path, directory, workers, address, store)
    try:
        # Caught to the end: a stop while the final table is rated (seconds, for a run of
        # millions) was click's "Aborted!" and status 1, or a kill without a word.
        with runner.stop_signals_caught():
            if not plan.pending:
                _all_recorded(console, plan, directory, title)
                return
            view = _RunView(console, config, plan, directory, labels, title)
            outcome = runner.play(plan, view, workers=workers, address=address)
            _footer(console, directory, outcome.failures, outcome.retried)
    except KeyboardInterrupt as exc:
        # SIGTERM and SIGHUP stop it as Ctrl-C does (runner.Stopped), with their own status.
        _stopped(console, exc, _after_stop(directory, again))
    except runner.RecordingFailed as exc:
        raise ArenaError(f"{exc}; {exc.remedy}, then continue with: {again} --resume") from None
    except FolderLost as exc:
        raise ArenaError(f"{exc}; play them again with: {again} --resume") from None
    except ClusterLost as exc:
        raise ArenaError(f"{exc}; continue with: {again} --resume") from None
    if len(outcome.nodes) > 1:
        played = ", ".join(f"{node[:8]} {count}" for node, count in outcome.nodes)
        console.print(f"Matches per node: {played}", highlight=False, soft_wrap=True)


def _all_recorded(console: Console, plan: RunPlan, directory: Path, title: str) -> None:
    """A resumed run with nothing left to play: its final table."""
    console.print(f"All {plan.total} matches of {directory} are recorded already.",
                  soft_wrap=True, markup=False)
    standings, _ = rate_run(plan.done.ledger, plan.draw_probability, directory)
    console.print(render(standings, "table", title=title, width=console.width))
    _faults(console, plan.done.faulty)


def _stopped(console: Console, interrupt: KeyboardInterrupt, after: str) -> NoReturn:
    """End a run stopped by Ctrl-C (status 130), SIGTERM (143) or SIGHUP (129), saying
    ``after``: what became of the folder and how to go on."""
    said, status = stopped_line(interrupt)
    with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
        console.print(f"\n[bold]{said}.[/] {escape(after)}", soft_wrap=True)
    if "arena.cluster" in sys.modules:  # loaded: Ray may have been starting
        from arena.cluster import end_after_cut_start

        end_after_cut_start(status)
    sys.exit(status)


def _run_again(
    config_path: Path, directory: Path, workers: int | None, address: str | None,
    store: Path | None,
) -> str:
    """The ``arena run`` command that plays into ``directory`` as this one did: the options
    given repeated, so that a run on a cluster (``--address``) resumes there, not on a local
    instance of its own (the line said ``--out`` alone)."""
    words = ["arena", "run", str(config_path), "--out", str(directory)]
    for option, value in (("--workers", workers), ("--address", address), ("--store", store)):
        if value is not None:
            words += [option, str(value)]
    return shlex.join(words)


def _after_stop(directory: Path, again: str) -> str:
    """What a stopped run says about its folder: saved, and how to go on (``again``, the
    command that plays it, plus ``--resume``); or, stopped while Ray started on a new folder
    (which is then removed), that nothing was written."""
    if not directory.exists():
        return f"No match was played and nothing was written; start again with: {again}"
    return f"Every finished match is saved in {directory}; continue with: {again} --resume"


def _shadowed(config: TournamentConfig, found: Registry) -> list[str]:
    """A warning per bot of the config that is both installed and stored: the installed one
    plays."""
    return [f"bot {name!r}: the installed one plays; the stored {found.shadowed[name]} has "
            f"the same name (play it: pip uninstall the installed package)"
            for name in dict.fromkeys(seat.bot for seat in config.bots)
            if name in found.shadowed]


SECRET_SEED = 1 << 40
"""Tournament seeds below this can be found by a bot searching from its own seed."""


def _guessable_seed(config: TournamentConfig, found: Registry) -> list[str]:
    """A warning when a submitted (stored) bot plays under a small tournament seed: every seed
    is derived from it by a public function, so a bot that finds it (a search from its own
    seed) knows every die and card of its matches and its opponents' seeds."""
    stored = sorted({seat.bot for seat in config.bots
                     if seat.bot in found.bots and found.bot_info(seat.bot).version})
    if not stored or config.seed >= SECRET_SEED:
        return []
    return [f"seed = {config.seed} is small, and stored bots play ({', '.join(stored)}): a bot "
            "could find it from its own seed and foresee every chance outcome. With bots you "
            f"do not trust, use a large random seed (e.g. seed = {secrets.randbits(63)}) and "
            "keep the config to yourself until the tournament is over."]


def _unusable_draw_probability(game: str, found: Registry) -> list[str]:
    """A warning when the game declares a draw probability TrueSkill cannot rate with (a
    game 'that never ties' declaring 0.0): the run rated with the default without a word."""
    entry = found.games.get(game)
    declared = getattr(entry.cls, "draw_probability", None) if entry else None
    if entry is None or entry.cls is None or usable_draw_probability(declared) is not None:
        return []
    return [f"{game} declares draw_probability = {declared!r}, which TrueSkill cannot rate "
            f"with (it must lie strictly between 0 and 1): rated with {DRAW_PROBABILITY}"]


class _RunView(LiveBoard):
    """The terminal side of ``arena run``: what Ray is doing, then the live board."""

    def __init__(
        self,
        console: Console,
        config: TournamentConfig,
        plan: RunPlan,
        directory: Path,
        labels: list[str],
        title: str,
    ) -> None:
        super().__init__(
            console,
            plan.total,
            labels=labels,
            draw_probability=plan.draw_probability,
            title=title,
            previous=plan.done,
            order=canonical_ids(len(config.bots), config.players, config.rounds, config.seating),
            checkpoint=directory,
        )
        self._config, self._plan, self._directory = config, plan, directory

    def connecting(self, target: str) -> None:
        plan = self._plan
        if worth_it(self._counts.total - self._counts.done):
            self.prepare_aside()  # it starts while Ray does
        self._console.print(
            _header(self._config, plan.total, len(plan.done), self._directory), soft_wrap=True)
        self._console.print(f"Starting Ray: {target} ...", highlight=False, markup=False)
        from arena.cluster import running_instance

        running = running_instance() if target.startswith("a local") else None
        if running:
            self._console.print(
                f"  (a Ray instance started with 'ray start' runs here at {running}: "
                f"--address {running} uses it and skips this start)", highlight=False, markup=False,
                soft_wrap=True)

    def connected(self, connection: Connection, seconds: float) -> None:
        workers = f"{connection.workers} worker{'s' if connection.workers != 1 else ''}"
        self._console.print(f"Ray ready in {seconds:.1f}s: {workers}.", highlight=False)
        self.rate_aside = worth_it(self._counts.total - self._counts.done)
        if connection.joined:
            self._console.print(
                f"Cluster: {connection.nodes} node(s), {connection.cpus} CPU(s); bot packages "
                f"shipped to the nodes: {', '.join(connection.shipped) or 'none'}",
                highlight=False, soft_wrap=True)
        self._console.print(_isolation(self._config), highlight=False, soft_wrap=True)


def _faults(console: Console, results: list[MatchResult]) -> None:
    summary = fault_summary(results)
    if summary is not None:
        console.print(summary)


def _header(config: TournamentConfig, total: int, done: int, out: Path) -> str:
    resumed = f", {done:,} already done" if done else ""
    return (
        f"[bold]{escape(config.name)}[/]: {config.game}, {config.players} players, "
        f"{len(config.bots)} bots, {total:,} matches{resumed} -> {escape(str(out))}"
    )


def _isolation(config: TournamentConfig) -> str:
    """One line on where the bots run and what confines them."""
    if config.limits.isolation == "inprocess":
        return "bots run in-process in the workers (trusted bots only: no sandbox)"
    confined = protections(config.limits.sandbox)
    return f"bots sandboxed: {confined[0]}"


def _footer(
    console: Console, directory: Path, failures: Sequence[Failed], retried: int
) -> None:
    if retried:
        console.print(f"{retried} match attempt(s) were lost with a dead worker and played again.")
    if failures:
        console.print(
            f"[red]{len(failures)} match(es) could not be played[/] (see "
            f"{escape(str(directory / 'failures.jsonl'))}); --resume tries them again. The first, "
            f"{failures[0].id}:",
            soft_wrap=True,
        )
        console.print(f"  {plain(failures[0].reason)}", markup=False, highlight=False)
    # soft_wrap: a path to copy stays whole on one line, however narrow the terminal.
    console.print(f"Results: {directory / MATCHES}", soft_wrap=True, markup=False)


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option("--pairs", is_flag=True,
              help="Head-to-head records with 95% intervals, and wins by seat position.")
@click.option("--history", is_flag=True,
              help="Each bot's conservative rating over the matches, as a chart.")
@click.option("--plot", type=click.Path(path_type=Path), metavar="FILE.png|FILE.svg",
              help="Write the rating history chart as a picture (needs matplotlib).")
def leaderboard(
    run_dir: Path, fmt: str, pairs: bool, history: bool, plot: Path | None
) -> None:
    """Show the leaderboard of a finished (or interrupted) run in RUN_DIR."""
    if (pairs or history) and fmt not in ("table", "json"):
        raise ArenaError("--pairs and --history come as a table or as json (--format json)")
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise ArenaError(f"--plot {plot}: write a .png or an .svg file")
    if plot is not None:
        from arena.history import require_pyplot

        require_pyplot()
        # Said before the table, not after it with status 2 (a script read a table and failed).
        if plot.is_dir():
            raise ArenaError(f"--plot {plot}: cannot write it: it is a folder")
        if not plot.parent.is_dir():
            raise ArenaError(f"--plot {plot}: cannot write it: {plot.parent} is not a folder")
    from arena.runner import Strays, saved_settings

    path = results_file(run_dir)
    if path is None:
        if not (run_dir / CONFIG).is_file():
            raise ArenaError(f"no results in {run_dir}: {run_dir / MATCHES} does not exist")
        path = Path(os.devnull)  # a run stopped before its first match: read as empty
    saved = saved_settings(run_dir, _installed_games)
    strays = Strays()

    def ours(result: MatchResult) -> bool:
        """A line of another run (appended, or the config edited) was rated with this one's,
        while ``arena run --resume`` left it out: two tables of one folder."""
        if saved.planned is None or saved.planned(result):
            return True
        strays.add(result.id)
        return False

    if pairs or history or plot is not None:  # these views read every result whole
        loaded = read_results(path, keep=ours)
        results, faulty, warnings = loaded.results, loaded.results, loaded.warnings
        standings = rate(results, saved.draw_probability, saved.labels)
        done: Collection[str] = {result.id for result in results}
    else:  # a million-match run: read a line at a time, rate from the checkpoint on
        records = read_run(path, saved.labels, keep=ours)
        results, faulty, warnings = [], records.faulty, records.warnings
        standings, _ = rate_run(records.ledger, saved.draw_probability, run_dir)
        done = records.ledger
    for warning in [*warnings, *strays.warnings(), *saved.warnings]:
        _warn(warning)
    if not done:
        click.echo(f"arena: no match of the run in {run_dir} is recorded yet", err=True)
    failed = [f for f in read_failures(run_dir) if f["id"] not in done]
    console = _console()
    if pairs or history:
        _trust_views(console, results, standings, saved, fmt, (pairs, history, plot))
    else:
        output = render(standings, fmt, title=saved.title, width=console.width)
        if isinstance(output, str):
            click.echo(output.rstrip("\n"))
        else:
            console.print(output)
            _faults(console, faulty)
        if plot is not None:
            _trust_views(console, results, standings, saved, fmt, (False, False, plot))
    if failed:
        click.echo(f"arena: warning: {len(failed)} match(es) failed; see failures.jsonl", err=True)


def _warn(warning: str) -> None:
    """A warning of ``arena leaderboard`` or ``arena replay``, on stderr as plain text: it may
    quote a results folder, which may come from anyone (the red team's ``config.json`` named
    its game ``"\\u001b]0;PWNED\\u0007..."``, and the warning that no draw probability was
    saved for it set the terminal's title)."""
    click.echo(f"arena: warning: {plain(warning)}", err=True)


def _trust_views(
    console: Console,
    results: list[MatchResult],
    standings: list[Standing],
    saved: Saved,
    fmt: str,
    views: tuple[bool, bool, Path | None],
) -> None:
    """``--pairs``, ``--history`` and ``--plot``: how far the leaderboard can be trusted.
    ``--plot`` alone comes after the leaderboard; with the others, instead of it."""
    from arena import confidence, history

    pairs, series, plot = views
    order = [row.bot for row in standings]
    rated = history.rating_history(results, saved.draw_probability, order) if series or plot \
        else None
    if pairs:
        found = confidence.head_to_head(results, order)
        shares = confidence.seat_wins(results)
        if fmt == "json":
            click.echo(confidence.pairs_json(found, shares))
        else:
            console.print(confidence.pairs_table(found, f"{saved.title}: head to head",
                                                 width=console.width))
            console.print(confidence.seats_table(shares, width=console.width))
    if rated is not None and series:
        if fmt == "json":
            click.echo(json.dumps(rated.to_json(), ensure_ascii=False))
        else:
            console.print(f"{saved.title}: conservative rating (\N{GREEK SMALL LETTER MU}"
                          f"\N{MINUS SIGN}3\N{GREEK SMALL LETTER SIGMA}) over the matches",
                          markup=False, highlight=False)
            for line in history.chart(rated, console.width):
                console.print(line, markup=False, highlight=False, overflow="fold")
    if rated is not None and plot is not None:
        history.plot(rated, plot, saved.title)
        # On stderr when stdout carries data a script reads.
        click.echo(f"wrote {plot}", err=fmt != "table")


@main.command("replay")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.argument("match_id")
@click.option("--print", "as_text", is_flag=True,
              help="Write the whole transcript as text instead (for a pipe or a bug report).")
@click.option("--boards", is_flag=True, help="With --print: the board before every decision too.")
def replay_command(run_dir: Path, match_id: str, as_text: bool, boards: bool) -> None:
    """Step through match MATCH_ID of the run in RUN_DIR, checked against its record.

    Keys: l, space or right arrow: forward; h or left arrow: back; a digit N: the next
    decision of seat N; g/G: first/last position; q: quit. Exits 1 if the replay does not
    reproduce the recorded result."""
    from arena import watch
    from arena.replay import load

    replayed, warnings = load(run_dir, match_id)
    for warning in warnings:
        _warn(warning)
    console = _console()
    if as_text or not console.is_terminal:
        watch.print_transcript(replayed, console, boards)
    else:
        with watch.keys() as read_key:
            watch.step_through(replayed, console, read_key)
    if replayed.problems:
        click.echo(f"arena: match {match_id} does not replay to its record: "
                   f"{plain('; '.join(replayed.problems))}", err=True)
        sys.exit(1)


@main.command("play")
@click.argument("game")
@click.option("--against", required=True, metavar="BOT[,BOT...]",
              help="The bots you play against, one per seat.")
@click.option("--seat", type=int, default=0, show_default=True,
              help="Your seat, from 0, in the game's seat order.")
@click.option("--seed", type=int, help="The chance seed [a new one, shown].")
@click.option("--options", help="The game's options: JSON or TOML, e.g. 'coins = 1'.")
@click.option("--save", type=click.Path(path_type=Path),
              help="Save the finished match in this run folder (for arena replay).")
@click.option("--trusted", is_flag=True,
              help="Run the bots in this process instead of sandboxed (trusted bots only).")
@STORE_OPTION
def play_command(game: str, against: str, seat: int, seed: int | None, options: str | None,
                 save: Path | None, trusted: bool, store: Path | None) -> None:
    """Play GAME in the terminal against bots (sandboxed, as in a tournament)."""
    from arena import play as playing

    _use_store(store)
    limits = Limits(isolation="inprocess" if trusted else "process")
    bots = [name.strip() for name in against.split(",") if name.strip()]
    if not bots:
        raise ArenaError("--against: name at least one bot")
    chosen = playing.parse_options(options)
    found = registry_for(limits)
    match_id = playing.check_save_folder(save, game, chosen) if save else "play"
    seed = playing.new_seed() if seed is None else seed
    table = playing.set_table(found, game, bots, seat=seat, seed=seed, options=chosen,
                              limits=limits, match_id=match_id)
    console = _console()
    labels = [spec.label for spec in table.spec.seats]
    terminal = playing.Terminal(console, labels, table.person)
    where = "in this process (trusted)" if trusted else _isolation_line(limits)
    terminal.say(f"{table.game.title}: you are seat {seat}; seed {seed}"
                 f"{f', options {chosen}' if chosen else ''}")
    terminal.say("seats: " + ", ".join(f"{index} {label}" for index, label in enumerate(labels)))
    terminal.say(f"bots {where}")
    try:
        result, state = playing.play(table, terminal.ask, terminal.told, terminal.faulted)
    except playing.Quit:
        terminal.say("You left the match; nothing was saved.")
        return
    except KeyboardInterrupt:
        terminal.say("\nInterrupted; nothing was saved.")
        sys.exit(INTERRUPTED)
    terminal.finish(state, result)
    if save is not None:
        playing.save(save, table, result)
        console.print(f"Saved as match {result.id} in {save}: arena replay {save} {result.id}",
                      markup=False, highlight=False, soft_wrap=True)


def _isolation_line(limits: Limits) -> str:
    return f"sandboxed: {protections(limits.sandbox)[0]}"


def _installed_games() -> Registry | None:
    """The installed games, if discovery works here; the saved config needs none of them."""
    try:
        return _discovered()
    except ArenaError:
        return None
