"""Round 17 of the documented contract: what README.md's *Tournament configs* and *Results*
say a config accepts and a match record holds, checked against a config parsed and a match
played for real."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from arena.config import parse
from arena.errors import ArenaError
from arena.match import play_match
from arena.plugins import require_registry
from arena.schedule import derive_seed
from arena.store import encoded

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
GAME = "explorers-of-the-lost-valley"


def readme_table(first_header: str, after: str = "") -> list[list[str]]:
    """The rows of the README table whose header starts ``| first_header |`` (the first such
    after the text ``after``), cell by cell."""
    lines = README[README.index(after):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]])
    return rows


def config_key_rows() -> dict[tuple[str, str], tuple[str, str]]:
    """README's table of config keys: (table, key) -> (default, accepts); a row naming
    several keys (`move_seconds`, `bank_seconds`, ...) gives one entry for each."""
    rows: dict[tuple[str, str], tuple[str, str]] = {}
    for key_cell, default, accepts in readme_table("key | default"):
        table, keys = key_cell.strip("`").split("] ", 1)
        for key in re.findall(r"[a-z_]+", keys):
            rows[(table.strip("[]`"), key)] = (default, accepts)
    return rows


def minimal(**limits: Any) -> dict[str, Any]:
    return {"tournament": {"game": GAME}, "bots": [{"name": "random"}, {"name": "greedy"}],
            "limits": {"isolation": "inprocess", **limits}}


def test_the_config_key_table_names_every_key_of_the_readme_config_and_no_other() -> None:
    """The reference config shows every key; the table gives each a default. Before round 17
    the defaults (`players` the game's fewest, `rounds` 1, `seed` 0, `name` "tournament")
    were nowhere, and the reference config's values read as if they were them."""
    (block,) = [part.split("```")[0] for part in README.split("```toml\n")[1:]
                if part.startswith("[tournament]")]
    written = tomllib.loads(block)
    keys = {("tournament", key) for key in written["tournament"]}
    keys |= {("limits", key) for key in written["limits"]}
    keys |= {("bots", key) for entry in written["bots"] for key in entry}
    assert set(config_key_rows()) == keys


def test_a_config_of_game_and_bots_alone_takes_the_defaults_the_readme_gives() -> None:
    registry = require_registry()
    config = parse(minimal(), registry)
    rows = config_key_rows()
    game = registry.game(GAME)
    assert rows[("tournament", "players")][0] == "the game's fewest players"
    assert config.players == game.min_players
    for key, value in (("name", config.name), ("rounds", config.rounds), ("seed", config.seed),
                       ("seating", config.seating)):
        assert rows[("tournament", key)][0] == f"`{value}`" if isinstance(value, int) \
            else f'`"{value}"`', key
    assert config.options == {} and rows[("tournament", "options")][0].startswith("`{}`")
    assert [bot.label for bot in config.bots] == ["random", "greedy"]
    assert all(bot.params == {} for bot in config.bots)
    defaults = rows[("limits", "move_seconds")][0].strip("`").split("`, `")
    assert [config.limits.move_seconds, config.limits.bank_seconds,
            config.limits.startup_seconds] == [float(value) for value in defaults]
    assert rows[("limits", "memory_mb")][0] == f"`{config.limits.memory_mb}`"
    assert rows[("limits", "cpus")][0] == f"`{config.limits.cpus}`"
    # isolation and sandbox: parsed without an [limits] table at all, with a registry given
    # (no discovery); the defaults are the values a Limits is made with
    default_limits = parse({**minimal(), "limits": {}}, registry).limits
    assert rows[("limits", "isolation")][0] == f'`"{default_limits.isolation}"`'
    assert rows[("limits", "sandbox")][0] == f'`"{default_limits.sandbox}"`'


@pytest.mark.parametrize(("table", "key", "accepted", "refused"), [
    ("limits", "cpus", [0.01, 1024], [0.009, 1025, 0]),
    ("limits", "memory_mb", [64, 4_194_304], [63, 4_194_305]),
    ("limits", "move_seconds", [0.001, 1_000_000], [0, 1_000_001]),
    ("tournament", "rounds", [1], [0, -1]),
    ("tournament", "name", ["cup-2026"], ["", "a/b", ".hidden"]),
])
def test_each_config_key_takes_what_the_readme_table_says_and_refuses_the_rest(
    table: str, key: str, accepted: list[Any], refused: list[Any]
) -> None:
    registry = require_registry()
    assert (table, key) in config_key_rows()
    for value in accepted:
        raw = minimal()
        raw[table][key] = value
        parse(raw, registry)
    for value in refused:
        raw = minimal()
        raw[table][key] = value
        with pytest.raises(ArenaError, match=re.escape(f"[{table}] {key} = ")):
            parse(raw, registry)


@pytest.mark.parametrize(("table", "key", "value", "shown"), [
    ("tournament", "seating", "rotation", 'seating = "rotation"'),
    ("tournament", "name", "a/b", 'name = "a/b": use a plain folder name (not empty'),
    ("limits", "sandbox", "always", 'sandbox = "always"'),
    ("limits", "cpus", 0, "cpus = 0:"),
])
def test_a_refused_value_is_shown_as_the_toml_file_writes_it(
    table: str, key: str, value: Any, shown: str
) -> None:
    """The line names the value as it is in the file, to find it there: `seating =
    'rotation'` (Python's quotes) and `cpus = 0.0` for a written `cpus = 0` were not."""
    raw = minimal()
    raw[table][key] = value
    with pytest.raises(ArenaError) as refusal:
        parse(raw, require_registry())
    assert shown in str(refusal.value)


TYPES = {
    "string": lambda value: isinstance(value, str),
    "int": lambda value: type(value) is int,
    "float": lambda value: type(value) is float,
    "list of strings": lambda value: all(isinstance(item, str) for item in value),
    "list of ints": lambda value: all(type(item) is int for item in value),
    "list of floats": lambda value: all(type(item) is float for item in value),
    "list of numbers": lambda value: all(type(item) in (int, float) for item in value),
    "list of strings or nulls": lambda value: all(item is None or isinstance(item, str)
                                                  for item in value),
}


def test_a_played_match_record_has_the_keys_types_and_meanings_the_results_table_gives() -> None:
    """The README listed `seconds` among the per-seat fields (it is the whole match's) and
    did not say which seed `seed` is (the table's chance seed, not the config's)."""
    record_rows = {key.strip("`"): (kind, meaning) for key, kind, meaning in readme_table(
        "key | type | meaning", after="Each line of `matches.jsonl` is one object")}
    config = parse({**minimal(), "tournament": {"game": GAME, "players": 2, "seed": 5}},
                   require_registry())
    spec = next(iter(config.matches()))
    record = json.loads(encoded(play_match(spec)).line)  # the line a worker writes
    assert list(record) == list(record_rows)
    for key, (kind, _meaning) in record_rows.items():
        assert kind in TYPES and TYPES[kind](record[key]), (key, kind, record[key])
        if kind.startswith("list of") and key != "history":
            assert len(record[key]) == len(spec.seats), key
    assert record["seed"] == derive_seed(5, "chance", 0, 0) != 5
    assert record["actions"] == len(record["history"])
    assert "not per seat" in record_rows["seconds"][1]
    assert record["seconds"] >= max(record["think_seconds"])
    assert record["errors"] == [None, None] and record["statuses"] == ["ok", "ok"]
    assert record["seats"] == [seat.label for seat in spec.seats]


def readme_protocol_keys(message_type: str) -> set[str]:
    """The keys of the protocol table's message of ``message_type``, as the README spells it."""
    rows = readme_table("direction | message", after="### The bot host protocol")
    for _direction, message in rows:
        for shown in re.findall(r"`(\{[^`]*\})`", message):
            if f'"type": "{message_type}"' in shown:
                return set(re.findall(r'"(\w+)":', shown))
    raise AssertionError(f"no {message_type!r} message in the README's protocol table")


def test_the_python_host_says_the_keys_the_protocol_table_gives() -> None:
    """The hello's `doc` and the done's `peak_kb` (the peak memory `arena check` shows) were
    in neither the README's table nor `arena/seats/protocol.py`. The host is started as the
    arena starts it, outside the sandbox: only the protocol is checked here."""
    inbound, to_host = os.pipe()
    from_host, outbound = os.pipe()
    host = subprocess.Popen(
        [sys.executable, "-I", "-m", "arena.seats.host", f"--fds={inbound},{outbound}",
         "--plugin", "arena_bot_greedy.plugin", "--bot", "greedy"],
        pass_fds=(inbound, outbound), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    os.close(inbound)
    os.close(outbound)
    with os.fdopen(from_host) as answers, os.fdopen(to_host, "w") as requests:
        def ask(message: dict[str, Any]) -> dict[str, Any]:
            requests.write(json.dumps(message) + "\n")
            requests.flush()
            answer: dict[str, Any] = json.loads(answers.readline())
            return answer

        hello = json.loads(answers.readline())
        ready = ask({"type": "start", "game": "lost-explorers", "seat": 0, "num_players": 2,
                     "seed": 3, "params": {}})
        done = ask({"type": "end", "scores": [1, 0], "ranking": [0, 1], "status": "ok"})
    assert host.wait(10) == 0
    assert set(hello) == readme_protocol_keys("hello")
    assert set(ready) == readme_protocol_keys("ready")
    assert set(done) == readme_protocol_keys("done")
    greedy = require_registry().bot("greedy")
    assert hello["doc"] == (inspect.getdoc(greedy) or "").split("\n\n")[0][:200] != ""
    assert hello["params"] == ["risk"] and hello["observes"] is True
    assert isinstance(done["peak_kb"], int) and done["peak_kb"] > 0


def writing_a_game() -> str:
    return README.split("## Writing a game")[1].split("\n## ")[0]


def test_writing_a_game_names_every_method_a_state_must_have() -> None:
    """`is_terminal` is abstract, and the README's list of a state's methods left it out:
    a game written from the README alone could not make its first state."""
    from arena import game

    listed = writing_a_game().split("follows OpenSpiel's shape (")[1].split(")")[0]
    named = set(re.findall(r"`([a-z_]+)`", listed))
    assert game.State.__abstractmethods__ <= named
    assert named <= {name for name in dir(game.State) if not name.startswith("_")}
    assert {"new_initial_state"} == game.Game.__abstractmethods__
    assert "new_initial_state(num_players, options)" in writing_a_game()


def test_writing_a_game_names_the_module_its_names_come_from() -> None:
    from arena import game

    section = writing_a_game()
    sentence = section.split("are imported from `arena.game`")[0].rsplit(". ", 1)[1]
    names = re.findall(r"`([A-Za-z_]+)`", re.sub(r"\([^)]*\)", "", sentence))
    assert len(names) == 6
    for name in names:
        assert hasattr(game, name), name
    assert game.competition_ranking([3, 5, 3]) == [1, 0, 1]


def test_a_failed_match_is_written_and_warned_of_as_the_results_section_says(
    tmp_path: Path,
) -> None:
    """`failures.jsonl` was named with nothing of what its lines hold, nor what reads them."""
    from click.testing import CliRunner

    from arena.cli import main
    from arena.store import RunStore

    config = parse({**minimal(), "tournament": {"game": GAME, "name": "cup"}},
                   require_registry())
    first, second = list(config.matches())[:2]
    with RunStore(tmp_path) as store:
        store.start(config.to_json())
        store.append(play_match(first))
        store.append_failure(second.id, "EngineError: the game raised ValueError")
    (line,) = (tmp_path / "failures.jsonl").read_text().splitlines()
    documented = README.split("`failures.jsonl` (one object a line,\n`")[1].split("`")[0]
    assert set(json.loads(line)) == set(re.findall(r'"(\w+)":', documented))
    assert json.loads(line) == {"id": second.id,
                                "reason": "EngineError: the game raised ValueError"}
    shown = CliRunner().invoke(main, ["leaderboard", str(tmp_path), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert "1 match(es) failed; see failures.jsonl" in shown.stderr
    assert [row["matches"] for row in json.loads(shown.stdout)] == [1, 1]


def test_a_share_of_none_or_all_has_an_interval_bound_of_exactly_0_or_1() -> None:
    """`--pairs --format json` gives shares and bounds "from 0 to 1": a seat that won none of
    its 3 matches had `"low": 5.551115123125783e-17` (the Wilson bound computed in floating
    point), which a reader comparing with 0 takes for a win."""
    from arena.confidence import wilson

    for trials in range(1, 201):
        assert wilson(0, trials)[0] == 0.0 < wilson(0, trials)[1] < 1.0
        assert 0.0 < wilson(trials, trials)[0] < wilson(trials, trials)[1] == 1.0
        assert wilson(0.5, trials)[0] > 0.0
