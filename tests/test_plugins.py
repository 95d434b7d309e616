"""Discovery through entry points: installed distributions, broken plugins, the CLI view."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.bot import Bot
from arena.cli import main
from arena.errors import ArenaError
from arena.plugins import discover, registry


def test_the_builtin_bots_come_from_their_installed_distributions() -> None:
    found = discover()
    assert found.bots["random"].plugin == "arena-bot-random 0.1.0:random"
    assert found.bots["greedy"].plugin == "arena-bot-greedy 0.1.0:greedy"
    names = [ep.name for ep in distribution("arena-bot-random").entry_points if ep.group == "arena"]
    assert names == ["random"]


def test_the_builtin_game_comes_through_the_same_entry_point_group() -> None:
    entry = discover().games["explorers-of-the-lost-valley"]
    assert entry.plugin.startswith("lostvalley-arena ")
    assert entry.cls.min_players == 2 and entry.cls.max_players == 4


def test_broken_plugins_are_reported_and_the_rest_still_load() -> None:
    found = discover()
    reasons = {(p.plugin.split(":")[-1], p.reason) for p in found.problems}
    assert (
        "fails-to-import",
        "failed to load: ModuleNotFoundError: No module named 'arena_testbroken_missing'",
    ) in reasons
    junk = sorted(r for plugin, r in reasons if plugin == "registers-junk")
    assert junk == [
        "42 is not a class",
        "Argless() does not take the keyword arguments game, seat, num_players and seed that "
        "the referee builds each bot with (subclass arena.bot.Bot, or define __init__(self, "
        "*, game, seat, num_players, seed) or __init__(self, **kwargs))",
        "Mute has no act(observation, legal_actions) method",
        "Nameless.name is missing or not a non-empty string",
        "OneGame.games is the string 'tiny-race', not a tuple of game names (a tuple of one "
        "needs its comma: ('tiny-race',))",
        'arena_register_games raised RuntimeError("this plugin\'s game hook is broken")',
    ]
    assert {"random", "crasher", "sleeper"} <= set(found.bots)
    assert "tiny-race" in found.games


def test_a_name_registered_twice_keeps_the_first_and_reports_the_second() -> None:
    found = registry()
    entry_points = [
        ep for ep in distribution("arena-bot-random").entry_points if ep.group == "arena"
    ]
    twice = discover(entry_points + entry_points)
    assert list(twice.bots) == ["random"]
    assert any("already registered" in p.reason for p in twice.problems)
    assert found.bots["random"].cls is twice.bots["random"].cls


def test_arena_bots_lists_bots_and_problems() -> None:
    output = CliRunner(env={"COLUMNS": "200"}).invoke(main, ["bots"]).output
    assert "random" in output and "greedy" in output and "arena-bot-greedy" in output
    assert "Plugins skipped" in output and "fails-to-import" in output


def test_arena_games_lists_the_game() -> None:
    output = CliRunner(env={"COLUMNS": "200"}).invoke(main, ["games"]).output
    assert "explorers-of-the-lost-valley" in output and "2-4" in output


def test_the_installed_console_script_finds_the_bots() -> None:
    script = Path(sys.executable).parent / "arena"
    assert script.exists(), "the arena console script is not installed"
    listing = subprocess.run(
        [str(script), "bots"],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "COLUMNS": "200"},
    )
    assert "random" in listing.stdout and "greedy" in listing.stdout


def test_when_nothing_loads_the_error_names_the_first_problems() -> None:
    from arena.plugins import Problem, Registry, nothing_loaded

    assert "no games or bots are installed" in str(nothing_loaded(Registry()))
    problems = [Problem(f"plugin-{n}", f"reason {n}") for n in range(5)]
    message = str(nothing_loaded(Registry(problems=problems)))
    assert message.startswith("no game or bot could be loaded: 5 plugin problem(s): "
                              "plugin-0: reason 0; plugin-1: reason 1; plugin-2: reason 2")
    assert message.endswith("(and 2 more)")


def test_a_bot_host_describes_its_bot_without_the_registry() -> None:
    """A bot host starts for every new seat it serves: it reads its bot's params through
    :mod:`arena.classes`, without :mod:`arena.plugins` and its ``importlib.metadata`` (about
    a fifth of a host's start-up)."""
    code = (
        "import sys\n"
        "import arena.seats.host as host\n"
        "import arena_bot_greedy.plugin as plugin\n"
        "bot, = host.registered(plugin, 'arena_register_bots')\n"
        "described = host.describe_bot(bot)\n"
        "print(described['name'], described['params'],\n"
        "      [name for name in ('arena.plugins', 'importlib.metadata') if name in sys.modules])\n"
    )
    found = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.split(" ", 1)[0] == "greedy"
    assert "risk" in found.stdout
    assert found.stdout.rstrip().endswith("[]")


def test_an_unknown_bot_declared_in_another_entry_point_group_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``[project.entry-points."arena.bots"]`` (or ``arena_bots``) installs fine and registers
    nothing: the bot's name is unknown, and the line says which package put it where."""
    from importlib.metadata import EntryPoint
    from types import SimpleNamespace

    import arena.plugins

    misgrouped = SimpleNamespace(
        metadata={"Name": "arena-bot-cautious"}, version="0.1.0",
        entry_points=[EntryPoint("cautious", "arena_bot_cautious.plugin", "arena.bots")])
    monkeypatch.setattr(arena.plugins, "distributions", lambda: [misgrouped])
    with pytest.raises(ArenaError) as caught:
        discover([]).bot_info("cautious")
    assert str(caught.value).endswith(
        "; arena-bot-cautious 0.1.0 declares the entry point cautious = "
        "arena_bot_cautious.plugin in group 'arena.bots', which the arena does not read: its "
        "group is 'arena' ([project.entry-points.arena] in pyproject.toml)")
    monkeypatch.setattr(arena.plugins, "distributions", lambda: [])
    with pytest.raises(ArenaError) as caught:
        discover([]).bot_info("cautious")
    assert "entry point" not in str(caught.value)


def test_a_data_file_missing_from_the_bots_install_says_how_to_ship_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A careless author's bot read a file of its own package: it played from its folder
    (``pip install -e``) and failed installed from its wheel (``arena submit``) with a bare
    ``FileNotFoundError``, which does not say that the wheel left the file out."""
    from arena.seats.host import MISSING_PACKAGE_FILE, Host

    package = tmp_path / "arena_bot_weighty"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bot.py").write_text(
        "from pathlib import Path\n"
        "from arena.bot import Bot\n"
        "class Weighty(Bot):\n"
        "    name = 'weighty'\n"
        "    def __init__(self, *, where='', **kwargs):\n"
        "        super().__init__(**kwargs)\n"
        "        Path(where or Path(__file__).with_name('weights.txt')).read_text()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from arena_bot_weighty.bot import Weighty  # type: ignore[import-not-found]

    sent: list[dict[str, object]] = []
    host = Host(Weighty, sent.append)
    start = {"type": "start", "game": "tiny-race", "seat": 0, "num_players": 2, "seed": 1}
    host.handle({**start, "params": {}})
    host.handle({**start, "params": {"where": str(tmp_path / "elsewhere.txt")}})
    inside, outside = (str(message["error"]).splitlines()[-1] for message in sent)
    assert inside.startswith("FileNotFoundError: ") and "weights.txt" in inside
    assert inside.endswith(MISSING_PACKAGE_FILE)
    assert "[tool.setuptools.package-data]" in MISSING_PACKAGE_FILE
    assert outside.startswith("FileNotFoundError: ") and MISSING_PACKAGE_FILE not in outside


def test_a_module_imported_but_not_required_says_to_declare_its_distribution(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A careless author's bot imported a library installed in the arena's environment and
    not named in its ``dependencies``: ``arena check`` passed, and ``arena submit``, which
    installs only what the bot requires, said only ``No module named ...``."""
    from arena.seats.host import MISSING_REQUIREMENT, catalog

    package = tmp_path / "arena_bot_needy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text("import not_installed_anywhere_xyz\n")
    (package / "typo.py").write_text("from arena_bot_needy import helpres\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    (needy,) = catalog("arena_bot_needy.plugin")["problems"]
    assert needy == ("failed to load: ModuleNotFoundError: No module named "
                     f"'not_installed_anywhere_xyz'{MISSING_REQUIREMENT}")
    assert "dependencies" in MISSING_REQUIREMENT and "pyproject.toml" in MISSING_REQUIREMENT
    (own,) = catalog("arena_bot_needy.typo")["problems"]  # its own module: no such note
    assert own.startswith("failed to load: ") and MISSING_REQUIREMENT not in own


def test_arena_bots_says_which_installed_bot_plays_no_installed_game(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A careless author misspelt the game in ``games``: ``arena bots`` listed the bot as if
    all were well, and only ``arena check`` or a config said that no game takes it."""
    import arena.cli
    from arena.plugins import BotInfo, Entry, Registry

    found = registry()
    misspelt = BotInfo(name="nogame", games=("explorers-of-the-lost-vally",), params=None,
                       observes=True, plugin="c-nogame 0.1.0:c-nogame", module="c.plugin")
    lonely = Registry(games=dict(found.games), bots={
        "random": found.bots["random"],
        "nogame": Entry(cls=None, plugin=misspelt.plugin, module=misspelt.module,
                        info=misspelt)})
    monkeypatch.setattr(arena.cli, "_discovered", lambda: lonely)
    monkeypatch.setenv("ARENA_STORE", str(tmp_path / "store"))  # no stored bots listed
    output = CliRunner(env={"COLUMNS": "300"}).invoke(main, ["bots"]).output
    said = output.split("Bots that play no installed game:\n")[1].strip().splitlines()
    assert said == [
        f"bot 'nogame' plays none of the installed games ({', '.join(found.games)}): its games "
        "are 'explorers-of-the-lost-vally' (did you mean 'explorers-of-the-lost-valley'?)"]


def test_a_constructor_that_requires_a_param_says_to_give_it_a_default() -> None:
    """A careless author's bot required ``depth``: ``arena submit`` refused it with Python's
    ``missing 1 required keyword-only argument``, not saying that the arena builds it with
    no params there; an error of the constructor's own code gets no such note."""
    from arena.seats.host import REQUIRED_PARAM, Host

    class Deep(Bot):
        name = "deep"

        def __init__(self, *, depth: int, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            if depth < 0:
                raise TypeError("depth must be a natural number")

    sent: list[dict[str, object]] = []
    host = Host(Deep, sent.append)
    start = {"type": "start", "game": "tiny-race", "seat": 0, "num_players": 2, "seed": 1}
    for params in ({}, {"depth": -1}, {"depth": 2}, {"depth": 2, "width": 3}):
        host.handle({**start, "params": params})
    missing, own, ready, unknown = sent
    assert str(unknown["error"]).endswith("unexpected keyword argument 'width'")
    assert str(missing["error"]).endswith(
        f"missing 1 required keyword-only argument: 'depth'{REQUIRED_PARAM}")
    assert "give it a default" in REQUIRED_PARAM
    assert str(own["error"]).endswith("TypeError: depth must be a natural number")
    assert ready == {"type": "ready"}
