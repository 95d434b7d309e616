"""Round 19 of the documented contract: bots written from the READMEs and the rules pages
alone (each parsing every observation field and working out its legal actions itself), a bot
using the optional parts, the README's journeys followed word for word, and what they met
that the documents did not say."""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from arena.game import drive
from arena.plugins import require_registry

README = (Path(__file__).parent.parent / "README.md").read_text()


def swamp_steps(observation: Mapping[str, Any]) -> set[int]:
    """Where the explorer moving out of the swamp may step, as the rules page says now."""
    board, now = observation["board"], observation["now"]
    ring, explorer = board["swamp_ring"], now["explorer"]
    at = observation["players"][explorer // 4]["explorers"][explorer % 4]
    barred = {*observation["dinosaurs"], observation["swamp_monster"], *observation["lava"],
              *now["visited"], *now["walked"][explorer]}
    if at not in ring:  # an inner space: onto a ring space it touches
        return {space for space in board["neighbors"][at] if space in ring} - barred
    place = ring.index(at)
    steps = {ring[place - 1], ring[(place + 1) % len(ring)]}
    if at in board["swamp_exits"]:
        steps |= {space for space in board["neighbors"][at]
                  if board["terrain"][space] not in ("swamp", "inner-swamp", "lair")}
    return steps - barred


def test_dinosaurs_an_explorer_in_the_swamp_steps_round_the_ring() -> None:
    """The rules page (`engines/dinosaurs/game.py`, "the way a bot must know them") said an
    explorer "may never enter ... a lair, or the swamp", and "In a river or the swamp it
    moves one space without dice". A bot working out its moves from that offered no step to
    an explorer on a grey arrow, whose legal steps were the arrows beside it (RULINGS.md
    ruling 11: "An explorer on the ring moves one grey arrow either way (never into the
    monster, never inwards), or from a blue exit arrow onto the dry land next to it").
    The rules page says so now, and the steps are those, at every such decision of seeded
    games."""
    from engines.dinosaurs import game as rules

    page = " ".join(rules.__doc__.split())
    assert "one grey arrow either way round the ring" in page
    assert "from outside it, the swamp" in page
    game = require_registry().game("lost-valley-of-the-dinosaurs")
    seen = {"swamp": 0, "exit": 0, "inner-swamp": 0}
    for number in range(40):
        if all(seen.values()):
            break
        state, rng = game.new_initial_state(2 + number % 3), random.Random(number)

        def decide(state: Any, seat: int, rng: random.Random = rng) -> int:
            observation = state.observation(seat)
            board, legal = observation["board"], state.legal_actions()
            if observation["phase"] == "move-step":
                explorer = observation["now"]["explorer"]
                at = observation["players"][seat]["explorers"][explorer % 4]
                if at >= 0 and board["terrain"][at] in seen:
                    seen["exit" if at in board["swamp_exits"] else board["terrain"][at]] += 1
                    assert set(legal) == swamp_steps(observation), (at, legal)
            return int(rng.choice(legal))

        drive(state, decide, rng)
    assert all(seen.values()), seen


class Closer:
    """A bot whose ``close()`` raises, as the README allows ("what it raises is ignored")."""

    def __init__(self, **seat: Any) -> None:
        self.seat = seat

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        return legal_actions[0]

    def close(self) -> None:
        print("closing")
        raise RuntimeError("close failed on purpose")


def test_a_close_that_raises_is_ignored_and_its_host_still_says_done(
        capsys: pytest.CaptureFixture[str]) -> None:
    """*What it keeps*: `close()` "is called once when a match that its seat played to the
    end is over ...; what it raises is ignored". The host answered the end of the match with
    `error`: the referee killed the host (not kept for the next match, as after a fault)
    and `arena check` showed the bot's peak memory as 0 MB. The host now says `done` with its
    peak, and the traceback goes to the bot's output (`outputs/<match id>.txt`)."""
    from arena.seats.host import Host

    answers: list[dict[str, Any]] = []
    host = Host(Closer, answers.append)
    host.handle({"type": "start", "game": "lost-explorers", "seat": 0, "num_players": 2,
                 "seed": 1, "params": {}})
    host.handle({"type": "act", "observation": {}, "legal": [76, 157]})
    host.handle({"type": "end", "scores": [0.0, 0.0], "ranking": [0, 0], "status": "ok"})
    assert [answer["type"] for answer in answers] == ["ready", "action", "done"], answers
    assert answers[-1]["peak_kb"] > 0
    printed = capsys.readouterr()
    assert "closing" in printed.out
    assert "RuntimeError: close failed on purpose" in printed.err


@pytest.mark.parametrize(("typed", "column"), [
    ("x", 2),                    # the end of the text: the '=' a key wants
    ("  risk = = 1", 10),        # the second '=', leading blanks counted
    ("risk = 0.8 x", 12),        # the stray 'x'
    ("{ risk = 0.8 x }", 14),    # a table typed in braces is read as it is
])
def test_a_params_text_that_is_no_toml_is_refused_at_its_own_column(
        typed: str, column: int) -> None:
    """*Checking a bot*: `--params '{"risk": 0.8}'` or `--params 'risk = 0.8'` (and `arena
    play --options` alike); anything else is one line. `--params 'x'` was refused "at line 1,
    column 15", a column of the line the arena made of it (`options = { x }`), past the end
    of what was typed; the column is counted in the text typed now."""
    from arena.errors import ArenaError
    from arena.play import parse_options

    with pytest.raises(ArenaError) as refused:
        parse_options(typed, flag="--params")
    assert f"(at line 1, column {column})" in str(refused.value), refused.value


def test_a_refused_label_or_param_is_shown_as_the_toml_file_writes_it() -> None:
    """*Commands*: a mistake in a config "prints one line naming the problem"; round 18 had
    the game's options shown as TOML writes them. A label and a bot's params were still
    Python's: `label = '=x'`, `[[bots]] label 'x' is used twice` and `rejects params
    {'level': 5}` beside `name = ".x"` in the same file's refusals. They read `label =
    "=x"`, `label = "x" is used twice` and `rejects params = { level = 5 }` now (`arena
    check --params` alike)."""
    from arena.config import parse, refusal
    from arena.errors import ArenaError

    def refused(bots: list[dict[str, Any]]) -> str:
        config = {"tournament": {"game": "lost-explorers"}, "limits": {"isolation": "inprocess"},
                  "bots": bots}
        with pytest.raises(ArenaError) as refusal_line:
            parse(config, require_registry())
        return str(refusal_line.value)

    assert '[[bots]] entry 1: label = "=x": ' in refused(
        [{"name": "random", "label": "=x"}, {"name": "random"}])
    assert '[[bots]] entry 1: label = "\\u001b[2Jx": ' in refused(
        [{"name": "random", "label": "\x1b[2Jx"}, {"name": "random"}])
    assert '[[bots]] label = "x" is used twice' in refused(
        [{"name": "random", "label": "x"}, {"name": "random", "label": "x"}])
    assert refusal("fussy", {"level": 5, "style": "bold", "with-dash": True}, "ValueError") == (
        'bot \'fussy\' rejects params = { level = 5, style = "bold", "with-dash" = true }: '
        "ValueError")


def test_a_bot_that_faults_at_its_start_in_arena_play_is_said_with_its_error() -> None:
    """*Playing against the bots*: "a bot that requires one faults at its start, `error`"
    and "A bot whose seat faults is said at once, with its status and reason". The reason was
    the last 160 characters of the error's last line: `faulted, error:  not given: arena
    submit and arena play build the bot with none, ...`, without the exception nor the
    param's name. Its start is kept now."""
    from rich.console import Console

    from arena.play import Terminal
    from arena.seats.host import REQUIRED_PARAM

    console = Console(record=True, width=400, file=io.StringIO())
    error = ("Traceback (most recent call last):\n  ...\nTypeError: Needy.__init__() missing 1 "
             "required keyword-only argument: 'depth'" + REQUIRED_PARAM)
    Terminal(console, ["you", "needy"], 0).faulted(1, "error", error)
    said = console.export_text()
    assert said.startswith("seat 1 (needy) faulted, error: TypeError: Needy.__init__() missing "
                           "1 required keyword-only argument: 'depth' (the constructor"), said
    assert "give it a default); random moves play its seat from here" in said
    console = Console(record=True, width=1000, file=io.StringIO())
    Terminal(console, ["you", "talker"], 0).faulted(1, "error", "ValueError: " + "x" * 5000)
    longest = console.export_text().strip()
    assert longest.startswith("seat 1 (talker) faulted, error: ValueError: xxx")
    assert " ... " in longest and len(longest) < 600


def test_the_protocol_table_says_no_command_shows_a_bots_doc(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """*The bot host protocol*: the hello's `doc` was "what `arena bots` shows", and the
    author of the generated bot's docstring looked for it there: `arena bots` shows a bot's
    name, games and plugin, never its doc (the store keeps it in a stored bot's record). The
    row says so now."""
    from click.testing import CliRunner

    import arena.cli
    from arena.cli import main

    monkeypatch.setattr(arena.cli, "_discovered", require_registry)  # found in this process
    monkeypatch.setenv("ARENA_STORE", str(tmp_path / "store"))

    (row,) = [line for line in README.splitlines() if line.startswith('| host → arena, once |')]
    assert "what `arena bots` shows" not in row
    assert "the bot store keeps it in a stored bot's record; no command shows it" in row
    doc = require_registry().bot_info("greedy").doc
    assert doc
    listed = CliRunner(env={"COLUMNS": "300"}).invoke(main, ["bots"])
    assert listed.exit_code == 0, listed.output
    assert doc[:30] not in listed.output
