"""Where a bot runs during a match.

A seat wraps one bot for one match, and builds it: the bot's import,
constructor and parameter checks happen where the bot runs. The referee asks
:func:`open_seat` for a seat (the match's ``isolation`` decides which kind)
and knows it only through the :class:`Seat` protocol: a decision with a time
budget, answered with the bot's action or one of the faults below, and a
final ``close`` that hands back what the bot printed.

- ``"process"`` (the default, :mod:`arena.seats.process`): the bot lives in a
  sandboxed host process speaking a JSON-lines protocol; no bot code runs in
  the referee's process.
- ``"inprocess"`` (:mod:`arena.seats.inprocess`): the bot is called directly;
  fast, for trusted bots only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from arena.records import MatchSpec


class SeatFault(Exception):
    """The bot failed; ``status`` is how its seat ends the match, ``output`` what it printed."""

    status = "error"

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.output = output


class BotRaised(SeatFault):
    """The bot's code raised an exception."""

    status = "error"


class BotTimedOut(SeatFault):
    """The bot did not answer within its budget."""

    status = "timeout"


class BotIllegal(SeatFault):
    """The bot's host answered out of protocol (not JSON, the wrong message, too long)."""

    status = "illegal"


class BotCrashed(SeatFault):
    """The process running the bot died."""

    status = "crash"


class Seat(Protocol):
    """One bot in one seat of one match."""

    observes: bool
    """False if the bot never reads observations: the referee then skips building them."""

    startup: float
    """Seconds the seat took to start its bot (import and constructor)."""

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

    def close(self, outcome: Mapping[str, Any] | None = None) -> str:
        """End the match for the bot (``outcome``: scores, ranking and the seat's status; None
        if the seat faulted) and release what the seat holds; returns the bot's output."""
        ...


def open_seat(spec: MatchSpec, index: int) -> Seat:
    """The seat ``index`` of ``spec``, its bot built; raises :class:`SeatFault` if it cannot
    start."""
    seat_spec = spec.seats[index]
    limits = spec.limits
    start = {"game": spec.game, "seat": index, "num_players": len(spec.seats),
             "seed": spec.bot_seeds[index], "params": dict(seat_spec.params)}
    if limits.isolation == "inprocess":
        from arena.seats.inprocess import InProcessSeat

        return InProcessSeat(seat_spec.bot, start, limits.startup_seconds,
                             limits.move_seconds + limits.bank_seconds)
    from arena.seats.process import ProcessSeat
    from arena.seats.sandbox import Confinement

    return ProcessSeat(
        bot=seat_spec.bot.partition("@")[0],
        plugin=seat_spec.plugin or _plugin_of(seat_spec.bot),
        environment=seat_spec.environment,
        start=start,
        confinement=Confinement(memory_mb=limits.memory_mb, cpus=limits.cpus),
        sandbox=limits.sandbox,
        startup_seconds=limits.startup_seconds,
        deal=spec.seed,
    )


def _plugin_of(bot: str) -> str:
    """The plugin module that registers ``bot``, found by asking sandboxed hosts."""
    from arena.catalog import sandboxed_registry

    return sandboxed_registry().bot_info(bot).module
