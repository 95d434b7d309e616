"""Red team, round 19: attacks on the sandbox, the referee and what the terminal shows,
played for real (bot hosts in bubblewrap and in the fallback, real runs)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path

import pytest
from helpers import spec

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.seats import cgroups
from arena.seats.process import POOL, HostProcess


def duel(bot: SeatSpec, sandbox: str, seed: int = 7, **limits: float) -> MatchResult:
    """``bot`` in seat 0 against ``random`` on the tiny test race."""
    chosen = Limits(isolation="process", sandbox=sandbox,  # type: ignore[arg-type]
                    move_seconds=5.0, bank_seconds=0.0, startup_seconds=10.0, **limits)
    return play_match(spec(bot, "random", limits=chosen, seed=seed))


@pytest.fixture
def sweeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Hosts in bubblewrap without a control group (a user the machine gives none: the
    sandbox's tree is swept, not a group); how many processes each sweep killed."""
    killed: list[int] = []
    real = HostProcess.end_strays

    def counted(self: HostProcess, spare: Collection[int] = ()) -> int:
        killed.append(real(self, spare))
        return killed[-1]

    monkeypatch.setattr(cgroups, "create", lambda *args, **kwargs: None)
    monkeypatch.setattr(HostProcess, "end_strays", counted)
    POOL.close()
    yield killed
    POOL.close()


def test_zombies_a_host_leaves_do_not_make_the_sweep_look_again(sweeps: list[int]) -> None:
    """Inside bubblewrap without a control group, the sweep lists the sandbox's tree, where
    the children of a host that it never waits for stay, zombies (the host is stopped
    between its turns: it reaps nothing). A kill does nothing to a zombie, so the sweep
    looked again and killed it again, all 200 times: the red team's bot left 40 in its
    ``close()``, and the match's last stop, after its ``done``, made 8,000 kills, 0.15 s of
    the referee's CPU on nobody's clock (each decision after, in a host the pool kept, did
    the same on the bot's). A zombie is left alone now."""
    result = duel(SeatSpec("z", "zoo-zombie", {"when": "close", "count": 40}), "required")
    assert result.statuses == ("ok", "ok"), result.errors
    assert sweeps and max(sweeps) == 0, sweeps


def test_a_process_whose_first_thread_has_exited_is_still_swept(sweeps: list[int]) -> None:
    """Held: a child whose first thread has exited shows as a zombie while its other threads
    run on (spinning, after its bot's answer); the sweep still kills it."""
    result = duel(SeatSpec("z", "zoo-zombie", {"when": "leader"}), "required")
    assert result.statuses == ("ok", "ok"), result.errors
    assert sum(1 for count in sweeps if count) >= 3, sweeps


@pytest.mark.parametrize("sandbox", ["required", "fallback"])
def test_a_sandboxed_bot_answering_an_int_too_long_to_write_is_illegal(sandbox: str) -> None:
    """A sandboxed bot answering ``10**5000`` (an int past the 4,300 digits Python writes as
    text) ended ``error``: its host could not write the answer in JSON and sent an error
    instead. The same bot in-process is ``illegal``, as any answer that is no legal action.
    The host now says what it was, and the seat is ``illegal`` in both."""
    POOL.close()
    try:
        result = duel(SeatSpec("j", "zoo-junk", {"kind": "hugest"}), sandbox)
    finally:
        POOL.close()
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0), result.errors
    assert "an int of 16610 bits" in str(result.errors[0])


def test_a_sandbox_reads_nothing_of_the_base_pythons_packages() -> None:
    """A bubblewrap host binds the base Python installation whole (its standard library is
    there), and with it that installation's ``site-packages``, which the arena's virtualenv
    does not import from: what ``pip install`` put there with the base Python's pip (a bot
    installed there by mistake, another project's code) is no distribution of the arena's
    path, so none of it was hidden, and the zoo's snoop read it in its match. The base's
    ``site-packages`` lists nothing in a host of a virtualenv made without it."""
    import site
    import sys

    if sys.prefix == sys.base_prefix:
        pytest.skip("the arena runs on its base Python: its packages are the arena's own")
    folders = [Path(entry) for entry in site.getsitepackages([sys.base_prefix])]
    files = [path for folder in folders if folder.is_dir()
             for path in sorted(folder.glob("*/__init__.py"))[:1]]
    if not files:
        pytest.skip("the base Python has no package installed to read")
    POOL.close()
    try:
        result = duel(SeatSpec("snoop", "zoo-snoop", {"secret_file": str(files[0])}),
                      "required")
    finally:
        POOL.close()
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SNOOPED" in result.outputs[0]
    found = [line for line in result.outputs[0].splitlines() if line.startswith("FOUND:")]
    assert found == [], found


def test_a_bots_start_up_time_is_one_budget_for_its_import_and_its_constructor() -> None:
    """``startup_seconds`` is the time a sandboxed bot has to start, its import and its
    constructor (the README's config says so), but a new host had it twice: once for its
    hello (the import), then once more for its ``start`` (the constructor). The zoo's bot
    took 2.5 s to import and 2.5 s to construct under ``startup_seconds = 4``, and played,
    its opponents waiting 5 s. It times out now."""
    POOL.close()
    chosen = Limits(isolation="process", sandbox="required", move_seconds=5.0,
                    bank_seconds=0.0, startup_seconds=4.0)
    try:
        result = play_match(spec(SeatSpec("s", "zoo-slow-import"), "random", limits=chosen))
    finally:
        POOL.close()
    assert result.statuses == ("timeout", "ok"), result.errors
    assert "start-up" in str(result.errors[0])


def test_a_replay_shows_a_records_game_without_its_terminal_codes(tmp_path: Path) -> None:
    """A results folder may come from anyone, and ``arena replay`` printed the record's
    ``game`` as it was: the red team's ``matches.jsonl``, edited by hand, said its game with
    an OSC code that set the terminal's title (one that writes the clipboard would do as
    well, where a terminal allows it) and a CSI code that cleared the screen. It is shown as
    plain text now, as every other part of a record."""
    import json

    from click.testing import CliRunner

    from arena.cli import main
    from arena.plugins import registry

    game = "explorers-of-the-lost-valley"
    played = play_match(spec("random", "greedy", game=game, seed=3,
                             limits=Limits(isolation="inprocess")))
    record = played.to_json()
    record["game"] = f"{game}\x1b]0;PWNED\x07\x1b[2J\x9b31m"
    (tmp_path / "config.json").write_text(json.dumps(
        {"name": "r", "game": game, "options": {}, "game_plugin": registry().games[game].module}))
    (tmp_path / "matches.jsonl").write_text(json.dumps(record) + "\n")
    shown = CliRunner().invoke(main, ["replay", str(tmp_path), played.id, "--print"])
    assert shown.exit_code == 0, shown.output
    assert f"match {played.id}: {game}, " in shown.output
    assert not any(code in shown.output for code in ("\x1b", "\x07", "\x9b")), shown.output[:300]


def test_a_leaderboards_history_shows_the_runs_name_without_its_terminal_codes(
    tmp_path: Path,
) -> None:
    """``arena leaderboard --history`` titled its chart with the run's name and game from
    ``config.json`` as they were (the table's title was plain text already): a results
    folder edited by hand set the terminal's title."""
    import json

    from click.testing import CliRunner

    from arena.cli import main

    played = play_match(spec("random", "greedy", game="explorers-of-the-lost-valley", seed=3,
                             limits=Limits(isolation="inprocess")))
    (tmp_path / "config.json").write_text(json.dumps(
        {"name": "run\x1b]0;PWNED\x07", "game": "explorers-of-the-lost-valley\x1b[2J",
         "ratings": {"draw_probability": 0.1}}))
    (tmp_path / "matches.jsonl").write_text(json.dumps(played.to_json()) + "\n")
    shown = CliRunner().invoke(main, ["leaderboard", str(tmp_path), "--history"])
    assert shown.exit_code == 0, shown.output
    assert "run: explorers-of-the-lost-valley: conservative rating" in shown.output
    assert not any(code in shown.output for code in ("\x1b", "\x07")), shown.output[:300]


def test_a_sandboxs_mounts_name_no_file_of_the_arenas_installation() -> None:
    """What a bubblewrap host reads in ``/proc/self/mountinfo`` names the source of each of
    its mounts: the arena bound its own empty file (``arena/seats/empty``) over each entry of
    ``/proc`` it hides and each file of another bot, so a stored bot, which runs on a copy
    of the arena's runtime in its own environment (in the store), read where the organiser
    keeps the arena 40 times over. The files it hides are now bubblewrap's own, made empty
    from a descriptor: their source names nothing of the machine."""
    from arena.seats.sandbox import EMPTY_FILE

    POOL.close()
    try:
        result = duel(SeatSpec("snoop", "zoo-snoop", {"mounts": True}), "required")
    finally:
        POOL.close()
    assert result.statuses == ("ok", "ok"), result.errors
    mounts = [line for line in result.outputs[0].splitlines() if line.startswith("MOUNT ")]
    assert any(" /proc/" in line for line in mounts), mounts  # the hidden entries of /proc
    assert not [line for line in mounts if str(EMPTY_FILE) in line], mounts


def test_a_leaderboard_takes_no_ratings_from_a_checkpoint_it_did_not_seal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run folder's ``ratings-checkpoint.json`` holds the ratings after its matches, so
    that a reader rates only what came after; its digest covered the matches, not the
    ratings. The red team edited the ratings of a real run's checkpoint by hand: ``arena
    leaderboard`` put ``random`` first (85.8 for greedy's 31), while every match replayed
    and checked as recorded. A checkpoint is now sealed with a key of the user's own, and
    one that key did not seal is rated again (and one it sealed is still used)."""
    import json

    from click.testing import CliRunner

    from arena.cli import main
    from arena.ledger import CHECKPOINT, rate_run, read_run

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    run = tmp_path / "run"
    run.mkdir()
    lines = []
    for seed in (3, 4):
        played = play_match(spec("greedy", "random", game="explorers-of-the-lost-valley",
                                 seed=seed, limits=Limits(isolation="inprocess"),
                                 match_id=f"r001-t00000{seed}-s001"))
        lines.append(json.dumps(played.to_json()) + "\n")
    (run / "matches.jsonl").write_text("".join(lines))
    (run / "config.json").write_text(json.dumps(
        {"name": "run", "game": "explorers-of-the-lost-valley",
         "ratings": {"draw_probability": 0.1}}))
    first = CliRunner().invoke(main, ["leaderboard", str(run), "--format", "json"])
    assert first.exit_code == 0, first.output
    honest = json.loads(first.stdout)
    ledger = read_run(run / "matches.jsonl").ledger
    checkpoint = json.loads((run / CHECKPOINT).read_text())
    assert rate_run(ledger, checkpoint["draw_probability"], run)[1] == 2  # sealed: used
    tallies = checkpoint["ratings"]["tallies"]
    for label, tally in tallies.items():  # the last first (tau: mean times precision)
        tally[1] = 2.0 if label == honest[-1]["bot"] else 0.1
    (run / CHECKPOINT).write_text(json.dumps(checkpoint))
    shown = CliRunner().invoke(main, ["leaderboard", str(run), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout) == honest


def test_a_plot_shows_a_runs_name_as_it_is_not_as_math(tmp_path: Path) -> None:
    """``--plot`` titles its chart with the run's name from ``config.json``, and matplotlib
    reads what stands between two ``$`` as math: a results folder edited by hand, whose name
    was ``x$\\frac{$``, ended ``arena leaderboard --plot`` in a traceback. A ``$`` is shown
    as it is now."""
    import json

    from click.testing import CliRunner

    from arena.cli import main

    played = play_match(spec("random", "greedy", game="explorers-of-the-lost-valley", seed=3,
                             limits=Limits(isolation="inprocess")))
    (tmp_path / "config.json").write_text(json.dumps(
        {"name": "x$\\frac{$ $\\nosuchcommand$", "game": "explorers-of-the-lost-valley",
         "ratings": {"draw_probability": 0.1}}))
    (tmp_path / "matches.jsonl").write_text(json.dumps(played.to_json()) + "\n")
    picture = tmp_path / "chart.svg"
    shown = CliRunner().invoke(main, ["leaderboard", str(tmp_path), "--plot", str(picture)])
    assert shown.exit_code == 0, shown.output
    assert picture.stat().st_size > 0
