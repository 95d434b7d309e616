"""Discovery through sandboxed hosts: what the arena learns without running bot code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint, distributions
from pathlib import Path

import pytest

from arena import catalog as catalog_module
from arena.catalog import _add_bot, catalog
from arena.classes import bot_problem
from arena.plugins import Registry, discover

ROOT = Path(__file__).parent.parent


def entry(name: str, module: str) -> EntryPoint:
    return EntryPoint(name=name, value=module, group="arena")


def test_each_plugin_is_listed_by_its_own_sandboxed_host() -> None:
    found = catalog([entry("testbots", "arena_testbots"), entry("testgame", "arena_testgame")])
    assert {"crasher", "cheater", "sleeper"} <= set(found.bots)
    assert found.bots["crasher"].cls is None  # described, never imported here
    info = found.bot_info("crasher")
    assert info.module == "arena_testbots" and info.params is not None and "after" in info.params
    assert set(found.games) == {"tiny-race"} and found.games["tiny-race"].module == "arena_testgame"


def test_a_plugin_registering_games_and_bots_has_its_games_refused() -> None:
    found = catalog([entry("mixed", "arena_testmixed")])
    assert "mixed-race" not in found.games and "cheater" in found.bots
    assert any("registers games and bots" in problem.reason for problem in found.problems)


def test_a_game_claimed_by_two_plugins_is_refused() -> None:
    found = catalog([entry("one", "arena_testgame"), entry("two", "arena_testgame_twin")])
    assert "tiny-race" not in found.games
    assert any("claimed by several plugins" in problem.reason for problem in found.problems)


def test_a_second_entry_point_naming_the_same_game_module_takes_nothing_away() -> None:
    found = catalog([entry("one", "arena_testgame"), entry("copy", "arena_testgame")])
    assert found.games["tiny-race"].module == "arena_testgame"


def test_a_plugin_that_fails_to_import_is_a_problem_not_a_stop() -> None:
    found = catalog([entry("broken", "arena_testzoo_broken"), entry("testbots", "arena_testbots")])
    assert "crasher" in found.bots
    assert any("broken on purpose" in problem.reason for problem in found.problems)


def test_a_bot_name_claimed_by_two_plugins_is_refused_to_both() -> None:
    # arena_testmixed registers the cheater that arena_testbots registers: an impostor.
    found = catalog([entry("testbots", "arena_testbots"), entry("mixed", "arena_testmixed")])
    assert "cheater" not in found.bots and "crasher" in found.bots
    assert any("bot name 'cheater' is claimed by several plugins" in problem.reason
               for problem in found.problems)


def test_a_package_that_registers_bots_has_the_games_of_its_other_modules_refused(
    tmp_path: Path,
) -> None:
    info = tmp_path / "bundle-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bundle\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[arena]\nbundle-bots = arena_testbots\n"
                                           "bundle-game = arena_testgame\n")
    bundle, = distributions(path=[str(tmp_path)])
    found = catalog([ep for ep in bundle.entry_points if ep.group == "arena"])
    assert "tiny-race" not in found.games and "crasher" in found.bots
    assert any("its package bundle also registers bots" in problem.reason
               for problem in found.problems)


def test_a_slow_or_garbled_plugin_costs_only_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog_module, "CATALOG_SECONDS", 1.0)
    found = catalog([entry("aaa", "arena_testslow"), entry("deep", "arena_testdeep"),
                     entry("testbots", "arena_testbots"), entry("testgame", "arena_testgame")])
    assert "crasher" in found.bots and "tiny-race" in found.games
    reasons = {problem.plugin: problem.reason for problem in found.problems}
    assert "no answer within the time allowed" in reasons["aaa"]
    assert "not a JSON object" in reasons["deep"]


def test_a_plugins_own_problems_are_few_short_and_one_line_each() -> None:
    """A host may answer its catalog with problems of its own: 20,000 of them made a message
    of 2 MB that ``arena submit`` printed, and one with a line break passed off a line as
    another plugin's problem (``arena_bot_greedy.plugin: ... uninstall it``)."""
    found = catalog([entry("loud", "arena_testloud"), entry("testbots", "arena_testbots")])
    loud = [problem.reason for problem in found.problems if problem.plugin == "loud"]
    assert len(loud) <= catalog_module.MAX_PROBLEMS + 1  # and a line saying how many more
    assert all("\n" not in reason and len(reason) <= 300 for reason in loud)
    assert "crasher" in found.bots


PROBE = """
import json, sys
from pathlib import Path
from arena.config import load
from arena.match import play_match
config = load(Path(sys.argv[1]))
play_match(next(iter(config.matches())))
print(json.dumps(sorted(sys.modules)))
"""


def test_no_bot_code_is_imported_to_check_a_config_or_play_a_match(tmp_path: Path) -> None:
    """A fresh process loads a config of installed and test bots, then plays a match
    (what a Ray worker does): no bot plugin module is ever imported into it."""
    config = (ROOT / "configs" / "quick.toml").read_text()
    config += '\n[[bots]]\nname = "zoo-chatty"\n'
    path = tmp_path / "quick.toml"
    path.write_text(config)
    env = {**os.environ}
    done = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout.splitlines()[-1])
    bot_modules = [m for m in modules if m.startswith(("arena_bot_", "arena_testbots",
                                                        "arena_testzoo"))]
    assert bot_modules == []
    assert "engines.explorers.plugin" in modules


@pytest.mark.parametrize("name", [
    "snoop@0.1.0",                              # would pass for another bot's stored version
    "\x1b]0;title\x07greedy",                   # terminal codes
    "[link=https://evil.example/]greedy[/link]",  # rich markup
    "my bot", "x" * 65, "-dash-first", "",
])
def test_a_catalogued_bot_name_must_be_a_plain_name(name: str) -> None:
    """A host's catalog is the bot's own words: a name that could pass for ``name@version``
    or carry markup or terminal codes into ``arena bots`` is a problem, not a bot."""
    found = Registry()
    _add_bot(found, "arena_bot_evil", "evil.plugin", {"name": name})
    assert not found.bots
    assert len(found.problems) == 1 and "\x1b" not in found.problems[0].reason


def test_a_catalogued_bot_whose_games_are_not_names_is_refused() -> None:
    found = Registry()
    _add_bot(found, "arena_bot_evil", "evil.plugin", {"name": "evil", "games": ["[blink]x[/]"]})
    assert not found.bots and "game name" in found.problems[0].reason
    _add_bot(found, "arena_bot_fine", "fine.plugin", {"name": "fine.bot-2", "games": ["tiny-race"]})
    assert found.bots["fine.bot-2"].info.games == ("tiny-race",)


def test_a_trusted_bot_class_with_an_odd_name_is_refused() -> None:
    class Odd:
        name = "odd@1.0"

        def act(self, observation: object, legal_actions: list[int]) -> int:
            return legal_actions[0]

    assert "not valid" in str(bot_problem(Odd))


@pytest.mark.parametrize(("value", "reason"), [
    ("arena_testbots:Crasher", "not a module of hook functions"),
    ("arena.errors", "defines no arena_register_games or arena_register_bots function"),
    ("arena_testunmarked", "arena_register_bots is not marked @arena.hookimpl"),
])
def test_an_entry_point_that_registers_nothing_says_why_sandboxed_and_in_process(
        value: str, reason: str) -> None:
    # A bot author's slips: the entry point names the class, or a module without the hook
    # (a misspelt name), or a hook without @arena.hookimpl, which pluggy passes over.
    for found in (catalog([entry("slip", value)]), discover([entry("slip", value)])):
        assert "crasher" not in found.bots and "unmarked" not in found.bots
        assert [problem.plugin for problem in found.problems] == ["slip"]
        assert reason in found.problems[0].reason


def test_a_bot_sees_every_package_of_its_own_distribution_installed_in_editable_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A distribution of two top-level packages, its plugin importing the other, as
    ``pip install -e`` leaves it (outside the virtualenv): its sandboxed host saw only the
    plugin's package and skipped the bot, "No module named 'twopkg_core'"."""
    info = tmp_path / "twopkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: twopkg\nVersion: 0.1\n")
    (info / "top_level.txt").write_text("twopkg_core\ntwopkg_plugin\n")
    for package in ("twopkg_core", "twopkg_plugin"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "twopkg_core" / "logic.py").write_text("def choose(legal):\n    return legal[0]\n")
    (tmp_path / "twopkg_plugin" / "plugin.py").write_text(
        "import arena\nfrom arena.bot import Bot\nfrom twopkg_core.logic import choose\n\n\n"
        "class Two(Bot):\n    name = 'two-packages'\n\n"
        "    def act(self, observation, legal_actions):\n        return choose(legal_actions)\n\n\n"
        "@arena.hookimpl\ndef arena_register_bots(register):\n    register(Two)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sandbox_module = sys.modules["arena.seats.sandbox"]
    sandbox_module.dependency_locations.cache_clear()
    sandbox_module._distributions.cache_clear()
    try:
        found = catalog([entry("two", "twopkg_plugin.plugin")], sandbox="required")
    finally:
        sandbox_module.dependency_locations.cache_clear()
        sandbox_module._distributions.cache_clear()
    assert [problem.reason for problem in found.problems] == []
    assert "two-packages" in found.bots
