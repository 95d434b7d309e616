"""One tournament run: which matches are left, where they go, what is recorded.

The results folder is the source of truth. A fresh run refuses a folder that
already holds results; ``resume`` keeps what is recorded (after checking the
config is the same) and plays only the rest, failed matches included. Every
finished match is appended and flushed before it is shown, so an
interruption at any moment loses nothing that was shown.

The folder describes itself: ``config.json`` holds the resolved config and,
under ``"ratings"``, what the ratings need beyond the results (the game's
draw probability), so ``arena leaderboard`` gives the same table on a
machine where the game is not installed.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import json
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from arena.botstore import shipping_folder
from arena.cluster import AT_CUT_EXIT, Connection, Dispatcher, Failed, connect, describe
from arena.config import TournamentConfig
from arena.entry import STOP_SIGNALS, Stopped, _received, _stop
from arena.entry import stop_signal as stop_signal  # arena.runner's, as before
from arena.errors import ArenaError
from arena.ledger import Recorded
from arena.plugins import Registry
from arena.ratings import DRAW_PROBABILITY, usable_draw_probability
from arena.records import MatchResult, MatchSpec, is_label, plain
from arena.schedule import SEATINGS, of_the_plan
from arena.seats.sandbox import distribution_parts, module_location
from arena.store import (
    CONFIG,
    MATCHES,
    RunStore,
    bounded_lines,
    check_writable,
    file_size_limit,
    size_limit_text,
)

RATINGS = "ratings"
"""The key of ``config.json`` that holds the rating settings."""


class RecordingFailed(ArenaError):
    """Writing to the results folder failed mid-run (a full disk, a lost mount, the file size
    limit); ``remedy``: what to do before ``--resume``."""

    def __init__(self, message: str, remedy: str = "make room") -> None:
        super().__init__(message)
        self.remedy = remedy


def _catch_stop_signals() -> None:
    for stop in STOP_SIGNALS:
        signal.signal(stop, _stop)


@contextlib.contextmanager
def stop_signals_caught() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` inside (in the main thread; elsewhere
    nothing changes), as they do while :func:`play` runs: ``arena run`` reads its config
    and starts each bot once before that, and a ``kill`` then ended it without a word."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = [signal.getsignal(stop) for stop in STOP_SIGNALS]
    _received.clear()
    _catch_stop_signals()
    try:
        yield
    finally:
        for stop, handler in zip(STOP_SIGNALS, previous, strict=True):
            signal.signal(stop, handler)


class Pending(Collection[MatchSpec]):
    """The matches of a plan that are not recorded yet, in canonical order, made from the
    plan each time they are walked (a plan of millions is never held in memory)."""

    def __init__(self, config: TournamentConfig, recorded: Collection[str]) -> None:
        self._config = config
        self._recorded = recorded
        self._count = config.total_matches() - len(recorded)

    def __iter__(self) -> Iterator[MatchSpec]:
        if self._count <= 0:
            return
        for spec in self._config.matches():
            if spec.id not in self._recorded:
                yield spec

    def __len__(self) -> int:
        return self._count

    def __contains__(self, spec: object) -> bool:
        return isinstance(spec, MatchSpec) and any(spec == mine for mine in self)

    def clear(self) -> None:
        """Leave nothing to play."""
        self._count = 0


@dataclass(slots=True)
class RunPlan:
    """A run ready to start: its folder, what is already done, what is left."""

    config: TournamentConfig
    store: RunStore
    done: Recorded
    """The recorded matches of the plan, as ledger records."""
    pending: Pending | list[MatchSpec]
    warnings: list[str] = field(default_factory=list)
    fresh: bool = True
    """No config saved in the folder yet, or one saved without its rating settings (a run
    started by an older arena): :func:`execute` writes it first."""
    draw_probability: float = DRAW_PROBABILITY
    """The saved one when resuming, else the game's: one run is rated one way."""

    @property
    def total(self) -> int:
        return len(self.done) + len(self.pending)


def game_draw_probability(found: Registry, game: str) -> float | None:
    """The draw probability ``game`` declares, if it is installed and declares a valid one."""
    entry = found.games.get(game)
    return usable_draw_probability(getattr(entry.cls, "draw_probability", None) if entry else None)


def plan(
    config: TournamentConfig,
    directory: Path,
    *,
    resume: bool,
    draw_probability: float | None = None,
) -> RunPlan:
    """Check the folder against ``resume`` and work out the matches left to play.

    ``draw_probability`` is the game's; a resumed run keeps the one it was
    started with. Writes nothing (but cuts a torn last line off
    ``matches.jsonl`` when resuming), so a run that fails to start leaves no
    half-made folder behind. The schedule is not walked: :class:`Pending` makes what is
    left as the dispatcher takes it."""
    check_writable(directory)
    store = RunStore(directory)
    if directory.is_dir():
        store.claim()  # before reading: what another run writes meanwhile would be played again
    saved = store.saved_config()
    if not resume and (saved is not None or store.has_results()):
        raise ArenaError(
            f"{directory} already holds a run; add --resume to continue it, "
            f"or choose another folder with --out"
        )
    if resume and saved is not None and not config.same_plan(_saved(saved, directory)):
        raise ArenaError(
            f"{directory} was started with a different config; resume it with the same "
            f"config (see {directory / 'config.json'}) or choose another folder with --out"
        )
    warnings: list[str] = []
    planned = plan_check(config)
    done = Recorded(bot.label for bot in config.bots)
    strays = Strays()
    for result in store.scan_done(warnings):
        ours = planned(result)
        if ours is None:
            strays.add(result.id)
            continue
        if not ours:
            # Played again, its line would come after this one, which every reader keeps.
            raise ArenaError(
                f"{store.matches_path}: match {result.id} is not this run's (its game, seats "
                f"or chance seed differ from the plan's): the folder holds another run's "
                f"matches; resume it with its own config, or choose another folder with --out")
        done.add(result)
    warnings.extend(strays.warnings())
    pending = Pending(config, done.ledger)
    saved_probability = usable_draw_probability(_ratings(saved).get("draw_probability"))
    chosen = saved_probability or draw_probability or DRAW_PROBABILITY
    return RunPlan(
        config,
        store,
        done,
        pending,
        warnings,
        fresh=saved_probability is None,
        draw_probability=chosen,
    )


def plan_check(config: TournamentConfig) -> Callable[[MatchResult], bool | None]:
    """:func:`arena.schedule.of_the_plan` for ``config``'s plan."""
    return of_the_plan(config.game, [bot.label for bot in config.bots], config.players,
                       config.rounds, config.seating, config.seed)


class Strays:
    """The recorded matches left out of a run's table as not of its plan: counted, and
    said in one warning (a file of another run's million lines is not a million)."""

    def __init__(self) -> None:
        self.count = 0
        self.first = ""

    def add(self, match_id: str) -> None:
        self.count += 1
        self.first = self.first or match_id

    def warnings(self) -> list[str]:
        if not self.count:
            return []
        return [f"{MATCHES}: {self.count:,} recorded match(es) not of this run's plan (their "
                f"game, seats or chance seed are not the ones its config gives their id; the "
                f"first: {self.first}) are left out of its table"]


def _saved(saved: dict[str, object], directory: Path) -> TournamentConfig:
    try:
        return TournamentConfig.from_json(saved)
    except (KeyError, TypeError, ValueError) as exc:
        raise ArenaError(f"{directory / 'config.json'}: not a saved config ({exc!r})") from None


def _ratings(saved: Mapping[str, Any] | None) -> Mapping[str, Any]:
    ratings = saved.get(RATINGS) if saved else None
    return ratings if isinstance(ratings, Mapping) else {}


def hold(run: RunPlan) -> None:
    """Claim the run's folder (see :meth:`RunStore.claim`), making it if :func:`plan` found
    none; a run that started there since :func:`plan` looked is refused."""
    store = run.store
    if store.claimed:
        return
    store.directory.mkdir(parents=True, exist_ok=True)
    store.claim()
    if store.saved_config() is not None or store.has_results():
        store.release()
        raise ArenaError(
            f"{store.directory}: another arena run started there meanwhile; continue it with "
            f"--resume once it ends, or choose another folder with --out")


def execute(
    run: RunPlan,
    connection: Connection,
    on_result: Callable[[MatchResult], None],
    on_failure: Callable[[Failed], None],
    on_idle: Callable[[], bool] | None = None,
) -> Dispatcher:
    """Play the pending matches; each is stored (a worker's batch in one write) before the
    callbacks see it; ``on_idle`` as :meth:`Dispatcher.run` takes it.

    Raises :class:`RecordingFailed` if the folder cannot be written (say the
    disk is full): what was recorded before is safe for ``--resume``."""
    hold(run)
    dispatcher = Dispatcher(connection.workers, in_flight=connection.in_flight)

    def record_failure(failure: Failed) -> None:
        run.store.append_failure(failure.id, failure.reason)
        on_failure(failure)

    try:
        if run.fresh:
            config = run.config.to_json()
            config[RATINGS] = {"draw_probability": run.draw_probability}
            run.store.start(config)
        with run.store:
            dispatcher.run(run.pending, on_result, record_failure, on_idle, run.store.append_all,
                           connection.watch())
    except OSError as exc:
        where = exc.filename or run.store.directory
        limit = file_size_limit()
        if exc.errno == errno.EFBIG and limit is not None:
            # "File too large" and "make room" sent the user to the disk, which had room.
            raise RecordingFailed(
                f"the results could not be written: {exc.filename or 'a file of ' + str(where)} "
                f"reached the file size limit ({size_limit_text(limit)}); every match recorded "
                f"before is safe",
                remedy="lift the limit (ulimit -f unlimited)") from None
        raise RecordingFailed(
            f"cannot write to {where}: {exc.strerror or exc}; every match recorded before "
            f"is safe"
        ) from None
    return dispatcher


class Observer(Protocol):
    """What :func:`play` reports to while a run goes on (the terminal view, a test).

    It is entered (``with observer``) once the workers are ready and exited when
    the run ends, finished or not; ``add``/``add_failure`` come in between."""

    def connecting(self, target: str) -> None:
        """Ray is about to start or be joined: ``target`` says which and how big."""

    def connected(self, connection: Connection, seconds: float) -> None:
        """Ray is ready after ``seconds``."""

    def __enter__(self) -> object: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...

    def add(self, result: MatchResult) -> None:
        """A match finished and is recorded. From a Ray worker, ``result`` may carry its
        replay and times in its stored line only (:attr:`MatchResult.line`)."""

    def add_failure(self, failure: Failed) -> None:
        """A match could not be played and is recorded as failed."""

    # Optional: ``idle() -> bool``, called while no batch has finished (see
    # :meth:`arena.cluster.Dispatcher.run`); :class:`arena.live.LiveBoard` rates then.


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the playing went: failures recorded, attempts lost with a dead worker."""

    failures: tuple[Failed, ...]
    retried: int
    ray_seconds: float
    """How long starting or joining Ray took."""
    nodes: tuple[tuple[str, int], ...] = ()
    """Matches played per Ray node id, in the order the nodes first answered."""


def play(
    run: RunPlan, observer: Observer, *, workers: int | None, address: str | None
) -> Outcome:
    """Start or join Ray, play what is left of ``run`` and let Ray go again.

    Raises ``KeyboardInterrupt`` as it came (every finished match is saved), and as
    :class:`Stopped` on SIGTERM or SIGHUP (in the main thread), and
    :class:`RecordingFailed` if the folder cannot be written."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = [signal.getsignal(stop) for stop in STOP_SIGNALS] if main_thread else []
    _received.clear()
    try:
        if main_thread:
            _catch_stop_signals()
        return _play(run, observer, workers=workers, address=address,
                     catch_stop=_catch_stop_signals if main_thread else lambda: None)
    finally:
        for stop, handler in zip(STOP_SIGNALS, previous, strict=False):
            signal.signal(stop, handler)


def missing_folders(folder: Path) -> list[Path]:
    """``folder`` and each of its parents that does not exist yet, the deepest first: what
    making ``folder`` makes, and so what a run that never started takes away again."""
    missing: list[Path] = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _play(
    run: RunPlan, observer: Observer, *, workers: int | None, address: str | None,
    catch_stop: Callable[[], None],
) -> Outcome:
    made = missing_folders(run.store.directory)
    hold(run)  # before Ray starts: a second run into the folder is told at once
    started = time.monotonic()
    try:
        # In here: a line that cannot be written (`arena run CONFIG | head -1`) stops the run
        # as Ray's failure to start does.
        observer.connecting(describe(workers, address))
        connection = _connect(workers, address, run.config)
    except BaseException:
        if made:  # Ray did not start: leave no empty folder behind, `results/` included
            run.store.release()
            for folder in made:
                with contextlib.suppress(OSError):
                    folder.rmdir()
        raise
    ray_seconds = time.monotonic() - started
    failures: list[Failed] = []

    def failed(failure: Failed) -> None:
        failures.append(failure)
        observer.add_failure(failure)

    try:
        catch_stop()  # again: ray.init put its own SIGTERM handler in place of ours
        observer.connected(connection, ray_seconds)
        with observer:
            dispatcher = execute(run, connection, observer.add, failed,
                                 getattr(observer, "idle", None))
    finally:
        connection.close()
    return Outcome(tuple(failures), dispatcher.retried, ray_seconds,
                   tuple(dispatcher.nodes.items()))


def _connect(workers: int | None, address: str | None, config: TournamentConfig) -> Connection:
    try:
        return connect(workers, address, ship=bot_packages(config))
    except SystemExit as exc:
        # ray.init's own SIGTERM handler, in place while it starts Ray: sys.exit(15).
        if exc.code == signal.SIGTERM:
            raise Stopped(signal.SIGTERM) from None
        raise


def bot_packages(config: TournamentConfig) -> list[Path]:
    """The folders of the bots' own packages, which a run on a cluster ships to its nodes:
    for the sandboxed bots of installed plugins, every top-level package or module of the
    plugin's distribution and its metadata folder (:func:`distribution_parts`), not the
    arena's own packages (every node has them); for a stored bot, a folder holding its
    wheel, from which a node that lacks the bot's environment builds it (once, in its
    cache)."""
    if config.limits.isolation != "process":
        return []
    own = {module_location("arena"), module_location("engines")}
    packages: list[Path] = []
    for bot in config.bots:
        parts: list[Path | None] = []
        if bot.environment:
            parts.append(shipping_folder(bot.environment, _shipping_staging()))
        elif bot.plugin:
            parts += [module_location(bot.plugin), *distribution_parts(bot.plugin)]
        for where in parts:
            if (where is not None and (where.is_dir() or where.suffix == ".py")
                    and where not in own and where not in packages):
                packages.append(where)
    return packages


@functools.cache
def _shipping_staging() -> Path:
    """A folder of this process for the stored bots' wheels a run ships; removed at exit,
    also when a stop during Ray's start ends the process without its exit handlers."""
    staging = Path(tempfile.mkdtemp(prefix="arena-ship-"))
    atexit.register(shutil.rmtree, staging, True)
    AT_CUT_EXIT.append(functools.partial(shutil.rmtree, staging, True))
    return staging



@dataclass(frozen=True, slots=True)
class Saved:
    """What a run folder says about how to show its leaderboard."""

    title: str
    labels: tuple[str, ...]
    draw_probability: float
    warnings: tuple[str, ...]
    """Why the table may differ from the run's own (the config could not be read...)."""
    planned: Callable[[MatchResult], bool | None] | None = None
    """Whether a recorded match is the run's (see :func:`plan_check`); None where the folder
    has no plan to check against (no readable config; ``arena play``'s matches)."""


def saved_settings(
    directory: Path, installed: Callable[[], Registry | None] = lambda: None
) -> Saved:
    """The title, bots and draw probability of the run in ``directory``, from its
    ``config.json``; for a run saved without a draw probability, the game's from
    ``installed()`` (asked only then), else the default with a warning."""
    path = directory / CONFIG
    warnings: list[str] = []
    saved: dict[str, Any] | None = None
    try:
        saved = RunStore(directory).saved_config()
        if saved is None:
            warnings.append(f"{path} is missing")
    except ArenaError as exc:
        warnings.append(str(exc))
    if saved is not None and not isinstance(saved, dict):
        warnings.append(f"{path}: not a saved config")
        saved = None
    name = str(saved.get("name", "")) if saved else ""
    game = (str(saved.get("game", "")) if saved else "") or _recorded_game(directory)
    labels = _labels(saved, path, warnings)
    probability = usable_draw_probability(_ratings(saved).get("draw_probability"))
    if probability is None:
        found = installed() if game else None
        declared = game_draw_probability(found, game) if found else None
        probability = declared or DRAW_PROBABILITY
        if declared is None:
            warnings.append(
                f"no draw probability saved or installed for {game or 'the game'}: "
                f"rated with the default {DRAW_PROBABILITY}, so the table may differ from the run's"
            )
    if saved is None:
        warnings.append("bots that played no match are not listed")
    title = f"{name or directory.name}: {game}" if game else (name or directory.name)
    # plain(): the config's name and game are any text a results folder holds (which may come
    # from anyone); ``--history`` printed them as they were (the terminal's title set).
    title = plain(title)
    planned = _saved_plan(saved, labels, path, warnings)
    return Saved(title, labels, probability, tuple(warnings), planned)


def _saved_plan(
    saved: Mapping[str, Any] | None, labels: tuple[str, ...], path: Path, warnings: list[str]
) -> Callable[[MatchResult], bool | None] | None:
    """The plan check of a saved tournament config (its fields as ``plan`` compares them)."""
    plan_keys = ("players", "rounds", "seed", "seating")
    if saved is None or not labels or "played_by" in saved \
            or not all(key in saved for key in plan_keys):  # a folder made by hand: no plan
        return None
    players, rounds, seed = (_whole(saved.get(key)) for key in ("players", "rounds", "seed"))
    game, seating = saved.get("game"), saved.get("seating")
    if (players is None or rounds is None or seed is None or not isinstance(game, str)
            or not isinstance(seating, str) or seating not in SEATINGS
            or not 1 <= players <= len(labels) or rounds < 1):
        warnings.append(f"{path}: its plan cannot be read (players, rounds, seed or seating); "
                        "every recorded match is rated")
        return None
    return of_the_plan(game, labels, players, rounds, seating, seed)


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _recorded_game(directory: Path) -> str:
    """The game of the run's first recorded match ("" if there is none to read): without its
    config a run still rates with the draw probability of its game, where it is installed."""
    try:
        with (directory / MATCHES).open(encoding="utf-8") as handle:
            first = next((line for line, whole in bounded_lines(handle)
                          if whole and line.strip()), "")
        record = json.loads(first)
    except (OSError, ValueError, RecursionError):
        return ""
    game = record.get("game") if isinstance(record, dict) else None
    return game if isinstance(game, str) else ""


def _labels(saved: Mapping[str, Any] | None, path: Path, warnings: list[str]) -> tuple[str, ...]:
    if saved is None:
        return ()
    try:
        labels = tuple(bot["label"] for bot in saved["bots"])
        if not all(is_label(label) for label in labels):
            raise TypeError("a label that is not one")
        return labels
    except (KeyError, TypeError):
        warnings.append(f"{path}: its bots cannot be read")
        return ()
