"""Round 18 of the documented contract: README.md followed word for word by a tournament
organiser, a spectator and player, and a bot author, and what they met that the README did
not say."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from arena.plugins import require_registry

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
QUICK = ROOT / "configs" / "quick.toml"
ARENA = Path(sys.executable).parent / "arena"


def arena_command(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` as a user types it, in ``cwd``."""
    return subprocess.run(
        [str(ARENA), *args], cwd=cwd, capture_output=True, text=True,
        env={**os.environ, "COLUMNS": "200", **env}, timeout=120, check=False)


def test_a_local_ray_that_cannot_start_leaves_no_results_folder_behind(tmp_path: Path) -> None:
    """*Where the matches run*: "where that folder cannot be made or written, the run says so
    in one line", and a local instance that does not start leaves "nothing played and no
    folder left behind". `results/quick` went again, but the `results/` made for it stayed,
    empty, in the folder the user ran from."""
    (tmp_path / "not-a-folder").write_text("")
    done = arena_command("run", str(QUICK), "--workers", "1", cwd=tmp_path,
                         RAY_TMPDIR=str(tmp_path / "not-a-folder"))
    assert done.returncode == 2, done.stderr
    assert "RAY_TMPDIR" in done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["not-a-folder"]


def test_the_replay_stepper_says_a_digit_past_the_last_seat_names_no_seat() -> None:
    """*Watching a match*: "a digit `N` forward to the next decision of seat `N`". In a
    match of three seats, `9` said `seat 9 has no decision after position 0`, as if seat 9
    had played and was done; it names no seat, and the note says which ones there are."""
    from rich.console import Console

    from arena.match import play_match
    from arena.records import Limits
    from arena.replay import rebuild
    from arena.watch import step_through
    from tests.helpers import spec

    game = "explorers-of-the-lost-valley"
    record = play_match(spec("random", "greedy", "random", game=game,
                             limits=Limits(isolation="inprocess")))
    replay = rebuild(record, require_registry().game(game), {})
    console = Console(record=True, width=200, file=open(os.devnull, "w"))  # noqa: SIM115
    keys = iter(["9", "1", "q"])
    step_through(replay, console, lambda: next(keys))
    shown = console.export_text()
    assert "no seat 9: the seats of this match are 0 to 2" in shown
    assert "seat 9 has no decision" not in shown
    assert "seat 1 has no decision" not in shown


def test_the_readme_example_of_a_reader_that_goes_away_ends_with_status_141(
        tmp_path: Path) -> None:
    """*Commands*: the example was `arena leaderboard results/quick | head -3`, which ended 0:
    the table goes out in one write that the pipe holds before `head` leaves. The example the
    README gives now, run as written in a shell, ends 141 without a word."""
    from arena.match import play_match
    from arena.records import Limits
    from tests.helpers import spec

    example = README.split("reader goes away before it has written everything (`")[1]
    example = " ".join(example.split("`")[0].split())
    assert example.startswith("arena replay results/quick r001-t000001-s001 --print | head")
    run = tmp_path / "results" / "quick"
    run.mkdir(parents=True)
    record = play_match(spec("random", "greedy", game="explorers-of-the-lost-valley",
                             limits=Limits(isolation="inprocess")))
    (run / "matches.jsonl").write_text(json.dumps(record.to_json()) + "\n")
    game = require_registry().games[record.game]
    (run / "config.json").write_text(json.dumps({"name": "quick", "game": record.game,
                                                 "options": {}, "game_plugin": game.module}))
    shell = f'PATH="{ARENA.parent}:$PATH"; {example} > /dev/null; echo "${{PIPESTATUS[0]}}"'
    done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.stdout.strip() == "141", done.stderr
    assert done.stderr == ""


def test_the_cluster_line_names_a_stored_bots_wheel_by_its_package_and_version(
        tmp_path: Path) -> None:
    """*Running on a cluster*: "The run says what it joined (`...; bot packages shipped to the
    nodes: my_bot`)". A stored bot was named by its shipping folder,
    `arena_stored_arena_bot_hunter_0_1_0_3904e993a5140dda`, a name the user never gave."""
    from arena.botstore import SHIPPED_PREFIX
    from arena.cluster import shipped_name

    stored = tmp_path / f"{SHIPPED_PREFIX}arena_bot_cautious_0_1_0_0123456789abcdef"
    stored.mkdir()
    (stored / "arena_bot_cautious-0.1.0-py3-none-any.whl").write_bytes(b"")
    package = tmp_path / "my_bot"
    package.mkdir()
    (package / "__init__.py").write_text("")
    assert shipped_name(package) == "my_bot"
    assert shipped_name(stored) == "arena_bot_cautious 0.1.0 (stored)"
    assert "`arena_bot_cautious 0.1.0 (stored)`" in README


def test_paths_with_brackets_are_shown_as_typed_and_stop_nothing(tmp_path: Path) -> None:
    """*Results*: "Everything a bot or a results folder says ... is shown as plain text: no
    rich markup". A config in a folder `c[/d]` (a folder `c[` holding `d]`) ended `arena run`
    in rich's `MarkupError` traceback before it read a line, and `--out o[/p]`, a results
    folder's own name, was read as markup in the run's first and last lines (`-> o`)."""
    folder = tmp_path / "c[" / "d]"
    folder.mkdir(parents=True)
    config = QUICK.read_text().replace("rounds = 2", "rounds = 1").replace(
        "players = 3", "players = 2").replace('isolation = "process"', 'isolation = "inprocess"')
    (folder / "q.toml").write_text(config)
    played = arena_command("run", "c[/d]/q.toml", "--out", "o[/p]", "--workers", "1",
                           cwd=tmp_path)
    assert played.returncode == 0, played.stderr[-2000:]
    assert "12 matches -> o[/p]" in played.stdout
    assert "Results: o[/p]/matches.jsonl" in played.stdout
    again = arena_command("run", "c[/d]/q.toml", "--out", "o[/p]", "--resume", cwd=tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "All 12 matches of o[/p] are recorded already." in again.stdout
    (tmp_path / "x[" / "y]").mkdir(parents=True)
    submitted = arena_command("submit", "x[/y]", "--store", "store", cwd=tmp_path)
    assert submitted.returncode == 2, submitted.stderr[-2000:]
    assert "Submitting x[/y] to the bot store" in submitted.stdout
    assert "Traceback" not in submitted.stderr


def test_what_the_cluster_reports_to_the_driver_goes_to_the_ray_log_not_the_terminal(
        capfd: pytest.CaptureFixture[str]) -> None:
    """*Running on a cluster*: "Ray's own log lines go to a temporary file, not to your
    terminal." A node whose raylet died mid-run put Ray's report, `(raylet) Raylet is
    terminated. Termination is unexpected. ...` and 20 lines of the raylet's log, twice, on
    standard output among the progress lines: Ray's driver prints what the cluster reports
    on stdout, past the arena's redirection of standard error."""
    import ray._private.worker as ray_worker

    from arena.cluster import RayLog

    printer = ray_worker.print_to_stdstream
    log = RayLog()
    try:
        ray_worker.print_to_stdstream(
            {"lines": ["Raylet is terminated. Termination is unexpected."], "pid": "raylet",
             "is_err": False}, ignore_prefix=False)
        kept = log.text()
    finally:
        log.restore()
    assert "(raylet) Raylet is terminated" in kept
    assert ray_worker.print_to_stdstream is printer
    assert "Raylet" not in capfd.readouterr().out


def test_the_seat_table_of_a_run_with_no_match_says_none_is_rated() -> None:
    """*How sure is the order*: `--pairs` of a run stopped before its first match said
    "with no seat advantage each wins about -"; it says no match is rated yet."""
    from rich.console import Console

    from arena.confidence import seats_table

    console = Console(record=True, width=80, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(seats_table([]))
    shown = console.export_text()
    assert "no match is rated yet" in shown
    assert "about -" not in shown


@pytest.mark.parametrize(("game", "options", "shown"), [
    ("lost-valley-of-the-dinosaurs", {"coins": True}, "option 'coins' must be a whole number, "
                                                      "got true"),
    ("lost-valley-of-the-dinosaurs", {"coins": 13}, "got 13"),
    ("explorers-of-the-lost-valley", {"advanced": "yes"}, "must be true or false, got \"yes\""),
    ("lost-explorers", {"components": 1.5}, "must be a string, got 1.5"),
])
def test_a_refused_game_option_is_shown_as_the_toml_file_writes_it(
        game: str, options: dict[str, object], shown: str) -> None:
    """*Commands*: options the game will not start with are one line. Each shipped game named
    the kind an option wants in TOML's words but showed the value as Python does: `coins =
    true` was refused with `got True`, `advanced = "yes"` with `got 'yes'`."""
    from arena.config import parse
    from arena.errors import ArenaError

    config = {"tournament": {"game": game, "options": options},
              "bots": [{"name": "random"}, {"name": "greedy"}]}
    with pytest.raises(ArenaError) as refused:
        parse(config, require_registry())
    assert shown in str(refused.value)
    assert "True" not in str(refused.value) and "'yes'" not in str(refused.value)


def test_what_a_local_ray_reports_is_kept_off_the_runs_one_line(
        capfd: pytest.CaptureFixture[str]) -> None:
    """*Where the matches run*: "If the Ray node of the driver's own machine dies (its
    raylet) ... the run stops at once with one line saying so". Before that line, Ray's
    driver printed 45: `(raylet) Raylet is terminated ...` and the raylet's last log lines.
    A local instance's connection holds them back until it closes."""
    import ray._private.worker as ray_worker

    from arena.cluster import Connection, RayReports

    # A local instance of its own, in a process of its own: this one may already be attached
    # to the suite's runtime (another test on this worker), and then connect() starts none.
    owned = subprocess.run(
        [sys.executable, "-c",
         "import ray._private.worker as w\n"
         "from arena.cluster import RayReports, connect\n"
         "printer = w.print_to_stdstream\n"
         "local = connect(1)\n"
         "held = isinstance(local.reports, RayReports)\n"
         "local.close()\n"
         "print('HELD' if held and w.print_to_stdstream is printer else 'NOT HELD')\n"],
        capture_output=True, text=True, timeout=180,
        env={key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"})
    assert owned.stdout.strip().splitlines()[-1:] == ["HELD"], owned.stdout + owned.stderr
    printer = ray_worker.print_to_stdstream
    connection = Connection(1, owned=False, reports=RayReports())
    try:
        ray_worker.print_to_stdstream(
            {"lines": ["Raylet is terminated. Termination is unexpected."], "pid": "raylet",
             "is_err": False}, ignore_prefix=False)
    finally:
        connection.close()
    assert ray_worker.print_to_stdstream is printer
    assert "Raylet" not in capfd.readouterr().out


def test_a_ray_started_by_hand_has_processes_naming_neither_its_port_nor_its_folder() -> None:
    """*Where the matches run*: "on a shared machine end your instance by its own processes,
    those whose command line names its port or session folder". Done so, its dashboard and
    runtime-env agents, children of its raylet named `ray::...`, ran on (80 MB each); the
    README names them now."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Short: a Ray session's socket paths must fit in 107 bytes.
    folder = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    ray = Path(sys.executable).parent / "ray"
    started = subprocess.run(
        [str(ray), "start", "--head", f"--port={port}", "--num-cpus=1", f"--temp-dir={folder}",
         "--disable-usage-stats", "--include-dashboard=false"],
        capture_output=True, text=True, timeout=120, check=False)
    named = _processes_naming(str(folder), f"--gcs_server_port={port}", f"--port={port}")
    children = {child for pid in named for child in _children(pid)} - named
    try:
        assert started.returncode == 0, started.stderr[-2000:]
        titles = {_command_line(pid).split(" ")[0] for pid in children}
        assert {"ray::DashboardAgent", "ray::RuntimeEnvAgent"} <= titles
    finally:
        for pid in named | children:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
    for title in ("ray::DashboardAgent", "ray::RuntimeEnvAgent"):
        assert f"`{title}`" in README


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace")
    except OSError:
        return ""


def _processes_naming(*texts: str) -> set[int]:
    return {int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
            and any(text in _command_line(int(entry.name)) for text in texts)}


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def test_a_dependency_pip_finds_no_wheel_of_is_refused_saying_what_to_do(
        tmp_path: Path) -> None:
    """*Submitting a bot*: dependencies come "as wheels only ... (from the package index, or
    `--find-links DIR --no-index` offline)". A bot naming `numpy`, submitted with
    `--no-index` alone, was refused with pip's last line only, `No matching distribution
    found for numpy`; the refusal now says where wheels are taken from and what to give."""
    from arena.errors import ArenaError
    from arena.submit import _pip

    failing = [sys.executable, "-c", "import sys; sys.stderr.write("
               "'ERROR: No matching distribution found for numpy\\n'); sys.exit(1)"]
    with pytest.raises(ArenaError) as refused:
        _pip(failing, "resolved", tmp_path / "arena_bot_dep-0.1.0-py3-none-any.whl")
    said = str(refused.value)
    assert "No matching distribution found for numpy" in said
    assert "--find-links DIR" in said and "only wheels" in said


def test_a_stored_bot_met_with_trusted_is_refused_saying_to_leave_out_trusted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """*Playing against the bots*: `--trusted` runs the bots in this process, which never
    imports a stored bot. `arena play ... --against hunter --trusted` was refused with
    `it plays only sandboxed (isolation = "process")`, a config's key that `arena play`
    has no use for; it says to leave out `--trusted`. A config still names its key."""
    from types import SimpleNamespace

    from click.testing import CliRunner

    import arena.botstore
    from arena.cli import main
    from arena.config import refuse_stored
    from arena.errors import ArenaError

    stored = SimpleNamespace(name="hunter", version="0.2.0")
    monkeypatch.setattr(arena.botstore, "read_entries", lambda store: [stored])
    played = CliRunner().invoke(main, ["play", "explorers-of-the-lost-valley", "--against",
                                       "hunter", "--trusted"], input="q\n")
    assert played.exit_code == 2, played.output
    assert ("--trusted: bot 'hunter' is a stored bot: it plays only sandboxed (leave out "
            "--trusted to play it so)") in played.output
    with pytest.raises(ArenaError, match='plays only sandboxed \\(isolation = "process"\\)'):
        refuse_stored("hunter", "[[bots]] entry 1")
