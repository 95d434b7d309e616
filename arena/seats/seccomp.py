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
  calls), and a bot needs none.

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

_LD_W_ABS = 0x20
_JEQ = 0x15
_JGE = 0x35
_RET = 0x06
_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000

_NR, _ARCH, _ARG1 = 0, 4, 24
"""Offsets in ``struct seccomp_data``: the call's number, its architecture, and the low half
of its second argument (``fcntl``'s command; little-endian machines only, as both are)."""

_X32 = 0x40000000

LOCK_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
"""``fcntl`` commands refused: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK,
F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY."""

_CALLS = {
    # machine: (audit architecture, fcntl, flock, the calls refused with EPERM)
    "x86_64": (0xC000003E, 72, 73, (253, 294, 300, 248, 249, 250, 425, 426, 427)),
    "aarch64": (0xC00000B7, 25, 32, (26, 262, 217, 218, 219, 425, 426, 427)),
}


def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (this one's by default) as bubblewrap's ``--seccomp``
    reads it; None where the arena knows no call numbers for it."""
    known = _CALLS.get(machine or platform.machine())
    if known is None:
        return None
    arch, fcntl, flock, refused = known
    no_locks = _ERRNO | errno.ENOLCK
    code: list[tuple[int, int | str, int | str, int]] = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ, 1, 0, arch),
        (_RET, 0, 0, _KILL_PROCESS),
        (_LD_W_ABS, 0, 0, _NR),
    ]
    if arch == _CALLS["x86_64"][0]:
        code.append((_JGE, "kill", 0, _X32))
    code.append((_JEQ, "no-locks", 0, flock))
    code += [(_JEQ, "refuse", 0, number) for number in refused]
    code += [(_JEQ, 0, "allow", fcntl), (_LD_W_ABS, 0, 0, _ARG1)]
    code += [(_JEQ, "no-locks", 0, command) for command in LOCK_COMMANDS]
    labels = {"allow": len(code), "no-locks": len(code) + 1, "refuse": len(code) + 2,
              "kill": len(code) + 3}
    code += [(_RET, 0, 0, _ALLOW), (_RET, 0, 0, no_locks), (_RET, 0, 0, _ERRNO | errno.EPERM),
             (_RET, 0, 0, _KILL_PROCESS)]
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
