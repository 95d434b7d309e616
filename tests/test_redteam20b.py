"""Red team, round 20b: attacks on everything around the match: a config and a results folder
someone else wrote, what ``arena leaderboard`` prints of them and how much of them it reads, a
submitted package's entry points, and the environments a cluster's nodes build for stored
bots. Each test says the attack, what happened before and what happens now."""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.errors import ArenaError

ARENA = str(Path(sys.executable).parent / "arena")

CONFIG = """
[tournament]
name = {name}
game = "tiny-race"
players = 2

[[bots]]
name = "random"
[[bots]]
name = "random"
label = "random-2"

[limits]
isolation = "inprocess"
"""


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checkpoint key ``arena leaderboard`` makes goes to the test's folder, not the
    user's ``~/.cache``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.mark.parametrize("name", [
    '"x\\u001b]0;PWNED\\u0007\\u001b[2J"',  # the terminal's title set, its screen cleared
    '"a\\u0000b"',  # embedded null byte: a ValueError traceback as the folder was made
    '"' + "y" * 300 + '"',  # past the file system's 255 bytes: an OSError traceback
    '"evil\\u202egnp.txt"',  # a bidi override: the folder's name reads backwards
])
def test_a_configs_run_name_is_a_plain_folder_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A config may come from anyone, and its ``[tournament] name`` names the results folder
    and is the first line ``arena run`` prints. Before, only ``/`` and a leading ``.`` were
    refused: a name with terminal codes was printed raw in that first line (the red team's
    set the terminal's title and cleared its screen) and named ``results/<codes>/``; one
    with a null character, or of 300 characters, ended the run in a traceback as its folder
    was made. Now such a name is refused in one line, exit status 2, before any bot starts,
    the name spelt out with its codes escaped."""
    config = tmp_path / "handed.toml"
    config.write_text(CONFIG.format(name=name))
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, ["run", str(config)])
    assert done.exit_code == 2, done.output
    assert "[tournament] name = " in done.output and "use a plain folder name" in done.output
    assert "\x1b" not in done.output and "\x00" not in done.output
    assert "\u202e" not in done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert not (tmp_path / "results").exists()


def test_a_plain_run_name_of_any_script_is_still_taken(tmp_path: Path) -> None:
    """Held: what was taken before, in any script and with spaces, is taken still."""
    from arena.config import load

    config = tmp_path / "ok.toml"
    config.write_text(CONFIG.format(name='"Tournoi d\'été 2026, 決勝"'))
    assert load(config).name == "Tournoi d'été 2026, 決勝"


def test_a_leaderboards_warnings_quote_a_results_folder_as_plain_text(tmp_path: Path) -> None:
    """``arena leaderboard`` warns on stderr about what a run folder lacks, quoting it: a
    ``config.json`` saved without a draw probability gets "no draw probability saved or
    installed for <its game>". The folder may come from anyone, and the warnings were
    echoed as they were: the red team's game ``"\\u001b]0;PWNED\\u0007..."`` set the
    terminal's title (click strips CSI codes only where stderr is not a terminal; an OSC
    code it leaves everywhere). Now every warning of ``arena leaderboard`` and ``arena
    replay`` is plain text."""
    run = tmp_path / "handed"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({
        "name": "n", "game": "\x1b]0;PWNED\x07\x1b[2J\u009b31mtiny",
        "bots": [{"label": "random"}, {"label": "greedy"}]}))
    (run / "matches.jsonl").write_text("")
    done = CliRunner().invoke(main, ["leaderboard", str(run)])
    assert done.exit_code == 0, done.output
    assert "no draw probability saved or installed for" in done.stderr
    assert "PWNED" not in done.stderr  # the OSC code is taken out whole
    assert "\x1b" not in done.output and "\x07" not in done.output
    assert "\u009b" not in done.output


def _limited(gigabytes: float) -> None:
    limit = int(gigabytes * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("file", ["failures.jsonl", "config.json", "ratings-checkpoint.json"])
def test_a_run_folders_huge_file_is_not_read_whole(tmp_path: Path, file: str) -> None:
    """A results folder may come from anyone. ``arena leaderboard`` read its
    ``failures.jsonl``, its ``config.json`` and its rating checkpoint whole into memory
    (``matches.jsonl`` is read a line at a time, each line bounded): the red team's sparse
    file of 2.5 GB, taking no room on disk, ended the command in a ``MemoryError`` traceback
    under a 2 GiB address-space limit (without one it takes the machine's memory, or the
    kernel's kill, as the file grows). Now ``failures.jsonl`` is read a bounded line at a
    time, and the config and the checkpoint are refused past 64 MiB, as files the arena
    never writes so big: the table comes out (the config's warning said on stderr; the
    checkpoint rated again)."""
    run = tmp_path / "handed"
    run.mkdir()
    sample = Path(__file__).parent / "data" / "tiny-run.jsonl"
    (run / "matches.jsonl").write_text(sample.read_text())
    labels = sorted({label for line in sample.read_text().splitlines() if line.strip()
                     for label in json.loads(line)["seats"]})
    (run / "config.json").write_text(json.dumps(
        {"name": "handed", "game": "tiny-race", "bots": [{"label": label} for label in labels],
         "ratings": {"draw_probability": 0.1}}))
    with (run / file).open("wb") as handle:
        handle.truncate(int(2.5 * 2**30))
    env = {**os.environ, "COLUMNS": "200", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([ARENA, "leaderboard", str(run), "--format", "json"],
                          capture_output=True, text=True, env=env, timeout=600, check=False,
                          preexec_fn=lambda: _limited(2.0))
    assert "MemoryError" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    board = json.loads(done.stdout)
    assert {row["bot"] for row in board} >= set(labels)
    if file == "config.json":
        assert "holds more than 64 MiB" in done.stderr


def _wheel(folder: Path, entry_points: bytes) -> Path:
    """A wheel holding nothing but its ``entry_points.txt``: what is read of it here."""
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / "arena_bot_ep-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("arena_bot_ep-0.1.0.dist-info/entry_points.txt", entry_points)
    return wheel


@pytest.mark.parametrize("text", [
    b"[arena]\nep = bot_ep.plugin\n[arena]\nother = bot_ep.other\n",  # a section twice
    b"[arena]\nep = bot_ep.plugin\nep = bot_ep.other\n",  # a name twice
    b"ep = bot_ep.plugin\n",  # no section
    b"[arena]\nep = bot_\xff.plugin\n",  # not UTF-8
])
def test_a_wheels_unreadable_entry_points_are_refused_in_one_line(
    tmp_path: Path, text: bytes
) -> None:
    """A submitted wheel's ``entry_points.txt`` is the package's to write, and pip installs
    the wheel whatever it holds; ``arena submit`` then read its plugin modules with
    ``configparser``, whose errors (a section or a name given twice, no section header,
    bytes not in UTF-8) were not caught: the submission ended in a traceback after its
    environment was built. Now it is an ``ArenaError``: one line, exit status 2."""
    from arena.submit import entry_point_modules

    with pytest.raises(ArenaError, match=r"arena_bot_ep-0\.1\.0-py3-none-any\.whl: its "
                                         r"arena_bot_ep-0\.1\.0\.dist-info/entry_points\.txt "
                                         r"cannot be read: "):
        entry_point_modules(_wheel(tmp_path, text))


def test_a_percent_sign_in_an_entry_point_is_text(tmp_path: Path) -> None:
    """A ``%`` in a value was taken for ``configparser``'s interpolation and raised
    ``InterpolationSyntaxError``, a traceback; Python's own reading of entry points (pip's,
    and the arena's for installed plugins) takes it as text, and so does this one now."""
    from arena.submit import entry_point_modules

    wheel = _wheel(tmp_path, b"[arena]\nep = bot_ep.plugin  # 100%\n")
    assert entry_point_modules(wheel) == ["bot_ep.plugin  # 100%"]


def test_a_nodes_cached_environment_is_the_shipped_wheels_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a cluster, a node without a stored bot's environment builds it from the wheel the
    run shipped, once, in its cache, and uses what it built from then on, unchecked. The
    cache was per package and version alone: after ``arena store remove`` and another
    package admitted under that name and version (a squatted name handed back to its owner,
    or a test store and the real one), the run shipped the new wheel and the node played
    the old package's code in its seats, under the new one's name. Now the cache holds an
    environment per wheel (its digest): the new wheel is built on its own, and each wheel
    is built once."""
    from arena.botstore import _shipped_name
    from arena.seats import process

    environment = str(tmp_path / "organiser" / "store" / "arena_bot_x" / "0.1.0" / "env")
    shipped = tmp_path / "ray" / _shipped_name(environment)
    shipped.mkdir(parents=True)
    wheel = shipped / "arena_bot_x-0.1.0-py3-none-any.whl"
    monkeypatch.setattr(sys, "path", [str(tmp_path / "ray"), *sys.path])
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "node-cache"))
    built: list[bytes] = []

    def make_environment(target: Path, from_wheel: Path, options: list[str],
                         pinned: dict[str, str] | None = None) -> None:
        """A stand-in for the build (pip): an environment that says which wheel it holds."""
        (target / "bin").mkdir(parents=True)
        (target / "bin" / "python").write_bytes(from_wheel.read_bytes())
        built.append(from_wheel.read_bytes())

    monkeypatch.setattr("arena.submit.make_environment", make_environment)
    wheel.write_bytes(b"the squatter's wheel")
    first = process._environment(environment)
    assert first is not None and (first / "bin" / "python").read_bytes() == b"the squatter's wheel"
    assert process._environment(environment) == first and len(built) == 1  # built once

    wheel.write_bytes(b"the owner's wheel, admitted under the same name and version")
    second = process._environment(environment)
    assert second is not None and second != first
    assert (second / "bin" / "python").read_bytes() == wheel.read_bytes()
    assert built == [b"the squatter's wheel", wheel.read_bytes()]
    assert str(second).startswith(str(tmp_path / "node-cache" / "lostvalley-arena"))


@pytest.mark.parametrize("nested", [
    "options = { a = " + "[" * 50_000 + "]" * 50_000 + " }",
    "options = " + "{ a = " * 50_000 + "1" + " }" * 50_000,
])
def test_a_config_nested_past_what_toml_reads_is_one_line(tmp_path: Path, nested: str) -> None:
    """A config may come from anyone, and Python's TOML reader recurses once per level of
    nesting: the red team's ``options`` of 50,000 nested arrays (or tables) raised a
    ``RecursionError`` that ``arena run`` did not catch, a traceback. Now it is one line,
    exit status 2."""
    config = tmp_path / "deep.toml"
    config.write_text(f'[tournament]\nname = "deep"\ngame = "tiny-race"\n{nested}\n')
    done = CliRunner().invoke(main, ["run", str(config)])
    assert done.exit_code == 2, done.output
    assert "nested too deep" in done.output


def test_a_store_entry_edited_to_list_no_names_is_skipped(tmp_path: Path) -> None:
    """``arena bots`` lists the store from each version's ``entry.json``, which the arena
    wrote when it admitted the package; one edited since (a store shared between machines,
    a folder copied from elsewhere) whose games were ``[1, 2]`` was taken as a bot's, and
    ``arena bots`` ended in a ``TypeError`` traceback joining them. Now an entry whose games
    or params are not a list of names is skipped, as an entry whose bot name is not one was."""
    from arena.botstore import read_entries

    store = tmp_path / "store"
    for package, games in (("edited", [1, 2]), ("kept", ["tiny-race"])):
        (store / package / "1.0").mkdir(parents=True)
        (store / package / "1.0" / "entry.json").write_text(json.dumps({
            "package": package, "version": "1.0", "submitted": "2026-12-02T10:00:00+00:00",
            "bots": [{"name": f"{package}-bot", "games": games, "params": None,
                      "module": "m"}]}))
    assert [bot.name for bot in read_entries(store)] == ["kept-bot"]
    done = CliRunner().invoke(main, ["bots", "--store", str(store)])
    assert done.exit_code == 0, done.output
    assert "kept-bot" in done.output and "edited-bot" not in done.output


def test_a_config_cannot_play_stored_bots_in_the_fallback(tmp_path: Path) -> None:
    """A stored bot is a stranger's code, and the README says of the fallback "never for
    strangers' bots": its host reads and writes whatever the arena's user may (the results,
    the key that seals rating checkpoints, ``~/.ssh``). A config may come from anyone, and
    one handed over with ``[limits] sandbox = "fallback"`` ran the store's bots so, where
    bubblewrap was installed and would have held them; ``arena run`` only said which
    protections were active. Now such a config is refused in one line before any bot
    starts; an installed bot (the user's own install, trusted) may still play there."""
    from arena.botstore import add_to
    from arena.config import parse
    from arena.plugins import Registry, require_registry

    store = tmp_path / "store"
    (store / "arena_bot_stranger" / "1.0" / "env").mkdir(parents=True)
    (store / "arena_bot_stranger" / "1.0" / "entry.json").write_text(json.dumps({
        "package": "arena-bot-stranger", "version": "1.0",
        "submitted": "2026-12-02T10:00:00+00:00",
        "bots": [{"name": "stranger", "games": ["tiny-race"], "params": [],
                  "module": "bot_stranger.plugin"}]}))
    installed = require_registry()
    found = Registry(games=dict(installed.games), bots=dict(installed.bots), sandboxed=True)
    add_to(found, store)
    raw = {"tournament": {"name": "handed", "game": "tiny-race", "players": 2},
           "bots": [{"name": "stranger"}, {"name": "random"}],
           "limits": {"sandbox": "fallback"}}
    with pytest.raises(ArenaError, match=r"sandbox = \"fallback\": bot 'stranger@1.0' is a "
                                         r"stored bot, a stranger's code"):
        parse(raw, found)
    trusted = {**raw, "bots": [{"name": "random"}, {"name": "random", "label": "random-2"}]}
    assert parse(trusted, found).limits.sandbox == "fallback"


def test_a_run_folders_plan_of_twelve_seats_is_checked_a_seating_at_a_time(
    tmp_path: Path
) -> None:
    """``arena leaderboard`` checks each recorded match against the plan in the folder's
    ``config.json``, and worked out every seating of a line's table at once. A results
    folder may come from anyone: the red team's said 12 players seated by permutations
    (479,001,600 seatings a table) beside one line of 12 seats, and the command listed them
    all: a ``MemoryError`` traceback under a 2 GiB address-space limit (without one, the
    machine's memory). Now a table of more than 720 seatings has each line's own seating
    worked out alone: the line is checked, found the plan's, and rated."""
    from arena.schedule import derive_seed

    run = tmp_path / "handed"
    run.mkdir()
    labels = [f"b{i:02d}" for i in range(12)]
    (run / "config.json").write_text(json.dumps({
        "name": "twelve", "game": "tiny-race", "players": 12, "rounds": 1, "seed": 0,
        "seating": "permutations", "bots": [{"label": label} for label in labels],
        "ratings": {"draw_probability": 0.1}}))
    (run / "matches.jsonl").write_text(json.dumps({
        "id": "r001-t000001-s002", "game": "tiny-race",
        "seed": derive_seed(0, "chance", 0, 0), "seats": [*labels[:10], labels[11], labels[10]],
        "scores": [0.0] * 12, "ranking": list(range(12)), "statuses": ["ok"] * 12,
        "actions": 0, "seconds": 0.0, "think_seconds": [0.0] * 12,
        "max_move_seconds": [0.0] * 12, "errors": [None] * 12, "history": []}) + "\n")
    env = {**os.environ, "COLUMNS": "200", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([ARENA, "leaderboard", str(run), "--format", "json"],
                          capture_output=True, text=True, env=env, timeout=600, check=False,
                          preexec_fn=lambda: _limited(2.0))
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
    assert "not of this run's plan" not in done.stderr
    assert {row["bot"]: row["matches"] for row in json.loads(done.stdout)} == dict.fromkeys(
        labels, 1)


def test_a_seating_worked_out_alone_is_the_one_worked_out_with_its_table(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held: with every table's seatings worked out a line at a time, each match of a plan
    is still its plan's, and the same id with its seats reversed is not."""
    import itertools

    from arena import schedule
    from arena.records import Limits, MatchResult, SeatSpec

    monkeypatch.setattr(schedule, "SEATINGS_AT_ONCE", 1)
    for seating, players in itertools.product(("permutations", "rotations"), (2, 3, 4)):
        labels = [f"bot{i}" for i in range(6)]
        entries = [SeatSpec(label=label, bot="random") for label in labels]
        check = schedule.of_the_plan("g", labels, players, 2, seating, 9)
        for spec in schedule.round_robin(game="g", options={}, entries=entries,
                                         players=players, rounds=2, seed=9, seating=seating,
                                         limits=Limits()):
            seats = tuple(seat.label for seat in spec.seats)
            for seated, expected in ((seats, True), (seats[::-1], False)):
                result = MatchResult(
                    id=spec.id, game="g", seed=spec.seed, seats=seated,
                    scores=(0.0,) * players, ranking=tuple(range(players)),
                    statuses=("ok",) * players, actions=0, seconds=0.0, think_seconds=(),
                    max_move_seconds=(), errors=(), history=())
                assert check(result) is expected, (seating, players, spec.id, seated)


def _package(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text('[project]\nname = "arena-bot-deep"\nversion = "1"\n')
    return folder


def test_a_package_nested_too_deep_to_copy_is_refused_in_one_line(tmp_path: Path) -> None:
    """``arena submit`` copies a package folder, in its own process, before anything is
    sandboxed; the red team's folder held 1,500 nested folders (3,000 characters of path,
    well within the system's limit; 600 here, which the test's own clean-up can still
    remove), and the copy's recursion ended the submission in a ``RecursionError``
    traceback. Now it is one line, and nothing is left in the store."""
    from arena.plugins import Registry
    from arena.submit import submit

    source = _package(tmp_path / "deep")
    here = os.getcwd()
    try:
        os.chdir(source)
        for _ in range(600):
            os.mkdir("d")
            os.chdir("d")
    finally:
        os.chdir(here)
    store = tmp_path / "store"
    try:
        with pytest.raises(ArenaError, match=r"its folders are nested too deep to copy"):
            submit(source, store, Registry(), pip_options=["--no-index"], sandbox="fallback")
        assert not store.exists()
    finally:
        shutil.rmtree(source)  # pytest's own removal of old temporary folders recurses too


def test_a_package_of_too_many_files_is_refused_before_they_are_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy was bounded in bytes alone: a folder of a million empty files was copied
    whole onto the arena's disk (an inode each, minutes of copying) before its build was
    refused. Now it may hold ``MAX_ENTRIES`` files and folders (100,000, what a wheel may
    hold; 50 here), and is refused in one line past them, as the copy reaches them."""
    from arena import packagecopy
    from arena.packagecopy import copy_package

    monkeypatch.setattr(packagecopy, "MAX_ENTRIES", 50)
    source = _package(tmp_path / "many")
    for number in range(60):
        (source / f"empty{number}").touch()
    with pytest.raises(ArenaError, match=r"many: it holds more than 50 files and folders"):
        copy_package(source, tmp_path / "copy")
    assert not (tmp_path / "copy").exists()  # refused as the folder was listed: none copied
    few = _package(tmp_path / "few")
    (few / "bot.py").write_text("")
    copy_package(few, tmp_path / "copy-of-few")  # held: a package within the bound
    assert sorted(path.name for path in (tmp_path / "copy-of-few").iterdir()) == [
        "bot.py", "pyproject.toml"]


LIBRARY = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "zoolib"
version = "{version}"

[tool.setuptools]
packages = ["zoolib"]
"""

FLOATING = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "arena-bot-floating"
version = "0.1.0"
dependencies = ["lostvalley-arena", "zoolib>=1.0"]

[project.entry-points.arena]
floating = "bot_floating.plugin"

[tool.setuptools]
packages = ["bot_floating"]
"""

FLOATING_PLUGIN = """import arena
import zoolib
from arena.bot import Bot


class Floating(Bot):
    name = "floating"
    games = ("tiny-race",)

    def act(self, observation, legal_actions):
        return legal_actions[0]


@arena.hookimpl
def arena_register_bots(register):
    register(Floating)
"""


def test_a_node_builds_a_stored_bot_with_the_dependencies_it_was_admitted_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored bot's environment is built at its submission, its requirements resolved then
    (``zoolib>=1.0``: zoolib 1.0) and checked; a cluster's node without the store builds it
    again, later, from the shipped wheel alone. The requirements were resolved again there,
    to whatever the index then held: the red team's bot was admitted with its own library
    at 1.0, the library published as 2.0 afterwards (code no check ever ran), and the nodes
    built and played 2.0. Now the store keeps the dependencies each bot was admitted with
    (``entry.json``), a run ships them beside the wheel, and a node resolves those versions
    alone (a node where they cannot be had faults the seat, saying so)."""
    from arena.botstore import admitted_dependencies, shipping_folder
    from arena.seats import process

    libraries = {}
    for version in ("1.0", "2.0"):
        source = tmp_path / f"zoolib-{version}"
        (source / "zoolib").mkdir(parents=True)
        (source / "pyproject.toml").write_text(LIBRARY.format(version=version))
        (source / "zoolib" / "__init__.py").write_text(f'VERSION = "{version}"\n')
        libraries[version] = tmp_path / f"index-{version}"
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--no-build-isolation", "-w", str(libraries[version]), str(source)],
                       check=True)
    bot = tmp_path / "floating"
    (bot / "bot_floating").mkdir(parents=True)
    (bot / "pyproject.toml").write_text(FLOATING)
    (bot / "bot_floating" / "__init__.py").write_text("")
    (bot / "bot_floating" / "plugin.py").write_text(FLOATING_PLUGIN)
    store = tmp_path / "store"
    env = {**os.environ, "COLUMNS": "200", "ARENA_STORE": str(store)}
    env.pop("RAY_ADDRESS", None)
    done = subprocess.run([ARENA, "submit", str(bot), "--find-links", str(libraries["1.0"]),
                           "--no-index"], capture_output=True, text=True, env=env, timeout=900,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    version_folder = store / "arena_bot_floating" / "0.1.0"
    assert admitted_dependencies(version_folder) == {"zoolib": "1.0"}

    # The node: no store, the shipped wheel on its path, an index that now holds 2.0 too.
    shipped = shipping_folder(str(version_folder / "env"), tmp_path / "ray")
    elsewhere = str(tmp_path / "not-here" / "arena_bot_floating" / "0.1.0" / "env")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "ray"), *sys.path])
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "node-cache"))
    monkeypatch.setenv("PIP_FIND_LINKS", f"{libraries['1.0']} {libraries['2.0']}")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    assert (shipped / "dependencies.json").is_file()
    built = process._environment(elsewhere)
    assert built is not None
    found = sorted(path.read_text() for path in built.glob("lib/python*/site-packages/zoolib/"
                                                           "__init__.py"))
    assert found == ['VERSION = "1.0"\n']

    # A node that can reach 2.0 alone builds nothing but a fault that says why.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-node-cache"))
    monkeypatch.setenv("PIP_FIND_LINKS", str(libraries["2.0"]))
    with pytest.raises(process.BotCrashed, match=r"could not be built on .*: its dependencies "
                                                  r"could not be resolved"):
        process._environment(elsewhere)


@pytest.mark.parametrize(("table", "where"), [
    ('[[bots]]\nname = "crasher"\nparams = { after = 1979-05-27T07:32:00Z }\n'
     '[[bots]]\nname = "random"\n', r"\[\[bots\]\] entry 1: params"),
    ('[[bots]]\nname = "crasher"\nparams = { after = [07:32:00] }\n'
     '[[bots]]\nname = "random"\n', r"\[\[bots\]\] entry 1: params"),
])
def test_a_configs_date_in_params_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, where: str
) -> None:
    """TOML has dates and times, JSON has not, and a config's params travel as JSON (to a
    bot's host, into the run folder's ``config.json``). A config may come from anyone: the
    red team's ``params = { after = 1979-05-27T07:32:00Z }`` for a trusted bot in process
    ended ``arena run`` in a ``TypeError`` traceback as ``config.json`` was written (and in
    a sandbox the bot was said to reject its params). Now it is one line naming the entry,
    exit status 2, before anything runs."""
    config = tmp_path / "dated.toml"
    config.write_text('[tournament]\nname = "dated"\ngame = "tiny-race"\nplayers = 2\n'
                      f'{table}[limits]\nisolation = "inprocess"\n')
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, ["run", str(config)])
    assert done.exit_code == 2, done.output
    assert "a date or a time is not a value the arena passes on" in done.output
    assert re.search(where, done.output)
    assert not (tmp_path / "results").exists()
