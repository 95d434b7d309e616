"""The arena command end to end: runs, resumes, leaderboards and user errors."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import alive, bot_hosts_under, descendants

from arena.cli import main

CONFIG = """
[tournament]
name = "cli"
game = "tiny-race"
players = 2
rounds = 2
seed = 3

[[bots]]
name = "random"
[[bots]]
name = "random"
label = "random-2"
[[bots]]
name = "crasher"
params = { after = 2 }
"""
TOTAL = 2 * 3 * 2  # rounds x tables x seatings


def arena(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "200"}).invoke(main, list(args))


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "cli.toml"
    path.write_text(CONFIG)
    return path


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def board(out: Path) -> list[dict[str, object]]:
    result = arena("leaderboard", str(out), "--format", "json")
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


@pytest.fixture(scope="module")
def finished(ray_cluster: None, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One whole run of ``CONFIG``: its folder, which no test changes, and what it printed.
    The same config gives the same run: the tests that need a finished one copy this."""
    root = tmp_path_factory.mktemp("finished")
    (root / "cli.toml").write_text(CONFIG)
    result = arena("run", str(root / "cli.toml"), "--out", str(root / "run"))
    assert result.exit_code == 0, result.output
    return root / "run", result.output


def copy_of(finished: tuple[Path, str], tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(finished[0], out)
    return out


def test_run_records_every_match_and_shows_the_leaderboard(finished: tuple[Path, str]) -> None:
    out, output = finished
    assert "crasher" in output and "μ−3σ" in output  # noqa: RUF001
    records = lines(out / "matches.jsonl")
    assert len(records) == TOTAL == len({r["id"] for r in records})
    assert json.loads((out / "config.json").read_text())["name"] == "cli"
    rows = board(out)
    assert rows[-1]["bot"] == "crasher" and rows[-1]["faults"] == 8


def test_a_second_run_into_the_same_folder_needs_resume(
    config: Path, tmp_path: Path, finished: tuple[Path, str]
) -> None:
    out = copy_of(finished, tmp_path)
    again = arena("run", str(config), "--out", str(out))
    assert again.exit_code == 2 and "already holds a run" in again.output
    before = board(out)
    resumed = arena("run", str(config), "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "recorded already" in resumed.output
    assert len(lines(out / "matches.jsonl")) == TOTAL
    assert board(out) == before


def test_an_interrupted_run_resumes_to_the_same_leaderboard(
    config: Path, tmp_path: Path, finished: tuple[Path, str]
) -> None:
    whole, cut = finished[0], tmp_path / "cut"
    # Interrupted after five matches, in the middle of writing the sixth.
    cut.mkdir()
    (cut / "config.json").write_text((whole / "config.json").read_text())
    text = (whole / "matches.jsonl").read_text().splitlines(keepends=True)
    (cut / "matches.jsonl").write_text("".join(text[:5]) + text[5][:30])
    resumed = arena("run", str(config), "--out", str(cut), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "truncated last line" in resumed.output
    assert sorted(r["id"] for r in lines(cut / "matches.jsonl")) == sorted(
        r["id"] for r in lines(whole / "matches.jsonl")
    )
    assert board(cut) == board(whole)


def test_resume_refuses_a_different_config(
    config: Path, tmp_path: Path, finished: tuple[Path, str]
) -> None:
    out = copy_of(finished, tmp_path)
    config.write_text(CONFIG.replace("seed = 3", "seed = 4"))
    result = arena("run", str(config), "--out", str(out), "--resume")
    assert result.exit_code == 2 and "different config" in result.output


def test_leaderboard_formats_and_a_truncated_file(config: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    sample = Path(__file__).parent / "data" / "tiny-run.jsonl"
    (out / "matches.jsonl").write_text(sample.read_text()[:-40])
    result = arena("leaderboard", str(out), "--format", "csv")
    assert result.exit_code == 0
    assert "truncated" in result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {row["bot"] for row in rows} == {"random", "random-2", "crasher"}
    # A bool is written as JSON, pandas, DuckDB and spreadsheets read one (Python's "False"
    # was); the last row's null is an empty cell.
    assert [row["separated"] for row in rows[:-1]] == [
        str(float(row["above_next"]) >= 0.95).lower() for row in rows[:-1]]
    assert rows[-1]["separated"] == rows[-1]["above_next"] == ""
    markdown = arena("leaderboard", str(out), "--format", "markdown").stdout
    assert markdown.splitlines()[0].startswith("| # | bot |")
    table = arena("leaderboard", str(out)).stdout
    assert "random-2" in table and "faults" in table


@pytest.mark.parametrize("view", [["--format", "csv"], [], ["--history"]])
def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path, view: list[str]) -> None:
    """``arena leaderboard RUN | head -3``: the reader gone, click's and rich's handling ended
    with status 1 (a failure, to ``set -o pipefail``); now no word and 141, the status the
    shell gives a Unix tool that SIGPIPE ended."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "matches.jsonl").write_text((Path(__file__).parent / "data" / "tiny-run.jsonl")
                                       .read_text())
    running = subprocess.Popen([str(Path(sys.executable).parent / "arena"), "leaderboard",
                                str(out), *view], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert running.stdout is not None
    running.stdout.close()  # before the command has loaded: its first write finds no reader
    _, stderr = running.communicate(timeout=60)
    assert running.returncode == 128 + signal.SIGPIPE, stderr
    # What it says of the run (this one has no config.json) only: nothing of the pipe.
    assert [line for line in stderr.decode().splitlines()
            if not line.startswith("arena: warning: ")] == []


def test_a_command_started_with_stdout_closed_ends_without_a_traceback(tmp_path: Path) -> None:
    """Started with ``>&-`` (a daemon's way), Python has no ``sys.stdout``: the flush at the
    end, which keeps a closed pipe quiet, must not fail on it."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "matches.jsonl").write_text((Path(__file__).parent / "data" / "tiny-run.jsonl")
                                       .read_text())
    script = str(Path(sys.executable).parent / "arena")
    done = subprocess.run(["sh", "-c", f"exec '{script}' leaderboard '{out}' >&-"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("view", [["--format", "csv"], []])
def test_output_that_cannot_be_written_is_one_line(tmp_path: Path, view: list[str]) -> None:
    """``arena leaderboard RUN > out.txt`` on a full disk (here ``/dev/full``) was a traceback
    of the write, from click's echo or from rich; now one line and status 1, as ``cat``."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    out = tmp_path / "run"
    out.mkdir()
    (out / "matches.jsonl").write_text((Path(__file__).parent / "data" / "tiny-run.jsonl")
                                       .read_text())
    with open("/dev/full", "w") as full:
        done = subprocess.run([str(Path(sys.executable).parent / "arena"), "leaderboard",
                               str(out), *view], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)
    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stderr.splitlines()
              if not line.startswith("arena: warning: ")]
    assert errors == ["arena: error: cannot write the output: No space left on device"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "missing.toml"], "config file not found: missing.toml"),
        (["leaderboard", "nowhere"], "no results in nowhere"),
        (["run", "{bad}"], "not valid TOML"),
        (["run", "{unknown_game}"], "unknown game 'chess'"),
        (["run", "{unknown_bot}"], "did you mean 'random'"),
        (["run", "{players}"], "is for 2 to 4 players"),
        (["run", "{few}"], "has 3 bot(s) but each match seats 4"),
        # Taken before: the plan's round order was sorted whole (24 GB, the machine's memory,
        # before the OOM killer), and every bot "failed to start" under the huge limits.
        (["run", "{rounds}"], "1,000,000,000 round(s) of 3 table(s) make 3,000,000,000 tables "
                              "(at most 999,999,999): use fewer rounds"),
        (["run", "{startup}"], "startup_seconds = 1e+300: must be a finite number of seconds, "
                               "more than 0 and at most 1,000,000"),
        (["run", "{memory}"], "memory_mb = 100000000000000: must be from 64 to 4,194,304"),
        # A game raising other than InvalidOptions for its options was a traceback.
        (["run", "{options}"], "[tournament] options: tiny-race cannot start a game of 2 with "
                               "{'goal': 'x'}: ValueError: invalid literal for int()"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    variants = {
        "bad": "[tournament\n",
        "unknown_game": CONFIG.replace("tiny-race", "chess"),
        "unknown_bot": CONFIG.replace('name = "crasher"', 'name = "randm"'),
        "players": CONFIG.replace("players = 2", "players = 9"),
        "few": CONFIG.replace("players = 2", "players = 4"),
        "rounds": CONFIG.replace("rounds = 2", "rounds = 1_000_000_000"),
        "startup": CONFIG + "[limits]\nstartup_seconds = 1e300\n",
        "memory": CONFIG + "[limits]\nmemory_mb = 100_000_000_000_000\n",
        "options": CONFIG.replace("seed = 3", 'seed = 3\noptions = { goal = "x" }'),
    }
    for key, text in variants.items():
        (tmp_path / f"{key}.toml").write_text(text)
    args = [a.format(**{k: tmp_path / f"{k}.toml" for k in variants}) for a in args]
    result = arena(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.output.count("\n") == 1


def test_a_config_not_in_utf8_is_one_line_and_one_with_a_byte_order_mark_is_read(
    tmp_path: Path,
) -> None:
    """A config saved as Latin-1 was a UnicodeDecodeError traceback; one saved by Windows
    Notepad (a byte-order mark first) was "not valid TOML" at line 1, column 1."""
    latin = tmp_path / "latin.toml"
    latin.write_bytes(CONFIG.replace('name = "cli"', 'name = "café"').encode("latin-1"))
    result = arena("run", str(latin))
    assert result.exit_code == 2
    assert result.output == f"arena: error: {latin}: not UTF-8 text: byte 0xe9 at line 3 " \
        "(save the config as UTF-8)\n"
    marked = tmp_path / "marked.toml"
    marked.write_text("\ufeff" + CONFIG.replace("tiny-race", "chess"), encoding="utf-8")
    result = arena("run", str(marked))
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output, result.output


def test_the_quick_tournament_runs_from_the_command_line(tmp_path: Path) -> None:
    """The README's first command, minus the install: a real local Ray of its own."""
    root = Path(__file__).parent.parent
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("RAY_ADDRESS", None)
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "arena"),
            "run",
            str(root / "configs" / "quick.toml"),
            "--out",
            str(tmp_path / "results" / "quick"),
            "--workers",
            "2",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "greedy-bold" in done.stdout and "random" in done.stdout
    records = lines(tmp_path / "results" / "quick" / "matches.jsonl")
    assert len(records) == 48 and all(set(r["statuses"]) == {"ok"} for r in records)
    # What the README's "How sure is the order" reads in this table, as it says it.
    shown = subprocess.run(
        [str(Path(sys.executable).parent / "arena"), "leaderboard",
         str(tmp_path / "results" / "quick"),
         "--format", "json"], capture_output=True, text=True, env=env, timeout=120, check=True)
    board = json.loads(shown.stdout)
    first, second = (round(100 * row["above_next"]) for row in board[:2])
    readme = " ".join((root / "README.md").read_text().split())
    assert f"not separated from each other ({first}% and {second}%)" in readme
    assert [row["bot"].startswith("greedy") for row in board] == [True, True, True, False]
    assert board[2]["above_next"] > 0.999
    readme_commands_run_on_the_quick_run(root, tmp_path, env)


def readme_commands_run_on_the_quick_run(root: Path, where: Path, env: dict[str, str]) -> None:
    """The README's commands of *Results*, *Watching a match* and *Playing against the bots*,
    run as written from a folder holding the quick run as ``results/quick`` and the arena's
    environment as ``.venv`` (a person at the keyboard: answers ``1`` at every decision)."""
    readme = (root / "README.md").read_text()
    sections = {title: readme.split(f"\n## {title}\n")[1].split("\n## ")[0]
                for title in ("Results", "Watching a match", "Playing against the bots")}
    commands = {title: [line.strip() for line in text.splitlines()
                        if line.startswith("    .venv/bin/arena ")]
                for title, text in sections.items()}
    assert [len(found) for found in commands.values()] == [4, 2, 2]
    (where / ".venv").symlink_to(Path(sys.executable).parent.parent)
    for command in [line for found in commands.values() for line in found]:
        done = subprocess.run(["bash", "-c", command], cwd=where, env=env, input="1\n" * 2000,
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
        assert "Traceback" not in done.stdout + done.stderr
    assert (where / "quick.png").stat().st_size > 0
    assert "checked: the replay reproduces" in (where / "match.txt").read_text()
    assert len(lines(where / "results" / "mine" / "matches.jsonl")) == 1


def test_planning_a_run_writes_nothing_until_it_starts(config: Path, tmp_path: Path) -> None:
    from arena import runner
    from arena.config import load
    from arena.plugins import registry

    out = tmp_path / "never-started"
    plan = runner.plan(load(config, registry()), out, resume=False)
    assert plan.fresh and len(plan.pending) == TOTAL
    assert not out.exists()


SLOW = """
[tournament]
name = "slow"
game = "tiny-race"
players = 2
rounds = 30
seed = 9

[[bots]]
name = "random"
[[bots]]
name = "random"
label = "random-2"
[[bots]]
name = "sleeper"
params = { seconds = 0.005 }

# Generous: the interrupted run and the whole one must fault alike (at load 11 a host's
# start passed the default 10 s once, a fault in one run and not the other).
[limits]
startup_seconds = 60.0
move_seconds = 5.0
"""


def interrupted_run(
    tmp_path: Path, stop: signal.Signals, after: int, seen: set[int] | None = None
) -> tuple[str, int, set[int]]:
    """Start ``arena run`` on the slow config, send ``stop`` once ``after`` matches are
    recorded; its output, exit status and every bot host seen under it meanwhile (and in
    ``seen``, every process seen under it)."""
    config = tmp_path / "slow.toml"
    config.write_text(SLOW)
    cut = tmp_path / "cut"
    script = str(Path(sys.executable).parent / "arena")
    # Ctrl-C reaches the run even where this test runs as a background job, whose shell
    # starts it with SIGINT ignored (inherited, the run ignored it and played to the end):
    # a handler of this process's is reset to the default in the child.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        running = subprocess.Popen(
            [script, "run", str(config), "--out", str(cut), "--workers", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 120
    hosts: set[int] = set()
    while time.monotonic() < deadline and running.poll() is None:
        hosts |= bot_hosts_under(running.pid)
        if seen is not None:
            seen |= descendants(running.pid)
        if (cut / "matches.jsonl").exists() and len(lines(cut / "matches.jsonl")) >= after:
            break
        time.sleep(0.05)
    assert hosts, "the run had started no sandboxed bot host"
    running.send_signal(stop)
    output, _ = running.communicate(timeout=120)
    for _ in range(50):  # the hosts die with their Ray workers, which die with the driver
        if not [pid for pid in hosts if alive(pid)]:
            break
        time.sleep(0.2)
    recorded = len((cut / "matches.jsonl").read_text().splitlines())
    assert after <= recorded < 180
    return output, running.returncode, hosts


def command(pid: int) -> bytes:
    """The command line of ``pid``; empty if it is gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


_UNINTERRUPTED: dict[str, tuple[list[str], list[dict[str, object]]]] = {}
"""The sorted match ids and the table of an uninterrupted run, by config text: the same
config gives the same run, so the tests that cut one play the whole once between them."""


def resumes_to_the_whole_run(tmp_path: Path) -> None:
    """``--resume`` of the cut run gives the matches and the table of an uninterrupted one."""
    config, cut, whole = tmp_path / "slow.toml", tmp_path / "cut", tmp_path / "whole"
    resumed = arena("run", str(config), "--out", str(cut), "--resume")
    assert resumed.exit_code == 0, resumed.output
    text = config.read_text()
    if text not in _UNINTERRUPTED:
        assert arena("run", str(config), "--out", str(whole)).exit_code == 0
        _UNINTERRUPTED[text] = (sorted(r["id"] for r in lines(whole / "matches.jsonl")),
                                board(whole))
    ids, table = _UNINTERRUPTED[text]
    assert sorted(r["id"] for r in lines(cut / "matches.jsonl")) == ids
    assert board(cut) == table


@pytest.mark.usefixtures("ray_cluster")
def test_a_run_stopped_with_ctrl_c_resumes_to_the_uninterrupted_leaderboard(
    tmp_path: Path,
) -> None:
    output, status, hosts = interrupted_run(tmp_path, signal.SIGINT, after=20)
    assert status == 130, output
    assert "--resume" in output
    assert [pid for pid in hosts if alive(pid)] == []  # no bot host left behind
    resumes_to_the_whole_run(tmp_path)


@pytest.mark.usefixtures("ray_cluster")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_a_run_stopped_with_sigterm_or_sighup_ends_as_ctrl_c_and_leaves_no_ray_behind(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """Drill (ops): SIGTERM met Ray's handler (a C++ stack dump, exit 15, no line saying how
    to resume); SIGHUP (a closed terminal) killed the driver where it stood, and Ray's
    dashboard and runtime-env agents of its local instance lived on, orphaned."""
    seen: set[int] = set()
    output, status, _ = interrupted_run(tmp_path, stop, after=10, seen=seen)
    assert status == 128 + stop, output
    assert f"Stopped ({stop.name}). Every finished match is saved" in output
    assert "--resume" in output and "***" not in output
    for _ in range(50):
        if not [pid for pid in seen if alive(pid)]:
            break
        time.sleep(0.2)
    assert [pid for pid in seen if alive(pid)] == []  # not a Ray process, not a bot host
    resumes_to_the_whole_run(tmp_path)


@pytest.mark.usefixtures("ray_cluster")
def test_a_run_whose_local_raylet_dies_stops_in_one_line(tmp_path: Path) -> None:
    """Drill (ops): with the raylet of the run's own Ray instance killed, the run sent every
    match left out anyway, each failed three times (LocalRayletDiedError) over two minutes,
    and the run ended with status 0 and 136 of 240 matches in failures.jsonl."""
    config = tmp_path / "slow.toml"
    config.write_text(SLOW)
    out = tmp_path / "raylet"
    running = subprocess.Popen(
        [str(Path(sys.executable).parent / "arena"), "run", str(config), "--out", str(out),
         "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and running.poll() is None and not (
                (out / "matches.jsonl").exists() and len(lines(out / "matches.jsonl")) >= 10):
            time.sleep(0.05)
        seen = descendants(running.pid)
        raylets = [pid for pid in seen if b"raylet/raylet" in command(pid)]
        assert len(raylets) == 1
        os.kill(raylets[0], signal.SIGKILL)
        _, stderr = running.communicate(timeout=120)
    finally:
        if running.poll() is None:
            running.kill()
            running.communicate()
        # Ray's agents outlive a killed raylet (orphaned): the run's reaper ends them.
        left = ray_processes_end(seen)
    assert left == []
    assert running.returncode == 2, stderr
    [error] = stderr.splitlines()
    assert error.startswith("arena: error: this machine's Ray node (the raylet the run talks "
                            "to) died: the run stopped; every match recorded before is safe")
    assert error.endswith(f"--out {out} --workers 2 --resume")  # the command it was given
    ids = [record["id"] for record in lines(out / "matches.jsonl")]
    assert len(ids) < 180 and len(set(ids)) == len(ids)
    assert not (out / "failures.jsonl").exists()


@pytest.mark.usefixtures("ray_cluster")
def test_a_driver_killed_with_sigkill_resumes_to_the_uninterrupted_leaderboard(
    tmp_path: Path,
) -> None:
    """SIGKILL gives the driver no chance to clean up: the sandboxed bot hosts and Ray's
    workers go with it, and ``--resume`` plays only what is missing. Ray's dashboard and
    runtime-env agents of the local instance, orphaned, lived on (about 80 MB each): the
    reaper the run started beside its instance (``arena.reaper``) now ends them."""
    seen: set[int] = set()
    _, status, hosts = interrupted_run(tmp_path, signal.SIGKILL, after=30, seen=seen)
    assert status == -signal.SIGKILL
    assert [pid for pid in hosts if alive(pid)] == []
    assert ray_processes_end(seen) == []
    resumes_to_the_whole_run(tmp_path)


def ray_processes_end(seen: set[int], seconds: float = 20) -> list[int]:
    """Those of ``seen`` running Ray (the reaper included) still alive after ``seconds``;
    they are then killed, so that a failing test leaves nothing behind."""
    deadline = time.monotonic() + seconds
    left = [pid for pid in seen if alive(pid) and b"ray" in command(pid)]
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [pid for pid in left if alive(pid)]
    for pid in left:  # still Ray's: a pid is not taken for another process's meanwhile
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return left


def test_a_stop_signal_that_reaches_the_cli_as_a_plain_interrupt_is_still_named() -> None:
    """Ray's code, when a stop signal lands in it, may raise a plain KeyboardInterrupt in place
    of the handler's ``Stopped`` (once in CI: a SIGHUP said 'Interrupted', status 130): the
    signal is known from the handler all the same; Ctrl-C alone is named by none."""
    from arena import runner

    previous = [signal.getsignal(stop) for stop in runner.STOP_SIGNALS]
    try:
        runner._received.clear()
        assert runner.stop_signal(KeyboardInterrupt()) is None
        with pytest.raises(runner.Stopped):
            runner._stop(signal.SIGHUP, None)
        assert runner.stop_signal(KeyboardInterrupt()) == signal.SIGHUP
        assert runner.stop_signal(runner.Stopped(signal.SIGTERM)) == signal.SIGTERM
    finally:
        runner._received.clear()
        for stop, handler in zip(runner.STOP_SIGNALS, previous, strict=True):
            signal.signal(stop, handler)


def test_a_run_stopped_while_ray_starts_says_nothing_was_written(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C during Ray's start of a new run: the folder is removed again, and the line
    says so instead of 'saved in' a folder that is not there and '--resume'."""
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("arena.runner._connect", interrupted)
    out = tmp_path / "never"
    result = arena("run", str(config), "--out", str(out))
    assert result.exit_code == 130, result.output
    assert not out.exists()
    assert "Interrupted. No match was played and nothing was written; start again with: " \
        f"arena run {config} --out {out}" in " ".join(result.output.split())
    assert "--resume" not in result.output


def test_a_run_folder_with_no_match_recorded_shows_an_empty_table(
    tmp_path: Path, finished: tuple[Path, str]
) -> None:
    """A run stopped before its first match finished keeps its config.json and no
    matches.jsonl: its leaderboard is every bot unrated, as for an empty matches.jsonl,
    with a note; a folder that is no run's stays an error."""
    out = copy_of(finished, tmp_path)
    (out / "matches.jsonl").unlink()
    for name in ("ratings-checkpoint.json", "failures.jsonl"):
        (out / name).unlink(missing_ok=True)
    missing = arena("leaderboard", str(out), "--format", "json")
    (out / "matches.jsonl").write_text("")
    empty = arena("leaderboard", str(out), "--format", "json")
    for result in (missing, empty):
        assert result.exit_code == 0, result.output
        assert f"arena: no match of the run in {out} is recorded yet" in result.stderr
        rows = json.loads(result.stdout)
        assert {row["bot"] for row in rows} == {"random", "random-2", "crasher"}
        assert all(row["matches"] == 0 for row in rows)
    assert missing.stdout == empty.stdout


def sending(stop: int) -> Callable[..., None]:
    """A stand-in for a step of the run that sends this process ``stop`` and waits for the
    run's handler to raise."""
    def stopped(*args: object) -> None:
        os.kill(os.getpid(), stop)
        time.sleep(5)  # the signal's handler raises here
        raise AssertionError("not stopped")
    return stopped


def uncaught(signum: int, frame: object) -> None:
    """SIGTERM's handler while a test's run should have its own: not the whole of pytest."""
    raise AssertionError("the run did not catch SIGTERM")


@pytest.mark.parametrize(("stop", "status", "said"), [
    (signal.SIGINT, 130, "Interrupted."), (signal.SIGTERM, 143, "Stopped (SIGTERM)."),
])
def test_a_run_stopped_while_it_reads_its_config_says_nothing_was_written(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: int, status: int,
    said: str,
) -> None:
    """Ctrl-C while the config is read and its bots are started once (seconds, before Ray):
    click's "Aborted!" and status 1; a SIGTERM then ended the run without a word."""
    from arena import cli

    stopped = sending(stop)

    monkeypatch.setattr(cli, "load", stopped)
    out = tmp_path / "never"
    before = signal.signal(signal.SIGTERM, uncaught)
    try:
        result = arena("run", str(config), "--out", str(out))
        assert signal.getsignal(signal.SIGTERM) is uncaught  # given back
    finally:
        signal.signal(signal.SIGTERM, before)
    assert result.exit_code == status, result.output
    assert result.output.strip() == f"{said} No match was played and nothing was written."
    assert not out.exists()


def test_a_local_ray_that_does_not_start_is_one_line(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ray's own start failing (on a loaded machine: 'The current node timed out during
    startup') was a traceback; what it had started is let go, and no folder is left."""
    from arena import cluster

    def timed_out(**options: object) -> None:
        raise Exception("The current node timed out during startup. This could happen "
                        "because ...\nmore")

    let_go: list[bool] = []
    monkeypatch.setattr(cluster.ray, "is_initialized", lambda: False)
    monkeypatch.setattr(cluster.ray, "init", timed_out)
    monkeypatch.setattr(cluster.ray, "shutdown", lambda: let_go.append(True))
    out = tmp_path / "never"
    result = arena("run", str(config), "--out", str(out))
    assert result.exit_code == 2, result.output
    assert "arena: error: the local Ray instance did not start: The current node timed out " \
        "during startup. This could happen because ...; nothing was played." in result.stderr
    assert "Traceback" not in result.output and result.stderr.count("\n") == 1
    assert let_go == [True] and not out.exists()


def test_a_line_of_another_run_is_left_out_of_every_table_of_the_folder(
    config: Path, tmp_path: Path, finished: tuple[Path, str]
) -> None:
    """Lines of another run in the folder (appended by hand, or with a config.json edited
    after the run) were rated by ``arena leaderboard`` with the run's own, while ``arena run
    --resume`` left them out: one folder, two tables, and no word of it."""
    out = copy_of(finished, tmp_path)
    whole = board(out)
    records = lines(out / "matches.jsonl")
    stranger = {**records[0], "id": "r009-t000001-s001", "game": "explorers-of-the-lost-valley"}
    impostor = {**records[1], "seats": ["nobody", "random"]}  # a plan id, other seats
    with (out / "matches.jsonl").open("a") as handle:
        handle.write(json.dumps(stranger) + "\n")
    (out / "matches.jsonl").write_text(
        json.dumps(impostor) + "\n" + (out / "matches.jsonl").read_text())
    said = ("matches.jsonl: 2 recorded match(es) not of this run's plan (their game, seats or "
            "chance seed are not the ones its config gives their id; the first: "
            f"{impostor['id']}) are left out of its table")
    shown = arena("leaderboard", str(out), "--format", "json")
    assert shown.exit_code == 0 and f"arena: warning: {said}" in shown.stderr, shown.output
    assert json.loads(shown.stdout) == whole
    paired = arena("leaderboard", str(out), "--pairs", "--format", "json")
    assert "nobody" not in paired.stdout and said in paired.stderr
    assert sum(pair["matches"] for pair in json.loads(paired.stdout)["pairs"]) == TOTAL
    (out / "matches.jsonl").write_text("\n".join(map(json.dumps, [*records, stranger])) + "\n")
    resumed = arena("run", str(config), "--out", str(out), "--resume")
    assert resumed.exit_code == 0 and "recorded already" in resumed.output
    assert "1 recorded match(es) not of this run's plan" in resumed.output
    assert board(out) == whole


@pytest.mark.parametrize(("stop", "status", "said"), [
    (signal.SIGINT, 130, "Interrupted."), (signal.SIGTERM, 143, "Stopped (SIGTERM)."),
])
def test_a_run_stopped_while_it_rates_its_final_table_keeps_every_match(
    config: Path, tmp_path: Path, finished: tuple[Path, str], monkeypatch: pytest.MonkeyPatch,
    stop: int, status: int, said: str,
) -> None:
    """A resumed run with every match recorded rates its final table (seconds for a run of
    millions): Ctrl-C there was click's "Aborted!" and status 1, SIGTERM a kill without a
    word; now as anywhere else in the run, every match kept."""
    from arena import cli

    out = copy_of(finished, tmp_path)
    before = (out / "matches.jsonl").read_bytes()

    stopped = sending(stop)

    monkeypatch.setattr(cli, "rate_run", stopped)
    previous = signal.signal(signal.SIGTERM, uncaught)
    try:
        result = arena("run", str(config), "--out", str(out), "--resume")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert result.exit_code == status, result.output
    assert f"{said} Every finished match is saved in {out}; continue with: arena run " \
        f"{config} --out {out} --resume" in " ".join(result.output.split())
    assert (out / "matches.jsonl").read_bytes() == before


def test_the_line_to_resume_repeats_the_address_workers_and_store_the_run_was_given(
    config: Path, tmp_path: Path, finished: tuple[Path, str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An operator stopping a run on a cluster (Running on a cluster, Progress and
    interruptions) was told to continue with ``arena run CONFIG --out DIR --resume``: pasted,
    that started a local instance instead of joining the cluster, and looked in the
    default bot store. The line repeats what the run was given, as the README says: the same
    command plus ``--resume``."""
    from arena import cli

    out = copy_of(finished, tmp_path)
    store = tmp_path / "my store"
    monkeypatch.setattr(cli, "rate_run", sending(signal.SIGINT))
    result = arena("run", str(config), "--out", str(out), "--workers", "3", "--address",
                   "10.0.0.7:6379", "--store", str(store), "--resume")
    assert result.exit_code == 130, result.output
    said = " ".join(result.output.split())
    assert f"continue with: arena run {config} --out {out} --workers 3 --address " \
        f"10.0.0.7:6379 --store '{store}' --resume" in said


def test_a_game_declaring_a_draw_probability_trueskill_cannot_use_is_warned_of(
    config: Path, tmp_path: Path, finished: tuple[Path, str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game author's draw_probability = 0.0 ('it never ties') was replaced by 0.1 without
    a word: the run says so (and check_game refuses it)."""
    from arena_testgame import TinyRace

    monkeypatch.setattr(TinyRace, "draw_probability", 0.0)
    result = arena("run", str(config), "--out", str(copy_of(finished, tmp_path)), "--resume")
    assert result.exit_code == 0, result.output
    assert "warning: tiny-race declares draw_probability = 0.0, which TrueSkill cannot rate " \
        "with (it must lie strictly between 0 and 1): rated with 0.1" \
        in " ".join(result.output.split())


def test_ctrl_c_while_a_command_loads_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C in the second the ``arena`` command takes to load was a KeyboardInterrupt
    traceback from inside an import, and in a command with nothing of its own to say
    (``arena games``; ``arena run`` before it reads its config) click's "Aborted!" and
    status 1."""
    from arena import cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_discovered", interrupted)
    result = arena("games")
    assert (result.exit_code, result.output) == (130, "\nInterrupted.\n")
    loading = subprocess.run(
        [sys.executable, "-c", (
            "import sys\n"
            "class Interrupting:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'arena.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupting())\n"
            "from arena.entry import main\n"
            "main()\n")],
        capture_output=True, text=True, timeout=60, check=False)
    assert (loading.returncode, loading.stdout, loading.stderr) == (130, "", "\nInterrupted.\n")
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert 'arena = "arena.entry:main"' in pyproject  # the console script is that one


@pytest.mark.parametrize("module", ["arena.cli", "arena.runner", "ray"])
def test_sigterm_while_arena_run_loads_says_so(tmp_path: Path, module: str) -> None:
    """SIGTERM in the first second of ``arena run`` (the command line's import, then the
    runner's and Ray's) ended it without a word, while one a moment later says
    "Stopped (SIGTERM)" and that nothing was written. The signal is sent as ``module`` is
    imported, in a real process running the console script's function."""
    out = tmp_path / "never"
    loading = subprocess.run(
        [sys.executable, "-c", (
            "import os, signal, sys\n"
            "class Stopping:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            f"        if name == {module!r}:\n"
            "            os.kill(os.getpid(), signal.SIGTERM)\n"
            "sys.meta_path.insert(0, Stopping())\n"
            f"sys.argv = ['arena', 'run', {str(tmp_path / 'cli.toml')!r}, '--out', {str(out)!r}]\n"
            "from arena.entry import main\n"
            "main()\n")],
        capture_output=True, text=True, timeout=60, check=False)
    assert loading.returncode == 143, loading.stdout + loading.stderr
    said = (loading.stdout + loading.stderr).strip()
    assert said == "Stopped (SIGTERM). No match was played and nothing was written."
    assert not out.exists()


def test_ctrl_c_while_ray_starts_leaves_no_ray_process_and_one_line(
    config: Path, tmp_path: Path
) -> None:
    """Ctrl-C (to the process group, as a terminal sends it) while ``arena run`` starts its
    local Ray instance: Ray's dashboard and runtime-env agents outlived it, orphaned for
    good, and about one such run in five ended in a segmentation fault (status -11) after
    the line saying it was interrupted. Sent here once the agents are up, mid-start."""
    out = tmp_path / "never"
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:  # Ctrl-C's default in the child, even where this test runs as a background job
        running = subprocess.Popen(
            [str(Path(sys.executable).parent / "arena"), "run", str(config), "--out", str(out),
             "--workers", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and running.poll() is None:
            seen |= descendants(running.pid)
            if any(b"agent" in command(pid) for pid in seen):
                break
            time.sleep(0.05)
        os.killpg(running.pid, signal.SIGINT)
        output, _ = running.communicate(timeout=120)
    finally:
        if running.poll() is None:
            running.kill()
            running.communicate()
        left = [pid for pid in seen if alive(pid)]
        ray_processes_end(seen)  # a failing test leaves nothing behind either
    assert running.returncode == 130, output
    assert "Interrupted. No match was played and nothing was written" in " ".join(
        output.split())
    assert "Ray ready" not in output, "Ray was up before the agents were seen"
    assert left == [] and not out.exists()


def test_a_run_ended_during_ray_start_removes_its_stored_bots_shipping_folder(
    tmp_path: Path
) -> None:
    """A stop during Ray's start ends the process without its exit handlers (they could end
    in a segmentation fault); the folder of the stored bots' wheels that the run ships, which
    one of them removed, stayed in the temporary folder for good."""
    done = subprocess.run(
        [sys.executable, "-c",
         "from arena import cluster, runner\n"
         "folder = runner._shipping_staging()\n"
         "(folder / 'bot.whl').write_bytes(b'wheel')\n"
         "print(folder, flush=True)\n"
         "cluster.START_CUT.append(True)\n"
         "cluster.end_after_cut_start(130)\n"
         "print('not ended')\n"],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 130, done.stdout + done.stderr
    folder = Path(done.stdout.split()[0])
    assert folder.parent == tmp_path and folder.name.startswith("arena-ship-")
    assert "not ended" not in done.stdout and not folder.exists()


def test_a_ray_started_with_its_own_temp_dir_is_offered(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ray start --head --temp-dir X`` writes its address into X, not the default folder
    where ``arena run`` looked: it was not offered. Here a stand-in raylet names X on its
    command line, as Ray's does, and something listens at the address X holds."""
    import socket

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path / "default"))  # holds no address
    # A run that would start a local instance, even beside the suite's own Ray runtime.
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr("arena.cluster.ray.is_initialized", lambda: False)
    with socket.create_server(("127.0.0.1", 0)) as head:
        address = f"127.0.0.1:{head.getsockname()[1]}"
        (elsewhere / "ray_current_cluster").write_text(address)
        raylet = subprocess.Popen(
            [str(tmp_path / "raylet"), "-c", "import time; time.sleep(60)",
             f"--temp_dir={elsewhere}"], executable=sys.executable)
        try:
            def interrupted(*args: object) -> None:
                raise KeyboardInterrupt

            monkeypatch.setattr("arena.runner._connect", interrupted)
            result = arena("run", str(config), "--out", str(tmp_path / "never"))
        finally:
            raylet.kill()
            raylet.wait()
    assert result.exit_code == 130, result.output
    assert (f"(a Ray instance started with 'ray start' runs here at {address}: --address "
            f"{address} uses it and skips this start)") in " ".join(result.output.split())


def test_a_width_of_0_columns_prints_the_table_and_40_columns_cut_no_name(
    tmp_path: Path,
) -> None:
    """``COLUMNS=0`` (set by some containers and CI runners) printed nothing, with status 0:
    the leaderboard was lost; at 40 columns ``arena bots`` cut every game's name to
    "explorers-o…", the names a config needs."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "matches.jsonl").write_text((Path(__file__).parent / "data" / "tiny-run.jsonl")
                                       .read_text())
    shown = CliRunner(env={"COLUMNS": "0"}).invoke(main, ["leaderboard", str(out)])
    assert shown.exit_code == 0, shown.output
    assert all(label in shown.stdout for label in ("random", "random-2", "crasher"))
    listed = CliRunner(env={"COLUMNS": "40"}).invoke(main, ["bots"])
    assert listed.exit_code == 0, listed.output
    assert "\N{HORIZONTAL ELLIPSIS}" not in listed.stdout
    assert "explorers-of" in listed.stdout

