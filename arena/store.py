"""The results folder of a run: ``config.json``, ``matches.jsonl``, ``failures.jsonl``.

``matches.jsonl`` is append-only, one JSON object per finished match, flushed
as each lands (a batch from a worker in one write), so a run interrupted at any
moment loses at most the lines being written. Readers skip a truncated or
corrupt line with a warning instead of failing; resuming cuts a torn last line
off before appending.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import resource
import stat
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from arena.errors import ArenaError
from arena.records import MatchResult, plain

CONFIG = "config.json"
MATCHES = "matches.jsonl"
OUTPUTS = "outputs"
"""The folder of what sandboxed bots printed: ``outputs/<match id>.txt``, one per match
in which some bot printed anything."""
FAILURES = "failures.jsonl"
OUTPUT_BYTES_PER_LABEL = 16 * 1024 * 1024
"""What one label's printed output may take in ``outputs/`` over a session of a run. A seat's
output is already cut to 64 KiB a match; without this a bot printing that much every match
would grow the folder by 64 KiB a match (64 GB over a million). Past it, a line says so."""


class FolderInUse(ArenaError):
    """Another process runs a tournament into this results folder now."""


class FolderLost(ArenaError):
    """``matches.jsonl`` was deleted (the folder with it) while the run wrote it."""


_CLAIMS: dict[tuple[int, int], int] = {}
"""The results folders this process holds, by device and inode: their open descriptors."""


@dataclass(slots=True)
class Loaded:
    """What a results file held: the good results and what was wrong with the rest."""

    results: list[MatchResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def read_results(path: Path, keep: Callable[[MatchResult], bool] | None = None) -> Loaded:
    """Every readable match of a ``matches.jsonl`` (that ``keep`` keeps); bad lines become
    warnings."""
    loaded = Loaded()
    loaded.results.extend(scan_results(path, loaded.warnings, keep))
    return loaded


def scan_results(
    path: Path, warnings: list[str], keep: Callable[[MatchResult], bool] | None = None
) -> Iterator[MatchResult]:
    """The readable matches of a ``matches.jsonl`` one at a time (a million-match file is
    never held whole), the first of each id; bad lines are added to ``warnings``. With
    ``keep``, only the matches it keeps, the first of each id among those (a line of another
    run before the run's own does not hide it)."""
    seen: set[str] = set()
    try:
        opened = path.open(encoding="utf-8", errors="replace")
    except OSError as exc:  # no permission to read it: was a PermissionError traceback
        raise ArenaError(f"cannot read {path}: {exc.strerror or exc}") from None
    with opened as handle:
        for number, (line, whole) in enumerate(bounded_lines(handle, MAX_LINE_CHARS), start=1):
            if not whole:
                warnings.append(f"{path.name} line {number}: longer than "
                                f"{MAX_LINE_CHARS:,} characters; skipped")
                continue
            if not line.strip():
                continue
            result = _parse(line, number, path, warnings)
            if result is None or (keep is not None and not keep(result)):
                continue
            if result.id in seen:
                warnings.append(
                    f"{path.name} line {number}: match {result.id} repeated; kept the first"
                )
                continue
            seen.add(result.id)
            yield result


MAX_LINE_CHARS = 64 * 1024 * 1024
"""The longest line of ``matches.jsonl`` read: a match of a million actions takes a few MB; a
line of gigabytes (a hostile or broken file) would be held whole, and then decoded."""


def check_writable(directory: Path, flag: str = "--out") -> None:
    """Refuse, before anything starts, a results folder that cannot be made or written
    (``flag``: the option that names it, for the way out)."""
    if directory.exists() and not directory.is_dir():
        raise ArenaError(
            f"results folder {directory} is a file, not a folder; choose another {flag}"
        )
    existing = directory
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise ArenaError(
            f"results folder {directory} cannot be made: {existing} is a file; "
            f"choose another {flag}"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ArenaError(
            f"results folder {directory} cannot be written: {unwritable(existing)}; "
            f"choose another {flag}"
        )
    for name in (CONFIG, "matches.jsonl", "failures.jsonl"):
        path = directory / name
        if path.exists() and (path.is_dir() or not os.access(path, os.W_OK)):
            why = "it is a folder" if path.is_dir() else unwritable(path)
            raise ArenaError(f"results file {path} cannot be written: {why}; "
                             f"choose another {flag}")


def unwritable(path: Path) -> str:
    """Why ``path``, which cannot be written, cannot: a read-only file system (a mount, a
    snapshot), no write permission for anyone (read-only), or none for this user; all three
    were "no permission"."""
    with contextlib.suppress(OSError):
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return f"{path} is on a read-only file system"
    with contextlib.suppress(OSError):
        if not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            return f"{path} is read-only"
    return f"no permission to write in {path}" if path.is_dir() else \
        f"no permission to write {path}"


def file_size_limit() -> int | None:
    """The largest file this process may write, in bytes (``ulimit -f``); None: no limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def size_limit_text(limit: int) -> str:
    """The limit in bytes, and as ``ulimit -f`` sets it (KiB) where it is a whole number."""
    return f"{limit:,} bytes" + (f", ulimit -f {limit // 1024}" if limit % 1024 == 0 else "")


def bounded_lines(handle: IO[str], limit: int = MAX_LINE_CHARS) -> Iterator[tuple[str, bool]]:
    """The lines of ``handle``, each with whether it is whole: a line longer than ``limit``
    characters is given as its first ``limit`` (False), the rest of it read and dropped."""
    while line := handle.readline(limit):
        if len(line) < limit or line.endswith("\n"):
            yield line, True
            continue
        while (rest := handle.readline(limit)) and not rest.endswith("\n"):
            pass
        yield line, False


def _parse(line: str, number: int, path: Path, warnings: list[str]) -> MatchResult | None:
    try:
        return MatchResult.from_json(json.loads(line))
    except json.JSONDecodeError:
        torn = "" if line.endswith("\n") else " (truncated: the run was probably interrupted)"
        warnings.append(f"{path.name} line {number}: not valid JSON{torn}; skipped")
    except RecursionError:
        warnings.append(f"{path.name} line {number}: nested too deep; skipped")
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        # plain(): the message may quote the line (a label with its terminal codes).
        warnings.append(f"{path.name} line {number}: not a match record "
                        f"({plain(repr(exc))[:200]}); skipped")
    return None


def own_file(path: Path, mode: str) -> IO[Any]:
    """``path`` opened to write (``"a"``, ``"w"``: text; ``"rb+"``), never through a symbolic
    link: a results folder may come from anyone, and its ``matches.jsonl`` or checkpoint made
    a link to ``~/.bashrc`` had the arena append to it, cut it or write it over."""
    flags = {"a": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
             "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC, "rb+": os.O_RDWR}[mode]
    try:
        # O_NONBLOCK: a FIFO in its place is refused (ENXIO), not waited on for ever.
        descriptor = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ArenaError(f"{path} is a symbolic link: the arena writes no results through "
                             "one (remove it, or use another folder)") from None
        if exc.errno == errno.ENXIO:
            raise ArenaError(f"{path} is not a file") from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise ArenaError(f"{path} is not a file")
    os.set_blocking(descriptor, True)
    if mode == "rb+":
        return os.fdopen(descriptor, mode)
    return os.fdopen(descriptor, mode, encoding="utf-8")


def cut_torn_tail(path: Path) -> bool:
    """Remove a last line that lacks its newline (a write cut short). True if cut."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    with own_file(path, "rb+") as handle:
        handle.seek(-1, os.SEEK_END)
        if handle.read(1) == b"\n":
            return False
        end = handle.seek(0, os.SEEK_END)
        while end > 0:  # back from the end a chunk at a time: the file may hold millions
            start = max(0, end - TAIL_CHUNK)
            handle.seek(start)
            newline = handle.read(end - start).rfind(b"\n")
            if newline >= 0:
                handle.truncate(start + newline + 1)
                return True
            end = start
        handle.truncate(0)
    return True


TAIL_CHUNK = 1 << 20
"""Bytes :func:`cut_torn_tail` reads at a time, from the end, looking for the last newline."""


_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


def record(result: MatchResult) -> dict[str, Any]:
    """The line of ``matches.jsonl`` for ``result``: :meth:`MatchResult.to_json`, built
    directly (``dataclasses.asdict`` deep-copies every field: too slow for a driver that
    stores tens of thousands of matches a second). Tuples stay tuples: JSON reads them as
    lists."""
    return {
        "id": result.id,
        "game": result.game,
        "seed": result.seed,
        "seats": result.seats,
        "scores": result.scores,
        "ranking": result.ranking,
        "statuses": result.statuses,
        "actions": result.actions,
        "seconds": result.seconds,
        "think_seconds": result.think_seconds,
        "max_move_seconds": result.max_move_seconds,
        "errors": result.errors,
        "history": result.history,
    }


def encoded(result: MatchResult) -> MatchResult:
    """What a worker sends the driver of ``result``: its line of ``matches.jsonl``, encoded
    once there, so that the driver, which stores every match of the run, only writes it;
    and beside the line only the fields the driver reads. The replay and the times per
    seat (``history``, ``think_seconds``, ``max_move_seconds``) are in the line alone:
    they are most of a result, and nothing but the line needs them."""
    return MatchResult(
        result.id, result.game, result.seed, result.seats, result.scores, result.ranking,
        result.statuses, result.actions, result.seconds, (), (), result.errors, (),
        result.outputs, _ENCODE(record(result)))


class RunStore:
    """Writes one run's folder. Use as a context manager around the run."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.matches_path = directory / MATCHES
        self.failures_path = directory / FAILURES
        self._matches: IO[str] | None = None
        self._failures: IO[str] | None = None
        self._output_bytes: dict[str, int] = {}
        """Bytes of output kept so far this session, per label."""
        self._claim: tuple[int, int] | None = None

    @property
    def claimed(self) -> bool:
        """True if this process holds the folder (see :meth:`claim`)."""
        return self._claim is not None

    def claim(self) -> None:
        """Hold the (existing) folder for this process's run: a second ``arena run`` into it
        (another terminal, a job started twice) is refused with :class:`FolderInUse`. Two runs
        used to play the same matches side by side, each appending every one of them.

        An advisory ``flock`` on the folder itself: nothing is written, and the kernel lets go
        when the process ends, however it ends (SIGKILL too), so no stale lock remains. A
        process may claim a folder again: it holds it already."""
        if self._claim is not None:
            return
        descriptor = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        info = os.fstat(descriptor)
        key = (info.st_dev, info.st_ino)
        if key in _CLAIMS:
            os.close(descriptor)
            self._claim = key
            return
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            raise FolderInUse(
                f"{self.directory} is in use by another arena run, which is writing to it "
                "now; wait for it to end (or stop it, and continue it with --resume), or "
                "choose another folder with --out") from None
        except OSError:
            # A file system without flock on a folder (some network mounts): the run goes on
            # unguarded, as every run did before, rather than not at all.
            os.close(descriptor)
            self._claim = key
            return
        _CLAIMS[key] = descriptor
        self._claim = key

    def release(self) -> None:
        """Let go of the folder claimed by :meth:`claim` (a no-op if it was not)."""
        if self._claim is not None:
            descriptor = _CLAIMS.pop(self._claim, None)
            if descriptor is not None:
                os.close(descriptor)
            self._claim = None

    def saved_config(self) -> dict[str, Any] | None:
        path = self.directory / CONFIG
        if not path.exists():
            return None
        if not path.is_file():  # a FIFO would be waited on for ever
            raise ArenaError(f"{path}: not a file")
        try:
            data = json.loads(read_bounded(path, MAX_SAVED_BYTES))
        except (OSError, ValueError) as exc:
            raise ArenaError(f"{path}: unreadable saved config ({plain(str(exc))})") from None
        except RecursionError:
            raise ArenaError(f"{path}: unreadable saved config (nested too deep)") from None
        if not isinstance(data, dict):
            raise ArenaError(f"{path}: not a saved config (a {type(data).__name__}, "
                             "not an object)")
        return data

    def has_results(self) -> bool:
        return self.matches_path.exists() and self.matches_path.stat().st_size > 0

    def start(self, config: dict[str, Any]) -> None:
        """Create the folder and write the resolved config (a fresh run)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        with own_file(self.directory / CONFIG, "w") as handle:
            handle.write(json.dumps(config, indent=2) + "\n")

    def scan_done(self, warnings: list[str]) -> Iterator[MatchResult]:
        """The matches already recorded, one at a time, after cutting a torn tail (said
        first in ``warnings``, with what is wrong with other lines)."""
        if not self.matches_path.exists():
            return
        if not self.matches_path.is_file():  # a FIFO would be waited on for ever
            raise ArenaError(f"{self.matches_path} is not a file")
        try:
            cut = cut_torn_tail(self.matches_path)
        except OSError as exc:  # no permission: was a PermissionError traceback
            raise ArenaError(f"cannot read and write {self.matches_path}: "
                             f"{exc.strerror or exc}") from None
        if cut:
            warnings.append(f"{MATCHES}: dropped a truncated last line; that match is replayed")
        yield from scan_results(self.matches_path, warnings)

    def __enter__(self) -> RunStore:
        self.directory.mkdir(parents=True, exist_ok=True)
        self._matches = own_file(self.matches_path, "a")
        return self

    def __exit__(self, *exc: object) -> None:
        for handle in (self._matches, self._failures):
            if handle is not None:
                handle.close()

    def append(self, result: MatchResult) -> None:
        """Record a finished match: one line (the one it carries, if a worker encoded it),
        flushed now."""
        self.append_all([result])

    def append_all(self, results: list[MatchResult]) -> None:
        """Record finished matches (a batch from a worker): their lines in one write, flushed
        now. Killed before the write, none of them is recorded, and ``--resume`` plays them
        again; killed during it, the last line may be torn, and is cut off on resuming."""
        assert self._matches is not None, "use RunStore as a context manager"
        lines = []
        for result in results:
            if result.outputs:
                self._save_outputs(result)
            lines.append(result.line or _ENCODE(record(result)))
        lines.append("")
        before = os.fstat(self._matches.fileno()).st_size
        try:
            self._matches.write("\n".join(lines))
            self._matches.flush()
        except OSError:
            self._cut_back(before)
            raise
        if os.fstat(self._matches.fileno()).st_nlink == 0:
            # Deleted under the run (rm -r of the folder): the writes went on into a file no
            # path reaches, and the run ended "done" with nothing on disk.
            raise FolderLost(
                f"{self.matches_path} was deleted while the run wrote it: the matches "
                "recorded there are gone with it")

    def _cut_back(self, size: int) -> None:
        """After a write that failed partway (the file size limit, a full disk), the file as
        it was before it: whole lines only, none of this batch's (the handle, which would
        write the rest of its buffer when closed, goes too)."""
        assert self._matches is not None
        handle, self._matches = self._matches, None
        with contextlib.suppress(OSError):
            handle.close()
        with contextlib.suppress(OSError):
            os.truncate(self.matches_path, size)

    def _save_outputs(self, result: MatchResult) -> None:
        """What the match's bots printed, seat by seat, beside the match record."""
        if not any(output.strip() for output in result.outputs):
            return
        folder = self.directory / OUTPUTS
        if folder.is_symlink():
            raise ArenaError(f"{folder} is a symbolic link: the arena writes no results "
                             "through one (remove it, or use another folder)")
        folder.mkdir(exist_ok=True)
        # Each printed line is indented: a bot cannot print a header of another seat's. And
        # without its terminal codes: shown with cat, a cursor move and a line erased let one
        # overwrite a header all the same, and an OSC 52 code sets the reader's clipboard.
        parts = [f"=== seat {seat}: {label} ({status}) ===\n"
                 + textwrap.indent(self._kept(label, plain(output)), "  ", lambda line: True)
                 for seat, (label, status, output)
                 in enumerate(zip(result.seats, result.statuses, result.outputs, strict=True))
                 if output.strip()]
        with own_file(folder / f"{result.id}.txt", "w") as handle:
            handle.write("\n".join(parts))

    def _kept(self, label: str, output: str) -> str:
        """``output``, or a line saying why not: ``label`` printed its share of the run."""
        used = self._output_bytes.get(label, 0)
        if used >= OUTPUT_BYTES_PER_LABEL:
            return (f"[not kept: {label} printed more than {OUTPUT_BYTES_PER_LABEL >> 20} MiB "
                    "in this session of the run]\n")
        self._output_bytes[label] = used + len(output.encode("utf-8", "replace"))
        return output

    def append_failure(self, match_id: str, reason: str) -> None:
        """Record a match that could not be played; ``--resume`` tries it again."""
        if self._failures is None:
            self._failures = own_file(self.failures_path, "a")
        self._failures.write(json.dumps({"id": match_id, "reason": plain(reason)}) + "\n")
        self._failures.flush()


def results_file(run_dir: Path) -> Path | None:
    """The ``matches.jsonl`` of the run folder ``run_dir`` (None if it has none). A file
    given for the folder, and a folder in place of the file, are said as such: both were
    "does not exist", and the second a table of no match at all."""
    if run_dir.exists() and not run_dir.is_dir():
        folder = f": give its folder, {run_dir.parent}" if run_dir.name == MATCHES else ""
        raise ArenaError(f"{run_dir} is a file, not a run folder{folder}")
    path = run_dir / MATCHES
    if path.exists() and not path.is_file():
        raise ArenaError(f"{path} is not a file (a run folder's {MATCHES} is one)")
    return path if path.is_file() else None


def read_failures(directory: Path) -> list[dict[str, Any]]:
    """The failure records of a run (latest per match id), tolerating bad lines."""
    path = directory / FAILURES
    if not path.is_file():
        return []
    latest: dict[str, dict[str, Any]] = {}
    try:
        # A line at a time, each of MAX_LINE_CHARS at most, as matches.jsonl is read: the
        # whole file at once held a hand-made one of 3 GB (a sparse file, taking no room on
        # disk) in memory, and arena leaderboard ended in a MemoryError traceback.
        with path.open(encoding="utf-8", errors="replace") as handle:
            for line, whole in bounded_lines(handle, MAX_LINE_CHARS):
                try:
                    record = json.loads(line) if whole else None
                except (json.JSONDecodeError, RecursionError):
                    continue
                # A record of the arena's: an object with a match id. {"id": 3} counted as a
                # failed match "3" in the leaderboard's warning.
                if isinstance(record, dict) and isinstance(record.get("id"), str):
                    latest[record["id"]] = record
    except OSError:  # unreadable: the matches' table needs none of it
        return []
    return list(latest.values())


MAX_SAVED_BYTES = 64 * 1024 * 1024
"""The most a run folder's ``config.json`` (or its rating checkpoint) may hold, in bytes: the
arena writes some kilobytes (a few hundred bytes a bot). Each is read whole, and a results
folder may come from anyone: the red team's, of 3 GB (sparse files, taking no room on disk),
ended ``arena leaderboard`` in a MemoryError traceback (or in the kernel's kill, with more
gigabytes)."""


def read_bounded(path: Path, limit: int) -> str:
    """The text of the file at ``path`` (UTF-8), refused with ``ValueError`` if it holds more
    than ``limit`` bytes: never more than ``limit`` is read."""
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"it holds more than {limit >> 20} MiB, more than a run folder's "
                         "own file does")
    return data.decode("utf-8")
