"""Red team, round 14: attacks on the sandbox that earlier rounds left open, played for real
(bot hosts in bubblewrap and in the fallback, and ``arena run`` on Ray)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import spec, started_here

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.seats import cgroups
from arena.seats.process import POOL
from arena.seats.protocol import MAX_ANSWER


def duel(bot: SeatSpec, sandbox: str) -> MatchResult:
    """``bot`` in seat 0 against ``random`` in seat 1, on the tiny test race."""
    limits = Limits(isolation="process", sandbox=sandbox, memory_mb=512, move_seconds=1.0,  # type: ignore[arg-type]
                    bank_seconds=1.0, startup_seconds=10.0)
    return play_match(spec(bot, "random", limits=limits))


def padded(answers: str) -> SeatSpec:
    return SeatSpec("padded", "zoo-padded", {"answers": answers})


@pytest.mark.parametrize(("answers", "during"), [("ready", "start-up"), ("action", "a decision")])
def test_an_answer_padded_to_megabytes_is_illegal_not_decoded(
    sandbox: str, answers: str, during: str
) -> None:
    """A host that said each legal answer in 4 MiB (the answer and 1.4 million empty objects
    under a key of its own) played on ``ok``, while the referee decoded every line whole:
    110 MB more of its peak memory and 1.1 s more of its CPU in a match of 14 actions. An
    answer to a request is a few dozen bytes: past ``MAX_ANSWER`` it is refused undecoded."""
    result = duel(padded(answers), sandbox)
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0), result.errors
    assert f"longer than {MAX_ANSWER} bytes during {during}" in str(result.errors[0])


def test_a_padded_end_of_match_answer_loses_the_host_not_the_match(sandbox: str) -> None:
    """The end of a match is answered after the match is over: a padded ``done`` is not
    decoded, its host is killed rather than kept, and the match stands as played."""
    result = duel(padded("done"), sandbox)
    assert result.statuses == ("ok", "ok"), result.errors
    assert not [key for key in POOL.idle if "zoo-padded" in key]


def test_the_longest_error_a_host_sends_fits_in_an_answer(sandbox: str) -> None:
    """The bound leaves room for what an honest host sends: its longest error, 4,000
    characters of the bot's exception, each escaped to 12 bytes, is still ``error``."""
    result = duel(padded("raise"), sandbox)
    assert result.statuses == ("error", "ok"), result.errors
    assert "\U0001F995" * 100 in str(result.errors[0])


def test_a_padded_bot_is_recorded_illegal_in_a_tournament(tmp_path: Path) -> None:
    """``arena run`` on Ray: every match of the padded bot is recorded, each its fault."""
    config = tmp_path / "padded.toml"
    config.write_text(
        '[tournament]\nname = "padded"\ngame = "tiny-race"\nplayers = 2\nrounds = 1\n'
        'seed = 5\nseating = "rotations"\n\n[[bots]]\nname = "zoo-padded"\n\n'
        '[[bots]]\nname = "random"\n\n[[bots]]\nname = "random"\nlabel = "random-2"\n\n'
        '[limits]\nmove_seconds = 1.0\nbank_seconds = 1.0\nmemory_mb = 512\n'
        'sandbox = "required"\n')
    out = tmp_path / "run"
    env = {**os.environ, "COLUMNS": "160"}
    env.pop("RAY_ADDRESS", None)
    done = subprocess.run([str(Path(sys.executable).parent / "arena"), "run", str(config),
                           "--out", str(out), "--workers", "2"],
                          capture_output=True, text=True, env=env, timeout=400, check=False)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (out / "matches.jsonl").read_text().splitlines()]
    assert len(records) == 6
    for record in records:
        statuses = dict(zip(record["seats"], record["statuses"], strict=True))
        if "zoo-padded" in statuses:
            assert statuses == {**statuses, "zoo-padded": "illegal"}
            assert all(status == "ok" for label, status in statuses.items()
                       if label != "zoo-padded")
        else:
            assert set(statuses.values()) == {"ok"}


def counters_hear(channel: str, sandbox: str) -> MatchResult:
    """Two seats of ``zoo-counter`` trying ``channel`` under ``sandbox``."""
    seats = [SeatSpec(label, "zoo-counter", {"channel": channel}) for label in "ab"]
    limits = Limits(isolation="process", sandbox=sandbox, memory_mb=512, move_seconds=1.0,  # type: ignore[arg-type]
                    bank_seconds=1.0, startup_seconds=10.0)
    return play_match(spec(*seats, limits=limits))


def test_two_seats_cannot_count_each_others_eventfds(sandbox: str) -> None:
    """Each eventfd gets the lowest number free on the whole machine, which
    ``/proc/self/fdinfo`` shows: one seat held some while it was stopped and the other read
    how many from the number of a new one (the red team's pair said a number up to 37 a turn
    and heard it right 60 turns in 60). The seccomp filter answers ``eventfd`` as absent."""
    result = counters_hear("eventfds", sandbox)
    assert result.statuses == ("ok", "ok"), result.errors
    assert not [output for output in result.outputs if "HEARD" in output], result.outputs
    assert all("REFUSED" in output for output in result.outputs), result.outputs


@pytest.mark.parametrize("mode", ["required", "fallback", "fallback without a group"])
def test_a_host_that_hands_itself_to_a_child_crashes(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host that forked as its plugin was imported and exited, leaving the child to answer
    for it, was never stopped in the fallback without a control group: a thread of it spun
    through the whole match (2.08 s of 2.08), and its seat ended ``timeout`` only because
    each answer waited the 2 s the referee gives a host to stop. Bubblewrap ends the sandbox
    with its first process, and a control group's sweep took the child; now the referee
    finds the host it started gone, at its first answer, in every mode: a crash."""
    POOL.close()
    if mode == "fallback without a group":
        monkeypatch.setattr(cgroups, "create", lambda *args, **kwargs: None)
    result = duel(SeatSpec("orphan", "zoo-orphan"), mode.split()[0])
    POOL.close()
    assert result.statuses == ("crash", "ok") and result.ranking == (1, 0), result.errors
    assert "exited with code 0" in str(result.errors[0])
    assert "SPUN" not in result.outputs[0]  # it never got to play a turn
    assert not [entry for entry in Path("/proc").iterdir() if entry.name.isdigit()
                and _cmdline(entry).count(b"--bot=zoo-orphan") and started_here(_cmdline(entry))]


def _cmdline(entry: Path) -> bytes:
    try:
        return (entry / "cmdline").read_bytes()
    except OSError:
        return b""
