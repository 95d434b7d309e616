"""The documents keep up with the engine: the README for bot authors, the coverage table."""

from __future__ import annotations

import random
import re
from pathlib import Path

from test_explorers_helpers import play, roll, setup

from arena.game import sample_chance
from engines.explorers import actions as A
from engines.explorers import phases
from engines.explorers.game import ExplorersGame

HERE = Path(__file__).parent
README = (HERE.parents[1] / "engines/explorers/README.md").read_text("utf-8")
COVERAGE = (HERE / "RULES-COVERAGE-explorers.md").read_text("utf-8")
EN_DASH = "\u2013"
"""The README writes id ranges as 9\u201312."""


def section(title: str) -> str:
    """The README's section whose heading starts with ``title``, up to the next heading."""
    start = README.index(f"## {title}")
    end = README.find("\n## ", start + 1)
    return README[start:end if end >= 0 else len(README)]


def test_the_readme_documents_every_observation_key() -> None:
    """engines/explorers/README.md lists what ``act`` receives for bot authors."""
    spans = re.findall(r"`([^`]+)`", section("Observation (what"))
    documented = {word for span in spans for word in re.findall(r"[a-z_-]+", span)}
    state = setup(3, row=("Iguanodon galvensis", "Allies"))
    play(state, A.TAKE, roll(2))
    observation = state.observation(1)
    assert set(observation) <= documented
    assert set(observation["players"][0]) <= documented
    assert set(observation["hunt"]) <= documented
    assert set(observation["row"][0]) | set(observation["row"][1]) <= documented
    assert set(observation["cards"]) <= documented
    decisions = {phases.NAMES[phase] for phase in range(phases.TURN, len(phases.NAMES))}
    assert decisions <= documented


def test_the_readme_gives_last_roll_as_the_throws_total() -> None:
    """The README said `last_roll` was "the last throw's two dice": a bot author wrote
    ``first, second = hunt["last_roll"]`` for what is one number, the total (the chance
    outcome is the total too)."""
    state = setup(3, row=("Iguanodon galvensis", "Allies"))
    play(state, A.TAKE, roll(3))
    assert state.observation(0)["hunt"]["last_roll"] == 3
    assert "`last_roll` (the last throw's total, one number 2..12" in " ".join(README.split())


def test_the_readme_says_when_the_steal_and_the_hound_fields_are_null() -> None:
    """It said `steal_victim` held "the player asked during a steal": a bot read it at
    `steal-victim`, where it is still null (the victim is what that decision chooses)."""
    assert ("each `null` at every other decision (in `steal-victim` too" in
            " ".join(section("Observation (what").split()))
    game = ExplorersGame()
    seen = set()
    for seed in range(6):
        state, rng = game.new_initial_state(3, {"advanced": True}), random.Random(seed)
        while not state.is_terminal():
            if state.current_player() < 0:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
                continue
            view = state.observation(state.current_player())
            stealing, hound = view["phase"] == "steal-pick", view["phase"] == "hound-capture"
            assert (view["steal_victim"] is not None) is stealing
            assert (view["steal_roll"] is not None) is stealing
            assert (view["hound_card"] is not None) is hound
            seen.add(view["phase"])
            state.apply_action(rng.choice(state.legal_actions()))
    assert {"steal-victim", "steal-pick", "hound-capture"} <= seen


def test_the_readme_action_table_covers_every_id_once() -> None:
    """The README's action table names every id of actions.py exactly once, and the fixed
    decisions where actions.py puts them."""
    rows = re.findall(r"^\| ([0-9][0-9, \u2013]*) \| (.+) \|$", section("Actions"), re.M)
    ids: list[int] = []
    meaning: dict[int, str] = {}
    for cell, text in rows:
        for part in cell.split(","):
            low, _, high = part.strip().partition(EN_DASH)
            span = range(int(low), int(high or low) + 1)
            ids += span
            meaning.update(dict.fromkeys(span, text))
    assert sorted(ids) == list(range(A.NUM_ACTIONS))
    assert "base camp" in meaning[A.BASE_CAMP] and "abandon" in meaning[A.ABANDON]
    assert "extra action" in meaning[A.EXTRA_ACTION]
    assert "ammunition" in meaning[A.REROLL] and "stop" in meaning[A.STOP_HUNT]
    assert "turn-end" in meaning[A.END_TURN]
    assert "put all your used ammunition back" in meaning[A.RETURN_AMMUNITION]
    assert "capture" in meaning[A.HOUND_CAPTURE]
    assert "ask seat" in meaning[A.STEAL_FROM]
    assert "chance" in meaning[A.DRAW] and "chance" in meaning[A.TRAIL_DEAL + 3]


def test_every_rule_of_the_coverage_table_names_existing_tests() -> None:
    """RULES-COVERAGE-explorers.md: rules 1 to 86, each with at least one test, and every
    test it names is defined in the file it names (``rulebook_pass3: test_x`` is
    ``test_explorers_rulebook_pass3.py``)."""
    sources = {path.name[len("test_explorers_"):-3]: path.read_text("utf-8")
               for path in HERE.glob("test_explorers_*.py")}
    rows = re.findall(r"^\| (\d+) \| .+? \| (.+) \| [a-z*]+ \|$", COVERAGE, re.M)
    assert [int(number) for number, _ in rows] == list(range(1, 87))
    for number, cell in rows:
        named = re.findall(
            r"([a-z][a-z0-9_]*): ((?:\*?\*?test_\w+(?:\[[^]]*\])?\*?\*?(?:, )?)+)", cell)
        assert named, f"rule {number} names no test"
        for module, tests in named:
            for test in re.findall(r"test_\w+", tests):
                assert f"def {test}(" in sources[module], (number, module, test)
