"""The view of a running tournament: progress and a provisional leaderboard.

On a terminal, a rich ``Live`` display (a progress bar above a table that
updates as matches land); elsewhere (CI logs, pipes), a plain progress line
every few seconds. Either way the final table, rated in canonical order,
follows when the run ends. The tables themselves come from
:mod:`arena.leaderboard`.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from arena.aside import Aside, spawn
from arena.leaderboard import fault_summary, leaderboard_table
from arena.ledger import Ledger, Rater
from arena.ratings import DRAW_PROBABILITY, Standing
from arena.records import MatchResult

ETA_MATCHES = 5
"""Matches this session must have finished, after the first, before a time left is shown."""
ETA_SECONDS = 2.0
"""Seconds since the first match landed before a time left is shown: until then the
rate mostly measures the workers starting up."""
RATING_SHARE = 0.1
"""The share of the driver's time the live table may spend rating: TrueSkill takes about
30 µs a three-seat match, so rating every match as it lands would cap a run near 30,000
matches/s, and on a machine whose cores all play matches the driver's time is taken from a
worker."""
CALIBRATE_ABOVE = 10_000
"""A run of at least this many matches (this session) says how long it expects to take."""
CALIBRATION_SECONDS = 5.0
"""How long the pace is measured (from the first match) before that is said."""
SAY_RATING_ABOVE = 20_000
"""Matches left to rate at the end (about a second of TrueSkill) above which that is said."""
RATING_ALLOWANCE = 0.05
"""Seconds of rating allowed on top of the share (a small run's table is always current)."""
IDLE_SLICE = 0.01
"""Seconds of rating per call of :meth:`LiveBoard.idle`: the driver looks for finished
batches again after each."""


def _duration(seconds: float | None) -> str:
    """A short human duration: "19s", "3m05s", "2h07m"; "?" when unknown."""
    if seconds is None or not math.isfinite(seconds):
        return "?"
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


@dataclass(slots=True)
class _Counts:
    """How far a tournament has got, and how fast this session goes."""

    total: int
    done: int
    failures: int = 0
    session_start_done: int = 0
    session_start_time: float = 0.0
    first_at: float | None = None
    """When this session's first match landed; None before."""
    first_done: int = 0

    def landed(self, now: float) -> None:
        """One more match done (recorded or failed)."""
        self.done += 1
        if self.first_at is None:  # the pace is measured from here on
            self.first_at, self.first_done = now, self.done

    def rate(self, now: float) -> float:
        """Matches per second finished in this session (resumed ones excluded)."""
        elapsed = now - self.session_start_time
        return (self.done - self.session_start_done) / elapsed if elapsed > 0 else 0.0

    def eta(self, now: float) -> float | None:
        """Seconds left, once the pace since the first match means something; else None."""
        if self.first_at is None:
            return None
        since_first, elapsed = self.done - self.first_done, now - self.first_at
        if since_first < ETA_MATCHES or elapsed < ETA_SECONDS:
            return None
        return (self.total - self.done) * elapsed / since_first

    def line(self, now: float) -> str:
        """A plain progress line: "[12/72]  16.7%  3.1 matches/s  eta 19s"."""
        width = len(str(self.total))
        percent = 100.0 * self.done / self.total if self.total else 100.0
        speed = self.rate(now)
        line = f"[{self.done:>{width}}/{self.total}] {percent:5.1f}%  {speed:.1f} matches/s"
        eta = self.eta(now)
        if eta is not None and self.done < self.total:
            line += f"  eta {_duration(eta)}"
        return line + (f"  {self.failures} failed" if self.failures else "")


class _PlainView:
    """Progress as plain lines, for CI logs and pipes: no ANSI, no animation."""

    def __init__(self, console: Console, counts: _Counts, log_seconds: float) -> None:
        self._console = console
        self._counts = counts
        self._log_seconds = log_seconds
        self._logged_at = -math.inf
        self._logged_done = -1

    def start(self) -> None:
        """Nothing to show until the first match lands."""

    def advance(self, now: float) -> None:
        """Print a line if the last one is old enough, or if the run is complete."""
        complete = self._counts.done >= self._counts.total
        if complete or now - self._logged_at >= self._log_seconds:
            self._log(now)

    def stop(self, now: float) -> None:
        """Print the last count, unless it is already on screen."""
        if self._logged_done != self._counts.done:
            self._log(now)

    def _log(self, now: float) -> None:
        self._console.print(self._counts.line(now), markup=False, highlight=False)
        self._logged_at, self._logged_done = now, self._counts.done


class _RateColumn(ProgressColumn):
    """Matches per second, as rich estimates it."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("? matches/s" if speed is None else f"{speed:.1f} matches/s")


class _EtaColumn(ProgressColumn):
    """The time left, shown only once it means something (see :meth:`_Counts.eta`)."""

    def __init__(self, counts: _Counts, clock: Callable[[], float]) -> None:
        super().__init__()
        self._counts = counts
        self._clock = clock

    def render(self, task: Task) -> Text:
        eta = self._counts.eta(self._clock())
        return Text("" if eta is None or task.finished else f"eta {_duration(eta)}")


class _Screen:
    """What the live display shows: the progress bar above the provisional table.

    Rendered by the refresh thread of ``Live``, which also rebuilds the table,
    at most every ``refresh_seconds`` and only when a match landed since.
    """

    def __init__(
        self,
        progress: Progress,
        build_table: Callable[[], Table],
        refresh_seconds: float,
        clock: Callable[[], float],
    ) -> None:
        self.progress = progress
        self.stale = True
        self.show_table = True
        self._build_table = build_table
        self._refresh_seconds = refresh_seconds
        self._clock = clock
        self._table: Table | None = None
        self._built_at = -math.inf

    def __rich__(self) -> RenderableType:
        if not self.show_table:
            return self.progress
        now = self._clock()
        if self._table is None or (self.stale and now - self._built_at >= self._refresh_seconds):
            # Cleared before building: a match landing meanwhile marks it stale again.
            self.stale = False
            self._table, self._built_at = self._build_table(), now
        return Group(self.progress, self._table)


class _LiveView:
    """A rich ``Live`` display for a terminal: progress bar and a table updating."""

    def __init__(
        self,
        console: Console,
        counts: _Counts,
        build_table: Callable[[], Table],
        refresh_seconds: float,
        clock: Callable[[], float],
    ) -> None:
        self._counts = counts
        self._progress = Progress(
            TextColumn("matches"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            _RateColumn(),
            TimeElapsedColumn(),
            _EtaColumn(counts, clock),
            console=console,
            get_time=clock,
            speed_estimate_period=60.0,
        )
        self._task = self._progress.add_task("matches", total=counts.total, completed=counts.done)
        self._screen = _Screen(self._progress, build_table, refresh_seconds, clock)
        self._live = Live(self._screen, console=console, refresh_per_second=4)

    def start(self) -> None:
        """Show the display; a thread of ``Live`` refreshes it from now on."""
        self._live.start()

    def advance(self, now: float) -> None:
        """Move the bar; the table follows at its next rebuild."""
        self._progress.update(self._task, completed=self._counts.done)
        self._screen.stale = True

    def stop(self, now: float) -> None:
        """Leave the finished bar on screen; the provisional table goes."""
        self._progress.update(self._task, completed=self._counts.done)
        self._screen.show_table = False
        self._live.stop()


class LiveBoard:
    """The view of a running tournament; a context manager around the match loop.

    On a terminal it shows a progress bar above a leaderboard that updates as
    matches land. Elsewhere (CI, pipes) it prints a plain progress line every
    ``log_seconds`` and when the run completes. On exit, in both modes, it
    prints the final table, rated in canonical order by :func:`rate`.

    ``checkpoint``: the run folder, whose rating checkpoint (see
    :func:`arena.ledger.rate_run`) a resumed run goes on from and which is
    written again at the end.

    Given the plan's match ids in canonical order (``order``), the live table
    is rated along them as far as every match has landed: it is the final
    table of those matches, and the final table at the end only rates the
    rest. Without an order it is provisional, rated in arrival order. Either
    way it spends at most :data:`RATING_SHARE` of the time (plus
    :data:`RATING_ALLOWANCE`) rating (TrueSkill is the driver's largest
    cost); matches beyond that wait, and the table says how many. What is
    kept of each match is its :class:`~arena.ledger.Ledger` record (a few
    dozen bytes) and, for the fault summary, the results in which a seat
    faulted (without their replays).

    ``previous`` are the results of a resumed run, counted as done and rated;
    ``already_done`` overrides their count when only the count is known.
    Call :meth:`add` and :meth:`add_failure` from one thread.
    """

    def __init__(
        self,
        console: Console,
        total: int,
        labels: Iterable[str] = (),
        draw_probability: float = DRAW_PROBABILITY,
        title: str | None = None,
        *,
        previous: Iterable[MatchResult] = (),
        already_done: int | None = None,
        refresh_seconds: float = 0.5,
        log_seconds: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        order: Iterable[str] | None = None,
        checkpoint: Path | None = None,
        aside: bool = False,
    ) -> None:
        self._console = console
        self._labels = tuple(labels)
        self._draw_probability = draw_probability
        self._title = title
        self._clock = clock
        self._ledger = Ledger(self._labels)
        self._faulty: list[MatchResult] = []
        self._rater = Rater(self._ledger, draw_probability, order)
        self._rating_seconds = 0.0
        self._rating_since = time.perf_counter()
        self._calibrated = False
        self.rate_aside = aside
        """Whether to rate along the order in a process of its own once entered
        (:mod:`arena.aside`; only with an ``order``)."""
        self._prepared: Aside | None = None
        self.first_match_seconds: float | None = None
        """Seconds from entering (the workers ready) to this session's first match."""
        # The live display's thread reads the ratings while add() updates them.
        self._lock = threading.Lock()
        for result in previous:
            self._keep(result)
        self._rater.sort_arrivals()  # a resumed run's matches are rated in match order
        self._checkpoint = checkpoint
        self.resumed_ratings = self._rater.resume(checkpoint) if checkpoint is not None else 0
        """Matches of a resumed run whose ratings came from the folder's checkpoint."""
        done = len(self._ledger) if already_done is None else already_done
        self._counts = _Counts(total=total, done=done, session_start_done=done)
        self._view: _PlainView | _LiveView = (
            _LiveView(console, self._counts, self._provisional_table, refresh_seconds, clock)
            if console.is_terminal
            else _PlainView(console, self._counts, log_seconds)
        )

    def __enter__(self) -> LiveBoard:
        prepared, self._prepared = self._prepared, None
        if self.rate_aside and self._rater.canonical:
            aside = prepared or spawn()
            if aside is not None:
                self._rater.hand_to(aside)
        elif prepared is not None:
            prepared.close()
        self._counts.session_start_time = self._clock()
        self._view.start()
        return self

    def prepare_aside(self) -> None:
        """Start a rating process now (say, while Ray starts), for :attr:`rate_aside` to
        use once entered; ended unused if by then it is False."""
        if self._prepared is None:
            self._prepared = spawn()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        # Also after an interruption: the table of what finished is worth seeing.
        try:
            self._finish()
        finally:
            self._rater.close()

    def _finish(self) -> None:
        self._view.stop(self._clock())
        self._rater.flush()
        if self._rater.waiting >= SAY_RATING_ABOVE:
            self._console.print(
                f"Rating the {self._rater.waiting:,} matches the live table has not reached, "
                f"in match order ...", highlight=False)
        width = self._console.width
        with self._lock:
            final = self._rater.final_ratings()
        self._console.print(leaderboard_table(final[0].standings(), self._title, width=width))
        if self._checkpoint is not None:
            self._rater.save(self._checkpoint, final)
        summary = fault_summary(self._faulty)
        if summary is not None:
            self._console.print(summary)

    def add(self, result: MatchResult) -> None:
        """Count and rate one finished match, and update the view."""
        self._keep(result)
        self._rate_some()
        now = self._clock()
        first = self._counts.first_at is None
        self._counts.landed(now)
        if first:
            self.first_match_seconds = now - self._counts.session_start_time
            self._console.print(
                f"First match finished {self.first_match_seconds:.1f}s after the workers were "
                f"ready.", highlight=False)
        elif not self._calibrated:
            self._calibrate(now)
        self._view.advance(now)

    def _calibrate(self, now: float) -> None:
        """Once, for a long run: the expected duration, from the pace of its first seconds."""
        counts = self._counts
        left = counts.total - counts.done
        if counts.total - counts.session_start_done < CALIBRATE_ABOVE or counts.first_at is None:
            self._calibrated = True
            return
        eta = counts.eta(now)
        if eta is None or now - counts.first_at < CALIBRATION_SECONDS:
            return
        self._calibrated = True
        played = counts.done - counts.first_done
        self._console.print(
            f"Calibrated on {played:,} matches in {now - counts.first_at:.0f}s "
            f"({played / (now - counts.first_at):,.0f} matches/s): expect about "
            f"{_duration(eta)} for the {left:,} left.", highlight=False)

    def add_failure(self, failure: object = None) -> None:
        """Count a match that produced no result (it could not be set up, or was given up
        after retries)."""
        match_id = getattr(failure, "id", None)
        if isinstance(match_id, str):
            self._rater.failed(match_id)
            self._rate_some()
        now = self._clock()
        self._counts.landed(now)
        self._counts.failures += 1
        self._view.advance(now)

    def idle(self) -> bool:
        """Rate for a moment while the driver has nothing else to do (no finished batch is
        waiting), beyond the share: what is rated along the plan's order now is not rated at
        the end, when the workers have stopped. True while there is more to rate now; a
        provisional (arrival order) table is not rated here, since the end rates it again."""
        if not self._rater.canonical or not self._rater.ready:
            self._rater.flush()
            return False
        if self._rater.aside:
            self._rater.advance(math.inf)  # handed over: the rating process rates it
            self._rater.flush()
            return False
        with self._lock:
            self._rater.advance(time.perf_counter() + IDLE_SLICE)
        return self._rater.ready

    def standings(self) -> list[Standing]:
        """The final standings of every result so far, in canonical order."""
        with self._lock:
            return self._rater.final()

    def _keep(self, result: MatchResult) -> None:
        if result.id in self._ledger:
            return
        self._ledger.add(result)
        self._rater.landed(result.id)
        if any(status != "ok" for status in result.statuses):
            self._faulty.append(_without_history(result))

    def _rate_some(self) -> None:
        """Rate what is ready while the live table is within its share of the time."""
        if not self._rater.waiting:
            return
        if self._rater.aside:
            self._rater.advance(math.inf)  # handed over, within no share: rated aside
            return
        started = time.perf_counter()
        allowed = RATING_SHARE * (started - self._rating_since) + RATING_ALLOWANCE
        if self._rating_seconds >= allowed:
            return
        with self._lock:
            self._rater.advance(started + allowed - self._rating_seconds)
        self._rating_seconds += time.perf_counter() - started

    def _provisional_table(self) -> Table:
        with self._lock:
            standings, waiting, last = self._rater.live()
        if self._rater.canonical:
            caption = f"rated in match order through {last}" if last else "none rated yet"
        else:
            caption = "provisional: rated in arrival order"
        if waiting:
            caption += f"; {waiting:,} match(es) not rated yet"
        return leaderboard_table(standings, self._title, caption, width=self._console.width)


def _without_history(result: MatchResult) -> MatchResult:
    # The fault summary never reads the replay or the times, and a long run holds many.
    return replace(result, history=(), think_seconds=(), max_move_seconds=(), outputs=())
