"""Rating aside: the live table's TrueSkill in a process of its own, where cores are spare.

TrueSkill rates one match after the other, in match order, about 25-30 µs a
three-seat match. A driver that receives 20,000 matches a second from its
workers cannot also rate them: the live table fell behind (within its share
of the driver's time) and most of a large run was rated after its last match,
with the workers idle. At 16 workers, 18,500-20,000 of 24,000 random-bot
matches were left for the end: 0.6 s of a 1.8 s run.

On a machine of several cores (:func:`worth_it`), the driver walks the
plan's order as before but hands each match's ledger record to a rating
process instead of rating it (:class:`Aside`); the process rates them as they
come and sends the table back a few times a second; at the end the driver takes
its ratings and rates only what it had not handed over. The numbers are the
same to the last bit: the same code rates the same records in the same order.
If the process cannot start or ends early, the driver rates what it had
handed over itself, from where the process began: nothing is lost.

The process is ``python -m arena.aside IN OUT`` (two pipe descriptors); it
needs nothing but the arena package and ends when its input closes.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from arena.ledger import Rater, rate_record
from arena.ratings import Ratings, Standing

ASIDE_ABOVE = 10_000
"""Matches left to play from which a rating process is worth its start (about 0.1 s)."""
MIN_CORES = 4
"""Cores this machine needs for rating aside. With 16 workers on 16 cores it paid although it
takes its core from the workers (issue 11's figures, benchmarks/README.md); on 2 cores, where
the driver keeps up with the workers, it is not measured to pay, so it is not used."""
HAND_OVER_COUNT = 512
"""Records gathered before they are sent to the rating process ..."""
HAND_OVER_SECONDS = 0.05
"""... or seconds since the last send, whichever comes first."""
REPORT_SECONDS = 0.1
"""How often, at most, the rating process sends its table back."""
ENVIRONMENT = "ARENA_RATE_ASIDE"
"""``1``: rate aside whenever the table is rated in match order; ``0``: never; unset or
anything else: when :func:`worth_it`."""


def worth_it(matches_left: int, cpus: int | None = None) -> bool:
    """Whether a run should rate aside: at least :data:`ASIDE_ABOVE` matches to play on a
    machine of at least :data:`MIN_CORES` cores (``cpus``: this machine's, by default);
    :data:`ENVIRONMENT` overrides."""
    chosen = os.environ.get(ENVIRONMENT, "").strip()
    if chosen in ("0", "1"):
        return chosen == "1"
    cores = os.cpu_count() if cpus is None else cpus
    return matches_left >= ASIDE_ABOVE and (cores or 1) >= MIN_CORES


@dataclass(frozen=True, slots=True)
class Base:
    """Where rating aside began: the ratings, how many matches they cover, the last id."""

    ratings: Ratings
    rated: int
    last: str | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The rating process's table: after ``rated`` matches of the order, through ``last``."""

    rated: int
    last: str | None
    standings: list[Standing]


class Aside:
    """The driver's side of a rating process: :meth:`add` hands over records in match
    order, :attr:`snapshot` is its latest table, :meth:`finish` its final ratings.

    Sending and receiving run on two threads of their own, so the driver never waits on
    the pipe; :meth:`add` and :meth:`flush` are called from one thread."""

    def __init__(self) -> None:
        self._base: Base | None = None
        self._labels: list[str] = []
        self._statuses: list[str] = []
        self._sent_labels = self._sent_statuses = 0
        self._pending: list[tuple[str, bytes]] = []
        self._flushed = time.monotonic()
        self.snapshot = Snapshot(0, None, [])
        self._final: tuple[int, dict[str, Any]] | None = None
        self.failed = False
        """True once the process is known gone before its final ratings."""
        to_child, from_driver = os.pipe()
        to_driver, from_child = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "arena.aside", str(to_child), str(from_child)],
                pass_fds=(to_child, from_child), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True)  # Ctrl-C stops the run, not the rating
        except BaseException:
            for descriptor in (to_child, from_driver, to_driver, from_child):
                os.close(descriptor)
            raise
        os.close(to_child)
        os.close(from_child)
        self._out = Connection(from_driver, readable=False)
        self._in = Connection(to_driver, writable=False)
        self._outbox: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write, name="arena-aside-send", daemon=True)
        self._reader = threading.Thread(target=self._read, name="arena-aside-receive",
                                        daemon=True)
        self._writer.start()
        self._reader.start()

    @property
    def base(self) -> Base:
        """Where the rating process began (:meth:`begin`)."""
        if self._base is None:
            raise RuntimeError("the rating process was not given a start (Aside.begin)")
        return self._base

    def begin(self, rater: Rater) -> None:
        """Go on from where ``rater`` stands: its ratings, count and last id, and its
        ledger's label and status numbers (kept up to date as they grow)."""
        base = self._base = Base(rater.ratings.copy(), rater.rated, rater.last)
        self._labels, self._statuses = rater.ledger.labels, rater.ledger.statuses
        self.snapshot = Snapshot(base.rated, base.last, base.ratings.standings())
        self._outbox.put(("start", rater.draw_probability, base.ratings.state(), base.rated,
                          base.last))

    def add(self, match_id: str, record: bytes) -> None:
        """Hand over the next match of the order (its ledger record)."""
        self._pending.append((match_id, record))
        if len(self._pending) >= HAND_OVER_COUNT:
            self.flush()

    def flush(self, force: bool = True) -> None:
        """Send what was handed over; ``force=False``: only if :data:`HAND_OVER_SECONDS`
        have passed since the last send."""
        if not self._pending:
            return
        now = time.monotonic()
        if not force and now - self._flushed < HAND_OVER_SECONDS:
            return
        self._flushed = now
        labels = statuses = None
        if len(self._labels) != self._sent_labels:
            labels, self._sent_labels = list(self._labels), len(self._labels)
        if len(self._statuses) != self._sent_statuses:
            statuses, self._sent_statuses = list(self._statuses), len(self._statuses)
        pending, self._pending = self._pending, []
        if not self.failed:
            self._outbox.put(("rate", labels, statuses, pending))

    def finish(self) -> tuple[int, dict[str, Any]] | None:
        """The process's final ratings (:meth:`Ratings.state`) and how many matches they
        cover, once it has rated everything handed over; None if it failed. Ends it."""
        self.flush()
        self._outbox.put(("finish",))
        self._outbox.put(None)
        try:
            while self._reader.is_alive():
                self._reader.join(0.05)
                if self._process.poll() is not None:
                    self._reader.join(1.0)  # what it sent before it ended
                    break
        finally:
            self.close()
        return self._final

    def close(self) -> None:
        """End the process (it is told to, and killed if it has not ended)."""
        self._outbox.put(None)
        try:
            self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def _write(self) -> None:
        try:
            while (message := self._outbox.get()) is not None:
                self._out.send(message)
        except (OSError, ValueError):  # the process is gone: the driver rates instead
            self.failed = True
        finally:
            self._out.close()

    def _read(self) -> None:
        try:
            while True:
                message = self._in.recv()
                if message[0] == "rated":
                    self.snapshot = Snapshot(*message[1:])
                elif message[0] == "final":
                    self._final = message[1], message[2]
                    return
        except (EOFError, OSError, ValueError, TypeError):
            self.failed = True
        finally:
            self._in.close()


def spawn() -> Aside | None:
    """A rating process, started now (its imports take a moment: start it before the run
    needs it) and given its start by :meth:`Rater.hand_to`; None if none can start (the
    driver then rates as before)."""
    if not sys.executable:  # an embedded interpreter: no Python to start
        return None
    try:
        return Aside()
    except OSError:
        return None


def serve(inbox: Connection, outbox: Connection) -> None:
    """The rating process: rate the records it is given, in the order given, report the
    table every :data:`REPORT_SECONDS`, and send the final ratings when told to finish."""
    _, draw_probability, state, rated, last = inbox.recv()
    ratings = Ratings.restore(draw_probability, state)
    labels: list[str] = []
    statuses: list[str] = []
    reported = -math.inf
    while True:
        message = inbox.recv()
        if message[0] == "finish":
            outbox.send(("final", rated, ratings.state()))
            return
        _, new_labels, new_statuses, records = message
        labels = new_labels if new_labels is not None else labels
        statuses = new_statuses if new_statuses is not None else statuses
        for match_id, record in records:
            rate_record(ratings, match_id, record, labels, statuses)
        rated += len(records)
        last = records[-1][0] if records else last
        now = time.monotonic()
        if now - reported >= REPORT_SECONDS:
            outbox.send(("rated", rated, last, ratings.standings()))
            reported = now


def main(arguments: list[str]) -> None:
    """``python -m arena.aside IN OUT``: serve on the two pipe descriptors."""
    inbox = Connection(int(arguments[0]), writable=False)
    outbox = Connection(int(arguments[1]), readable=False)
    with contextlib.suppress(EOFError, OSError):  # the driver is gone: nothing to rate for
        serve(inbox, outbox)


if __name__ == "__main__":
    main(sys.argv[1:])

