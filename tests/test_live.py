"""The live view of a running tournament: plain progress lines off a terminal, a rich
display on one, the final table and fault summary at the end, and an ETA only once it
means something."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from typing import cast

import pytest
from helpers import finished
from rich.console import Console

from arena.live import LiveBoard
from arena.ratings import rate
from arena.records import MatchResult

PROGRESS_LINE = re.compile(
    r"^\[ *\d+/\d+\] +\d+\.\d%  \d+\.\d matches/s(  eta \S+)?( +\d+ failed)?$"
)


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


def recording_console(terminal: bool = False, width: int = 120) -> Console:
    return Console(record=True, width=width, file=io.StringIO(), force_terminal=terminal)


def written(console: Console) -> str:
    """Everything the console wrote, control codes included."""
    return cast(io.StringIO, console.file).getvalue()


def row_with(text: str, bot: str) -> str:
    return next(line for line in text.splitlines() if f" {bot} " in line)


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
    assert "quick" in final and "μ−3σ" in final  # noqa: RUF001
    assert final.index("strong") < final.index("middling") < final.index("weak")


def test_a_progress_line_gives_rate_and_time_remaining() -> None:
    console = recording_console()
    clock = ticking(1 / 3)
    with LiveBoard(console, 72, log_seconds=0.0, clock=lambda: next(clock)) as board:
        for match in (tournament() * 2)[:12]:
            board.add(match)
    lines = written(console).splitlines()
    assert "[12/72]  16.7%  3.0 matches/s  eta 20s" in lines


def test_no_time_left_is_shown_until_the_pace_means_something() -> None:
    """Five matches and two seconds after the first one landed, not before."""
    console = recording_console()
    clock = ticking(1 / 3)
    with LiveBoard(console, 72, log_seconds=0.0, clock=lambda: next(clock)) as board:
        for match in (tournament() * 2)[:12]:
            board.add(match)
    progress = [line for line in written(console).splitlines() if line.startswith("[")]
    shown = [line for line in progress if "eta" in line]
    assert not any("eta" in line for line in progress[:6])
    assert shown and progress.index(shown[0]) >= 6


def test_the_fault_summary_follows_the_final_table() -> None:
    console = recording_console(width=80)
    crashed = finished("m01", ["crasher", "random"], [1, 0], statuses=["error", "ok"])
    with LiveBoard(console, 2) as board:
        board.add(crashed)
        board.add(result("m02", ["random", "crasher"], [0, 1]))
    text = console.export_text()
    assert text.index("faults") < text.index("Faults:") < text.index("crasher: 1 fault (error 1)")


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
