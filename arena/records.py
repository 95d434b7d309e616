"""The values that cross process boundaries: what a match is, and how it ended.

Both are frozen, slotted dataclasses of plain data, so they pickle cheaply to
Ray workers and turn into one JSON line each in ``matches.jsonl``.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

_TERMINAL_CODES = re.compile(
    r"(\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI (its 8-bit form too)
    r"|(\x1b\]|\x9d)[^\x07\x1b\x9c]*(\x07|\x1b\\|\x9c)?"  # OSC
    r"|\x1b."  # two-byte
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"  # C0 and C1 controls (\x9b: CSI, \x9d: OSC)
    r"|[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]"  # bidi and zero-width
)
"""ANSI escape sequences (colours, cursor moves, titles) and other control characters: the C1
controls too (a terminal may read U+009B as an escape's CSI), and the invisible marks that
reorder or hide text (U+202E shows what follows it backwards)."""

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


STATUSES = ("ok", "error", "timeout", "illegal", "crash")
"""The statuses the referee gives a seat."""

_STATUS_SET = frozenset(STATUSES)

MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
"""What a recorded match's id may be (``r001-t000001-s001``, ``play-0001``, ``check-...``): it
is shown in warnings and typed in ``arena replay``."""

MAX_SEATS = 255
"""The most seats a recorded match may have (the ledger keeps their count in a byte)."""


_TYPES: dict[type, frozenset[type]] = {
    str: frozenset({str}), int: frozenset({int}), float: frozenset({int, float})}
"""The JSON types a field of each kind may have (a bool is not a number here). Checked with
``type``, not ``isinstance``: a million-line file is read in about 20 s, and this keeps the
check to a few microseconds a line."""


_SEQUENCES = (list, tuple)
"""What a list of a record may be: a list, as JSON reads it, or a tuple, as
:meth:`MatchResult.to_json` leaves it."""

_ERROR_TYPES = frozenset({str, type(None)})


def _of(values: Any, kind: type) -> bool:
    """Whether every item of ``values`` has one of ``kind``'s JSON types."""
    return set(map(type, values)) <= _TYPES[kind]


def _field(record: dict[str, Any], key: str, kind: type[Any]) -> Any:
    value = record[key]
    if type(value) not in _TYPES[kind]:
        raise TypeError(f"{key}: {type(value).__name__}, not {kind.__name__}")
    if kind is float and not math.isfinite(value):
        raise ValueError(f"{key}: {value} is not finite")
    return float(value) if kind is float else value


def _per_seat(record: dict[str, Any], key: str, count: int, kind: type[Any]) -> tuple[Any, ...]:
    values = record[key]
    if type(values) not in _SEQUENCES or len(values) != count or not _of(values, kind):
        raise TypeError(f"{key}: not one {kind.__name__} per seat ({count})")
    if kind is not float:
        return tuple(values)
    numbers = tuple(map(float, values))
    if not all(map(math.isfinite, numbers)):  # NaN or Infinity: JSON has neither
        raise ValueError(f"{key}: {list(numbers)} is not finite")
    return numbers


FORMULA_STARTS = ("=", "+", "-", "@")
"""What a label may not begin with: a spreadsheet opening ``arena leaderboard --format csv``
reads such a cell as a formula (``=HYPERLINK(...)`` is a link to click)."""


def is_label(label: object) -> bool:
    """Whether ``label`` may be a bot's label: visible, printable, one line (no control
    characters, terminal codes, bidi overrides or zero-width characters), no spaces around
    it, and not read as a formula in a spreadsheet."""
    return (isinstance(label, str) and bool(label.strip()) and label.isprintable()
            and label == label.strip() and not label.startswith(FORMULA_STARTS))


_CHECKED_LABELS: set[str] = set()
"""Labels found good already (a run's few labels are on every line of its file)."""


def _labels(seats: Any) -> tuple[str, ...]:
    """A record's seats: labels as a config allows them (:func:`is_label`), each once."""
    if type(seats) not in _SEQUENCES or not 1 <= len(seats) <= MAX_SEATS:
        raise TypeError(f"seats: not a list of 1 to {MAX_SEATS} labels")
    for label in seats:
        if type(label) is str and label in _CHECKED_LABELS:
            continue
        if not is_label(label):
            raise ValueError(f"seats: {ascii(label)[:80]} is not a label")
        if len(_CHECKED_LABELS) < 10_000:
            _CHECKED_LABELS.add(label)
    if len(set(seats)) != len(seats):
        raise ValueError("seats: a label plays two seats")
    return tuple(seats)


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
        """A JSON-able dict for ``matches.jsonl``; tuples stay tuples (JSON writes them as
        lists); outputs left out."""
        record = asdict(self)
        del record["outputs"], record["line"]
        return record

    @classmethod
    def from_json(cls, record: object) -> MatchResult:
        """The inverse of :meth:`to_json`; raises ``KeyError``/``TypeError``/``ValueError``
        on a bad record. Checked field by field, as the referee writes them: a results folder
        may come from anyone, and what it holds goes on to the ratings (a label or a place
        of another type, a place past the seats, Infinity for a seed each raised in the
        middle of ``arena leaderboard``, ``arena replay`` or ``arena run --resume``)."""
        if not isinstance(record, dict):
            raise TypeError(f"a {type(record).__name__}, not an object")
        seats = _labels(record["seats"])
        count = len(seats)
        statuses = _per_seat(record, "statuses", count, str)
        if not _STATUS_SET.issuperset(statuses):
            unknown = sorted(set(statuses) - _STATUS_SET)
            raise ValueError(f"status {unknown[0]!r} is none of {', '.join(STATUSES)}")
        ranking = _per_seat(record, "ranking", count, int)
        if any(not 0 <= place < count for place in ranking):
            raise ValueError(f"ranking {list(ranking)}: places go from 0 to {count - 1}")
        errors = record["errors"]
        if type(errors) not in _SEQUENCES or len(errors) != count \
                or not set(map(type, errors)) <= _ERROR_TYPES:
            raise TypeError(f"errors: not one text or null per seat ({count})")
        history = record["history"]
        if type(history) not in _SEQUENCES or not _of(history, int):
            raise TypeError("history: not a list of integers")
        match_id = _field(record, "id", str)
        if not MATCH_ID.fullmatch(match_id):
            raise ValueError(f"id {ascii(match_id)[:80]} is not a match id")
        return cls(
            id=match_id,
            game=_field(record, "game", str),
            seed=_field(record, "seed", int),
            seats=seats,
            scores=_per_seat(record, "scores", count, float),
            ranking=ranking,
            statuses=statuses,
            actions=_field(record, "actions", int),
            seconds=_field(record, "seconds", float),
            think_seconds=_per_seat(record, "think_seconds", count, float),
            max_move_seconds=_per_seat(record, "max_move_seconds", count, float),
            errors=tuple(errors),
            history=tuple(history),
        )

    @property
    def faults(self) -> tuple[bool, ...]:
        """Per seat, True if the seat did not end ``ok``."""
        return tuple(status != "ok" for status in self.statuses)
