"""Errors in what the user gave: a config, a name, a path.

The CLI prints their message alone (no traceback) and exits with status 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class ArenaError(Exception):
    """A problem with the user's input, explained in the message."""


def unknown_name(kind: str, name: str, known: Iterable[str], *, where: str = "") -> ArenaError:
    """An error for an unknown name (a game, a bot, a config key, an option), suggesting
    the closest known ones (or those holding the name, as ``dinosaurs`` for
    ``lost-valley-of-the-dinosaurs``); ``where`` (a config table) goes in front."""
    known = sorted(known)
    close = closest(name, known)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    listing = ", ".join(known) if known else (
        "none" if where else "none stored" if kind.startswith("stored") else "none installed")
    prefix = f"{where}: " if where else ""
    return ArenaError(f"{prefix}unknown {kind} {name!r}{hint} (known {kind}s: {listing})")


def closest(name: str, known: Iterable[str]) -> list[str]:
    """Up to three of ``known`` that ``name`` may have meant: those holding it first (those
    starting with it before the rest), then the most alike."""
    known = sorted(known)
    holding: list[str] = []
    if len(name) >= 3:
        # "explorers" is first "explorers-of-the-lost-valley", then "lost-explorers".
        holding = sorted((other for other in known if name.lower() in other.lower()),
                         key=lambda other: not other.lower().startswith(name.lower()))
    similar = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    return list(dict.fromkeys([*holding, *similar]))[:3]
