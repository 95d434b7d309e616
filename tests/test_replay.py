"""``arena replay``: a recorded match of each game, rebuilt from its history, checked against
its record, shown as a transcript and stepped through in a real terminal (issue 10)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import spec

from arena.cli import main
from arena.match import play_match
from arena.plugins import registry
from arena.records import Limits, MatchResult
from arena.replay import load

GAMES = ["explorers-of-the-lost-valley", "lost-valley-of-the-dinosaurs", "lost-explorers"]
ARENA = str(Path(sys.executable).with_name("arena"))
TRUSTED = Limits(isolation="inprocess")


def save_run(folder: Path, game: str, results: list[MatchResult], options: dict[str, object]
             ) -> Path:
    """A run folder as ``arena run`` writes it: the parts of config.json a replay reads."""
    folder.mkdir(parents=True, exist_ok=True)
    config = {"name": folder.name, "game": game, "options": options,
              "game_plugin": registry().games[game].module}
    (folder / "config.json").write_text(json.dumps(config))
    lines = [json.dumps(result.to_json()) for result in results]
    (folder / "matches.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def played(game: str, seed: int = 3, players: int = 2) -> MatchResult:
    bots = ["random", "greedy", "random"][:players]
    return play_match(spec(*bots, game=game, seed=seed, limits=TRUSTED))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One recorded match of each game (random against greedy, trusted bots: quick)."""
    root = tmp_path_factory.mktemp("runs")
    return {game: save_run(root / game, game, [played(game)], {}) for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_a_recorded_match_of_each_game_replays_to_its_record(game: str,
                                                             runs: dict[str, Path]) -> None:
    replay, warnings = load(runs[game], "r001-t000001-s001")
    assert warnings == [] and replay.problems == []
    assert [step.action for step in replay.steps] == list(replay.record.history)
    final = replay.state(len(replay.steps))
    assert final.is_terminal() and list(final.scores()) == list(replay.record.scores)
    # Any position can be reached again, from the nearest kept state.
    middle = len(replay.steps) // 2
    assert replay.board(middle) == replay.state(middle).render()
    assert replay.label(0) == "seat 0 (random-0)" and replay.label(-1) == "chance"


@pytest.mark.parametrize("game", GAMES)
def test_the_transcript_lists_every_action_and_the_check(game: str,
                                                         runs: dict[str, Path]) -> None:
    shown = CliRunner().invoke(main, ["replay", str(runs[game]), "r001-t000001-s001", "--print"])
    assert shown.exit_code == 0, shown.output
    record = load(runs[game], "r001-t000001-s001")[0]
    lines = shown.stdout.splitlines()
    assert lines[0].startswith(f"match r001-t000001-s001: {game}")
    assert "  seat 1: greedy-1 (ok)" in lines
    for step in record.steps:
        assert f"{step.number:>{len(str(len(record.steps)))}}. {record.label(step.actor)}: " \
               f"{step.text}" in lines
    assert lines[-1] == "checked: the replay reproduces the recorded scores and ranking"
    assert "[bold]" not in shown.stdout  # the board's markup is read, not shown


@pytest.mark.parametrize("game", ["explorers-of-the-lost-valley", "lost-explorers"])
def test_the_boards_name_no_first_player_before_it_is_drawn(game: str,
                                                            runs: dict[str, Path]) -> None:
    """The first board named "first player seat 0" (Explorers) or "seat -1" (Lost
    Explorers) before the chance step that draws it: the state's placeholder, not a seat."""
    shown = CliRunner().invoke(main, ["replay", str(runs[game]), "r001-t000001-s001",
                                      "--print", "--boards"])
    assert shown.exit_code == 0, shown.output
    record = load(runs[game], "r001-t000001-s001")[0]
    drawn = next(step for step in record.steps if step.text.endswith(" goes first"))
    first = drawn.text.removesuffix(" goes first")  # "seat N"
    text = shown.stdout
    before, after = text.split(f"{drawn.number}. chance: {first} goes first", 1)
    assert "first player not drawn yet" in before and "first player seat" not in before
    assert f"first player {first}" in after and "first player not drawn yet" not in after


def tampered(run: Path, folder: Path, change: dict[str, object]) -> Path:
    record = json.loads((run / "matches.jsonl").read_text())
    record.update(change)
    if isinstance(record["history"], int):  # keep the first so many actions
        record["history"] = json.loads((run / "matches.jsonl").read_text())["history"][
            : record["history"]]
    folder.mkdir()
    (folder / "config.json").write_text((run / "config.json").read_text())
    (folder / "matches.jsonl").write_text(json.dumps(record) + "\n")
    return folder


@pytest.mark.parametrize(
    ("change", "report"),
    [
        ({"ranking": [0, 0]}, "the replay ranks"),
        ({"scores": [99.0, 0.0]}, "the replay scores"),
        ({"history": 10, "actions": 10}, "the game has not ended after the 10 recorded actions"),
        ({"actions": 3}, "the record counts 3 actions but holds"),
        ({"history": [10_000]}, "action 1 (10000) is not legal there"),
    ],
)
def test_a_record_that_does_not_replay_to_its_result_is_reported(
    change: dict[str, object], report: str, runs: dict[str, Path], tmp_path: Path
) -> None:
    folder = tampered(runs["lost-explorers"], tmp_path / "run", change)
    shown = CliRunner().invoke(main, ["replay", str(folder), "r001-t000001-s001", "--print"])
    assert shown.exit_code == 1
    assert f"CHECK FAILED: {report}" in shown.stdout
    assert "does not replay to its record" in shown.stderr


def test_an_unknown_match_or_a_game_not_installed_is_one_line(runs: dict[str, Path],
                                                              tmp_path: Path) -> None:
    run = runs["lost-explorers"]
    shown = CliRunner().invoke(main, ["replay", str(run), "r001-t000001-s002"])
    assert shown.exit_code == 2
    assert shown.output == (f"arena: error: no match 'r001-t000001-s002' in {run}/matches.jsonl;"
                            f" did you mean 'r001-t000001-s001'? (it holds 1 matches, "
                            f"r001-t000001-s001 to r001-t000001-s001)\n")
    folder = tampered(run, tmp_path / "other", {"game": "chess"})
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "game": "chess",
                                                    "game_plugin": "no.such.plugin"}))
    shown = CliRunner().invoke(main, ["replay", str(folder), "r001-t000001-s001"])
    assert shown.exit_code == 2 and len(shown.output.splitlines()) == 1
    assert shown.output.startswith("arena: error: the run's game 'chess' is not installed here")


def test_a_replay_imports_no_module_a_foreign_config_names(runs: dict[str, Path],
                                                          tmp_path: Path) -> None:
    """A run's config.json names the plugin module its game came from, and a replay imported
    that module alone, in the arena's own process: but a results folder may come from anyone,
    and the red team's named a bot's plugin module there, whose code then ran outside every
    sandbox (as root, reading /root), the replay going on as if nothing had happened. Only a
    game plugin of the arena's own package is taken at its word now (read from its metadata:
    nothing imported); any other game is found as a run finds it, by sandboxed hosts."""
    folder = tampered(runs["lost-explorers"], tmp_path / "foreign", {})
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "game_plugin": "arena_testzoo"}))
    marker = tmp_path / "imported"
    shown = subprocess.run([ARENA, "replay", str(folder), "r001-t000001-s001", "--print"],
                           capture_output=True, text=True, timeout=120, check=False,
                           env={**os.environ, "ARENA_TEST_IMPORTED": str(marker)})
    assert shown.returncode == 0, shown.stderr
    assert "checked: the replay reproduces" in shown.stdout
    assert not marker.exists(), marker.read_text()


def test_the_replay_steps_through_a_match_in_a_real_terminal(runs: dict[str, Path]) -> None:
    pexpect = pytest.importorskip("pexpect")
    replay = load(runs["explorers-of-the-lost-valley"], "r001-t000001-s001")[0]
    total = len(replay.steps)
    seat_1 = next(step.number - 1 for step in replay.steps if step.actor == 1)
    child = pexpect.spawn(ARENA, ["replay", str(runs["explorers-of-the-lost-valley"]),
                                  "r001-t000001-s001"], dimensions=(50, 100), timeout=20,
                          encoding="utf-8")
    try:
        child.expect(f"position 0/{total}")
        child.expect("last: - \\(the start\\)")
        child.send("l")
        child.expect(f"position 1/{total}")
        child.send("\x1b[C")  # the right arrow
        child.expect(f"position 2/{total}")
        child.send("\x1b[D")  # the left arrow
        child.expect(f"position 1/{total}")
        child.send("\u00b2")  # one key of two bytes: one unknown key, not two
        child.expect(f"position 1/{total}")
        child.expect("unknown key '\u00b2'; keys:")
        child.send("1")  # the next decision of seat 1
        child.expect(f"position {seat_1}/{total}")
        child.expect("next: seat 1 \\(greedy-1\\) to move")
        child.send("G")
        child.expect(f"position {total}/{total}")
        child.expect("checked: the replay reproduces the recorded scores and ranking")
        child.send("h")
        child.expect(f"position {total - 1}/{total}")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_key_that_looks_like_a_digit_but_is_no_number_is_an_unknown_key(
        runs: dict[str, Path]) -> None:
    """Keys piped in while the output is a terminal: ``²`` passed ``isdigit`` and ended the
    stepper with ``ValueError: invalid literal for int()``."""
    pexpect = pytest.importorskip("pexpect")
    run = runs["explorers-of-the-lost-valley"]
    child = pexpect.spawn("sh", ["-c", f'printf "\\302\\262\\nl\\nq\\n" | "{ARENA}" replay '
                                       f'"{run}" r001-t000001-s001'],
                          dimensions=(50, 100), timeout=20, encoding="utf-8")
    try:
        child.expect("unknown key '\u00b2'")
        child.expect("position 1/")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_replay_with_no_config_uses_the_default_options(runs: dict[str, Path],
                                                          tmp_path: Path) -> None:
    folder = tmp_path / "bare"
    folder.mkdir()
    (folder / "matches.jsonl").write_text((runs["lost-explorers"] / "matches.jsonl").read_text())
    replay, warnings = load(folder, "r001-t000001-s001")
    assert replay.problems == []
    assert any("default options" in warning for warning in warnings)


def test_matches_with_faulty_seats_replay_to_their_records(tmp_path: Path) -> None:
    """A faulty seat is ranked last whatever its score ("A faulty seat is ranked last"): the
    check ranks the replay the referee's way. The sample's crasher outscores random in
    r001-t000002-s002 and still places second."""
    sample = Path(__file__).parent / "data" / "tiny-run.jsonl"
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "matches.jsonl").write_text(sample.read_text())
    (folder / "config.json").write_text(json.dumps({"game": "tiny-race", "options": {}}))
    ids = [json.loads(line)["id"] for line in sample.read_text().splitlines()]
    faulty = 0
    for match_id in ids:
        replay, _ = load(folder, match_id)
        assert replay.problems == [], match_id
        faulty += any(status != "ok" for status in replay.record.statuses)
    assert faulty >= 2
    shown = CliRunner().invoke(main, ["replay", str(folder), "r001-t000002-s002", "--print"])
    assert "  seat 0: crasher (error: RuntimeError: boom)" in shown.stdout.splitlines()
    assert shown.exit_code == 0
