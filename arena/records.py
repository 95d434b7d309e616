"""The values that cross process boundaries: what a match is, and how it ended.

Both are frozen, slotted dataclasses of plain data, so they pickle cheaply to
Ray workers and turn into one JSON line each in ``matches.jsonl``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

_TERMINAL_CODES = re.compile(
    r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)"  # CSI, OSC, two-byte
    r"|[\x00-\x08\x0b-\x1f\x7f]"
)
"""ANSI escape sequences (colours, cursor moves, titles) and other control characters."""

_SURROGATES = re.compile("[\ud800-\udfff]")
"""Halves of a UTF-16 pair, alone: no character, and UTF-8 cannot encode them."""


def plain(text: str) -> str:
    """``text`` without terminal escape codes or control characters (tabs and newlines stay),
    and with U+FFFD for each lone surrogate: what goes into a results file must read the
    same in an editor as on a terminal, and be writable there at all (a bot's error text
    with ``\\ud800`` in it raised in the middle of ``arena run``'s summary, ``arena
    check``'s report and every ``arena leaderboard`` of the run)."""
    return _SURROGATES.sub("\ufffd", _TERMINAL_CODES.sub("", text))


def scrubbed(value: Any) -> Any:
    """``value`` (what JSON decodes to) with U+FFFD for each lone surrogate in its strings,
    keys included."""
    if isinstance(value, str):
        return _SURROGATES.sub("\ufffd", value)
    if isinstance(value, list):
        return [scrubbed(item) for item in value]
    if isinstance(value, dict):
        return {scrubbed(key): scrubbed(item) for key, item in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a match: which bot plays it, under which label, with which params."""

    label: str
    bot: str
    params: dict[str, Any] = field(default_factory=dict)
    plugin: str = ""
    """The plugin module that registers ``bot`` (filled in for sandboxed seats, so a worker
    need not look for it); empty: look it up."""
    environment: str = ""
    """A stored bot's own virtualenv, where its host runs; empty: the arena's environment."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Time control for every seat (a budget per decision plus a bank for the match), and
    where and how confined the bots run."""

    move_seconds: float = 1.0
    bank_seconds: float = 10.0
    isolation: str = "process"
    """``process``: each bot in a sandboxed host process; ``inprocess``: trusted bots only."""
    startup_seconds: float = 10.0
    """Time a sandboxed bot may take to import and construct, not charged to its moves."""
    memory_mb: int = 1024
    """Address-space limit of a sandboxed bot host."""
    cpus: float = 1.0
    """CPU cores a sandboxed bot's processes may use at once, together (a control group's
    quota, where the machine allows one: :mod:`arena.seats.cgroups`)."""
    sandbox: str = "auto"
    """``auto`` (bubblewrap if installed), ``required`` or ``fallback``."""


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything that determines a match. Replaying its actions reproduces it exactly."""

    id: str
    game: str
    options: dict[str, Any]
    seats: tuple[SeatSpec, ...]
    seed: int
    """The chance seed: every dice roll and card draw is sampled from it."""
    bot_seeds: tuple[int, ...]
    limits: Limits = Limits()
    game_plugin: str = ""
    """The plugin module that registers ``game``; empty: discover every plugin (trusted)."""

    def __reduce__(self) -> tuple[type[MatchSpec], tuple[Any, ...]]:
        """Pickled as its fields in order: the driver sends every match of a run to a worker,
        and this takes half the time of a frozen dataclass's state either way."""
        return (MatchSpec, (self.id, self.game, self.options, self.seats, self.seed,
                            self.bot_seeds, self.limits, self.game_plugin))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How one match ended; one line of ``matches.jsonl``."""

    id: str
    game: str
    seed: int
    seats: tuple[str, ...]
    """Bot labels in seat order."""
    scores: tuple[float, ...]
    ranking: tuple[int, ...]
    """Place per seat after faults: 0 = best, ties share a place, faulty seats last."""
    statuses: tuple[str, ...]
    actions: int
    """Number of actions applied, chance outcomes included."""
    seconds: float
    """Wall time of the whole match."""
    think_seconds: tuple[float, ...]
    """Total decision time per seat."""
    max_move_seconds: tuple[float, ...]
    """Longest single decision per seat."""
    errors: tuple[str | None, ...]
    """Per seat, what went wrong (exception text, the illegal answer), or None."""
    history: tuple[int, ...]
    """Every action in order, chance outcomes included: the replay."""
    outputs: tuple[str, ...] = field(default=(), compare=False)
    """Per seat, what a sandboxed bot printed (truncated); kept beside, not in, the JSON line."""
    line: str = field(default="", compare=False, repr=False)
    """This record's line of ``matches.jsonl``, encoded by the Ray worker that played the
    match so that the driver only writes it ("" until then); not part of the record. A
    result that carries its line is what a worker sends (:func:`arena.store.encoded`):
    its ``history``, ``think_seconds`` and ``max_move_seconds`` are in the line alone."""

    def __reduce__(self) -> tuple[type[MatchResult], tuple[Any, ...]]:
        """Pickled as its fields in order: a worker sends every result to the driver, which
        loads this three times faster than a frozen dataclass's state."""
        return (MatchResult, (self.id, self.game, self.seed, self.seats, self.scores,
                              self.ranking, self.statuses, self.actions, self.seconds,
                              self.think_seconds, self.max_move_seconds, self.errors,
                              self.history, self.outputs, self.line))

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict for ``matches.jsonl``; tuples become lists; outputs left out."""
        record = asdict(self)
        del record["outputs"], record["line"]
        return record

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> MatchResult:
        """The inverse of :meth:`to_json`; raises ``KeyError``/``TypeError`` on a bad record."""
        return cls(
            id=str(record["id"]),
            game=str(record["game"]),
            seed=int(record["seed"]),
            seats=tuple(record["seats"]),
            scores=tuple(float(s) for s in record["scores"]),
            ranking=tuple(int(r) for r in record["ranking"]),
            statuses=tuple(record["statuses"]),
            actions=int(record["actions"]),
            seconds=float(record["seconds"]),
            think_seconds=tuple(float(s) for s in record["think_seconds"]),
            max_move_seconds=tuple(float(s) for s in record["max_move_seconds"]),
            errors=tuple(record["errors"]),
            history=tuple(int(a) for a in record["history"]),
        )

    @property
    def faults(self) -> tuple[bool, ...]:
        """Per seat, True if the seat did not end ``ok``."""
        return tuple(status != "ok" for status in self.statuses)
