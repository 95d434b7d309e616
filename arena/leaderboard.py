"""The leaderboard of a run in four formats, and the summary of its faults.

The rich table and the markdown table show the same columns; JSON and CSV
carry the same facts as machine-readable fields (full precision, ``null`` or
an empty cell where there is nothing to average). Places are 1-based. The
live view of a running tournament is :mod:`arena.live`.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass

from rich import box
from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text

from arena.confidence import SEPARATED, above_next, separated
from arena.ratings import Standing, canonical_order
from arena.records import MatchResult, plain

FORMATS = ("table", "json", "csv", "markdown")
"""The values of ``arena leaderboard --format``."""

FIELDS = (
    "place",
    "bot",
    "mu",
    "sigma",
    "conservative",
    "above_next",
    "separated",
    "matches",
    "wins",
    "win_rate",
    "mean_score",
    "mean_place",
    "faults",
)
"""The keys of a JSON row and the CSV header, in order. ``above_next``: the probability that
this bot's skill exceeds the next row's (null for the last row); ``separated``: whether that
is at least 95%."""

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
    cell: Callable[[int, Standing], str] | None
    """None: the cell of :data:`ABOVE_NEXT`, which depends on the next row too."""
    drop: int = 0
    """When the table is too wide, columns go in rising order of ``drop``, from 1; 0 stays."""


_MU, _SIGMA = "\N{GREEK SMALL LETTER MU}", "\N{GREEK SMALL LETTER SIGMA}"

NOT_SEPARATED = "\N{ALMOST EQUAL TO}"
"""Marks a place not separated from the next with 95% confidence."""

ABOVE_NEXT = "P(>next)"
"""The header of the column of :func:`arena.confidence.above_next`."""

LEGEND = (
    f"{ABOVE_NEXT}: probability that the bot's skill exceeds the next row's; "
    f"{NOT_SEPARATED}: not separated from the next place at {SEPARATED:.0%} confidence"
)
"""The caption under a table with a place marked :data:`NOT_SEPARATED`."""


def _above_next_cell(probability: float | None) -> str:
    if probability is None:
        return MISSING
    shown = (">99.9%" if probability > 0.999 else "<0.1%" if probability < 0.001
             else f"{100 * probability:.1f}%")
    # Two trailing spaces where the mark would be keep the digits of a column aligned.
    return f"{shown}  " if separated(probability) else f"{shown} {NOT_SEPARATED}"

COLUMNS = (
    _Column("#", True, lambda place, row: str(place), drop=8),
    _Column("bot", False, lambda place, row: row.bot),
    _Column(f"{_MU}\N{MINUS SIGN}3{_SIGMA}", True, lambda place, row: _number(row.conservative, 2)),
    _Column(ABOVE_NEXT, True, None),
    _Column(_MU, True, lambda place, row: _number(row.mu, 2), drop=2),
    _Column(_SIGMA, True, lambda place, row: _number(row.sigma, 2), drop=1),
    _Column("matches", True, lambda place, row: str(row.matches), drop=3),
    _Column("wins", True, lambda place, row: str(row.wins), drop=7),
    _Column("win %", True, lambda place, row: _percent(row.win_rate), drop=6),
    _Column("score", True, lambda place, row: _number(row.mean_score, 2), drop=5),
    _Column("place", True, lambda place, row: _number(row.mean_place, 2), drop=4),
    _Column("faults", True, lambda place, row: str(row.faults)),
)
"""``score`` and ``place`` are the bot's mean score and mean place over its rated matches."""


def _cells(standings: Sequence[Standing], columns: Sequence[_Column]) -> list[list[str]]:
    """The human-readable cells, one list per bot, best first."""
    sure = above_next(standings)
    return [
        [_above_next_cell(sure[place - 1]) if column.cell is None else column.cell(place, row)
         for column in columns]
        for place, row in enumerate(standings, start=1)
    ]


def _fitting(standings: Sequence[Standing], width: int | None) -> list[_Column]:
    """The columns that fit ``width`` cells, dropping the least needed first: numbers go
    before any bot label is cut."""
    columns = list(COLUMNS)
    if width is None:
        return columns
    rows = _cells(standings, columns)
    widths = {
        column.header: max([cell_len(column.header)] + [cell_len(row[i]) for row in rows])
        for i, column in enumerate(columns)
    }
    # Each column is padded by one cell on both sides (see leaderboard_table's box).
    while sum(widths[column.header] + 2 for column in columns) > width:
        droppable = [column for column in columns if column.drop]
        if not droppable:
            break
        columns.remove(min(droppable, key=lambda column: column.drop))
    return columns


def leaderboard_table(
    standings: Sequence[Standing],
    title: str | None = None,
    caption: str | None = None,
    width: int | None = None,
) -> Table:
    """The standings as a rich table, numbers right-aligned.

    Given the console's ``width``, columns are dropped (sigma first) until the
    table fits; a bot label too long even then folds onto a second line, never
    cut to an ellipsis."""
    columns = _fitting(standings, width)
    if any(separated(p) is False for p in above_next(standings)):
        caption = LEGEND if caption is None else f"{caption}; {LEGEND}"
    # Text, plain(): the title is the run's name from its config.json, which may come from
    # anyone (its "[/]" raised rich's MarkupError; its escape codes set the terminal's title).
    table = Table(
        title=None if title is None else Text(plain(title)),
        caption=None if caption is None else Text(plain(caption)), box=box.SIMPLE_HEAD,
        collapse_padding=True, pad_edge=False,
    )
    for column in columns:
        if column.numeric:
            table.add_column(column.header, justify="right", no_wrap=True)
        else:
            table.add_column(column.header, justify="left", overflow="fold")
    for cells in _cells(standings, columns):
        # Text, not str: a bot label like "greedy[v2]" must not be read as markup; plain():
        # a label from a hand-edited results file must not move the cursor or clear the screen.
        table.add_row(*(Text(plain(cell)) for cell in cells))
    return table


def _finite(value: object) -> object:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _records(standings: Sequence[Standing]) -> list[dict[str, object]]:
    records = []
    for place, (row, sure) in enumerate(zip(standings, above_next(standings), strict=True), 1):
        record: dict[str, object] = {"place": place, **asdict(row)}
        record["above_next"], record["separated"] = sure, separated(sure)
        # null for a number that is not one: "NaN" and "Infinity" are not JSON (jq refused
        # the output of a run whose record said NaN for a score).
        records.append({field: _finite(record[field]) for field in FIELDS})
    return records


def to_json(standings: Sequence[Standing]) -> str:
    """A JSON list, best first, of objects with the keys of :data:`FIELDS`."""
    return json.dumps(_records(standings), indent=2, ensure_ascii=False)


def to_csv(standings: Sequence[Standing]) -> str:
    """A CSV table with a header row of :data:`FIELDS`; missing means are empty cells, and a
    bool is ``true`` or ``false`` (as in the JSON export: Python's ``True`` is read as text by
    most CSV readers)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: _csv_cell(value) for key, value in record.items()}
                     for record in _records(standings))
    return buffer.getvalue()


def _csv_cell(value: object) -> object:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _markdown_row(cells: Iterable[str]) -> str:
    # A pipe inside a cell would end it early; GitHub reads "\|" as a literal pipe.
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def to_markdown(standings: Sequence[Standing]) -> str:
    """A GitHub pipe table with the columns of the rich table."""
    rule = ["---:" if column.numeric else ":---" for column in COLUMNS]
    lines = [_markdown_row(column.header for column in COLUMNS), "|" + "|".join(rule) + "|"]
    lines += [_markdown_row(cells) for cells in _cells(standings, COLUMNS)]
    if any(separated(p) is False for p in above_next(standings)):
        lines += ["", LEGEND]
    return "\n".join(lines) + "\n"


def render(
    standings: Sequence[Standing], fmt: str, title: str | None = None, width: int | None = None
) -> Table | str:
    """The standings in one of :data:`FORMATS`: a rich table for "table" (fitting ``width``
    cells if given), text otherwise."""
    if fmt == "table":
        return leaderboard_table(standings, title, width=width)
    writers = {"json": to_json, "csv": to_csv, "markdown": to_markdown}
    if fmt not in writers:
        raise ValueError(f"unknown leaderboard format {fmt!r}; choose one of {FORMATS}")
    return writers[fmt](standings)


_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_SHIPPED = re.compile(r"^.*/_ray_pkg_[0-9a-f]+/")
"""Where Ray unpacks a bot's package shipped to a worker (``py_modules``): a temporary copy,
gone with the Ray session, so a frame there is shown from the package's own folder on."""


def _error_lines(error: str | None) -> tuple[str, str | None]:
    """A recorded error's last line (the exception) and, if the record holds a traceback,
    the ``file:line`` of its innermost frame (the bot's code)."""
    # plain(): a bot's exception message is the bot's text, escape codes and all.
    text = plain(error or "")
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    message = lines[-1] if lines else "(no error recorded)"
    frames = _FRAME.findall(text)
    if not frames:
        return message, None
    path, line = frames[-1]
    return message, f"{_SHIPPED.sub('', path)}:{line}"


def fault_summary(results: Iterable[MatchResult]) -> Group | None:
    """What went wrong, per bot that faulted: its faults by status, its first error (in
    match-id order) and the match to look at; None if no seat faulted."""
    statuses: dict[str, Counter[str]] = {}
    first: dict[str, tuple[str, str | None]] = {}
    for result in canonical_order(results):
        for label, status, error in zip(result.seats, result.statuses, result.errors, strict=True):
            if status == "ok":
                continue
            statuses.setdefault(label, Counter())[status] += 1
            first.setdefault(label, (result.id, error))
    if not statuses:
        return None
    lines = [Text("Faults:", style="bold")]
    for label in sorted(statuses):
        counts = statuses[label]
        by_status = ", ".join(f"{status} {count}" for status, count in counts.most_common())
        total = sum(counts.values())
        faults = f"{total} fault{'s' if total != 1 else ''} ({by_status})"
        lines.append(Text(f"  {plain(label)}: {faults}"))
        match_id, error = first[label]
        message, where = _error_lines(error)
        lines.append(Text(f"    first, in match {match_id}: {message}"))
        if where:
            lines.append(Text(f"    raised at {where}", overflow="fold"))
    return Group(*lines)
