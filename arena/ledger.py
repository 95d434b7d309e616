"""What a running tournament keeps of each finished match: what rating it needs, packed.

A million-match run cannot keep a million :class:`MatchResult` objects in the
driver (about a kilobyte each even without their replays). The ledger keeps,
per match id, one ``bytes`` record of the seats (as label numbers), the
places, the statuses and the scores: about 40 bytes for three seats, so a
million matches take about 200 MB with their ids and the index. The replays,
times and errors stay in ``matches.jsonl``.

:meth:`Ledger.rate` gives the table :func:`arena.ratings.rate` gives for the
same results: the same TrueSkill updates in the same canonical (match-id)
order, from the same numbers (scores are kept as 64-bit floats).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import hashlib
import hmac
import itertools
import json
import math
import os
import struct
import tempfile
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from arena.ratings import DRAW_PROBABILITY, Ratings, Standing
from arena.records import STATUSES, MatchResult
from arena.store import MAX_SAVED_BYTES, read_bounded, scan_results

if TYPE_CHECKING:
    from arena.aside import Aside


class Ledger:
    """The rating facts of every match added, by match id; the first record of an id is
    kept (a driver hands each id over once)."""

    def __init__(self, labels: Iterable[str] = ()) -> None:
        self.labels: list[str] = []
        self._label_numbers: dict[str, int] = {}
        # The referee's statuses in a fixed order, so two ledgers of one run number them
        # alike whatever order they read it in (the checkpoint's digest depends on it).
        self.statuses: list[str] = list(STATUSES)
        self._status_numbers: dict[str, int] = {name: i for i, name in enumerate(STATUSES)}
        self._records: dict[str, bytes] = {}
        for label in labels:
            self._number(label, self.labels, self._label_numbers)

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._records

    def __iter__(self) -> Iterator[str]:
        """The kept match ids, in the order they were added."""
        return iter(self._records)

    def add(self, result: MatchResult) -> None:
        """Keep ``result``'s rating facts, unless its id is kept already."""
        if result.id in self._records:
            return
        seats = len(result.seats)
        if not len(result.scores) == len(result.ranking) == len(result.statuses) == seats:
            raise ValueError(
                f"match {result.id!r}: scores, ranking and statuses need one per seat")
        labels = [self._number(label, self.labels, self._label_numbers)
                  for label in result.seats]
        statuses = [self._number(status, self.statuses, self._status_numbers)
                    for status in result.statuses]
        self._records[result.id] = _layout(seats).pack(
            seats, *labels, *result.ranking, *statuses, *result.scores)

    def result(self, match_id: str) -> MatchResult:
        """The kept facts of ``match_id`` as a result (no replay, times or errors)."""
        record = self._records[match_id]
        seats = record[0]
        values = _layout(seats).unpack(record)
        labels = values[1:1 + seats]
        ranking = values[1 + seats:1 + 2 * seats]
        statuses = values[1 + 2 * seats:1 + 3 * seats]
        scores = values[1 + 3 * seats:]
        return MatchResult(
            id=match_id, game="", seed=0,
            seats=tuple(self.labels[number] for number in labels),
            scores=tuple(scores), ranking=tuple(ranking),
            statuses=tuple(self.statuses[number] for number in statuses),
            actions=0, seconds=0.0, think_seconds=(), max_move_seconds=(), errors=(),
            history=(),
        )

    def rate_into(self, ratings: Ratings, match_id: str) -> None:
        """Add ``match_id`` to ``ratings`` (:meth:`Ratings.add` of :meth:`result`, without
        making the result)."""
        rate_record(ratings, match_id, self._records[match_id], self.labels, self.statuses)

    def record(self, match_id: str) -> bytes:
        """The packed record of ``match_id`` (label and status numbers, not names)."""
        return self._records[match_id]

    def ids(self) -> list[str]:
        """Every kept match id, in canonical (sorted) order."""
        return sorted(self._records)

    def canonical(self) -> Iterator[MatchResult]:
        """The kept results in canonical order."""
        return (self.result(match_id) for match_id in self.ids())

    def rate(self, draw_probability: float = DRAW_PROBABILITY) -> list[Standing]:
        """The final table, as :func:`arena.ratings.rate` gives it for these results (every
        label the ledger was made with gets a row)."""
        ratings = Ratings(draw_probability, self.labels)
        for match_id in self.ids():
            self.rate_into(ratings, match_id)
        return ratings.standings()

    @staticmethod
    def _number(name: str, names: list[str], numbers: dict[str, int]) -> int:
        number = numbers.get(name)
        if number is None:
            number = numbers[name] = len(names)
            names.append(name)
        return number


CHECKPOINT = "ratings-checkpoint.json"
"""The run folder's checkpoint of its canonical ratings (see :func:`rate_run`)."""


class Recorded(Collection[MatchResult]):
    """A run's recorded matches as a resumed run needs them: ledger records (a few dozen
    bytes each) and, for the fault summary, the results in which a seat faulted (without
    their replays). Iterating gives them in canonical order, made again from the records
    (no replay, times or errors but a faulty result's)."""

    def __init__(self, labels: Iterable[str] = ()) -> None:
        self.ledger = Ledger(labels)
        self.faulty: list[MatchResult] = []

    def add(self, result: MatchResult) -> None:
        if result.id in self.ledger:
            return
        self.ledger.add(result)
        if any(status != "ok" for status in result.statuses):
            self.faulty.append(_slim(result))

    def __len__(self) -> int:
        return len(self.ledger)

    def __contains__(self, result: object) -> bool:
        return isinstance(result, MatchResult) and result.id in self.ledger

    def __iter__(self) -> Iterator[MatchResult]:
        faulty = {result.id: result for result in self.faulty}
        for match_id in self.ledger.ids():
            yield faulty.get(match_id) or self.ledger.result(match_id)


def _slim(result: MatchResult) -> MatchResult:
    return replace(result, history=(), think_seconds=(), max_move_seconds=(), outputs=())


@dataclass(slots=True)
class RunRecords:
    """What a run folder's ``matches.jsonl`` holds, as the leaderboard needs it."""

    ledger: Ledger
    faulty: list[MatchResult]
    """The results in which a seat faulted (for the fault summary), without replays."""
    warnings: list[str]


def read_run(
    path: Path, labels: Iterable[str] = (), keep: Callable[[MatchResult], bool] | None = None
) -> RunRecords:
    """The matches of the ``matches.jsonl`` at ``path``, read one at a time into a ledger
    (those ``keep`` keeps, if given)."""
    records = RunRecords(Ledger(labels), [], [])
    for result in scan_results(path, records.warnings, keep):
        records.ledger.add(result)
        if any(status != "ok" for status in result.statuses):
            records.faulty.append(_slim(result))
    return records


def rate_run(
    ledger: Ledger, draw_probability: float, folder: Path
) -> tuple[list[Standing], int]:
    """The final table of a run's ledger and how many matches it took from the folder's
    checkpoint instead of rating them again.

    TrueSkill rates about 40,000 three-seat matches a second, one after the
    other, so a million-match run takes about 25 s to rate. The checkpoint (``CHECKPOINT`` in
    the folder) holds the ratings after every match up to a match id, with the
    count and a digest of those matches: when the ledger's matches up to that
    id are exactly those, rating goes on from there; otherwise (a changed
    file, another draw probability or other bots) it starts over. Afterwards
    the checkpoint covers every match (written if the folder can be written).
    """
    ids = ledger.ids()
    ratings, start = _from_checkpoint(ledger, ids, draw_probability, folder / CHECKPOINT)
    for match_id in ids[start:]:
        ledger.rate_into(ratings, match_id)
    if start < len(ids):
        _save_checkpoint(ledger, ids, draw_probability, ratings, folder / CHECKPOINT)
    return ratings.standings(), start


def _digest(ledger: Ledger, ids: list[str]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for match_id in ids:
        digest.update(match_id.encode())
        digest.update(ledger.record(match_id))
    return digest.hexdigest()


def checkpoint_key() -> bytes | None:
    """This user's key for sealing rating checkpoints (made on first use, readable by this
    user alone, in ``$XDG_CACHE_HOME/lostvalley-arena/``, else ``~/.cache/...``); None where
    it can be neither read nor made (checkpoints are then neither trusted nor written).

    A checkpoint holds ratings that nothing checks but a new rating of every match: a
    results folder may come from anyone, and the red team's ``ratings-checkpoint.json``,
    edited by hand (its digest covers the matches, not the ratings), had ``arena
    leaderboard`` put ``random`` first with 85.8 for greedy's 31 while every match replayed
    and checked as recorded. A checkpoint is trusted only if this user's key sealed it: one
    made elsewhere is rated again, once."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return _key_at(Path(cache) / "lostvalley-arena" / "checkpoint.key")


@functools.cache
def _key_at(path: Path) -> bytes | None:
    try:
        key = path.read_bytes()
        return key if len(key) >= 32 else None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(prefix=".checkpoint-key-", dir=path.parent)
        try:
            os.write(descriptor, os.urandom(32))
            os.close(descriptor)
            with contextlib.suppress(FileExistsError):  # another process made one first
                os.link(temporary, path)
        finally:
            os.unlink(temporary)
        key = path.read_bytes()
        return key if len(key) >= 32 else None
    except OSError:
        return None


def _seal(checkpoint: dict[str, object], key: bytes) -> str:
    """The key's seal over every field of ``checkpoint`` but its seal."""
    content = {name: value for name, value in checkpoint.items() if name != "seal"}
    text = json.dumps(content, sort_keys=True, allow_nan=False)
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def _from_checkpoint(
    ledger: Ledger, ids: list[str], draw_probability: float, path: Path
) -> tuple[Ratings, int]:
    fresh = Ratings(draw_probability, ledger.labels)
    if not path.is_file():  # none yet, or not a file (a FIFO would be waited on for ever)
        return fresh, 0
    key = checkpoint_key()
    if key is None:
        return fresh, 0
    try:
        saved = json.loads(read_bounded(path, MAX_SAVED_BYTES))
        if not hmac.compare_digest(str(saved["seal"]), _seal(saved, key)):
            return fresh, 0
        through, count = str(saved["through"]), int(saved["count"])
        if (saved["draw_probability"] != draw_probability or saved["labels"] != ledger.labels
                or saved["statuses"] != ledger.statuses
                or bisect.bisect_right(ids, through) != count
                or saved["digest"] != _digest(ledger, ids[:count])):
            return fresh, 0
        return Ratings.restore(draw_probability, saved["ratings"]), count
    except (OSError, ValueError, KeyError, TypeError, AttributeError, OverflowError,
            RecursionError):  # a checkpoint that is not one: rate again
        return fresh, 0


def _save_checkpoint(
    ledger: Ledger, ids: list[str], draw_probability: float, ratings: Ratings, path: Path
) -> None:
    key = checkpoint_key()
    if key is None:
        return  # nothing to seal it with: the next reader rates again
    checkpoint: dict[str, object] = {
        "through": ids[-1], "count": len(ids), "digest": _digest(ledger, ids),
        "draw_probability": draw_probability, "labels": ledger.labels,
        "statuses": ledger.statuses, "ratings": ratings.state(),
    }
    try:
        checkpoint["seal"] = _seal(checkpoint, key)
    except ValueError:  # a rating JSON cannot write (NaN): rated again next time
        return
    try:
        # A temporary file of its own (mkstemp: made new, never through a link): a results
        # folder may come from anyone, and its ratings-checkpoint.tmp made a link to another
        # file had arena leaderboard write over that file.
        descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
        try:
            os.fchmod(descriptor, 0o644)  # as a plain write would leave it (mkstemp: 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(checkpoint))
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError:
        pass  # a folder we may read but not write: the next reader rates again


class Rater:
    """Rates a ledger's matches as they land, a little at a time (:meth:`advance`).

    Given the plan's match ids in canonical order (``order``), it rates along
    them, as far as every match is in the ledger (or has failed): those are
    the final table's first updates, so the live table is exact for the
    matches it has reached and :meth:`final` only rates what it has not.
    Without an order it rates in arrival order, a provisional table, and
    :meth:`final` rates everything again in canonical order.

    Along an order, :meth:`hand_to` gives the rating to a process of its own
    (:mod:`arena.aside`): the matches are then handed over instead of rated,
    the live table is the process's, and :meth:`final_ratings` takes its ratings.
    """

    def __init__(
        self, ledger: Ledger, draw_probability: float, order: Iterable[str] | None = None
    ) -> None:
        self.ledger = ledger
        self.draw_probability = draw_probability
        self.ratings = Ratings(draw_probability, ledger.labels)
        self.rated = 0
        self.last: str | None = None
        """The last match id rated along ``order``."""
        self._order = iter(order) if order is not None else None
        self._next = next(self._order, None) if self._order is not None else None
        self._failed: set[str] = set()
        self._arrivals: deque[str] | None = None if self._order is not None else deque()
        self._aside: Aside | None = None

    @property
    def canonical(self) -> bool:
        """True when rating along the plan's order (the live table is exact)."""
        return self._order is not None

    @property
    def waiting(self) -> int:
        """Matches in the ledger not rated yet (handed aside and rated there count)."""
        if self._aside is not None and not self._aside.failed:
            return len(self.ledger) - self._aside.snapshot.rated
        return len(self.ledger) - self.rated

    @property
    def aside(self) -> bool:
        """True while a rating process rates along the order (:meth:`hand_to`)."""
        return self._aside is not None

    def hand_to(self, aside: Aside) -> None:
        """Hand the rating along the order to ``aside`` from now on; it starts from
        :attr:`ratings`, :attr:`rated` and :attr:`last` as they are."""
        if self._order is None:
            raise ValueError("only a rating along the plan's order can be handed aside")
        aside.begin(self)
        self._aside = aside

    def live(self) -> tuple[list[Standing], int, str | None]:
        """The live table: its standings, the matches not rated yet, the last one rated."""
        aside = self._aside
        if aside is not None and not aside.failed:
            snapshot = aside.snapshot
            return snapshot.standings, len(self.ledger) - snapshot.rated, snapshot.last
        if aside is not None:
            return aside.base.ratings.standings(), len(self.ledger) - aside.base.rated, \
                aside.base.last
        return self.ratings.standings(), self.waiting, self.last

    @property
    def ready(self) -> bool:
        """True when :meth:`advance` has a match to rate (or a failed one to pass) now."""
        if self._arrivals is not None:
            return bool(self._arrivals)
        return self._next is not None and (self._next in self.ledger or self._next in self._failed)

    def landed(self, match_id: str) -> None:
        """A match was added to the ledger."""
        if self._arrivals is not None:
            self._arrivals.append(match_id)

    def sort_arrivals(self) -> None:
        """Rate what has arrived so far in match order (without an order: a resumed run's
        previous matches)."""
        if self._arrivals is not None:
            self._arrivals = deque(sorted(self._arrivals))

    def failed(self, match_id: str) -> None:
        """A match of the plan will not be in the ledger: the order passes it."""
        self._failed.add(match_id)

    def advance(self, deadline: float) -> None:
        """Rate until ``deadline`` (``time.perf_counter``) or until nothing is ready; while
        rating aside, hand over everything ready (the deadline does not apply)."""
        if self._arrivals is not None:
            while self._arrivals and time.perf_counter() < deadline:
                self._rate(self._arrivals.popleft())
            return
        if self._aside is not None:
            self._walk(math.inf)
            self._aside.flush(force=False)
        else:
            self._walk(deadline)

    def _walk(self, deadline: float) -> None:
        """Along the order, as far as every match has landed (or failed), until
        ``deadline``."""
        while self._next is not None and time.perf_counter() < deadline:
            match_id = self._next
            if match_id in self.ledger:
                self._rate(match_id)
                self.last = match_id
            elif match_id in self._failed:
                self._failed.discard(match_id)
            else:
                return
            self._next = next(self._order, None)  # type: ignore[arg-type]

    def flush(self) -> None:
        """Send the rating process what was handed over and not sent yet (no-op inline)."""
        if self._aside is not None:
            self._aside.flush()

    def final(self) -> list[Standing]:
        """The canonical table of everything in the ledger (as :func:`arena.ratings.rate`
        gives it), reusing what was rated along the order."""
        return self.final_ratings()[0].standings()

    def final_ratings(self) -> tuple[Ratings, list[str]]:
        """The ratings after every match of the ledger in canonical order, and those ids."""
        if self._aside is not None:
            self._take_aside()
        ids = self.ledger.ids()
        if self._order is None:
            ratings, start = Ratings(self.draw_probability, self.ledger.labels), 0
        else:
            ratings = self.ratings.copy()
            start = 0 if self.last is None else bisect.bisect_right(ids, self.last)
        for match_id in ids[start:]:
            self.ledger.rate_into(ratings, match_id)
        return ratings, ids

    def resume(self, folder: Path) -> int:
        """Go on from the run folder's rating checkpoint, if it covers the first matches of
        the plan's order exactly as the ledger holds them (a match of the plan before its
        last, still to be played, would have to be rated before it); how many matches it
        took. Call before anything is rated."""
        if self._order is None or self.rated or not len(self.ledger):
            return 0
        ids = self.ledger.ids()
        ratings, count = _from_checkpoint(self.ledger, ids, self.draw_probability,
                                          folder / CHECKPOINT)
        if not count:
            return 0
        last = ids[count - 1]
        passed: list[str] = []
        following = self._next
        while following is not None and following <= last:
            passed.append(following)
            following = next(self._order, None)
        if len(passed) != count or not all(match_id in self.ledger for match_id in passed):
            # A match of the plan before ``last`` is still to come: rate from the start.
            again = [*passed, *([following] if following is not None else [])]
            self._order = itertools.chain(again[1:], self._order)
            self._next = again[0] if again else None
            return 0
        self._next = following
        self.ratings, self.rated, self.last = ratings, count, last
        return count

    def save(self, folder: Path, final: tuple[Ratings, list[str]] | None = None) -> None:
        """Write the folder's checkpoint of every match in the ledger (see :func:`rate_run`);
        ``final``: what :meth:`final_ratings` gave, if it was just called."""
        ratings, ids = final or self.final_ratings()
        if ids:
            _save_checkpoint(self.ledger, ids, self.draw_probability, ratings,
                             folder / CHECKPOINT)

    def _take_aside(self) -> None:
        """Rate inline again, from the rating process's final ratings, or, if it failed,
        by rating here what was handed to it (the same matches in the same order)."""
        aside, self._aside = self._aside, None
        assert aside is not None
        final = aside.finish()
        if final is not None and final[0] == self.rated:
            self.ratings = Ratings.restore(self.draw_probability, final[1])
            return
        ratings, ids = aside.base.ratings.copy(), self.ledger.ids()
        start = 0 if aside.base.last is None else bisect.bisect_right(ids, aside.base.last)
        end = 0 if self.last is None else bisect.bisect_right(ids, self.last)
        for match_id in ids[start:end]:
            self.ledger.rate_into(ratings, match_id)
        self.ratings = ratings

    def close(self) -> None:
        """End a rating process that is still running (after an interruption); what it
        was handed is rated here if the ratings are asked for again."""
        if self._aside is not None:
            self._aside.close()

    def _rate(self, match_id: str) -> None:
        if self._aside is not None:
            self._aside.add(match_id, self.ledger.record(match_id))
        else:
            self.ledger.rate_into(self.ratings, match_id)
        self.rated += 1


def rate_record(ratings: Ratings, match_id: str, record: bytes, labels: list[str],
                statuses: list[str]) -> None:
    """Add one packed ledger record to ``ratings``, its label and status numbers read
    through ``labels`` and ``statuses`` (the ledger's, or a copy of them in another
    process: :mod:`arena.aside`)."""
    seats = record[0]
    values = _layout(seats).unpack(record)
    ratings.add_facts(
        match_id, [labels[number] for number in values[1:1 + seats]],
        values[1 + 3 * seats:], values[1 + seats:1 + 2 * seats],
        [statuses[number] for number in values[1 + 2 * seats:1 + 3 * seats]])


_LAYOUTS: dict[int, struct.Struct] = {}


def _layout(seats: int) -> struct.Struct:
    """A record of ``seats`` seats: their count, label numbers, places, status numbers and
    scores (float64, so ratings see exactly the recorded numbers)."""
    layout = _LAYOUTS.get(seats)
    if layout is None:
        layout = _LAYOUTS[seats] = struct.Struct(f"<B{seats}I{seats}H{seats}B{seats}d")
    return layout
