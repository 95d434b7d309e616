"""Red team, round 18: attacks on the sandbox and the referee that earlier rounds left open,
played for real (bot hosts in bubblewrap and in the fallback)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import spec

from arena.match import play_match
from arena.records import Limits, MatchResult, SeatSpec
from arena.seats.process import POOL, HostProcess


def duel(bot: SeatSpec, sandbox: str, seed: int = 7, **limits: float) -> MatchResult:
    """``bot`` in seat 0 against ``random`` on the tiny test race."""
    chosen = Limits(isolation="process", sandbox=sandbox,  # type: ignore[arg-type]
                    move_seconds=5.0, bank_seconds=0.0, startup_seconds=10.0, **limits)
    return play_match(spec(bot, "random", limits=chosen, seed=seed))


def idle_hosts(bot: str) -> list[HostProcess]:
    return [host for key, hosts in POOL.idle.items() if bot in key for host in hosts]


@pytest.mark.parametrize("params", [{"heavy": 150}, {"when": "group"}])
def test_a_host_cannot_wake_itself_in_the_pool_after_its_match(
    sandbox: str, params: dict[str, object],
) -> None:
    """A host is stopped after its ``done`` and waits so in the pool for its next match. The
    red team's bot, in its ``close()``, started a spinning thread and a child whose end sends
    the host ``SIGCONT`` (``clone``'s exit signal) holding 150 MiB: the child exited once
    the host was stopped, the sweep counted it and stopped the host again, but the child was
    still freeing its memory, and its ``SIGCONT`` came after that stop. The host then ran in
    the pool, between matches it played no part in (0.2 to 0.46 s of CPU a second, in
    bubblewrap and in the fallback), until its next match found it out (``illegal``) or for
    good. The stop after a sweep now waits for the processes swept to have ended.

    The same host with ``when = "group"`` leaves its process group to be orphaned once it is
    stopped (a child in a group of its own whose child joins the host's, and exits once the
    host has stopped: the kernel sends an orphaned group with a stopped member ``SIGCONT``),
    end to end: that held before (the sweep killed the child first, and its stop came after
    the ``SIGCONT``), and holds."""
    first = duel(SeatSpec("l", "zoo-lingerer", params), sandbox)
    assert first.statuses == ("ok", "ok"), first.errors
    assert "CHILD" in first.outputs[0] or "GROUP" in first.outputs[0], first.outputs[0]
    (host,) = idle_hosts("zoo-lingerer")
    before = host.cpu_used()
    time.sleep(0.5)
    assert host.cpu_used() - before < 0.02
    second = duel(SeatSpec("l", "zoo-lingerer", params), sandbox, seed=8)
    assert second.statuses == ("ok", "ok"), second.errors


def test_a_host_the_stop_cannot_hold_at_once_is_not_woken_by_the_sweep(sandbox: str) -> None:
    """A thread waiting in ``vfork`` takes no stop until its child execs or ends; the red
    team's host, at the end of each match (its ``close()``), left one waiting on a child
    blocked before its ``exec``, a child whose end sends the host ``SIGCONT`` (``clone``'s
    exit signal), and a spinning thread. The stop after ``done`` waited 50 ms for the host to
    stop, then the sweep killed both children and the second child's end woke the host,
    which then ran for the whole of the 2 s the referee waits for a host stopping late:
    0.8 s of CPU a match, after its match was over, on nobody's clock, and 2 s of the
    worker's. The stop is now sent again once the processes the sweep killed have ended,
    before that wait."""
    duel(SeatSpec("r", "random"), sandbox)  # the plugins listed
    outputs = []
    for seed in (7, 8, 9):
        began = time.perf_counter()
        result = duel(SeatSpec("l", "zoo-lingerer", {"when": "vfork"}), sandbox, seed=seed)
        assert result.statuses == ("ok", "ok"), result.errors
        # Not a timing of the match (a loaded machine took 2.6 s): the spun CPU below is
        # what a woken host costs; this only bounds the worker's wait of 2 s a match.
        assert time.perf_counter() - began < 6.0, (seed, time.perf_counter() - began)
        outputs.append(result.outputs[0])
    spun = float(outputs[-1].split("SPUN ", 1)[1].split()[0])
    assert spun < 0.3, outputs


@pytest.fixture
def strangers_library() -> Iterator[str]:
    """A bot distribution installed in the arena's environment as ``pip install ./bot`` puts
    one, whose code is in a library of its author's that it requires (a distribution that
    registers no plugin), holding a secret; the library's name. Removed afterwards."""
    import sysconfig

    from arena.seats import foreign

    site = Path(sysconfig.get_paths()["purelib"])
    tag = os.getpid()
    brain, bot = f"arena_zoo_brain_{tag}", f"arena_zoo_shell_{tag}"
    made: list[Path] = []

    def install(name: str, files: dict[str, str], extra: str) -> None:
        metadata = site / f"{name}-0.1.dist-info"
        made.append(metadata)
        metadata.mkdir()
        for path, text in files.items():
            made.append(site / path.split("/")[0])
            (site / path).parent.mkdir(parents=True, exist_ok=True)
            (site / path).write_text(text)
        (metadata / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n{extra}")
        (metadata / "RECORD").write_text("".join(f"{path},,\n" for path in files))

    try:
        install(brain, {f"{brain}/__init__.py": 'STRATEGY = "always bluff on 7"\n'}, "")
        install(bot, {f"{bot}/__init__.py": "", f"{bot}/plugin.py": ""},
                f"Requires-Dist: {brain}\n")
        (site / f"{bot}-0.1.dist-info" / "entry_points.txt").write_text(
            f"[arena]\nshell = {bot}.plugin\n")
        for cached in (foreign.foreign_files, foreign._providers, foreign._requirements):
            cached.cache_clear()
        yield brain
    finally:
        for path in made:
            shutil.rmtree(path, ignore_errors=True)
        for cached in (foreign.foreign_files, foreign._providers, foreign._requirements):
            cached.cache_clear()


def test_a_sandbox_reads_nothing_of_the_library_another_bot_requires(
    strangers_library: str,
) -> None:
    """Another plugin's distribution installed in the arena's environment is hidden from a
    bubblewrap host (its files read empty), but not what it requires: a bot whose author
    kept its code in a library of its own (a distribution that registers no plugin) had it
    read by every other bot's host (the zoo's snoop printed its secret strategy's file). The
    distributions another plugin requires are hidden too, but those the host's own bot
    requires and those the arena requires (which every host imports)."""
    from arena.seats import foreign

    result = duel(SeatSpec("snoop", "zoo-snoop", {"peek": True}), "required")
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SNOOPED" in result.outputs[0]
    found = [line for line in result.outputs[0].splitlines() if line.startswith("FOUND:")]
    assert found == [], found
    roots = tuple(path.resolve() for path in foreign.environment_roots(None))
    hidden = [str(path) for path in foreign.foreign_files("arena_testzoo", roots)]
    assert any(strangers_library in path for path in hidden)
    assert not any(name in path for path in hidden for name in ("/rich", "/ray/", "/pluggy"))
    shell = strangers_library.replace("brain", "shell")
    assert not any(strangers_library in str(path)
                   for path in foreign.foreign_files(f"{shell}.plugin", roots))


def test_a_line_not_in_utf8_is_illegal(sandbox: str) -> None:
    """The protocol is UTF-8, but the referee handed each line to Python's JSON decoder as
    bytes, which reads UTF-16 and UTF-32 too (by where the first bytes are zero). The zoo's
    host said its error in UTF-16 with a lone surrogate in it (``\\ud800``, two bytes
    there): the referee scrubs one into U+FFFD when the line holds its escape or its UTF-8
    form, and this one held neither, so ``matches.jsonl`` kept it, which a script that reads
    the record and prints an error cannot write (nor could a file or terminal). A line that
    is not UTF-8 is now ``illegal``, as any line that is not a JSON object."""
    result = duel(SeatSpec("s", "zoo-surrogate", {"where": "utf16"}), sandbox)
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0), result.errors
    assert "not a JSON object" in str(result.errors[0])
    assert str(result.errors[0]).encode("utf-8")


def test_a_sandbox_reads_nothing_of_pips_settings_in_the_arenas_environment() -> None:
    """A bubblewrap host binds the arena's virtualenv whole, its ``pip.conf`` (pip's settings
    for that environment, where a private index is named with its user and token) with it:
    the zoo's snoop read it in its match. It reads empty now."""
    settings = Path(sys.prefix) / "pip.conf"
    if settings.exists():
        pytest.skip("this environment has a pip.conf of its own")
    settings.write_text("[global]\nindex-url = https://bot:hunter2@pypi.example/simple\n")
    try:
        result = duel(SeatSpec("snoop", "zoo-snoop", {"secret_file": str(settings)}),
                      "required")
    finally:
        settings.unlink()
    assert result.statuses == ("ok", "ok"), result.errors
    assert "SNOOPED" in result.outputs[0]
    found = [line for line in result.outputs[0].splitlines() if line.startswith("FOUND:")]
    assert found == [], found


@pytest.mark.parametrize(("kind", "said"), [
    ("hugest", "answered an int of 16610 bits, not among"),
    ("nameless", "(a N), not an action id"),
    ("classless", "not an action id"),
])
def test_an_in_process_bot_cannot_make_its_fault_the_referees(kind: str, said: str) -> None:
    """An in-process bot answered ``10**5000``: no legal action, and the referee raised
    formatting its fault (an int past 4,300 digits has no text in Python), so the match was
    void as the engine's failure (``EngineError``), the bot's loss with it. So did an object
    whose class's metaclass raises when asked the class's name, and one whose ``__class__``
    raises (the referee asked it whether it was an int). Each is now ``illegal``, as any
    answer that is no legal action."""
    limits = Limits(isolation="inprocess", move_seconds=5.0, bank_seconds=0.0)
    result = play_match(spec(SeatSpec("j", "zoo-junk", {"kind": kind}), "random",
                             limits=limits))
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0), result.errors
    assert said in str(result.errors[0])


@pytest.mark.parametrize("kind", ["hugest", "nan", "inf"])
def test_a_sandboxed_bot_answering_no_number_json_writes_is_faulted(
    sandbox: str, kind: str,
) -> None:
    """Held: a sandboxed bot answering ``10**5000`` (its host cannot write it in JSON: the
    seat ended ``error``, ``illegal`` since round 19, as in-process), NaN or infinity
    (JSON's ``NaN``, ``Infinity``: ``illegal``)."""
    result = duel(SeatSpec("j", "zoo-junk", {"kind": kind}), sandbox)
    assert result.statuses == ("illegal", "ok") and result.ranking == (1, 0), result.errors
