"""The views of a replayed match (:mod:`arena.replay`): a text transcript, and an
interactive stepper for the terminal.

Keys of the stepper (one key press each on a terminal; from a pipe, one per line):

- ``l``, ``n``, space, Enter or the right arrow: one step forward;
- ``h``, ``p``, ``b`` or the left arrow: one step back;
- a digit ``0``-``9``: forward to the next decision of that seat;
- ``g`` / ``G``: the first / the last position;
- ``q``, Escape or the end of input: quit.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.errors import MarkupError
from rich.text import Text

from arena.records import plain
from arena.replay import Replay

HELP = ("keys: l/space/-> next  h/<- back  0-9 next decision of that seat  "
        "g/G first/last  q quit")


def board_text(board: str) -> Text:
    """A board from ``render()``: rich markup read as styles; text that is not valid markup
    is shown as it is."""
    try:
        return Text.from_markup(board)
    except MarkupError:
        return Text(plain(board))


def header(replay: Replay) -> list[str]:
    """Who played the match and how it ended, as plain lines."""
    record = replay.record
    options = f" with options {replay.options}" if replay.options else ""
    # plain(): the record's game is any text a results folder holds, which may come from
    # anyone (the red team's set the terminal's title and cleared its screen).
    lines = [f"match {record.id}: {plain(record.game)}{options}, {len(replay.steps)} actions"]
    for seat, label in enumerate(record.seats):
        status = record.statuses[seat] if seat < len(record.statuses) else "?"
        error = record.errors[seat] if seat < len(record.errors) else None
        why = f": {plain(error).strip().splitlines()[-1]}" if error and error.strip() else ""
        lines.append(f"  seat {seat}: {plain(label)} ({status}{why})")
    return lines


def result_lines(replay: Replay) -> list[str]:
    """The recorded result, and whether the replay reproduced it."""
    record = replay.record
    places = ", ".join(
        f"{plain(label)} {place + 1}" for label, place in zip(record.seats, record.ranking,
                                                              strict=False)
    )
    scores = ", ".join(f"{plain(label)} {score:g}" for label, score in zip(record.seats,
                                                                         record.scores,
                                                                         strict=False))
    lines = [f"result: places {places}; scores {scores}"]
    if replay.problems:
        lines += [f"CHECK FAILED: {plain(problem)}" for problem in replay.problems]
    else:
        lines.append("checked: the replay reproduces the recorded scores and ranking")
    return lines


def transcript(replay: Replay, boards: bool = False) -> Iterator[Text | str]:
    """The whole match as text: header, first board, every action, last board, result and
    check. ``boards``: also the board before every decision."""
    yield from header(replay)
    yield ""
    yield board_text(replay.board(0))
    yield ""
    width = len(str(len(replay.steps)))
    for step in replay.steps:
        if boards and step.actor >= 0 and step.number > 1:
            yield ""
            yield board_text(replay.board(step.number - 1))
        yield f"{step.number:>{width}}. {replay.label(step.actor)}: {plain(step.text)}"
    yield ""
    yield board_text(replay.board(len(replay.steps)))
    yield ""
    yield from result_lines(replay)


def print_transcript(replay: Replay, console: Console, boards: bool = False) -> None:
    for part in transcript(replay, boards):
        console.print(part, markup=False, highlight=False, soft_wrap=True)


def frame(replay: Replay, position: int) -> list[Text | str]:
    """What the stepper shows at ``position``: the seats, the board, then where it stands
    (last, so a board taller than the terminal pushes only the seats off the top)."""
    steps = replay.steps
    parts: list[Text | str] = [*header(replay), "", board_text(replay.board(position)), ""]
    parts.append(f"position {position}/{len(steps)}")
    if position:
        step = steps[position - 1]
        parts.append(f"last: {step.number}. {replay.label(step.actor)}: {plain(step.text)}")
    else:
        parts.append("last: - (the start)")
    if position < len(steps):
        upcoming = steps[position]
        parts.append(f"next: {replay.label(upcoming.actor)} to move; "
                     f"plays {plain(upcoming.text)}")
    else:
        parts += result_lines(replay)
    parts.append(HELP)
    return parts


def step_through(replay: Replay, console: Console, read_key: Callable[[], str]) -> None:
    """Show positions one at a time, moving with the keys from ``read_key`` until quit."""
    position, last = 0, len(replay.steps)
    note = ""
    while True:
        console.clear()
        for part in frame(replay, position):
            console.print(part, markup=False, highlight=False)
        if note:
            console.print(note, markup=False, highlight=False)
        key, note = read_key(), ""
        if key in ("q", "\x1b", ""):
            return
        if key in ("l", "n", " ", "\r", "\n", "RIGHT"):
            position = min(last, position + 1)
        elif key in ("h", "p", "b", "LEFT"):
            position = max(0, position - 1)
        elif key == "g":
            position = 0
        elif key == "G":
            position = last
        elif key.isdecimal():  # not isdigit: int() cannot read a superscript "²"
            seats = len(replay.record.seats)
            found = replay.next_decision(position, int(key))
            if int(key) >= seats:
                note = f"no seat {key}: the seats of this match are 0 to {seats - 1}"
            elif found is None:
                note = f"seat {key} has no decision after position {position}"
            else:
                position = found
        else:
            note = f"unknown key {key!r}; {HELP}"


_ARROWS = {"[C": "RIGHT", "[D": "LEFT", "OC": "RIGHT", "OD": "LEFT"}


def _character(descriptor: int, first: bytes) -> str:
    """One key press from its first byte: a character beyond ASCII comes as two to four
    bytes of UTF-8, read one at a time, and was answered as two to four unknown keys."""
    more = (1 if first[0] >= 0xC0 else 0) + (first[0] >= 0xE0) + (first[0] >= 0xF0)
    data = first
    while len(data) <= more and select.select([descriptor], [], [], 0.05)[0]:
        data += os.read(descriptor, 1)
    return data.decode(errors="replace")


@contextlib.contextmanager
def keys() -> Iterator[Callable[[], str]]:
    """A reader of single key presses from the terminal (raw mode while it is open), or of
    lines from a pipe (the first character of each line; an empty line is Enter)."""
    if not sys.stdin.isatty():
        yield _line_key
        return
    import termios
    import tty

    descriptor = sys.stdin.fileno()
    saved = termios.tcgetattr(descriptor)
    try:
        tty.setcbreak(descriptor)
        yield lambda: _raw_key(descriptor)
    finally:
        termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)


def _line_key() -> str:
    line = sys.stdin.readline()
    if not line:
        return ""
    return line.rstrip("\n")[:1] or "\n"


def _raw_key(descriptor: int) -> str:
    first = os.read(descriptor, 1)
    if first != b"\x1b":
        return _character(descriptor, first)
    sequence = ""
    while len(sequence) < 2 and select.select([descriptor], [], [], 0.05)[0]:
        sequence += os.read(descriptor, 1).decode(errors="replace")
    return _ARROWS.get(sequence, "\x1b" if not sequence else "?")
