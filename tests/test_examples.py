"""Every example of the user-facing markdown that no other test runs, run as written.

The project's rule: "Every example in the README is run as written, in a temporary folder,
by a test or by you, as a new user would." Each test here takes its example out of the
markdown file (by its section and its place there, or by the words that introduce it), so a
change to the example changes what is run. Shell commands go through bash with this
interpreter's ``bin`` folder first on ``PATH`` (the arena's environment, activated). Where
running an example for real takes minutes or needs what the suite cannot have (a second
machine, a package index), the test runs its cheapest faithful form and its docstring says
which. ``tests/EXAMPLES.md`` lists every example and what runs it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import runpy
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
from packaging.requirements import Requirement

from arena.cli import main

ROOT = Path(__file__).parent.parent
BIN = Path(sys.executable).parent
ACTIVATED = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"}


def markdown(path: str) -> str:
    return (ROOT / path).read_text()


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line) up to the next heading."""
    after = text.split(f"\n{heading}\n", 1)[1]
    return re.split(r"\n#+ ", after, maxsplit=1)[0]


def indented_blocks(text: str) -> list[list[str]]:
    """The indented code blocks of ``text``, each as its lines without the indent."""
    blocks: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("    ") and (inside or not line.startswith("    -")):
            if not inside:
                blocks.append([])
            blocks[-1].append(line[4:])
            inside = True
        elif line.strip():
            inside = False
    return blocks


def inline(text: str) -> list[str]:
    """The inline code spans of ``text``, their whitespace made single spaces (a span may
    wrap onto the next line), fenced blocks left out."""
    prose = re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S)
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]


def bash(command: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``command`` in bash from ``cwd``, in the arena's environment, as a user types it."""
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=ACTIVATED, capture_output=True,
                          text=True, timeout=timeout, check=False)


def a_folder_like_the_repository(where: Path) -> Path:
    """``where`` holding what a command run "from the repository root" reads: the arena's
    environment as ``.venv`` and the shipped folders, linked."""
    (where / ".venv").symlink_to(BIN.parent)
    for name in ("benchmarks", "bots", "configs"):
        (where / name).symlink_to(ROOT / name)
    return where


def parsed_by_the_arena(words: list[str]) -> click.Context:
    """``arena ...`` given ``words`` (``arena`` first) as its command line parses it, nothing
    run: a wrong option or a missing argument raises click's ``UsageError``."""
    assert words[0] == "arena", words
    command: click.Command = main
    args = words[1:]
    parent = click.Context(main, info_name="arena")
    while isinstance(command, click.Group):
        found = command.get_command(parent, args[0])
        assert found is not None, f"arena has no command {args[0]!r}: {words}"
        command, args = found, args[1:]
        parent = click.Context(command, info_name=command.name, parent=parent)
    return command.make_context(command.name, args, parent=parent.parent)


# --- the table of examples ----------------------------------------------------------------

DOCUMENTED = ["README.md",
              *sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("engines/*/README.md")),
              *sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("bots/*/README.md")),
              "benchmarks/README.md", "results/README.md"]


def code_blocks_first_lines(text: str) -> list[str]:
    """The first line of each fenced and indented code block of ``text``."""
    prose = re.sub(r"^```.*?\n(.*?)^```$", lambda block: "\0" + block[1].split("\n")[0] + "\0",
                   text, flags=re.M | re.S)
    fenced = re.findall(r"\0(.*?)\0", prose)
    indented = [block[0] for block in indented_blocks(re.sub(r"\0.*?\0", "", prose,
                                                             flags=re.S))]
    return fenced + indented


def test_every_code_block_of_the_user_facing_markdown_has_its_row_in_the_table() -> None:
    """A new example (a game's or a bot's README too) comes with its row in
    ``tests/EXAMPLES.md``, which names what runs it."""
    rows = [re.split(r"(?<!\\)\|", line)[1:-1] for line in
            markdown("tests/EXAMPLES.md").splitlines() if line.startswith("| ")][1:]
    listed = {(cells[0].strip(), cells[2].strip().strip("`")) for cells in rows}
    missing = [(path, first) for path in DOCUMENTED
               for first in code_blocks_first_lines(markdown(path))
               if (path, first) not in listed]
    assert missing == []
    assert len(code_blocks_first_lines(markdown("README.md"))) >= 15  # the blocks are found


# --- README.md ------------------------------------------------------------------------------


def test_the_large_random_seed_one_liner_gives_a_seed_a_config_takes(tmp_path: Path) -> None:
    """*The round robin ...*: "give a large random `seed` (`python3 -c ...`)". Run as
    written; what it prints, as a config's ``seed``, parses."""
    from arena.config import parse
    from arena.plugins import require_registry

    text = section(markdown("README.md"), "## Tournament configs")
    (command,) = [span for span in inline(text) if span.startswith("python3 -c ")]
    done = bash(command, tmp_path)
    assert done.returncode == 0, done.stderr
    seed = int(done.stdout)
    assert 2**40 <= seed < 2**63  # "large": arena run warns below 2^40
    config = parse(tomllib.loads(f'[tournament]\ngame = "lost-explorers"\nseed = {seed}\n'
                                 '[[bots]]\nname = "random"\n[[bots]]\nname = "greedy"\n'
                                 '[limits]\nisolation = "inprocess"\n'),
                   require_registry())
    assert config.seed == seed


def test_activating_the_environment_puts_its_arena_first(tmp_path: Path) -> None:
    """*Writing a bot*: "activate it first (`source .venv/bin/activate` in the arena's folder
    ...) so that `arena`, `pip` and `pytest` below are its own"."""
    where = a_folder_like_the_repository(tmp_path)
    (command,) = [span for span in inline(section(markdown("README.md"), "## Writing a bot"))
                  if span.startswith("source ")]
    shown = subprocess.run(["bash", "-c", f"{command} && command -v arena pip pytest"],
                           cwd=where, capture_output=True, text=True, timeout=30, check=False,
                           env={**os.environ, "PATH": "/usr/bin:/bin"})
    assert shown.returncode == 0, shown.stderr
    assert [Path(line).parent.resolve() for line in shown.stdout.split()] == [BIN.resolve()] * 3


def test_the_extras_the_readme_installs_are_the_arenas_and_the_test_extra_holds_them() -> None:
    """*Reinforcement learning* (`.venv/bin/pip install -e ".[pettingzoo]"`, "the test extra
    includes it") and *How sure is the order* (`.venv/bin/pip install -e ".[plot]"`). pip
    only warns of an extra a package lacks, so the cheapest faithful form is the installed
    arena's own metadata: each extra named is one it provides, and what it brings is in
    ``test``, with which the tests' environment was made."""
    readme = markdown("README.md")
    commands = [span for span in inline(readme) if span.startswith(".venv/bin/pip install -e")]
    assert sorted(commands) == ['.venv/bin/pip install -e ".[pettingzoo]"',
                                '.venv/bin/pip install -e ".[plot]"']
    metadata = importlib.metadata.metadata("lostvalley-arena")
    provided = set(metadata.get_all("Provides-Extra") or [])
    requirements = [Requirement(text) for text in metadata.get_all("Requires-Dist") or []]

    def brought_by(extra: str) -> set[str]:
        return {str(requirement).split(";")[0].strip() for requirement in requirements
                if requirement.marker and requirement.marker.evaluate({"extra": extra})}

    for command in commands:
        (extra,) = re.findall(r'"\.\[(\w+)\]"', command)
        assert extra in provided, command
        assert brought_by(extra) and brought_by(extra) <= brought_by("test"), command
    # The same extra as a package: `pip install "lostvalley-arena[pettingzoo]"`.
    assert 'pip install "lostvalley-arena[pettingzoo]"' in inline(readme)


ARENA_FRAGMENTS = [
    # (section, the inline command, why it is parsed rather than run)
    ("### Where the matches run", "arena run CONFIG --address 127.0.0.1:6379",
     "needs a Ray head started with `ray start --head`; on a shared machine another's"),
    ("### Running on a cluster", "arena run CONFIG --address HEAD:6379",
     "needs a second machine"),
    ("### Submitting a bot: the bot store", "arena submit ./their-bot",
     "a stranger's package; test_submit.py submits packages"),
    ("## Writing a bot", "arena check cautious --params '{\"explore\": 0.25}'",
     "a bot the reader wrote; test_new_bot.py checks one with other params"),
]


@pytest.mark.parametrize(("heading", "command", "why"), ARENA_FRAGMENTS,
                         ids=[command for _, command, _ in ARENA_FRAGMENTS])
def test_the_readmes_arena_commands_that_need_more_than_one_machine_parse(
        heading: str, command: str, why: str) -> None:
    """Inline commands the suite cannot run for real (``why``): their words, as the README
    gives them, are a command line ``arena`` parses (``CONFIG`` a path like any other)."""
    assert command in inline(section(markdown("README.md"), heading))
    parsed_by_the_arena(shlex.split(command))


def test_the_params_and_options_the_readme_shows_are_taken(tmp_path: Path) -> None:
    """*Checking a bot*: `--params '{"risk": 0.8}'` or `--params 'risk = 0.8'`, and *Playing
    against the bots*: `--options` as `'{"coins": 3}'` or `'coins = 3'`. The cheapest faithful
    form of each: parsed as ``arena check`` and ``arena play`` parse them, then the params
    checked as ``arena check greedy`` checks them before any match (the bot started once,
    sandboxed) and the options given to the game they name (a full check plays minutes of
    matches; ``test_check.py`` plays them)."""
    from arena.check import check_params
    from arena.config import registry_for
    from arena.play import parse_options
    from arena.plugins import require_registry
    from arena.records import Limits

    readme = markdown("README.md")
    checking = inline(section(readme, "### Checking a bot before submitting it"))
    params = [span.removeprefix("--params ") for span in checking
              if span.startswith("--params ")]
    assert len(params) == 2
    given = [parse_options(shlex.split(text)[0], flag="--params") for text in params]
    assert given == [{"risk": 0.8}] * 2
    limits = Limits()
    check_params("greedy", registry_for(limits), limits, given[0], ["lost-explorers"])

    playing = section(readme, "## Playing against the bots")
    options = [shlex.split(span)[0] for span in inline(playing) if "coins" in span]
    assert len(options) == 2
    dinosaurs = require_registry().game("lost-valley-of-the-dinosaurs")
    for text in options:
        parsed = parse_options(text)
        assert parsed == {"coins": 3}
        dinosaurs.new_initial_state(2, parsed)


# --- engines/*/README.md ---------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["dinosaurs", "explorers", "lost_explorers"])
def test_the_engine_readmes_pydoc_command_shows_the_game_module(engine: str,
                                                                 tmp_path: Path) -> None:
    """Each engine README's first paragraph: "in a terminal `python -m pydoc ...`", run as
    written from an empty folder."""
    opening = markdown(f"engines/{engine}/README.md").split("\n\n")[1]
    (command,) = [span for span in inline(opening) if span.startswith("python -m pydoc ")]
    done = bash(command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Help on module {command.split()[-1]}")


# --- bots/*/README.md ------------------------------------------------------------------------


def bot_install_commands() -> list[str]:
    """The install commands of the bots' READMEs, as each gives them: "Install with `...`";
    mcts's extra, "`pip install "./bots/mcts[greedy]"` with `./bots/greedy`", as one."""
    commands = []
    for bot in ("random", "greedy", "mcts"):
        text = " ".join(markdown(f"bots/{bot}/README.md").split())
        commands += re.findall(r"Install with `([^`]+)`", text)
    mcts = " ".join(markdown("bots/mcts/README.md").split())
    (extra, beside) = re.findall(r"`(pip install \"\./bots/mcts\[greedy\]\")` with `([^`]+)`",
                                 mcts)[0]
    return [*commands, f"{extra} {beside}"]


def test_the_bot_readmes_install_commands_install_each_bot(tmp_path: Path) -> None:
    """The bots' READMEs say "Install with `pip install ./bots/random`" and the like, from the
    repository root. Installing for real would replace the editable installs the suite runs
    on, so each runs as written with pip's ``--dry-run --no-deps`` added (and offline, the
    build's setuptools this environment's own): pip builds each package's metadata and says
    it would install the bot, the extra ``greedy`` of mcts included (one it lacked would be
    a warning, so its metadata is asked too)."""
    where = a_folder_like_the_repository(tmp_path)
    commands = bot_install_commands()
    assert commands == ["pip install ./bots/random", "pip install ./bots/greedy",
                        "pip install -e ./bots/mcts",
                        'pip install "./bots/mcts[greedy]" ./bots/greedy']
    offline = "--dry-run --no-deps --no-index --no-build-isolation --quiet --report -"
    done = bash("; ".join(f"{command} {offline}" for command in commands), where, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "does not provide the extra" not in done.stderr
    would = re.findall(r'"name": "(arena-bot-\w+)"', done.stdout)
    assert sorted(would) == sorted(["arena-bot-random", "arena-bot-greedy", "arena-bot-mcts",
                                    "arena-bot-mcts", "arena-bot-greedy"])
    assert "greedy" in (importlib.metadata.metadata("arena-bot-mcts").get_all("Provides-Extra")
                        or [])


def test_the_mcts_readmes_entry_plays_with_either_budget() -> None:
    """bots/mcts/README.md's ``[[bots]]`` entry, and the alternatives its comment gives
    (`{ seconds = 0.2 }`, or both), each in a config of the README's own kind: parsed and
    its params checked as ``arena run`` checks them before it starts (the bot started once,
    sandboxed, with them)."""
    from arena.check import check_params
    from arena.config import parse, registry_for
    from arena.records import Limits

    text = markdown("bots/mcts/README.md")
    (block,) = [part.split("```")[0] for part in text.split("```toml\n")[1:]]
    entry, comment = block.split("#", 1)
    (seconds,) = re.findall(r"\{ seconds = [\d.]+ \}", comment)
    assert "or both" in comment
    both = entry.replace("}", ", " + seconds.strip("{ }") + " }")
    limits = Limits()
    found = registry_for(limits)
    for bots in (block, entry.replace(entry.split("params = ")[1], seconds + "\n"), both):
        config = parse(tomllib.loads(f'[tournament]\ngame = "lost-explorers"\n\n[[bots]]\n'
                                     f'name = "random"\n\n{bots}'), found)
        (mcts,) = [bot for bot in config.bots if bot.bot == "mcts"]
        assert mcts.params and set(mcts.params) <= {"iterations", "seconds"}
        check_params("mcts", found, limits, dict(mcts.params), ["lost-explorers"])


# --- benchmarks/README.md --------------------------------------------------------------------


class Parsed(Exception):
    """What a benchmark's ``main`` raises here once its command line is parsed."""


def benchmark_commands() -> list[str]:
    """Every command of benchmarks/README.md's indented blocks ("Run them from the
    repository root"), an optional ``[--terminal]`` given both ways."""
    commands = []
    for block in indented_blocks(markdown("benchmarks/README.md")):
        for line in block:
            line = line.split("#")[0].strip()
            assert line.startswith(".venv/bin/python benchmarks/bench_"), line
            if "[--terminal]" in line:
                commands += [line.replace(" [--terminal]", ""), line.replace("[--terminal]",
                                                                             "--terminal")]
            else:
                commands.append(line)
    return commands


def benchmark_inline_commands() -> list[str]:
    """The commands benchmarks/README.md's figures name as measured: `bench_X.py --...`."""
    spans = inline(markdown("benchmarks/README.md"))
    return sorted({span for span in spans if re.match(r"bench_\w+\.py --", span)})


def test_the_benchmarks_readme_lists_its_commands() -> None:
    assert len(benchmark_commands()) == 14
    assert len(benchmark_inline_commands()) >= 3


@pytest.mark.parametrize("command", [command for command in [*benchmark_commands(),
                                                              *benchmark_inline_commands()]
                                     if "bench_engine.py" not in command])
def test_each_benchmark_command_of_the_readme_parses_as_written(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A benchmark runs for minutes (``bench_scale.py`` about 15), so its cheapest faithful
    form: the script loaded as ``python benchmarks/X.py`` loads it and its ``main`` given
    the README's words, stopped once argparse has taken them (a mistyped option, or a value
    of the wrong type, fails as it would for the user)."""
    words = shlex.split(command)
    script = ROOT / "benchmarks" / Path(words[0] if words[0].endswith(".py") else words[1]).name
    argv = words[words.index(next(word for word in words if word.endswith(".py"))) + 1:]
    assert script.is_file(), command
    parse_args = argparse.ArgumentParser.parse_args

    def parse_then_stop(self: argparse.ArgumentParser, args: object = None,
                        namespace: object = None) -> None:
        raise Parsed(parse_args(self, args, namespace))  # type: ignore[arg-type]

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(sys, "argv", [str(script), *argv])
    monkeypatch.syspath_prepend(str(script.parent))  # as `python benchmarks/X.py` has it
    names = runpy.run_path(str(script), run_name="readme_benchmark")
    with pytest.raises(Parsed):
        names["main"]()


def test_the_engine_benchmark_runs_as_written(tmp_path: Path) -> None:
    """``bench_engine.py`` takes no options and runs about 6 s: run for real, as written, from
    a folder like the repository root."""
    (command,) = [line for line in benchmark_commands() if "bench_engine.py" in line]
    done = bash(command, a_folder_like_the_repository(tmp_path), timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.findall(r"3 players (basic|advanced) *: *[\d,]+ actions/s", done.stdout) == [
        "basic", "advanced"]


def test_the_sixteen_worker_run_of_the_benchmarks_readme_is_a_plan_as_written(
        tmp_path: Path) -> None:
    """benchmarks/README.md: "the whole `arena run benchmarks/scale16.toml --workers 16`
    (24,000 matches)". Sixteen workers are a lent machine's: the command line parses, and
    the config is read and planned as ``arena run`` plans it, 24,000 matches, nothing
    written."""
    from arena import runner
    from arena.config import load
    from arena.plugins import require_registry

    (command,) = [span for span in inline(markdown("benchmarks/README.md"))
                  if span.startswith("arena run benchmarks/")]
    context = parsed_by_the_arena(shlex.split(command))
    assert context.params["workers"] == 16
    config = load(ROOT / context.params["config_path"], require_registry())
    plan = runner.plan(config, tmp_path / "scale16", resume=False)
    assert plan.total == 24_000
    assert not (tmp_path / "scale16").exists()
