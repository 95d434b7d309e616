"""Rating aside (issue 11): the live table rated in a process of its own gives the same
final table, to the last bit, as rating in the driver; and nothing is lost if it fails."""

from __future__ import annotations

import io
import json
import os
import signal
import time
from pathlib import Path

import pytest
from rich.console import Console
from test_cli import CONFIG, TOTAL
from test_scale import synthetic_results

from arena import aside
from arena.aside import Aside, worth_it
from arena.ledger import CHECKPOINT, Ledger, Rater
from arena.live import LiveBoard
from arena.ratings import rate
from arena.records import MatchResult

LABELS = ["a", "b", "c", "d", "e"]


def in_order(count: int) -> list[MatchResult]:
    return sorted(synthetic_results(count), key=lambda result: result.id)


def aside_board(results: list[MatchResult]) -> LiveBoard:
    """A board of ``results``' matches (in their order) that rates aside."""
    return LiveBoard(Console(file=io.StringIO()), len(results), LABELS, 0.05,
                     order=[result.id for result in results], aside=True)


def handed(board: LiveBoard) -> Aside:
    process = board._rater._aside
    assert process is not None, "the board did not hand its rating aside"
    return process


def wait_for(condition: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the rating process never got there"
        time.sleep(0.01)


def test_a_table_rated_aside_is_the_table_rated_in_the_driver() -> None:
    """Ties, faults, a void match, matches landing out of order and one that failed: the
    final table is :func:`arena.ratings.rate`'s, and the process, not the driver, rated."""
    results = synthetic_results(1_500)  # shuffled: the order waits for late matches
    failed = results.pop(7)
    order = sorted([result.id for result in results] + [failed.id])
    board = LiveBoard(Console(file=io.StringIO()), 1_500, LABELS, 0.05, order=order,
                      aside=True)
    with board:
        process = handed(board)
        for result in results:
            board.add(result)
        board.add_failure(failed)
    assert process._final is not None and not process.failed
    assert process._final[0] == len(results)  # the process rated every match
    assert process._process.returncode == 0
    assert board.standings() == rate(results, 0.05, LABELS)


def test_the_live_table_is_the_rating_process_s_along_the_order() -> None:
    results = in_order(400)
    board = aside_board(results)
    with board:
        process = handed(board)
        for result in results[:300]:
            board.add(result)
        board._rater.flush()
        wait_for(lambda: process.snapshot.rated == 300)
        standings, waiting, last = board._rater.live()
        assert (waiting, last) == (0, results[299].id)
        assert standings == rate(results[:300], 0.05, LABELS)
        for result in results[300:]:
            board.add(result)
    assert board.standings() == rate(results, 0.05, LABELS)


def test_a_rating_process_killed_mid_run_loses_nothing() -> None:
    """The driver rates what it had handed over itself, from where the process began."""
    results = in_order(600)
    board = aside_board(results)
    with board:
        process = handed(board)
        for result in results[:200]:
            board.add(result)
        board._rater.flush()
        os.kill(process._process.pid, signal.SIGKILL)
        wait_for(lambda: process.failed)
        for result in results[200:]:
            board.add(result)
    assert process._final is None
    assert board.standings() == rate(results, 0.05, LABELS)


def test_a_rating_process_that_cannot_start_leaves_the_rating_to_the_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no processes left")

    monkeypatch.setattr("arena.aside.subprocess.Popen", refuse)
    results = in_order(200)
    board = aside_board(results)
    with board:
        assert not board._rater.aside
        for result in results:
            board.add(result)
    assert board.standings() == rate(results, 0.05, LABELS)


def test_a_resumed_run_rated_aside_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    results = in_order(300)
    order = [result.id for result in results]
    first = LiveBoard(Console(file=io.StringIO()), 300, ["a"], 0.05, order=order,
                      checkpoint=tmp_path, aside=True)
    with first:
        for result in results[:180]:  # interrupted after 180 matches
            first.add(result)
    assert (tmp_path / CHECKPOINT).is_file()
    resumed = LiveBoard(Console(file=io.StringIO()), 300, ["a"], 0.05, previous=results[:180],
                        order=order, checkpoint=tmp_path, aside=True)
    assert resumed.resumed_ratings == 180
    with resumed:
        process = handed(resumed)
        for result in results[180:]:
            resumed.add(result)
    assert process._final is not None and process._final[0] == 300
    assert resumed.standings() == rate(results, 0.05, ["a"])


def test_an_interrupted_run_still_shows_its_table_and_ends_the_rating_process() -> None:
    results = in_order(100)
    console = Console(file=io.StringIO(), width=120)
    board = LiveBoard(console, 500, LABELS, 0.05, title="cut short",
                      order=[result.id for result in results], aside=True)
    with pytest.raises(KeyboardInterrupt), board:
        process = handed(board)
        for result in results:
            board.add(result)
        raise KeyboardInterrupt
    assert process._process.returncode is not None
    assert "cut short" in console.file.getvalue()  # type: ignore[attr-defined]
    assert board.standings() == rate(results, 0.05, LABELS)


def test_a_provisional_table_is_never_handed_aside() -> None:
    rater = Rater(Ledger(), 0.05)
    with pytest.raises(ValueError, match="order"):
        rater.hand_to(None)  # type: ignore[arg-type]
    board = LiveBoard(Console(file=io.StringIO()), 10, LABELS, 0.05, aside=True)
    with board:
        assert not board._rater.aside


def test_rating_aside_needs_a_long_run_and_four_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(aside.ENVIRONMENT, raising=False)
    assert worth_it(24_000, cpus=16)
    assert not worth_it(24_000, cpus=2)
    assert not worth_it(aside.ASIDE_ABOVE - 1, cpus=64)  # not worth a start
    monkeypatch.setenv(aside.ENVIRONMENT, "1")
    assert worth_it(10, cpus=2)
    monkeypatch.setenv(aside.ENVIRONMENT, "0")
    assert not worth_it(10**6, cpus=64)


def test_a_process_started_early_and_not_wanted_is_ended() -> None:
    board = LiveBoard(Console(file=io.StringIO()), 100, LABELS, 0.05, order=["x"])
    board.prepare_aside()
    prepared = board._prepared
    assert prepared is not None
    with board:  # rate_aside is False: rated in the driver
        assert not board._rater.aside
    assert prepared._process.returncode is not None


@pytest.mark.usefixtures("ray_cluster")
def test_arena_run_rated_aside_prints_and_keeps_the_table_it_rates_in_the_driver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ARENA_RATE_ASIDE=1``: the process rates the run (started while Ray starts), and the
    printed table and the rating checkpoint are those of a run rated in the driver."""
    from click.testing import CliRunner

    from arena.cli import main

    started: list[Aside] = []

    def spawn_and_keep() -> Aside | None:
        process = aside.spawn()
        if process is not None:
            started.append(process)
        return process

    monkeypatch.setattr("arena.live.spawn", spawn_and_keep)
    config = tmp_path / "cli.toml"
    config.write_text(CONFIG)
    tables = []
    for choice in ("1", "0"):
        monkeypatch.setenv(aside.ENVIRONMENT, choice)
        out = tmp_path / f"run{choice}"
        result = CliRunner(env={"COLUMNS": "200"}).invoke(
            main, ["run", str(config), "--out", str(out)])
        assert result.exit_code == 0, result.output
        table = result.output[result.output.index("μ−3σ"):]  # noqa: RUF001
        tables.append((table.replace(str(out), "OUT"),
                       json.loads((out / CHECKPOINT).read_text())))
    assert len(started) == 1 and started[0]._final is not None
    assert started[0]._final[0] == TOTAL  # every match, rated aside
    assert tables[0] == tables[1]
