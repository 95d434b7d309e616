"""Small builders shared by the framework tests."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.records import Limits, MatchResult, MatchSpec, SeatSpec

ISOLATION = {"default": "process"}
"""The isolation :func:`spec` uses when given no limits (tests switch it per run)."""


def spec(
    *bots: str | SeatSpec,
    game: str = "tiny-race",
    seed: int = 7,
    options: dict[str, Any] | None = None,
    limits: Limits | None = None,
    match_id: str = "r001-t000001-s001",
) -> MatchSpec:
    """A one-off match spec; a bot given by name plays under its own name."""
    seats = tuple(
        b if isinstance(b, SeatSpec) else SeatSpec(label=f"{b}-{i}", bot=b)
        for i, b in enumerate(bots)
    )
    return MatchSpec(
        id=match_id,
        game=game,
        options=options or {},
        seats=seats,
        seed=seed,
        bot_seeds=tuple(100 + i for i in range(len(seats))),
        limits=limits
        or Limits(move_seconds=1.0, bank_seconds=1.0, isolation=ISOLATION["default"]),
    )


def outcome(result: Any) -> tuple[Any, ...]:
    """The parts of a result that must not depend on timing or on the worker. A result
    from a Ray worker carries its replay in its line of ``matches.jsonl`` only (see
    :func:`arena.store.encoded`): the replay is read from there."""
    history = tuple(json.loads(result.line)["history"]) if result.line else result.history
    return (
        result.id,
        result.seats,
        result.scores,
        result.ranking,
        result.statuses,
        result.actions,
        history,
    )


def finished(
    match_id: str,
    seats: Sequence[str],
    ranking: Sequence[int],
    statuses: Sequence[str] | None = None,
    scores: Sequence[float] | None = None,
) -> MatchResult:
    """A finished match; scores default to seats-minus-place, statuses to all ok."""
    n = len(seats)
    return MatchResult(
        id=match_id,
        game="test-game",
        seed=0,
        seats=tuple(seats),
        scores=tuple(scores if scores is not None else (float(n - place) for place in ranking)),
        ranking=tuple(ranking),
        statuses=tuple(statuses or ("ok",) * n),
        actions=3,
        seconds=0.1,
        think_seconds=(0.0,) * n,
        max_move_seconds=(0.0,) * n,
        errors=(None,) * n,
        history=(1, 2, 3),
    )


def alive(pid: int) -> bool:
    """True if process ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def descendants(root: int) -> set[int]:
    """Every live process descended from ``root`` (its children, theirs, and so on)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    found: set[int] = set()
    for pid in parents:
        ancestor = parents.get(pid)
        while ancestor and ancestor != root and ancestor not in found:
            ancestor = parents.get(ancestor)
        if ancestor and (ancestor == root or ancestor in found):
            found.add(pid)
    return {pid for pid in found if alive(pid)}


def bot_hosts_under(root: int) -> set[int]:
    """The sandboxed bot hosts (and whatever they started) descended from ``root``."""
    hosts = set()
    for pid in descendants(root):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"arena.seats.host" in command:
            hosts.add(pid)
    return hosts


def started_here(command: bytes) -> bool:
    """Whether a process's command line runs this environment's interpreter, as every bot
    host the tests start does (and a daemon it forked keeps): the checks that look for a
    bot's processes on the whole machine leave out another checkout's tests running the same
    zoo beside these."""
    return sys.executable.encode() in command
