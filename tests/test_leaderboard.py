"""The leaderboard: rich, JSON, CSV and markdown tables, at 80 and 120 columns, and the
summary of faults."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import cast

import pytest
from helpers import finished
from rich.console import Console
from rich.table import Table

from arena.leaderboard import (
    FIELDS,
    LEGEND,
    NOT_SEPARATED,
    fault_summary,
    leaderboard_table,
    render,
    to_csv,
    to_json,
    to_markdown,
)
from arena.ratings import Standing, rate
from arena.records import MatchResult

HEADERS = ["#", "bot", "μ−3σ", "P(>next)", "μ", "σ",  # noqa: RUF001
           "matches", "wins", "win %", "score", "place", "faults"]


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


def recording_console(terminal: bool = False, width: int = 120) -> Console:
    return Console(record=True, width=width, file=io.StringIO(), force_terminal=terminal)


def written(console: Console) -> str:
    """Everything the console wrote, control codes included."""
    return cast(io.StringIO, console.file).getvalue()


def text_of(table: Table, width: int = 120) -> str:
    console = recording_console(width=width)
    console.print(table)
    return console.export_text()


def row_with(text: str, bot: str) -> str:
    return next(line for line in text.splitlines() if f" {bot} " in line)


def test_the_table_shows_every_column_in_order(standings: list[Standing]) -> None:
    table = leaderboard_table(standings, title="quick")
    assert [str(column.header) for column in table.columns] == HEADERS
    text = text_of(table)
    header = next(line for line in text.splitlines() if "faults" in line)
    assert header.split() == [h for part in HEADERS for h in part.split()]
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
        f"{100 * json.loads(to_json(standings))[0]['above_next']:.1f}%",
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
    assert markdown_cells(lines[2])[:2] == ["1", "strong"]
    assert markdown_cells(lines[2])[6:9] == ["12", "12", "100.0"]
    # weak (12 matches, all last) sits below idle (no match), unseparated: the legend follows.
    assert lines[2 + len(standings)] == "" and lines[-1] == LEGEND


LONG = "greedy-bold-with-a-long-label-v2"


@pytest.mark.parametrize("width", [80, 120])
def test_at_80_and_120_columns_no_label_or_number_is_cut(width: int) -> None:
    """Headers are one line, columns drop before a name is cut, no cell ends in an ellipsis."""
    labels = [LONG, "random", "random-2", "greedy"]
    matches = [
        result(f"m{n:02d}", [labels[n % 4], labels[(n + 1) % 4], labels[(n + 2) % 4]], [0, 1, 2])
        for n in range(12)
    ]
    standings = rate(matches, labels=labels)
    text = text_of(leaderboard_table(standings, title="quick: a game", width=width), width)
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines)
    assert "…" not in text
    words = text.split()
    for row in standings:
        assert row.bot in words and f"{row.conservative:.2f}" in words
    header = next(line for line in lines if "faults" in line)
    assert "μ−3σ" in header and "bot" in header  # noqa: RUF001
    if width == 120:
        assert header.split() == [h for part in HEADERS for h in part.split()]


def test_a_narrow_table_drops_sigma_and_mu_first(standings: list[Standing]) -> None:
    long = [replace(row, bot=row.bot + "-" + "x" * 30) for row in standings]
    table = leaderboard_table(long, width=80)
    headers = [str(column.header) for column in table.columns]
    assert "σ" not in headers and "μ" not in headers  # noqa: RUF001
    assert headers[:3] == ["#", "bot", "μ−3σ"] and headers[-1] == "faults"  # noqa: RUF001


def test_a_label_too_long_for_any_table_folds_rather_than_being_cut() -> None:
    label = "a-very-" + "long-" * 20 + "label"
    table = leaderboard_table(rate([result("m1", [label, "b"], [0, 1])]), width=80)
    text = text_of(table, 80)
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if "───" in line)
    assert "…" not in text
    folded = "".join(line.split()[0] for line in lines[rule + 1:] if line.split())
    assert folded.startswith(label)


def faulty(match_id: str, error: str | None, status: str = "error") -> MatchResult:
    match = finished(match_id, ["crasher", "random"], [1, 0], statuses=[status, "ok"])
    return replace(match, errors=(error, None))


def test_the_fault_summary_gives_counts_by_status_the_first_error_and_its_match() -> None:
    traceback = (
        '  File "/bots/crasher/plugin.py", line 31, in act\n'
        "    raise RuntimeError('crashed as asked')\n"
        "RuntimeError: crashed as asked"
    )
    matches = [
        faulty("r001-t000002-s001", "no answer within 1.000s", "timeout"),
        faulty("r001-t000001-s002", traceback),
        faulty("r001-t000003-s001", traceback),
        result("r001-t000004-s001", ["random", "random-2"], [0, 1]),
    ]
    summary = fault_summary(matches)
    assert summary is not None
    console = recording_console(width=80)
    console.print(summary)
    text = console.export_text()
    assert "crasher: 3 faults (error 2, timeout 1)" in text
    assert "first, in match r001-t000001-s002: RuntimeError: crashed as asked\n" in text
    assert "    raised at /bots/crasher/plugin.py:31\n" in text
    assert "random" not in text.replace("random-2", "")
    assert fault_summary(matches[3:]) is None


def test_a_fault_in_a_package_ray_shipped_is_placed_in_the_package_not_in_rays_copy() -> None:
    # Ray unpacks a shipped bot under its session's temporary folder, gone after the run.
    shipped = ('  File "/tmp/ray/session_2026-11-30_18-40-59_792818_5869/runtime_resources/'
               'py_modules_files/_ray_pkg_e5c5c8102d5e9199/arena_bot_oops/plugin.py", line 38, '
               "in act\nKeyError: 'row'")
    summary = fault_summary([faulty("r001-t000001-s001", shipped)])
    assert summary is not None
    console = recording_console(width=80)
    console.print(summary)
    assert "    raised at arena_bot_oops/plugin.py:38\n" in console.export_text()


def test_an_error_with_a_lone_surrogate_in_a_recorded_run_is_shown_and_written() -> None:
    """A bot's error text may hold half a UTF-16 pair (``\\ud800`` in its JSON), no character
    at all: printing it raised UnicodeEncodeError at the end of ``arena run`` and in every
    ``arena leaderboard`` of the run. A run recorded before the referee scrubbed them
    shows U+FFFD in its place."""
    summary = fault_summary([faulty("r001-t000001-s001", "RuntimeError: half \ud800 \udfff")])
    assert summary is not None
    console = recording_console(width=80)
    console.print(summary)
    text = console.export_text()
    assert "RuntimeError: half \ufffd \ufffd" in text
    text.encode("utf-8")


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


def test_no_escape_code_from_a_results_file_reaches_the_terminal() -> None:
    """A hand-edited label or a bot's exception message could clear the screen."""
    match = faulty("r001-t000001-s001", "RuntimeError: \x1b[2Jgone\x1b[31m")
    match = replace(match, seats=("evil\x1b[2J", "random"))
    console = recording_console(terminal=False)
    console.print(leaderboard_table(rate([match]), width=80))
    summary = fault_summary([match])
    assert summary is not None
    console.print(summary)
    output = written(console)
    assert "\x1b" not in output
    assert "evil" in output and "RuntimeError: gone" in output


def test_each_place_says_how_sure_it_is_to_be_ahead_of_the_next(standings: list[Standing]) -> None:
    """The issue: "the probability that a row's skill exceeds the next row's, from the
    TrueSkill posteriors (normal approximation) ... places not separated with at least 95%
    confidence are marked as such"."""
    rows = json.loads(to_json(standings))
    for row, after in itertools.pairwise(rows):
        spread = math.hypot(row["sigma"], after["sigma"])
        expected = 0.5 * math.erfc(-(row["mu"] - after["mu"]) / (spread * math.sqrt(2)))
        assert row["above_next"] == pytest.approx(expected)
        assert row["separated"] is (expected >= 0.95)
    assert rows[-1]["above_next"] is None and rows[-1]["separated"] is None
    assert rows[0]["separated"] is True  # strong won all twelve matches
    unseparated = [row["bot"] for row in rows if row["separated"] is False]
    assert unseparated
    text = text_of(leaderboard_table(standings), 120)
    for bot in unseparated:
        assert row_with(text, bot).split()[4] == NOT_SEPARATED
    assert NOT_SEPARATED not in row_with(text, "strong")
    assert "not separated from the next place at 95% confidence" in " ".join(text.split())
    csv_rows = list(csv.DictReader(io.StringIO(to_csv(standings))))
    assert [row["separated"] for row in csv_rows] == [
        "" if row["separated"] is None else json.dumps(row["separated"]) for row in rows
    ]
    assert float(csv_rows[0]["above_next"]) == rows[0]["above_next"]


def test_a_table_whose_places_are_all_separated_has_no_legend() -> None:
    matches = [result(f"m{n:03d}", ["a", "b"], [0, 1]) for n in range(40)]
    standings = rate(matches)
    assert json.loads(to_json(standings))[0]["separated"] is True
    assert NOT_SEPARATED not in text_of(leaderboard_table(standings))
    assert LEGEND not in to_markdown(standings)


def test_a_table_with_its_own_caption_keeps_it_and_adds_the_legend(
    standings: list[Standing],
) -> None:
    text = " ".join(text_of(leaderboard_table(standings, caption="provisional: x")).split())
    assert "provisional: x; P(>next): probability" in text


def test_no_8_bit_escape_bidi_override_or_invisible_mark_reaches_the_fault_summary() -> None:
    """Red team round 9: plain() kept U+009B (CSI of a terminal that reads C1 controls) and
    U+009D (OSC), U+202E (what follows shows backwards) and zero-width characters, in a bot's
    exception message as anywhere else."""
    match = faulty("r001-t000001-s001",
                   "RuntimeError: \x9b2J\x9d52;c;cHduZWQ=\x9cok\u202e\u200bgnirts")
    console = recording_console(terminal=False)
    summary = fault_summary([match])
    assert summary is not None
    console.print(summary)
    output = written(console)
    assert "RuntimeError: okgnirts" in output
    assert not any(mark in output for mark in "\x9b\x9d\x9c\u202e\u200b")


def test_the_json_and_csv_of_a_score_that_is_not_a_number_say_null() -> None:
    """Red team round 9: a record's NaN score made arena leaderboard --format json write NaN,
    which is not JSON (jq and every strict reader refused the whole table)."""
    match = faulty("r001-t000001-s001", "RuntimeError: boom")
    match = replace(match, statuses=("ok", "ok"), scores=(float("nan"), float("inf")))
    standings = rate([match])
    rows = json.loads(to_json(standings), parse_constant=lambda name: pytest.fail(name))
    assert {row["mean_score"] for row in rows} == {None}
    assert "nan" not in to_csv(standings).lower() and "inf" not in to_csv(standings).lower()
