"""The ``arena`` console script: :func:`arena.cli.main`, imported under Ctrl-C's watch.

Importing the command line (click, rich, the ledger, the store) takes most of a second;
Ctrl-C then was a ``KeyboardInterrupt`` traceback from the middle of an import."""

from __future__ import annotations

import os
import signal
import sys

INTERRUPTED = 130
PIPE_CLOSED = 128 + signal.SIGPIPE
"""The status of a command whose reader went away (``arena leaderboard RUN | head -3``): the
shell's for a Unix tool that SIGPIPE ended, with no word said (Python's "Broken pipe"
traceback, or click's status 1)."""


def main() -> None:
    """Run the ``arena`` command; interrupted while it loads, one line and status 130; its
    output's reader gone, no word and status 141."""
    try:
        from arena.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("\nInterrupted.\n")
        raise SystemExit(INTERRUPTED) from None
    try:
        command()
    except SystemExit:
        flush_or_end_quietly()  # what is still buffered is written now, or never
        raise


def flush_or_end_quietly() -> None:
    """Flush stdout; if its reader has gone, end at once with :data:`PIPE_CLOSED`."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        end_quietly()


def end_quietly() -> None:
    """The reader of stdout has gone: nothing more is written there (the interpreter's own
    flush at exit would say "Broken pipe"), and the command ends with :data:`PIPE_CLOSED`."""
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), sys.stdout.fileno())
    raise SystemExit(PIPE_CLOSED)
