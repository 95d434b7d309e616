"""``arena check BOT``: a bot played as a tournament would seat it, with no Ray."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

RUN_CHECK = """
import sys
from pathlib import Path
from arena.cli import main
try:
    code = main(sys.argv[1:], standalone_mode=False) or 0
except SystemExit as exc:
    code = exc.code
print("ray imported:", "ray" in sys.modules)
sys.exit(code)
"""


def check(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "160"}
    return subprocess.run([sys.executable, "-c", RUN_CHECK, "check", *args],
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def test_a_healthy_bot_passes_and_the_protections_are_named() -> None:
    done = check("random", "--game", "tiny-race")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "random: all checks passed" in done.stdout
    assert "protection: bubblewrap" in done.stdout
    assert ("protection: no file locks, inotify, keyrings, io_uring, Linux AIO, perf events, "
            "Internet sockets or descriptor passing" in " ".join(done.stdout.split()))
    assert "ray imported: False" in done.stdout
    assert "tiny-race: ok" in done.stdout


def test_a_faulty_bot_fails_with_its_error_and_where_it_was_raised() -> None:
    done = check("crasher", "--game", "tiny-race")
    assert done.returncode == 1
    assert "tiny-race: FAULTS" in done.stdout
    assert "arena_testbots.py\", line" in done.stdout and "RuntimeError: boom" in done.stdout


def test_each_row_and_fault_names_its_match_by_a_number_that_fits_any_terminal() -> None:
    # The whole id, check-<game>-<number>, was cut to "check-…" at 80 columns, in every row.
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-c", RUN_CHECK, "check", "crasher", "--game",
                           "tiny-race"], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert "check-" not in done.stdout and "│ 0 " in done.stdout
    assert "\nmatch 0: error:" in done.stdout
    # A protection is one line, however narrow: the terminal wraps it, a log keeps it whole
    # (rich's wrap left the last word alone at the start of the next line).
    line = next(line for line in done.stdout.splitlines() if "protection: bubblewrap" in line)
    assert line.endswith("no pseudo-terminals")


def test_a_bot_is_checked_at_the_fullest_table_and_with_each_option_turned_on() -> None:
    """A bot that breaks only at a full table fails its check, not its tournament: each game
    is played with its fewest and its most players, and with each option that is off by
    default turned on (Explorers' advanced game)."""
    from arena.check import check as check_bot
    from arena.plugins import discover
    from arena.records import Limits

    (report,) = check_bot("crowd-shy", discover(), Limits(sandbox="fallback"),
                          games=["tiny-race"], seed=1)
    assert {seat.table: seat.status for seat in report.seats} == {
        "2 seats": "ok", "4 seats": "error"}
    assert all("4 players is a crowd" in (seat.error or "") for seat in report.seats
               if seat.table == "4 seats")
    done = check("crowd-shy", "--game", "tiny-race")
    assert done.returncode == 1 and "4 seats" in done.stdout and "is a crowd" in done.stdout
    (explorers,) = check_bot("random", discover(), Limits(sandbox="fallback"),
                             games=["explorers-of-the-lost-valley"], seed=1)
    assert explorers.ok
    assert sorted({seat.table for seat in explorers.seats}) == [
        "2 seats", "2 seats, advanced", "4 seats"]


def test_the_fallback_says_the_filesystem_is_not_hidden() -> None:
    done = check("zoo-chatty", "--game", "tiny-race", "--sandbox", "fallback")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the filesystem is NOT hidden" in done.stdout


def test_params_are_checked_where_the_bot_runs_before_any_match() -> None:
    done = check("zoo-fussy", "--game", "tiny-race", "--params", '{"level": 9}')
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--params: bot 'zoo-fussy' rejects params = { level = 9 }" in done.stderr
    assert "level must be 1, 2 or 3, not 9" in done.stderr
    assert "tiny-race:" not in done.stdout  # refused before any match, as arena run does
    done = check("zoo-fussy", "--game", "tiny-race", "--params", "level = 2")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_bot_whose_constructor_requires_a_param_is_one_line_before_any_match() -> None:
    """Given no --params, a bot whose constructor requires one played every match of the
    check to the same error (a table of errors, status 1); ``arena run`` says it once."""
    done = check("zoo-needy", "--game", "tiny-race")
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("arena: error: bot 'zoo-needy' fails to start (with no params): "
                           "TypeError: ")
    assert "required keyword-only argument: 'depth'" in line
    assert "tiny-race:" not in done.stdout
    done = check("zoo-needy", "--game", "tiny-race", "--params", "depth = 2")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_hard_file_size_limit_below_the_hosts_is_kept_not_fatal() -> None:
    """Under ``ulimit -f 4`` (soft and hard) every bot host exited with code 1 (it could not
    raise the limit to its own 16 MiB), so every plugin "failed" and nothing could run: a
    host now keeps the lower limit it was given."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024 * 1024, 1024 * 1024))

    env = {**os.environ, "COLUMNS": "160"}
    done = subprocess.run([sys.executable, "-c", RUN_CHECK, "check", "random", "--game",
                           "tiny-race"], capture_output=True, text=True, env=env, timeout=120,
                          check=False, preexec_fn=limited)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "random: all checks passed" in done.stdout


def test_a_mistyped_param_or_unreadable_params_are_one_line() -> None:
    done = check("greedy", "--game", "lost-explorers", "--params", '{"rsk": 0.2}')
    assert done.returncode == 2
    assert "unknown param 'rsk'; did you mean 'risk'?" in done.stderr
    done = check("greedy", "--game", "lost-explorers", "--params", "{risk: 0.2}")
    assert done.returncode == 2
    assert "--params '{risk: 0.2}': neither a JSON object nor TOML" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_game_the_bot_does_not_play_is_refused_as_arena_run_refuses_it() -> None:
    """``arena check greedy --game tiny-race`` played greedy in a game it does not declare,
    and showed the faults of a bot that was never meant to play it."""
    done = check("greedy", "--game", "tiny-race")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--game tiny-race: bot 'greedy' does not play it (it plays " in done.stderr
    assert "tiny-race: FAULTS" not in done.stdout
    assert "Checking bot" not in done.stdout  # one line, as every mistake: nothing before it
    done = check("greedy", "--game", "tiny-rice")
    assert done.returncode == 2
    assert "unknown game 'tiny-rice'; did you mean 'tiny-race'" in done.stderr


def test_a_bot_that_plays_no_installed_game_is_told_which_game_it_may_have_meant() -> None:
    # It said only "plays none of the installed games", with a bot whose `games` held
    # "lost-explorer" for "lost-explorers".
    done = check("picky")
    assert done.returncode == 2
    assert ("bot 'picky' plays none of the installed games (" in done.stderr
            and "): its games are 'no-such-game', 'tiny-rase' (did you mean 'tiny-race'?)\n"
            in done.stderr)


def test_an_unknown_bot_is_one_clear_line() -> None:
    done = check("no-such-bot")
    assert done.returncode == 2
    assert "unknown bot 'no-such-bot'" in done.stderr


def test_what_a_faulty_bot_wrote_is_shown_without_its_terminal_codes_or_markup() -> None:
    done = check("zoo-forger", "--game", "tiny-race", "--params", '{"mode": "ansi"}')
    assert done.returncode == 1
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "boom [bold]styled[/]" in done.stdout  # shown as text, not as markup
    assert "[green]ALL CHECKS PASSED[/]" in done.stdout


def test_a_check_seeds_its_bots_as_a_tournament_would_and_says_how_to_repeat_it() -> None:
    """Fixed seeds (100, 101, ...) let a hostile bot tell a check from a tournament and
    behave only while checked; a check now draws its seed and derives 63-bit bot seeds."""
    import re

    from arena.check import check as check_bot
    from arena.plugins import discover
    from arena.records import Limits

    def seeds(seed: int | None) -> set[int]:
        reports = check_bot("zoo-chatty", discover(), Limits(sandbox="fallback"),
                            games=["tiny-race"], seed=seed)
        return {int(found) for report in reports for seat in report.seats
                for found in re.findall(r"seeded (\d+)", seat.output)}

    first, second = seeds(None), seeds(None)
    assert first and second and first.isdisjoint(second)
    assert all(seed >= 1 << 32 for seed in first | second)
    assert seeds(5) == seeds(5)
    done = check("zoo-chatty", "--game", "tiny-race", "--seed", "5")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "seed: 5 (--seed 5 plays these matches again)" in done.stdout


def test_a_plugin_named_with_markup_and_terminal_codes_is_shown_as_plain_text(
    tmp_path: Path,
) -> None:
    """Red team round 9: a package's entry point named "x[/]" and a title-setting escape:
    arena check raised rich's MarkupError on its first line (the plugin's name), and its
    terminal codes reached the terminal wherever that name was printed."""
    info = tmp_path / "arena_hostile_name-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-hostile-name\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[arena]\nx[/]\x1b]0;PWNED\x07\x1b[2J = arena_hostile_name\n")
    (tmp_path / "arena_hostile_name.py").write_text(
        "import arena\nfrom arena.bot import Bot\n\n\n"
        "class Named(Bot):\n    name = 'hostile-name'\n\n"
        "    def act(self, observation, legal_actions):\n        return legal_actions[0]\n\n\n"
        "@arena.hookimpl\ndef arena_register_bots(register):\n    register(Named)\n")
    env = {**os.environ, "COLUMNS": "160",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ["PYTHONPATH"]])}
    done = subprocess.run([sys.executable, "-c", RUN_CHECK, "check", "hostile-name", "--game",
                           "tiny-race"], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(plugin arena-hostile-name 0.1:x[/])" in done.stdout
    assert "\x1b" not in done.stdout + done.stderr and "PWNED" not in done.stdout
