"""A run folder describes itself, and bad input to ``arena run`` is one line before Ray starts."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.errors import ArenaError
from arena.records import MatchResult
from arena.store import RunStore

CONFIG = """
[tournament]
name = "folder"
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

[limits]
isolation = "inprocess"
"""
TOTAL = 2 * 3 * 2
SAMPLE = Path(__file__).parent / "data" / "tiny-run.jsonl"


def arena(*args: str, columns: int = 200) -> Result:
    return CliRunner(env={"COLUMNS": str(columns)}).invoke(main, list(args))


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "folder.toml"
    path.write_text(CONFIG)
    return path


def json_board(out: Path) -> list[dict[str, object]]:
    result = arena("leaderboard", str(out), "--format", "json")
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


@pytest.fixture
def no_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if anything tries to start or join Ray."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("Ray was started")

    monkeypatch.setattr("arena.cluster.connect", refuse)
    monkeypatch.setattr("arena.runner.connect", refuse)


@pytest.mark.usefixtures("ray_cluster")
def test_a_run_saves_what_its_ratings_need_and_says_when_ray_is_ready(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "elsewhere"
    result = arena("run", str(config), "--out", str(out))
    assert result.exit_code == 0, result.output
    output = result.output
    assert output.index("12 matches") < output.index("Starting Ray: the Ray runtime")
    assert output.index("Starting Ray: the Ray runtime") < output.index("Ray ready in ")
    saved = json.loads((out / "config.json").read_text())
    assert saved["ratings"] == {"draw_probability": 0.01}  # tiny-race declares the default
    installed = json_board(out)

    # On a machine without the game, the folder alone gives the same table and title.
    monkeypatch.setattr("arena.cli._installed_games", lambda: None)
    assert json_board(out) == installed
    table = arena("leaderboard", str(out))
    assert table.exit_code == 0 and "folder: tiny-race" in table.stdout
    assert "elsewhere" not in table.stdout and table.stderr == ""


@pytest.mark.usefixtures("ray_cluster")
def test_after_the_table_a_summary_names_each_faulty_bot_and_its_first_error(
    config: Path, tmp_path: Path
) -> None:
    result = arena("run", str(config), "--out", str(tmp_path / "run"), columns=80)
    assert result.exit_code == 0, result.output
    after = result.output[result.output.index("Faults:") :]
    assert "crasher: 8 faults (error 8)" in after
    assert "first, in match r001-t000002-s001: RuntimeError: boom" in after  # first by id
    table = result.output[: result.output.index("Faults:")].split("folder: tiny-race")[-1]
    assert all(len(line) <= 80 for line in table.splitlines())
    assert f"Results: {tmp_path / 'run' / 'matches.jsonl'}\n" in result.output  # never wrapped


def run_folder(tmp_path: Path, config: dict[str, object] | str | None) -> Path:
    out = tmp_path / "folder-on-disk"
    out.mkdir()
    (out / "matches.jsonl").write_text(SAMPLE.read_text())
    if isinstance(config, dict):
        (out / "config.json").write_text(json.dumps(config))
    elif isinstance(config, str):
        (out / "config.json").write_text(config)
    return out


SAVED = {
    "name": "saved-name",
    "game": "tiny-race",
    "bots": [{"label": "random"}, {"label": "random-2"}, {"label": "crasher"}, {"label": "idle"}],
    "ratings": {"draw_probability": 0.01},
}


@pytest.mark.usefixtures("no_ray")
def test_the_title_is_the_runs_name_from_its_config(tmp_path: Path) -> None:
    result = arena("leaderboard", str(run_folder(tmp_path, SAVED)))
    assert result.exit_code == 0 and result.stderr == ""
    assert "saved-name: tiny-race" in result.stdout and "folder-on-disk" not in result.stdout
    assert "idle" in result.stdout  # a bot of the config that played nothing still has a row


@pytest.mark.parametrize(
    ("config", "warning"),
    [
        (None, "config.json is missing"),
        ("{not json", "unreadable saved config"),
        ({**SAVED, "ratings": {"draw_probability": "high"}}, "rated with the default 0.1"),
    ],
)
@pytest.mark.usefixtures("no_ray")
def test_a_missing_or_corrupt_config_is_said_not_silently_replaced(
    tmp_path: Path,
    config: dict[str, object] | str | None,
    warning: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("arena.cli._installed_games", lambda: None)
    result = arena("leaderboard", str(run_folder(tmp_path, config)), "--format", "json")
    assert result.exit_code == 0
    assert warning in result.stderr and "arena: warning:" in result.stderr
    assert json.loads(result.stdout)  # the table still comes, on stdout alone


@pytest.mark.usefixtures("no_ray")
def test_without_its_config_a_run_is_rated_with_its_recorded_games_draw_probability(
    tmp_path: Path,
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with_config = arena("leaderboard", str(run_folder(tmp_path / "a", SAVED)), "--format", "json")
    without = arena("leaderboard", str(run_folder(tmp_path / "b", None)), "--format", "json")
    assert "config.json is missing" in without.stderr
    assert "no draw probability" not in without.stderr  # tiny-race is installed: 0.01
    def ratings(output: str) -> list[tuple[str, float, float]]:
        return [(row["bot"], row["mu"], row["sigma"]) for row in json.loads(output)
                if row["matches"]]

    assert ratings(without.stdout) == ratings(with_config.stdout)


@pytest.mark.parametrize("where", ["a file", "under a file"])
@pytest.mark.usefixtures("no_ray")
def test_an_out_folder_that_cannot_be_made_is_one_line_before_ray(
    config: Path, tmp_path: Path, where: str
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    out = blocker if where == "a file" else blocker / "run"
    result = arena("run", str(config), "--out", str(out))
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert "choose another --out" in result.output and str(blocker) in result.output


@pytest.mark.usefixtures("no_ray")
def test_an_out_folder_without_write_permission_is_one_line_before_ray(
    config: Path, tmp_path: Path
) -> None:
    import os

    if os.geteuid() == 0:
        pytest.skip("root may write anywhere")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    result = arena("run", str(config), "--out", str(locked / "run"))
    assert result.exit_code == 2 and "cannot be written" in result.output


def test_an_out_folder_on_a_read_only_file_system_is_said_to_be_read_only(
    config: Path, tmp_path: Path
) -> None:
    """A results folder on a read-only mount (here bubblewrap's read-only bind) was "no
    permission to write", which sends the user to chmod; a new one there and a run there to
    resume are both refused in one line saying the file system is read-only."""
    import shutil

    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap makes the read-only mount")
    mount = tmp_path / "mount"
    (mount / "done").mkdir(parents=True)
    (mount / "done" / "matches.jsonl").write_text(SAMPLE.read_text())
    arena_script = str(Path(sys.executable).parent / "arena")
    for out, extra in ((mount / "new", []), (mount / "done", ["--resume"])):
        done = subprocess.run(
            ["bwrap", "--dev-bind", "/", "/", "--ro-bind", str(mount), str(mount),
             arena_script, "run", str(config), "--out", str(out), *extra],
            capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr == (f"arena: error: results folder {out} cannot be written: "
                               f"{mount if extra == [] else out} is on a read-only file "
                               "system; choose another --out\n")
    assert sorted(path.name for path in mount.iterdir()) == ["done"]


def test_a_read_only_folder_is_said_to_be_read_only(tmp_path: Path) -> None:
    """No write permission for anyone is a read-only folder (for its owner too, root aside),
    not a permission the user lacks."""
    from arena.store import unwritable

    folder = tmp_path / "folder"
    folder.mkdir(mode=0o555)
    try:
        assert unwritable(folder) == f"{folder} is read-only"
        folder.chmod(0o700)
        assert unwritable(folder) == f"no permission to write in {folder}"
    finally:
        folder.chmod(0o700)


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ("move_seconds = nan", "move_seconds = nan: must be a finite number of seconds"),
        ("bank_seconds = inf", "bank_seconds = inf: must be a finite number of seconds"),
    ],
)
@pytest.mark.usefixtures("no_ray")
def test_a_time_limit_that_never_runs_out_is_one_line_before_ray(
    tmp_path: Path, limits: str, message: str
) -> None:
    path = tmp_path / "limits.toml"
    path.write_text(CONFIG.replace("[limits]", f"[limits]\n{limits}"))
    result = arena("run", str(path), "--out", str(tmp_path / "run"))
    assert result.exit_code == 2 and message in result.output
    assert result.output.count("\n") == 1


@pytest.mark.usefixtures("ray_cluster")
def test_a_full_disk_mid_run_is_one_line_saying_how_to_resume(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    append_all = RunStore.append_all
    written: list[object] = []

    def fills_up(self: RunStore, results: list[object]) -> None:
        if written:  # the first batch is one match: the disk fills up after it
            raise OSError(errno.ENOSPC, "No space left on device", str(self.matches_path))
        append_all(self, results)  # type: ignore[arg-type]
        written.extend(results)

    monkeypatch.setattr(RunStore, "append_all", fills_up)
    result = arena("run", str(config), "--out", str(out))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    error = [line for line in result.stderr.splitlines() if line.startswith("arena: error:")]
    assert len(error) == 1 and result.stderr.count("\n") == 1
    assert "No space left on device" in error[0] and "matches.jsonl" in error[0]
    assert f"--out {out} --resume" in error[0]

    monkeypatch.setattr(RunStore, "append_all", append_all)
    resumed = arena("run", str(config), "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert len((out / "matches.jsonl").read_text().splitlines()) == TOTAL


@pytest.mark.usefixtures("ray_cluster")
def test_the_file_size_limit_mid_run_is_said_and_keeps_whole_lines(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ulimit -f`` reached mid-run was "File too large; make room", sending the user to a
    disk that had room, and the batch that passed the limit left a torn line. The limit is
    real here: set on this process once the first batch is written, 10 bytes past it."""
    import resource

    out = tmp_path / "run"
    append_all = RunStore.append_all
    previous = resource.getrlimit(resource.RLIMIT_FSIZE)

    def then_limited(self: RunStore, results: list[object]) -> None:
        append_all(self, results)  # type: ignore[arg-type]
        if resource.getrlimit(resource.RLIMIT_FSIZE) == previous:
            size = self.matches_path.stat().st_size
            resource.setrlimit(resource.RLIMIT_FSIZE, (size + 10, previous[1]))

    monkeypatch.setattr(RunStore, "append_all", then_limited)
    try:
        result = arena("run", str(config), "--out", str(out))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, previous)
    assert result.exit_code == 2, result.output
    [error] = result.stderr.splitlines()
    assert error.startswith(f"arena: error: the results could not be written: a file of "
                            f"{out} reached the file size limit (")
    assert error.endswith("every match recorded before is safe; lift the limit (ulimit -f "
                          f"unlimited), then continue with: arena run {config} --out {out} "
                          "--resume")
    kept = (out / "matches.jsonl").read_text()
    assert kept.endswith("\n") and all(json.loads(line) for line in kept.splitlines())
    monkeypatch.setattr(RunStore, "append_all", append_all)
    resumed = arena("run", str(config), "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "truncated" not in resumed.output
    assert len((out / "matches.jsonl").read_text().splitlines()) == TOTAL


def test_resuming_a_run_saved_without_rating_settings_saves_them(
    config: Path, tmp_path: Path
) -> None:
    """A run started by an older arena describes itself once it is resumed."""
    from arena import runner
    from arena.cluster import Connection
    from arena.config import load

    out = tmp_path / "old"
    loaded = load(config)
    first = runner.plan(loaded, out, resume=False, draw_probability=0.02)
    runner.execute(
        runner.RunPlan(loaded, first.store, [], [], fresh=True, draw_probability=0.02),
        Connection(1, owned=False),
        print,
        print,
    )
    saved = json.loads((out / "config.json").read_text())
    assert saved.pop("ratings") == {"draw_probability": 0.02}
    (out / "config.json").write_text(json.dumps(saved))  # as an older arena wrote it

    resumed = runner.plan(loaded, out, resume=True, draw_probability=0.03)
    assert resumed.fresh and resumed.draw_probability == 0.03
    resumed.pending.clear()
    runner.execute(resumed, Connection(1, owned=False), print, print)
    assert json.loads((out / "config.json").read_text())["ratings"] == {"draw_probability": 0.03}
    again = runner.plan(loaded, out, resume=True, draw_probability=0.5)
    assert not again.fresh and again.draw_probability == 0.03  # one run is rated one way


def test_resume_refuses_a_folder_holding_another_runs_matches(tmp_path: Path) -> None:
    """Red team round 9: a resumed run took any planned match id on trust, so a line of
    another run (other seats, another seed) was rated as this run's match, and its id never
    played again (or played again after it, and every reader keeps the first line)."""

    from arena.config import load
    from arena.plugins import registry
    from arena.records import MatchResult
    from arena.runner import plan
    from arena.store import record

    path = tmp_path / "run.toml"
    path.write_text('[tournament]\nname = "t"\ngame = "tiny-race"\nplayers = 2\nseed = 5\n'
                    '[[bots]]\nname = "random"\n[[bots]]\nname = "random"\nlabel = "b"\n'
                    '[[bots]]\nname = "random"\nlabel = "c"\n')
    config = load(path, registry())
    specs = list(config.matches())
    out = tmp_path / "out"
    out.mkdir()

    def recorded(spec_index: int, **changes: object) -> str:
        spec = specs[spec_index]
        result = MatchResult(spec.id, spec.game, spec.seed, tuple(s.label for s in spec.seats),
                             (1.0, 0.0), (0, 1), ("ok", "ok"), 3, 0.1, (0.0, 0.0), (0.0, 0.0),
                             (None, None), (0, 0, 0))
        return json.dumps(record(replace(result, **changes))) + "\n"

    (out / "matches.jsonl").write_text(recorded(0) + recorded(3))
    assert len(plan(config, out, resume=True).done) == 2
    assert [s.label for s in specs[1].seats] == ["b", "random"]
    for changes in ({"seats": ("random", "b")}, {"seats": ("c", "random")},
                    {"seed": specs[0].seed + 1}, {"game": "dinosaurs"}):
        (out / "matches.jsonl").write_text(recorded(0) + recorded(1, **changes))
        with pytest.raises(ArenaError, match=f"match {specs[1].id} is not this run's"):
            plan(config, out, resume=True)


def test_no_results_are_written_through_a_link_a_results_folder_holds(tmp_path: Path) -> None:
    """Red team round 9: a results folder whose ratings-checkpoint.tmp was a link to another
    file had arena leaderboard write the checkpoint over that file; one whose matches.jsonl
    was a link had arena run --resume cut that file at its last newline and append to it."""
    victim = tmp_path / "precious"
    victim.write_text("precious\nno newline at the end")
    out = tmp_path / "run"
    out.mkdir()
    (out / "matches.jsonl").write_text(SAMPLE.read_text())
    (out / "ratings-checkpoint.tmp").symlink_to(victim)
    assert arena("leaderboard", str(out)).exit_code == 0
    assert victim.read_text() == "precious\nno newline at the end"
    assert (out / "ratings-checkpoint.json").is_file()

    (out / "matches.jsonl").unlink()
    (out / "matches.jsonl").symlink_to(victim)
    store = RunStore(out)
    with pytest.raises(ArenaError, match="is a symbolic link"):
        list(store.scan_done([]))
    with pytest.raises(ArenaError, match="is a symbolic link"), store:
        pass
    (out / "matches.jsonl").unlink()
    (out / "outputs").symlink_to(tmp_path)
    with store, pytest.raises(ArenaError, match="is a symbolic link"):
        store.append(replace(_a_result(), outputs=("printed", "")))
    assert victim.read_text() == "precious\nno newline at the end"


def _a_result() -> MatchResult:
    from arena.store import read_results

    return read_results(SAMPLE).results[0]


@pytest.mark.parametrize("name", ["ratings-checkpoint.json", "config.json", "failures.jsonl"])
def test_a_fifo_in_a_results_folder_is_not_waited_on(tmp_path: Path, name: str) -> None:
    """Red team round 9: a FIFO named ratings-checkpoint.json or config.json had arena
    leaderboard wait for a writer for ever."""
    (tmp_path / "matches.jsonl").write_text(SAMPLE.read_text())
    os.mkfifo(tmp_path / name)
    runner = "import sys; from arena.cli import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", runner, "leaderboard", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "random-2" in done.stdout


HOLD = """
import sys
from pathlib import Path
from arena.store import RunStore
RunStore(Path(sys.argv[1])).claim()
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.usefixtures("no_ray")
def test_a_second_run_into_a_folder_in_use_is_one_line_before_ray(
    config: Path, tmp_path: Path
) -> None:
    """Drill (ops): two ``arena run`` into one folder at once (the README's command run again in
    another terminal) had no lock: both played every match, matches.jsonl held 480 lines for
    240 matches, and every reader warned about 240 repeated ones. A run holds its folder."""
    from arena import runner
    from arena.config import load
    from arena.plugins import registry

    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        for resume in ([], ["--resume"]):
            result = arena("run", str(config), "--out", str(out), *resume)
            assert result.exit_code == 2, result.output
            assert result.output.count("\n") == 1 and "Traceback" not in result.output
            assert f"{out} is in use by another arena run" in result.output
        assert sorted(path.name for path in out.iterdir()) == []  # nothing written
    finally:
        holder.communicate("", timeout=30)
    # The claim goes with the process that held it, however it ended.
    assert len(runner.plan(load(config, registry()), out, resume=True).pending) == TOTAL


def test_a_run_that_started_in_a_new_folder_since_the_plan_is_refused(
    config: Path, tmp_path: Path
) -> None:
    """Two runs planned into a folder not there yet: the second to claim it finds the first's
    config, and is refused rather than playing its matches again."""
    from arena import runner
    from arena.config import load
    from arena.plugins import registry

    out = tmp_path / "new"
    late = runner.plan(load(config, registry()), out, resume=True)
    out.mkdir()
    (out / "config.json").write_text("{}")  # the other run's start
    with pytest.raises(ArenaError, match="another arena run started there meanwhile"):
        runner.hold(late)


def test_a_results_folder_deleted_mid_run_stops_the_run(tmp_path: Path) -> None:
    """Drill (ops): ``rm -r`` of the results folder mid-run went unnoticed: the run wrote on
    into the deleted file, ended with status 0 and "Results: <folder>/matches.jsonl", and
    there was no such file."""
    import shutil

    from arena.store import FolderLost

    sample = [MatchResult.from_json(json.loads(line))
              for line in SAMPLE.read_text().splitlines()[:2]]
    out = tmp_path / "run"
    with RunStore(out) as store:
        store.append(sample[0])
        shutil.rmtree(out)
        with pytest.raises(FolderLost, match=r"matches\.jsonl was deleted while the run wrote it"):
            store.append(sample[1])


def test_a_ray_temp_folder_that_cannot_be_made_is_one_line(config: Path, tmp_path: Path) -> None:
    """Drill (ops): RAY_TMPDIR on a read-only file system (or a file) gave a traceback from
    deep in ray.init; now one line naming the folder and what to do, and no results folder."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = tmp_path / "run"
    done = subprocess.run(
        [str(Path(sys.executable).parent / "arena"), "run", str(config), "--out", str(out),
         "--workers", "1"],
        env={**os.environ, "RAY_TMPDIR": str(blocker)}, capture_output=True, text=True,
        timeout=120, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        f"arena: error: cannot start a local Ray instance: Not a directory: {blocker}/ray (Ray "
        f"keeps its session files under {blocker}/ray; make it writable, or set RAY_TMPDIR to "
        f"a folder that is)"]
    assert not out.exists()


@pytest.mark.usefixtures("no_ray")
def test_the_head_to_head_tables_fit_a_narrow_terminal_with_their_labels_whole(
    tmp_path: Path,
) -> None:
    """At 40 columns ``--pairs`` cut every header to an ellipsis and the bots' labels to
    nothing: rows of numbers without the bots they were about. The counts go first."""
    out = run_folder(tmp_path, SAVED)
    narrow = arena("leaderboard", str(out), "--pairs", columns=40)
    assert narrow.exit_code == 0, narrow.output
    assert "\N{HORIZONTAL ELLIPSIS}" not in narrow.stdout
    assert all(len(line) <= 40 for line in narrow.stdout.splitlines())
    rows = [line.split() for line in narrow.stdout.splitlines()]
    assert ["bot", "vs", "ahead", "%"] in rows and ["random-2", "crasher", "100.0"] in rows
    assert ["seat", "matches", "win", "%", "95%", "interval"] in rows
    wide = arena("leaderboard", str(out), "--pairs", columns=80).stdout.splitlines()
    assert ["bot", "vs", "met", "ahead", "behind", "ties", "ahead", "%", "95%", "interval"] in [
        line.split() for line in wide]


@pytest.mark.usefixtures("no_ray")
def test_a_file_given_for_the_run_folder_and_a_folder_for_its_matches_are_said_as_such(
    tmp_path: Path,
) -> None:
    """``arena leaderboard run/matches.jsonl`` (the file for its folder) was "does not
    exist"; a folder in place of ``matches.jsonl`` was a table of no match, exit 0."""
    out = run_folder(tmp_path, SAVED)
    for command in (["leaderboard"], ["replay", "--print"]):
        given = arena(*command[:1], str(out / "matches.jsonl"), *(["x"] if command[1:] else []))
        assert given.exit_code == 2
        assert given.output == f"arena: error: {out / 'matches.jsonl'} is a file, not a run " \
            f"folder: give its folder, {out}\n"
    (out / "matches.jsonl").unlink()
    (out / "matches.jsonl").mkdir()
    for command in (["leaderboard", str(out)], ["replay", str(out), "x"]):
        shown = arena(*command)
        assert shown.exit_code == 2
        assert shown.output == f"arena: error: {out / 'matches.jsonl'} is not a file (a run " \
            "folder's matches.jsonl is one)\n"


@pytest.mark.usefixtures("no_ray")
def test_a_matches_file_that_cannot_be_read_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``matches.jsonl`` without read permission (another user's run) was a
    PermissionError traceback in leaderboard and replay; an unreadable ``failures.jsonl``
    one too, though the table needs none of it. Root reads every file: the refusal is
    made here by hand."""
    out = run_folder(tmp_path, SAVED)
    (out / "failures.jsonl").write_text('{"id": "r001-t000001-s001", "reason": "x"}\n')
    real_open, real_read = Path.open, Path.read_text

    def refused(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name in ("matches.jsonl", "failures.jsonl"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    def refused_text(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name in ("matches.jsonl", "failures.jsonl"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refused)
    monkeypatch.setattr(Path, "read_text", refused_text)
    for command in (["leaderboard", str(out)], ["replay", str(out), "x"]):
        shown = arena(*command)
        assert shown.exit_code == 2, shown.output
        assert shown.output == f"arena: error: cannot read {out / 'matches.jsonl'}: " \
            "Permission denied\n"
    monkeypatch.setattr(Path, "open", real_open)
    shown = arena("leaderboard", str(out), "--format", "json")
    assert shown.exit_code == 0, shown.output
    assert {row["bot"] for row in json.loads(shown.stdout)} >= {"random", "crasher"}


@pytest.mark.usefixtures("no_ray")
def test_a_damaged_failures_file_counts_only_its_failure_records(tmp_path: Path) -> None:
    """Lines of ``failures.jsonl`` that are no failure record (a number for the id, a list,
    no id, not JSON, bytes that are not UTF-8) are passed over; ``{"id": 3}`` was counted as
    a failed match "3" in the leaderboard's warning."""
    out = run_folder(tmp_path, SAVED)
    (out / "failures.jsonl").write_bytes(
        b'{"id": 3}\n[1]\n{"reason": "x"}\ngarbage\n\xff\xfe\n'
        b'{"id": "r009-t000001-s001", "reason": "the engine raised"}\n')
    shown = arena("leaderboard", str(out))
    assert shown.exit_code == 0, shown.output
    assert shown.stderr == "arena: warning: 1 match(es) failed; see failures.jsonl\n"
