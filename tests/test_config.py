"""Tournament configs: every mistake is one clear message naming what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.config import load, parse
from arena.errors import ArenaError
from arena.plugins import registry

GOOD = """
[tournament]
name = "t"
game = "tiny-race"
players = 2
rounds = 3
seed = 5
seating = "rotations"
options = { goal = 4 }

[[bots]]
name = "random"
[[bots]]
name = "random"
label = "random-2"

[limits]
move_seconds = 0.5
bank_seconds = 2
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(text)
    return path


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(ArenaError) as caught:
        load(write(tmp_path, text), registry())
    return str(caught.value)


def test_a_good_config_is_read_with_its_values(tmp_path: Path) -> None:
    config = load(write(tmp_path, GOOD), registry())
    assert (config.name, config.game, config.players, config.rounds) == ("t", "tiny-race", 2, 3)
    assert config.options == {"goal": 4}
    assert [b.label for b in config.bots] == ["random", "random-2"]
    assert config.limits.move_seconds == 0.5 and config.limits.bank_seconds == 2.0
    assert config.total_matches() == len(list(config.matches())) == 3 * 1 * 2


def test_the_shipped_quick_config_is_valid() -> None:
    config = load(Path(__file__).parent.parent / "configs" / "quick.toml", registry())
    assert config.game == "explorers-of-the-lost-valley"
    assert config.total_matches() > 0


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match="config file not found"):
        load(tmp_path / "nope.toml", registry())


def test_a_toml_error_gives_its_line(tmp_path: Path) -> None:
    assert "line 3" in error(tmp_path, '[tournament]\nname = "x"\ngame = \n')


def test_an_unknown_game_suggests_the_closest(tmp_path: Path) -> None:
    message = error(tmp_path, GOOD.replace('"tiny-race"', '"tiny-rase"'))
    assert "unknown game 'tiny-rase'" in message and "did you mean 'tiny-race'" in message


def test_an_unknown_bot_suggests_the_closest(tmp_path: Path) -> None:
    message = error(
        tmp_path, GOOD.replace('name = "random"\n[[bots]]', 'name = "randon"\n[[bots]]')
    )
    assert "unknown bot 'randon'" in message and "did you mean 'random'" in message


def test_a_player_count_the_game_does_not_allow(tmp_path: Path) -> None:
    assert "for 2 to 4 players" in error(tmp_path, GOOD.replace("players = 2", "players = 5"))


def test_fewer_bots_than_seats(tmp_path: Path) -> None:
    assert "has 2 bot(s) but each match seats 3" in error(
        tmp_path, GOOD.replace("players = 2", "players = 3")
    )


def test_an_option_the_game_rejects(tmp_path: Path) -> None:
    assert "unknown option 'speed'" in error(tmp_path, GOOD.replace("goal = 4", "speed = 4"))


def test_an_unknown_key_is_named_with_the_closest_known_one(tmp_path: Path) -> None:
    message = error(tmp_path, GOOD.replace("rounds = 3", "round = 3"))
    assert "[tournament]: unknown key 'round'; did you mean 'rounds'?" in message


def test_an_unknown_option_is_named_with_the_options_the_game_takes(tmp_path: Path) -> None:
    message = error(tmp_path, GOOD.replace("goal = 4", "gaol = 4"))
    assert "unknown option 'gaol'; did you mean 'goal'?" in message
    assert "(known options: explode_after, goal)" in message and "[" not in message.split(":")[-1]


def test_a_wrong_type_is_named_in_the_words_of_toml(tmp_path: Path) -> None:
    message = error(tmp_path, GOOD.replace("rounds = 3", 'rounds = "3"'))
    assert 'rounds = "3" should be a whole number' in message  # as the config writes it
    # Python's True and '3' were echoed: a word the file does not hold.
    assert "rounds = true should be a whole number" in error(
        tmp_path, GOOD.replace("rounds = 3", "rounds = true"))
    not_a_table = GOOD.replace("options = { goal = 4 }", "options = 4")
    assert "options = 4 should be a table" in error(tmp_path, not_a_table)


@pytest.mark.parametrize(
    "limit",
    [
        "move_seconds = inf",
        "move_seconds = nan",
        "move_seconds = 0",
        "move_seconds = -1.0",
        "bank_seconds = inf",
        "bank_seconds = nan",
        "bank_seconds = -0.5",
        "bank_seconds = 0",
    ],
)
def test_time_limits_must_be_finite_and_positive(tmp_path: Path, limit: str) -> None:
    """A nan budget never runs out: a looping bot would hang the run for ever."""
    key = limit.split()[0]
    text = GOOD.replace("move_seconds = 0.5", "").replace("bank_seconds = 2", "")
    message = error(tmp_path, text.replace("[limits]", f"[limits]\n{limit}"))
    assert f"[limits] {key} = " in message and "must be a finite number of seconds" in message


@pytest.mark.parametrize("label", ["", "   ", "\\u001b[31mred\\u001b[0m", "two\\nlines", " padded",
                                   "rand\\u202eom", "=HYPERLINK(1)", "@SUM(1)", "+1", "-x"])
def test_a_label_is_visible_printable_text(tmp_path: Path, label: str) -> None:
    message = error(tmp_path, GOOD.replace('label = "random-2"', f'label = "{label}"'))
    assert "[[bots]] entry 2: label = " in message and "printable text" in message


def test_duplicate_labels_are_refused(tmp_path: Path) -> None:
    assert "used twice" in error(tmp_path, GOOD.replace('label = "random-2"', ""))


def test_a_bot_that_does_not_play_the_game(tmp_path: Path) -> None:
    text = GOOD.replace('label = "random-2"', 'label = "p"').replace(
        '[[bots]]\nname = "random"\nlabel', '[[bots]]\nname = "picky"\nlabel'
    )
    assert "does not play tiny-race" in error(tmp_path, text)


def test_a_bot_whose_games_are_misspelt_is_told_the_closest_installed_name(
        tmp_path: Path) -> None:
    """A careless author's ``games = ("explorers-of-the-lost-vally",)``: the config's line said
    "it plays explorers-of-the-lost-vally", the typo to be spotted by eye."""
    text = GOOD.replace('[[bots]]\nname = "random"\nlabel', '[[bots]]\nname = "picky"\nlabel')
    assert error(tmp_path, text).endswith(
        "[[bots]] entry 2: bot 'picky' does not play tiny-race (it plays 'no-such-game', which "
        "is no installed game, 'tiny-rase', which is no installed game: did you mean "
        "'tiny-race'?)")


def test_a_stored_bot_in_an_in_process_run_is_named_as_stored_not_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored bot under ``isolation = "inprocess"`` was an ``unknown bot`` (the known ones
    listed without it) although ``arena bots --store`` lists it."""
    import json

    entry = tmp_path / "store" / "cxbots" / "0.1.0" / "entry.json"
    entry.parent.mkdir(parents=True)
    entry.write_text(json.dumps({
        "package": "cxbots", "version": "0.1.0", "wheel": "cxbots-0.1.0-py3-none-any.whl",
        "check": "passed", "submitted": "2026-11-30T12:00:00+00:00",
        "bots": [{"name": "cx-dinos", "games": None, "observes": True, "params": [],
                  "module": "cxbots.plugin"}]}))
    monkeypatch.setenv("ARENA_STORE", str(tmp_path / "store"))
    for name in ("cx-dinos", "cx-dinos@0.1.0"):
        text = GOOD.replace('name = "random"\nlabel', f'name = "{name}"\nlabel')
        text = text.replace("[limits]", '[limits]\nisolation = "inprocess"')
        assert error(tmp_path, text).endswith(f"[[bots]] entry 2: bot {name!r} is a stored bot: "
                                         'it plays only sandboxed (isolation = "process")')
    text = GOOD.replace('name = "random"\nlabel', 'name = "cx-dinos@0.2.0"\nlabel')
    assert "unknown bot 'cx-dinos@0.2.0'" in error(
        tmp_path, text.replace("[limits]", '[limits]\nisolation = "inprocess"'))


def test_a_param_the_bot_does_not_take(tmp_path: Path) -> None:
    text = GOOD.replace('label = "random-2"', 'label = "r2"\nparams = { speed = 1 }')
    assert "bot 'random': unknown param 'speed'" in error(tmp_path, text)


@pytest.mark.parametrize("isolation", ["process", "inprocess"])
def test_a_param_value_the_bot_rejects_is_found_where_the_bot_runs(
    tmp_path: Path, isolation: str
) -> None:
    """The constructor's own check runs in a sandboxed host (or in-process when trusted)."""
    text = GOOD.replace('name = "random"\nlabel = "random-2"',
                        'name = "zoo-fussy"\nlabel = "r2"\nparams = { level = 7 }')
    text = text.replace("[limits]", f'[limits]\nisolation = "{isolation}"')
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ArenaError) as caught:
        load(path)
    message = str(caught.value)
    assert "bot 'zoo-fussy' rejects params = { level = 7 }: " in message
    assert message.endswith("level must be 1, 2 or 3, not 7")


def test_a_bot_that_does_not_start_in_time_is_said_so(tmp_path: Path) -> None:
    text = GOOD.replace('name = "random"\nlabel = "random-2"',
                        'name = "zoo-slow-start"\nlabel = "slow"')
    text = text.replace("[limits]", "[limits]\nstartup_seconds = 1")
    message = error(tmp_path, text)
    assert "bot 'zoo-slow-start' did not start within startup_seconds = 1" in message
    assert "its import or its constructor with params {} takes too long" in message


def test_a_bots_cores_default_to_one_and_can_be_set(tmp_path: Path) -> None:
    assert load(write(tmp_path, GOOD), registry()).limits.cpus == 1.0
    config = load(write(tmp_path, GOOD.replace("[limits]", "[limits]\ncpus = 2")), registry())
    assert config.limits.cpus == 2.0


@pytest.mark.parametrize("cpus", ["0", "-1", "0.001", "inf", "nan", "2000", "'one'"])
def test_a_bots_cores_must_be_a_sensible_number(tmp_path: Path, cpus: str) -> None:
    message = error(tmp_path, GOOD.replace("[limits]", f"[limits]\ncpus = {cpus}"))
    assert "[limits]" in message and "cpus = " in message


def test_an_unknown_isolation_lists_the_choices(tmp_path: Path) -> None:
    text = GOOD.replace("[limits]", '[limits]\nisolation = "threads"')
    assert "use one of: process, inprocess" in error(tmp_path, text)


def test_a_required_sandbox_without_bubblewrap_names_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.seats import sandbox

    monkeypatch.setattr(sandbox, "bubblewrap", lambda: None)
    text = GOOD.replace("[limits]", '[limits]\nsandbox = "required"')
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ArenaError, match="install the Debian package 'bubblewrap'"):
        load(path)


def test_missing_tournament_table() -> None:
    with pytest.raises(ArenaError, match=r"missing \[tournament\]"):
        parse({"bots": []}, registry())


def test_a_plan_too_large_to_make_is_refused_before_anything_starts(tmp_path: Path) -> None:
    crowd = "".join(f'[[bots]]\nname = "random"\nlabel = "r{i}"\n' for i in range(400))
    text = GOOD.split("[[bots]]")[0].replace("players = 2", "players = 4") + crowd
    message = error(tmp_path, text)
    assert "400 bots in matches of 4 make 1,050,739,900 tables (at most 999,999,999)" in message


def test_a_name_held_by_known_ones_suggests_those_starting_with_it_first() -> None:
    from arena.errors import unknown_name

    games = ["explorers-of-the-lost-valley", "lost-explorers", "lost-valley-of-the-dinosaurs"]
    message = str(unknown_name("game", "explorers", games))
    assert "did you mean 'explorers-of-the-lost-valley' or 'lost-explorers'?" in message
    assert "did you mean 'lost-valley-of-the-dinosaurs'?" in str(
        unknown_name("game", "dinosaurs", games))


def test_a_bot_that_cannot_start_without_params_is_not_said_to_reject_them() -> None:
    # A constructor that always raises (a model file it cannot load) is the bot's fault,
    # not its params': "rejects params {}" sent its author looking at the config.
    from arena.config import refusal

    assert refusal("oops", {}, "RuntimeError: no model") == (
        "bot 'oops' fails to start (with no params): RuntimeError: no model")
    assert refusal("fussy", {"level": 7}, "ValueError: no") == (
        "bot 'fussy' rejects params = { level = 7 }: ValueError: no")


def test_the_benchmark_s_16_worker_config_is_valid() -> None:
    config = load(Path(__file__).parent.parent / "benchmarks" / "scale16.toml", registry())
    assert config.total_matches() == 24_000  # the figure benchmarks/README.md reports
    assert config.limits.isolation == "inprocess"
