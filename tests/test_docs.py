"""The documentation keeps up with the code: hooks, README commands, engine rulings."""

from __future__ import annotations

import inspect
import subprocess
from pathlib import Path

from arena import hookspecs

ROOT = Path(__file__).parent.parent


def test_every_hook_spec_documents_its_contract() -> None:
    specs = [
        f
        for name, f in inspect.getmembers(hookspecs, inspect.isfunction)
        if name.startswith("arena_")
    ]
    assert {f.__name__ for f in specs} == {"arena_register_games", "arena_register_bots"}
    for spec in specs:
        assert len(inspect.getdoc(spec) or "") > 100, spec.__name__


def test_the_readme_opens_with_the_two_commands_ci_runs() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    commands = [line.strip() for line in lines[:10] if line.startswith("    ")]
    assert len(commands) == 2
    assert commands[0].endswith("arena run configs/quick.toml --resume")
    assert commands[1].endswith("python -m pytest -q")
    assert commands[1] in (ROOT / ".ci" / "run").read_text()


def test_every_command_in_the_readme_table_exists() -> None:
    from click.testing import CliRunner

    from arena.cli import main

    for command in ("run", "leaderboard", "bots", "games"):
        assert CliRunner().invoke(main, [command, "--help"]).exit_code == 0


def test_the_shipped_engine_documents_its_rulings() -> None:
    rulings = ROOT / "engines" / "explorers" / "RULINGS.md"
    assert rulings.exists() and rulings.read_text().count("\n") > 20


def test_the_results_folder_is_ignored_but_for_its_readme() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "results/quick/matches.jsonl"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert ignored.returncode == 0
