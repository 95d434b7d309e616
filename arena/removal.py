"""Removing a folder a bot may have written, however deep.

``shutil.rmtree`` recurses once per level of folders (on Python 3.11 and 3.12), so a folder
nested deeper than the interpreter's recursion limit (1,000 levels: a bot can make them in
a second, ``mkdir d; cd d`` in a loop) ended it in a ``RecursionError``, which
``ignore_errors`` does not catch: raised in the referee as it closed a host, or as it
cleared an earlier host's working folder when it started the next. What ``rmtree`` cannot
remove so is removed by ``rm -r``, which walks a tree of any depth without recursing.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from pathlib import Path

RM_SECONDS = 60.0
"""How long ``rm -r`` may take on what ``rmtree`` left (a bot's files are bounded by its
sandbox's disk limit)."""


def remove_tree(path: Path | str) -> None:
    """Remove ``path`` and all it holds, ignoring errors as ``rmtree(ignore_errors=True)``
    does, at any depth; a symbolic link in it is removed, never followed."""
    try:
        shutil.rmtree(path, ignore_errors=True)
        return
    except RecursionError:
        pass
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(["rm", "-r", "-f", "--one-file-system", "--", str(path)],
                       capture_output=True, timeout=RM_SECONDS, check=False)
