"""The ``arena`` console script: :func:`arena.cli.main`, imported under Ctrl-C's watch.

Importing the command line (click, rich, the ledger, the store) takes most of a second;
Ctrl-C then was a ``KeyboardInterrupt`` traceback from the middle of an import."""

from __future__ import annotations

import sys

INTERRUPTED = 130


def main() -> None:
    """Run the ``arena`` command; interrupted while it loads, one line and status 130."""
    try:
        from arena.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("\nInterrupted.\n")
        raise SystemExit(INTERRUPTED) from None
    command()
