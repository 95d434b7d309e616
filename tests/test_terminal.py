"""Terminal output that fits: at 80 and 120 columns nothing a user must copy or read is cut."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main

SAMPLE = Path(__file__).parent / "data" / "tiny-run.jsonl"


@pytest.mark.parametrize("columns", [80, 120])
def test_arena_games_shows_every_game_id_whole(columns: int) -> None:
    result = CliRunner(env={"COLUMNS": str(columns)}).invoke(main, ["games"])
    assert result.exit_code == 0, result.output
    words = result.stdout.split()
    assert "tiny-race" in words and "explorers-of-the-lost-valley" in words
    assert "…" not in result.stdout
    assert all(len(line) <= columns for line in result.stdout.splitlines())


@pytest.mark.parametrize("columns", [80, 120])
def test_arena_leaderboard_fits_with_every_label_and_number(columns: int, tmp_path: Path) -> None:
    label = "a-rather-long-bot-label-for-column-tests"
    text = SAMPLE.read_text().replace('"random-2"', json.dumps(label))
    (tmp_path / "matches.jsonl").write_text(text)
    runner = CliRunner(env={"COLUMNS": str(columns)})
    table = runner.invoke(main, ["leaderboard", str(tmp_path)])
    rows = json.loads(
        runner.invoke(main, ["leaderboard", str(tmp_path), "--format", "json"]).stdout
    )
    assert table.exit_code == 0
    assert all(len(line) <= columns for line in table.stdout.splitlines())
    words = table.stdout.split()
    assert "…" not in table.stdout and label in words
    for row in rows:
        assert f"{row['conservative']:.2f}" in words and str(row["faults"]) in words


@pytest.mark.parametrize("fmt", ["table", "csv", "markdown", "json"])
def test_a_hostile_config_json_is_shown_as_plain_text(tmp_path: Path, fmt: str) -> None:
    """Red team round 9: a results folder's config.json named its run "[/]..." (rich's
    MarkupError, a traceback, in arena leaderboard and --pairs) with a link and a title-setting
    escape, and a bot labelled with a screen-clearing code (through to the CSV as it was)."""
    (tmp_path / "matches.jsonl").write_text(SAMPLE.read_text())
    name = "[/]x[link=https://evil.example]click[/link]\x1b]0;pwned\x07"
    (tmp_path / "config.json").write_text(json.dumps({
        "name": name, "game": "tiny-race",
        "bots": [{"label": "random"}, {"label": "\x1b[2Jevil"}, {"label": "=HYPERLINK(1)"}],
    }))
    runner = CliRunner(env={"COLUMNS": "200"})
    for extra in ([], ["--pairs"]) if fmt in ("table", "json") else ([],):
        result = runner.invoke(main, ["leaderboard", str(tmp_path), "--format", fmt, *extra])
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.stdout and "Jevil" not in result.stdout
        assert "HYPERLINK" not in result.stdout
        assert "its bots cannot be read" in result.stderr
        if fmt == "table":
            assert "[/]x[link=https://evil.example]click[/link]" in result.stdout
