"""``arena new-bot``: the bot author's journey, from an empty folder to a leaderboard row."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.scaffold import BOT_NAME, MAX_NAME, names_for

BIN = Path(sys.executable).parent
GAME = "explorers-of-the-lost-valley"


def new_bot(where: Path, *args: str) -> Result:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(where)
        return CliRunner(env={"COLUMNS": "120"}).invoke(main, ["new-bot", *args])


@pytest.mark.parametrize(
    "name", ["My Bot", "1st", "bot--two", "bot-", "bot_", "Bot", "ü", "a/b", "a" * 41]
)
def test_a_name_that_is_not_a_bot_name_is_one_line_and_writes_nothing(
    tmp_path: Path, name: str
) -> None:
    result = new_bot(tmp_path, name)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "is not valid" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_readme_states_the_name_rule_that_new_bot_applies() -> None:
    # It said "lowercase letters and digits, words joined by - or _": `1st`, `bot--two` and
    # 41 letters were refused by rules it did not state.
    readme = " ".join((Path(__file__).parent.parent / "README.md").read_text().split())
    assert (f"(NAME: up to {MAX_NAME} lowercase letters and digits, starting with a letter, "
            "words joined by single `-` or `_`;") in readme
    assert BOT_NAME.fullmatch("a1_b-c") and not BOT_NAME.fullmatch("1st")


def test_an_existing_folder_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "cautious").mkdir()
    (tmp_path / "cautious" / "notes.txt").write_text("mine")
    result = new_bot(tmp_path, "cautious")
    assert result.exit_code == 2 and "exists already" in result.stderr
    assert [p.name for p in (tmp_path / "cautious").iterdir()] == ["notes.txt"]


def test_the_name_of_an_installed_bot_is_refused(tmp_path: Path) -> None:
    result = new_bot(tmp_path, "random")
    assert result.exit_code == 2
    assert "a bot named 'random' is installed already (arena-bot-random" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_game_is_one_line_with_the_closest_name(tmp_path: Path) -> None:
    result = new_bot(tmp_path, "cautious", "--game", "explorers")
    assert result.exit_code == 2
    assert "unknown game 'explorers'" in result.stderr and "did you mean" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_one_name_gives_the_registry_package_and_class_names() -> None:
    names = names_for("my-bot")
    assert (names.bot, names.package, names.distribution, names.cls) == (
        "my-bot", "arena_bot_my_bot", "arena-bot-my-bot", "MyBot")
    # A bot called random must not shadow the standard library's module.
    assert names_for("random").package == "arena_bot_random"


def test_the_package_is_clean_python_that_needs_no_ray(tmp_path: Path) -> None:
    result = new_bot(tmp_path, "all-games")  # no --game: it plays every game
    assert result.exit_code == 0, result.output
    folder = tmp_path / "all-games"
    assert "games = None" in (folder / "arena_bot_all_games" / "bot.py").read_text()
    tests = (folder / "tests" / "test_all_games.py").read_text()
    assert f'"{GAME}"' in tests and '"tiny-race"' in tests  # every installed game
    lint = subprocess.run(
        [str(BIN / "ruff"), "check", "--no-cache", "--isolated", "--line-length", "100",
         "--select", "E,F,W,I,B,UP,SIM,RUF", "."],
        cwd=folder, capture_output=True, text=True, timeout=60, check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    probe = (
        "import sys; sys.path.insert(0, '.'); import arena_bot_all_games.plugin as p;"
        "import arena_bot_all_games.bot; "
        "print(p.arena_register_bots.__name__, 'ray' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=folder, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.stdout.split() == ["arena_register_bots", "False"], done.stderr


def test_a_bot_for_every_game_is_pointed_at_each_games_observation_page(tmp_path: Path) -> None:
    # Its docstring said "engines/<game>/README.md": there is no
    # engines/lost-valley-of-the-dinosaurs/ (the engine's folder is engines/dinosaurs/).
    assert new_bot(tmp_path, "every-game").exit_code == 0
    text = (tmp_path / "every-game" / "arena_bot_every_game" / "bot.py").read_text()
    pages = dict(re.findall(r"^(\S+) in (\S+/README\.md), section \"Observation\"", text, re.M))
    assert {"explorers-of-the-lost-valley", "lost-explorers",
            "lost-valley-of-the-dinosaurs"} <= set(pages)
    root = Path(__file__).parent.parent
    assert all((root / page).is_file() for page in pages.values())
    assert "<game>" not in (tmp_path / "every-game" / "README.md").read_text()


@pytest.fixture
def journey_name() -> Iterator[str]:
    """A bot name no other run of this test uses at the same time; uninstalled afterwards,
    so no other test sees it."""
    name = f"journey-{os.getpid()}"
    yield name
    subprocess.run([sys.executable, "-m", "pip", "uninstall", "--yes", "--quiet",
                    names_for(name).distribution], capture_output=True, timeout=120, check=False)


def run(*command: str | Path, cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("RAY_ADDRESS", None)
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def builds_without_isolation() -> bool:
    """Whether this environment's setuptools can build a wheel on its own (70.1 and later,
    or an older one beside the wheel package): then pip installs the bot with no index.
    Elsewhere pip fetches setuptools for an isolated build, as for the shipped bots."""
    probes = ("import setuptools.command.bdist_wheel", "import setuptools, wheel.bdist_wheel")
    return any(run(sys.executable, "-c", probe, cwd=Path.cwd()).returncode == 0
               for probe in probes)


def test_the_whole_journey_from_new_bot_to_a_leaderboard_row(
    tmp_path: Path, journey_name: str
) -> None:
    name = journey_name
    created = run(BIN / "arena", "new-bot", name, "--game", GAME, cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert f"pip install ./{name}" in created.stdout
    folder = tmp_path / name
    (folder / "results").mkdir()  # a run's folder beside pyproject.toml must not break pip

    isolation = ["--no-build-isolation"] if builds_without_isolation() else []
    installed = run(sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", *isolation,
                    f"./{name}", cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    listed = run(BIN / "arena", "bots", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if f" {name} " in line)
    assert GAME in row and names_for(name).distribution in row

    own_tests = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name,
                    cwd=tmp_path)
    assert own_tests.returncode == 0, own_tests.stdout + own_tests.stderr
    assert "4 passed" in own_tests.stdout

    checked = run(BIN / "arena", "check", name, "--params", '{"explore": 0.5}', cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{name}: all checks passed" in checked.stdout
    assert "protection: bubblewrap" in checked.stdout  # sandboxed, as a tournament seats it

    for attempt in (first_run(name), try_again_run(name)):  # as the README has them
        played = run(BIN / "arena", *attempt, "--workers", "1", cwd=tmp_path)
        assert played.returncode == 0, played.stdout + played.stderr
        out = played.stdout.split(" -> ", 1)[1].split()[0]
        board = run(BIN / "arena", "leaderboard", out, "--format", "json", cwd=tmp_path)
        rows = {row["bot"]: row for row in json.loads(board.stdout)}
        assert set(rows) == {name, "random"}
        assert rows[name]["matches"] == 4 and rows[name]["faults"] == 0


def writing_a_bot() -> list[list[str]]:
    """The code blocks of the README's "Writing a bot": the journey, the commands to try the
    bot again after an edit, the recipe that prints observations."""
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    return code_blocks(readme.split("## Writing a bot\n")[1].split("\n## ")[0])


def arena_run_line(block: list[str], name: str) -> list[str]:
    """The arguments of the block's ``arena run`` command, for a bot called ``name``."""
    line = next(line for line in block if line.startswith("arena run "))
    return line.split("#")[0].replace("cautious", name).split()[1:]


def first_run(name: str) -> list[str]:
    return arena_run_line(writing_a_bot()[0], name)


def try_again_run(name: str) -> list[str]:
    """After an edit: a second tournament beside the first, which must not be refused."""
    return arena_run_line(writing_a_bot()[1], name)


def test_the_readme_walks_the_journey_that_new_bot_prints(tmp_path: Path) -> None:
    result = new_bot(tmp_path, "cautious", "--game", GAME)
    assert result.exit_code == 0, result.output
    steps = result.stdout.split("Next:\n")[1].split("\n")
    journey, again, observations = writing_a_bot()
    commands = [line.split("#")[0].strip() for line in journey]
    assert commands == [f"arena new-bot cautious --game {GAME}",
                        *(step.strip() for step in steps if step.strip())]
    # Trying it again after an edit: the tests, the check, a tournament beside the first.
    assert [line.split()[:2] for line in again] == [["pytest", "cautious"],
                                                   ["arena", "check"], ["arena", "run"]]
    # The recipe for seeing real observations, run as written, from an empty folder.
    (tmp_path / "elsewhere").mkdir()
    activated = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    shown = subprocess.run(["bash", "-c", "\n".join(observations)], cwd=tmp_path / "elsewhere",
                           env=activated, capture_output=True, text=True, timeout=60, check=False)
    assert shown.returncode == 0, shown.stderr
    assert '"phase"' in shown.stdout and shown.stdout.strip().splitlines()[-1].startswith("[")


def code_blocks(text: str) -> list[list[str]]:
    """The indented code blocks of a Markdown section, each as its lines without the indent."""
    blocks: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("    "):
            if not inside:
                blocks.append([])
            blocks[-1].append(line[4:])
            inside = True
        elif line.strip():
            inside = False
    return blocks


@pytest.mark.parametrize("given", ["cautious", "./cautious"])
def test_checking_the_folder_before_installing_it_says_to_install_it(
        tmp_path: Path, given: str) -> None:
    """The journey's ``arena check cautious`` names the bot, which is also its folder's name;
    a careless author who skipped ``pip install`` (or typed ``./cautious``) was told only
    ``unknown bot``, as if the name were wrong."""
    assert new_bot(tmp_path, "cautious", "--game", GAME).exit_code == 0
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        checked = CliRunner(env={"COLUMNS": "400"}).invoke(main, ["check", given])
    assert checked.exit_code == 2
    assert checked.output.strip().splitlines()[-1] == (
        f"arena: error: '{given}' is a bot package's folder, not a bot's name: arena check takes "
        f"the name a bot class registers, once the package is installed (pip install {given}) "
        f"or stored (arena submit {given}); arena bots lists the names")


def test_the_generated_pyproject_says_where_imports_and_data_files_go(tmp_path: Path) -> None:
    """Two careless authors' bots passed ``arena check`` and failed ``arena submit``: one
    imported a library it did not require, one read a file its wheel left out. The file
    they edit says where each goes."""
    import tomllib

    assert new_bot(tmp_path, "trained", "--game", GAME).exit_code == 0
    text = (tmp_path / "trained" / "pyproject.toml").read_text()
    before_dependencies = text.split("\ndependencies = ")[0].rsplit("\n\n", 1)[1]
    assert "every library the bot imports" in before_dependencies
    assert "arena submit installs the bot" in before_dependencies
    assert ("[tool.setuptools.package-data] table names it: arena_bot_trained = "
            '["models/*.npy"]') in " ".join(line.lstrip("# ") for line in text.splitlines())
    assert tomllib.loads(text)["project"]["dependencies"] == ["lostvalley-arena"]


def test_its_tournament_before_it_is_installed_says_to_install_it(tmp_path: Path) -> None:
    """``arena run cautious/tournament.toml`` before ``pip install ./cautious`` said "unknown
    bot 'cautious'; did you mean 'random'?", pointing at the wrong fix."""
    assert new_bot(tmp_path, "cautious", "--game", GAME).exit_code == 0
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        ran = CliRunner(env={"COLUMNS": "400"}).invoke(main, ["run", "cautious/tournament.toml"])
    assert ran.exit_code == 2
    line = ran.output.strip().splitlines()[-1]
    assert line.startswith("arena: error: cautious/tournament.toml: unknown bot 'cautious'")
    assert line.endswith("; the package beside this config (./cautious) registers it: install "
                         "it first (pip install ./cautious), or submit it (arena submit "
                         "./cautious)")
    (tmp_path / "cautious" / "tournament.toml").write_text(
        (tmp_path / "cautious" / "tournament.toml").read_text().replace("players = 2",
                                                                        "players = 9"))
    with pytest.MonkeyPatch.context() as patch:  # another mistake: no such note
        patch.chdir(tmp_path)
        ran = CliRunner(env={"COLUMNS": "400"}).invoke(main, ["run", "cautious/tournament.toml"])
    assert ran.exit_code == 2 and "beside this config" not in ran.output
