"""The leaderboard: the final table in four formats, and a live view of a running tournament.

The rich table and the markdown table show the same columns; JSON and CSV
carry the same facts as machine-readable fields (full precision, ``null`` or
an empty cell where there is nothing to average). Places are 1-based.
"""

from __future__ import annotations

import csv
import io
import json
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from types import TracebackType

from rich import box
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
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from arena.ratings import DRAW_PROBABILITY, Ratings, Standing, canonical_order, rate
from arena.records import MatchResult

FORMATS = ("table", "json", "csv", "markdown")
"""The values of ``arena leaderboard --format``."""

FIELDS = (
    "place",
    "bot",
    "mu",
    "sigma",
    "conservative",
    "matches",
    "wins",
    "win_rate",
    "mean_score",
    "mean_place",
    "faults",
)
"""The keys of a JSON row and the CSV header, in order."""

MISSING = "-"
"""Shown in a table cell when there is nothing to average."""


def _number(value: float | None, decimals: int) -> str:
    return MISSING if value is None else f"{value:.{decimals}f}"


def _percent(value: float | None) -> str:
    return MISSING if value is None else f"{100 * value:.1f}"


@dataclass(frozen=True, slots=True)
class _Column:
    """One column of the human-readable tables (rich and markdown)."""

    header: str
    numeric: bool
    cell: Callable[[int, Standing], str]


COLUMNS = (
    _Column("place", True, lambda place, row: str(place)),
    _Column("bot", False, lambda place, row: row.bot),
    _Column("mu -\n3*sigma", True, lambda place, row: _number(row.conservative, 2)),
    _Column("mu", True, lambda place, row: _number(row.mu, 2)),
    _Column("sigma", True, lambda place, row: _number(row.sigma, 2)),
    _Column("matches", True, lambda place, row: str(row.matches)),
    _Column("wins", True, lambda place, row: str(row.wins)),
    _Column("win %", True, lambda place, row: _percent(row.win_rate)),
    _Column("mean\nscore", True, lambda place, row: _number(row.mean_score, 2)),
    _Column("mean\nplace", True, lambda place, row: _number(row.mean_place, 2)),
    _Column("faults", True, lambda place, row: str(row.faults)),
)


def _cells(standings: Sequence[Standing]) -> list[list[str]]:
    """The human-readable cells, one list per bot, best first."""
    return [
        [column.cell(place, row) for column in COLUMNS]
        for place, row in enumerate(standings, start=1)
    ]


def leaderboard_table(
    standings: Sequence[Standing], title: str | None = None, caption: str | None = None
) -> Table:
    """The standings as a rich table, numbers right-aligned."""
    # No vertical rules and two-line headers: the whole table fits an 80-column
    # terminal, so no value is cut to an ellipsis.
    table = Table(
        title=title, caption=caption, box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False
    )
    for column in COLUMNS:
        table.add_column(column.header, justify="right" if column.numeric else "left", no_wrap=True)
    rows = _cells(standings)
    for cells in rows:
        # Text, not str: a bot label like "greedy[v2]" must not be read as markup.
        table.add_row(*(Text(cell) for cell in cells))
    return table


def _records(standings: Sequence[Standing]) -> list[dict[str, object]]:
    return [{"place": place, **asdict(row)} for place, row in enumerate(standings, start=1)]


def to_json(standings: Sequence[Standing]) -> str:
    """A JSON list, best first, of objects with the keys of :data:`FIELDS`."""
    return json.dumps(_records(standings), indent=2, ensure_ascii=False)


def to_csv(standings: Sequence[Standing]) -> str:
    """A CSV table with a header row of :data:`FIELDS`; missing means are empty cells."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(_records(standings))
    return buffer.getvalue()


def _markdown_row(cells: Iterable[str]) -> str:
    # A pipe inside a cell would end it early; GitHub reads "\|" as a literal pipe.
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def to_markdown(standings: Sequence[Standing]) -> str:
    """A GitHub pipe table with the columns of the rich table."""
    rule = ["---:" if column.numeric else ":---" for column in COLUMNS]
    lines = [
        _markdown_row(column.header.replace("\n", " ") for column in COLUMNS),
        "|" + "|".join(rule) + "|",
    ]
    lines += [_markdown_row(cells) for cells in _cells(standings)]
    return "\n".join(lines) + "\n"


def render(standings: Sequence[Standing], fmt: str, title: str | None = None) -> Table | str:
    """The standings in one of :data:`FORMATS`: a rich table for "table", text otherwise."""
    if fmt == "table":
        return leaderboard_table(standings, title)
    writers = {"json": to_json, "csv": to_csv, "markdown": to_markdown}
    if fmt not in writers:
        raise ValueError(f"unknown leaderboard format {fmt!r}; choose one of {FORMATS}")
    return writers[fmt](standings)


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

    def rate(self, now: float) -> float:
        """Matches per second finished in this session (resumed ones excluded)."""
        elapsed = now - self.session_start_time
        return (self.done - self.session_start_done) / elapsed if elapsed > 0 else 0.0

    def line(self, now: float) -> str:
        """A plain progress line: "[12/72]  16.7%  3.1 matches/s  eta 19s"."""
        width = len(str(self.total))
        percent = 100.0 * self.done / self.total if self.total else 100.0
        speed = self.rate(now)
        eta = (self.total - self.done) / speed if speed > 0 else None
        line = f"[{self.done:>{width}}/{self.total}] {percent:5.1f}%  {speed:.1f} matches/s"
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
            TextColumn("eta"),
            TimeRemainingColumn(),
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

    The live table is provisional: rating every match again in canonical
    order at each refresh would cost time proportional to the run (about half
    a millisecond per four-seat match), so the live table is rated
    incrementally in arrival order, and may differ slightly from the final.

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
    ) -> None:
        self._console = console
        self._labels = tuple(labels)
        self._draw_probability = draw_probability
        self._title = title
        self._clock = clock
        self._results = [_without_history(result) for result in previous]
        self._ratings = Ratings(draw_probability, self._labels)
        for result in canonical_order(self._results):
            self._ratings.add(result)
        # The live display's thread reads the ratings while add() updates them.
        self._lock = threading.Lock()
        done = len(self._results) if already_done is None else already_done
        self._counts = _Counts(total=total, done=done, session_start_done=done)
        self._view: _PlainView | _LiveView = (
            _LiveView(console, self._counts, self._provisional_table, refresh_seconds, clock)
            if console.is_terminal
            else _PlainView(console, self._counts, log_seconds)
        )

    def __enter__(self) -> LiveBoard:
        self._counts.session_start_time = self._clock()
        self._view.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        # Also after an interruption: the table of what finished is worth seeing.
        self._view.stop(self._clock())
        self._console.print(leaderboard_table(self.standings(), self._title))

    def add(self, result: MatchResult) -> None:
        """Count and rate one finished match, and update the view."""
        self._results.append(_without_history(result))
        with self._lock:
            self._ratings.add(result)
        self._counts.done += 1
        self._view.advance(self._clock())

    def add_failure(self) -> None:
        """Count a match that produced no result (given up after retries)."""
        self._counts.done += 1
        self._counts.failures += 1
        self._view.advance(self._clock())

    def standings(self) -> list[Standing]:
        """The final standings of every result so far, in canonical order."""
        return rate(self._results, self._draw_probability, self._labels)

    def _provisional_table(self) -> Table:
        with self._lock:
            standings = self._ratings.standings()
        caption = "provisional: rated in arrival order"
        return leaderboard_table(standings, self._title, caption)


def _without_history(result: MatchResult) -> MatchResult:
    # Ratings never read the replay, and a long run holds many of them.
    return replace(result, history=())
