"""``arena submit`` and the bot store, for real: wheels built here, an environment per bot,
two bots that need incompatible versions of one library meeting in one tournament."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

ARENA = str(Path(sys.executable).parent / "arena")

LIBRARY = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "zoolib"
version = "{version}"

[tool.setuptools]
packages = ["zoolib"]
"""

BOT_PROJECT = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "{package}"
version = "{version}"
dependencies = ["lostvalley-arena", {requires}]

[project.entry-points.arena]
{bot} = "{module}.plugin"

[tool.setuptools]
packages = ["{module}"]
"""

# The bots here play tiny-race alone, the game every test of theirs plays: the check that
# admits one then plays a few matches, not those of every installed game (test_check.py
# checks a bot in every game it plays).
BOT_PLUGIN = """import arena
from arena.bot import Bot
{imports}

class Pinned(Bot):
    name = "{bot}"
    games = ("tiny-race",)

    def act(self, observation, legal_actions):
{body}
        return legal_actions[0]


@arena.hookimpl
def arena_register_bots(register):
    register(Pinned)
"""


def write_bot(root: Path, bot: str, *, version: str = "0.1.0", requires: str = "",
              imports: str = "", body: str = "        pass") -> Path:
    module = "bot_" + bot.replace("-", "_")
    folder = root / f"{bot}-{version}"
    (folder / module).mkdir(parents=True)
    (folder / "pyproject.toml").write_text(BOT_PROJECT.format(
        package=f"arena-bot-{bot}", version=version, requires=requires, bot=bot, module=module))
    (folder / module / "__init__.py").write_text("")
    (folder / module / "plugin.py").write_text(BOT_PLUGIN.format(bot=bot, imports=imports,
                                                                 body=body))
    return folder


def arena(*args: str, store: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "ARENA_STORE": str(store)}
    env.pop("RAY_ADDRESS", None)
    return subprocess.run([ARENA, *args], capture_output=True, text=True, env=env, timeout=600,
                          check=False)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two versions of a tiny library, built here: no registry needed."""
    root = tmp_path_factory.mktemp("libraries")
    out = root / "wheels"
    for version in ("1.0", "2.0"):
        source = root / f"zoolib-{version}"
        (source / "zoolib").mkdir(parents=True)
        (source / "pyproject.toml").write_text(LIBRARY.format(version=version))
        (source / "zoolib" / "__init__.py").write_text(f'VERSION = "{version}"\n')
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--no-build-isolation", "-w", str(out), str(source)], check=True)
    return out


@pytest.fixture(scope="module")
def stocked(tmp_path_factory: pytest.TempPathFactory, wheels: Path) -> tuple[Path, Path]:
    """A store holding two bots pinned to zoolib 1.0 and 2.0: (store, bot sources)."""
    root = tmp_path_factory.mktemp("bots")
    store = root / "store"
    for bot, version in (("old-timer", "1.0"), ("new-wave", "2.0")):
        source = write_bot(root, bot, requires=f'"zoolib=={version}"', imports="import zoolib",
                           body=f'        assert zoolib.VERSION == "{version}", zoolib.VERSION')
        done = arena("submit", str(source), "--find-links", str(wheels), "--no-index",
                     "--sandbox", "required", store=store)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Admitted" in done.stdout
    return store, root


def test_two_bots_pinning_incompatible_versions_of_a_library_play_one_tournament(
    stocked: tuple[Path, Path], tmp_path: Path
) -> None:
    store, _ = stocked
    config = tmp_path / "pinned.toml"
    config.write_text(
        '[tournament]\nname = "pinned"\ngame = "tiny-race"\nplayers = 2\nrounds = 2\n\n'
        '[[bots]]\nname = "old-timer"\n[[bots]]\nname = "new-wave"\n[[bots]]\nname = "random"\n'
        '\n[limits]\nsandbox = "required"\n'
    )
    done = arena("run", str(config), "--out", str(tmp_path / "run"), "--workers", "2",
                 store=store)
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in (tmp_path / "run" / "matches.jsonl").open()]
    assert len(records) == 12
    assert all(set(record["statuses"]) == {"ok"} for record in records)
    labels = {label for record in records for label in record["seats"]}
    assert labels == {"old-timer@0.1.0", "new-wave@0.1.0", "random"}  # the version it played
    assert "old-timer@0.1.0" in done.stdout
    # No seed given (0): a stored bot could find it from its own seed, and is warned about.
    assert ("seed = 0 is small, and stored bots play (new-wave@0.1.0, old-timer@0.1.0)"
            in " ".join(done.stdout.split()))


def test_the_arena_and_its_workers_never_import_a_stored_bot(stocked: tuple[Path, Path]) -> None:
    store, _ = stocked
    env = {**os.environ, "ARENA_STORE": str(store)}
    probe = ("import sys; from arena.config import registry_for; from arena.records import "
             "Limits; found = registry_for(Limits()); print(found.bot_info('old-timer')); "
             "import zoolib")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, check=False)
    assert "version='0.1.0'" in done.stdout
    assert "No module named 'zoolib'" in done.stderr  # neither the bot nor its library here


def test_a_new_version_needs_new_version_then_versions_are_listed_kept_and_removed(
    stocked: tuple[Path, Path], wheels: Path
) -> None:
    """Without ``--new-version`` anyone could take over every config that names a stored
    package's bots without @version. The package is named as its author wrote it
    (``arena-bot-old-timer``), not as its wheel's file spells it (``arena_bot_old_timer``)."""
    store, root = stocked
    newer = write_bot(root, "old-timer", version="0.2.0", requires='"zoolib==1.0"')
    line = refused(str(newer), "--find-links", str(wheels), "--no-index", store=store)
    assert "arena-bot-old-timer is in the bot store already at version 0.1.0" in line
    assert "names old-timer without @version" in line and "--new-version" in line
    assert not (store / "arena_bot_old_timer" / "0.2.0").exists()
    done = arena("submit", str(newer), "--find-links", str(wheels), "--no-index",
                 "--new-version", store=store)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Admitted arena-bot-old-timer 0.2.0" in done.stdout
    listing = arena("bots", store=store)
    assert listing.returncode == 0, listing.stderr
    entry = json.loads((store / "arena_bot_old_timer" / "0.2.0" / "entry.json").read_text())
    assert entry["package"] == "arena-bot-old-timer"  # the folder keeps the wheel's spelling
    assert "Stored bots" in listing.stdout and "0.1.0, 0.2.0" in listing.stdout
    assert "new-wave" in listing.stdout and "passed" in listing.stdout
    removed = arena("store", "remove", "old-timer@0.2.0", store=store)
    assert removed.returncode == 0 and "removed old-timer@0.2.0" in removed.stdout
    assert "0.2.0" not in arena("bots", store=store).stdout


def refused(*args: str, store: Path) -> str:
    done = arena("submit", *args, store=store)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_mistakes_are_one_line_and_exit_2(stocked: tuple[Path, Path], tmp_path: Path) -> None:
    store, root = stocked
    (tmp_path / "empty").mkdir()
    assert "not a Python package" in refused(str(tmp_path / "empty"), store=store)
    taken = write_bot(tmp_path, "random")
    line = refused(str(taken), store=store)
    assert "bot name 'random' is taken by the installed" in line and "pip uninstall" in line
    again = root / "old-timer-0.1.0"
    line = refused(str(again), "--no-index", store=store)
    # The way out it names is a command that runs as written: the bot's name, not NAME.
    assert "is in the bot store already" in line
    assert "'arena store remove old-timer@0.1.0' first" in line
    # A version written otherwise is the same version: the command names the stored one.
    same = write_bot(tmp_path, "old-timer", version="0.1")
    line = refused(str(same), "--no-index", store=store)
    assert "0.1 is in the bot store already" in line and "old-timer@0.1.0'" in line


def test_removing_from_an_empty_store_says_it_holds_none(tmp_path: Path) -> None:
    """'known stored bots: none installed' named the wrong place: the store holds none."""
    done = arena("store", "remove", "nope", store=tmp_path / "store")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == ("arena: error: unknown stored bot 'nope' (known stored bots: none "
                           "stored)\n")


def test_a_package_that_registers_no_bot_is_refused(tmp_path: Path) -> None:
    source = write_bot(tmp_path, "hollow")
    plugin = source / "bot_hollow" / "plugin.py"
    plugin.write_text(plugin.read_text().replace("    register(Pinned)", "    pass"))
    assert "registers no bot" in refused(str(source), store=tmp_path / "store")


def test_a_wheel_for_another_python_is_refused(tmp_path: Path) -> None:
    built = craft_wheel(tmp_path / "wheel", "arena_bot_ancient", {})
    foreign = built.rename(tmp_path / built.name.replace("py3-none-any",
                                                         "cp27-cp27mu-manylinux1_x86_64"))
    assert "not for this Python" in refused(str(foreign), store=tmp_path / "store")


def test_a_bot_that_fails_its_check_is_refused_and_its_report_kept(tmp_path: Path) -> None:
    source = write_bot(tmp_path, "stumbler", body='        raise RuntimeError("stumbled")')
    store = tmp_path / "store"
    message = refused(str(source), "--no-index", "--sandbox", "fallback", store=store)
    assert "the check failed" in message and "RuntimeError: stumbled" in message
    report = next((store / ".rejected").glob("*/report.json"))
    assert "stumbled" in report.read_text()
    assert not (store / "arena-bot-stumbler").exists()


def test_a_machine_without_the_environment_builds_it_from_the_wheel(
    stocked: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, wheels: Path
) -> None:
    """As a Ray node that has the store's folder but not the bot's environment would."""
    import shutil

    from helpers import spec

    from arena.botstore import read_entries
    from arena.match import play_match
    from arena.records import Limits, SeatSpec

    store, _ = stocked
    stored = next(bot for bot in read_entries(store) if bot.name == "new-wave")
    shutil.rmtree(stored.environment)
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))  # the library's only source here
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    seat = SeatSpec("new-wave", "new-wave", {}, stored.module, str(stored.environment))
    result = play_match(spec(seat, "random", limits=Limits(sandbox="required")))
    assert result.statuses == ("ok", "ok")
    assert (stored.environment / "bin" / "python").exists()


def test_an_sdist_is_built_and_admitted(tmp_path: Path) -> None:
    source = write_bot(tmp_path, "packed")
    subprocess.run([sys.executable, "-c", "from setuptools import build_meta; "
                    f"build_meta.build_sdist({str(tmp_path / 'dist')!r})"],
                   cwd=source, check=True, capture_output=True)
    sdist = next((tmp_path / "dist").glob("*.tar.gz"))
    done = arena("submit", str(sdist), "--no-index", "--sandbox", "fallback",
                 store=tmp_path / "store")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Admitted arena-bot-packed 0.1.0: packed" in done.stdout


def test_a_config_names_a_stored_version(
    stocked: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.config import load
    from arena.errors import ArenaError

    store, _ = stocked
    monkeypatch.setenv("ARENA_STORE", str(store))
    path = tmp_path / "versions.toml"
    path.write_text('[tournament]\ngame = "tiny-race"\nplayers = 2\n\n'
                    '[[bots]]\nname = "new-wave@0.1.0"\n[[bots]]\nname = "new-wave"\n'
                    'label = "newest"\n')
    config = load(path)
    pinned, newest = config.bots
    assert pinned.label == "new-wave@0.1.0" and newest.label == "newest"
    assert pinned.environment.endswith("0.1.0/env") and pinned.bot == "new-wave@0.1.0"
    path.write_text(path.read_text().replace("new-wave@0.1.0", "new-wave@9.9"))
    with pytest.raises(ArenaError, match=r"unknown bot 'new-wave@9\.9'"):
        load(path)


def test_a_cluster_node_builds_a_shipped_stored_bot_into_its_cache(
    stocked: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wheels: Path
) -> None:
    """A run ships each stored bot's wheel (``runner.bot_packages``); a node without the
    store finds it on its path, builds the environment once in its cache and plays."""
    from helpers import spec

    from arena.botstore import read_entries
    from arena.config import load
    from arena.match import play_match
    from arena.records import Limits, SeatSpec
    from arena.runner import bot_packages

    store, _ = stocked
    monkeypatch.setenv("ARENA_STORE", str(store))
    path = tmp_path / "shipping.toml"
    path.write_text('[tournament]\ngame = "tiny-race"\nplayers = 2\n\n'
                    '[[bots]]\nname = "old-timer@0.1.0"\n[[bots]]\nname = "random"\n')
    shipped = [folder for folder in bot_packages(load(path)) if "stored" in folder.name]
    assert [folder.name.rpartition("_")[0] for folder in shipped] == [
        "arena_stored_arena_bot_old_timer_0_1_0"]
    assert [wheel.name for wheel in shipped[0].glob("*.whl")] == [
        "arena_bot_old_timer-0.1.0-py3-none-any.whl"]

    stored = next(bot for bot in read_entries(store) if bot.name == "old-timer")
    elsewhere = tmp_path / "not-here" / "arena_bot_old_timer" / "0.1.0" / "env"  # no store
    monkeypatch.setattr(sys, "path", [str(shipped[0].parent), *sys.path])
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    seat = SeatSpec("old-timer", "old-timer", {}, stored.module, str(elsewhere))
    result = play_match(spec(seat, "random", limits=Limits(sandbox="required")))
    assert result.statuses == ("ok", "ok")
    # One environment per wheel and dependencies (their digest): see test_redteam20b.py.
    assert len(list((tmp_path / "cache" / "lostvalley-arena" / "environments"
                     / "arena_bot_old_timer" / "0.1.0").glob("*/env/bin/python"))) == 1



def test_a_nodes_build_of_a_stored_bots_environment_is_on_no_bots_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The environment a node builds from a shipped wheel, on the bot's first match there,
    took 12-14 s at load 8, inside the bot's 10 s of start-up: the first match on each node
    was a timeout of the bot's (the test above failed so under load). The build is the
    arena's work: the clock starts once it is done. Here a build of 3 s (a stand-in for pip's,
    on an installed bot) against 2 s of start-up."""
    from helpers import spec

    from arena.match import play_match
    from arena.records import Limits, SeatSpec
    from arena.seats import process

    def slow_build(environment: str) -> Path | None:
        time.sleep(3.0)
        return None  # the arena's own environment: an installed bot

    monkeypatch.setattr(process, "_environment", slow_build)
    process.POOL.close()
    try:
        seat = SeatSpec("random", "random", {}, "", "stored-elsewhere")
        result = play_match(spec(seat, "random", limits=Limits(sandbox="required",
                                                               startup_seconds=2.0)))
    finally:
        process.POOL.close()
    assert result.statuses == ("ok", "ok"), result.errors

IMPOSTOR_PROJECT = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "arena-bot-old-timer-0"
version = "1.0"
dependencies = ["lostvalley-arena"]

[project.entry-points.arena]
mallory = "bot_mallory.plugin"

[tool.setuptools]
packages = ["bot_mallory", "bot_old_timer"]
"""


def test_a_stored_bot_is_shipped_to_a_cluster_as_its_own_wheel_alone(
    stocked: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wheels: Path
) -> None:
    """A stored bot's wheel is shipped in a folder named after its package and version. The
    red team's package ``arena-bot-old-timer-0`` 1.0 spelt the same folder name as the victim
    ``arena-bot-old-timer`` 0.1.0 (``arena_bot_old_timer_0_1_0``), so its wheel, shipped
    first, was the one a node built the victim's seats from, and cached for later runs: a
    module it carried, never listed nor checked, played as ``old-timer`` and threw its
    matches. Each stored bot's folder is its own, and a node builds only a wheel of the
    package and version it was asked for."""
    import shutil

    from helpers import spec

    from arena.botstore import read_entries
    from arena.config import load
    from arena.match import play_match
    from arena.records import Limits, SeatSpec
    from arena.runner import bot_packages

    victim_store, _ = stocked
    store = tmp_path / "store"
    victim = victim_store / "arena_bot_old_timer" / "0.1.0"
    shutil.copytree(victim, store / victim.relative_to(victim_store),
                    ignore=shutil.ignore_patterns("env"))  # the entry and wheel suffice
    source = tmp_path / "impostor"
    for module, bot, body in (("bot_mallory", "mallory", "        pass"),
                              ("bot_old_timer", "old-timer", "        print('IMPOSTOR')")):
        (source / module).mkdir(parents=True)
        (source / module / "__init__.py").write_text("")
        (source / module / "plugin.py").write_text(BOT_PLUGIN.format(bot=bot, imports="",
                                                                     body=body))
    (source / "pyproject.toml").write_text(IMPOSTOR_PROJECT)
    done = arena("submit", str(source), "--no-index", "--sandbox", "required", store=store)
    assert done.returncode == 0, done.stdout + done.stderr

    monkeypatch.setenv("ARENA_STORE", str(store))
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))  # loading the config rebuilds its env
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    path = tmp_path / "shipping.toml"
    path.write_text('[tournament]\ngame = "tiny-race"\nplayers = 2\n\n'
                    '[[bots]]\nname = "mallory"\n[[bots]]\nname = "old-timer"\n')
    shipped = [folder for folder in bot_packages(load(path)) if "stored" in folder.name]
    assert sorted(wheel.name for folder in shipped for wheel in folder.glob("*.whl")) == [
        "arena_bot_old_timer-0.1.0-py3-none-any.whl",
        "arena_bot_old_timer_0-1.0-py3-none-any.whl"]

    stored = next(bot for bot in read_entries(store) if bot.name == "old-timer")
    elsewhere = tmp_path / "not-here" / "arena_bot_old_timer" / "0.1.0" / "env"  # no store
    monkeypatch.setattr(sys, "path", [*(str(folder.parent) for folder in shipped), *sys.path])
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    seat = SeatSpec("old-timer", "old-timer", {}, stored.module, str(elsewhere))
    result = play_match(spec(seat, "random", limits=Limits(sandbox="required")))
    assert result.statuses == ("ok", "ok"), result.errors
    assert "IMPOSTOR" not in result.outputs[0]


def test_a_stored_wheel_changed_since_it_was_admitted_is_neither_shipped_nor_built(
    stocked: tuple[Path, Path], tmp_path: Path
) -> None:
    """Red team round 9: a stored version's wheel swapped after it was admitted went unseen: a
    run played the store's environment here and shipped the new wheel to its cluster's nodes,
    which built and played it there, never checked; a node sharing the store built whichever
    wheel of the folder sorted first. entry.json keeps the admitted wheel's digest."""
    import json
    import shutil

    from arena.botstore import ENTRY, shipping_folder
    from arena.errors import ArenaError
    from arena.seats import SeatFault
    from arena.seats.process import _environment

    victim_store, _ = stocked
    victim = victim_store / "arena_bot_old_timer" / "0.1.0"
    entry = json.loads((victim / ENTRY).read_text())
    assert len(entry["wheel_sha256"]) == 64
    version = tmp_path / "store" / "arena_bot_old_timer" / "0.1.0"
    shutil.copytree(victim, version, ignore=shutil.ignore_patterns("env"))
    environment = str(version / "env")
    shipped = shipping_folder(environment, tmp_path / "ship")
    # Beside the wheel, the dependencies it was admitted with (see test_redteam20b.py).
    assert sorted(path.name for path in shipped.iterdir()) == [
        entry["wheel"], "dependencies.json"]
    (version / "a-0.1-py3-none-any.whl").write_bytes(b"sorts first")
    assert sorted(w.name for w in shipping_folder(environment, tmp_path / "again").iterdir()) == [
        entry["wheel"], "dependencies.json"]

    (version / entry["wheel"]).write_bytes(b"swapped")
    with pytest.raises(ArenaError, match="not the wheel this bot was admitted with"):
        shipping_folder(environment, tmp_path / "ship-2")
    with pytest.raises(SeatFault, match="not the wheel this bot was admitted with"):
        _environment(environment)


def test_a_node_builds_a_stored_bot_from_no_wheel_but_its_own(tmp_path: Path) -> None:
    """Whatever lies in a shipped folder, a node takes only a wheel of the package and
    version whose environment it builds."""
    from arena.botstore import shipped_wheel, shipping_folder

    version = tmp_path / "store" / "arena_bot_x" / "0.1.0"
    version.mkdir(parents=True)
    (version / "arena_bot_x_0-1.0-py3-none-any.whl").write_bytes(b"another's")
    environment = str(version / "env")
    folder = shipping_folder(environment, tmp_path / "ship")
    assert shipped_wheel(environment, [str(folder.parent)]) is None
    (folder / "arena_bot_x-0.1.0-py3-none-any.whl").write_bytes(b"its own")
    found = shipped_wheel(environment, [str(folder.parent)])
    assert found is not None and found.read_bytes() == b"its own"


def test_run_check_and_play_take_the_store_as_an_option(
    stocked: tuple[Path, Path], tmp_path: Path
) -> None:
    store, _ = stocked
    elsewhere = tmp_path / "no-store-here"
    env = {**os.environ, "COLUMNS": "200", "ARENA_STORE": str(elsewhere)}
    checked = subprocess.run([ARENA, "check", "new-wave", "--game", "tiny-race", "--store",
                              str(store)], capture_output=True, text=True, env=env, timeout=300,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "new-wave: all checks passed" in checked.stdout
    config = tmp_path / "stored.toml"
    config.write_text('[tournament]\ngame = "tiny-race"\nplayers = 2\n\n'
                      '[[bots]]\nname = "new-wav"\n[[bots]]\nname = "random"\n')
    unknown = subprocess.run([ARENA, "run", str(config), "--out", str(tmp_path / "out")],
                             capture_output=True, text=True, env=env, timeout=300, check=False)
    assert unknown.returncode == 2
    assert f"the bot store read was {elsewhere}" in unknown.stderr
    named = subprocess.run([ARENA, "run", str(config), "--out", str(tmp_path / "out"),
                            "--store", str(store)], capture_output=True, text=True, env=env,
                           timeout=300, check=False)
    assert named.returncode == 2
    assert "did you mean 'new-wave'" in named.stderr, named.stderr


def test_a_person_plays_a_stored_bot_in_its_own_environment(stocked: tuple[Path, Path]
                                                             ) -> None:
    """``arena play --against new-wave --store S`` seated the stored bot without its
    environment: its host, in the arena's, could not import it and the seat ended ``error``
    (ModuleNotFoundError). ``--trusted`` named it an unknown bot."""
    from click.testing import CliRunner

    from arena.cli import main

    store, _ = stocked
    played = CliRunner().invoke(main, ["play", "tiny-race", "--against", "new-wave", "--seed",
                                       "1", "--store", str(store)], input="1\n" * 50)
    assert played.exit_code == 0, played.output
    assert re.search(r"seat 1 new-wave: place \d, score \d+ \(ok\)", played.output), played.output
    trusted = CliRunner().invoke(main, ["play", "tiny-race", "--against", "new-wave",
                                        "--trusted", "--store", str(store)], input="q\n")
    assert trusted.exit_code == 2
    assert "--trusted: bot 'new-wave' is a stored bot: it plays only sandboxed" in trusted.output


def test_a_stored_bot_shadowed_by_an_installed_one_is_said_when_it_would_play(
    stocked: tuple[Path, Path]
) -> None:
    from types import SimpleNamespace

    from arena.botstore import add_to
    from arena.cli import _shadowed
    from arena.plugins import BotInfo, Entry, Registry

    store, _ = stocked
    installed = BotInfo(name="new-wave", games=None, params=None, observes=True,
                        plugin="arena-bot-new-wave 5.0:new-wave", module="elsewhere.plugin")
    found = Registry(bots={"new-wave": Entry(None, installed.plugin, installed.module, installed)})
    add_to(found, store)
    assert found.bots["new-wave"].info is installed
    assert found.shadowed == {"new-wave": "arena-bot-new-wave 0.1.0"}  # as its author wrote it
    config: Any = SimpleNamespace(bots=[SimpleNamespace(bot="new-wave"),
                                        SimpleNamespace(bot="old-timer")])
    warning, = _shadowed(config, found)
    assert "bot 'new-wave': the installed one plays" in warning
    assert "pip uninstall" in warning


def test_a_submitted_packages_own_code_never_runs_outside_the_sandbox(
    tmp_path: Path, wheels: Path
) -> None:
    """Its build (setup.py) runs in bubblewrap on a copy, offline; a ``.pth`` file in its
    wheel never runs in the arena's processes (its environment is compiled without site)."""
    marker = tmp_path / "PWNED"
    source = write_bot(tmp_path / "src", "sneaky")
    (source / "setup.py").write_text(
        "import contextlib\nfrom setuptools import setup\n"
        f"with contextlib.suppress(OSError):\n    open({str(marker)!r}, 'a').write('setup ran')\n"
        "setup()\n")
    built = tmp_path / "built"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(built), str(source)], check=True)
    marker.unlink()  # the build just now ran here, on purpose; the one below may not
    wheel, = built.glob("*.whl")
    with zipfile.ZipFile(wheel, "a") as archive:
        archive.writestr("zz_sneaky.pth",
                         f"import os; open({str(marker)!r}, 'a').write('pth ran')\n")
        record = next(name for name in archive.namelist() if name.endswith("RECORD"))
    store = tmp_path / "store"
    done = arena("submit", str(source), "--sandbox", "required", store=store)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not marker.exists()  # setup.py ran, sandboxed, where the marker's folder is not
    arena("store", "remove", "sneaky", store=store)
    done = arena("submit", str(wheel), "--sandbox", "required", "--no-index", store=store)
    assert record and not marker.exists(), marker.read_text()
    assert done.returncode == 0, done.stdout + done.stderr


def test_compiling_a_stored_bots_environment_is_bounded_in_memory(tmp_path: Path) -> None:
    """pip compiled what it installed, outside the sandbox and every limit: the red team's
    wheel of 6.7 KB (a module of 5 MB, one list of 2.5 million ones) held it at 1,925 MiB,
    and a wheel may unpack to 256 MiB (about 100 GB to compile), before any check of the bot.
    The environment is compiled under limits: that module is left uncompiled, the rest is
    compiled."""
    from arena.submit import COMPILE

    wheel = craft_wheel(tmp_path / "built", "bot_ballast", {})
    with zipfile.ZipFile(wheel, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot_ballast/ballast.py", "x = [" + "1," * 3_000_000 + "]\n")
    environment = tmp_path / "env"
    program = ("import resource, sys\nfrom pathlib import Path\n"
               "from arena.submit import make_environment\n"
               "make_environment(Path(sys.argv[1]), Path(sys.argv[2]), ['--no-index'])\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss >> 10)\n")
    done = subprocess.run([sys.executable, "-c", program, str(environment), str(wheel)],
                          capture_output=True, text=True, check=True, timeout=600)
    peak_mb = int(done.stdout.split()[-1])
    assert peak_mb <= COMPILE.memory_mb + 64, f"the largest child held {peak_mb} MiB"
    package, = environment.glob("lib/python*/site-packages/bot_ballast")
    compiled = sorted(path.name.split(".")[0] for path in (package / "__pycache__").iterdir())
    assert compiled == ["__init__", "plugin"]


@pytest.mark.parametrize("member", ["METADATA", "entry_points.txt"])
def test_a_wheels_metadata_is_bounded_before_the_arena_reads_it(
    tmp_path: Path, member: str
) -> None:
    """The arena reads a wheel's ``METADATA`` (its requirements) and ``entry_points.txt``
    whole, in its own process: the red team's wheel of 80 KB held a ``METADATA`` of 33 MB
    (1.5 million ``Requires-Dist`` lines), 29 s and 650 MiB of the arena's to read, and a
    wheel may unpack to 256 MiB. Past ``MAX_METADATA`` the wheel is refused first."""
    from arena.errors import ArenaError
    from arena.submit import MAX_METADATA, inspect_wheel

    wheel = tmp_path / "arena_bot_wordy-0.1.0-py3-none-any.whl"
    info = "arena_bot_wordy-0.1.0.dist-info"
    members = {"METADATA": "Metadata-Version: 2.1\nName: arena-bot-wordy\nVersion: 0.1.0\n",
               "entry_points.txt": "[arena]\n"}
    members[member] += "Requires-Dist: zoolib\n" * (MAX_METADATA // 22 + 1)
    with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(f"{info}/{name}", text)
    with pytest.raises(ArenaError, match=f"its {info}/{member} holds 4.0 MiB"):
        inspect_wheel(wheel)


HOG_SETUP = """import time
from setuptools import setup
try:
    hoard = bytearray(1536 << 20)
    hoard[::4096] = b"x" * len(hoard[::4096])
except MemoryError:
    hoard = bytearray()
with open("ballast.bin", "wb") as ballast:
    for _ in range(200):
        ballast.write(bytes(1 << 20))
time.sleep({sleep})
raise SystemExit(f"HELD {{len(hoard) >> 20}} MiB")
"""


def disk_use(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def test_a_packages_build_is_bounded_in_memory_and_disk(tmp_path: Path) -> None:
    """A build runs the package's own code: the red team's setup.py held 1,536 MiB and wrote
    300 MiB to the arena's disk (as much as it chose). It gets a bot host's limits, and writes
    nothing outside the sandbox's memory but its wheel."""
    from arena.errors import ArenaError
    from arena.submit import build_wheel

    source = write_bot(tmp_path / "src", "hog")
    (source / "setup.py").write_text(HOG_SETUP.format(sleep=0))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    with pytest.raises(ArenaError, match="the wheel could not be built: HELD 0 MiB"):
        build_wheel(source, scratch, ["--no-index"], "required")
    assert disk_use(scratch) < 1 << 20


def test_a_folder_is_built_without_what_an_earlier_build_left_in_it(tmp_path: Path) -> None:
    """``pip install ./bot`` leaves ``build/`` (and ``*.egg-info``) in the folder; a later
    ``arena submit ./bot`` built its wheel over them: modules deleted since, and, as the
    sandbox's copy renews every file's time, edited ones as they were (the bot rejected for
    a fault already fixed)."""
    from arena.submit import build_wheel

    source = write_bot(tmp_path / "src", "fresh")
    stale = source / "build" / "lib" / "bot_fresh"
    stale.mkdir(parents=True)
    (stale / "plugin.py").write_text("raise SystemExit('STALE')\n")
    (stale / "deleted.py").write_text("")
    (source / "arena_bot_fresh.egg-info").mkdir()
    (source / "arena_bot_fresh.egg-info" / "SOURCES.txt").write_text("bot_fresh/deleted.py\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    wheel = build_wheel(source, scratch, ["--no-index"], "auto")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert "bot_fresh/plugin.py" in names and "bot_fresh/deleted.py" not in names
        assert b"STALE" not in archive.read("bot_fresh/plugin.py")


def test_a_folder_holding_a_named_pipe_or_a_device_is_refused_in_one_line(
    tmp_path: Path
) -> None:
    """The arena copies a package folder itself, as its own user, before anything is
    sandboxed: a named pipe in it raised a traceback in the middle of ``arena submit``, and a
    device node (an archive extracted as root makes them) was read as a file: the red team's
    ``zero`` (``/dev/zero``'s numbers) filled the store's disk. Neither is opened now."""
    from arena.errors import ArenaError
    from arena.submit import build_wheel

    source = write_bot(tmp_path / "src", "piped")
    os.mkfifo(source / "bot_piped" / "pipe")
    (tmp_path / "scratch").mkdir()
    with pytest.raises(ArenaError, match=r"bot_piped/pipe is not a regular file"):
        build_wheel(source, tmp_path / "scratch", ["--no-index"], "required")
    (source / "bot_piped" / "pipe").unlink()
    try:
        os.mknod(source / "null", 0o644 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's
    except PermissionError:
        return  # only root makes devices: the pipe is the case here
    (tmp_path / "again").mkdir()
    with pytest.raises(ArenaError, match=r"null is not a regular file"):
        build_wheel(source, tmp_path / "again", ["--no-index"], "required")


def test_a_folder_copied_for_its_build_is_bounded(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """One file hard-linked many times (or a sparse one) takes next to nothing in the folder
    and was written out whole, as often as it was linked, onto the store's disk: the copy now
    holds what the sandboxed build's ``/tmp`` holds at most (768 MiB; 1 MiB here)."""
    from arena import packagecopy
    from arena.errors import ArenaError
    from arena.submit import BUILD_SCRATCH_MB, build_wheel

    assert packagecopy.COPY_LIMIT == BUILD_SCRATCH_MB << 20  # nothing that builds is refused
    monkeypatch.setattr(packagecopy, "COPY_LIMIT", 1 << 20, raising=False)
    source = write_bot(tmp_path / "src", "linked")
    (source / "data").write_bytes(b"x" * (300 << 10))
    for index in range(5):
        os.link(source / "data", source / f"data-{index}")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    with pytest.raises(ArenaError, match=r"its files hold more than 1 MiB"):
        build_wheel(source, scratch, ["--no-index"], "required")
    copied = sum(file.stat().st_size for file in scratch.rglob("*") if file.is_file())
    assert copied <= 1 << 20


def test_a_packages_build_is_bounded_in_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """A setup.py that never ends held ``arena submit`` for ever."""
    from arena import submit as submitting
    from arena.errors import ArenaError

    source = write_bot(tmp_path / "src", "sleeper")
    (source / "setup.py").write_text(HOG_SETUP.format(sleep=60))
    monkeypatch.setattr(submitting, "BUILD_SECONDS", 3)
    with pytest.raises(ArenaError, match="its build ran past 3 s, so it was stopped"):
        submitting.build_wheel(source, tmp_path, ["--no-index"], "required")


def test_a_packages_build_is_held_to_a_bot_hosts_cores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build's control group had no CPU quota: the red team's setup.py kept every core of
    the machine busy (for as long as it liked, up to the 5 minute bound) while the bots of a
    running tournament had a core each. Its group now holds it to a bot host's ``cpus``."""
    from arena.errors import ArenaError
    from arena.seats import cgroups
    from arena.submit import BUILD, build_wheel

    if not cgroups.cpu_limited():
        pytest.skip("this machine lets the arena hold no control group to a CPU quota")
    quotas: list[int] = []
    real = cgroups.create

    def create(*args: Any, **kwargs: Any) -> cgroups.Cgroup | None:
        group = real(*args, **kwargs)
        assert group is not None
        quotas.append(_cpu_quota(group))
        return group

    monkeypatch.setattr(cgroups, "create", create)
    source = write_bot(tmp_path / "src", "spinner")
    (source / "setup.py").write_text("raise SystemExit('NO WHEEL')\n")
    with pytest.raises(ArenaError, match="the wheel could not be built: NO WHEEL"):
        build_wheel(source, tmp_path, ["--no-index"], "required")
    assert quotas == [round(BUILD.cpus * cgroups.PERIOD_US)]


def _cpu_quota(group: Any) -> int:
    """A control group's CPU time per period in µs (-1: no quota)."""
    for folder in group.folders:
        for name in ("cpu.cfs_quota_us", "cpu.max"):
            if (folder / name).exists():
                value = (folder / name).read_text().split()[0]
                return -1 if value == "max" else int(value)
    return -1


def forging_catalog(tmp_path: Path, name: str, bots: object) -> Path:
    """A bot package whose plugin answers its own (forged) catalog, listing ``bots``, while it
    is listed."""
    line = json.dumps({"type": "catalog", "bots": bots}) + "\n"
    forged = ("import os, sys\n"
              "for argument in sys.argv:\n"
              "    if argument.startswith('--fds='):\n"
              "        out = int(argument.split(',')[1])\n"
              f"        os.write(out, {line.encode()!r})\n")
    source = write_bot(tmp_path, name)
    (source / f"bot_{name}" / "plugin.py").write_text(forged)
    return source


def test_a_catalog_that_is_no_list_of_named_bots_is_one_line(tmp_path: Path) -> None:
    source = forging_catalog(tmp_path, "liar", "all of them")
    line = refused(str(source), "--sandbox", "required", store=tmp_path / "store")
    assert "its catalog is not a list of named bots" in line


def test_a_package_registering_many_bots_is_refused(tmp_path: Path) -> None:
    """Every stored name is refused to other packages and read by every command: a package
    of 20,000 bots squatted them all and slowed ``arena bots`` tenfold."""
    from arena.submit import MAX_BOTS

    many = [{"name": f"squat-{number}"} for number in range(MAX_BOTS + 1)]
    line = refused(str(forging_catalog(tmp_path, "squatter", many)), "--sandbox", "required",
                   store=tmp_path / "store")
    assert f"registers {MAX_BOTS + 1} bots; a submitted package may register {MAX_BOTS}" in line


def test_a_listed_bot_whose_name_could_pass_for_another_version_is_refused(
    tmp_path: Path,
) -> None:
    """A bot named ``snoop@0.1.0`` would take over the key of another package's stored
    version (the red team's impostor); names are plain names, as in the catalog."""
    source = forging_catalog(tmp_path, "squatter", [{"name": "snoop@0.1.0"}])
    line = refused(str(source), "--sandbox", "required", store=tmp_path / "store")
    assert "bot name 'snoop@0.1.0' is not valid" in line


def test_a_catalog_nested_deep_with_an_escape_is_one_line(tmp_path: Path) -> None:
    """A catalog nested 600 deep, with a character JSON writes as an escape (``\\u00e9``) at
    its bottom: the decoder takes it (under Python's recursion limit), but the pass that puts
    U+FFFD for lone surrogates went twice as deep, and ``arena submit`` ended in a traceback
    of ``RecursionError`` (red team round 11)."""
    deep: object = "\u00e9t\u00e9"
    for _ in range(600):
        deep = [deep]
    line = refused(str(forging_catalog(tmp_path, "abyss", deep)), "--sandbox", "required",
                   store=tmp_path / "store")
    assert "listing its bots failed: sent a line that is not a JSON object" in line


def craft_wheel(folder: Path, name: str, extra: dict[str, bytes], *,
                compression: int = zipfile.ZIP_STORED, requires: tuple[str, ...] = ()) -> Path:
    """A bot's wheel made by hand, as a stranger may: an ordinary bot plus ``extra`` files
    (a ``.data/scripts/python``, a file of zeros), executable where under ``scripts``, and
    ``requires`` as more ``Requires-Dist`` lines (a dependency is crafted the same way)."""
    import base64
    import hashlib

    dist = f"{name}-0.1.0.dist-info"
    files = {
        f"{name}/__init__.py": b"",
        f"{name}/plugin.py": (b"import arena\nclass Crafted:\n    name = 'crafted'\n"
                              b"    def __init__(self, **kw): pass\n"
                              b"    def act(self, observation, legal): return legal[0]\n"
                              b"@arena.hookimpl\ndef arena_register_bots(register):\n"
                              b"    register(Crafted)\n"),
        f"{dist}/METADATA": (f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n"
                             f"Requires-Dist: lostvalley-arena\n"
                             + "".join(f"Requires-Dist: {line}\n" for line in requires)
                             ).encode(),
        f"{dist}/WHEEL": (b"Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                          b"Tag: py3-none-any\n"),
        f"{dist}/entry_points.txt": f"[arena]\ncrafted = {name}.plugin\n".encode(),
        **extra,
    }
    def digest(data: bytes) -> str:
        return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = [f"{path},sha256={digest(data)},{len(data)}" for path, data in files.items()]
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / f"{name}-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", compression) as archive:
        for path, data in files.items():
            info = zipfile.ZipInfo(path)
            info.compress_type = compression
            info.external_attr = (0o100755 if "/scripts/" in path else 0o100644) << 16
            archive.writestr(info, data)
        archive.writestr(f"{dist}/RECORD", "\n".join(record) + f"\n{dist}/RECORD,,\n")
    return wheel


def impostor(marker: Path) -> bytes:
    """A shell script that, run in place of the environment's interpreter, leaves ``marker``."""
    return (f'#!/bin/sh\necho "ran: $(id)" >> {marker}\n'
            'exec "$(dirname "$0")/python3" "$@"\n').encode()


@pytest.mark.parametrize("where", ["scripts/python", "data/bin/python", "headers/crafted.h"])
def test_a_wheel_with_files_for_outside_its_packages_is_refused_before_pip_runs(
    tmp_path: Path, where: str
) -> None:
    """A ``.data/scripts/python`` would be installed over the environment's interpreter,
    which the arena then ran, unsandboxed, as root."""
    marker = tmp_path / "PWNED"
    name = "arena_bot_scriptpwn"
    wheel = craft_wheel(tmp_path / "wheel", name,
                        {f"{name}-0.1.0.data/{where}": impostor(marker)})
    store = tmp_path / "store"
    line = refused(str(wheel), "--no-index", "--sandbox", "fallback", store=store)
    assert f"carries {name}-0.1.0.data/{where}" in line and "refused" in line
    assert not marker.exists()
    assert not (store / name).exists()


def test_an_install_that_replaces_the_interpreter_is_refused_and_never_runs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second line of defence, for what the inspection of the wheel would miss (as a
    dependency's wheel): the interpreter is compared after the install, and nothing of the
    environment runs once the install began."""
    from arena import submit as submitting
    from arena.errors import ArenaError

    marker = tmp_path / "PWNED"
    name = "arena_bot_scriptpwn"
    wheel = craft_wheel(tmp_path / "wheel", name,
                        {f"{name}-0.1.0.data/scripts/python": impostor(marker)})
    monkeypatch.setattr(submitting, "inspect_wheel", lambda wheel: (0, 0))
    with pytest.raises(ArenaError, match=r"replaced the environment's bin/python, so it is "
                                         r"refused"):
        submitting.make_environment(tmp_path / "env", wheel, ["--no-index"])
    assert not marker.exists()


@pytest.fixture(scope="module")
def plain_environment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A stored bot's environment, for a bot with no dependencies."""
    from arena.submit import make_environment

    root = tmp_path_factory.mktemp("plain")
    wheel = craft_wheel(root / "wheel", "arena_bot_plain", {})
    make_environment(root / "env", wheel, ["--no-index"])
    return root / "env"


def in_a_plain_bots_environment(environment: Path, probe: str) -> str:
    """What ``probe`` prints, run by the Python of ``environment``."""
    done = subprocess.run([str(environment / "bin" / "python"), "-I", "-c", probe],
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_the_runtime_is_compiled_where_the_environment_imports_it(
        plain_environment: Path) -> None:
    """By the arena's interpreter, for the environment's (the same Python)."""
    probe = ("import importlib.util, pathlib, arena, arena_bot_plain; "
             "print(arena.__file__); "
             "print(pathlib.Path(importlib.util.cache_from_source(arena.__file__)).exists())")
    where, compiled = in_a_plain_bots_environment(plain_environment, probe).split()
    assert Path(where).is_relative_to(plain_environment) and compiled == "True"


def test_a_stored_bot_finds_the_shipped_games_and_may_ask_for_the_pettingzoo_extra(
        plain_environment: Path) -> None:
    """A PolicyBot looks its game up by name (``require_registry``), as ``arena.testing``
    does: the runtime declares the shipped games' entry points, and the ``pettingzoo`` extra
    that ``lostvalley-arena[pettingzoo]`` asks for."""
    probe = ("import importlib.metadata as m; from arena.plugins import require_registry; "
             "print(sorted(require_registry().games)); "
             "print([r for r in m.distribution('lostvalley-arena').requires if 'extra' in r])")
    games, extras = in_a_plain_bots_environment(plain_environment, probe).splitlines()
    assert games == str(["explorers-of-the-lost-valley", "lost-explorers",
                         "lost-valley-of-the-dinosaurs"])
    assert "pettingzoo" in extras and 'extra == "pettingzoo"' in extras


UNBOUND_PLUGIN = b"""import resource
import arena

class Crafted:
    name = "crafted"
    def __init__(self, **kw): pass
    def act(self, observation, legal):
        print("RLIMIT_AS", resource.getrlimit(resource.RLIMIT_AS)[0], flush=True)
        return legal[0]

@arena.hookimpl
def arena_register_bots(register):
    register(Crafted)
"""


@pytest.fixture(scope="module")
def unbound_environment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The environment of a stored bot whose ``.pth`` file disarms ``resource.setrlimit``."""
    from arena.submit import make_environment

    root = tmp_path_factory.mktemp("unbound")
    name = "arena_bot_unbound"
    disarm = b"import resource; resource.setrlimit = lambda *args, **kwargs: None\n"
    wheel = craft_wheel(root / "wheel", name, {f"{name}/plugin.py": UNBOUND_PLUGIN,
                                               "zz_unbound.pth": disarm})
    make_environment(root / "env", wheel, ["--no-index"])
    return root / "env"


@pytest.mark.parametrize("sandbox", ["required", "fallback"])
def test_a_stored_bots_own_code_runs_only_once_its_limits_are_set(
    unbound_environment: Path, sandbox: str
) -> None:
    """A ``.pth`` file of a stored bot's wheel (or a runtime module its wheel replaces) runs as
    its host starts, before the host sets its own limits: it could disarm them (here by
    replacing ``resource.setrlimit``), and without a control group the red team's bot then
    held 1,536 MiB under ``memory_mb = 512``. The limits are set before anything of the
    environment runs."""
    from helpers import spec

    from arena.match import play_match
    from arena.records import Limits, SeatSpec

    stored = SeatSpec("unbound", "crafted", plugin="arena_bot_unbound.plugin",
                      environment=str(unbound_environment))
    limits = Limits(move_seconds=5.0, bank_seconds=5.0, memory_mb=512, sandbox=sandbox)
    result = play_match(spec(stored, "random", limits=limits))
    assert result.statuses == ("ok", "ok"), result.errors
    assert f"RLIMIT_AS {512 << 20}" in result.outputs[0], result.outputs[0]


@pytest.mark.parametrize("name", ["..-precious-py3-none-any.whl",
                                  ".staging-..-py3-none-any.whl"])
def test_a_wheel_named_to_reach_outside_its_store_folder_is_refused(
    tmp_path: Path, name: str
) -> None:
    """A wheel's name and version become the folder ``<store>/<name>/<version>``, which a
    submission clears if it holds no entry: the red team's ``..-precious-py3-none-any.whl``
    deleted the folder ``precious`` beside the store (``..-..`` would take the store's
    grandparent), and ``.staging-..`` the whole store."""
    root = tmp_path / "organiser"
    store, precious = root / "store", root / "precious"
    precious.mkdir(parents=True)
    (precious / "results.jsonl").write_text("{}\n")
    (store / ".staging").mkdir(parents=True)  # as any submission leaves it
    (store / "stored_bot" / "1.0").mkdir(parents=True)
    (store / "stored_bot" / "1.0" / "report.json").write_text("{}\n")
    wheel = tmp_path / "wheel" / name
    craft_wheel(tmp_path / "crafted", "arena_bot_climber", {}).rename(
        wheel.parent.mkdir() or wheel)
    done = arena("submit", str(wheel), "--no-index", store=store)
    assert (precious / "results.jsonl").exists()
    assert (store / "stored_bot" / "1.0" / "report.json").exists()
    assert done.returncode == 2 and "not a wheel file name" in done.stderr, done.stderr


def test_a_zip_bomb_and_a_wheel_that_is_no_zip_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena import submit as submitting
    from arena.errors import ArenaError
    from arena.plugins import Registry

    name = "arena_bot_zipbomb"
    bomb = craft_wheel(tmp_path / "wheel", name, {f"{name}/weights.bin": bytes(3 << 20)},
                       compression=zipfile.ZIP_DEFLATED)
    assert bomb.stat().st_size < 1 << 20
    monkeypatch.setattr(submitting, "MAX_UNPACKED", 2 << 20)
    store = tmp_path / "store"
    with pytest.raises(ArenaError, match=r"unpacks to 3 MiB; a wheel may unpack to 2 MiB at "
                                         r"most"):
        submitting.submit(bomb, store, Registry(), pip_options=["--no-index"])
    assert not store.exists()
    garbage = tmp_path / "arena_bot_garbage-0.1.0-py3-none-any.whl"
    garbage.write_bytes(b"PK\x03\x04 not really a zip archive")
    assert "not a valid wheel" in refused(str(garbage), "--no-index", store=store)


def test_an_environment_grown_past_its_bound_by_its_dependencies_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dependencies arrive from the index as wheels nobody looked into: the environment's
    size after the install is bounded (the runtime alone is about 1 MiB, over this bound)."""
    from arena import submit as submitting
    from arena.errors import ArenaError

    wheel = craft_wheel(tmp_path / "wheel", "arena_bot_heavy", {})
    monkeypatch.setattr(submitting, "MAX_ENVIRONMENT", 100 << 10)
    with pytest.raises(ArenaError, match=r"MiB; a bot's environment may take 0.1 MiB at most"):
        submitting.make_environment(tmp_path / "env", wheel, ["--no-index"])


def installed(environment: Path) -> list[str]:
    """What is in an environment's ``bin`` and site-packages besides what venv and the
    arena's runtime put there."""
    site, = environment.glob("lib/python*/site-packages")
    made = {"Activate.ps1", "activate", "activate.csh", "activate.fish", "python", "python3",
            f"python{sys.version_info.major}.{sys.version_info.minor}"}
    return sorted([path.name for path in (environment / "bin").iterdir()
                   if path.name not in made]
                  + [path.name for path in site.iterdir()
                     if path.name not in ("arena", "engines", "pluggy", "__pycache__")
                     and not path.name.startswith(("pluggy-", "lostvalley_arena-"))]
                  + [path.name for path in environment.iterdir()
                     if path.name not in ("bin", "lib", "lib64", "include", "pyvenv.cfg")])


def with_dependency(tmp_path: Path, extra: dict[str, bytes], *, compression: int =
                    zipfile.ZIP_STORED) -> tuple[Path, list[str]]:
    """A bot that requires ``evildep``, and the pip options that find ``evildep`` (crafted
    with ``extra``) in a folder of its own, offline."""
    deps = tmp_path / "deps"
    craft_wheel(deps, "evildep", extra, compression=compression)
    bot = craft_wheel(tmp_path / "wheel", "arena_bot_needy", {}, requires=("evildep",))
    return bot, ["--no-index", "--find-links", str(deps)]


@pytest.mark.parametrize("where", ["scripts/arena-evil", "data/evildep-was-here.txt",
                                   "data/bin/python"])
def test_a_dependency_with_files_for_outside_its_packages_is_refused_before_any_install(
    tmp_path: Path, where: str
) -> None:
    """The red team's ``evildep`` from ``--find-links``: its ``.data/scripts`` went to the
    environment's ``bin`` and its ``.data/data`` to its root, as nothing looked into it."""
    from arena import submit as submitting
    from arena.errors import ArenaError

    bot, options = with_dependency(tmp_path, {f"evildep-0.1.0.data/{where}": b"#!/bin/sh\n"})
    environment = tmp_path / "env"
    with pytest.raises(ArenaError, match=rf"evildep-0.1.0-py3-none-any.whl carries "
                                         rf"evildep-0.1.0.data/{where}: .* so it is refused"):
        submitting.make_environment(environment, bot, options)
    assert installed(environment) == []  # neither the dependency nor the bot


def test_a_dependency_that_is_a_zip_bomb_is_refused_before_any_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena import submit as submitting
    from arena.errors import ArenaError

    bot, options = with_dependency(tmp_path, {"evildep/bomb.bin": bytes(3 << 20)},
                                   compression=zipfile.ZIP_DEFLATED)
    monkeypatch.setattr(submitting, "MAX_UNPACKED", 2 << 20)
    environment = tmp_path / "env"
    with pytest.raises(ArenaError, match=r"evildep-0.1.0-py3-none-any.whl unpacks to 3 MiB; "
                                         r"a wheel may unpack to 2 MiB at most"):
        submitting.make_environment(environment, bot, options)
    assert installed(environment) == []


def test_a_bot_and_its_dependencies_are_bounded_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each wheel under its own bounds, all of them together over them."""
    from arena import submit as submitting
    from arena.errors import ArenaError

    bot, options = with_dependency(tmp_path, {"evildep/half.bin": bytes(3 << 19)})
    monkeypatch.setattr(submitting, "MAX_UNPACKED", 2 << 20)
    monkeypatch.setattr(submitting, "MAX_UNPACKED_TOTAL", 1 << 20)
    with pytest.raises(ArenaError, match=r"arena_bot_needy-0.1.0-py3-none-any.whl and its "
                                         r"dependencies unpack to 2 MiB; together they may "
                                         r"unpack to 1 MiB at most"):
        submitting.make_environment(tmp_path / "env", bot, options)
    assert installed(tmp_path / "env") == []
    monkeypatch.setattr(submitting, "MAX_UNPACKED_TOTAL", 4 << 20)
    monkeypatch.setattr(submitting, "MAX_MEMBERS", 10)  # the bot's wheel holds 6, evildep's 7
    with pytest.raises(ArenaError, match=r"arena_bot_needy-0.1.0-py3-none-any.whl and its "
                                         r"dependencies hold 13 files; together they may hold "
                                         r"10 at most"):
        submitting.make_environment(tmp_path / "env2", bot, options)
    assert installed(tmp_path / "env2") == []


def test_a_dependency_of_too_many_files_is_refused_before_any_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Millions of empty files take no room but every inode of the store's disk."""
    from arena import submit as submitting
    from arena.errors import ArenaError

    bot, options = with_dependency(tmp_path, {f"evildep/empty{n}": b"" for n in range(30)})
    monkeypatch.setattr(submitting, "MAX_MEMBERS", 20)
    with pytest.raises(ArenaError, match=r"evildep-0.1.0-py3-none-any.whl holds 36 files; a "
                                         r"wheel may hold 20 at most"):
        submitting.make_environment(tmp_path / "env", bot, options)
    assert installed(tmp_path / "env") == []


def test_a_requirement_of_a_url_is_refused(tmp_path: Path) -> None:
    """``evildep @ file:///...``: what a URL serves may change once the bot is admitted; the
    bot's own requirement is refused before anything is made, a dependency's before any
    install."""
    from arena import submit as submitting
    from arena.errors import ArenaError
    from arena.plugins import Registry

    evildep = craft_wheel(tmp_path / "elsewhere", "evildep", {})
    name = "arena_bot_pointer"
    bot = craft_wheel(tmp_path / "wheel", name, {},
                      requires=(f"evildep @ {evildep.as_uri()}",))
    store = tmp_path / "store"
    with pytest.raises(ArenaError, match=rf"{name}-0.1.0-py3-none-any.whl requires evildep "
                                         rf"from a URL \({evildep.as_uri()}\); a submitted "
                                         rf"bot's dependencies must come from the package index"):
        submitting.submit(bot, store, Registry(), pip_options=["--no-index"],
                          sandbox="fallback")
    assert not (store / name).exists() and not list(store.glob(".staging/*"))
    # The same requirement in a dependency's metadata, which pip follows.
    middle = craft_wheel(tmp_path / "deps", "middleman", {},
                         requires=(f"evildep @ {evildep.as_uri()}",))
    bot = craft_wheel(tmp_path / "wheel2", "arena_bot_indirect", {}, requires=("middleman",))
    with pytest.raises(ArenaError, match=r"needs evildep 0.1.0 from a URL"):
        submitting.make_environment(tmp_path / "env", bot,
                                    ["--no-index", "--find-links", str(middle.parent)])
    assert installed(tmp_path / "env") == []


def test_a_bot_with_an_ordinary_dependency_gets_it_from_the_inspected_wheels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resolved in the environment (its ``lostvalley-arena`` requirement is the runtime
    there, never fetched), downloaded, inspected, installed from that folder alone; a
    source given as ``PIP_FIND_LINKS`` (as a worker rebuilding an environment has) serves."""
    from arena.submit import make_environment

    deps = tmp_path / "deps"
    craft_wheel(deps, "helperlib", {"helperlib/util.py": b"ANSWER = 42\n"})
    bot = craft_wheel(tmp_path / "wheel", "arena_bot_helped", {}, requires=("helperlib",))
    monkeypatch.setenv("PIP_FIND_LINKS", str(deps))  # as a worker rebuilding it is given
    environment = tmp_path / "env"
    make_environment(environment, bot, ["--no-index"])
    done = subprocess.run([str(environment / "bin" / "python"), "-I", "-c",
                           "import arena_bot_helped, helperlib.util; "
                           "print(helperlib.util.ANSWER)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "42"
    assert installed(environment) == ["arena_bot_helped", "arena_bot_helped-0.1.0.dist-info",
                                      "helperlib", "helperlib-0.1.0.dist-info"]


@pytest.mark.parametrize(("requires", "alone"), [
    ((), True),
    (("pluggy>=1",), True),
    (('zoolib; python_version < "3"',), True),  # applies to no Python this runs
    (("zoolib",), False),
    (("lostvalley-arena[pettingzoo]",), False),  # an extra's requirements are to be resolved
    (("lostvalley-arena>=999",), False),
    (("pluggy<0.1",), False),
])
def test_a_bot_needing_only_the_runtime_skips_pips_resolution(
    tmp_path: Path, requires: tuple[str, ...], alone: bool
) -> None:
    """A bot whose every requirement is the runtime as the environment holds it has nothing
    to resolve or download (crafted wheels all require ``lostvalley-arena``)."""
    from arena.submit import _needs_only_the_runtime

    bot = craft_wheel(tmp_path, "arena_bot_needs", {}, requires=requires)
    assert _needs_only_the_runtime(bot) is alone


def test_a_bot_needing_a_runtime_the_arena_is_not_is_refused_by_the_install(
    tmp_path: Path
) -> None:
    """Its requirement names the runtime, so the resolution is pip's install's, which finds
    no ``lostvalley-arena`` of that version: refused in one line, nothing installed."""
    from arena.errors import ArenaError
    from arena.submit import make_environment

    bot = craft_wheel(tmp_path / "wheel", "arena_bot_future", {},
                      requires=("lostvalley-arena>=999",))
    with pytest.raises(ArenaError, match=r"arena_bot_future-0.1.0-py3-none-any.whl: its "
                                         r"dependencies could not be (resolved|installed)"):
        make_environment(tmp_path / "env", bot, ["--no-index"])
    assert installed(tmp_path / "env") == []


def test_a_killed_submission_leaves_nothing_that_blocks_its_version(tmp_path: Path) -> None:
    """It builds in the store's ``.staging/`` and is renamed into place when admitted; the
    next submission clears what a killed one left, and what an older arena left in place.
    Its scratch work is there too: the build's copy and the downloaded wheels, left in the
    system's temporary folder for ever, took 302 MiB for the red team's 100 MiB package."""
    import signal
    import time

    source = write_bot(tmp_path, "killed")
    store, temporary = tmp_path / "store", tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "ARENA_STORE": str(store), "TMPDIR": str(temporary)}
    env.pop("RAY_ADDRESS", None)
    started = subprocess.Popen([ARENA, "submit", str(source), "--no-index", "--sandbox",
                                "fallback"], env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not list(store.glob(".staging/*/env/pyvenv.cfg")) and started.poll() is None:
        assert time.monotonic() < deadline, "the submission never started building"
        time.sleep(0.05)
    os.killpg(started.pid, signal.SIGKILL)
    started.wait()
    assert list(store.glob(".staging/*")), "killed too late to test anything"
    assert not (store / "arena_bot_killed").exists()
    older = store / "arena_bot_killed" / "0.1.0" / "env"  # as an older arena left it
    older.mkdir(parents=True)
    done = arena("submit", str(source), "--no-index", "--sandbox", "fallback", store=store)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Admitted arena-bot-killed 0.1.0" in done.stdout
    assert "an unfinished submission's leftovers (no entry.json)" in done.stdout
    assert "left by a submission that ended unfinished" in done.stdout
    assert not list(store.glob(".staging/*"))
    assert (store / "arena_bot_killed" / "0.1.0" / "entry.json").exists()
    assert list(temporary.iterdir()) == []


def test_two_rejections_within_a_second_keep_two_reports(tmp_path: Path) -> None:
    """The second rejection of a version in the same second gets a folder of its own (it
    crashed on the first one's)."""
    from arena.submit import _rejected_folder

    first = _rejected_folder(tmp_path, "arena-bot-x", "1.0")
    second = _rejected_folder(tmp_path, "arena-bot-x", "1.0")
    assert first != second and first.is_dir() and second.is_dir()


def rewritten_catalog(found: str) -> bytes:
    """A bot's plugin that rewrites its host's description of the bot while its package is
    listed (``--catalog``), adding ``found`` (Python: a dict's items) to what it says."""
    return (b"import sys\nimport arena\n\nclass Crafted:\n    name = 'crafted'\n"
            b"    def __init__(self, **kw): pass\n"
            b"    def act(self, observation, legal): return legal[0]\n\n"
            b"@arena.hookimpl\ndef arena_register_bots(register):\n    register(Crafted)\n\n"
            b"if '--catalog' in sys.argv:\n"
            b"    _host = sys.modules['__main__']\n"
            b"    _describe = _host.describe_bot\n"
            b"    _host.describe_bot = lambda cls: {**_describe(cls), " + found.encode() + b"}\n")


def test_the_store_keeps_what_the_arena_reads_of_a_listed_bot_and_no_more(
    tmp_path: Path,
) -> None:
    """A listed bot's description is its host's, which its code may rewrite: the red team's
    said a doc of 3 MB and 100,000 objects more, kept in the store's entry (4.3 MB, read
    whole by every command; the doc kept by each). The store keeps its name, games,
    params, whether it observes and 200 characters of its doc."""
    from arena.botstore import read_entries

    name = "arena_bot_verbose"
    plugin = rewritten_catalog("'doc': 'Read me. ' * 350_000, 'padding': [{}] * 100_000")
    wheel = craft_wheel(tmp_path / "wheel", name, {f"{name}/plugin.py": plugin})
    store = tmp_path / "store"
    done = arena("submit", str(wheel), "--no-index", store=store)
    assert done.returncode == 0, done.stdout + done.stderr
    entry = store / name / "0.1.0" / "entry.json"
    assert entry.stat().st_size < 10_000 and "padding" not in entry.read_text()
    (stored,) = read_entries(store)
    assert stored.doc == ("Read me. " * 25)[:200]


def test_a_listed_bot_naming_too_many_games_is_refused(tmp_path: Path) -> None:
    name = "arena_bot_gamey"
    plugin = rewritten_catalog("'games': [f'game-{n}' for n in range(65)]")
    wheel = craft_wheel(tmp_path / "wheel", name, {f"{name}/plugin.py": plugin})
    line = refused(str(wheel), "--no-index", store=tmp_path / "store")
    assert "names 65 games; a listed bot may name 64 at most" in line


def test_an_edited_or_broken_store_entry_is_skipped(tmp_path: Path) -> None:
    """Red team round 9: an entry.json nested 100,000 deep raised RecursionError in every
    command that reads the store (arena bots, run, check); a name edited into it was taken
    as it was (terminal codes, a name no config can spell)."""
    import json

    from arena.botstore import read_entries

    def entry(folder: str, name: str) -> None:
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "entry.json").write_text(json.dumps({
            "package": "p", "version": "1.0", "submitted": "now",
            "bots": [{"name": name, "module": "m"}]}))

    entry("good/1.0", "fine")
    entry("edited/1.0", "\x1b]0;pwned\x07fine")
    (tmp_path / "nested" / "1.0").mkdir(parents=True)
    (tmp_path / "nested" / "1.0" / "entry.json").write_text("[" * 100_000 + "]" * 100_000)
    assert [bot.name for bot in read_entries(tmp_path)] == ["fine"]


def wordy_dependency(tmp_path: Path, size: int) -> tuple[Path, list[str]]:
    """A bot that requires ``evildep``, whose ``METADATA`` holds ``size`` bytes of
    description (a wheel of a few hundred KB: it compresses well)."""
    head = "Metadata-Version: 2.1\nName: evildep\nVersion: 0.1.0\n\n"
    body = ("y" * 99 + "\n") * (size // 100)
    return with_dependency(tmp_path, {"evildep-0.1.0.dist-info/METADATA": (head + body).encode()},
                           compression=zipfile.ZIP_DEFLATED)


def test_resolving_a_dependency_of_a_huge_metadata_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip reads each dependency's ``METADATA`` whole to resolve it, before the arena inspects
    any wheel: the red team's dependency of 137 KB (38 MiB of ``METADATA``) held pip at 465
    MiB for 37 s before its inspection refused it, and one of 409 KB (114 MiB) at 1,274 MiB
    for 54 s. pip resolves under :data:`~arena.submit.RESOLVE`'s limits now (lowered here: the same
    dependency is refused by them, saying so, and before any install)."""
    from arena import submit as submitting
    from arena.errors import ArenaError
    from arena.seats.sandbox import Confinement

    monkeypatch.setattr(submitting, "RESOLVE",
                        Confinement(memory_mb=384, cpu_seconds=60, file_mb=64), raising=False)
    bot, options = wordy_dependency(tmp_path, 40_000_000)
    environment = tmp_path / "env"
    with pytest.raises(ArenaError, match=r"arena_bot_needy-0.1.0-py3-none-any.whl: its "
                                         r"dependencies could not be resolved \(pip ran out of "
                                         r"its 384 MiB\)"):
        submitting.make_environment(environment, bot, options)
    assert installed(environment) == []


def test_a_resolution_report_past_its_bound_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The arena reads pip's report whole, every dependency's ``METADATA`` in it."""
    from arena import submit as submitting
    from arena.errors import ArenaError

    monkeypatch.setattr(submitting, "MAX_REPORT", 1 << 20, raising=False)
    bot, options = wordy_dependency(tmp_path, 2_000_000)
    environment = tmp_path / "env"
    with pytest.raises(ArenaError, match=r"the metadata of its dependencies holds 2 MiB; 1 MiB "
                                         r"at most"):
        submitting.make_environment(environment, bot, options)
    assert installed(environment) == []


def test_a_plugin_that_fails_to_load_loudly_is_refused_in_one_short_line(tmp_path: Path) -> None:
    """What a submitted plugin's catalog reports wrong is its own code's: the red team's
    import error of 3 MB was one line of 3,000,068 characters on the terminal. It is shown
    as ``arena bots`` shows problems: one line of at most 300 characters each."""
    wheel = craft_wheel(tmp_path / "wheel", "arena_bot_loud", {
        "arena_bot_loud/plugin.py": b"raise RuntimeError('boom ' * 600000)\n"})
    done = arena("submit", str(wheel), store=tmp_path / "store")
    assert done.returncode == 2
    assert "arena_bot_loud.plugin: failed to load: RuntimeError: boom boom" in done.stderr
    assert len(done.stderr) < 1000 and len(done.stderr.strip().splitlines()) == 1
