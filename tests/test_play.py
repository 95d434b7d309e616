"""``arena play``: a person against sandboxed bots, through a real pseudo-terminal, in every
game; options, seats and saving checked (issue 10)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.play import parse_options

ARENA = str(Path(sys.executable).with_name("arena"))
PROMPT = r"Your move, seat \d \(1-(\d+), q quits\): "
FINISHED = r"You finished in place (\d) of (\d)"

# (game, bots, seed, the scripted person's pick: the first, second or last action): cases
# that end after few decisions of the person (found by playing seeds in-process, the person
# picking the same way), so each match takes seconds.
MATCHES = [
    ("explorers-of-the-lost-valley", "random", 0, "last"),
    # Against greedy: with random bots the seed that ended quickly (132) took 80 s after the
    # rulings of the whole turn (9) and the secret path (24); none of 400 others ends within
    # 30 of the person's decisions. Here the person makes 6.
    ("lost-valley-of-the-dinosaurs", "greedy,greedy", 23, "last"),
    ("lost-explorers", "random,random,random", 37, "last"),
]
PICKS = {"first": lambda count: 1, "second": lambda count: 2, "last": lambda count: count}


def spawn(*arguments: str) -> object:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "COLUMNS": "120"}
    return pexpect.spawn(ARENA, list(arguments), dimensions=(60, 120), timeout=60,
                         encoding="utf-8", env=env)


@pytest.mark.parametrize(("game", "bots", "seed", "pick"), MATCHES)
def test_a_person_plays_a_whole_match_of_each_game_in_a_terminal(
    game: str, bots: str, seed: int, pick: str, tmp_path: Path
) -> None:
    import pexpect

    save = tmp_path / "played"
    child = spawn("play", game, "--against", bots, "--seed", str(seed), "--save", str(save))
    decisions = 0
    try:
        child.expect(f"you are seat 0; seed {seed}")
        child.expect("bots sandboxed")
        child.expect(PROMPT)
        # A wrong entry asks again; it never ends the match.
        for wrong in ("abc", "0", "999", "", "\u00b2"):  # ², which isdigit() passes
            child.sendline(wrong)
            child.expect("is not one of the actions: enter a number from 1 to")
            child.expect(PROMPT)
        while True:
            count = int(child.match.group(1))
            child.sendline(str(PICKS[pick](count)))
            decisions += 1
            if child.expect([PROMPT, FINISHED]) == 1:
                break
        place = int(child.match.group(1))
        child.expect(f"Saved as match play-0001 in {re.escape(str(save))}")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    record = json.loads((save / "matches.jsonl").read_text())
    names = bots.split(",")
    assert record["seats"] == ["you", *(f"{name}-{n}" if n > 1 else name
                                        for n, name in enumerate(names, start=1))]
    assert set(record["statuses"]) == {"ok"}
    assert record["ranking"][0] + 1 == place and decisions >= 1
    replayed = CliRunner().invoke(main, ["replay", str(save), "play-0001", "--print"])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[-1] == (
        "checked: the replay reproduces the recorded scores and ranking")


def test_the_person_sees_chance_and_the_bots_moves_and_can_leave(tmp_path: Path) -> None:
    import pexpect

    save = tmp_path / "left"
    child = spawn("play", "explorers-of-the-lost-valley", "--against", "random,random",
                  "--seat", "1", "--seed", "0", "--save", str(save))
    try:
        child.expect("seats: 0 random, 1 you, 2 random-2")
        child.expect("chance: seat \\d goes first")
        child.expect(PROMPT)
        child.sendline("q")
        child.expect("You left the match; nothing was saved.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0 and not (save / "matches.jsonl").exists()


def test_an_entry_int_cannot_read_is_asked_again_not_a_traceback() -> None:
    """``isdigit`` passed ``²`` and a number of 5,000 digits, and ``int`` refused both: the
    match ended with a ``ValueError`` traceback. Any decimal digits are a number (``٢`` is 2)."""
    from io import StringIO

    from rich.console import Console

    from arena.play import Terminal
    from arena.plugins import require_registry

    state = require_registry().game("explorers-of-the-lost-valley").new_initial_state(2)
    for outcome in (94, 45, 46, 47, 48, 49):  # seat 0 first; three set aside, a row of two
        state.apply_action(outcome)
    shown = StringIO()
    entries = iter(["\u00b2", "9" * 5000, "\u0662"])
    terminal = Terminal(Console(file=shown, width=100), ["you", "random"], 0,
                        read_line=lambda prompt: next(entries))
    assert terminal.ask(state, 0) == state.legal_actions()[1]
    refusals = [line for line in shown.getvalue().splitlines() if "is not one of" in line]
    assert len(refusals) == 2 and refusals[0].startswith("'\u00b2' is not one of the actions")


def test_options_come_as_json_or_toml() -> None:
    assert parse_options('{"coins": 2, "board": ""}') == {"coins": 2, "board": ""}
    assert parse_options("coins = 2") == {"coins": 2}
    assert parse_options("{ coins = 2, board = 'x' }") == {"coins": 2, "board": "x"}
    assert parse_options(None) == {}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["chess", "--against", "random"], "unknown game 'chess'"),
        (["lost-explorers", "--against", "randon"], "did you mean 'random'"),
        (["lost-explorers", "--against", "random", "--seat", "2"], "--seat 2: choose a seat"),
        (["lost-explorers", "--against", "random,random,random,random"], "2 to 4 players"),
        (["lost-valley-of-the-dinosaurs", "--against", "random", "--options", "coin = 2"],
         "unknown option 'coin'"),
        (["lost-valley-of-the-dinosaurs", "--against", "random", "--options", "coins = 0"],
         "option 'coins' must be from 1"),
        (["lost-explorers", "--against", "random", "--options", "{nope"], "neither a JSON"),
    ],
)
def test_mistakes_in_what_the_person_asks_for_are_one_line(arguments: list[str],
                                                           message: str) -> None:
    shown = CliRunner().invoke(main, ["play", *arguments], input="")
    assert shown.exit_code == 2, shown.output
    assert shown.output.startswith("arena: error: ") and message in shown.output
    assert len(shown.output.splitlines()) == 1


def test_a_save_folder_of_another_game_is_refused_before_the_match(tmp_path: Path) -> None:
    folder = tmp_path / "other"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"game": "lost-explorers", "options": {}}))
    shown = CliRunner().invoke(main, ["play", "lost-valley-of-the-dinosaurs", "--against",
                                      "random", "--save", str(folder)], input="")
    assert shown.exit_code == 2
    assert "it holds matches of lost-explorers" in shown.output


def test_a_save_folder_on_a_read_only_file_system_is_refused_before_the_match(
    tmp_path: Path,
) -> None:
    """``--save`` into a folder that cannot be written was taken: the person played the
    whole match, then met a traceback, and the match was lost."""
    import shutil
    import subprocess

    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap makes the read-only mount")
    mount = tmp_path / "mount"
    mount.mkdir()
    done = subprocess.run(
        ["bwrap", "--dev-bind", "/", "/", "--ro-bind", str(mount), str(mount), ARENA, "play",
         "tiny-race", "--against", "random", "--trusted", "--save", str(mount / "saved")],
        input="", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == (f"arena: error: results folder {mount / 'saved'} cannot be written: "
                           f"{mount} is on a read-only file system; choose another --save\n")
    assert "seed" not in done.stdout  # refused before the table was set


def test_options_a_game_raises_another_error_for_are_one_line(tmp_path: Path) -> None:
    """The contract asks for InvalidOptions; a game raising ValueError was a traceback."""
    shown = CliRunner().invoke(main, ["play", "tiny-race", "--against", "random", "--trusted",
                                      "--options", 'goal = "x"'], input="")
    assert shown.exit_code == 2, shown.output
    assert shown.output.startswith("arena: error: --options: tiny-race cannot start a game of "
                                   "2 with {'goal': 'x'}: ValueError: ")
    assert len(shown.output.splitlines()) == 1


def test_a_save_folder_of_a_tournament_is_refused_before_the_match(tmp_path: Path) -> None:
    """A match saved into a tournament's folder was rated with the tournament by
    ``arena leaderboard`` and left out by ``arena run --resume``; now that the leaderboard
    rates the plan's matches only, it would be left out of both."""
    folder = tmp_path / "tournament"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"game": "tiny-race", "options": {}}))
    shown = CliRunner().invoke(main, ["play", "tiny-race", "--against", "random", "--trusted",
                                      "--save", str(folder)], input="")
    assert shown.exit_code == 2, shown.output
    assert f"--save {folder}: it holds a tournament (arena run)" in shown.output
    assert not (folder / "matches.jsonl").exists()


def test_trusted_bots_play_in_this_process_and_saved_matches_add_up(tmp_path: Path) -> None:
    """--trusted: no sandbox; a second match saved to the same folder is appended."""
    save = tmp_path / "races"
    for seed in (1, 2):
        shown = CliRunner().invoke(main, ["play", "tiny-race", "--against", "random", "--trusted",
                                          "--seed", str(seed), "--save", str(save)],
                                   input="1\n" * 50)
        assert shown.exit_code == 0, shown.output
        assert "bots in this process (trusted)" in shown.stdout
        assert f"Saved as match play-000{seed}" in shown.stdout
    board = CliRunner().invoke(main, ["leaderboard", str(save), "--format", "json"])
    assert {row["bot"]: row["matches"] for row in json.loads(board.stdout)} == {"you": 2,
                                                                               "random": 2}


def test_a_bot_that_faults_is_said_when_it_does_not_only_at_the_end() -> None:
    """A bot that raised (or whose constructor wanted a param ``arena play`` cannot give) was
    played on by random moves and told only in the result: the person played a whole game
    against random moves thinking it was the bot."""
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(  # one line, whatever the terminal
        main, ["play", "tiny-race", "--against", "crasher", "--trusted", "--seed", "1"],
        input="1\n" * 200)
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    said = [n for n, line in enumerate(lines) if line.startswith("seat 1 (crasher) faulted")]
    assert len(said) == 1 and said[0] < lines.index("Result:")
    assert lines[said[0]] == ("seat 1 (crasher) faulted, error: RuntimeError: boom; random "
                              "moves play its seat from here, and it is ranked last")


def test_the_person_is_told_only_what_their_seat_may_see() -> None:
    """The terminal shows each action and the board through the per-seat view: in Lost
    Explorers another seat's clue tile is told without its number, and the board at the
    person's decision shows how many clues that seat holds, not which."""
    import io
    import random

    from arena_bot_greedy import GreedyBot
    from rich.console import Console

    from arena.game import CHANCE, State, drive
    from arena.play import Terminal
    from arena.plugins import registry
    from engines.lost_explorers import phases as P

    seen = io.StringIO()
    answers = iter(["1"] * 1000)
    terminal = Terminal(Console(file=seen, width=120), ["you", "greedy"], person=0,
                        read_line=lambda prompt: next(answers))
    bots = [GreedyBot(game="lost-explorers", seat=seat, num_players=2, seed=seat)
            for seat in (0, 1)]
    state: Any = registry().game("lost-explorers").new_initial_state(2)
    told: list[str] = []

    class Stop(Exception):
        pass

    def watch(current: Any) -> None:
        drawing = current.phase == P.CLUE_DRAW and current.player == 1
        if current.current_player() == CHANCE and drawing:
            terminal.told(current, CHANCE, current.chance_outcomes()[0][0])
            told.append(seen.getvalue())
        if told and current.current_player() == 0 and len(current.legal_actions()) > 1:
            terminal.ask(current, 0)
            raise Stop

    def decide(current: State, player: int) -> int:
        return int(bots[player].act(current.observation(player), current.legal_actions()))

    with pytest.raises(Stop):
        drive(state, decide, random.Random(3), watch=watch)
    assert told[0].endswith("chance: seat 1 takes a clue tile (its number is hidden)\n")
    assert "clues 1 (numbers hidden)" in seen.getvalue()


def test_a_saved_match_of_a_game_whose_draw_probability_trueskill_cannot_use_rates_as_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game author's draw_probability = 0.0 ('it never ties') was saved as it was by
    --save; arena leaderboard then warned that none was saved or installed. The folder now
    holds what arena run would rate with, and its table comes without a warning."""
    from arena_testgame import TinyRace

    from arena.ratings import DRAW_PROBABILITY

    monkeypatch.setattr(TinyRace, "draw_probability", 0.0)
    save = tmp_path / "races"
    shown = CliRunner().invoke(main, ["play", "tiny-race", "--against", "random", "--trusted",
                                      "--seed", "1", "--save", str(save)], input="1\n" * 50)
    assert shown.exit_code == 0, shown.output
    saved = json.loads((save / "config.json").read_text())
    assert saved["ratings"] == {"draw_probability": DRAW_PROBABILITY}
    board = CliRunner().invoke(main, ["leaderboard", str(save)])
    assert board.exit_code == 0 and "warning" not in board.output, board.output
