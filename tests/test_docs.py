"""The documentation keeps up with the code: hooks, README commands, engine rulings."""

from __future__ import annotations

import inspect
import itertools
import re
import subprocess
import sys
import tomllib
import types
import zipfile
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

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


def readme_command_table() -> dict[tuple[str, ...], set[str]]:
    """The README's table of commands: each command's words -> the options its row names."""
    rows: dict[tuple[str, ...], set[str]] = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith("| `arena "):
            usage = line.split("`")[1]
            words = tuple(itertools.takewhile(re.compile("[a-z-]+").fullmatch, usage.split()[1:]))
            rows[words] = set(re.findall(r"--[a-z][a-z-]*", usage))
    return rows


def test_every_command_and_option_is_in_the_readme_table_and_no_other() -> None:
    import click

    from arena.cli import main

    def commands(group: click.Group, prefix: tuple[str, ...]) -> dict[tuple[str, ...], set[str]]:
        found: dict[tuple[str, ...], set[str]] = {}
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                found |= commands(command, (*prefix, name))
            else:
                found[(*prefix, name)] = {
                    option for param in command.params for option in param.opts
                    if option.startswith("--") and option != "--help"}
        return found

    assert readme_command_table() == commands(main, ())


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


def test_every_benchmark_script_has_a_row_in_the_benchmarks_readme() -> None:
    table = [line.split("`")[1] for line in
             (ROOT / "benchmarks" / "README.md").read_text().splitlines()
             if line.startswith("| `bench_")]
    assert sorted(table) == sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py"))


def readme_fenced(language: str) -> list[str]:
    """The README's fenced code blocks in ``language``."""
    parts = (ROOT / "README.md").read_text().split(f"```{language}\n")[1:]
    return [part.split("```")[0] for part in parts]


def test_the_readme_config_is_a_tournament_as_written() -> None:
    from arena.config import parse
    from arena.plugins import require_registry

    (block,) = [block for block in readme_fenced("toml") if block.startswith("[tournament]")]
    config = parse(tomllib.loads(block), require_registry())
    assert [bot.label for bot in config.bots] == ["random", "greedy", "greedy-bold"]
    assert config.players == 3 and config.limits.memory_mb == 1024


def a_game_package(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """``arena_game_mine.game``, the game module the README's *Writing a game* registers: a
    stranger's game (``tests/hidden_nim.py``) as ``MyGame``."""
    from hidden_nim import HiddenNim

    package, module = types.ModuleType("arena_game_mine"), types.ModuleType("arena_game_mine.game")
    package.__path__ = []
    module.MyGame = HiddenNim  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "arena_game_mine", package)
    monkeypatch.setitem(sys.modules, "arena_game_mine.game", module)
    return package


def test_the_readme_game_registration_is_found_through_its_entry_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Writing a game said 'register it exactly as a bot is registered' and showed no entry
    point: a game author had to find one in hookspecs.py's docstring. The two blocks it shows
    now, as written, make a game the arena's discovery finds."""
    from arena.plugins import discover

    a_game_package(monkeypatch)
    (entry,) = [block for block in readme_fenced("toml")
                if block.startswith("[project.entry-points.arena]")]
    ((name, target),) = tomllib.loads(entry)["project"]["entry-points"]["arena"].items()
    (plugin,) = [block for block in readme_fenced("python") if "arena_register_games" in block]
    module = types.ModuleType(target)
    exec(compile(plugin, "README.md", "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, target, module)
    found = discover([EntryPoint(name, target, "arena")])
    assert found.problems == []
    assert list(found.games) == ["hidden-nim"]


def test_the_readme_python_examples_run_and_the_policy_bot_keeps_the_bot_contract(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from arena.bot import Bot
    from arena.testing import check_bot

    a_game_package(monkeypatch)
    checked = []
    for block in readme_fenced("python"):
        names: dict[str, object] = {"__name__": "readme_example"}
        exec(compile(block, "README.md", "exec"), names)
        for value in names.values():
            if isinstance(value, type) and issubclass(value, Bot) and value.__module__ == (
                    "readme_example"):
                checked += [check_bot(value, game, players=players)
                            for game in value.games or () for players in (2, 4)]
    assert [(report.bot, report.game, report.players) for report in checked] == [
        ("trained", "lost-explorers", 2), ("trained", "lost-explorers", 4)]


def test_the_readme_package_data_puts_a_policy_bots_model_into_its_wheel(tmp_path: Path) -> None:
    """The README said a model file must sit inside the bot's package folder, and no more: a
    bot made by ``arena new-bot`` so, with its model beside its code, worked installed with
    ``pip install -e`` and failed ``arena submit``'s check with ``FileNotFoundError``, as the
    wheel holds only the package's modules unless ``pyproject.toml`` names the file."""
    from click.testing import CliRunner

    from arena.cli import main
    from arena.submit import build_wheel

    (block,) = [block for block in readme_fenced("toml")
                if block.startswith("[tool.setuptools.package-data]")]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        made = CliRunner().invoke(main, ["new-bot", "trained", "--game", "lost-explorers"])
    assert made.exit_code == 0, made.output
    source = tmp_path / "trained"
    with (source / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n" + block)
    models = source / "arena_bot_trained" / "models"
    models.mkdir()
    for players in (2, 3, 4):
        (models / f"lost-explorers-{players}.npy").write_bytes(b"\x93NUMPY model")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    with zipfile.ZipFile(build_wheel(source, scratch, ["--no-index"], "auto")) as wheel:
        shipped = {name for name in wheel.namelist() if "/models/" in name}
    assert shipped == {f"arena_bot_trained/models/lost-explorers-{n}.npy" for n in (2, 3, 4)}


@pytest.mark.parametrize("engine", ["dinosaurs", "explorers", "lost_explorers"])
def test_the_engine_readme_python_examples_run_as_written(engine: str) -> None:
    """Each engine README's Python blocks run as pasted (the Lost Explorers one began with
    ``state = ...`` and used ``random`` and the game class without importing them)."""
    text = (ROOT / "engines" / engine / "README.md").read_text()
    blocks = [part.split("```")[0] for part in text.split("```python\n")[1:]]
    assert blocks
    for block in blocks:
        exec(compile(block, f"engines/{engine}/README.md", "exec"), {"__name__": "example"})


def test_the_readme_layout_names_every_module_of_the_framework() -> None:
    (row,) = [line for line in (ROOT / "README.md").read_text().splitlines()
              if line.startswith("| `arena/` |")]
    named = set(re.findall(r"`([a-z_/]+\.py)`", row))
    modules = {str(path.relative_to(ROOT / "arena")) for path in (ROOT / "arena").rglob("*.py")
               if path.name != "__init__.py"}
    # The seats' modules are named in a parenthesis after `seats/`.
    assert modules <= named | {f"seats/{name}" for name in named}


def test_the_readme_gives_the_explorers_observation_lengths_the_engine_has() -> None:
    """The PolicyBot paragraph names the Explorers tensor's length at 2, 3 and 4 players; a
    rules pass lengthened the tensor while another change wrote the old lengths there."""
    from arena.plugins import require_registry

    text = " ".join((ROOT / "README.md").read_text().split())
    found = re.search(r"gives it: (\d+), (\d+) and (\d+) in Explorers", text)
    assert found, "the README no longer names the lengths"
    game = require_registry().game("explorers-of-the-lost-valley")
    lengths = [len(game.new_initial_state(n).observation_tensor(0)) for n in (2, 3, 4)]
    assert [int(number) for number in found.groups()] == lengths
