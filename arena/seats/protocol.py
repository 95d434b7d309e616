"""The bot host's line protocol: one JSON object per line, UTF-8, ``\\n``-terminated.

A bot host is a process that holds one bot and answers the referee. It is
started with two file descriptors of its own (``--fds IN,OUT``): it reads the
arena's messages from IN and writes its answers to OUT. Its stdin is empty
and its stdout and stderr are captured by the arena as the bot's output
(kept, truncated, with the match record); they never carry the protocol.

::

    host  -> arena  {"type": "hello", "protocol": 2, "name": NAME, "games": [..] | null,
                     "observes": true, "params": [NAMES] | null, "doc": TEXT}
    arena -> host   {"type": "start", "game": G, "seat": S, "num_players": N, "seed": X,
                     "params": {...}}
    host  -> arena  {"type": "ready"}                      (the bot is constructed)
    arena -> host   {"type": "act", "observation": {...}, "legal": [ids],
                     "static": [KEYS], "same": [KEYS]}          (both optional)
    host  -> arena  {"type": "action", "action": ID}
    arena -> host   {"type": "end", "scores": [..], "ranking": [..], "status": "ok"}
    host  -> arena  {"type": "done", "peak_kb": KB}        (ready for the next "start")

Any step may be answered with ``{"type": "error", "error": TEXT}`` instead
(the bot raised: its seat ends ``error``). The arena closes IN when it has
no more matches for the host, and the host exits. ``params`` in the hello
lists the keyword params the bot's constructor accepts (``null``: any), ``doc``
the first paragraph of the bot class's docstring (200 characters at most), and
``peak_kb`` in ``done`` the host's peak memory so far in KiB (``arena check``
shows it; left out, it counts as 0).

Protocol 2 (a host that says ``"protocol": 2`` in its hello) adds ``static``
and ``same`` to ``act``: ``static`` names the keys of this observation whose
values never change during the match (a card table, a board), sent this once;
``same`` names keys left out of this observation, whose values are the ones
sent under ``static`` earlier in the match. The host keeps the static values
from each ``start`` to the next and hands its bot the same object each time.
A protocol-1 host is sent every observation whole.

A host that answers late is killed (seat ``timeout``), one that exits is
``crash``, and one that answers something else (not JSON, another type, a
first line longer than :data:`MAX_LINE`, an answer longer than :data:`MAX_ANSWER`) is
``illegal``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

PROTOCOL = 2
"""The protocol the Python host speaks."""
STATIC_PROTOCOL = 2
"""The first protocol whose hosts keep static observation parts (``static``/``same``)."""
MAX_LINE = 4 * 1024 * 1024
"""The longest first line (a hello, a plugin's catalog) the arena reads, in bytes."""
MAX_ANSWER = 64 * 1024
"""The longest answer to a request (``ready``, ``action``, ``done``, ``error``) the arena
reads, in bytes: each is a few dozen bytes (an error's text is at most 4,000 characters,
24 KB escaped). The red team's host said each answer in 4 MiB, the answer and 1.4 million
empty objects under a key of its own, and its seat played on ``ok`` while the referee's
JSON decoder made a dict of each: its peak memory went from 22 to 133 MB and its CPU time
from 0.4 to 1.5 s in a match of 14 actions, on the worker's core, outside the bot's
limits."""


def _plain(value: object) -> object:
    """What JSON makes of a read-only mapping (an observation may be one)."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON-able")


def encode(message: dict[str, Any]) -> bytes:
    """One message as a protocol line."""
    return json.dumps(message, separators=(",", ":"), default=_plain).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """One protocol line as a message; ``ValueError`` if it is not a JSON object in UTF-8
    (nested too deeply to decode, too).

    The line is read as UTF-8 here, not by the JSON decoder: given bytes, it also reads
    UTF-16 and UTF-32 (by where the first bytes are zero), and the red team's host said its
    error so in UTF-16, with a lone surrogate in it as two bytes, neither the escape nor the
    UTF-8 form looked for below: the match record kept it (``arena leaderboard`` and the
    run's summary of faults print through :func:`arena.records.plain`, but a script that
    reads ``matches.jsonl`` and prints an error raised)."""
    try:
        message = json.loads(line.decode("utf-8", "surrogatepass"))
    except RecursionError:
        raise ValueError(f"nested too deeply: {line[:80]!r}") from None
    if not isinstance(message, dict):
        raise ValueError(f"not a JSON object: {line[:80]!r}")
    if b"\\u" in line or b"\xed" in line:  # an escape, or UTF-8 that may spell a surrogate
        # A lone surrogate is no character: text holding one (a bot's error) cannot be
        # written out as UTF-8, and raised wherever the referee's caller printed it.
        from arena.records import scrubbed

        try:
            return scrubbed(message)  # type: ignore[no-any-return]
        except RecursionError:
            # The decoder stops at Python's recursion limit, but this pass goes two frames a
            # level: a line nested 600 deep, decoded, raised here (``arena submit`` ended in a
            # traceback listing such a plugin, and so did ``arena bots`` and ``arena run``).
            raise ValueError(f"nested too deeply: {line[:80]!r}") from None
    return message
