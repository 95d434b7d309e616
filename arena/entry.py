"""The ``arena`` console script: :func:`arena.cli.main`, imported under Ctrl-C's watch.

Importing the command line (click, rich, the ledger, the store) takes most of a second;
Ctrl-C then was a ``KeyboardInterrupt`` traceback from the middle of an import."""

from __future__ import annotations

import errno
import os
import signal
import sys

INTERRUPTED = 130
PIPE_CLOSED = 128 + signal.SIGPIPE
"""The status of a command whose reader went away (``arena leaderboard RUN | head -3``): the
shell's for a Unix tool that SIGPIPE ended, with no word said (Python's "Broken pipe"
traceback, or click's status 1)."""


NOTHING_WRITTEN = "No match was played and nothing was written."
"""What ``arena run`` stopped before it reads its config says."""


class Stopped(KeyboardInterrupt):
    """The run was told to stop by a signal other than Ctrl-C (SIGTERM: ``kill``, a job
    scheduler, systemd; SIGHUP: the terminal closed). A ``KeyboardInterrupt``, so it
    leaves the run exactly as Ctrl-C does: what finished is saved, Ray is let go."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""Signals that stop a run as Ctrl-C does. Left alone, SIGHUP killed the driver where it
stood (Ray's dashboard and runtime-env agents lived on, orphaned, about 80 MB each), and
SIGTERM met Ray's own handler: a C++ stack dump on the terminal, then the exit without the
line saying how to resume."""


_received: list[int] = []
"""The stop signal a run was sent, if any: Ray's own code, if the signal lands while it
runs, may raise a plain ``KeyboardInterrupt`` in place of :class:`Stopped` (seen once in
CI: a SIGHUP said 'Interrupted' and exit status 130)."""


def _stop(signum: int, frame: object) -> None:
    # Once: a second signal while Ray is let go would cut that short and leave it running.
    for stop in STOP_SIGNALS:
        signal.signal(stop, signal.SIG_IGN)
    _received.append(signum)
    raise Stopped(signum)


def stop_signal(interrupt: KeyboardInterrupt) -> int | None:
    """The signal (SIGTERM, SIGHUP) that ended a run with ``interrupt``; None for Ctrl-C."""
    if isinstance(interrupt, Stopped):
        return interrupt.signum
    return _received[-1] if _received else None


def stopped_line(interrupt: KeyboardInterrupt) -> tuple[str, int]:
    """How a stop is said ("Stopped (SIGTERM)", "Interrupted") and the status it ends with."""
    stopped = stop_signal(interrupt)
    if stopped is None:
        return "Interrupted", INTERRUPTED
    return f"Stopped ({signal.Signals(stopped).name})", 128 + stopped


def main() -> None:
    """Run the ``arena`` command; interrupted while it loads, one line and status 130; its
    output's reader gone, no word and status 141.

    ``arena run`` catches SIGTERM and SIGHUP from the start (as it does later on): while it
    loaded (a second, Ray's import included), they ended it without a word."""
    running = sys.argv[1:2] == ["run"]
    if running:
        for stop in STOP_SIGNALS:
            signal.signal(stop, _stop)
    try:
        from arena.cli import main as command
    except KeyboardInterrupt as exc:
        said, status = stopped_line(exc)
        sys.stderr.write(f"\n{said}.{' ' + NOTHING_WRITTEN if running else ''}\n")
        raise SystemExit(status) from None
    try:
        command()
    except SystemExit:
        flush_or_end_quietly()  # what is still buffered is written now, or never
        raise
    finally:
        if running:  # Ray is let go at exit: as before, a signal then ends the process
            for stop in STOP_SIGNALS:
                signal.signal(stop, signal.SIG_DFL)


OUTPUT_FAILED = 1
"""The status of a command whose output could not be written (``> /dev/full``, a full disk
under a redirection), as ``cat`` and ``sort`` end then."""

WRITE_ERRORS = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO)
"""What a write to a file that stdout was redirected to fails with, beyond a closed pipe."""


def flush_or_end_quietly() -> None:
    """Flush stdout; if its reader has gone, end at once with :data:`PIPE_CLOSED`; if it
    cannot be written, with one line and :data:`OUTPUT_FAILED`."""
    if sys.stdout is None:  # started with stdout closed (`>&-`): nothing to flush
        return
    try:
        sys.stdout.flush()
    except OSError as exc:
        output_error(exc)


def output_error(exc: OSError) -> None:
    """End on an error writing stdout: its reader gone, quietly (:func:`end_quietly`); it
    cannot be written, with one line (:func:`output_failed`); anything else is raised again."""
    if isinstance(exc, BrokenPipeError):
        end_quietly()
    if exc.errno not in WRITE_ERRORS:
        raise exc
    output_failed(exc)


def output_failed(exc: OSError) -> None:
    """Stdout could not be written (a full disk, a file size limit): one line on stderr and
    :data:`OUTPUT_FAILED`, not a traceback of the write (and another at exit, flushing)."""
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), sys.stdout.fileno())
    sys.stderr.write(f"arena: error: cannot write the output: {exc.strerror or exc}\n")
    raise SystemExit(OUTPUT_FAILED)


def end_quietly() -> None:
    """The reader of stdout has gone: nothing more is written there (the interpreter's own
    flush at exit would say "Broken pipe"), and the command ends with :data:`PIPE_CLOSED`."""
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), sys.stdout.fileno())
    raise SystemExit(PIPE_CLOSED)
