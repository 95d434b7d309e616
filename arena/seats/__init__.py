"""Where a bot runs during a match.

A seat wraps one bot for one match. The referee asks it for a decision with
a time budget; the seat answers with the bot's action or raises one of the
faults below. Today bots run in-process (:mod:`arena.seats.inprocess`); a
subprocess seat speaking a line protocol will implement the same protocol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class SeatFault(Exception):
    """The bot failed this decision; ``status`` is how its seat ends the match."""

    status = "error"


class BotRaised(SeatFault):
    """The bot's code raised an exception."""

    status = "error"


class BotTimedOut(SeatFault):
    """The bot did not answer within its budget."""

    status = "timeout"


class BotCrashed(SeatFault):
    """The process running the bot died."""

    status = "crash"


class Seat(Protocol):
    """One bot in one seat of one match."""

    observes: bool
    """False if the bot never reads observations: the referee then skips building them."""

    def act(
        self,
        observation: Mapping[str, Any],
        legal_actions: Sequence[int],
        started: float,
        budget: float,
    ) -> object:
        """The bot's answer (not yet checked for legality), due ``budget`` seconds after
        ``started`` (a ``time.perf_counter()`` reading)."""
        ...

    def close(self) -> None:
        """Release whatever the seat holds (a process, a file)."""
        ...
