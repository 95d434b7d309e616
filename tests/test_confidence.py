"""How far a leaderboard can be trusted: neighbours' order, head to head, seat advantage, the
rating history (issue 10), and the ``arena leaderboard`` views that show them."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import finished

from arena.cli import main
from arena.confidence import above_next, head_to_head, probability_above, seat_wins, wilson
from arena.history import MARKERS, chart, rating_history
from arena.ratings import Standing, rate

SAMPLE = Path(__file__).parent / "data" / "tiny-run.jsonl"


@pytest.fixture
def run(tmp_path: Path) -> str:
    """A run folder holding the sample results (no config: the default draw probability)."""
    folder = tmp_path / "tiny-run"
    folder.mkdir()
    (folder / "matches.jsonl").write_text(SAMPLE.read_text())
    return str(folder)


def standing(bot: str, mu: float, sigma: float) -> Standing:
    return Standing(bot, mu, sigma, mu - 3 * sigma, 1, 0, 0.0, 0.0, 1.0, 0)


def test_the_probability_of_being_ahead_is_the_normal_approximation() -> None:
    a, b = standing("a", 30.0, 3.0), standing("b", 26.0, 4.0)
    assert probability_above(a, b) == pytest.approx(0.5 * math.erfc(-4.0 / 5.0 / math.sqrt(2)))
    assert probability_above(a, b) + probability_above(b, a) == pytest.approx(1.0)
    assert probability_above(a, standing("c", 30.0, 1.0)) == pytest.approx(0.5)
    assert above_next([a, b]) == [probability_above(a, b), None]
    assert above_next([]) == []


def test_the_wilson_interval_matches_its_textbook_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(20, 20)
    assert high == 1.0 and 0.83 < low < 0.84


def test_head_to_head_counts_who_finished_ahead_in_the_matches_two_bots_shared() -> None:
    matches = [
        finished("m1", ["a", "b", "c"], [0, 1, 2]),
        finished("m2", ["b", "a", "c"], [0, 1, 2]),
        finished("m3", ["c", "b", "a"], [0, 0, 2]),  # b and c tie for first
        finished("m4", ["a", "b"], [0, 1]),
        finished("m5", ["a", "b"], [1, 1], statuses=["crash", "crash"]),  # void: not counted
    ]
    pairs = {(p.first, p.second): p for p in head_to_head(matches, ["a", "b", "c"])}
    a_b = pairs["a", "b"]
    assert (a_b.matches, a_b.first_ahead, a_b.second_ahead, a_b.ties) == (4, 2, 2, 0)
    b_c = pairs["b", "c"]
    assert (b_c.matches, b_c.first_ahead, b_c.second_ahead, b_c.ties) == (3, 2, 0, 1)
    assert b_c.share == pytest.approx(2.5 / 3)
    assert b_c.interval == wilson(2.5, 3)
    assert list(pairs) == [("a", "b"), ("a", "c"), ("b", "c")]
    # The higher placed bot comes first, whatever the seat order.
    assert [(p.first, p.second) for p in head_to_head(matches, ["c", "b", "a"])] == [
        ("c", "b"), ("c", "a"), ("b", "a")
    ]


def test_seat_shares_show_a_seat_advantage() -> None:
    matches = [finished(f"m{n}", ["a", "b"] if n % 2 else ["b", "a"], [0, 1]) for n in range(10)]
    shares = seat_wins(matches)
    assert [(s.seat, s.matches, s.wins, s.share) for s in shares] == [(0, 10, 10, 1.0),
                                                                     (1, 10, 0, 0.0)]
    assert shares[1].interval == wilson(0, 10)


def test_the_history_ends_at_the_leaderboard_and_starts_at_zero() -> None:
    matches = [finished(f"m{n:02d}", ["a", "b", "c"][n % 3:] + ["a", "b", "c"][:n % 3],
                        [0, 1, 2]) for n in range(9)]
    history = rating_history(reversed(matches), 0.1, ["a", "b", "c", "idle"])
    table = rate(matches, 0.1, ["a", "b", "c", "idle"])
    assert history.bots == tuple(row.bot for row in table)
    assert history.matches == tuple(f"m{n:02d}" for n in range(9))
    for row in table:
        assert history.series[row.bot][0] == 0.0
        assert len(history.series[row.bot]) == 10
        assert history.series[row.bot][-1] == row.conservative
    series = history.series[table[0].bot]
    assert history.last_quarter_change(table[0].bot) == series[-1] - series[6]


def test_a_long_run_is_charted_at_evenly_spaced_points_ending_at_the_table() -> None:
    matches = [finished(f"m{n:03d}", ["a", "b"] if n % 3 else ["b", "a"], [0, 1])
               for n in range(100)]
    history = rating_history(matches, 0.1, points=8)
    table = rate(matches, 0.1)
    assert history.after == (0, 13, 25, 38, 50, 63, 75, 88, 100)
    assert history.matches == tuple(f"m{n - 1:03d}" for n in history.after[1:])
    assert {bot: values[-1] for bot, values in history.series.items()} == {
        row.bot: row.conservative for row in table
    }
    every = rating_history(matches, 0.1)
    for bot in history.bots:
        assert [every.series[bot][n] for n in history.after] == history.series[bot]
        # The last quarter starts at the last point at or before match 75.
        assert history.last_quarter_change(bot) == every.last_quarter_change(bot)


@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_chart_fits_and_marks_every_bot(width: int) -> None:
    matches = [finished(f"m{n:03d}", ["strong", "weak"], [0, 1]) for n in range(200)]
    history = rating_history(matches, 0.1)
    lines = chart(history, width)
    assert all(len(line) <= width for line in lines)
    rows = [re.split("[\u2502\u2524]", line, maxsplit=1)[1] for line in lines[:13]]
    assert MARKERS[0] in "".join(rows) and MARKERS[1] in "".join(rows)
    assert any(line.endswith("200 matches") for line in lines)
    assert lines[-2].startswith("1  strong: ") and lines[-1].startswith("2  weak: ")
    # The strong bot ends at the top row, the weak one below the start.
    assert MARKERS[0] in rows[0] and MARKERS[1] not in rows[0]


@pytest.mark.parametrize("columns", [80, 120])
def test_arena_leaderboard_pairs_shows_head_to_head_and_seats(columns: int, run: str) -> None:
    runner = CliRunner(env={"COLUMNS": str(columns)})
    shown = runner.invoke(main, ["leaderboard", run, "--pairs"])
    assert shown.exit_code == 0, shown.output
    assert all(len(line) <= columns for line in shown.stdout.splitlines())
    assert "head to head" in shown.stdout and "Wins by seat position" in shown.stdout
    data = json.loads(runner.invoke(main, ["leaderboard", run,
                                           "--pairs", "--format", "json"]).stdout)
    for pair in data["pairs"]:
        assert pair["ahead"] + pair["behind"] + pair["ties"] == pair["matches"]
        assert pair["low"] <= pair["share"] <= pair["high"]
        assert f"{100 * pair['low']:.1f}-{100 * pair['high']:.1f}" in shown.stdout
    assert [seat["seat"] for seat in data["seats"]] == [0, 1]


def test_arena_leaderboard_history_and_plot(tmp_path: Path, run: str) -> None:
    runner = CliRunner(env={"COLUMNS": "80"})
    shown = runner.invoke(main, ["leaderboard", run, "--history"])
    assert shown.exit_code == 0, shown.output
    assert "over the last quarter of the matches" in shown.stdout
    assert all(len(line) <= 80 for line in shown.stdout.splitlines())
    series = json.loads(runner.invoke(main, ["leaderboard", run, "--history", "--format",
                                             "json"]).stdout)
    table = json.loads(runner.invoke(main, ["leaderboard", run, "--format", "json"]).stdout)
    assert {row["bot"]: row["conservative"] for row in table} == {
        bot: values[-1] for bot, values in series["bots"].items()
    }
    assert series["after"] == list(range(len(series["matches"]) + 1))
    for name, signature in (("h.png", b"\x89PNG"), ("h.svg", b"<svg")):
        written = runner.invoke(main, ["leaderboard", run, "--plot", str(tmp_path / name)])
        assert written.exit_code == 0, written.output
        assert signature in (tmp_path / name).read_bytes()[:400]
        assert "P(>next)" in written.stdout  # the table, then the picture
        assert written.stdout.splitlines()[-1] == f"wrote {tmp_path / name}"


@pytest.mark.parametrize(
    "arguments",
    [["--plot", "chart.txt"], ["--pairs", "--format", "csv"],
     ["--history", "--format", "markdown"],
     # Both were said after the whole table, with status 2.
     ["--plot", "{tmp}/folder.png"], ["--plot", "{tmp}/missing/chart.svg"]],
)
def test_arena_leaderboard_refuses_what_it_cannot_write(
    arguments: list[str], run: str, tmp_path: Path
) -> None:
    (tmp_path / "folder.png").mkdir()
    arguments = [argument.format(tmp=tmp_path) for argument in arguments]
    shown = CliRunner().invoke(main, ["leaderboard", run, *arguments])
    assert shown.exit_code == 2
    assert shown.output.startswith("arena: error: ") and len(shown.output.splitlines()) == 1
    assert "Traceback" not in shown.output


def test_a_plot_without_matplotlib_is_one_line_before_any_table(
        run: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    shown = CliRunner().invoke(main, ["leaderboard", run, "--plot", str(tmp_path / "h.png")])
    assert shown.exit_code == 2
    assert shown.output == "arena: error: --plot needs matplotlib: pip install " \
                           "'lostvalley-arena[plot]'\n"
