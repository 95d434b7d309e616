"""The leaderboard: rich, JSON, CSV and markdown tables, and the live view of a run."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator, Sequence
from typing import cast

import pytest
from helpers import finished
from rich.console import Console
from rich.table import Table

from arena.leaderboard import (
    FIELDS,
    LiveBoard,
    leaderboard_table,
    render,
    to_csv,
    to_json,
    to_markdown,
)
from arena.ratings import Standing, rate
from arena.records import MatchResult

HEADERS = [
    "place",
    "bot",
    "mu - 3*sigma",
    "mu",
    "sigma",
    "matches",
    "wins",
    "win %",
    "mean score",
    "mean place",
    "faults",
]
PROGRESS_LINE = re.compile(r"^\[ *\d+/\d+\] +\d+\.\d%  \d+\.\d matches/s  eta \S+( +\d+ failed)?$")


def result(match_id: str, seats: Sequence[str], ranking: Sequence[int]) -> MatchResult:
    n = len(seats)
    return finished(match_id, seats, ranking, scores=[float(10 * (n - p)) for p in ranking])


def tournament() -> list[MatchResult]:
    """Twelve three-seat matches that strong always wins and weak always loses."""
    order = {"strong": 0, "middling": 1, "weak": 2}
    seatings = [["strong", "middling", "weak"], ["weak", "strong", "middling"]]
    seatings += [["middling", "weak", "strong"]]
    return [
        result(f"m{n:02d}", seats, [order[label] for label in seats])
        for n, seats in enumerate(seatings * 4)
    ]


@pytest.fixture
def standings() -> list[Standing]:
    return rate(tournament(), labels=["strong", "middling", "weak", "idle"])


def recording_console(terminal: bool = False) -> Console:
    return Console(record=True, width=120, file=io.StringIO(), force_terminal=terminal)


def written(console: Console) -> str:
    """Everything the console wrote, control codes included."""
    return cast(io.StringIO, console.file).getvalue()


def text_of(table: Table) -> str:
    console = recording_console()
    console.print(table)
    return console.export_text()


def row_with(text: str, bot: str) -> str:
    return next(line for line in text.splitlines() if f" {bot} " in line)


def test_the_table_shows_every_column_in_order(standings: list[Standing]) -> None:
    table = leaderboard_table(standings, title="quick")
    assert [str(column.header).replace("\n", " ") for column in table.columns] == HEADERS
    text = text_of(table)
    top, bottom = (line for line in text.splitlines() if "3*sigma" in line or "mu -" in line)
    assert top.index("mu -") < top.index("mean") and bottom.index("bot") < bottom.index("faults")
    assert "quick" in text


def test_the_table_lists_bots_best_first_with_their_numbers(standings: list[Standing]) -> None:
    text = text_of(leaderboard_table(standings))
    bot_order = sorted(["strong", "middling", "weak", "idle"], key=text.index)
    assert bot_order == [row.bot for row in standings]
    strong = standings[0]
    cells = row_with(text, "strong").split()
    expected = [
        "1",
        "strong",
        f"{strong.conservative:.2f}",
        f"{strong.mu:.2f}",
        f"{strong.sigma:.2f}",
        "12",
        "12",
        "100.0",
        "30.00",
        "1.00",
        "0",
    ]
    assert cells == expected
    assert row_with(text, "idle").split()[-1] == "0"
    assert " - " in row_with(text, "idle")  # no mean of nothing


def test_a_bot_label_is_shown_literally_not_as_markup() -> None:
    text = text_of(leaderboard_table(rate([result("m1", ["[bold]x", "y"], [0, 1])])))
    assert "[bold]x" in text


def test_json_lists_every_field_best_first(standings: list[Standing]) -> None:
    rows = json.loads(to_json(standings))
    assert [row["bot"] for row in rows] == [row.bot for row in standings]
    assert [row["place"] for row in rows] == [1, 2, 3, 4]
    assert all(list(row) == list(FIELDS) for row in rows)
    assert rows[0]["mu"] == standings[0].mu
    assert rows[0]["mean_place"] == 1.0
    idle = next(row for row in rows if row["bot"] == "idle")
    assert idle["mean_score"] is None  # nothing to average


def test_csv_has_a_header_row_and_one_row_per_bot(standings: list[Standing]) -> None:
    reader = csv.DictReader(io.StringIO(to_csv(standings)))
    assert reader.fieldnames == list(FIELDS)
    rows = list(reader)
    assert [row["bot"] for row in rows] == [row.bot for row in standings]
    assert float(rows[0]["conservative"]) == standings[0].conservative
    assert rows[0]["wins"] == "12"
    idle = next(row for row in rows if row["bot"] == "idle")
    assert idle["win_rate"] == ""


def markdown_cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split(" | ")]


def test_markdown_is_a_pipe_table_with_the_table_columns(standings: list[Standing]) -> None:
    lines = to_markdown(standings).splitlines()
    assert markdown_cells(lines[0]) == HEADERS
    assert lines[1].split("|")[1:3] == ["---:", ":---"]
    assert len(lines) == 2 + len(standings)
    assert markdown_cells(lines[2])[:2] == ["1", "strong"]
    assert markdown_cells(lines[2])[5:8] == ["12", "12", "100.0"]


def test_markdown_escapes_a_pipe_in_a_label() -> None:
    markdown = to_markdown(rate([result("m1", ["a|b", "c"], [0, 1])]))
    assert "a\\|b" in markdown


def test_render_dispatches_on_the_format(standings: list[Standing]) -> None:
    assert isinstance(render(standings, "table"), Table)
    assert render(standings, "json") == to_json(standings)
    assert render(standings, "csv") == to_csv(standings)
    assert render(standings, "markdown") == to_markdown(standings)
    with pytest.raises(ValueError, match="yaml"):
        render(standings, "yaml")


def ticking(step: float) -> Iterator[float]:
    """A clock that moves ``step`` seconds at every reading."""
    now = 0.0
    while True:
        yield now
        now += step


def test_off_a_terminal_progress_is_plain_lines_then_the_final_table() -> None:
    console = recording_console()
    results = tournament()
    clock = ticking(1.0)
    with LiveBoard(
        console, len(results), title="quick", log_seconds=5.0, clock=lambda: next(clock)
    ) as board:
        for match in results:
            board.add(match)
    output = written(console)
    assert "\x1b" not in output
    lines = output.splitlines()
    progress = [line for line in lines if line.startswith("[")]
    assert all(PROGRESS_LINE.match(line) for line in progress)
    # The first match, then one line per five seconds, then completion.
    assert [line.split("]")[0] for line in progress] == ["[ 1/12", "[ 6/12", "[11/12", "[12/12"]
    assert progress[-1].startswith("[12/12] 100.0%")
    final = "\n".join(lines[lines.index(progress[-1]) + 1 :])
    assert "quick" in final and "3*sigma" in final
    assert final.index("strong") < final.index("middling") < final.index("weak")


def test_a_progress_line_gives_rate_and_time_remaining() -> None:
    console = recording_console()
    clock = ticking(1 / 3)
    with LiveBoard(console, 72, log_seconds=0.0, clock=lambda: next(clock)) as board:
        for match in (tournament() * 2)[:12]:
            board.add(match)
    lines = written(console).splitlines()
    assert "[12/72]  16.7%  3.0 matches/s  eta 20s" in lines


def test_a_resumed_run_counts_and_rates_the_previous_results() -> None:
    console = recording_console()
    results = tournament()
    clock = ticking(1.0)
    with LiveBoard(console, 12, previous=results[:9], clock=lambda: next(clock)) as board:
        for match in results[9:11]:
            board.add(match)
        board.add_failure()
    lines = written(console).splitlines()
    progress = [line for line in lines if line.startswith("[")]
    assert progress[0].startswith("[10/12]")
    assert progress[-1].startswith("[12/12]") and progress[-1].endswith("1 failed")
    assert board.standings() == rate(results[:11])
    assert " 11 " in row_with("\n".join(lines), "strong")  # 9 resumed + 2 new matches


def test_the_final_table_is_printed_after_an_interruption() -> None:
    console = recording_console()
    with pytest.raises(KeyboardInterrupt), LiveBoard(console, 12) as board:
        board.add(tournament()[0])
        raise KeyboardInterrupt
    assert "strong" in console.export_text()


def test_on_a_terminal_the_live_view_runs_and_ends_with_the_final_table() -> None:
    console = recording_console(terminal=True)
    results = tournament()
    with LiveBoard(
        console, len(results), labels=["idle"], title="quick", refresh_seconds=0.0
    ) as board:
        for match in results:
            board.add(match)
    output = written(console)
    assert "\x1b[" in output  # it did animate
    final = output[output.rindex("quick") :]
    assert "provisional" not in final
    expected = [row.bot for row in rate(results, labels=["idle"])]
    assert sorted(expected, key=final.index) == expected
