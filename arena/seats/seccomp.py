"""The system calls a sandboxed bot host is refused: a seccomp filter bubblewrap installs.

Two seats of one tournament run in two sandboxes, but the kernel objects they can both
reach are shared: the files bound read-only into each (``/usr``, the Python installation,
the bot's own package) are the same inodes. A lock on one of them, or an ``inotify`` watch,
is a channel between two bots of one author that lets them tell each other what the game
hides (the red team's pair passed a 63-bit number a lock, noiselessly: one held a read lock
at an offset, the other asked who held one, ``F_GETLK``, and was told the offset; 20,000
locks, 400 kbit, were read in 3 s). A bot has no use for them: its scratch folder is its
own. So the filter answers, inside the sandbox:

- ``flock`` and the lock commands of ``fcntl`` (POSIX and open-file-description locks,
  leases, directory notices): ``ENOLCK``, "no locks available";
- ``inotify_init``/``inotify_init1``, ``fanotify_init``: ``EPERM``;
- the keyring calls (``add_key``, ``request_key``, ``keyctl``): ``EPERM``;
- ``io_uring_setup``/``_enter``/``_register``: ``EPERM``; work a ring queues is the
  kernel's, outside the rules on processes and stops (and outside a filter on system
  calls), and a bot needs none;
- what tells or sets which pages of a shared file the kernel holds in memory (its page
  cache, shared by every sandbox): ``mincore``, ``cachestat`` and ``preadv2``/``pwritev2``
  (whose ``RWF_NOWAIT`` fails on a page not held) answer ``ENOSYS``, as on a kernel without
  them (the C library's ``preadv2`` without flags then reads with ``preadv``);
  ``fadvise64`` (whose ``POSIX_FADV_DONTNEED`` drops a file's pages) and ``madvise``'s
  ``MADV_COLD``/``MADV_PAGEOUT`` succeed doing nothing, as advice may; ``process_madvise``:
  ``EPERM``. With them the red team's pair passed 224 bits a turn without an error (a page
  of the bot's own data file held or dropped is a bit, read back with ``mincore``). A read's
  time still tells a held page from one that is not (2,112 bits in one match without an
  error), and reading it puts it there, charged to the reader's control group, which drops
  it again when the bot fills the group's memory (the red team's bot did, with children
  that each touched 300 MiB): no filter on system calls closes that;
- ``sysinfo``: ``ENOSYS``: it tells the number of threads and the free memory of the whole
  machine, which a bot sets by holding threads or memory while it is stopped (the same
  figures in ``/proc`` are hidden by :mod:`arena.seats.sandbox`);
- ``sendmsg`` and ``sendmmsg``: ``EPERM``. They are how a descriptor is sent on a socket
  (``SCM_RIGHTS``), and descriptors sent and not yet received count for their user, the
  same one outside every sandbox (root, where the arena runs as root): while the count is
  past a sender's open-file limit (64), it may send none. One seat held some in flight and
  the other counted how many of its own still fit: the red team's pair passed a number up
  to 64 a turn, without an error. ``send``, ``sendto`` and ``write`` are left (a bot's
  ``multiprocessing`` pipes and queues use them); what is refused is passing descriptors
  (``multiprocessing``'s ``forkserver`` start, ``socket.send_fds``);
- ``fcntl``'s ``F_SETPIPE_SZ``: ``EPERM`` (a pipe keeps its 64 KiB). A pipe's pages count
  for that one user too, and once they pass ``/proc/sys/fs/pipe-user-pages-soft`` (16,384)
  no pipe of a sandbox grows: one seat held 58 pipes grown to 1 MiB (empty: no memory),
  and the other counted how many of its own still grew. At 16 pages a pipe, a host's 64
  open files hold at most 1,024;
- ``fcntl``'s ``F_SETSIG``: ``EPERM``. It names the signal a file sends its owner when it
  is ready (``O_ASYNC``, ``F_SETOWN``), and ``SIGCONT`` ends the stop that holds a host
  between its turns: the red team's set its own output pipe to send it, and the referee's
  drain, reading a byte it had left there, woke it; a thread of it then ran 0.9 to 2.9 s
  of a match's others' time. Without it a file sends ``SIGIO``, which stops nothing and
  wakes nothing;
- ``perf_event_open``: ``EPERM``, as where ``perf_event_paranoid`` forbids it. The pages of an
  event's buffer count for that one user too, up to ``perf_event_mlock_kb`` a core, and past
  it as the process's own pinned memory (``VmPin`` in ``/proc/self/status``): one seat held
  buffers while it was stopped and the other mapped one and read how much of it was pinned
  (the red team's pair passed a number up to 48 a turn, without an error). A bot has no use
  for the machine's performance counters;
- ``io_setup``: ``ENOSYS``, as on a kernel without Linux AIO (the C library's POSIX AIO uses
  threads, and is left). The events of every AIO context count for the whole machine, up to
  ``fs.aio-max-nr`` (65,536): one seat held contexts while it was stopped and the other
  counted how many of its own still fit (the red team's pair passed a number up to 65 a
  turn, without an error), and a host that held them all, kept in the pool between its
  matches, left none to any other process of the machine;
- ``eventfd2`` (and ``eventfd``): ``ENOSYS``, as on a kernel without them. Each eventfd gets
  the lowest number that no other eventfd of the whole machine holds, and
  ``/proc/self/fdinfo`` shows it (``eventfd-id``): one seat held some while it was stopped
  and the other read how many from the number of a new one (the red team's pair said a
  number up to 37 a turn and heard it right 60 turns in 60). Python's own waits, threads,
  ``asyncio``, ``subprocess`` and ``multiprocessing`` use none (``os.eventfd`` raises
  ``OSError``); a library that needs one fails in the sandbox;
- ``socket`` of the Internet's families (``AF_INET``, ``AF_INET6``) and ``AF_VSOCK`` (a virtual
  machine's line to its host, which no network namespace separates): ``EAFNOSUPPORT``, as on
  a kernel without them (a sandbox has no network; ``AF_UNIX``, pipes and socket pairs are
  left). Data sent on a connection of the sandbox's own loopback and never read is the
  kernel's memory, which a control group of cgroup v1 does not count: the red team's bot held
  95 MiB in a host whose group counted 9, in every host of it the pool kept idle, and past
  ``tcp_mem`` every TCP connection of the machine fails. The count of it, which
  ``/proc/net/sockstat`` gives in every network namespace, was a channel too.

Any other architecture's calls (a 32-bit or x32 call from a 64-bit host) kill the process.
The filter is a classic BPF program, built here (no libseccomp), for x86-64 and AArch64;
on another machine :func:`program` is None and the host runs without it (said by
:func:`arena.seats.sandbox.protections`).
"""

from __future__ import annotations

import errno
import os
import platform
import struct
from dataclasses import dataclass

_LD_W_ABS = 0x20
_JEQ = 0x15
_JGE = 0x35
_RET = 0x06
_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000

_NR, _ARCH, _ARG0, _ARG1, _ARG2 = 0, 4, 16, 24, 32
"""Offsets in ``struct seccomp_data``: the call's number, its architecture, and the low halves
of its first three arguments (``socket``'s family, ``fcntl``'s command, ``madvise``'s advice;
little-endian machines only, as both are)."""

NETWORK_FAMILIES = (2, 10, 40)
"""``socket`` families refused (``EAFNOSUPPORT``): AF_INET, AF_INET6 and AF_VSOCK (which reaches
the virtual machine's host, across network namespaces)."""

_X32 = 0x40000000

LOCK_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
"""``fcntl`` commands refused: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK,
F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY."""

PIPE_SIZE_COMMAND = 1031
"""``fcntl``'s F_SETPIPE_SZ, refused (``EPERM``): a pipe's pages count for its user."""

SIGNAL_COMMAND = 10
"""``fcntl``'s F_SETSIG, refused (``EPERM``): it let a stopped host be woken by ``SIGCONT``."""

REFUSED_COMMANDS = (PIPE_SIZE_COMMAND, SIGNAL_COMMAND)
"""``fcntl`` commands refused with ``EPERM``."""

PRETENDED_ADVICE = (20, 21)
"""``madvise`` advice that succeeds doing nothing: MADV_COLD, MADV_PAGEOUT (either drops a
file's pages from the page cache that every sandbox shares)."""


@dataclass(frozen=True, slots=True)
class Calls:
    """One machine's call numbers, as the filter treats them."""

    arch: int
    fcntl: int
    flock: int
    refused: tuple[int, ...]
    """EPERM: inotify, fanotify, keyrings, io_uring, process_madvise, sendmsg, sendmmsg,
    perf_event_open."""
    absent: tuple[int, ...]
    """ENOSYS: mincore, sysinfo, preadv2, pwritev2, cachestat, io_setup, eventfd2 (and
    eventfd, where there is one)."""
    fadvise: int
    madvise: int
    socket: int


_CALLS = {
    "x86_64": Calls(0xC000003E, 72, 73, (253, 294, 300, 248, 249, 250, 425, 426, 427, 440,
                                         46, 307, 298),
                    (27, 99, 327, 328, 451, 206, 290, 284), 221, 28, 41),
    "aarch64": Calls(0xC00000B7, 25, 32, (26, 262, 217, 218, 219, 425, 426, 427, 440,
                                          211, 269, 241),
                     (232, 179, 286, 287, 451, 0, 19), 223, 233, 198),
}


def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (this one's by default) as bubblewrap's ``--seccomp``
    reads it; None where the arena knows no call numbers for it."""
    calls = _CALLS.get(machine or platform.machine())
    if calls is None:
        return None
    code: list[tuple[int, int | str, int | str, int]] = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ, 1, 0, calls.arch),
        (_RET, 0, 0, _KILL_PROCESS),
        (_LD_W_ABS, 0, 0, _NR),
    ]
    if calls.arch == _CALLS["x86_64"].arch:
        code.append((_JGE, "kill", 0, _X32))
    code.append((_JEQ, "no-locks", 0, calls.flock))
    code += [(_JEQ, "refuse", 0, number) for number in calls.refused]
    code += [(_JEQ, "absent", 0, number) for number in calls.absent]
    # socket: its family (first argument) decides; past it, the call number is still loaded.
    code += [(_JEQ, 0, 1 + len(NETWORK_FAMILIES), calls.socket), (_LD_W_ABS, 0, 0, _ARG0)]
    code += [(_JEQ, "no-family", 0, family) for family in NETWORK_FAMILIES[:-1]]
    code.append((_JEQ, "no-family", "allow", NETWORK_FAMILIES[-1]))
    code.append((_JEQ, "pretend", 0, calls.fadvise))
    # madvise: its advice (third argument) decides; past it, the call number is still loaded.
    code += [(_JEQ, 0, 1 + len(PRETENDED_ADVICE), calls.madvise), (_LD_W_ABS, 0, 0, _ARG2)]
    code += [(_JEQ, "pretend", 0, advice) for advice in PRETENDED_ADVICE[:-1]]
    code.append((_JEQ, "pretend", "allow", PRETENDED_ADVICE[-1]))
    code += [(_JEQ, 0, "allow", calls.fcntl), (_LD_W_ABS, 0, 0, _ARG1)]
    code += [(_JEQ, "no-locks", 0, command) for command in LOCK_COMMANDS]
    code += [(_JEQ, "refuse", 0, command) for command in REFUSED_COMMANDS]
    returns = {"allow": _ALLOW, "no-locks": _ERRNO | errno.ENOLCK,
               "refuse": _ERRNO | errno.EPERM, "absent": _ERRNO | errno.ENOSYS,
               "pretend": _ERRNO, "kill": _KILL_PROCESS,
               "no-family": _ERRNO | errno.EAFNOSUPPORT}
    labels = {label: len(code) + index for index, label in enumerate(returns)}
    code += [(_RET, 0, 0, value) for value in returns.values()]
    out = bytearray()
    for index, (op, true, false, value) in enumerate(code):
        jumps = [labels[j] - index - 1 if isinstance(j, str) else j for j in (true, false)]
        out += struct.pack("<HBBI", op, *jumps, value)
    return bytes(out)


def descriptor() -> int | None:
    """A file holding the filter, at its start, for one bubblewrap to read (the caller passes
    it to the child and closes it); None where there is no filter."""
    code = program()
    if code is None:
        return None
    fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
    os.write(fd, code)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
