"""The copy of a submitted package that ``arena submit`` builds from: its regular files alone,
and a bounded amount of them.

The copy is made by the arena's own process, as the arena's user (root, where it runs as
root), before anything is sandboxed, from a folder (or an sdist) a stranger made. So what
that folder holds must not make the copy read what the stranger could not, or write without
end: a device node (an archive extracted as root makes them) was read as a file, and
``/dev/zero``'s filled the store's disk; a named pipe raised a traceback in the middle of
``arena submit``; a sparse file, or one file hard-linked many times, takes next to nothing
in the folder and was written out whole, as often as it was linked.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from arena.errors import ArenaError

COPY_LIMIT = 768 * 1024 * 1024
"""The most a package's copy may hold, in bytes of its files' contents: what the sandboxed
build's private ``/tmp`` holds (``BUILD_SCRATCH_MB`` of :mod:`arena.submit` is this), so no
package whose sandboxed build could hold its copy is refused by it."""

CHUNK = 1 << 20
"""Bytes read at a time."""


class _Copier:
    """A ``copy_function`` for :func:`shutil.copytree`: each file checked to be a regular one
    and copied within what is left of :data:`COPY_LIMIT`."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self.left = COPY_LIMIT

    def __call__(self, source: str, target: str) -> str:
        shown = os.path.relpath(source, self.top)
        # lstat first: opening a device may itself do something (a tape rewinds).
        if not stat.S_ISREG(os.lstat(source).st_mode):
            raise _special(self.top, shown)
        descriptor = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(descriptor, "rb") as reader:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # replaced since the lstat
                raise _special(self.top, shown)
            with open(target, "wb") as writer:
                while chunk := reader.read(min(CHUNK, self.left + 1)):
                    self.left -= len(chunk)
                    if self.left < 0:
                        raise ArenaError(
                            f"{self.top}: its files hold more than {COPY_LIMIT >> 20} MiB (at "
                            f"{shown}), more than its build may hold; take out what is not "
                            "the bot's (a virtualenv, data it does not ship)")
                    writer.write(chunk)
        shutil.copystat(source, target)
        return target


def _special(top: Path, shown: str) -> ArenaError:
    return ArenaError(f"{top}: {shown} is not a regular file, a folder or a symbolic link (a "
                      "device, a named pipe or a socket), which the arena does not read: "
                      "take it out of the package")


MAX_ENTRIES = 100_000
"""The most files, folders and links a package's copy may hold: each is an inode of the
arena's disk and a step of the copy (bytes alone were bounded, and a folder of a million
empty files was copied whole); what a wheel may hold (``MAX_MEMBERS`` of
:mod:`arena.submit`)."""


def copy_package(
    source: Path, target: Path, ignore: Callable[[str, list[str]], set[str]] | None = None
) -> None:
    """Copy the package at ``source`` (a folder, whose symbolic links stay links, or an sdist
    file) to ``target``: regular files only, :data:`COPY_LIMIT` bytes of them at most,
    :data:`MAX_ENTRIES` entries at most (``ArenaError`` otherwise, in one line). A folder
    nested too deep for the copy's recursion is refused too: its 1,500 nested folders ended
    ``arena submit`` in a ``RecursionError`` traceback."""
    if source.is_dir():
        left = [MAX_ENTRIES]

        def counted(folder: str, names: list[str]) -> set[str]:
            skipped = ignore(folder, names) if ignore is not None else set()
            left[0] -= len(names) - len(skipped)
            if left[0] < 0:
                raise ArenaError(f"{source}: it holds more than {MAX_ENTRIES:,} files and "
                                 "folders, more than a bot's package does; take out what is "
                                 "not the bot's (a virtualenv, data it does not ship)")
            return set(skipped)

        try:
            shutil.copytree(source, target, symlinks=True, ignore=counted,
                            copy_function=_Copier(source))
        except RecursionError:
            raise ArenaError(f"{source}: its folders are nested too deep to copy; a bot's "
                             "package holds no such tree") from None
    else:
        real = Path(os.path.realpath(source))
        _Copier(real.parent)(str(real), str(target))
